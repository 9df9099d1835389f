/* Rule reload: a tensor (a DMA variable) loaded into SBUF again and
 * again, where keeping it resident would save the transfers. */
#include "config.h"

#include "model/analyze/rules.h"

#include <sqlite3.h>

/* A transfer loads into SBUF when its destination says SB; one without
 * a destination counts too, as the profile cannot say otherwise. */
static const char loads_sql[] =
	"SELECT dt.variable, count(*), sum(coalesce(dt.transfer_size, 0)),"
	" sum(sl.dur) FROM dma_transfer dt JOIN slice sl ON sl.id = dt.slice_id"
	" JOIN track t ON t.id = sl.track_id JOIN string s ON s.id = dt.variable"
	" WHERE t.profile_id = ?1 AND sl.ts >= ?2 AND sl.ts < ?3"
	" AND s.str NOT IN ('', 'unknown')"
	" AND (dt.dest IS NULL OR dt.dest = '' OR dt.dest LIKE '%SB%')"
	" GROUP BY dt.variable HAVING count(*) > ?4 ORDER BY 2 DESC, 1";

static const char ranges_sql[] =
	"SELECT sl.ts, sl.ts + sl.dur, sl.track_id FROM dma_transfer dt"
	" JOIN slice sl ON sl.id = dt.slice_id JOIN track t"
	" ON t.id = sl.track_id WHERE t.profile_id = ?1 AND sl.ts >= ?2"
	" AND sl.ts < ?3 AND dt.variable = ?4"
	" AND (dt.dest IS NULL OR dt.dest = '' OR dt.dest LIKE '%SB%')";

static sqlite3_stmt *prep(struct an_ctx *c, const char *sql)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(model_db(c->m), sql, -1, &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_int64(st, 1, c->profile);
	sqlite3_bind_int64(st, 2, c->t0);
	sqlite3_bind_int64(st, 3, c->t1);
	return st;
}

static int loads_where(struct an_ctx *c, struct an_finding *f, int64_t var)
{
	sqlite3_stmt *st = prep(c, ranges_sql);
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 4, var);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		an_range_add(f, sqlite3_column_int64(st, 0),
			     sqlite3_column_int64(st, 1),
			     sqlite3_column_int64(st, 2));
	sqlite3_finalize(st);
	an_ranges_sort(f);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int finding(struct an_ctx *c, sqlite3_stmt *st)
{
	int64_t var = sqlite3_column_int64(st, 0);
	int64_t n = sqlite3_column_int64(st, 1);
	int64_t bytes = sqlite3_column_int64(st, 2);
	struct an_finding *f;

	f = an_add(c, "keep the tensor resident in SBUF between its uses, or"
		   " reorder the loops so that it is loaded once",
		   "tensor %s loaded into SBUF %lld times (more than %g):"
		   " %lld bytes", model_string(c->m, var), (long long)n,
		   c->param[0], (long long)bytes);
	an_int(f, "loads", n);
	an_int(f, "bytes", bytes);
	an_int(f, "dma_ns", sqlite3_column_int64(st, 3));
	return loads_where(c, f, var);
}

int rule_reload(struct an_ctx *c)
{
	sqlite3_stmt *st = prep(c, loads_sql);
	int rc, n = 0;

	if (!st)
		return model_fail(c->m, "analyze reload");
	sqlite3_bind_int64(st, 4, (int64_t)c->param[0]);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && ++n)
		if (finding(c, st))
			break;
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return model_fail(c->m, "analyze reload");
	if (!n)
		an_note(c, "no finding: no tensor is loaded into SBUF more than"
			" %g times", c->param[0]);
	return 0;
}
