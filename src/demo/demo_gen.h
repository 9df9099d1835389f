/* One replay of the demo timeline: engine cursors, semaphores and the
 * event budget (demo_gen.c), and the per-layer loop bodies that use
 * them (demo_tile.c). */
#ifndef NX_DEMO_GEN_H
#define NX_DEMO_GEN_H

#include "src/demo/demo_int.h"

struct demo_gen {
	struct demo_rng rng;
	const struct demo_model *m;
	const struct demo_sink *sink;
	uint64_t free[ENG_N];		/* ns when each engine is idle again */
	uint64_t dma_free[DEMO_DMA_ENGINES];
	uint64_t seg_end;		/* latest end of anything so far */
	uint64_t events;		/* instruction + dma rows so far */
	uint64_t gate[2];		/* LDWEIGHTS starts, last two tiles */
	uint64_t last[ENG_N];		/* latest instruction id per engine */
	uint32_t pc[ENG_N];		/* runtime program counters */
	uint32_t cpc[ENG_N];		/* compiler pc, restarts every tile */
	uint32_t sem[SEM_N];		/* current semaphore values */
	uint32_t slot;			/* instruction number within the tile */
	uint32_t tile;			/* loop iteration within the layer */
	uint32_t block;			/* next DMA block_id */
	int layer;			/* current layer, -1 between layers */
	uint8_t table;			/* activation table loaded on Scalar */
	struct demo_xfer x;		/* the transfer being built */
};

static inline uint32_t demo_gen_rand(struct demo_gen *g, uint32_t lo,
				     uint32_t hi)
{
	return demo_rng_range(&g->rng, lo, hi);
}

static inline void demo_inst_set(struct demo_inst *in, int b, uint32_t v)
{
	in->bytes[b] = v;
	in->has |= 1u << b;
}

static inline void demo_inst_pred(struct demo_inst *in, uint64_t a,
				  uint64_t b)
{
	in->pred[0] = a ? a : b;
	in->pred[1] = a ? b : 0;
	in->npred = (uint8_t)((a != 0) + (b != 0));
}

void demo_gen_inst(struct demo_gen *g, struct demo_inst *in, int op,
		   int track, uint32_t dur);
void demo_gen_wait(struct demo_gen *g, struct demo_inst *in, int sem);
uint64_t demo_gen_issue(struct demo_gen *g, struct demo_inst *in,
			uint64_t ready);
uint64_t demo_gen_trigger(struct demo_gen *g, int q, int qtype, int var,
			  uint64_t size, uint64_t ready);
uint64_t demo_gen_direct(struct demo_gen *g, int track, int q,
			 uint32_t npkt, uint32_t pkt, uint64_t ready);

void demo_tile_run(struct demo_gen *g, const struct demo_layer *l);
void demo_tile_output(struct demo_gen *g);

#endif
