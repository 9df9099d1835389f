#include "config.h"

#include "src/demo/demo_int.h"

#include <stdlib.h>
#include <string.h>

#include "model/util.h"

/* Figures gathered while the instruction section streams out, for the
 * summary, layer_summary, model_info and metadata written after it. */

/* Adds [s, e); when that closes the open interval, stores the closed
 * one in iv and returns 1. */
int demo_merge_add(struct demo_merge *m, uint64_t s, uint64_t e,
		   uint64_t iv[2])
{
	int closed;

	if (m->open && s <= m->end) {
		m->end = NX_MAX(m->end, e);
		return 0;
	}
	closed = demo_merge_close(m, iv);
	m->start = s;
	m->end = e;
	m->open = 1;
	return closed;
}

int demo_merge_close(struct demo_merge *m, uint64_t iv[2])
{
	if (!m->open)
		return 0;
	iv[0] = m->start;
	iv[1] = m->end;
	m->total += m->end - m->start;
	m->open = 0;
	return 1;
}

static void demo_union_add(struct demo_union *u, uint64_t s, uint64_t e)
{
	u->iv = xgrow(u->iv, &u->cap, u->n + 1, sizeof(*u->iv));
	u->iv[u->n][0] = s;
	u->iv[u->n][1] = e;
	u->n++;
}

