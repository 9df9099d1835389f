#include "config.h"

#include "model/selection.h"
#include "model/selection_int.h"

#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/agg.h"
#include "model/busy.h"
#include "model/lod.h"
#include "model/cache/schema.h"
#include "model/util.h"

/* Above this many events in the range the union over rows is measured
 * per column instead of event by event. */
#define EXACT_UNION_MAX 1000000
#define UNION_COLS 4096

sqlite3_stmt *selection_prep(struct model *m, const char *sql)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(model_db(m), sql, -1, &st, NULL) != SQLITE_OK) {
		model_fail(m, "selection");
		return NULL;
	}
	return st;
}

sqlite3_stmt *selection_prep_track(struct model *m, const char *sql,
				   const struct mtrack *t, int64_t t0,
				   int64_t t1)
{
	sqlite3_stmt *st = selection_prep(m, sql);

	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, t->id);
	sqlite3_bind_int64(st, 2, t->max_depth);
	sqlite3_bind_int64(st, 3, t0);
	sqlite3_bind_int64(st, 4, t1);
	return st;
}

/* Values of one field, merged from aggregates and events. */
struct vtab {
	struct sel_value *v;
	int64_t *key;
	size_t n, cap;
};

static struct sel_value *vtab_get(struct vtab *t, int64_t key)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->key[i] == key)
			return &t->v[i];
	if (t->n == t->cap) {
		size_t cap = t->cap;

		t->v = xgrow(t->v, &cap, t->n + 1, sizeof(*t->v));
		t->key = xgrow(t->key, &t->cap, cap, sizeof(*t->key));
	}
	t->key[t->n] = key;
	memset(&t->v[t->n], 0, sizeof(*t->v));
	t->v[t->n].dmin = INT64_MAX;
	return &t->v[t->n++];
}

static void vtab_add(struct vtab *t, int64_t key, int64_t n, int64_t dur,
		     int64_t dmin, int64_t dmax)
{
	struct sel_value *v = vtab_get(t, key);

	v->n += n;
	v->dur = sat_add(v->dur, dur);
	v->dmin = NX_MIN(v->dmin, dmin);
	v->dmax = NX_MAX(v->dmax, dmax);
}

/* SQL of a field's value per event, for reading events directly. */
static const char *const field_expr[AGG_NFIELDS] = {
	[AGG_NAME] = "s.name",
	[AGG_CAT] = "s.cat",
	[AGG_HLO] = "(SELECT hlo_name FROM instruction WHERE slice_id = s.id)",
	[AGG_SIZE] = "coalesce((SELECT transfer_size FROM dma_packet WHERE"
		     " slice_id = s.id), (SELECT transfer_size FROM dma_transfer"
		     " WHERE slice_id = s.id))",
};

static int raw_values(struct model *m, const struct mtrack *t, enum agg_field f,
		      int64_t t0, int64_t t1, struct vtab *out)
{
	char sql[512];
	sqlite3_stmt *st;

	if (t1 <= t0)
		return 0;
	snprintf(sql, sizeof(sql), "SELECT %s AS v, count(*), sum(s.dur),"
		 " min(s.dur), max(s.dur) FROM slice s WHERE s.track_id = ? AND"
		 " s.depth IN " DEPTHS_UPTO("?") " AND s.ts >= ? AND s.ts < ?"
		 " GROUP BY v", field_expr[f]);
	st = selection_prep_track(m, sql, t, t0, t1);
	if (!st)
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (sqlite3_column_type(st, 0) == SQLITE_NULL)
			continue;
		vtab_add(out, sqlite3_column_int64(st, 0),
			 sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2),
			 sqlite3_column_int64(st, 3), sqlite3_column_int64(st, 4));
	}
	sqlite3_finalize(st);
	return 0;
}

/* The whole buckets [*b0, *b1) of a level of the aggregates of field f
 * on t that lie in [t0, t1), and their width: 0, or 1 when t has no
 * such aggregates or none lies in the range. */
