/* The writer's finishing passes over each track, in time order: nesting
 * depth, busy time (union of slices) and level-of-detail rows.
 *
 * LOD level L has buckets 4^L ns wide, aligned to 0 on the profile's time
 * axis (model/lod.h). A track gets levels from the first whose buckets
 * are at least eight mean event gaps wide up to one bucket covering the
 * whole track, so a frame reads at most a few LOD rows per column
 * whatever the event count, and zoomed further in it reads the events
 * themselves.
 *
 * Nested tracks also get the same levels per depth (lane_lod), so a
 * lane drawn zoomed out reads buckets of its depths, not events. */
#include "config.h"

#include "model/writer/writer_int.h"

#include <inttypes.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "model/agg.h"
#include "model/cache/db.h"
#include "model/lod.h"
#include "model/cache/schema.h"
#include "model/util.h"
#include "model/writer/wqueue.h"

struct acc {
	int64_t bucket;
	int64_t n, busy;
	int64_t top_slice, top_name, top_cat, top_amt;
	double vmin, vmax, vsum, vlast;
};

struct lod_state {
	sqlite3 *db;		/* read from */
	struct wqueue *q;	/* written through (finish_write_sql) */
	int64_t track;
	int lmin, lmax;
	int counter;
	int depth;		/* of a lane's rows; -1 for the whole track */
	int64_t covered;	/* a lane's union of slices ends here */
	/* pending buckets of level lmin, a ring indexed from ring_base */
	struct acc *ring;
	size_t cap, head, len;
	int64_t ring_base;
	/* the open bucket of each coarser level */
	struct acc up[LOD_MAX_LEVEL + 1];
	struct agg_builder *agg;
	/* HLO names by slice (NULL: read from the instruction table), and
	 * the id base of slices and strings */
	const struct slice_hlo *hlo;
	int64_t base;
	int instr;		/* the track has instruction rows */
};

static void acc_reset(struct acc *a, int64_t bucket)
{
	memset(a, 0, sizeof(*a));
	a->bucket = bucket;
}

static void acc_merge(struct acc *into, const struct acc *a)
{
	if (a->top_amt > into->top_amt || !into->top_slice) {
		into->top_slice = a->top_slice;
		into->top_name = a->top_name;
		into->top_cat = a->top_cat;
		into->top_amt = a->top_amt;
	}
	if (!into->n || a->vmin < into->vmin)
		into->vmin = a->vmin;
	if (!into->n || a->vmax > into->vmax)
		into->vmax = a->vmax;
	if (a->n)
		into->vlast = a->vlast;
	into->n += a->n;
	into->busy += a->busy;
	into->vsum += a->vsum;
}

static void write_row(struct lod_state *s, int level, const struct acc *a)
{
	if (!a->n && !a->busy)
		return;
	wq_begin(s->q, s->counter ? FQ_CLOD : s->depth >= 0 ? FQ_LANE : FQ_LOD);
	if (s->depth >= 0)
		wq_int(s->q, 9, s->depth);
	wq_int(s->q, 1, s->track);
	wq_int(s->q, 2, level);
	wq_int(s->q, 3, a->bucket);
	wq_int(s->q, 4, a->n);
	if (s->counter) {
		wq_double(s->q, 5, a->vmin);
		wq_double(s->q, 6, a->vmax);
		wq_double(s->q, 7, a->vsum);
		wq_double(s->q, 8, a->vlast);
	} else {
		wq_int(s->q, 5, a->busy);
		wq_int(s->q, 6, a->top_slice);
		wq_int(s->q, 7, a->top_name);
		if (a->top_cat)
			wq_int(s->q, 8, a->top_cat);
	}
	wq_end(s->q);
}

