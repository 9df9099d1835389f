/* Track tree, folding and the frame cache. Panning by whole columns keeps
 * the column grid, so a cached frame shifts and only the columns that
 * came into view are read; model_frame() gives the same cells for a part
 * of a grid as for the whole. */
#include "config.h"

#include "tui/tracks.h"

#include <stdlib.h>
#include <string.h>

#include "model/util.h"

struct track_frame {
	int64_t t0, colw;
	int ncols, cap, valid;
	void *cells;		/* struct mcell or struct mccell */
};

struct id_index {
	int64_t id;
	size_t i;
};

static int cmp_id(const void *a, const void *b)
{
	const struct id_index *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static size_t find_id(const struct id_index *ix, size_t n, int64_t id)
{
	struct id_index key = { id, 0 };
	const struct id_index *hit = id ?
		bsearch(&key, ix, n, sizeof(*ix), cmp_id) : NULL;

	return hit ? hit->i : SIZE_MAX;
}

/* Appends track i and its tree (children in the model's order) to out;
 * seen guards against parent cycles in a damaged cache. */
static void tree_order(size_t n, const size_t *parent, size_t i, char *seen,
		       size_t *out, size_t *len)
{
	seen[i] = 1;
	out[(*len)++] = i;
	for (size_t c = 0; c < n; c++)
		if (parent[c] == i && !seen[c])
			tree_order(n, parent, c, seen, out, len);
}

int tracks_load(struct tracks *tr, struct model *m, int64_t profile)
{
	struct mtrack *t;
	struct id_index *ix;
	size_t n, len = 0, *parent, *order, *where;
	char *seen;

	memset(tr, 0, sizeof(*tr));
	tr->m = m;
	if (model_tracks(m, profile, &t, &n))
		return -1;
	ix = xcalloc(n + 1, sizeof(*ix));
	parent = xcalloc(n + 1, sizeof(*parent));
	order = xcalloc(n + 1, sizeof(*order));
	where = xcalloc(n + 1, sizeof(*where));
	seen = xcalloc(n + 1, 1);
	for (size_t i = 0; i < n; i++)
		ix[i] = (struct id_index){ t[i].id, i };
	qsort(ix, n, sizeof(*ix), cmp_id);
	for (size_t i = 0; i < n; i++)
		parent[i] = find_id(ix, n, t[i].parent_id);
	for (size_t i = 0; i < n; i++)
		if (parent[i] == SIZE_MAX)
			tree_order(n, parent, i, seen, order, &len);
	/* tracks in a cycle have no root: show them at the top level */
	for (size_t i = 0; i < n; i++) {
		if (!seen[i]) {
			parent[i] = SIZE_MAX;
			tree_order(n, parent, i, seen, order, &len);
		}
	}
	tr->t = xcalloc(n + 1, sizeof(*tr->t));
	tr->st = xcalloc(n + 1, sizeof(*tr->st));
	for (size_t k = 0; k < len; k++)
		where[order[k]] = k;
	for (size_t k = 0; k < len; k++) {
		size_t i = order[k], p = parent[i];
		struct track_state *s = &tr->st[k];

		tr->t[k] = t[i];
		s->parent = p == SIZE_MAX ? SIZE_MAX : where[p];
		s->depth = s->parent == SIZE_MAX ? 0 :
						   tr->st[s->parent].depth + 1;
		s->is_group = t[i].kind && !strcmp(t[i].kind, "group");
		s->frame = xcalloc(1, sizeof(*s->frame));
		if (s->parent != SIZE_MAX)
			tr->st[s->parent].nchildren++;
	}
	tr->n = len;
	free(t);		/* its strings now belong to tr->t */
	free(ix);
	free(parent);
	free(order);
	free(where);
	free(seen);
	tr->rows = xcalloc((len + 1) * LANES_MAX, sizeof(*tr->rows));
	tr->lane = xcalloc((len + 1) * LANES_MAX, sizeof(*tr->lane));
	tr->lanes = LANES_DEFAULT;
	tr->all = tr->t;
	tr->nall = len;
	tracks_update_rows(tr);
	return 0;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* Line k of a system profile: row r, its first track standing for the
 * line (a heading has none: a group track of its own). */
static void row_line(struct tracks *tr, size_t k, const struct mrow *r,
		     int64_t profile)
{
	struct mtrack *t = &tr->t[k];
	struct track_state *s = &tr->st[k];

	if (r->ntracks) {
		int have = r->tracks[0].n_events > 0;

		*t = r->tracks[0];
		t->unit = dup_or_null(t->unit);
		t->n_events = r->n_events;
		t->busy_ns = r->busy_ns;
		t->max_depth = r->max_depth;
		/* the extent of the tracks that have events */
		for (size_t j = 1; j < r->ntracks; j++) {
			const struct mtrack *o = &r->tracks[j];

			if (!o->n_events)
				continue;
			t->max_dur = NX_MAX(t->max_dur, o->max_dur);
			t->min_ts = have ? NX_MIN(t->min_ts, o->min_ts) : o->min_ts;
			t->max_ts = have ? NX_MAX(t->max_ts, o->max_ts) : o->max_ts;
			have = 1;
		}
	} else {
		memset(t, 0, sizeof(*t));
		t->profile_id = profile;
		t->lod_level = t->agg_level = -1;
	}
	t->name = xstrdup(r->name);
	t->kind = xstrdup(r->heading ? "group" : r->kind);
	s->is_group = r->heading;
	s->parent = r->group >= 0 ? (size_t)r->group : SIZE_MAX;
	s->depth = r->group >= 0 ? 1 : 0;
	s->row = r;
	s->frame = xcalloc(1, sizeof(*s->frame));
	if (s->parent != SIZE_MAX)
		tr->st[s->parent].nchildren++;
	for (size_t j = 0; j < r->ntracks; j++)
		tr->all[tr->nall++] = r->tracks[j];
}

int tracks_load_rows(struct tracks *tr, struct model *m, int64_t profile,
		     const struct sysgroup *g)
{
	size_t ntracks = 0;

	memset(tr, 0, sizeof(*tr));
	tr->m = m;
	if (model_sysrows(m, profile, g, &tr->srows, &tr->nsrows))
		return -1;
	for (size_t k = 0; k < tr->nsrows; k++)
		ntracks += tr->srows[k].ntracks;
	tr->n = tr->nsrows;
	tr->t = xcalloc(tr->n + 1, sizeof(*tr->t));
	tr->st = xcalloc(tr->n + 1, sizeof(*tr->st));
	tr->all = xcalloc(ntracks + 1, sizeof(*tr->all));
	for (size_t k = 0; k < tr->n; k++)
		row_line(tr, k, &tr->srows[k], profile);
	tr->rows = xcalloc((tr->n + 1) * LANES_MAX, sizeof(*tr->rows));
	tr->lane = xcalloc((tr->n + 1) * LANES_MAX, sizeof(*tr->lane));
	tr->lanes = LANES_DEFAULT;
	tracks_update_rows(tr);
	return 0;
}

/* Frees tr's arrays, not what its tracks point to. */
static void drop_arrays(struct tracks *tr)
{
	free(tr->t);
	free(tr->st);
	free(tr->rows);
	free(tr->lane);
	free(tr->lane_cells);
	free(tr->zero);
	memset(tr, 0, sizeof(*tr));
}

void tracks_free(struct tracks *tr)
{
	for (size_t i = 0; i < tr->n; i++) {
		free(tr->st[i].frame->cells);
		free(tr->st[i].frame);
		free(tr->t[i].kind);
		free(tr->t[i].name);
		free(tr->t[i].unit);
	}
	if (tr->srows) {
		/* the tracks of the rows belong to srows */
		free(tr->all);
		model_sysrows_free(tr->srows, tr->nsrows);
	}
	if (tr->srows_b) {
		free(tr->all_b);
		model_sysrows_free(tr->srows_b, tr->nsrows_b);
	}
	drop_arrays(tr);
}

/* A heading over one side's tracks: a group of its own, no id. */
static void heading(struct tracks *tr, size_t k, const char *name, int side)
{
	memset(&tr->t[k], 0, sizeof(tr->t[k]));
	memset(&tr->st[k], 0, sizeof(tr->st[k]));
	tr->t[k].name = xstrdup(name);
	tr->t[k].kind = xstrdup("group");
	tr->t[k].lod_level = tr->t[k].agg_level = -1;
	tr->st[k].parent = SIZE_MAX;
	tr->st[k].is_group = 1;
	tr->st[k].side = side;
	tr->st[k].frame = xcalloc(1, sizeof(*tr->st[k].frame));
}

/* Copies n tracks of from to tr at k, one level under heading h. */
static void move_under(struct tracks *tr, size_t k, const struct tracks *from,
		       size_t h, int side)
{
	for (size_t j = 0; j < from->n; j++) {
		struct track_state *s = &tr->st[k + j];

		tr->t[k + j] = from->t[j];
		*s = from->st[j];
		s->parent = s->parent == SIZE_MAX ? h : s->parent + k;
		s->depth++;
		s->side = side;
		if (s->parent == h)
			tr->st[h].nchildren++;
	}
}

void tracks_stack(struct tracks *tr, struct tracks *b, struct model *mb,
		  const char *name_a, const char *name_b)
{
	size_t na = tr->n, n = na + b->n + 2;
	struct mtrack *t = tr->t;
	struct track_state *st = tr->st;
	struct tracks a = *tr;

	tr->t = xcalloc(n + 1, sizeof(*tr->t));
	tr->st = xcalloc(n + 1, sizeof(*tr->st));
	heading(tr, 0, name_a, 0);
	move_under(tr, 1, &a, 0, 0);
	heading(tr, na + 1, name_b, 1);
	move_under(tr, na + 2, b, na + 1, 1);
	tr->n = n;
	tr->mb = mb;
	/* A's: what searches and insights read (a system profile's rows
	 * keep theirs) */
	if (!tr->srows)
		tr->all = tr->t + 1;
	tr->srows_b = b->srows;
	tr->nsrows_b = b->nsrows;
	/* B's: its rows' tracks, or its own after B's heading */
	tr->all_b = b->srows ? b->all : tr->t + na + 2;
	tr->nall_b = b->srows ? b->nall : b->n;
	free(t);
	free(st);
	drop_arrays(b);	/* its tracks are tr's now */
	free(tr->rows);
	free(tr->lane);
	tr->rows = xcalloc((n + 1) * LANES_MAX, sizeof(*tr->rows));
	tr->lane = xcalloc((n + 1) * LANES_MAX, sizeof(*tr->lane));
	tracks_update_rows(tr);
}

struct model *tracks_model(const struct tracks *tr, size_t i)
{
	return tr->st[i].side ? tr->mb : tr->m;
}

int64_t tracks_shift(const struct tracks *tr, size_t i)
{
	return tr->st[i].side ? tr->shift : 0;
}

void tracks_set_shift(struct tracks *tr, int64_t shift)
{
	tr->shift = shift;
	for (size_t i = 0; i < tr->n; i++)
		if (tr->st[i].side)
			tr->st[i].frame->valid = 0;
}

const struct mtrack *tracks_members(const struct tracks *tr, size_t i,
				    size_t *n)
{
	const struct mrow *r = tr->st[i].row;

	if (r && r->ntracks > 1) {
		*n = r->ntracks;
		return r->tracks;
	}
	*n = 1;
	return &tr->t[i];
}

size_t tracks_find(const struct tracks *tr, int64_t id)
{
	return tracks_find_side(tr, 0, id);
}

size_t tracks_find_side(const struct tracks *tr, int side, int64_t id)
{
	if (!id)
		return SIZE_MAX;	/* a heading's */
	for (size_t i = 0; i < tr->n; i++) {
		const struct mtrack *t;
		size_t n;

		if ((tr->st[i].is_group && tr->st[i].row) ||
		    tr->st[i].side != side)
			continue;
		t = tracks_members(tr, i, &n);
		for (size_t j = 0; j < n; j++)
			if (t[j].id == id)
				return i;
	}
	return SIZE_MAX;
}

static void add_id(int64_t **ids, size_t *n, int64_t id)
{
	*ids = xreallocarray(*ids, *n + 1, sizeof(**ids));
	(*ids)[(*n)++] = id;
}

void tracks_ids(const struct tracks *tr, size_t i, int64_t **ids, size_t *n)
{
	const struct mrow *r = tr->st[i].row;

	if (!r) {
		add_id(ids, n, tr->t[i].id);
		return;
	}
	if (r->heading) {
		for (size_t k = i + 1; k < tr->n && tr->st[k].parent == i; k++)
			tracks_ids(tr, k, ids, n);
		return;
	}
	for (size_t j = 0; j < r->ntracks; j++)
		add_id(ids, n, r->tracks[j].id);
}

void tracks_update_rows(struct tracks *tr)
{
	tr->nrows = 0;
	for (size_t i = 0; i < tr->n; i++) {
		size_t p = tr->st[i].parent;
		int hidden = 0;

		for (; p != SIZE_MAX && !hidden; p = tr->st[p].parent)
			hidden = tr->st[p].folded;
		for (int k = 0; !hidden && k < tracks_lanes(tr, i); k++) {
			tr->lane[tr->nrows] = k;
			tr->rows[tr->nrows++] = i;
		}
	}
}

int tracks_lanes(const struct tracks *tr, size_t i)
{
	const struct track_state *s = &tr->st[i];

	if (s->is_group || s->lanes_folded || tr->t[i].is_counter ||
	    (s->row && s->row->ntracks > 1))
		return 1;
	return (int)NX_MIN(tr->t[i].max_depth + 1, (int64_t)NX_MAX(tr->lanes, 1));
}

/* Cells read from B's model, their top events put on the axis. */
static void shift_cells(struct mcell *c, int ncols, int64_t shift)
{
	for (int k = 0; shift && k < ncols; k++)
		if (c[k].top_slice)
			c[k].top_ts += shift;
}

const struct mcell *tracks_lane_frame(struct tracks *tr, size_t i, int k,
				      int64_t t0, int64_t colw, int ncols)
{
	int n = tracks_lanes(tr, i);

	if (n <= 1)
		return tracks_frame(tr, i, t0, colw, ncols);
	if (ncols > tr->lane_cap) {
		free(tr->lane_cells);
		tr->lane_cap = ncols;
		tr->lane_cells = xcalloc((size_t)ncols, sizeof(*tr->lane_cells));
	}
	if (model_lane_frame(tracks_model(tr, i), &tr->t[i], k,
			     k == n - 1 ? INT32_MAX : k,
			     t0 - tracks_shift(tr, i), colw, ncols,
			     tr->lane_cells))
		return NULL;
	shift_cells(tr->lane_cells, ncols, tracks_shift(tr, i));
	return tr->lane_cells;
}

/* Which group to fold first: 2 for DMA transfers (a system profile's
 * counters), 1 for others, 0 for none (not a group, already folded, or
 * holding engines). */
static int fold_rank(const struct tracks *tr, size_t g)
{
	const char *first = tr->srows ? "counter" : "dma_xfer";
	int xfer = 1;

	if (!tr->st[g].is_group || tr->st[g].folded || !tr->st[g].nchildren)
		return 0;
	if (tr->mb && tr->st[g].parent == SIZE_MAX)
		return 0;	/* a stacked side's heading */
	for (size_t j = g + 1; j < tr->n && tr->st[j].depth > tr->st[g].depth;
	     j++) {
		const char *k = tr->t[j].kind ? tr->t[j].kind : "";

		if (!strcmp(k, "engine"))
			return 0;
		if (strcmp(k, first))
			xfer = 0;
	}
	return xfer ? 2 : 1;
}

/* Rows the unfolded tree under group g takes. */
static size_t shown_under(const struct tracks *tr, size_t g)
{
	size_t n = 0;

	for (size_t r = 0; r < tr->nrows; r++) {
		for (size_t p = tr->st[tr->rows[r]].parent; p != SIZE_MAX;
		     p = tr->st[p].parent) {
			if (p == g) {
				n++;
				break;
			}
		}
	}
	return n;
}

void tracks_fold_to_fit(struct tracks *tr, size_t rows)
{
	while (tr->nrows > rows) {
		size_t best = SIZE_MAX, best_n = 0;
		int best_rank = 0;

		for (size_t r = 0; r < tr->nrows; r++) {
			size_t g = tr->rows[r], n;
			int rank = fold_rank(tr, g);

			if (!rank)
				continue;
			n = shown_under(tr, g);
			/* a system profile keeps its first groups open */
			if (rank > best_rank || (rank == best_rank &&
			    (n > best_n || (tr->srows && n == best_n)))) {
				best = g;
				best_n = n;
				best_rank = rank;
			}
		}
		if (best == SIZE_MAX)
			return;
		tr->st[best].folded = 1;
		tracks_update_rows(tr);
	}
}

size_t tracks_row_of(const struct tracks *tr, size_t i)
{
	for (;;) {
		for (size_t r = 0; r < tr->nrows; r++)
			if (tr->rows[r] == i)
				return r;
		if (tr->st[i].parent == SIZE_MAX)
			return 0;
		i = tr->st[i].parent;
	}
}

typedef int (*fill_fn)(struct tracks *tr, size_t i, int64_t t0,
		       int64_t colw, int ncols, void *out);

static int fill_events(struct tracks *tr, size_t i, int64_t t0,
		       int64_t colw, int ncols, void *out)
{
	const struct mrow *r = tr->st[i].row;
	int64_t sh = tracks_shift(tr, i);

	if (r && r->ntracks > 1 ?
	    model_row_frame(tracks_model(tr, i), r, t0 - sh, colw, ncols, out) :
	    model_frame(tracks_model(tr, i), &tr->t[i], t0 - sh, colw, ncols,
			out))
		return -1;
	shift_cells(out, ncols, sh);
	return 0;
}

static int fill_counter(struct tracks *tr, size_t i, int64_t t0,
			int64_t colw, int ncols, void *out)
{
	return model_counter_frame(tracks_model(tr, i), &tr->t[i],
				   t0 - tracks_shift(tr, i), colw, ncols, out);
}

/* The frame of track i from the cache, shifted and topped up when the
 * view moved by whole columns. */
static void *cached(struct tracks *tr, size_t i, int64_t t0, int64_t colw,
		    int ncols, size_t elem, fill_fn fill)
{
	struct track_frame *f = tr->st[i].frame;
	char *cells;
	int64_t d, sh;

	if (ncols > f->cap) {
		free(f->cells);
		f->cap = ncols;
		f->cells = xcalloc((size_t)ncols, elem);
		f->valid = 0;
	}
	cells = f->cells;
	if (f->valid && f->colw == colw && f->ncols == ncols) {
		d = t0 - f->t0;
		if (!d)
			return cells;
		sh = d / colw;
		if (d % colw == 0 && sh < ncols && sh > -ncols) {
			int keep = ncols - (int)(sh > 0 ? sh : -sh);
			int add = ncols - keep;

			f->valid = 0;
			if (sh > 0) {
				memmove(cells, cells + (size_t)sh * elem,
					(size_t)keep * elem);
				if (fill(tr, i, t0 + keep * colw, colw, add,
					 cells + (size_t)keep * elem))
					return NULL;
			} else {
				memmove(cells + (size_t)add * elem, cells,
					(size_t)keep * elem);
				if (fill(tr, i, t0, colw, add, cells))
					return NULL;
			}
			f->t0 = t0;
			f->valid = 1;
			return cells;
		}
	}
	f->valid = 0;
	if (fill(tr, i, t0, colw, ncols, cells))
		return NULL;
	f->t0 = t0;
	f->colw = colw;
	f->ncols = ncols;
	f->valid = 1;
	return cells;
}

/* A folded group: per column, the busiest of the tracks inside it. An
 * open group or a counter has no cells of its own. */
static const struct mcell *group_frame(struct tracks *tr, size_t g,
				       int64_t t0, int64_t colw, int ncols)
{
	struct track_frame *f = tr->st[g].frame;
	struct mcell *agg;

	if (ncols > f->cap) {
		free(f->cells);
		f->cap = ncols;
		f->cells = xcalloc((size_t)ncols, sizeof(struct mcell));
	}
	agg = f->cells;
	f->valid = 0;
	memset(agg, 0, (size_t)ncols * sizeof(*agg));
	for (size_t j = g + 1; tr->st[g].folded &&
	     j < tr->n && tr->st[j].depth > tr->st[g].depth; j++) {
		const struct mcell *c;

		if (tr->st[j].is_group || tr->t[j].is_counter)
			continue;
		c = cached(tr, j, t0, colw, ncols, sizeof(struct mcell),
			   fill_events);
		if (!c)
			return NULL;
		for (int k = 0; k < ncols; k++) {
			int64_t n = agg[k].n + c[k].n;

			if (c[k].busy > agg[k].busy ||
			    (!agg[k].top_slice && c[k].top_slice))
				agg[k] = c[k];
			agg[k].n = n;
		}
	}
	return agg;
}

const struct mcell *tracks_frame(struct tracks *tr, size_t i, int64_t t0,
				 int64_t colw, int ncols)
{
	if (tr->t[i].is_counter) {
		if (ncols > tr->nzero) {
			free(tr->zero);
			tr->nzero = ncols;
			tr->zero = xcalloc((size_t)ncols, sizeof(*tr->zero));
		}
		return tr->zero;
	}
	if (tr->st[i].is_group)
		return group_frame(tr, i, t0, colw, ncols);
	return cached(tr, i, t0, colw, ncols, sizeof(struct mcell),
		      fill_events);
}

const struct mccell *tracks_counter_frame(struct tracks *tr, size_t i,
					  int64_t t0, int64_t colw, int ncols)
{
	if (!tr->t[i].is_counter)
		return NULL;
	return cached(tr, i, t0, colw, ncols, sizeof(struct mccell),
		      fill_counter);
}

int tracks_counter_range(struct tracks *tr, size_t i, double *vmin,
			 double *vmax)
{
	struct track_state *s = &tr->st[i];

	if (!s->have_range) {
		if (model_counter_range(tracks_model(tr, i), tr->t[i].id,
					&s->vmin, &s->vmax))
			return -1;
		s->have_range = 1;
	}
	*vmin = s->vmin;
	*vmax = s->vmax;
	return 0;
}
