#include "config.h"

#include "src/pftrace/arena.h"

static void *pb_alloc(void *ctx, size_t n)
{
	return arena_alloc(ctx, n);
}

/* Memory goes back with the arena's reset. */
static void pb_release(void *ctx, void *p)
{
	(void)ctx;
	(void)p;
}

void pb_arena_init(struct pb_arena *a)
{
	arena_init(&a->mem);
	a->pc.alloc = pb_alloc;
	a->pc.free = pb_release;
	a->pc.allocator_data = &a->mem;
}
