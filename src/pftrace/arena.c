#include "config.h"

#include "src/pftrace/arena.h"

#include <stdint.h>
#include <stdlib.h>

#include "model/util.h"

#define CHUNK_MIN (256u << 10)
#define ALIGN 16

struct arena_chunk {
	struct arena_chunk *next;
	size_t size;
	_Alignas(ALIGN) unsigned char data[];
};

static void *arena_alloc(void *ctx, size_t n)
{
	struct arena *a = ctx;
	struct arena_chunk *c = a->head;

	n = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	if (!c || c->size - a->used < n) {
		size_t size = c ? c->size * 2 : CHUNK_MIN;

		while (size < n)
			size *= 2;
		c = xmalloc(sizeof(*c) + size);
		c->size = size;
		c->next = a->head;
		a->head = c;
		a->used = 0;
	}
	a->used += n;
	return c->data + a->used - n;
}

static void arena_release(void *ctx, void *p)
{
	(void)ctx;
	(void)p;
}

void arena_init(struct arena *a)
{
	a->head = NULL;
	a->used = 0;
	a->pc.alloc = arena_alloc;
	a->pc.free = arena_release;
	a->pc.allocator_data = a;
}

void arena_reset(struct arena *a)
{
	struct arena_chunk *c = a->head, *next;

	/* the newest chunk is the largest */
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