static int agg_buckets(const struct mtrack *t, enum agg_field f, int64_t t0,
		       int64_t t1, int *level, int64_t *b0, int64_t *b1,
		       int64_t *w)
{
	int64_t span = NX_MAX(t->max_ts - t->min_ts, 1);
	int lmax, nl, lo;

	if (t->lod_level < 0 || t->agg_level < 0 ||
	    !(t->agg_fields & (1u << f)))
		return 1;
	lmax = NX_MAX(lod_level_for(span), t->lod_level);
	nl = t->agg_level;
	lo = f == AGG_NAME ? nl : agg_field_level(span, t->n_events, nl);
	*level = agg_range_level(lo, lmax, t->min_ts, t->max_ts, t0, t1, b0,
				 b1);
	*w = lod_width(*level);
	return *b1 <= *b0;
}

/* sql over the agg rows of field f of t in buckets [b0, b1) of a
 * level, with those five parameters bound first. */
static sqlite3_stmt *agg_prep(struct model *m, const char *sql,
			      const struct mtrack *t, enum agg_field f,
			      int level, int64_t b0, int64_t b1)
{
	sqlite3_stmt *st = selection_prep(m, sql);

	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, t->id);
	sqlite3_bind_int(st, 2, f);
	sqlite3_bind_int(st, 3, level);
	sqlite3_bind_int64(st, 4, b0);
	sqlite3_bind_int64(st, 5, b1);
	return st;
}

static int field_values(struct model *m, const struct mtrack *t,
			enum agg_field f, int64_t t0, int64_t t1,
			struct vtab *out)
{
	int64_t w, b0, b1;
	int level;
	sqlite3_stmt *st;

	if (agg_buckets(t, f, t0, t1, &level, &b0, &b1, &w))
		return raw_values(m, t, f, t0, t1, out);
	st = agg_prep(m, "SELECT value, sum(n), sum(dur), min(dmin), max(dmax)"
		      " FROM agg WHERE track_id = ? AND field = ? AND level = ?"
		      " AND bucket >= ? AND bucket < ? GROUP BY value", t, f,
		      level, b0, b1);
	if (!st)
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW)
		vtab_add(out, sqlite3_column_int64(st, 0),
			 sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2),
			 sqlite3_column_int64(st, 3), sqlite3_column_int64(st, 4));
	sqlite3_finalize(st);
	return raw_values(m, t, f, t0, b0 * w, out) ||
	       raw_values(m, t, f, b1 * w, t1, out) ? -1 : 0;
}

/* Binds name as parameter k of st, runs it and adds the count and total
 * duration it gives to *n and *dur; finalizes st. */
static int add_total(struct model *m, sqlite3_stmt *st, int k, int64_t name,
		     int64_t *n, int64_t *dur)
{
	int rc;

	sqlite3_bind_int64(st, k, name);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*n += sqlite3_column_int64(st, 0);
		*dur = sat_add(*dur, sqlite3_column_int64(st, 1));
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : model_fail(m, "selection");
}

/* Adds the count and total duration of the events named name in
 * [t0, t1) on t, read from the events. */
static int raw_name_total(struct model *m, const struct mtrack *t,
			  int64_t name, int64_t t0, int64_t t1, int64_t *n,
			  int64_t *dur)
{
	sqlite3_stmt *st;

	if (t1 <= t0)
		return 0;
	st = selection_prep_track(m, "SELECT count(*), coalesce(sum(s.dur), 0)"
				  " FROM slice s WHERE s.track_id = ? AND"
				  " s.depth IN " DEPTHS_UPTO("?") " AND"
				  " s.ts >= ? AND s.ts < ? AND s.name = ?",
				  t, t0, t1);
	return st ? add_total(m, st, 5, name, n, dur) : -1;
}

