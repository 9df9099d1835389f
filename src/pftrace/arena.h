/* A bump allocator for protobuf-c: one packet is unpacked into it, used,
 * and dropped with one reset, so millions of packets cost no malloc/free
 * pairs and memory stays at the size of the largest packet. */
#ifndef NX_ARENA_H
#define NX_ARENA_H

#include <protobuf-c/protobuf-c.h>
#include <stddef.h>

struct arena {
	struct arena_chunk *head;	/* the chunk being filled */
	size_t used;			/* bytes used in head */
	ProtobufCAllocator pc;		/* hands out arena memory */
};

void arena_init(struct arena *a);
/* Forgets every allocation; keeps the largest chunk for reuse. */
void arena_reset(struct arena *a);
void arena_free(struct arena *a);

#endif