static int cmp_start(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

static void demo_union_flush(struct demo_union *u)
{
	uint64_t s, e;

	if (!u->n)
		return;
	qsort(u->iv, u->n, sizeof(*u->iv), cmp_start);
	s = u->iv[0][0];
	e = u->iv[0][1];
	for (size_t i = 1; i < u->n; i++) {
		if (u->iv[i][0] <= e) {
			e = NX_MAX(e, u->iv[i][1]);
			continue;
		}
		u->total += e - s;
		s = u->iv[i][0];
		e = u->iv[i][1];
	}
	u->total += e - s;
	u->n = 0;
}

static void lstat_init(struct demo_lstat *l)
{
	memset(l, 0, sizeof(*l));
	l->start = UINT64_MAX;
}

static void lstat_add(struct demo_lstat *l, const struct demo_inst *in,
		      int e)
{
	uint64_t end = in->ts + in->dur, iv[2];

	l->start = NX_MIN(l->start, in->ts);
	l->end = NX_MAX(l->end, end);
	l->count[e]++;
	l->time[e] += in->dur;
	if (demo_busy(in))
		demo_merge_add(&l->merge[e], in->ts, end, iv);
	if (in->op == OP_MATMUL) {
		uint64_t f = 2ULL * 128 * in->k * in->n;

		l->flops += f;
		if (in->itype == IT_REGULAR)
			l->model_flops += f;
	}
}

static void lstat_finish(struct demo_lstat *l)
{
	uint64_t iv[2];

	for (int e = 0; e < ENG_N; e++) {
		demo_merge_close(&l->merge[e], iv);
		l->active[e] = l->merge[e].total;
	}
	if (l->start == UINT64_MAX)
		l->start = 0;
}

void demo_stats_init(struct demo_stats *st, const struct demo_model *m)
{
	memset(st, 0, sizeof(*st));
	lstat_init(&st->sg);
	st->nlayers = m->nlayers;
	st->layer = xcalloc((size_t)m->nlayers, sizeof(*st->layer));
	for (int i = 0; i < m->nlayers; i++)
		lstat_init(&st->layer[i]);
	st->var_bytes = xcalloc((size_t)m->nvars, sizeof(*st->var_bytes));
	st->var_xfers = xcalloc((size_t)m->nvars, sizeof(*st->var_xfers));
}

void demo_stats_free(struct demo_stats *st)
{
	free(st->layer);
	free(st->var_bytes);
	free(st->var_xfers);
	free(st->busy.iv);
	for (int c = 0; c < DC_N; c++)
		free(st->dma[c].iv);
}

void demo_stats_inst(struct demo_stats *st, const struct demo_inst *in)
{
	int e = demo_track_eng[in->track];

	lstat_add(&st->sg, in, e);
	if (in->layer >= 0)
		lstat_add(&st->layer[in->layer], in, e);
	st->instructions++;
	for (int b = 0; b < B_N; b++)
		if (in->has & (1u << b))
			st->bytes[b] += in->bytes[b];
	if (in->op == OP_MATMUL) {
		st->matmuls++;
		if (in->itype == IT_TRANSPOSE)
			st->transpose_flops += 2ULL * 128 * in->k * in->n;
	}
	if (in->op == OP_ACTIVATE) {
		st->activates++;
		st->activate_ns += in->dur;
	}
	st->psum_rsw_count += (in->has >> B_PSUM_RSW) & 1;
	st->notifies += in->op == OP_NOTIFY;
	if (demo_busy(in))
		demo_union_add(&st->busy, in->ts, in->ts + in->dur);
}

void demo_stats_xfer(struct demo_stats *st, const struct demo_xfer *x)
{
	int qt = x->qtype;
	int dyn = demo_qtype_dynamic(qt);

	for (int i = 0; i < x->npkt; i++) {
		const struct demo_pkt *p = &x->pkt[i];
		uint64_t end = p->ts + p->dur;

		st->pkt_bytes[qt] += p->size;
		st->pkt_count[qt]++;
		st->pkt_ns += p->dur;
		st->subgroups[x->queue] |= (uint16_t)(1u << p->eng);
		demo_union_add(&st->dma[DC_ALL], p->ts, end);
		demo_union_add(&st->dma[dyn ? DC_DYN : DC_STATIC], p->ts, end);
		if (dyn)
			demo_union_add(&st->dma[qt == QT_SW_DYNAMIC ? DC_SW
								    : DC_HW],
				       p->ts, end);
	}
	st->dma_rows += x->npkt;
	if (x->aggregated) {
		st->dma_rows++;
		st->xfers++;
		st->xfer_bytes += x->size;
		st->xfer_ns += x->end - x->ts;
	}
	if (x->var >= 0 && x->dst == LOC_SB) {
		st->var_bytes[x->var] += x->size;
		st->var_xfers[x->var]++;
	}
}

void demo_stats_seg_end(struct demo_stats *st)
{
	demo_union_flush(&st->busy);
	for (int c = 0; c < DC_N; c++)
		demo_union_flush(&st->dma[c]);
}

void demo_stats_finish(struct demo_stats *st)
{
	demo_stats_seg_end(st);
	lstat_finish(&st->sg);
	for (int i = 0; i < st->nlayers; i++)
		lstat_finish(&st->layer[i]);
}

/* Distinct packet subgroups (queue x DMA engine) seen. */
uint64_t demo_stats_dma_queues(const struct demo_stats *st)
{
	uint64_t n = 0;

	for (int q = 0; q < Q_N; q++)
		n += (uint64_t)__builtin_popcount(st->subgroups[q]);
	return n;
}

void demo_totals(struct demo_totals *t, const struct demo_model *m,
		 const struct demo_stats *st)
{
	uint64_t span;

	memset(t, 0, sizeof(*t));
	t->first_ts = st->sg.start;
	t->last_hw = st->sg.end;
	/* total_time comes from the TPB start/stop notifications, so it is
	 * a little shorter than the span of the trace. */
	span = t->last_hw - NX_MIN(160, t->last_hw / 10000);
	t->total_s = (double)(span * 100 + 13) / 1e11;
	t->event_count = st->sem_rows + st->notifies;
	t->trace_count = st->instructions + st->dma_rows + t->event_count;
	for (int i = 0; i < m->nvars; i++) {
		const struct demo_var *v = &m->var[i];

		if (v->type == V_WEIGHT)
			t->weight_bytes += v->size;
		else if (v->type == V_IN)
			t->input_bytes += v->size;
		else if (v->type == V_OUT)
			t->output_bytes += v->size;
	}
}
