#include "config.h"

#include "layers.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util.h"

const char *const layer_col_names[LC_COUNT] = {
	"Layer", "Start", "Duration", "Tensor", "Vector", "Scalar", "GpSimd",
	"Sync", "Tensor active", "Vector active", "Scalar active",
	"GpSimd active", "Sync active", "FLOPs", "MFU",
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
		into->active[e] += r->active[e];
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
			r.active[e] = col_or(st, 14 + e, 0);
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
		if (out->n == cap) {
			cap = cap ? cap * 2 : 64;
			out->rows = xreallocarray(out->rows, cap, sizeof(r));
		}
		r.name = g;
		out->rows[out->n++] = r;
	}
	sqlite3_finalize(st);
	return 0;
}

static enum layer_col sort_col;
static int sort_desc;

static int64_t num_of(const struct layer_row *r, enum layer_col c)
{
	switch (c) {
	case LC_START: return r->start;
	case LC_DUR: return r->dur;
	case LC_FLOPS: return r->flops;
	default:
		if (c >= LC_TENSOR && c <= LC_SYNC)
			return r->count[c - LC_TENSOR];
		return r->active[c - LC_TENSOR_ACT];
	}
}

static int cmp_rows(const void *a, const void *b)
{
	const struct layer_row *x = a, *y = b;
	int r;

	if (sort_col == LC_NAME)
		r = strcmp(x->name, y->name);
	else if (sort_col == LC_MFU)
		r = x->mfu < y->mfu ? -1 : x->mfu > y->mfu;
	else {
		int64_t p = num_of(x, sort_col), q = num_of(y, sort_col);

		r = p < q ? -1 : p > q;
	}
	if (!r)
		r = x->start < y->start ? -1 : x->start > y->start;
	return sort_desc ? -r : r;
}

void layers_sort(struct layer_table *t, enum layer_col col, int descending)
{
	sort_col = col;
	sort_desc = descending;
	if (t->n)
		qsort(t->rows, t->n, sizeof(*t->rows), cmp_rows);
}

void layers_free(struct layer_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->rows[i].name);
	free(t->rows);
	memset(t, 0, sizeof(*t));
}
