/* Rule stall: an engine idle for long stretches while other engines
 * run: it waits on a dependency the others are slow to satisfy. */
#include "config.h"

#include "model/analyze/rules.h"

#include <sqlite3.h>
#include <stdlib.h>

#include "model/report/report.h"
#include "model/util.h"

static const char engines_sql[] =
	"SELECT id, name FROM track WHERE profile_id = ?1 AND kind = 'engine'"
	" ORDER BY sort_key, id";

static const char events_sql[] =
	"SELECT ts, ts + dur FROM slice WHERE track_id = ?1 AND depth = 0"
	" AND ts >= ?2 AND ts < ?3 ORDER BY ts";

/* Another engine starts an instruction inside (a, b). */
static const char others_sql[] =
	"SELECT 1 FROM track t JOIN slice sl ON sl.track_id = t.id"
	" WHERE t.profile_id = ?1 AND t.kind = 'engine' AND t.id != ?2"
	" AND sl.depth = 0 AND sl.ts > ?3 AND sl.ts < ?4 LIMIT 1";

struct stall_q {
	sqlite3_stmt *events, *others;
};

static int others_busy(struct an_ctx *c, struct stall_q *q, int64_t track,
		       int64_t a, int64_t b)
{
	int busy;

	sqlite3_bind_int64(q->others, 1, c->profile);
	sqlite3_bind_int64(q->others, 2, track);
	sqlite3_bind_int64(q->others, 3, a);
	sqlite3_bind_int64(q->others, 4, b);
	busy = sqlite3_step(q->others) == SQLITE_ROW;
	sqlite3_reset(q->others);
	return busy;
}

/* The engine's gaps over gap_us while others start work. */
static int gaps(struct an_ctx *c, struct stall_q *q, int64_t track,
		struct an_finding *f, int64_t *ns)
{
	int64_t end = -1, min = (int64_t)(c->param[0] * 1000);
	int rc;

	sqlite3_bind_int64(q->events, 1, track);
	sqlite3_bind_int64(q->events, 2, c->t0);
	sqlite3_bind_int64(q->events, 3, c->t1);
	while ((rc = sqlite3_step(q->events)) == SQLITE_ROW) {
		int64_t ts = sqlite3_column_int64(q->events, 0);
		int64_t e = sqlite3_column_int64(q->events, 1);

		if (end >= 0 && ts - end > min &&
		    others_busy(c, q, track, end, ts)) {
			an_range_add(f, end, ts, track);
			*ns += ts - end;
		}
		if (e > end)
			end = e;
	}
	sqlite3_reset(q->events);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int engine(struct an_ctx *c, struct stall_q *q, sqlite3_stmt *eng,
		  int *fired)
{
	int64_t track = sqlite3_column_int64(eng, 0), ns = 0;
	struct an_finding tmp = { 0 }, *f;
	double share;
	char pct[40];

	if (gaps(c, q, track, &tmp, &ns)) {
		free(tmp.ranges);
		return -1;
	}
	share = 100.0 * (double)ns / (double)(c->end - c->t0);
	if (!tmp.nranges || share <= c->param[1]) {
		free(tmp.ranges);
		return 0;
	}
	f = an_add(c, "the engine waits on work of the others: look at what"
		   " its next instruction depends on (its semaphore wait,"
		   " a DMA) and start that earlier",
		   "%s stalls %s of the range (over %g%%) while other"
		   " engines run: %zu gap%s over %g us, %lld ns",
		   (const char *)sqlite3_column_text(eng, 1),
		   report_pct(pct, sizeof(pct), share), c->param[1], tmp.nranges,
		   tmp.nranges == 1 ? "" : "s", c->param[0], (long long)ns);
	an_int(f, "gaps", (int64_t)tmp.nranges);
	an_int(f, "stall_ns", ns);
	an_int(f, "range_ns", c->end - c->t0);
	an_real(f, "share_pct", share);
	f->ranges = tmp.ranges;
	f->nranges = tmp.nranges;
	f->rcap = tmp.rcap;
	an_ranges_sort(f);
	(*fired)++;
	return 0;
}

static int prepare(struct an_ctx *c, struct stall_q *q, sqlite3_stmt **eng)
{
	sqlite3 *db = model_db(c->m);

	*eng = q->events = q->others = NULL;
	if (sqlite3_prepare_v2(db, engines_sql, -1, eng, NULL) ||
	    sqlite3_prepare_v2(db, events_sql, -1, &q->events, NULL) ||
	    sqlite3_prepare_v2(db, others_sql, -1, &q->others, NULL))
		return -1;
	sqlite3_bind_int64(*eng, 1, c->profile);
	return 0;
}

int rule_stall(struct an_ctx *c)
{
	struct stall_q q;
	sqlite3_stmt *eng;
	int fired = 0, rc = prepare(c, &q, &eng), n = 0;

	while (!rc && sqlite3_step(eng) == SQLITE_ROW && ++n)
		rc = engine(c, &q, eng, &fired);
	sqlite3_finalize(eng);
	sqlite3_finalize(q.events);
	sqlite3_finalize(q.others);
	if (rc)
		return model_fail(c->m, "analyze stall");
	if (!n)
		an_note(c, "not checked: the profile has no engine rows");
	else if (!fired)
		an_note(c, "no finding: no engine stalls over %g%% of the range"
			" in gaps over %g us", c->param[1], c->param[0]);
	return 0;
}
