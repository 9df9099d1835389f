#include "config.h"

#include "model/layers.h"

#include <inttypes.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/agg.h"
#include "model/lod.h"
#include "model/cache/schema.h"
#include "model/util.h"

const char *const layer_col_names[LC_COUNT] = {
	"Layer", "Start", "Duration", "Tensor", "Vector", "Scalar", "GpSimd",
	"Sync", "Tensor active", "Vector active", "Scalar active",
	"GpSimd active", "Sync active", "FLOPs", "MFU", "P50", "P90", "P99",
	"Histogram",
};

/* Path components, ignoring empty ones ("/sg00/_dot.3" has two). */
static int depth_of(const char *name)
{
	int d = 0;

	for (const char *p = name; *p;) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		d++;
		while (*p && *p != '/')
			p++;
	}
	return d;
}

char *layers_group_name(const char *name, int depth)
{
	const char *p = name;
	int d = 0;

	if (depth <= 0)
		return xstrdup(name);
	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		while (*p && *p != '/')
			p++;
		if (++d == depth)
			break;
	}
	return xstrndup(name, (size_t)(p - name));
}

int layers_match(const struct layer_row *r, const char *layer)
{
	size_t n = strlen(r->name), l = strlen(layer);

	if (!*layer)
		return 0;
	if (!strcmp(r->name, layer))
		return 1;
	/* "/sg00/_dot.3" holds instructions whose layer is "_dot.3" */
	if (n > l && r->name[n - l - 1] == '/' && !strcmp(r->name + n - l, layer))
		return 1;
	/* a group holds every layer below it */
	return l > n && !strncmp(layer, r->name, n) && layer[n] == '/';
}

static void merge(struct layer_row *into, const struct layer_row *r)
{
	double wsum = into->mfu >= 0 ? into->mfu * (double)into->dur : 0;

	into->start = NX_MIN(into->start, r->start);
	into->end = NX_MAX(into->end, r->end);
	for (int e = 0; e < ENG_COUNT; e++) {
		into->count[e] += r->count[e];
		into->time[e] += r->time[e];
		/* unknown in one member: unknown in the group */
		into->active[e] = into->active[e] < 0 || r->active[e] < 0 ?
				  -1 : into->active[e] + r->active[e];
	}
	if (r->flops >= 0)
		into->flops = NX_MAX(into->flops, 0) + r->flops;
	if (r->model_flops >= 0)
		into->model_flops = NX_MAX(into->model_flops, 0) + r->model_flops;
	/* MFU of a group: weighted by each member's duration */
	if (r->mfu >= 0) {
		int64_t d = into->dur + r->dur;

		wsum += r->mfu * (double)r->dur;
		into->mfu = d > 0 ? wsum / (double)d : r->mfu;
	}
	into->dur += r->dur;
	into->merged++;
}

static int64_t col_or(sqlite3_stmt *st, int i, int64_t dflt)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? dflt :
							   sqlite3_column_int64(st, i);
}

