#include "config.h"

#include "src/demo/demo_gen.h"

#include <stdlib.h>
#include <string.h>

#include "model/util.h"

/* The demo timeline: a setup phase, then the model's layers one after
 * another with a barrier between them, then a teardown.  Every engine
 * has a cursor (the time it is idle again), so instructions on one
 * engine never overlap while the engines run side by side; semaphores
 * make a consumer wait for its producer.  All randomness comes from one
 * generator seeded from the options, so every replay is identical. */

/* Events reserved for the barrier, teardown and output store. */
#define TAIL_EVENTS 30
/* DMA engine throughput, bytes per ns (~24 GB/s per engine). */
#define DMA_BYTES_PER_NS 24

void demo_rng_seed(struct demo_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = demo_mix(seed + (uint64_t)i * 0x632be59bd9b4e019ULL);
}

void demo_gen_inst(struct demo_gen *g, struct demo_inst *in, int op,
		   int track, uint32_t dur)
{
	memset(in, 0, sizeof(*in));
	in->id = demo_rng_id(&g->rng);
	in->aux = demo_rng_next(&g->rng);
	in->op = (uint8_t)op;
	in->track = (uint8_t)track;
	in->dur = dur;
	in->itype = demo_ops[op].itype;
	/* Control instructions carry no layer, as in real exports. */
	in->layer = (int16_t)(in->itype == IT_NONE ? -1 : g->layer);
	in->wait_sem = SEM_NONE;
	in->sig_sem = SEM_NONE;
	in->tile = g->tile;
	in->k = 128;
}

void demo_gen_wait(struct demo_gen *g, struct demo_inst *in, int sem)
{
	in->wait_sem = (uint8_t)sem;
	in->wait_val = g->sem[sem];
}

static void demo_gen_place(struct demo_gen *g, struct demo_inst *in,
			   uint64_t ready)
{
	int e = demo_track_eng[in->track];
	uint64_t idle = g->free[e];
	uint64_t stall;
	uint32_t gap = demo_gen_rand(g, 0, 23);

	in->ts = NX_MAX(idle, ready);
	stall = in->ts - idle;
	in->wait = stall ? (uint32_t)NX_MIN(stall, UINT32_MAX)
			 : demo_gen_rand(g, 0, 2);
	/* Half the time the next instruction follows back to back. */
	g->free[e] = in->ts + in->dur + (gap < 12 ? 0 : gap - 11);
	in->pc = 40 + g->pc[e]++;
	if (in->layer >= 0) {
		const struct demo_layer *l = &g->m->layer[in->layer];

		in->cpc = g->cpc[e]++;
		in->bir = l->bir_base + g->slot;
		in->penguin = l->penguin_base + g->slot;
		g->slot++;
	}
}

static void gen_signal(struct demo_gen *g, int sem, uint32_t inc,
		       uint64_t ts)
{
	g->sem[sem] += inc;
	if (g->sink->sem)
		g->sink->sem(g->sink->ctx, sem, g->sem[sem], ts);
}

static uint64_t demo_gen_emit(struct demo_gen *g, struct demo_inst *in)
{
	uint64_t end = in->ts + in->dur;

	g->events++;
	g->last[demo_track_eng[in->track]] = in->id;
	g->seg_end = NX_MAX(g->seg_end, end);
	if (g->sink->inst)
		g->sink->inst(g->sink->ctx, in);
	if (in->sig_sem != SEM_NONE)
		gen_signal(g, in->sig_sem, 1, end);
	return end;
}

uint64_t demo_gen_issue(struct demo_gen *g, struct demo_inst *in,
			uint64_t ready)
{
	demo_gen_place(g, in, ready);
	return demo_gen_emit(g, in);
}

/* Lays g->x out as npkt packets over the DMA engines, the first no
 * earlier than t; each engine moves one packet at a time. */
