#include "config.h"

#include "src/demo/demo_pq.h"

#include <string.h>

#include "model/util.h"
#include "src/demo/demo_int.h"
#include "src/demo/demo_pqinst.h"
#include "src/demo/demo_pqmeta.h"
#include "src/demo/demo_pqtab.h"

/* A device profile of the Parquet demo: the generator's timeline
 * replayed once for the statistics (the JSON demo gathers them while
 * its instruction section streams out), then once per group of tables. */

static void st_inst(void *ctx, const struct demo_inst *in)
{
	demo_stats_inst(ctx, in);
}

static void st_xfer(void *ctx, const struct demo_xfer *x)
{
	demo_stats_xfer(ctx, x);
}

static void st_sem(void *ctx, int sem, uint32_t value, uint64_t ts)
{
	struct demo_stats *st = ctx;

	(void)sem;
	(void)value;
	(void)ts;
	st->sem_rows++;
}

static void st_seg_end(void *ctx)
{
	demo_stats_seg_end(ctx);
}

static void gather(const struct demo_model *m, struct demo_stats *st)
{
	struct demo_sink s = { st_inst, st_xfer, st_sem, st_seg_end, st };

	demo_gen_run(m, &s);
	demo_stats_finish(st);
}

struct rows {
	const struct demo_model *m;
	struct pqtab *a, *b;
};

/* Instructions into a, their dependencies into b. */
static void inst_row(void *ctx, const struct demo_inst *in)
{
	struct rows *r = ctx;

	if (!r->a->err) {
		demo_pq_inst(r->a->w, r->m, in);
		pqtab_row(r->a);
	}
	for (int i = 0; i < demo_pq_flows(in) && !r->b->err; i++) {
		demo_pq_flow(r->b->w, in, i);
		pqtab_row(r->b);
	}
}

static int instructions(struct demo_pq *pq, const char *dir,
			const struct demo_model *m, uint64_t total)
{
	struct pqtab t, fl;
	struct rows r = { m, &t, &fl };
	struct demo_sink s = { .inst = inst_row, .ctx = &r };
	const struct pqw_field *f, *ff;
	int n, nf, rc;

	f = demo_pq_inst_fields(&n);
	ff = demo_pq_flow_fields(&nf);
	if (pqtab_open(&t, pq, dir, "Instruction", f, n, total))
		return -1;
	if (pqtab_open(&fl, pq, dir, "Flow", ff, nf, 0)) {
		t.err = 1;
		pqtab_close(&t);
		return -1;
	}
	demo_gen_run(m, &s);
	rc = pqtab_close(&t);
	if (rc)
		fl.err = 1;
	return pqtab_close(&fl) || rc ? -1 : 0;
}

/* Packets into a, transfers into b. */
static void xfer_row(void *ctx, const struct demo_xfer *x)
{
	struct rows *r = ctx;

	if (x->aggregated && !r->b->err) {
		demo_pq_aggregated(r->b->w, r->m, x);
		pqtab_row(r->b);
	}
	for (int i = 0; i < x->npkt && !r->a->err; i++) {
		demo_pq_packet(r->a->w, r->m, x, &x->pkt[i]);
		pqtab_row(r->a);
	}
}

static int dma(struct demo_pq *pq, const char *dir,
	       const struct demo_model *m, const struct demo_stats *st)
{
	struct pqtab p, a;
	struct rows r = { m, &p, &a };
	struct demo_sink s = { .xfer = xfer_row, .ctx = &r };
	const struct pqw_field *pf, *af;
	int np, na, rc;

	pf = demo_pq_pkt_fields(&np);
	af = demo_pq_agg_fields(&na);
	if (pqtab_open(&p, pq, dir, "DmaPacket", pf, np,
		       st->dma_rows - st->xfers))
		return -1;
	if (pqtab_open(&a, pq, dir, "DmaPacketAggregated", af, na, st->xfers)) {
		p.err = 1;
		pqtab_close(&p);
		return -1;
	}
	demo_gen_run(m, &s);
	rc = pqtab_close(&p);
	if (rc)
		a.err = 1;
	return pqtab_close(&a) || rc ? -1 : 0;
}

int demo_pq_device(struct demo_pq *pq, const char *dir,
		   const struct demo_opts *o, int64_t *len_ns)
{
	struct demo_model m;
	struct demo_stats st;
	struct demo_totals t;
	int rc;

	if (mkdirs(dir))
		return -1;
	demo_model_build(&m, o);
	demo_stats_init(&st, &m);
	gather(&m, &st);
	demo_totals(&t, &m, &st);
	rc = instructions(pq, dir, &m, st.instructions);
	if (!rc)
		rc = dma(pq, dir, &m, &st);
	if (!rc)
		rc = demo_pq_timeline(pq, dir, &m);
	if (!rc)
		rc = demo_pq_counters(pq, dir, &m, t.last_hw);
	if (!rc)
		rc = demo_pq_info(pq, dir, &m, &st);
	if (!rc)
		rc = demo_pq_meta(pq, dir, &m, &st, &t);
	if (len_ns)
		*len_ns = (int64_t)t.last_hw;
	demo_stats_free(&st);
	demo_model_free(&m);
	return rc;
}
