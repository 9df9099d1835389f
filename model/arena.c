#include "config.h"

#include "model/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/util.h"

#define CHUNK_MIN (256u << 10)

struct arena_chunk {
	struct arena_chunk *next;
	size_t size;
	_Alignas(max_align_t) unsigned char data[];
};

void arena_init(struct arena *a)
{
	a->head = NULL;
	a->used = 0;
}

/* n bytes at a multiple of align (a power of two) in the newest chunk. */
static void *take(struct arena *a, size_t n, size_t align)
{
	struct arena_chunk *c = a->head;
	size_t at = (a->used + align - 1) & ~(align - 1);

	if (n > SIZE_MAX / 4)
		abort();
	if (!c || at > c->size || c->size - at < n) {
		/* each chunk at least doubles: the newest is the largest */
		size_t size = c ? c->size * 2 : CHUNK_MIN;

		while (size < n)
			size *= 2;
		c = xmalloc(sizeof(*c) + size);
		c->size = size;
		c->next = a->head;
		a->head = c;
		at = 0;
	}
	a->used = at + n;
	return c->data + at;
}

void *arena_alloc(struct arena *a, size_t n)
{
	return take(a, n, _Alignof(max_align_t));
}

char *arena_chars(struct arena *a, size_t n)
{
	return take(a, n, 1);
}

char *arena_copy(struct arena *a, const char *s, size_t n)
{
	char *c = arena_chars(a, n + 1);

	memcpy(c, s, n);
	c[n] = '\0';
	return c;
}

void arena_reset(struct arena *a)
{
	struct arena_chunk *c = a->head, *next;

	if (c) {
		for (struct arena_chunk *o = c->next; o; o = next) {
			next = o->next;
			free(o);
		}
		c->next = NULL;
	}
	a->used = 0;
}

void arena_free(struct arena *a)
{
	arena_reset(a);
	free(a->head);
	a->head = NULL;
}