static void gen_packets(struct demo_gen *g, uint64_t size, uint32_t npkt,
			uint64_t t)
{
	struct demo_xfer *x = &g->x;
	uint8_t seen[DEMO_DMA_ENGINES] = { 0 };
	uint32_t base = demo_gen_rand(g, 0, DEMO_DMA_ENGINES - 1);
	uint64_t per = size / npkt;

	x->npkt = (uint16_t)npkt;
	x->size = size;
	x->ts = UINT64_MAX;
	x->end = 0;
	for (uint32_t i = 0; i < npkt; i++) {
		struct demo_pkt *p = &x->pkt[i];

		p->eng = (uint8_t)((base + i) % DEMO_DMA_ENGINES);
		p->size = (uint32_t)(i + 1 < npkt ? per : size - per * i);
		t += demo_gen_rand(g, 1, 9);
		p->ts = NX_MAX(t, g->dma_free[p->eng]);
		p->dur = p->size / DMA_BYTES_PER_NS + demo_gen_rand(g, 8, 40);
		p->idx = seen[p->eng]++;
		p->id = demo_rng_id(&g->rng);
		g->dma_free[p->eng] = p->ts + p->dur;
		x->ts = NX_MIN(x->ts, p->ts);
		x->end = NX_MAX(x->end, p->ts + p->dur);
	}
	x->id = demo_rng_id(&g->rng);
	x->aux = demo_rng_next(&g->rng);
}

static uint64_t gen_xfer_emit(struct demo_gen *g)
{
	struct demo_xfer *x = &g->x;
	int sem = demo_queues[x->queue].sem;

	g->events += x->npkt + (x->aggregated != 0);
	g->seg_end = NX_MAX(g->seg_end, x->end);
	if (g->sink->xfer)
		g->sink->xfer(g->sink->ctx, x);
	/* Static transfers count blocks; dynamic ones count packets. */
	if (sem != SEM_NONE)
		gen_signal(g, sem, x->aggregated ? 1 : x->npkt, x->end);
	return x->end;
}

static int var_loc(int vtype)
{
	switch (vtype) {
	case V_WEIGHT:
		return LOC_WEIGHT;
	case V_IN:
		return LOC_INPUT;
	case V_OUT:
		return LOC_OUTPUT;
	default:
		return LOC_VIRTUAL;
	}
}

/* Bytes a DMA-trigger WRITE reports, zeros included as in real data. */
static void trigger_bytes(struct demo_inst *in, const struct demo_xfer *x,
			  int vtype)
{
	uint32_t sz = (uint32_t)x->size;
	int store = x->src == LOC_SB;

	demo_inst_set(in, B_HBM_READ, store ? 0 : sz);
	demo_inst_set(in, B_HBM_WRITE, store ? sz : 0);
	demo_inst_set(in, B_SBUF_READ, store ? sz : 0);
	demo_inst_set(in, B_SBUF_WRITE, store ? 0 : sz);
	demo_inst_set(in, B_SPILL_SAVE, vtype == V_SPILL && store ? sz : 0);
	demo_inst_set(in, B_SPILL_RELOAD, vtype == V_SPILL && !store ? sz : 0);
	if (vtype == V_WEIGHT)
		demo_inst_set(in, B_WEIGHT_Q, sz);
	else if (vtype == V_IN)
		demo_inst_set(in, B_INPUT_Q, sz);
	else if (vtype == V_OUT)
		demo_inst_set(in, B_OUTPUT_Q, sz);
}

/* A static transfer of tensor var on queue q: the queue's engine writes
 * the doorbell (WRITE, compiler opcode PSEUDO_DMA_TRIGGER) and the
 * descriptors start a few hundred ns later.  The WRITE's trigger is the
 * aggregated row's timestamp and the other way round. */
uint64_t demo_gen_trigger(struct demo_gen *g, int q, int qtype, int var,
			  uint64_t size, uint64_t ready)
{
	struct demo_xfer *x = &g->x;
	struct demo_inst in;
	int vtype = g->m->var[var].type;
	int store = qtype == QT_OUTPUT || q == Q_VECTOR_SPILL;
	uint64_t npkt = NX_MAX(1, NX_MIN(16, size / 8192));

	demo_gen_inst(g, &in, OP_DMA_TRIGGER, demo_queues[q].track,
		      demo_gen_rand(g, 28, 60));
	in.queue = (uint8_t)q;
	demo_gen_place(g, &in, ready);
	gen_packets(g, size, (uint32_t)npkt,
		    in.ts + in.dur + demo_gen_rand(g, 150, 320));
	x->queue = (uint8_t)q;
	x->qtype = (uint8_t)qtype;
	x->var = var;
	x->src = (uint8_t)(store ? LOC_SB : var_loc(vtype));
	x->dst = (uint8_t)(store ? var_loc(vtype) : LOC_SB);
	x->aggregated = 1;
	x->trigger = in.ts;
	x->block = g->block++ % 64;
	in.n = x->block;
	in.trigger = x->ts;
	trigger_bytes(&in, x, vtype);
	demo_gen_emit(g, &in);
	return gen_xfer_emit(g);
}

