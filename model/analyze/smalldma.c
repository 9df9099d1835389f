/* Rule small-dma: queues that spend most of their DMA time moving small
 * packets, where per-packet overhead dominates the bandwidth. */
#include "config.h"

#include "model/analyze/rules.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "model/util.h"

/* One queue's packets as they stream by, in time order. */
struct queue {
	int64_t id;
	int64_t n_small, bytes_small, ns_small, ns_all;
	struct an_range run;	/* the current run of small packets */
	int in_run;
	struct an_finding tmp;	/* ranges gathered before it fires */
};

static void run_close(struct queue *q)
{
	if (q->in_run)
		an_range_add(&q->tmp, q->run.ts, q->run.end, q->run.row);
	q->in_run = 0;
}

static void packet(struct queue *q, int64_t ts, int64_t dur, int64_t size,
		   int64_t row, int64_t small)
{
	q->ns_all += dur;
	if (size >= small) {
		run_close(q);
		return;
	}
	q->n_small++;
	q->bytes_small += size;
	q->ns_small += dur;
	if (q->in_run && row == q->run.row) {
		if (ts + dur > q->run.end)
			q->run.end = ts + dur;
		return;
	}
	run_close(q);
	q->run = (struct an_range){ ts, ts + dur, row };
	q->in_run = 1;
}

static void queue_done(struct an_ctx *c, struct queue *q, int *fired)
{
	double share;
	struct an_finding *f;

	run_close(q);
	share = q->ns_all ? 100.0 * (double)q->ns_small / (double)q->ns_all : 0;
	if (q->n_small && share > c->param[1]) {
		const char *name = q->id ? model_string(c->m, q->id) : "";

		f = an_add(c, "aim for contiguous payloads of at least 4 KiB",
			   "queue %s: %lld packets under %g B (%lld bytes) take"
			   " %.2f%% of its DMA time (over %g%%)",
			   *name ? name : "(unnamed)", (long long)q->n_small,
			   c->param[0], (long long)q->bytes_small, share,
			   c->param[1]);
		an_int(f, "small_packets", q->n_small);
		an_int(f, "small_bytes", q->bytes_small);
		an_int(f, "small_ns", q->ns_small);
		an_int(f, "dma_ns", q->ns_all);
		an_real(f, "share_pct", share);
		f->ranges = q->tmp.ranges;
		f->nranges = q->tmp.nranges;
		f->rcap = q->tmp.rcap;
		an_ranges_sort(f);
		(*fired)++;
	} else {
		free(q->tmp.ranges);
	}
	memset(q, 0, sizeof(*q));
}

static int scan(struct an_ctx *c, sqlite3_stmt *st, int *fired)
{
	struct queue q;
	int64_t small = (int64_t)c->param[0];
	int rc, have = 0;

	memset(&q, 0, sizeof(q));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);

		if (have && id != q.id)
			queue_done(c, &q, fired);
		q.id = id;
		have = 1;
		packet(&q, sqlite3_column_int64(st, 1),
		       sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 3),
		       sqlite3_column_int64(st, 4), small);
	}
	if (have)
		queue_done(c, &q, fired);
	return rc == SQLITE_DONE ? 0 : -1;
}

int rule_small_dma(struct an_ctx *c)
{
	sqlite3_stmt *st;
	int fired = 0, rc;

	if (sqlite3_prepare_v2(model_db(c->m),
			       "SELECT coalesce(dp.queue, 0), sl.ts, sl.dur,"
			       " coalesce(dp.transfer_size, 0), sl.track_id"
			       " FROM dma_packet dp JOIN slice sl"
			       " ON sl.id = dp.slice_id JOIN track t"
			       " ON t.id = sl.track_id WHERE t.profile_id = ?1"
			       " AND sl.ts >= ?2 AND sl.ts < ?3"
			       " ORDER BY 1, sl.track_id, sl.ts", -1, &st,
			       NULL) != SQLITE_OK)
		return model_fail(c->m, "analyze small-dma");
	sqlite3_bind_int64(st, 1, c->profile);
	sqlite3_bind_int64(st, 2, c->t0);
	sqlite3_bind_int64(st, 3, c->t1);
	rc = scan(c, st, &fired);
	sqlite3_finalize(st);
	if (rc)
		return model_fail(c->m, "analyze small-dma");
	if (!fired)
		an_note(c, "no finding: no queue spends over %g%% of its DMA"
			" time in packets under %g B", c->param[1], c->param[0]);
	return 0;
}