int selection_name_total(struct model *m, const struct mtrack *t, int64_t t0,
			 int64_t t1, int64_t name, int64_t *n, int64_t *dur)
{
	int64_t w, b0, b1;
	int level;
	sqlite3_stmt *st;

	*n = *dur = 0;
	if (agg_buckets(t, AGG_NAME, t0, t1, &level, &b0, &b1, &w))
		return raw_name_total(m, t, name, t0, t1, n, dur);
	st = agg_prep(m, "SELECT coalesce(sum(n), 0), coalesce(sum(dur), 0)"
		      " FROM agg WHERE track_id = ? AND field = ? AND level = ?"
		      " AND bucket >= ? AND bucket < ? AND value = ?", t,
		      AGG_NAME, level, b0, b1);
	if (!st || add_total(m, st, 6, name, n, dur))
		return -1;
	return raw_name_total(m, t, name, t0, b0 * w, n, dur) ||
	       raw_name_total(m, t, name, b1 * w, t1, n, dur) ? -1 : 0;
}

static int cmp_value(const void *a, const void *b)
{
	const struct sel_value *x = a, *y = b;

	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->value, y->value);
}

static void finish_field(struct model *m, struct sel_field *sf,
			 enum agg_field f, struct vtab *vt)
{
	sf->rows = vt->v;
	sf->nrows = vt->n;
	for (size_t i = 0; i < vt->n; i++) {
		sf->rows[i].key = vt->key[i];
		if (f == AGG_SIZE)
			sf->rows[i].value = xasprintf("%" PRId64, vt->key[i]);
		else
			sf->rows[i].value = xstrdup(model_string(m, vt->key[i]));
	}
	free(vt->key);
	if (sf->nrows)
		qsort(sf->rows, sf->nrows, sizeof(*sf->rows), cmp_value);
}

/* The shortest and longest of a row's events without field f. */
static int none_extremes(struct model *m, const struct mtrack *t,
			 enum agg_field f, int64_t t0, int64_t t1,
			 struct sel_value *none)
{
	char sql[512];
	sqlite3_stmt *st;

	snprintf(sql, sizeof(sql), "SELECT min(s.dur), max(s.dur) FROM slice s"
		 " WHERE s.track_id = ? AND s.depth IN " DEPTHS_UPTO("?")
		 " AND s.ts >= ? AND s.ts < ? AND %s IS NULL", field_expr[f]);
	st = selection_prep_track(m, sql, t, t0, t1);
	if (!st)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW) {
		none->dmin = sqlite3_column_int64(st, 0);
		none->dmax = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return 0;
}

/* The row's events without a value for the field, "(none)": what the
 * values leave of the row's count and time. Their shortest and longest
 * are measured later, if the selection is small enough. */
static void add_none(const struct sel_group *g, struct sel_field *sf)
{
	struct sel_value none = { .n = g->n, .dur = g->dur, .dmin = -1,
				  .dmax = -1, .none = 1 };

	for (size_t i = 0; i < sf->nrows; i++) {
		none.n -= sf->rows[i].n;
		none.dur = sat_sub(none.dur, sf->rows[i].dur);
	}
	if (none.n <= 0)
		return;
	none.value = xstrdup("(none)");
	sf->rows = xreallocarray(sf->rows, sf->nrows + 1, sizeof(*sf->rows));
	sf->rows[sf->nrows++] = none;
	qsort(sf->rows, sf->nrows, sizeof(*sf->rows), cmp_value);
}