/* A final bucket of level lmin: write it and fold it into coarser levels. */
static void emit(struct lod_state *s, const struct acc *a)
{
	write_row(s, s->lmin, a);
	for (int l = s->lmin + 1; l <= s->lmax; l++) {
		int64_t b = lod_floor_shift(a->bucket, 2 * (l - s->lmin));
		struct acc *u = &s->up[l];

		if (u->bucket != b) {
			write_row(s, l, u);
			acc_reset(u, b);
		}
		acc_merge(u, a);
	}
}

static void flush_before(struct lod_state *s, int64_t bucket)
{
	while (s->len && s->ring_base < bucket) {
		struct acc *a = &s->ring[s->head];

		a->bucket = s->ring_base;
		emit(s, a);
		s->head = (s->head + 1) & (s->cap - 1);
		s->len--;
		s->ring_base++;
	}
	if (!s->len)
		s->ring_base = bucket;
}

static struct acc *ring_at(struct lod_state *s, int64_t bucket)
{
	size_t off = (size_t)(bucket - s->ring_base);

	if (off >= s->cap) {
		size_t cap = s->cap;
		while (cap <= off)
			cap *= 2;
		struct acc *r = xcalloc(cap, sizeof(*r));
		for (size_t i = 0; i < s->len; i++)
			r[i] = s->ring[(s->head + i) & (s->cap - 1)];
		free(s->ring);
		s->ring = r;
		s->cap = cap;
		s->head = 0;
	}
	while (s->len <= off) {
		struct acc *a = &s->ring[(s->head + s->len) & (s->cap - 1)];

		acc_reset(a, s->ring_base + (int64_t)s->len);
		s->len++;
	}
	return &s->ring[(s->head + off) & (s->cap - 1)];
}

static void bucket_bounds(int sh, int64_t b, int64_t *lo, int64_t *hi)
{
	int64_t w = (int64_t)1 << sh;

	*lo = b * w;
	*hi = *lo > INT64_MAX - w ? INT64_MAX : *lo + w;
}

static void add_top(struct acc *a, int64_t amt, int64_t id, int64_t name,
		    int64_t cat)
{
	if (amt > a->top_amt || !a->top_slice) {
		a->top_amt = amt;
		a->top_slice = id;
		a->top_name = name;
		a->top_cat = cat;
	}
}

/* Visits the slice's first and last buckets, and the buckets of the part
 * no earlier slice covered; every bucket is visited a bounded number of
 * times however long or nested the slices are. */
static void add_slice(struct lod_state *s, int64_t id, int64_t ts, int64_t end,
		      int64_t name, int64_t cat, int64_t covered)
{
	int sh = 2 * s->lmin;
	int64_t b0 = lod_floor_shift(ts, sh);
	int64_t b1 = end > ts ? lod_floor_shift(end - 1, sh) : b0;
	int64_t u0 = NX_MAX(ts, covered);
	int64_t lo, hi;

	flush_before(s, b0);
	bucket_bounds(sh, b0, &lo, &hi);
	ring_at(s, b0)->n++;
	add_top(ring_at(s, b0), NX_MIN(end, hi) - ts, id, name, cat);
	if (b1 != b0) {
		bucket_bounds(sh, b1, &lo, &hi);
		add_top(ring_at(s, b1), end - lo, id, name, cat);
	}
	if (end <= u0)
		return;
	for (int64_t b = lod_floor_shift(u0, sh); b <= b1; b++) {
		struct acc *a = ring_at(s, b);

		bucket_bounds(sh, b, &lo, &hi);
		a->busy += NX_MIN(end, hi) - NX_MAX(u0, lo);
		add_top(a, NX_MIN(end, hi) - NX_MAX(ts, lo), id, name, cat);
	}
}

static void add_sample(struct lod_state *s, int64_t ts, double v)
{
	int64_t b = lod_floor_shift(ts, 2 * s->lmin);
	struct acc *a;

	flush_before(s, b);
	a = ring_at(s, b);
	if (!a->n || v < a->vmin)
		a->vmin = v;
	if (!a->n || v > a->vmax)
		a->vmax = v;
	a->vsum += v;
	a->vlast = v;
	a->n++;
}

