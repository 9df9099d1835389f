/* Rule semaphore: engines that spend a large share of the time waiting
 * in EVENT_SEMAPHORE instructions for another engine or a DMA. */
#include "config.h"

#include "model/analyze/rules.h"

#include <sqlite3.h>

#include "model/report/report.h"

static const char engines_sql[] =
	"SELECT t.id, t.name, count(*), sum(sl.dur) FROM track t"
	" JOIN slice sl ON sl.track_id = t.id"
	" WHERE t.profile_id = ?1 AND sl.ts >= ?2 AND sl.ts < ?3"
	" AND sl.name IN (SELECT id FROM string WHERE str = 'EVENT_SEMAPHORE')"
	" GROUP BY t.id ORDER BY 4 DESC, 1";

static const char waits_sql[] =
	"SELECT sl.ts, sl.ts + sl.dur FROM slice sl WHERE sl.track_id = ?1"
	" AND sl.ts >= ?2 AND sl.ts < ?3"
	" AND sl.name IN (SELECT id FROM string WHERE str = 'EVENT_SEMAPHORE')";

static int waits(struct an_ctx *c, struct an_finding *f, int64_t track)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(model_db(c->m), waits_sql, -1, &st, NULL) !=
	    SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, track);
	sqlite3_bind_int64(st, 2, c->t0);
	sqlite3_bind_int64(st, 3, c->t1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		an_range_add(f, sqlite3_column_int64(st, 0),
			     sqlite3_column_int64(st, 1), track);
	sqlite3_finalize(st);
	an_ranges_sort(f);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* One engine's waits; 1 if they are over the threshold. */
static int engine(struct an_ctx *c, sqlite3_stmt *st, int *err)
{
	int64_t track = sqlite3_column_int64(st, 0);
	int64_t n = sqlite3_column_int64(st, 2);
	int64_t ns = sqlite3_column_int64(st, 3);
	double share = 100.0 * (double)ns / (double)(c->end - c->t0);
	struct an_finding *f;
	char pct[40];

	if (share <= c->param[0])
		return 0;
	f = an_add(c, "the engine waits for a semaphore another engine or a"
		   " DMA sets: overlap that work with this engine's (prefetch"
		   " earlier, split into smaller tiles)",
		   "%s waits on semaphores %s of the range (over %g%%):"
		   " %lld EVENT_SEMAPHORE, %lld ns",
		   (const char *)sqlite3_column_text(st, 1),
		   report_pct(pct, sizeof(pct), share), c->param[0],
		   (long long)n, (long long)ns);
	an_int(f, "waits", n);
	an_int(f, "wait_ns", ns);
	an_int(f, "range_ns", c->end - c->t0);
	an_real(f, "share_pct", share);
	*err = waits(c, f, track);
	return 1;
}

int rule_semaphore(struct an_ctx *c)
{
	sqlite3_stmt *st;
	int rc = an_has_rows(c, "engine", "engine rows"), n = 0, err = 0;

	if (rc <= 0)
		return rc;
	rc = SQLITE_DONE;
	if (sqlite3_prepare_v2(model_db(c->m), engines_sql, -1, &st, NULL) !=
	    SQLITE_OK)
		return model_fail(c->m, "analyze semaphore");
	sqlite3_bind_int64(st, 1, c->profile);
	sqlite3_bind_int64(st, 2, c->t0);
	sqlite3_bind_int64(st, 3, c->t1);
	while (!err && (rc = sqlite3_step(st)) == SQLITE_ROW)
		n += engine(c, st, &err);
	sqlite3_finalize(st);
	if (err || rc != SQLITE_DONE)
		return model_fail(c->m, "analyze semaphore");
	if (!n)
		an_note(c, "no finding: no engine waits on semaphores over %g%%"
			" of the range", c->param[0]);
	return 0;
}
