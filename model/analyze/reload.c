/* Rule reload: a tensor (a DMA variable) loaded into SBUF again and
 * again, where keeping it resident would save the transfers. */
#include "config.h"

#include "model/analyze/rules.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "model/util.h"

/* A transfer loads into SBUF when its destination says SB; one without
 * a destination counts too, as the profile cannot say otherwise. One
 * pass, by tensor, driven by the transfers (CROSS JOIN keeps that
 * order): from the slices, it would read every event of the profile. */
static const char loads_sql[] =
	"SELECT dt.variable, sl.ts, sl.ts + sl.dur, sl.track_id,"
	" coalesce(dt.transfer_size, 0) FROM dma_transfer dt"
	" CROSS JOIN slice sl ON sl.id = dt.slice_id"
	" CROSS JOIN track t ON t.id = sl.track_id"
	" WHERE t.profile_id = ?1 AND sl.ts >= ?2 AND sl.ts < ?3"
	" AND dt.variable NOT IN (SELECT id FROM string"
	" WHERE str IN ('', 'unknown'))"
	" AND (dt.dest IS NULL OR dt.dest = '' OR dt.dest LIKE '%SB%')"
	" ORDER BY dt.variable, sl.ts";

/* One tensor's loads as they stream by (by time: first is the first
 * load's start). */
struct tensor {
	int64_t var, bytes, first;
	const char *name;
	struct an_finding tmp;
};

/* The tensors loaded more than max_loads times. */
struct tensors {
	struct tensor *v;
	size_t n, cap;
};

static void tensor_done(struct an_ctx *c, struct tensors *over,
			struct tensor *x)
{
	if ((double)x->tmp.nranges <= c->param[0]) {
		free(x->tmp.ranges);
		return;
	}
	x->name = model_string(c->m, x->var);
	over->v = xgrow(over->v, &over->cap, over->n + 1, sizeof(*over->v));
	over->v[over->n++] = *x;
}

/* Most loads first; of as many, the one loaded first, then by name,
 * then by id (names of two ids are equal past the interning cap). */
static int by_loads(const void *a, const void *b)
{
	const struct tensor *x = a, *y = b;
	int k;

	if (x->tmp.nranges != y->tmp.nranges)
		return x->tmp.nranges > y->tmp.nranges ? -1 : 1;
	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	if ((k = strcmp(x->name, y->name)))
		return k;
	return (x->var > y->var) - (x->var < y->var);
}

static void add_finding(struct an_ctx *c, struct tensor *x)
{
	struct an_finding *f;

	f = an_add(c, "keep the tensor resident in SBUF between its uses, or"
		   " reorder the loops so that it is loaded once",
		   "tensor %s loaded into SBUF %zu times (more than %g):"
		   " %lld bytes", x->name, x->tmp.nranges, c->param[0],
		   (long long)x->bytes);
	an_int(f, "loads", (int64_t)x->tmp.nranges);
	an_int(f, "bytes", x->bytes);
	f->ranges = x->tmp.ranges;
	f->nranges = x->tmp.nranges;
	f->rcap = x->tmp.rcap;
	an_ranges_sort(f);
}

static int scan(struct an_ctx *c, sqlite3_stmt *st, struct tensors *over)
{
	struct tensor x = { 0 };
	int rc, have = 0;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t var = sqlite3_column_int64(st, 0);
		int64_t ts = sqlite3_column_int64(st, 1);

		if (have && var != x.var) {
			tensor_done(c, over, &x);
			have = 0;
		}
		if (!have)
			x = (struct tensor){ .var = var, .first = ts };
		have = 1;
		x.bytes += sqlite3_column_int64(st, 4);
		an_range_add(&x.tmp, ts, sqlite3_column_int64(st, 2),
			     sqlite3_column_int64(st, 3));
	}
	if (have)
		tensor_done(c, over, &x);
	return rc == SQLITE_DONE ? 0 : -1;
}

int rule_reload(struct an_ctx *c)
{
	struct tensors over = { 0 };
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
	rc = scan(c, st, &over);
	sqlite3_finalize(st);
	if (over.n > 1)
		qsort(over.v, over.n, sizeof(*over.v), by_loads);
	for (size_t i = 0; i < over.n; i++) {
		if (rc)
			free(over.v[i].tmp.ranges);
		else
			add_finding(c, &over.v[i]);
	}
	free(over.v);
	if (rc)
		return model_fail(c->m, "analyze reload");
	if (!over.n)
		an_note(c, "no finding: no tensor is loaded into SBUF more than"
			" %g times", c->param[0]);
	return 0;
}