int layers_load(struct model *m, int64_t profile, int depth,
		const char *filter, struct layer_table *out)
{
	sqlite3_stmt *st;
	size_t cap = 0;

	memset(out, 0, sizeof(*out));
	out->depth = depth;
	if (sqlite3_prepare_v2(model_db(m), "SELECT name, start_ns, end_ns, dur,"
			       " tensor_count, vector_count, scalar_count,"
			       " gpsimd_count, sync_count, tensor_time, vector_time,"
			       " scalar_time, gpsimd_time, sync_time, tensor_active,"
			       " vector_active, scalar_active, gpsimd_active,"
			       " sync_active, flops, model_flops, mfu FROM layer"
			       " WHERE profile_id = ? ORDER BY start_ns, id", -1,
			       &st, NULL) != SQLITE_OK)
		return model_fail(m, "layers");
	sqlite3_bind_int64(st, 1, profile);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		struct layer_row r;
		char *g;
		size_t i;

		if (!name)
			name = "";
		out->max_depth = NX_MAX(out->max_depth, depth_of(name));
		if (filter && *filter && !strcasestr(name, filter))
			continue;
		memset(&r, 0, sizeof(r));
		r.start = sqlite3_column_int64(st, 1);
		r.end = sqlite3_column_int64(st, 2);
		r.dur = sqlite3_column_int64(st, 3);
		for (int e = 0; e < ENG_COUNT; e++) {
			r.count[e] = col_or(st, 4 + e, 0);
			r.time[e] = col_or(st, 9 + e, 0);
			r.active[e] = col_or(st, 14 + e, -1);
		}
		r.flops = col_or(st, 19, -1);
		r.model_flops = col_or(st, 20, -1);
		r.mfu = sqlite3_column_type(st, 21) == SQLITE_NULL ? -1 :
			sqlite3_column_double(st, 21);
		g = layers_group_name(name, depth);
		for (i = 0; depth > 0 && i < out->n; i++)
			if (!strcmp(out->rows[i].name, g))
				break;
		if (depth > 0 && i < out->n) {
			struct layer_row *x = &out->rows[i];

			/* The profile's own row for a group covers its
			 * children; rows below the cut are merged into a
			 * group nobody reported. */
			if (depth_of(name) <= depth) {
				free(x->name);
				r.name = g;
				*x = r;
			} else {
				if (x->merged)
					merge(x, &r);
				free(g);
			}
			continue;
		}
		if (depth > 0 && depth_of(name) > depth)
			r.merged = 1;
		else
			r.merged = 0;
		out->rows = xgrow(out->rows, &cap, out->n + 1, sizeof(r));
		r.name = g;
		out->rows[out->n++] = r;
	}
	sqlite3_finalize(st);
	return 0;
}

/* The order layers_sort() sorts by. */
struct layer_order {
	enum layer_col col;
	int desc;
};

static int64_t num_of(const struct layer_row *r, enum layer_col c)
{
	switch (c) {
	case LC_START: return r->start;
	case LC_DUR: return r->dur;
	case LC_FLOPS: return r->flops;
	case LC_P50: case LC_HIST: return r->dist.measured ? r->dist.p50 : -1;
	case LC_P90: return r->dist.measured ? r->dist.p90 : -1;
	case LC_P99: return r->dist.measured ? r->dist.p99 : -1;
	default:
		if (c >= LC_TENSOR && c <= LC_SYNC)
			return r->count[c - LC_TENSOR];
		return r->active[c - LC_TENSOR_ACT];
	}
}

static int cmp_rows(const void *a, const void *b, void *arg)
{
	const struct layer_row *x = a, *y = b;
	const struct layer_order *o = arg;
	int r;

	if (o->col == LC_NAME)
		r = strcmp(x->name, y->name);
	else if (o->col == LC_MFU)
		r = x->mfu < y->mfu ? -1 : x->mfu > y->mfu;
	else {
		int64_t p = num_of(x, o->col), q = num_of(y, o->col);

		r = p < q ? -1 : p > q;
	}
	if (!r)
		r = x->start < y->start ? -1 : x->start > y->start;
	return o->desc ? -r : r;
}

void layers_sort(struct layer_table *t, enum layer_col col, int descending)
{
	struct layer_order o = { col, descending };

	if (t->n)
		qsort_r(t->rows, t->n, sizeof(*t->rows), cmp_rows, &o);
}

void layers_free(struct layer_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->rows[i].name);
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

static void add_ids(struct model *m, const char *s, int64_t **ids, size_t *n)
{
	int64_t *found;
	size_t k;

	if (!*s || model_string_ids(m, s, &found, &k))
		return;
	for (size_t i = 0; i < k; i++) {
		size_t j;

		for (j = 0; j < *n && (*ids)[j] != found[i]; j++)
			;
		if (j < *n)
			continue;
		*ids = xreallocarray(*ids, *n + 1, sizeof(**ids));
		(*ids)[(*n)++] = found[i];
	}
	free(found);
}

