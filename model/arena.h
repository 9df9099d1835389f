/* A bump allocator: many small allocations that are dropped together
 * with one reset (a protobuf packet, a batch of JSON records, a Parquet
 * page), so hot loops cost no malloc/free pairs and memory stays at the
 * size of the largest batch. */
#ifndef NX_ARENA_H
#define NX_ARENA_H

#include <stddef.h>

struct arena {
	struct arena_chunk *head;	/* the chunk being filled */
	size_t used;			/* bytes used in head */
};

void arena_init(struct arena *a);
/* n bytes aligned for any type, valid until the next reset. */
void *arena_alloc(struct arena *a, size_t n);
/* n bytes with no alignment (text), valid until the next reset. */
char *arena_chars(struct arena *a, size_t n);
/* A NUL-terminated copy of n bytes, valid until the next reset. */
char *arena_copy(struct arena *a, const char *s, size_t n);
/* Forgets every allocation; keeps the largest chunk for reuse. */
void arena_reset(struct arena *a);
void arena_free(struct arena *a);

#endif
