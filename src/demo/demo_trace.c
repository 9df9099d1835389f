#include "config.h"

#include "src/demo/demo_int.h"

#include <string.h>

#include "model/util.h"

/* Sections derived from a replay of the timeline: active_time and
 * semaphore_update; and the throttling samples of ham. */

struct active_ctx {
	struct dout *o;
	struct demo_merge merge[ENG_N];
};

static void active_row(struct dout *o, int e, const uint64_t iv[2])
{
	char *p = dout_rec(o);

	p = DKV_U64(p, "start_ts", iv[0]);
	p = DKV_U64(p, "end_ts", iv[1]);
	p = DKV_U64(p, "duration_ns", iv[1] - iv[0]);
	p = DKV_RAW(p, "pcore_idx", "0");
	p = DKV_STR(p, "engine", demo_eng_lower[e]);
	dout_done(o, p);
}

static void active_inst(void *ctx, const struct demo_inst *in)
{
	struct active_ctx *c = ctx;
	int e = demo_track_eng[in->track];
	uint64_t iv[2];

	if (demo_busy(in) &&
	    demo_merge_add(&c->merge[e], in->ts, in->ts + in->dur, iv))
		active_row(c->o, e, iv);
}

/* Merged busy intervals per engine; TensorMatrix counts as tensor.
 * The merge is the one demo_stats uses, so the sums match the summary. */
void demo_sec_active_time(struct dout *o, const struct demo_model *m)
{
	struct active_ctx c;
	struct demo_sink s = { .inst = active_inst, .ctx = &c };
	uint64_t iv[2];

	memset(&c, 0, sizeof(c));
	c.o = o;
	dout_array_begin(o, "active_time");
	demo_gen_run(m, &s);
	for (int e = 0; e < ENG_N; e++)
		if (demo_merge_close(&c.merge[e], iv))
			active_row(o, e, iv);
	dout_array_end(o);
}

static void sem_row(void *ctx, int sem, uint32_t value, uint64_t ts)
{
	struct dout *o = ctx;
	char *p = dout_rec(o);

	p = DKV_U64(p, "value", value);
	p = DLIT(p, "\"id\":\"");
	p = dput_u64(p, demo_sems[sem].num);
	p = DLIT(p, "\",");
	p = DKV_U64(p, "timestamp", ts);
	dout_done(o, p);
}

void demo_sec_semaphore_update(struct dout *o, const struct demo_model *m)
{
	struct demo_sink s = { .sem = sem_row, .ctx = o };

	dout_array_begin(o, "semaphore_update");
	demo_gen_run(m, &s);
	dout_array_end(o);
}

/* Throttling episodes spread over the run, one per step: mostly the
 * activity monitor (type 0) limiting the core to 5/8..7/8. */
void demo_ham_init(struct demo_ham *h, const struct demo_model *m,
		   uint64_t last_hw)
{
	uint64_t n = m->events / 5000;

	demo_rng_seed(&h->rng, m->seed ^ 0x68616dULL);
	h->n = (uint32_t)NX_MAX(5, NX_MIN(4096, n));
	h->step = last_hw / h->n;
	h->last_hw = last_hw;
	h->i = 0;
}

int demo_ham_next(struct demo_ham *h, struct demo_ham_row *r)
{
	uint64_t half = h->step / 2;

	if (h->i >= h->n || half < 2)
		return 0;
	r->ts = h->i++ * h->step +
		demo_rng_range(&h->rng, 0, (uint32_t)NX_MIN(half, UINT32_MAX));
	r->dur = demo_rng_range(&h->rng, 1, (uint32_t)NX_MIN(half, 20000));
	r->k = demo_rng_range(&h->rng, 5, 7);
	r->n = 8;
	r->type = demo_rng_range(&h->rng, 0, 9) ? 0 : 99;
	return 1;
}

void demo_sec_ham(struct dout *o, const struct demo_model *m,
		  uint64_t last_hw)
{
	struct demo_ham h;
	struct demo_ham_row r;

	dout_array_begin(o, "ham");
	demo_ham_init(&h, m, last_hw);
	while (demo_ham_next(&h, &r)) {
		char *p = dout_rec(o);

		p = DKV_U64(p, "duration", r.dur);
		p = DKV_U64(p, "timestamp", r.ts);
		p = DKV_U64(p, "k", r.k);
		p = DKV_U64(p, "n", r.n);
		p = DKV_U64(p, "type", r.type);
		dout_done(o, p);
	}
	dout_array_end(o);
}