/* A descriptor-generated transfer (DMA_DIRECT2D): software DGE on
 * GpSimd, hardware DGE from Sync.  Its packets have no aggregated row
 * and no tensor name. */
uint64_t demo_gen_direct(struct demo_gen *g, int track, int q,
			 uint32_t npkt, uint32_t pkt, uint64_t ready)
{
	struct demo_xfer *x = &g->x;
	struct demo_inst in;

	demo_gen_inst(g, &in, OP_DMA_DIRECT2D, track, demo_gen_rand(g, 0, 20));
	in.queue = (uint8_t)q;
	in.sem_inc = (uint8_t)npkt;
	in.n = npkt;
	in.k = pkt;
	demo_inst_set(&in, B_HBM_READ, npkt * pkt);
	demo_inst_set(&in, B_SBUF_WRITE, npkt * pkt);
	demo_gen_issue(g, &in, ready);
	gen_packets(g, (uint64_t)npkt * pkt, npkt,
		    in.ts + in.dur + demo_gen_rand(g, 60, 200));
	x->queue = (uint8_t)q;
	x->qtype = q == Q_GPSIMD_DYN ? QT_SW_DYNAMIC : QT_HW_DYNAMIC;
	x->var = -1;
	x->src = LOC_UNKNOWN;
	x->dst = LOC_UNKNOWN;
	x->aggregated = 0;
	x->trigger = 0;
	return gen_xfer_emit(g);
}

static uint64_t gen_control(struct demo_gen *g, int op, int track,
			    uint32_t dur)
{
	struct demo_inst in;

	demo_gen_inst(g, &in, op, track, dur);
	return demo_gen_issue(g, &in, 0);
}

/* The tracks that stand for the five engines in control sequences. */
static const uint8_t engine_track[ENG_N] = {
	TRK_TENSOR, TRK_VECTOR, TRK_SCALAR, TRK_GPSIMD, TRK_SYNC,
};

/* Runtime start-up: drain, set ordering, then wait for the kick-off. */
static void gen_setup(struct demo_gen *g)
{
	uint64_t kick = 1400 + demo_gen_rand(g, 0, 300);

	for (int e = 0; e < ENG_N; e++) {
		int tr = engine_track[(e + ENG_SYNC) % ENG_N];
		int eng = demo_track_eng[tr];
		struct demo_inst in;

		g->free[eng] = 7 + 3 * (uint64_t)e;	/* first DRAIN at 7 ns */
		gen_control(g, OP_DRAIN, tr, demo_gen_rand(g, 8, 30));
		gen_control(g, OP_SET_ORDERING_MODE, tr, demo_gen_rand(g, 4, 12));
		if (tr == TRK_SYNC)
			gen_control(g, OP_NOTIFY, tr, demo_gen_rand(g, 10, 20));
		if (tr == TRK_SCALAR)
			gen_control(g, OP_ACT_TABLE_LOAD, tr,
				    demo_gen_rand(g, 900, 1300));
		demo_gen_inst(g, &in, OP_EVENT_SEMAPHORE, tr, 1);
		in.dur = (uint32_t)(NX_MAX(kick, g->free[eng] + 20) -
				    g->free[eng]);
		in.sig_sem = SEM_SETUP;
		in.wait_val = 1;
		demo_gen_place(g, &in, 0);
		in.wait = 0;
		demo_gen_emit(g, &in);
	}
}