static void finish_levels(struct lod_state *s)
{
	flush_before(s, INT64_MAX);
	for (int l = s->lmin + 1; l <= s->lmax; l++)
		write_row(s, l, &s->up[l]);
}

static void choose_levels(struct lod_state *s, const struct wtrack *t)
{
	int64_t span = t->max_end - t->min_ts;

	if (span < 1)
		span = 1;
	s->lmin = lod_level_for(span / t->n * 8 + 1);
	s->lmax = lod_level_for(span);
	if (s->lmax < s->lmin)
		s->lmax = s->lmin;
	for (int l = 0; l <= LOD_MAX_LEVEL; l++)
		acc_reset(&s->up[l], INT64_MIN);
}

struct track_stats {
	int64_t busy;
	int max_depth;
	unsigned agg_fields;
	int agg_level;		/* finest level of the name aggregates */
};

/* The finest level worth keeping names at: tracks with few names get
 * the level just above the LOD's finest; tracks with varied names (one
 * bit per name hash in t->names estimates how many) start coarser, so
 * the aggregates stay well below one row per event, unless their names
 * come in long runs (a bucket holds one name per run reaching it). */
static int name_level_for(const struct wtrack *t, int lmin, int lmax)
{
	int bits = __builtin_popcountll(t->names);
	double names = bits >= 64 ? 1e18 : -64.0 * log(1.0 - bits / 64.0);
	double span = (double)NX_MAX(t->max_end - t->min_ts, 1);

	for (int l = NX_MIN(lmin + 1, lmax); l < lmax; l++) {
		double buckets = span / (double)lod_width(l) + 1;
		double per = (double)t->n / buckets;
		double rows = NX_MIN(buckets * NX_MIN(names, per),
				     (double)t->name_runs + buckets);

		if (rows <= (double)t->n / 8)
			return l;
	}
	return lmax;
}

size_t slice_hlo_max(void)
{
	const char *cap = getenv("NXTOP_TEST_HLO_CAP");
	char *end;
	unsigned long long n;

	if (!cap || !*cap)
		return SLICE_HLO_MAX;
	n = strtoull(cap, &end, 10);
	return *end || !n || n > SLICE_HLO_MAX ? SLICE_HLO_MAX : (size_t)n;
}

/* The HLO name of slice id, as the instruction table holds it: 0 for
 * none. */
static int64_t hlo_of(const struct lod_state *s, int64_t id)
{
	uint64_t k = (uint64_t)(id - s->base - 1);

	return k < s->hlo->n && s->hlo->v[k] ? s->hlo->v[k] + s->base : 0;
}

/* A slice as the finishing pass reads it (select_sql), each column read
 * once: vals[] and has[] are the aggregates' fields (AGG_DUR's is binned
 * from dur by agg_add). */
struct srow {
	int64_t id, ts, dur;
	int depth;
	int64_t vals[AGG_NFIELDS];
	int has[AGG_NFIELDS];
};

/* NULL columns read as absent: the query selects a NULL where the track
 * has no such field. */
static int64_t opt_col(sqlite3_stmt *sel, int i, int *has)
{
	*has = sqlite3_column_type(sel, i) != SQLITE_NULL;
	return *has ? sqlite3_column_int64(sel, i) : 0;
}

static void srow_read(const struct lod_state *s, sqlite3_stmt *sel,
		      struct srow *r)
{
	r->id = sqlite3_column_int64(sel, 0);
	r->ts = sqlite3_column_int64(sel, 1);
	r->dur = sqlite3_column_int64(sel, 2);
	r->vals[AGG_NAME] = sqlite3_column_int64(sel, 3);
	r->has[AGG_NAME] = 1;
	r->vals[AGG_CAT] = opt_col(sel, 4, &r->has[AGG_CAT]);
	r->depth = sqlite3_column_int(sel, 5);
	if (s->instr && s->hlo) {
		r->vals[AGG_HLO] = hlo_of(s, r->id);
		r->has[AGG_HLO] = r->vals[AGG_HLO] != 0;
	} else {
		r->vals[AGG_HLO] = opt_col(sel, 6, &r->has[AGG_HLO]);
	}
	r->vals[AGG_SIZE] = opt_col(sel, 7, &r->has[AGG_SIZE]);
	r->has[AGG_DUR] = 0;
}

