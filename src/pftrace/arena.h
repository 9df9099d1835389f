/* protobuf-c allocations from an arena: one packet is unpacked into it,
 * used, and dropped with one reset, so millions of packets cost no
 * malloc/free pairs. */
#ifndef NX_PB_ARENA_H
#define NX_PB_ARENA_H

#include <protobuf-c/protobuf-c.h>

#include "model/arena.h"

struct pb_arena {
	struct arena mem;
	ProtobufCAllocator pc;		/* hands out mem */
};

void pb_arena_init(struct pb_arena *a);

#endif
