#include "config.h"

#include "model/selection.h"
#include "model/selection_int.h"

#include <sqlite3.h>
#include <stdlib.h>

#include "model/agg.h"
#include "model/hmap.h"
#include "model/lod.h"
#include "model/cache/schema.h"
#include "model/util.h"

struct bins {
	struct dist_bin *v;
	size_t n, cap;
	struct u64map at;	/* value -> index in v + 1 */
};

static void bins_add(struct bins *b, int64_t value, int64_t n, int64_t dmax)
{
	void *at = u64map_get(&b->at, (uint64_t)value);
	struct dist_bin *x;

	if (at) {
		x = &b->v[(uintptr_t)at - 1];
		x->n += n;
		x->dmax = NX_MAX(x->dmax, dmax);
		return;
	}
	b->v = xgrow(b->v, &b->cap, b->n + 1, sizeof(*b->v));
	b->v[b->n] = (struct dist_bin){ value, n, dmax };
	u64map_put(&b->at, (uint64_t)value, (void *)(uintptr_t)++b->n);
}

/* The events starting in [t0, t1), binned as the aggregates are (by
 * name when named). */
static int edge_bins(struct model *m, const struct mtrack *t, int64_t t0,
		     int64_t t1, int named, struct bins *b)
{
	sqlite3_stmt *st;
	int rc;

	if (t1 <= t0)
		return 0;
	st = selection_prep_track(m, "SELECT name, dur FROM slice WHERE"
				  " track_id = ? AND depth IN " DEPTHS_UPTO("?")
				  " AND ts >= ? AND ts < ?", t, t0, t1);
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t dur = sqlite3_column_int64(st, 1);

		bins_add(b, agg_dur_value(named ? sqlite3_column_int64(st, 0) :
					  0, dur), 1, dur);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : model_fail(m, "selection");
}

/* The aggregates' bins of buckets [b0, b1) of a level. */
static int whole_bins(struct model *m, const struct mtrack *t, int level,
		      int64_t b0, int64_t b1, struct bins *b)
{
	sqlite3_stmt *st;
	int rc;

	st = selection_prep(m, "SELECT value, n, dmax FROM agg WHERE track_id = ? AND"
		  " field = ? AND level = ? AND bucket >= ? AND bucket < ?");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, t->id);
	sqlite3_bind_int(st, 2, AGG_DUR);
	sqlite3_bind_int(st, 3, level);
	sqlite3_bind_int64(st, 4, b0);
	sqlite3_bind_int64(st, 5, b1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		bins_add(b, sqlite3_column_int64(st, 0),
			 sqlite3_column_int64(st, 1),
			 sqlite3_column_int64(st, 2));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : model_fail(m, "selection");
}

/* Every bin of the range: the coarsest level whose buckets still fit
 * it, as the name aggregates are read; 1 when the row has no duration
 * aggregates. *named: whether their values hold names (else name 0). */
static int range_bins(struct model *m, const struct mtrack *t, int64_t t0,
		      int64_t t1, struct bins *b, int *named)
{
	int64_t span = NX_MAX(t->max_ts - t->min_ts, 1), w, b0, b1;
	int lmax, lo, hi, level;

	if (t->lod_level < 0 || t->agg_level < 0 ||
	    !(t->agg_fields & (1u << AGG_DUR)))
		return 1;
	lmax = NX_MAX(lod_level_for(span), t->lod_level);
	agg_num_levels(AGG_DUR, span, t->n_events, t->agg_level, lmax, &lo,
		       &hi, named);
	level = agg_range_level(lo, hi, t->min_ts, t->max_ts, t0, t1, &b0, &b1);
	w = lod_width(level);
	if (b1 <= b0)
		return edge_bins(m, t, t0, t1, *named, b);
	if (whole_bins(m, t, level, b0, b1, b) ||
	    edge_bins(m, t, t0, b0 * w, *named, b) ||
	    edge_bins(m, t, b1 * w, t1, *named, b))
		return -1;
	return 0;
}

static int cmp_bin(const void *a, const void *b)
{
	uint64_t x = (uint64_t)((const struct dist_bin *)a)->value;
	uint64_t y = (uint64_t)((const struct dist_bin *)b)->value;

	return x < y ? -1 : x > y;
}

/* The name field's line of a name; NULL when the name has none. Bins
 * without names (name 0) belong to the row's only name, if it has one. */
static struct sel_value *line_of(struct sel_field *sf, int named,
				 int64_t name)
{
	if (!named)
		return sf->nrows == 1 ? &sf->rows[0] : NULL;
	for (size_t r = 0; r < sf->nrows; r++)
		if (!sf->rows[r].none && sf->rows[r].key == name)
			return &sf->rows[r];
	return NULL;
}

int selection_agg_names(struct model *m, const struct mtrack *t, int64_t t0,
			int64_t t1, struct sel_field *sf)
{
	struct bins b = { 0 };
	int rc, named = 0;

	if (!sf->nrows)
		return 0;
	u64map_init(&b.at);
	rc = range_bins(m, t, t0, t1, &b, &named);
	if (!rc && b.n > 1)
		qsort(b.v, b.n, sizeof(*b.v), cmp_bin);
	for (size_t k = 0; !rc && k < b.n;) {
		int64_t name = (int64_t)((uint64_t)b.v[k].value >> AGG_DUR_SHIFT);
		size_t e = k + 1;
		struct sel_value *v = line_of(sf, named, name);

		while (e < b.n &&
		       (int64_t)((uint64_t)b.v[e].value >> AGG_DUR_SHIFT) == name)
			e++;
		if (v)
			dist_from_bins(&b.v[k], e - k, v->dmax, &v->dist);
		k = e;
	}
	u64map_free(&b.at, NULL);
	free(b.v);
	return rc < 0 ? -1 : 0;
}