/* Per-depth levels of a nested track: one state per depth, with the
 * whole track's levels, each its own ring and open buckets. */
struct lanes {
	struct lod_state *v;
	int n;
};

static void lanes_begin(struct lanes *ls, const struct lod_state *s,
			const struct wtrack *t)
{
	ls->v = NULL;
	ls->n = 0;
	if (s->lmin < 0 || s->counter || t->max_depth <= 0)
		return;
	ls->n = (int)t->max_depth + 1;
	ls->v = xcalloc((size_t)ls->n, sizeof(*ls->v));
	for (int d = 0; d < ls->n; d++) {
		struct lod_state *l = &ls->v[d];

		*l = *s;
		l->depth = d;
		l->covered = INT64_MIN;
		l->cap = 64;
		l->ring = xcalloc(l->cap, sizeof(*l->ring));
		l->len = 0;
		l->head = 0;
		l->agg = NULL;
	}
}

static void lanes_add(struct lanes *ls, int d, int64_t id, int64_t ts,
		      int64_t end, int64_t name, int64_t cat)
{
	struct lod_state *l;

	if (d < 0 || d >= ls->n)
		return;
	l = &ls->v[d];
	add_slice(l, id, ts, end, name, cat, l->covered);
	if (end > l->covered)
		l->covered = end;
}

/* Writes the lanes' last buckets. */
static void lanes_end(struct lanes *ls)
{
	for (int d = 0; d < ls->n; d++) {
		finish_levels(&ls->v[d]);
		free(ls->v[d].ring);
	}
	free(ls->v);
	ls->v = NULL;
	ls->n = 0;
}

/* A track's slices in start order. The index is ordered by depth, then
 * time, so each depth is read in order and the depths are merged; very
 * deep tracks are sorted by SQLite instead. Ties go to the shallower
 * slice, so parents come before children that start with them. */
#define MERGE_DEPTHS 32

struct rows {
	sqlite3_stmt *cur[MERGE_DEPTHS + 1];
	int live[MERGE_DEPTHS + 1];
	int64_t ts[MERGE_DEPTHS + 1];	/* of each live cursor's row */
	int n;
	int prev;		/* cursor that gave the last row, -1 before */
};