/* Resets the semaphores a layer used, like the runtime's range clear. */
static void gen_clear(struct demo_gen *g)
{
	uint64_t end = gen_control(g, OP_SEM_CLEAR, TRK_SYNC,
				   demo_gen_rand(g, 20, 40));

	for (int s = SEM_SETUP + 1; s < SEM_N; s++) {
		if (!g->sem[s])
			continue;
		g->sem[s] = 0;
		if (g->sink->sem)
			g->sink->sem(g->sink->ctx, s, 0, end);
	}
}

/* Every engine waits on $S[2] until all are done with the segment. */
static void gen_barrier(struct demo_gen *g)
{
	uint64_t t = g->seg_end;
	uint32_t target = g->sem[SEM_SETUP] + ENG_N;

	for (int e = 0; e < ENG_N; e++)
		t = NX_MAX(t, g->free[e]);
	t += demo_gen_rand(g, 20, 120);
	if (g->sink->seg_end)
		g->sink->seg_end(g->sink->ctx);
	g->layer = -1;
	for (int e = 0; e < ENG_N; e++) {
		struct demo_inst in;

		demo_gen_inst(g, &in, OP_EVENT_SEMAPHORE, engine_track[e],
			      (uint32_t)(t - g->free[e]));
		in.sig_sem = SEM_SETUP;
		in.wait_val = target;
		demo_gen_place(g, &in, 0);
		in.wait = 0;
		demo_gen_emit(g, &in);
	}
	gen_clear(g);
}

/* Each engine fetches its instruction stream for the layer. */
static void gen_prologue(struct demo_gen *g)
{
	struct demo_xfer *x = &g->x;
	uint64_t t = g->free[ENG_SYNC];

	gen_packets(g, 5 * (uint64_t)demo_gen_rand(g, 1024, 4096), 5, t);
	x->queue = Q_FETCH;
	x->qtype = QT_INSTRUCTION;
	x->var = -1;
	x->src = LOC_UNKNOWN;
	x->dst = LOC_UNKNOWN;
	x->aggregated = 0;
	x->trigger = 0;
	gen_xfer_emit(g);
	gen_control(g, OP_NOTIFY, TRK_SYNC, demo_gen_rand(g, 10, 20));
}

static void gen_teardown(struct demo_gen *g)
{
	struct demo_inst in;

	demo_gen_inst(g, &in, OP_NOTIFY, TRK_SYNC, demo_gen_rand(g, 10, 20));
	in.n = 1;	/* trace=END */
	demo_gen_issue(g, &in, 0);
	for (int e = 0; e < ENG_N; e++)
		gen_control(g, OP_DRAIN, engine_track[e],
			    demo_gen_rand(g, 8, 30));
	if (g->sink->seg_end)
		g->sink->seg_end(g->sink->ctx);
}

/* Runs tiles until the layer has used its share of the budget. */
static void gen_layer(struct demo_gen *g, int idx, uint64_t budget)
{
	const struct demo_layer *l = &g->m->layer[idx];
	uint64_t start = g->events;

	g->layer = idx;
	g->tile = 0;
	g->gate[0] = g->gate[1] = 0;
	do {
		g->slot = 0;
		memset(g->cpc, 0, sizeof(g->cpc));
		demo_tile_run(g, l);
		g->tile++;
	} while (g->events - start < budget);
	if (idx == g->m->nlayers - 1)
		demo_tile_output(g);
}

void demo_gen_run(const struct demo_model *m, const struct demo_sink *s)
{
	struct demo_gen *g = xcalloc(1, sizeof(*g));
	uint64_t rest = 0;

	demo_rng_seed(&g->rng, m->seed);
	g->m = m;
	g->sink = s;
	g->layer = -1;
	for (int i = 0; i < m->nlayers; i++)
		rest += m->layer[i].share;
	gen_setup(g);
	for (int i = 0; i < m->nlayers; i++) {
		uint32_t share = m->layer[i].share;
		uint64_t used, left;

		gen_barrier(g);
		gen_prologue(g);
		used = g->events + TAIL_EVENTS;
		left = m->events > used ? m->events - used : 0;
		gen_layer(g, i, left * share / rest);
		rest -= share;
	}
	gen_barrier(g);
	gen_teardown(g);
	free(g);
}
