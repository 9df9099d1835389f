/* Rule small-dma: queues that spend most of their DMA time moving small
 * packets, where per-packet overhead dominates the bandwidth. A long
 * row is read from its transfer-size aggregates per time bucket, the
 * range's partial buckets and short rows from the packets. */
#include "config.h"

#include "model/analyze/rules.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "model/agg.h"
#include "model/lod.h"
#include "model/report/report.h"
#include "model/util.h"

/* A stretch of a queue: one packet, or one aggregate bucket. */
struct cell {
	int64_t ts, end;
	int64_t n_small, bytes_small, ns_small, ns_all;
};

struct queue {
	const struct mtrack *t;
	struct cell sum;
	struct an_range run;	/* the current run of small-dominated cells */
	int in_run;
	struct an_finding tmp;	/* ranges gathered before it fires */
};

static void run_close(struct queue *q)
{
	if (q->in_run)
		an_range_add(&q->tmp, q->run.ts, q->run.end, q->t->id);
	q->in_run = 0;
}

static void cell_add(struct an_ctx *c, struct queue *q, const struct cell *x)
{
	int small = x->n_small && (!x->ns_all || (double)x->ns_small * 100.0 >
						  c->param[1] * (double)x->ns_all);

	q->sum.n_small += x->n_small;
	q->sum.bytes_small += x->bytes_small;
	q->sum.ns_small += x->ns_small;
	q->sum.ns_all += x->ns_all;
	if (!small) {
		run_close(q);
		return;
	}
	/* a bucket may reach past the range */
	if (!q->in_run)
		q->run = (struct an_range){ NX_MAX(x->ts, c->t0), x->ts,
					    q->t->id };
	q->run.end = NX_MAX(q->run.end, NX_MIN(x->end, c->t1));
	q->in_run = 1;
}

static void size_add(struct cell *x, int64_t size, int64_t n, int64_t dur,
		     int64_t small)
{
	x->ns_all += dur;
	if (size >= small)
		return;
	x->n_small += n;
	x->bytes_small += size * n;
	x->ns_small += dur;
}

