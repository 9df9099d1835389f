/* Rule collectives: collective operations (the Parquet CcOp table, kept
 * in the info table) far from the median of their group, the same
 * operation in the same replica group: a straggling rank, a contended
 * link or a late trigger. */
#include "config.h"

#include "model/analyze/rules.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "model/util.h"

/* One row per operation; its group is the operation and the replica
 * group (the id, else the group as the profile writes it). */
static const char ops_sql[] =
	"SELECT max(CASE key WHEN 'operation' THEN value END),"
	" coalesce(max(CASE key WHEN 'replica_group_id' THEN value END),"
	" max(CASE key WHEN 'replica_group' THEN value END)),"
	" max(CASE key WHEN 'start_ts' THEN value END),"
	" max(CASE key WHEN 'end_ts' THEN value END),"
	" max(CASE key WHEN 'duration_ns' THEN value END)"
	" FROM info WHERE profile_id = ?1 AND section = 'CcOp' GROUP BY idx";

struct ccop {
	char *group;		/* "AllReduce in replica group 0" */
	int64_t ts, end, dur;
};

struct ccops {
	struct ccop *op;
	size_t n, cap;
};

/* An integer column, exact; numbers may arrive as strings of digits.
 * 1 when there is none. */
static int int_col(sqlite3_stmt *st, int col, int64_t *out)
{
	const char *s = (const char *)sqlite3_column_text(st, col);
	char *end;

	if (sqlite3_column_type(st, col) == SQLITE_INTEGER) {
		*out = sqlite3_column_int64(st, col);
		return 0;
	}
	if (sqlite3_column_type(st, col) != SQLITE_TEXT || !s || !*s)
		return 1;
	errno = 0;
	*out = strtoll(s, &end, 10);
	return *end || errno ? 1 : 0;
}

static void add_op(struct an_ctx *c, sqlite3_stmt *st, struct ccops *v)
{
	const char *op = (const char *)sqlite3_column_text(st, 0);
	const char *grp = (const char *)sqlite3_column_text(st, 1);
	int64_t ts, end, dur;

	if (int_col(st, 2, &ts) || ts < c->t0 || ts >= c->t1)
		return;
	if (int_col(st, 3, &end))
		end = -1;
	if (int_col(st, 4, &dur))
		dur = end - ts;
	if (dur < 0)
		return;	/* no duration: nothing to compare */
	v->op = xgrow(v->op, &v->cap, v->n + 1, sizeof(*v->op));
	v->op[v->n++] = (struct ccop){
		xasprintf("%s in replica group %s", op ? op : "?",
			  grp ? grp : "?"), ts, ts + dur, dur };
}

static int by_group(const void *a, const void *b)
{
	const struct ccop *x = a, *y = b;
	int k = strcmp(x->group, y->group);

	if (k)
		return k;
	return (x->ts > y->ts) - (x->ts < y->ts);
}

static int by_int(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The lower median of n durations. */
static int64_t median(const struct ccop *op, size_t n)
{
	int64_t *d = xmalloc(n * sizeof(*d)), m;

	for (size_t i = 0; i < n; i++)
		d[i] = op[i].dur;
	qsort(d, n, sizeof(*d), by_int);
	m = d[(n - 1) / 2];
	free(d);
	return m;
}

/* Far: over factor x the median, or under the median / factor. */
static int far(double factor, int64_t dur, int64_t med)
{
	return (double)dur > factor * (double)med ||
	       (double)dur * factor < (double)med;
}

static double ratio(int64_t dur, int64_t med)
{
	return dur >= med ? (double)dur / (double)med : (double)med / (double)dur;
}

/* One group of n >= 3 operations; 1 if it fired. */
static int group(struct an_ctx *c, const struct ccop *op, size_t n)
{
	int64_t med = median(op, n);
	const struct ccop *worst = NULL;
	struct an_finding *f;
	size_t nfar = 0;

	for (size_t i = 0; i < n; i++) {
		if (!med || !op[i].dur || !far(c->param[0], op[i].dur, med))
			continue;
		nfar++;
		if (!worst || ratio(op[i].dur, med) > ratio(worst->dur, med))
			worst = &op[i];
	}
	if (!nfar)
		return 0;
	f = an_add(c, "find the straggler: compare the ranks' profiles for a"
		   " late start (cc_trigger_start_delay), a slow link or other"
		   " work on the core", "%s: %zu of %zu operations over %gx"
		   " from the median %lld ns; the farthest %lld ns (%.2fx)",
		   op[0].group, nfar, n, c->param[0], (long long)med,
		   (long long)worst->dur, ratio(worst->dur, med));
	an_int(f, "operations", (int64_t)n);
	an_int(f, "outliers", (int64_t)nfar);
	an_int(f, "median_ns", med);
	an_int(f, "farthest_ns", worst->dur);
	for (size_t i = 0; i < n; i++)
		if (med && op[i].dur && far(c->param[0], op[i].dur, med))
			an_range_add(f, op[i].ts, op[i].end, 0);
	an_ranges_sort(f);
	return 1;
}

static void judge(struct an_ctx *c, struct ccops *v)
{
	size_t fired = 0, groups = 0;

	if (v->n)	/* op is NULL when there are none */
		qsort(v->op, v->n, sizeof(*v->op), by_group);
	for (size_t i = 0, j; i < v->n; i = j) {
		for (j = i + 1; j < v->n && !strcmp(v->op[j].group,
						    v->op[i].group); j++)
			;
		if (j - i < 3)
			continue;
		groups++;
		fired += (size_t)group(c, v->op + i, j - i);
	}
	if (!v->n)
		an_note(c, "not checked: no collective operations (CcOp) in"
			" the range");
	else if (!fired)
		an_note(c, "no finding: %zu operations, %zu groups of 3 or more,"
			" none over %gx from its median", v->n, groups,
			c->param[0]);
}

int rule_collectives(struct an_ctx *c)
{
	struct ccops v = { 0 };
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(model_db(c->m), ops_sql, -1, &st, NULL) !=
	    SQLITE_OK)
		return model_fail(c->m, "analyze collectives");
	sqlite3_bind_int64(st, 1, c->profile);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		add_op(c, st, &v);
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		judge(c, &v);
	for (size_t i = 0; i < v.n; i++)
		free(v.op[i].group);
	free(v.op);
	return rc == SQLITE_DONE ? 0 : model_fail(c->m, "analyze collectives");
}
