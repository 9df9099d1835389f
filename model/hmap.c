#include "config.h"

#include "model/hmap.h"

#include <stdlib.h>
#include <string.h>

#include "model/util.h"

struct u64slot {
	uint64_t key;
	void *val;		/* NULL: empty slot */
};

struct strslot {
	uint64_t hash;
	char *key;		/* NULL: empty slot */
	size_t len;
	void *val;
};

/* A 64-bit finaliser (splitmix64): sequential ids spread well. */
static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* FNV-1a of n bytes, mixed: the string maps' hash. */
static uint64_t hmap_hash(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < n; i++) {
		h ^= s[i];
		h *= 1099511628211ull;
	}
	return mix64(h);
}

void u64map_init(struct u64map *m)
{
	memset(m, 0, sizeof(*m));
}

void u64map_free(struct u64map *m, void (*free_val)(void *))
{
	for (size_t i = 0; free_val && i < m->cap; i++)
		if (m->slots[i].val)
			free_val(m->slots[i].val);
	free(m->slots);
	u64map_init(m);
}

static size_t u64_find(const struct u64map *m, uint64_t key)
{
	size_t mask = m->cap - 1, i = mix64(key) & mask;

	while (m->slots[i].val && m->slots[i].key != key)
		i = (i + 1) & mask;
	return i;
}

void *u64map_get(const struct u64map *m, uint64_t key)
{
	if (!m->n)
		return NULL;
	return m->slots[u64_find(m, key)].val;
}

static void u64_grow(struct u64map *m)
{
	struct u64map big = { xcalloc(m->cap ? m->cap * 2 : 16,
				      sizeof(struct u64slot)),
			      m->cap ? m->cap * 2 : 16, m->n };

	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].val)
			big.slots[u64_find(&big, m->slots[i].key)] = m->slots[i];
	free(m->slots);
	*m = big;
}

void *u64map_put(struct u64map *m, uint64_t key, void *val)
{
	size_t i;
	void *old;

	if ((m->n + 1) * 4 > m->cap * 3)
		u64_grow(m);
	i = u64_find(m, key);
	old = m->slots[i].val;
	if (!old)
		m->n++;
	m->slots[i].key = key;
	m->slots[i].val = val;
	return old;
}

/* Backward-shift deletion keeps probe chains intact without tombstones. */
void *u64map_del(struct u64map *m, uint64_t key)
{
	size_t mask = m->cap - 1, i, j;
	void *old;

	if (!m->n)
		return NULL;
	i = u64_find(m, key);
	old = m->slots[i].val;
	if (!old)
		return NULL;
	m->slots[i].val = NULL;
	m->n--;
	for (j = (i + 1) & mask; m->slots[j].val; j = (j + 1) & mask) {
		size_t home = mix64(m->slots[j].key) & mask;

		/* move j back to i if its home is not in (i, j] */
		if ((j > i && (home <= i || home > j)) ||
		    (j < i && (home <= i && home > j))) {
			m->slots[i] = m->slots[j];
			m->slots[j].val = NULL;
			i = j;
		}
	}
	return old;
}

void u64map_each(const struct u64map *m, void (*fn)(void *ctx, void *val),
		 void *ctx)
{
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].val)
			fn(ctx, m->slots[i].val);
}

void strmap_init(struct strmap *m)
{
	memset(m, 0, sizeof(*m));
}

void strmap_free(struct strmap *m, void (*free_val)(void *))
{
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->slots[i].key)
			continue;
		free(m->slots[i].key);
		if (free_val)
			free_val(m->slots[i].val);
	}
	free(m->slots);
	strmap_init(m);
}

static size_t str_find(const struct strmap *m, uint64_t h, const void *key,
		       size_t len)
{
	size_t mask = m->cap - 1, i = h & mask;

	while (m->slots[i].key &&
	       (m->slots[i].hash != h || m->slots[i].len != len ||
		memcmp(m->slots[i].key, key, len)))
		i = (i + 1) & mask;
	return i;
}

void *strmap_get(const struct strmap *m, const void *key, size_t len)
{
	size_t i;

	if (!m->n)
		return NULL;
	i = str_find(m, hmap_hash(key, len), key, len);
	return m->slots[i].key ? m->slots[i].val : NULL;
}

static void str_grow(struct strmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 16;
	struct strmap big = { xcalloc(cap, sizeof(struct strslot)), cap, m->n };

	for (size_t i = 0; i < m->cap; i++) {
		struct strslot *o = &m->slots[i];

		if (o->key)
			big.slots[str_find(&big, o->hash, o->key, o->len)] = *o;
	}
	free(m->slots);
	*m = big;
}

void *strmap_put(struct strmap *m, const void *key, size_t len, void *val)
{
	uint64_t h = hmap_hash(key, len);
	struct strslot *sl;
	void *old;

	if ((m->n + 1) * 4 > m->cap * 3)
		str_grow(m);
	sl = &m->slots[str_find(m, h, key, len)];
	if (sl->key) {
		old = sl->val;
		sl->val = val;
		return old;
	}
	sl->hash = h;
	sl->key = xmalloc(len + 1);
	memcpy(sl->key, key, len);
	sl->key[len] = '\0';
	sl->len = len;
	sl->val = val;
	m->n++;
	return NULL;
}

/* An index is kept as index + 1, so that no index is the NULL of an
 * absent key. */
int strmap_index(const struct strmap *m, const void *key, size_t len,
		 size_t *i)
{
	void *v = strmap_get(m, key, len);

	if (!v)
		return 0;
	*i = (uintptr_t)v - 1;
	return 1;
}

void strmap_put_index(struct strmap *m, const void *key, size_t len,
		      size_t i)
{
	if (!strmap_get(m, key, len))
		strmap_put(m, key, len, (void *)(uintptr_t)(i + 1));
}