/* Values by key, "(none)" first: SQL's order of NULL and integers. */
static int cmp_key(const void *a, const void *b)
{
	const struct sel_value *x = *(struct sel_value *const *)a;
	const struct sel_value *y = *(struct sel_value *const *)b;

	if (x->none != y->none)
		return x->none ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

/* The value of (none, key) among the n values of idx, sorted by cmp_key. */
static struct sel_value *row_of(struct sel_value **idx, size_t n, int none,
				int64_t key)
{
	struct sel_value probe = { .none = none, .key = none ? 0 : key };
	struct sel_value *p = &probe, **hit;

	hit = bsearch(&p, idx, n, sizeof(*idx), cmp_key);
	return hit ? *hit : NULL;
}

/* The values of a field sorted by key, for row_of. */
static struct sel_value **key_index(struct sel_field *sf)
{
	struct sel_value **idx = xcalloc(sf->nrows ? sf->nrows : 1,
					 sizeof(*idx));

	for (size_t r = 0; r < sf->nrows; r++)
		idx[r] = &sf->rows[r];
	if (sf->nrows > 1)
		qsort(idx, sf->nrows, sizeof(*idx), cmp_key);
	return idx;
}

/* Every value's distribution of a row's field: one pass over its events
 * ordered by value, then duration. */
static int field_dists(struct model *m, const struct mtrack *t, int64_t t0,
		       int64_t t1, struct sel_field *sf)
{
	char sql[512];
	sqlite3_stmt *st;
	int64_t *durs = NULL, key = 0;
	size_t n = 0, cap = 0;
	int none = 0, rc;
	struct sel_value **idx;

	snprintf(sql, sizeof(sql), "SELECT %s AS v, s.dur FROM slice s WHERE"
		 " s.track_id = ? AND s.depth IN " DEPTHS_UPTO("?") " AND s.ts"
		 " >= ? AND s.ts < ? ORDER BY v, s.dur", field_expr[sf->agg]);
	st = selection_prep_track(m, sql, t, t0, t1);
	if (!st)
		return -1;
	/* an index by key: a row may have as many values as events */
	idx = key_index(sf);
	do {
		int null, more = (rc = sqlite3_step(st)) == SQLITE_ROW;
		int64_t k;

		null = more && sqlite3_column_type(st, 0) == SQLITE_NULL;
		k = more ? sqlite3_column_int64(st, 0) : 0;
		if (n && (!more || null != none || k != key)) {
			struct sel_value *v = row_of(idx, sf->nrows, none, key);

			if (v)
				dist_from_sorted(durs, n, &v->dist);
			n = 0;
		}
		if (!more)
			break;
		none = null;
		key = k;
		durs = xgrow(durs, &cap, n + 1, sizeof(*durs));
		durs[n++] = sqlite3_column_int64(st, 1);
	} while (1);
	sqlite3_finalize(st);
	free(durs);
	free(idx);
	return rc == SQLITE_DONE ? 0 : model_fail(m, "selection");
}

/* The column of the counting pass that holds field f; -1: none. */
static int count_col(int f)
{
	return f == AGG_NAME ? 0 : f == AGG_CAT ? 1 : f == AGG_SIZE ? 2 : -1;
}

/* One event of the counting pass into its value of a field. */
static void count_event(sqlite3_stmt *st, struct sel_field *sf,
			struct sel_value **idx, int64_t dur)
{
	int c = count_col(sf->agg);
	int null = sqlite3_column_type(st, c) == SQLITE_NULL;
	struct sel_value *v = row_of(idx, sf->nrows, null,
				     sqlite3_column_int64(st, c));

	if (!v)
		return;
	dist_add(&v->dist, dur);
	if (v->none) {
		v->dmin = v->dmin < 0 ? dur : NX_MIN(v->dmin, dur);
		v->dmax = NX_MAX(v->dmax, dur);
	}
}

/* The distributions of a row's name, category and size values: one
 * pass over its events in the index, counting. */
static int group_counts(struct model *m, const struct mtrack *t, int64_t t0,
			int64_t t1, struct sel_group *g)
{
	struct sel_value **idx[NX_ARRAY_SIZE(g->fields)] = { NULL };
	sqlite3_stmt *st;
	int rc;

	st = selection_prep_track(m, "SELECT name, cat, size, dur FROM slice"
				  " WHERE track_id = ? AND depth IN "
				  DEPTHS_UPTO("?") " AND ts >= ? AND ts < ?",
				  t, t0, t1);
	if (!st)
		return -1;
	for (size_t k = 0; k < g->nfields; k++)
		if (count_col(g->fields[k].agg) >= 0)
			idx[k] = key_index(&g->fields[k]);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t dur = sqlite3_column_int64(st, 3);

		for (size_t k = 0; k < g->nfields; k++)
			if (idx[k])
				count_event(st, &g->fields[k], idx[k], dur);
	}
	sqlite3_finalize(st);
	for (size_t k = 0; k < g->nfields; k++) {
		for (size_t r = 0; idx[k] && r < g->fields[k].nrows; r++) {
			struct sel_value *v = &g->fields[k].rows[r];

			if (v->dist.measured)
				dist_estimate(&v->dist, v->dmax);
		}
		free(idx[k]);
	}
	return rc == SQLITE_DONE ? 0 : model_fail(m, "selection");
}