/* The packets starting in [a, b), one cell each. */
static int packets(struct an_ctx *c, struct queue *q, int64_t a, int64_t b)
{
	sqlite3_stmt *st;
	int rc;

	if (b <= a)
		return 0;
	if (sqlite3_prepare_v2(model_db(c->m), "SELECT sl.ts, sl.dur,"
			       " dp.transfer_size FROM slice sl JOIN dma_packet"
			       " dp ON dp.slice_id = sl.id WHERE sl.track_id = ?1"
			       " AND sl.depth BETWEEN 0 AND ?2 AND sl.ts >= ?3"
			       " AND sl.ts < ?4 AND dp.transfer_size IS NOT NULL"
			       " ORDER BY sl.ts", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, q->t->id);
	sqlite3_bind_int64(st, 2, q->t->max_depth);
	sqlite3_bind_int64(st, 3, a);
	sqlite3_bind_int64(st, 4, b);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct cell x = { 0 };

		x.ts = sqlite3_column_int64(st, 0);
		x.end = x.ts + sqlite3_column_int64(st, 1);
		size_add(&x, sqlite3_column_int64(st, 2), 1,
			 x.end - x.ts, (int64_t)c->param[0]);
		cell_add(c, q, &x);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Whole buckets [b0, b1) of a level, one cell each. */
static int buckets(struct an_ctx *c, struct queue *q, int level, int64_t b0,
		   int64_t b1)
{
	sqlite3_stmt *st;
	struct cell x = { 0 };
	int64_t w = lod_width(level), cur = b0 - 1;
	int rc;

	if (sqlite3_prepare_v2(model_db(c->m), "SELECT bucket, value, n, dur"
			       " FROM agg WHERE track_id = ?1 AND field = ?2"
			       " AND level = ?3 AND bucket >= ?4 AND bucket < ?5"
			       " ORDER BY bucket", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, q->t->id);
	sqlite3_bind_int(st, 2, AGG_SIZE);
	sqlite3_bind_int(st, 3, level);
	sqlite3_bind_int64(st, 4, b0);
	sqlite3_bind_int64(st, 5, b1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t b = sqlite3_column_int64(st, 0);

		if (b != cur && cur >= b0)
			cell_add(c, q, &x);
		/* a bucket, cut to the row's span */
		if (b != cur)
			x = (struct cell){ .ts = NX_MAX(b * w, q->t->min_ts),
					   .end = NX_MIN((b + 1) * w,
							 q->t->max_ts) };
		cur = b;
		size_add(&x, sqlite3_column_int64(st, 1),
			 sqlite3_column_int64(st, 2),
			 sqlite3_column_int64(st, 3), (int64_t)c->param[0]);
	}
	if (cur >= b0)
		cell_add(c, q, &x);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int queue_scan(struct an_ctx *c, struct queue *q)
{
	const struct mtrack *t = q->t;
	int64_t span = NX_MAX(t->max_ts - t->min_ts, 1), b0 = 0, b1 = 0, w;
	int level = 0;

	if (t->lod_level >= 0 && t->agg_level >= 0 &&
	    (t->agg_fields & (1u << AGG_SIZE))) {
		level = agg_field_level(span, t->n_events, t->agg_level);
		lod_whole_buckets(level, t->min_ts, t->max_ts, c->t0, c->t1,
				  &b0, &b1);
	}
	if (b1 <= b0)
		return packets(c, q, c->t0, c->t1);
	w = lod_width(level);
	return packets(c, q, c->t0, b0 * w) ||
	       buckets(c, q, level, b0, b1) ||
	       packets(c, q, b1 * w, c->t1) ? -1 : 0;
}

static void queue_done(struct an_ctx *c, struct queue *q, int *fired)
{
	const struct cell *s = &q->sum;
	double share = s->ns_all ? 100.0 * (double)s->ns_small /
				   (double)s->ns_all : 0;
	struct an_finding *f;
	char pct[40];

	run_close(q);
	if (!s->n_small || share <= c->param[1]) {
		free(q->tmp.ranges);
		return;
	}
	f = an_add(c, "aim for contiguous payloads of at least 4 KiB",
		   "queue %s: %lld packet%s under %g B (%lld bytes) take%s"
		   " %s of its DMA time (over %g%%)", q->t->name,
		   (long long)s->n_small, s->n_small == 1 ? "" : "s", c->param[0],
		   (long long)s->bytes_small, s->n_small == 1 ? "s" : "",
		   report_pct(pct, sizeof(pct), share),
		   c->param[1]);
	an_int(f, "small_packets", s->n_small);
	an_int(f, "small_bytes", s->bytes_small);
	an_int(f, "small_ns", s->ns_small);
	an_int(f, "dma_ns", s->ns_all);
	an_real(f, "share_pct", share);
	f->ranges = q->tmp.ranges;
	f->nranges = q->tmp.nranges;
	f->rcap = q->tmp.rcap;
	an_ranges_sort(f);
	(*fired)++;
}

int rule_small_dma(struct an_ctx *c)
{
	struct mtrack *t;
	size_t nt;
	int fired = 0, rc = an_has_rows(c, "dma", "DMA packet rows");

	if (rc <= 0)
		return rc;
	rc = 0;
	if (model_tracks(c->m, c->profile, &t, &nt))
		return -1;
	for (size_t i = 0; i < nt && !rc; i++) {
		struct queue q;

		if (strcmp(t[i].kind, "dma"))
			continue;
		memset(&q, 0, sizeof(q));
		q.t = &t[i];
		if ((rc = queue_scan(c, &q)))
			free(q.tmp.ranges);
		else
			queue_done(c, &q, &fired);
	}
	model_tracks_free(t, nt);
	if (rc)
		return model_fail(c->m, "analyze small-dma");
	if (!fired)
		an_note(c, "no finding: no queue spends over %g%% of its DMA"
			" time in packets under %g B", c->param[1], c->param[0]);
	return 0;
}