static int rows_step(struct rows *r, int i)
{
	int rc = sqlite3_step(r->cur[i]);

	r->live[i] = rc == SQLITE_ROW;
	if (r->live[i])
		r->ts[i] = sqlite3_column_int64(r->cur[i], 1);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

/* The next row, or NULL at the end (*err set on failure). */
static sqlite3_stmt *rows_next(struct rows *r, int *err)
{
	int best = -1;

	if (r->prev >= 0 && rows_step(r, r->prev)) {
		*err = 1;
		return NULL;
	}
	for (int i = 0; i < r->n; i++) {
		if (!r->live[i])
			continue;
		if (best < 0 || r->ts[i] < r->ts[best])
			best = i;
	}
	r->prev = best;
	return best < 0 ? NULL : r->cur[best];
}

static int scan_slices(struct lod_state *s, struct rows *r,
		       struct lanes *ls, struct track_stats *ts_out)
{
	int64_t covered = INT64_MIN;
	sqlite3_stmt *sel;
	int err = 0;

	r->prev = -1;
	for (int i = 0; i < r->n; i++) {
		if (rows_step(r, i))
			return db_fail(s->db, "scan");
	}
	while ((sel = rows_next(r, &err))) {
		struct srow row;
		int64_t end;

		srow_read(s, sel, &row);
		end = row.ts + row.dur;
		if (row.depth > ts_out->max_depth)
			ts_out->max_depth = row.depth;
		if (s->lmin >= 0) {
			add_slice(s, row.id, row.ts, end, row.vals[AGG_NAME],
				  row.vals[AGG_CAT], covered);
			agg_add(s->agg, row.ts, row.dur, row.vals, row.has);
			lanes_add(ls, row.depth, row.id, row.ts, end,
				  row.vals[AGG_NAME], row.vals[AGG_CAT]);
		}
		if (end > covered) {
			ts_out->busy += end - NX_MAX(row.ts, covered);
			covered = end;
		}
	}
	for (int i = 0; i < r->n; i++)
		sqlite3_reset(r->cur[i]);
	return err ? db_fail(s->db, "scan") : 0;
}

static int scan_counter(struct lod_state *s, sqlite3_stmt *sel)
{
	int rc;

	sqlite3_bind_int64(sel, 1, s->track);
	while ((rc = sqlite3_step(sel)) == SQLITE_ROW)
		add_sample(s, sqlite3_column_int64(sel, 0),
			   sqlite3_column_double(sel, 1));
	sqlite3_reset(sel);
	return rc == SQLITE_DONE ? 0 : db_fail(s->db, "scan");
}

static void update_track(struct wqueue *q, int64_t id, const struct wtrack *t,
			 const struct track_stats *st, int lod_level)
{
	wq_begin(q, FQ_TRACK);
	wq_int(q, 1, t->n);
	wq_int(q, 2, t->max_dur);
	wq_int(q, 3, st->max_depth);
	if (t->n) {
		wq_int(q, 4, t->min_ts);
		wq_int(q, 5, t->max_end);
	}
	wq_int(q, 6, st->busy);
	if (lod_level >= 0)
		wq_int(q, 7, lod_level);
	wq_int(q, 8, st->agg_fields);
	if (st->agg_level >= 0)
		wq_int(q, 9, st->agg_level);
	wq_int(q, 10, id);
	wq_end(q);
}

/* Columns read per slice: id, ts, dur, name, cat, depth, the HLO name
 * (joined from the instruction table when the track has rows there and
 * join is set) and the transfer size of DMA slices, which the slice
 * holds too (writer_slice_sized): all in the slice index, whose walk
 * then needs no seek per slice. */
static char *select_sql(unsigned typed, int join, const char *where)
{
	int hlo = join && (typed & WT_INSTR);

	return xasprintf("SELECT s.id, s.ts, s.dur, s.name, s.cat, s.depth,"
			 " %s, %s FROM slice s%s %s",
			 hlo ? "i.hlo_name" : "NULL",
			 typed & (WT_PACKET | WT_XFER) ? "s.size" : "NULL",
			 hlo ? " LEFT JOIN instruction i ON i.slice_id = s.id" :
			 "", where);
}

const char *const finish_write_sql[FQ_N] = {
	[FQ_TRACK] = "UPDATE track SET n_events=?, max_dur=?, max_depth=?,"
		     " min_ts=?, max_ts=?, busy_ns=?, lod_level=?, agg_fields=?,"
		     " agg_level=? WHERE id=?",
	[FQ_LOD] = "INSERT INTO lod(track_id, level, bucket, n, busy, top_slice,"
		   " top_name, top_cat) VALUES(?,?,?,?,?,?,?,?)",
	[FQ_CLOD] = "INSERT INTO counter_lod(track_id, level, bucket, n, vmin,"
		    " vmax, vsum, vlast) VALUES(?,?,?,?,?,?,?,?)",
	[FQ_LANE] = "INSERT INTO lane_lod(track_id, level, bucket, n, busy,"
		    " top_slice, top_name, top_cat, depth)"
		    " VALUES(?,?,?,?,?,?,?,?,?)",
	[FQ_AGG] = "INSERT INTO agg(track_id, field, level, bucket, value, n,"
		   " dur, dmin, dmax) VALUES(?,?,?,?,?,?,?,?,?)",
};

static void agg_put(void *ctx, const int64_t *row)
{
	struct wqueue *q = ctx;

	wq_begin(q, FQ_AGG);
	for (int c = 0; c < AGG_COLS; c++)
		wq_int(q, c + 1, row[c]);
	wq_end(q);
}

static void agg_drop(void *ctx, int64_t track, int field)
{
	struct wqueue *q = ctx;

	wq_sql(q, "DELETE FROM agg WHERE track_id=? AND field=?");
	wq_int(q, 1, track);
	wq_int(q, 2, field);
	wq_end(q);
}

/* Row sources for one track, by its typed tables: one cursor per depth,
 * or one sorted query; prepared when first needed. */
struct sources {
	sqlite3_stmt *depth[WT_ALL + 1][MERGE_DEPTHS + 1];
	sqlite3_stmt *sorted[WT_ALL + 1];
};

static int sources_prepare(sqlite3 *db, struct sources *src, unsigned typed,
			   int join)
{
	char *sql = select_sql(typed, join, "WHERE s.track_id=?1 AND s.depth=?2"
			       " ORDER BY s.ts");
	char *all = select_sql(typed, join, "WHERE s.track_id=?1 ORDER BY s.ts,"
			       " s.depth");
	int rc = 0;

	for (int d = 0; d <= MERGE_DEPTHS && !rc; d++)
		rc = sqlite3_prepare_v2(db, sql, -1, &src->depth[typed][d],
					NULL) != SQLITE_OK;
	if (!rc)
		rc = sqlite3_prepare_v2(db, all, -1, &src->sorted[typed],
					NULL) != SQLITE_OK;
	free(sql);
	free(all);
	return rc ? db_fail(db, "prepare") : 0;
}

static void sources_close(struct sources *src)
{
	for (int typed = 0; typed <= WT_ALL; typed++) {
		for (int d = 0; d <= MERGE_DEPTHS; d++)
			sqlite3_finalize(src->depth[typed][d]);
		sqlite3_finalize(src->sorted[typed]);
	}
}

static int rows_for(struct rows *r, const struct lod_state *s,
		    struct sources *src, const struct wtrack *t)
{
	unsigned typed = t->typed & WT_ALL;
	int64_t track = s->track;

	memset(r, 0, sizeof(*r));
	if (!src->sorted[typed] &&
	    sources_prepare(s->db, src, typed, !s->hlo))
		return -1;
	if (t->max_depth > MERGE_DEPTHS) {
		r->cur[0] = src->sorted[typed];
		sqlite3_bind_int64(r->cur[0], 1, track);
		r->n = 1;
		return 0;
	}
	for (int d = 0; d <= t->max_depth; d++) {
		r->cur[d] = src->depth[typed][d];
		sqlite3_bind_int64(r->cur[d], 1, track);
		sqlite3_bind_int(r->cur[d], 2, d);
	}
	r->n = t->max_depth + 1;
	return 0;
}

static int build_one(struct lod_state *s, sqlite3_stmt *counters,
		     struct sources *src, const struct wtrack *t)
{
	struct track_stats st = { 0, 0, 0, -1 };
	int lod = t->n >= LOD_MIN_EVENTS;
	struct lanes ls;
	struct rows r;
	int rc;

	s->counter = t->is_counter;
	s->instr = (t->typed & WT_INSTR) != 0;
	s->depth = -1;
	s->len = 0;
	s->head = 0;
	s->lmin = -1;
	st.agg_level = -1;
	if (lod) {
		int name_level;

		choose_levels(s, t);
		name_level = name_level_for(t, s->lmin, s->lmax);
		st.agg_level = name_level;
		agg_begin(s->agg, s->track, name_level,
			  t->max_end - t->min_ts, t->n, s->lmax);
	}
	if (t->is_counter) {
		rc = lod ? scan_counter(s, counters) : 0;
	} else {
		lanes_begin(&ls, s, t);
		rc = rows_for(&r, s, src, t) ||
		     scan_slices(s, &r, &ls, &st);
		lanes_end(&ls);
	}
	if (rc)
		return -1;
	if (lod)
		finish_levels(s);
	if (lod && !t->is_counter)
		agg_end(s->agg, &st.agg_fields);
	update_track(s->q, s->track, t, &st, lod ? s->lmin : -1);
	return 0;
}

/* temp.nest: the tracks that nest by time and came too far out of
 * order for the window, their depths to be found again (only the
 * importer's count). 0 if there are none. */
static int nest_tracks(sqlite3 *db, struct wtrack *tracks, int64_t base,
		       int64_t ntracks)
{
	sqlite3_stmt *ins = NULL;
	int rc = SQLITE_DONE, any = 0;

	for (int64_t id = 1; id <= ntracks && !any; id++)
		any = nests_by_time(&tracks[id]) && tracks[id].late;
	if (!any)
		return 0;
	if (db_exec(db, "CREATE TEMP TABLE nest(track_id INTEGER PRIMARY KEY)") ||
	    sqlite3_prepare_v2(db, "INSERT INTO temp.nest VALUES(?)", -1, &ins,
			       NULL) != SQLITE_OK)
		return db_fail(db, "depth");
	for (int64_t id = 1; id <= ntracks && rc == SQLITE_DONE; id++) {
		if (!nests_by_time(&tracks[id]) || !tracks[id].late)
			continue;
		tracks[id].max_depth = tracks[id].max_given;
		sqlite3_bind_int64(ins, 1, base + id);
		rc = sqlite3_step(ins);
		sqlite3_reset(ins);
	}
	sqlite3_finalize(ins);
	return rc == SQLITE_DONE ? 1 : db_fail(db, "depth");
}

/* Depths and parents to write, applied in id order: in the order they
 * are found (by track and time) each would seek a different page. */
#define DEPTH_BATCH (1 << 18)

struct depth_set {
	int64_t id, parent;
	int depth;		/* -1: unchanged */
};

struct depths {
	sqlite3 *db;
	/* depth and parent, or the parent alone: depth is in the slice
	 * index, whose entry an UPDATE of it rewrites */
	sqlite3_stmt *upd, *upd_parent;
	struct depth_set *set;
	size_t n;
};

static int by_id(const void *a, const void *b)
{
	const struct depth_set *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static int depths_flush(struct depths *d)
{
	int rc = SQLITE_DONE;

	if (d->n > 1)	/* set is NULL before the first */
		qsort(d->set, d->n, sizeof(*d->set), by_id);
	for (size_t i = 0; i < d->n && rc == SQLITE_DONE; i++) {
		const struct depth_set *e = &d->set[i];
		sqlite3_stmt *st = e->depth < 0 ? d->upd_parent : d->upd;

		if (e->depth >= 0)
			sqlite3_bind_int(st, 1, e->depth);
		if (e->parent)
			sqlite3_bind_int64(st, 2, e->parent);
		else
			sqlite3_bind_null(st, 2);
		sqlite3_bind_int64(st, 3, e->id);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
	}
	d->n = 0;
	return rc == SQLITE_DONE ? 0 : db_fail(d->db, "depth");
}

static int depths_add(struct depths *d, int64_t id, int depth, int64_t parent)
{
	d->set[d->n++] = (struct depth_set){ id, parent, depth };
	return d->n == DEPTH_BATCH ? depths_flush(d) : 0;
}

/* Depths and parents of one sorted pass over the slices in sel. */
static int depths_scan(struct depths *d, sqlite3_stmt *sel,
		       struct wtrack *tracks, int64_t base)
{
	struct nest_stack st = { 0 };
	int64_t track = 0;
	int rc;

	while ((rc = sqlite3_step(sel)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(sel, 0);
		int64_t ts = sqlite3_column_int64(sel, 2);
		int64_t parent;
		int depth;

		if (sqlite3_column_int64(sel, 1) != track) {
			track = sqlite3_column_int64(sel, 1);
			st.n = 0;
		}
		depth = nest_place(&st, id, ts, ts + sqlite3_column_int64(sel, 3),
				   &parent);
		/* rows the window placed before the row fell behind are
		 * mostly right already */
		if ((depth != sqlite3_column_int(sel, 4) ||
		     parent != sqlite3_column_int64(sel, 5)) &&
		    depths_add(d, id, depth == sqlite3_column_int(sel, 4) ? -1 :
			       depth, parent))
			break;
		tracks[track - base].max_depth =
			NX_MAX(tracks[track - base].max_depth, depth);
	}
	free(st.s);
	return rc == SQLITE_DONE ? depths_flush(d) : db_fail(d->db, "depth");
}

/* Depths and parents of the tracks that nest by time but came too far
 * out of order for the window, from one sorted pass over their slices
 * (finish_parents() skips these tracks). Only slices whose depth or
 * parent changes are rewritten; the level-of-detail pass then finds
 * every depth already right. */
int finish_depths(sqlite3 *db, struct wtrack *tracks, int64_t base,
		  int64_t ntracks)
{
	struct depths d = { .db = db };
	sqlite3_stmt *sel = NULL;
	int rc = nest_tracks(db, tracks, base, ntracks);

	if (rc <= 0)
		return rc;
	if (sqlite3_prepare_v2(db, "SELECT id, track_id, ts, dur, depth,"
			       " coalesce(parent_id, 0) FROM slice"
			       " WHERE track_id IN temp.nest"
			       " ORDER BY track_id, ts, dur DESC, id", -1, &sel,
			       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "UPDATE slice SET depth=?1, parent_id=?2"
			       " WHERE id=?3", -1, &d.upd, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "UPDATE slice SET parent_id=?2 WHERE id=?3",
			       -1, &d.upd_parent, NULL) != SQLITE_OK) {
		rc = db_fail(db, "depth");
	} else {
		d.set = xcalloc(DEPTH_BATCH, sizeof(*d.set));
		rc = depths_scan(&d, sel, tracks, base);
	}
	free(d.set);
	sqlite3_finalize(sel);
	sqlite3_finalize(d.upd);
	sqlite3_finalize(d.upd_parent);
	if (!rc)
		rc = db_exec(db, "DROP TABLE temp.nest");
	return rc;
}

int finish_tracks(sqlite3 *db, struct wqueue *q, const struct wtrack *tracks,
		  int64_t base, int64_t ntracks, const struct slice_hlo *hlo,
		  void (*progress)(void *, const char *, int), void *ctx)
{
	const struct agg_sink sink = { agg_put, agg_drop, q };
	sqlite3_stmt *counters = NULL;
	struct sources src;
	struct lod_state s;
	int rc = -1;

	memset(&s, 0, sizeof(s));
	memset(&src, 0, sizeof(src));
	s.db = db;
	s.q = q;
	s.hlo = hlo;
	s.base = base;
	s.cap = 64;
	s.ring = xcalloc(s.cap, sizeof(*s.ring));
	s.agg = agg_new(&sink);
	if (sqlite3_prepare_v2(db, "SELECT ts, value FROM counter WHERE"
			       " track_id=? ORDER BY ts", -1, &counters,
			       NULL) != SQLITE_OK) {
		db_fail(db, "prepare");
		goto out;
	}
	for (int64_t id = 1; id <= ntracks; id++) {
		s.track = base + id;	/* tracks[] counts from 1 */
		if (build_one(&s, counters, &src, &tracks[id]) || wq_failed(q))
			goto out;
		if (progress && (id % 16 == 0 || id == ntracks))
			progress(ctx, "summarising", (int)(id * 100 / ntracks));
	}
	rc = 0;
out:
	sqlite3_finalize(counters);
	sources_close(&src);
	agg_free(s.agg);
	free(s.ring);
	return rc;
}