/* The rows' tracks, for the passes over their events. */
static const struct mtrack *track_of(const struct mtrack *all, size_t nall,
				     int64_t id)
{
	for (size_t i = 0; i < nall; i++)
		if (all[i].id == id)
			return &all[i];
	return NULL;
}

static int count_dists(struct model *m, const struct mtrack *all, size_t nall,
		       struct selection *s)
{
	for (size_t g = 0; g < s->ngroups; g++) {
		const struct mtrack *t = track_of(all, nall, s->groups[g].track);

		if (t && !t->is_counter && s->groups[g].n &&
		    group_counts(m, t, s->t0, s->t1, &s->groups[g]))
			return -1;
	}
	return 0;
}

/* Every "(none)" line's shortest and longest and every line's
 * distribution, read from the events. */
static int measure_none(struct model *m, const struct mtrack *all, size_t nall,
			struct selection *s)
{
	for (size_t g = 0; g < s->ngroups; g++) {
		const struct mtrack *t = track_of(all, nall, s->groups[g].track);

		for (size_t k = 0; t && k < s->groups[g].nfields; k++) {
			struct sel_field *sf = &s->groups[g].fields[k];

			for (size_t r = 0; r < sf->nrows; r++)
				if (sf->rows[r].none &&
				    none_extremes(m, t, (enum agg_field)sf->agg,
						  s->t0, s->t1, &sf->rows[r]))
					return -1;
			if (field_dists(m, t, s->t0, s->t1, sf))
				return -1;
		}
	}
	return 0;
}

/* Above SEL_DIST_COUNT_MAX events: the name lines' distributions from
 * the duration aggregates. */
static int agg_dists(struct model *m, const struct mtrack *all, size_t nall,
		     struct selection *s)
{
	for (size_t g = 0; g < s->ngroups; g++) {
		const struct mtrack *t = track_of(all, nall, s->groups[g].track);

		for (size_t k = 0; t && k < s->groups[g].nfields; k++)
			if (s->groups[g].fields[k].agg == AGG_NAME &&
			    selection_agg_names(m, t, s->t0, s->t1,
						&s->groups[g].fields[k]))
				return -1;
	}
	return 0;
}

/* The thresholds of the ways distributions are measured: SEL_*_MAX, or
 * 0 (every selection read from the aggregates) when the tests set
 * NXTOP_TEST_DIST_AGGREGATES, to take that path with few events. */
static int64_t dist_limit(int64_t max)
{
	return getenv("NXTOP_TEST_DIST_AGGREGATES") ? 0 : max;
}

static int measure_dists(struct model *m, const struct mtrack *all,
			 size_t nall, struct selection *s)
{
	if (s->n <= dist_limit(SEL_NONE_EXACT_MAX))
		return measure_none(m, all, nall, s);
	if (s->n <= dist_limit(SEL_DIST_COUNT_MAX))
		return count_dists(m, all, nall, s);
	return agg_dists(m, all, nall, s);
}

struct fieldspec {
	const char *name;
	enum agg_field f;
};

static const struct fieldspec engine_fields[] = {
	{ "opcode", AGG_NAME }, { "layer", AGG_CAT }, { "hlo_name", AGG_HLO },
};
static const struct fieldspec dma_fields[] = {
	{ "variable", AGG_NAME }, { "queue_type", AGG_CAT },
	{ "transfer_size", AGG_SIZE },
};
static const struct fieldspec other_fields[] = {
	{ "name", AGG_NAME }, { "category", AGG_CAT },
};

