/* Rule reload: a tensor (a DMA variable) loaded into SBUF again and
 * again, where keeping it resident would save the transfers. */
#include "config.h"

#include "model/analyze/rules.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

/* A transfer loads into SBUF when its destination says SB; one without
 * a destination counts too, as the profile cannot say otherwise. One
 * pass, by tensor. */
static const char loads_sql[] =
	"SELECT dt.variable, sl.ts, sl.ts + sl.dur, sl.track_id,"
	" coalesce(dt.transfer_size, 0) FROM dma_transfer dt"
	" JOIN slice sl ON sl.id = dt.slice_id"
	" JOIN track t ON t.id = sl.track_id"
	" WHERE t.profile_id = ?1 AND sl.ts >= ?2 AND sl.ts < ?3"
	" AND dt.variable NOT IN (SELECT id FROM string"
	" WHERE str IN ('', 'unknown'))"
	" AND (dt.dest IS NULL OR dt.dest = '' OR dt.dest LIKE '%SB%')"
	" ORDER BY dt.variable, sl.ts";

/* One tensor's loads as they stream by. */
struct tensor {
	int64_t var, bytes;
	struct an_finding tmp;
};

static void tensor_done(struct an_ctx *c, struct tensor *x)
{
	struct an_finding *f;

	if ((double)x->tmp.nranges <= c->param[0]) {
		free(x->tmp.ranges);
		return;
	}
	f = an_add(c, "keep the tensor resident in SBUF between its uses, or"
		   " reorder the loops so that it is loaded once",
		   "tensor %s loaded into SBUF %zu times (more than %g):"
		   " %lld bytes", model_string(c->m, x->var), x->tmp.nranges,
		   c->param[0], (long long)x->bytes);
	an_int(f, "loads", (int64_t)x->tmp.nranges);
	an_int(f, "bytes", x->bytes);
	f->ranges = x->tmp.ranges;
	f->nranges = x->tmp.nranges;
	f->rcap = x->tmp.rcap;
	an_ranges_sort(f);
}

static int by_loads(const void *a, const void *b)
{
	const struct an_finding *x = a, *y = b;

	if (x->nranges != y->nranges)
		return x->nranges > y->nranges ? -1 : 1;
	return strcmp(x->text, y->text);
}

static int scan(struct an_ctx *c, sqlite3_stmt *st)
{
	struct tensor x = { 0 };
	int rc, have = 0;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t var = sqlite3_column_int64(st, 0);

		if (have && var != x.var) {
			tensor_done(c, &x);
			x = (struct tensor){ 0 };
		}
		x.var = var;
		have = 1;
		x.bytes += sqlite3_column_int64(st, 4);
		an_range_add(&x.tmp, sqlite3_column_int64(st, 1),
			     sqlite3_column_int64(st, 2),
			     sqlite3_column_int64(st, 3));
	}
	if (have)
		tensor_done(c, &x);
	return rc == SQLITE_DONE ? 0 : -1;
}

int rule_reload(struct an_ctx *c)
{
	struct an_result *r = c->res;
	size_t first = r->nfindings;
	sqlite3_stmt *st;
	int rc = an_has_rows(c, "dma_xfer", "DMA transfer rows");

	if (rc <= 0)
		return rc;
	if (sqlite3_prepare_v2(model_db(c->m), loads_sql, -1, &st, NULL) !=
	    SQLITE_OK)
		return model_fail(c->m, "analyze reload");
	sqlite3_bind_int64(st, 1, c->profile);
	sqlite3_bind_int64(st, 2, c->t0);
	sqlite3_bind_int64(st, 3, c->t1);
	rc = scan(c, st);
	sqlite3_finalize(st);
	if (rc)
		return model_fail(c->m, "analyze reload");
	/* most loads first, then by name */
	if (r->nfindings - first > 1)
		qsort(r->findings + first, r->nfindings - first,
		      sizeof(*r->findings), by_loads);
	if (r->nfindings == first)
		an_note(c, "no finding: no tensor is loaded into SBUF more than"
			" %g times", c->param[0]);
	return 0;
}