int layers_row_ids(struct model *m, int64_t profile, const char *row,
		   int64_t **ids, size_t *n)
{
	sqlite3_stmt *st;
	size_t rl = strlen(row);

	*ids = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(model_db(m), "SELECT DISTINCT name FROM layer"
			       " WHERE profile_id = ?", -1, &st, NULL) != SQLITE_OK)
		return model_fail(m, "layers");
	sqlite3_bind_int64(st, 1, profile);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);

		if (!name || strncmp(name, row, rl) ||
		    (name[rl] && name[rl] != '/'))
			continue;
		/* "/sg00/a/b" holds instructions of layer "/sg00/a/b",
		 * "sg00/a/b", "a/b" and "b" */
		add_ids(m, name, ids, n);
		for (const char *p = name; (p = strchr(p, '/')); p++)
			add_ids(m, p + 1, ids, n);
	}
	sqlite3_finalize(st);
	return 0;
}

static void id_list(struct strbuf *sb, const int64_t *ids, size_t n)
{
	sb_addc(sb, '(');
	for (size_t i = 0; i < n; i++)
		sb_printf(sb, "%s%" PRId64, i ? "," : "", ids[i]);
	sb_addc(sb, ')');
}

/* The aggregate level for columns colw wide, -1 if they are finer than
 * the track's layer aggregates. */
static int cat_level(const struct mtrack *t, int64_t colw)
{
	int64_t span = NX_MAX(t->max_ts - t->min_ts, 1);
	int lmax, nl, l;

	if (t->lod_level < 0 || !(t->agg_fields & (1u << AGG_CAT)))
		return -1;
	lmax = NX_MAX(lod_level_for(span), t->lod_level);
	nl = NX_MIN(t->lod_level + 1, lmax);
	l = agg_field_level(span, t->n_events, nl);
	if (colw < lod_width(l))
		return -1;
	while (l < lmax && lod_width(l + 1) <= colw)
		l++;
	return l;
}

int layers_frame(struct model *m, const struct mtrack *t,
		 const int64_t *ids, size_t n, int64_t t0, int64_t colw,
		 int ncols, int64_t *hits)
{
	int64_t t1 = t0 + colw * ncols;
	int level = cat_level(t, colw);
	struct strbuf sql;
	sqlite3_stmt *st;
	int rc;

	memset(hits, 0, (size_t)ncols * sizeof(*hits));
	if (!n || strcmp(t->kind, "engine") || !t->n_events ||
	    t1 <= t->min_ts || t0 > t->max_ts)
		return 0;
	sb_init(&sql);
	if (level >= 0)
		sb_printf(&sql, "SELECT bucket * %" PRId64 ", sum(n) FROM agg"
			  " WHERE track_id = ?1 AND field = %d AND level = %d AND"
			  " bucket BETWEEN ?2 AND ?3 AND value IN ",
			  lod_width(level), AGG_CAT, level);
	else
		sb_printf(&sql, "SELECT ts, 1 FROM slice WHERE track_id = ?1 AND"
			  " depth IN " DEPTHS_UPTO("%" PRId64) " AND ts >= ?2 AND"
			  " ts < ?3 AND cat IN ", t->max_depth);
	id_list(&sql, ids, n);
	if (level >= 0)
		sb_adds(&sql, " GROUP BY bucket");
	rc = sqlite3_prepare_v2(model_db(m), sb_cstr(&sql), -1, &st, NULL);
	sb_free(&sql);
	if (rc != SQLITE_OK)
		return model_fail(m, "layers");
	sqlite3_bind_int64(st, 1, t->id);
	if (level >= 0) {
		sqlite3_bind_int64(st, 2, lod_floor_shift(t0, 2 * level));
		sqlite3_bind_int64(st, 3, lod_floor_shift(t1 - 1, 2 * level));
	} else {
		sqlite3_bind_int64(st, 2, t0);
		sqlite3_bind_int64(st, 3, t1);
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t ts = sqlite3_column_int64(st, 0);
		int64_t c = (ts - t0) / colw;

		/* a bucket counts in the column where it starts */
		if (ts >= t0 && c < ncols)
			hits[c] += sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return 0;
}