static int counter_stats(struct model *m, const struct mtrack *t, int64_t t0,
			 int64_t t1, struct sel_counter *c)
{
	sqlite3_stmt *st = selection_prep(m, "SELECT count(*), min(value),"
					  " max(value), avg(value) FROM counter"
					  " WHERE track_id = ? AND ts >= ? AND"
					  " ts < ?");

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, t->id);
	sqlite3_bind_int64(st, 2, t0);
	sqlite3_bind_int64(st, 3, t1);
	if (sqlite3_step(st) == SQLITE_ROW) {
		c->n = sqlite3_column_int64(st, 0);
		c->vmin = sqlite3_column_double(st, 1);
		c->vmax = sqlite3_column_double(st, 2);
		c->mean = sqlite3_column_double(st, 3);
	}
	sqlite3_finalize(st);
	return 0;
}

static int group_compute(struct model *m, const struct mtrack *t, int64_t t0,
			 int64_t t1, struct sel_group *g)
{
	const struct fieldspec *fs = other_fields;
	size_t nfs = NX_ARRAY_SIZE(other_fields);

	memset(g, 0, sizeof(*g));
	g->track = t->id;
	g->name = xstrdup(t->name);
	g->kind = xstrdup(t->kind);
	g->unit = t->unit ? xstrdup(t->unit) : NULL;
	if (t->is_counter)
		return counter_stats(m, t, t0, t1, &g->counter);
	if (!strcmp(t->kind, "engine")) {
		fs = engine_fields;
		nfs = NX_ARRAY_SIZE(engine_fields);
	} else if (!strcmp(t->kind, "dma") || !strcmp(t->kind, "dma_xfer")) {
		fs = dma_fields;
		nfs = NX_ARRAY_SIZE(dma_fields);
	}
	for (size_t i = 0; i < nfs; i++) {
		struct vtab vt = { 0 };

		if (field_values(m, t, fs[i].f, t0, t1, &vt)) {
			free(vt.v);
			free(vt.key);
			return -1;
		}
		g->fields[g->nfields].name = fs[i].name;
		g->fields[g->nfields].agg = fs[i].f;
		finish_field(m, &g->fields[g->nfields], fs[i].f, &vt);
		/* every event has a name: the names make the row's totals */
		if (fs[i].f == AGG_NAME) {
			for (size_t k = 0; k < g->fields[g->nfields].nrows; k++) {
				g->n += g->fields[g->nfields].rows[k].n;
				g->dur = sat_add(g->dur,
						 g->fields[g->nfields].rows[k].dur);
			}
		} else {
			add_none(g, &g->fields[g->nfields]);
		}
		g->nfields++;
	}
	return busy_track(m, t, t0, t1, &g->active);
}

static int selected(const struct mtrack *t, const struct mtrack *all,
		    size_t nall, const int64_t *ids, size_t nids)
{
	if (!nids)
		return 1;
	for (size_t i = 0; i < nids; i++) {
		if (ids[i] == t->id || ids[i] == t->parent_id)
			return 1;
		/* a group two levels up (system profiles nest groups) */
		for (size_t k = 0; k < nall; k++)
			if (all[k].id == t->parent_id && all[k].parent_id == ids[i])
				return 1;
	}
	return 0;
}

