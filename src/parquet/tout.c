#include "config.h"

#include "src/parquet/tout.h"

#include <stdlib.h>
#include <string.h>

#include "model/util.h"
#include "src/parquet/pq_int.h"

void tout_init(struct tout *t)
{
	memset(t, 0, sizeof(*t));
}

void tout_free(struct tout *t)
{
	free(t->p);
	tout_init(t);
}

void tout_bytes(struct tout *t, const void *s, size_t n)
{
	if (t->len + n > t->cap) {
		t->cap = (t->len + n) * 2 + 64;
		t->p = xrealloc(t->p, t->cap);
	}
	memcpy(t->p + t->len, s, n);
	t->len += n;
}

static void put_varint(struct tout *t, uint64_t v)
{
	uint8_t b[10];
	size_t n = 0;

	while (v >= 0x80) {
		b[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	b[n++] = (uint8_t)v;
	tout_bytes(t, b, n);
}

static uint64_t zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

/* Short form (id delta 1..15 in the high nibble) when it fits. */
static void put_field(struct tout *t, int id, int type)
{
	int delta = id - t->last[t->depth];
	uint8_t b;

	if (delta > 0 && delta <= 15) {
		b = (uint8_t)(delta << 4 | type);
		tout_bytes(t, &b, 1);
	} else {
		b = (uint8_t)type;
		tout_bytes(t, &b, 1);
		put_varint(t, zigzag(id));
	}
	t->last[t->depth] = (int16_t)id;
}

void tout_i32(struct tout *t, int id, int32_t v)
{
	put_field(t, id, TH_I32);
	put_varint(t, zigzag(v));
}

void tout_i64(struct tout *t, int id, int64_t v)
{
	put_field(t, id, TH_I64);
	put_varint(t, zigzag(v));
}

void tout_elem_str(struct tout *t, const char *s)
{
	size_t n = strlen(s);

	put_varint(t, n);
	tout_bytes(t, s, n);
}

void tout_str(struct tout *t, int id, const char *s)
{
	put_field(t, id, TH_BINARY);
	tout_elem_str(t, s);
}

void tout_elem_struct(struct tout *t)
{
	t->last[++t->depth] = 0;
}

void tout_struct(struct tout *t, int id)
{
	put_field(t, id, TH_STRUCT);
	tout_elem_struct(t);
}

void tout_end(struct tout *t)
{
	uint8_t stop = TH_STOP;

	tout_bytes(t, &stop, 1);
	if (t->depth)
		t->depth--;
}

void tout_list(struct tout *t, int id, int etype, size_t n)
{
	uint8_t b;

	put_field(t, id, TH_LIST);
	if (n < 15) {
		b = (uint8_t)(n << 4 | (size_t)etype);
		tout_bytes(t, &b, 1);
	} else {
		b = (uint8_t)(0xf0 | etype);
		tout_bytes(t, &b, 1);
		put_varint(t, n);
	}
}

void tout_elem_i32(struct tout *t, int32_t v)
{
	put_varint(t, zigzag(v));
}