/* Union of busy time over the selected rows. */
static int union_active(struct model *m, const struct mtrack *all,
			size_t nall, struct selection *s)
{
	int64_t colw = (s->t1 - s->t0 + UNION_COLS - 1) / UNION_COLS;
	int64_t *best;
	struct mcell *cells;
	int64_t in_range = 0;

	for (size_t i = 0; i < s->ngroups; i++)
		in_range += s->groups[i].n;
	if (in_range <= EXACT_UNION_MAX)
		colw = 1;
	s->active_exact = colw == 1;
	if (colw == 1) {
		/* event by event: merge every selected row's intervals */
		struct strbuf sql;
		sqlite3_stmt *st;
		int64_t covered = s->t0, max_dur = 0, max_depth = 0;

		for (size_t i = 0; i < nall; i++) {
			for (size_t g = 0; g < s->ngroups; g++) {
				if (s->groups[g].track != all[i].id)
					continue;
				max_dur = NX_MAX(max_dur, all[i].max_dur);
				max_depth = NX_MAX(max_depth, all[i].max_depth);
			}
		}
		sb_init(&sql);
		sb_printf(&sql, "SELECT ts, dur FROM slice WHERE ts < ? AND"
			  " ts >= %" PRId64 " AND ts + dur > ? AND depth IN "
			  DEPTHS_UPTO("%" PRId64) " AND track_id IN (",
			  sat_add(s->t0, -max_dur), max_depth);
		for (size_t i = 0; i < s->ngroups; i++)
			sb_printf(&sql, "%s%" PRId64, i ? "," : "", s->groups[i].track);
		sb_adds(&sql, ") ORDER BY ts");
		st = selection_prep(m, sb_cstr(&sql));
		sb_free(&sql);
		if (!st)
			return -1;
		sqlite3_bind_int64(st, 1, s->t1);
		sqlite3_bind_int64(st, 2, s->t0);
		while (sqlite3_step(st) == SQLITE_ROW) {
			int64_t a = sqlite3_column_int64(st, 0);
			int64_t b = a + sqlite3_column_int64(st, 1);

			a = NX_MAX(a, covered);
			b = NX_MIN(b, s->t1);
			if (b > a) {
				s->active += b - a;
				covered = b;
			}
		}
		sqlite3_finalize(st);
		return 0;
	}
	best = xcalloc(UNION_COLS, sizeof(*best));
	cells = xcalloc(UNION_COLS, sizeof(*cells));
	for (size_t i = 0; i < nall; i++) {
		int chosen = 0;

		for (size_t g = 0; g < s->ngroups; g++)
			chosen |= s->groups[g].track == all[i].id;
		if (!chosen || all[i].is_counter)
			continue;
		if (model_frame(m, &all[i], s->t0, colw, UNION_COLS, cells)) {
			free(best);
			free(cells);
			return -1;
		}
		for (int c = 0; c < UNION_COLS; c++)
			best[c] = NX_MAX(best[c], cells[c].busy);
	}
	for (int c = 0; c < UNION_COLS; c++)
		s->active += NX_MIN(best[c], colw);
	s->active = NX_MIN(s->active, s->end - s->t0);
	free(best);
	free(cells);
	return 0;
}

int selection_compute(struct model *m, int64_t profile, int64_t t0,
		      int64_t t1, const int64_t *tracks, size_t ntracks,
		      struct selection *out)
{
	struct mtrack *all;
	size_t nall;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->t0 = t0;
	out->t1 = t1;
	if (t1 <= t0) {
		err_set("empty selection");
		return -1;
	}
	out->end = model_range_end(m, profile, t1);
	if (model_tracks(m, profile, &all, &nall))
		return -1;
	out->groups = xcalloc(nall ? nall : 1, sizeof(*out->groups));
	for (size_t i = 0; i < nall && !rc; i++) {
		const struct mtrack *t = &all[i];

		if (!strcmp(t->kind, "group") ||
		    !selected(t, all, nall, tracks, ntracks))
			continue;
		rc = group_compute(m, t, t0, t1, &out->groups[out->ngroups]);
		out->ngroups++;
		out->n += out->groups[out->ngroups - 1].n;
		out->dur = sat_add(out->dur,
				   out->groups[out->ngroups - 1].dur);
	}
	if (!rc)
		rc = union_active(m, all, nall, out);
	if (!rc)
		rc = measure_dists(m, all, nall, out);
	if (!rc)
		rc = bounds_compute(m, profile, t0, t1, &out->bounds);
	model_tracks_free(all, nall);
	return rc;
}

void selection_free(struct selection *s)
{
	for (size_t g = 0; g < s->ngroups; g++) {
		struct sel_group *gr = &s->groups[g];

		for (size_t f = 0; f < gr->nfields; f++) {
			for (size_t r = 0; r < gr->fields[f].nrows; r++)
				free(gr->fields[f].rows[r].value);
			free(gr->fields[f].rows);
		}
		free(gr->name);
		free(gr->kind);
		free(gr->unit);
	}
	free(s->groups);
	bounds_free(&s->bounds);
	memset(s, 0, sizeof(*s));
}
