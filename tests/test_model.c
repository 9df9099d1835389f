/* The read side: frames built from level-of-detail rows agree with
 * frames built from the events (and with brute force), a nested row's
 * per-lane level of detail and lane frames agree with brute force, nested
 * tracks get their depths, counters hold their value between samples,
 * and event lookup and stepping find the right events. */
#include "config.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <unistd.h>

#include "model/flow.h"
#include "model/lod.h"
#include "model/model.h"
#include "model/util.h"
#include "model/writer/writer.h"
#include "model/cache/cache.h"
#include "tests/testutil.h"

#define NEV 20000

struct ev {
	int64_t ts, dur;
};

static struct ev evs[NEV];
static char *cache;
static int64_t track_flat, track_nested, track_counter;

/* Flows link flat event i to event i + 1 for i < NFLOW. */
#define NFLOW 3000

/* Slices written as a stack gives them up, innermost first: a small
 * one, and a root whose children are too many to wait for it. */
#define NWIDE 5000
static int64_t stack_ids[3], wide_root, wide_child[NWIDE];
/* Rows that together hold more slices waiting than the writer keeps:
 * NMANY rows of NMANY_KIDS children, each row's root last. */
#define NMANY 70
#define NMANY_KIDS 4000
static int64_t many_root[NMANY], many_kid[NMANY][2];
static int64_t many_track[NMANY];
/* A row given as a stack, then set to nest by time: p1 and p2 share a
 * span, so by time p2 (written later) lies inside p1 and c inside p2,
 * while the stack had made p1 c's parent. */
static int64_t late_p1, late_p2, late_c;
/* The same with a child as long as its parent: by time, the one written
 * first is the outer one. */
static int64_t same_c, same_p;

/* A nested row for the per-lane level of detail: NLROOT roots, each
 * with one or two children per level in its halves, down to depth 3
 * (depth 4 under odd roots), so a last lane from depth 3 takes two. */
#define NLROOT 200
#define NLEV (NLROOT * 31)
struct lev {
	int64_t id, ts, dur;
	int depth;
};
static struct lev lev[NLEV];
static size_t nlev;
static int64_t track_lanes;

/* Deterministic pseudo-random numbers. */
static uint64_t rng = 88172645463325252ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void lane_node(struct writer *w, int64_t name, int64_t ts, int64_t dur,
		      int depth, int maxd)
{
	int k = 1 + (int)(next() % 2);

	lev[nlev] = (struct lev){ writer_slice(w, track_lanes, ts, dur, name,
					       0, depth, 0), ts, dur, depth };
	nlev++;
	for (int j = 0; depth < maxd && j < k; j++)
		lane_node(w, name, ts + j * (dur / k) + 1, dur / k - 2,
			  depth + 1, maxd);
}

static void lane_slices(struct writer *w, int64_t prof, int64_t name)
{
	track_lanes = writer_track(w, prof, 0, TK_THREAD, "lanes", 8 + NMANY);
	for (int i = 0; i < NLROOT; i++)
		lane_node(w, name, 1000 * i + (int64_t)(next() % 100),
			  600 + (int64_t)(next() % 300), 0, 3 + i % 2);
}

static void stack_slices(struct writer *w, int64_t prof, int64_t name)
{
	int64_t small = writer_track(w, prof, 0, TK_THREAD, "stack", 4);
	int64_t wide = writer_track(w, prof, 0, TK_THREAD, "wide", 5);

	stack_ids[2] = writer_slice(w, small, 1, 1, name, 0, 2, 0);
	stack_ids[1] = writer_slice(w, small, 0, 3, name, 0, 1, 0);
	stack_ids[0] = writer_slice(w, small, 0, 4, name, 0, 0, 0);
	for (int i = 0; i < NWIDE; i++)
		wide_child[i] = writer_slice(w, wide, 10 * i, 5, name, 0, 1, 0);
	wide_root = writer_slice(w, wide, 0, 10 * NWIDE, name, 0, 0, 0);
	for (int r = 0; r < NMANY; r++) {
		many_track[r] = writer_track(w, prof, 0, TK_THREAD, "many", 6 + r);
		for (int i = 0; i < NMANY_KIDS; i++) {
			int64_t id = writer_slice(w, many_track[r], 2 * i, 1, name,
						  0, 1, 0);

			if (i == 0 || i == NMANY_KIDS - 1)
				many_kid[r][i != 0] = id;
		}
	}
	for (int r = 0; r < NMANY; r++)
		many_root[r] = writer_slice(w, many_track[r], 0, 2 * NMANY_KIDS,
					    name, 0, 0, 0);
	wide = writer_track(w, prof, 0, TK_THREAD, "late", 6 + NMANY);
	late_c = writer_slice(w, wide, 2, 1, name, 0, 1, 0);
	late_p1 = writer_slice(w, wide, 0, 10, name, 0, 0, 0);
	writer_track_set_flags(w, wide, TF_NEST_BY_TIME);
	late_p2 = writer_slice(w, wide, 0, 10, name, 0, 0, 0);
	wide = writer_track(w, prof, 0, TK_THREAD, "same", 7 + NMANY);
	same_c = writer_slice(w, wide, 0, 10, name, 0, 1, 0);
	same_p = writer_slice(w, wide, 0, 10, name, 0, 0, 0);
	writer_track_set_flags(w, wide, TF_NEST_BY_TIME);
	writer_slice(w, wide, 20, 1, name, 0, 0, 0);
}

static int setup(void **state)
{
	struct wprofile p = { .kind = "device", .format = "test", .name = "t",
			      .nc_idx = -1 };
	struct writer *w;
	int64_t prof, name, ts = 1000, prev = 0, id, top, leaf;
	struct wid fid = { 0 };

	(void)state;
	cache = xasprintf("%s/model.nxdb", tu_dir());
	unlink(cache);
	w = writer_open(cache);
	assert_non_null(w);
	prof = writer_profile(w, &p);
	track_flat = writer_track(w, prof, 0, TK_ENGINE, "flat", 1);
	track_nested = writer_track(w, prof, 0, TK_THREAD, "nested", 2);
	track_counter = writer_track(w, prof, 0, TK_COUNTER, "ctr", 3);
	writer_track_set_flags(w, track_nested, TF_NEST_BY_TIME);
	name = writer_string(w, "op");
	/* bursts of short, sometimes overlapping events with idle gaps */
	for (int i = 0; i < NEV; i++) {
		ts += (int64_t)(next() % 400);
		if (i % 1000 == 0)
			ts += 500000;
		evs[i].ts = ts;
		evs[i].dur = (int64_t)(next() % 600);
		id = writer_slice(w, track_flat, evs[i].ts, evs[i].dur, name,
				  0, 0, 0);
		if (i && i <= NFLOW)
			writer_flow(w, &fid, prev, id, "flow");
		prev = id;
	}
	/* nested: a parent, two children, a grandchild, written shuffled;
	 * a flow from the parent (depth 0) to the grandchild (depth 2) */
	leaf = writer_slice(w, track_nested, 150, 10, name, 0, 0, 0);
	writer_slice(w, track_nested, 100, 900, name, 0, 0, 0);
	top = writer_slice(w, track_nested, 0, 1000, name, 0, 0, 0);
	writer_flow(w, &fid, top, leaf, "flow");
	stack_slices(w, prof, name);
	lane_slices(w, prof, name);
	writer_slice(w, track_nested, 500, 100, name, 0, 0, 0);
	writer_slice(w, track_nested, 2000, 5, name, 0, 0, 0);
	for (int i = 0; i < 100; i++)
		writer_counter(w, track_counter, 1000 * i, (double)i);
	assert_int_equal(writer_finish(w), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(cache);
	return 0;
}

static void brute(int64_t t0, int64_t colw, int ncols, int64_t *n,
		  int64_t *busy)
{
	memset(n, 0, (size_t)ncols * sizeof(*n));
	memset(busy, 0, (size_t)ncols * sizeof(*busy));
	for (int c = 0; c < ncols; c++) {
		int64_t lo = t0 + c * colw, hi = lo + colw, covered = lo;

		for (int i = 0; i < NEV; i++) {
			int64_t s = evs[i].ts, e = s + evs[i].dur;

			if (s >= lo && s < hi)
				n[c]++;
			s = NX_MAX(s, covered);
			e = NX_MIN(e, hi);
			if (e > s) {
				busy[c] += e - s;
				covered = e;
			}
		}
	}
}

static struct mtrack *find_track(struct mtrack *t, size_t n, int64_t id)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].id == id)
			return &t[i];
	fail_msg("no track %lld", (long long)id);
	return NULL;
}

/* At every zoom, columns aligned with LOD buckets give the exact counts
 * and busy time; the events are read only zoomed in. */
static void test_frames_match_brute_force(void **state)
{
	struct model *m = model_open(cache);
	struct mtrack *tracks, *t;
	size_t nt;
	enum { NC = 100 };
	struct mcell cells[NC];
	int64_t n[NC], busy[NC];

	(void)state;
	assert_non_null(m);
	assert_int_equal(model_tracks(m, 1, &tracks, &nt), 0);
	t = find_track(tracks, nt, track_flat);
	assert_true(t->lod_level >= 0);
	for (int level = 0; level <= 10; level++) {
		int64_t colw = lod_width(level);
		int64_t t0 = lod_floor_shift(evs[NEV / 2].ts, 2 * level) * colw;

		if (level > 8)
			t0 = 0;
		assert_int_equal(model_frame(m, t, t0, colw, NC, cells), 0);
		brute(t0, colw, NC, n, busy);
		for (int c = 0; c < NC; c++) {
			if (cells[c].n != n[c] || cells[c].busy != busy[c])
				fail_msg("level %d col %d: n %lld/%lld busy %lld/%lld",
					 level, c, (long long)cells[c].n,
					 (long long)n[c], (long long)cells[c].busy,
					 (long long)busy[c]);
			if (n[c] || busy[c])
				assert_true(cells[c].top_slice > 0);
		}
	}
	model_tracks_free(tracks, nt);
	model_close(m);
}

/* Brute force over the fixture's events at depth d: in bucket b of
 * width w, the count starting there, the time covered (a depth's
 * events do not overlap) and the largest overlap of one event. */
static void lane_brute(int d, int64_t b, int64_t w, int64_t *n, int64_t *busy,
		       int64_t *top)
{
	int64_t lo = b * w, hi = lo + w;

	*n = *busy = *top = 0;
	for (size_t i = 0; i < nlev; i++) {
		int64_t part = NX_MIN(lev[i].ts + lev[i].dur, hi) -
			       NX_MAX(lev[i].ts, lo);

		if (lev[i].depth != d)
			continue;
		*n += lev[i].ts >= lo && lev[i].ts < hi;
		*busy += NX_MAX(part, 0);
		*top = NX_MAX(*top, part);
	}
}

static const struct lev *lev_find(int64_t id)
{
	for (size_t i = 0; i < nlev; i++)
		if (lev[i].id == id)
			return &lev[i];
	return NULL;
}

/* Buckets of width w that the fixture's events at depth d touch. */
static int64_t lane_buckets(int d, int64_t w)
{
	int64_t count = 0, last = -1;

	for (size_t i = 0; i < nlev; i++) {
		int64_t b0 = lev[i].ts / w;
		int64_t b1 = (lev[i].ts + NX_MAX(lev[i].dur, 1) - 1) / w;

		if (lev[i].depth != d)
			continue;
		count += b1 - NX_MAX(b0, last + 1) + 1;
		last = b1;
	}
	return count;
}

/* The top event is the one with the largest overlap at the finest
 * level; coarser levels keep the largest of their finer buckets', which
 * is at least an event of the depth in the bucket. */
static void check_lane_row(sqlite3_stmt *st, int lmin)
{
	int d = sqlite3_column_int(st, 0), level = sqlite3_column_int(st, 1);
	int64_t b = sqlite3_column_int64(st, 2), n, busy, top, part;
	const struct lev *e = lev_find(sqlite3_column_int64(st, 5));
	int64_t lo = b * lod_width(level);

	lane_brute(d, b, lod_width(level), &n, &busy, &top);
	assert_int_equal(sqlite3_column_int64(st, 3), n);
	assert_int_equal(sqlite3_column_int64(st, 4), busy);
	assert_non_null(e);
	assert_int_equal(e->depth, d);
	part = NX_MIN(e->ts + e->dur, lo + lod_width(level)) - NX_MAX(e->ts, lo);
	if (level == lmin)
		assert_int_equal(part, top);
	assert_true(part > 0);
}

/* Every per-lane LOD row of the nested fixture row holds what brute
 * force finds in its bucket at its depth, at every level of the whole
 * row's LOD, and every bucket an event touches has its row. */
static void test_lane_lod_rows(void **state)
{
	char *sql, *levels;
	sqlite3 *db;
	sqlite3_stmt *st;
	int64_t rows = 0, want = 0;
	int lmin;

	(void)state;
	sql = xasprintf("SELECT lod_level FROM track WHERE id = %lld",
			(long long)track_lanes);
	lmin = (int)tu_query_int(cache, sql);
	free(sql);
	sql = xasprintf("SELECT depth, level, bucket, n, busy, top_slice"
			" FROM lane_lod WHERE track_id = %lld",
			(long long)track_lanes);
	assert_int_equal(sqlite3_open(cache, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		check_lane_row(st, lmin);
		rows++;
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	free(sql);
	sql = xasprintf("SELECT group_concat(level) FROM (SELECT DISTINCT level"
			" FROM lod WHERE track_id = %lld ORDER BY level)",
			(long long)track_lanes);
	levels = tu_query_text(cache, sql);
	assert_non_null(levels);
	for (char *p = levels; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] != 0))
		for (int d = 0; d <= 4; d++)
			want += lane_buckets(d, lod_width(atoi(p)));
	assert_true(rows > 0);
	assert_int_equal(rows, want);
	free(levels);
	free(sql);
}

/* Frames of a row's lanes zoomed out, columns on LOD buckets: each
 * lane counts the events of its depths (the last lane from depth 3 on)
 * and is busy as its first depth is. */
static void check_lane_frame(struct model *m, const struct mtrack *t,
			     int64_t colw, int d0, int d1)
{
	enum { NC = 400 };
	struct mcell cells[NC];
	int ncols = (int)NX_MIN(t->max_ts / colw + 1, NC);

	assert_int_equal(model_lane_frame(m, t, d0, d1, 0, colw, ncols, cells),
			 0);
	for (int c = 0; c < ncols; c++) {
		int64_t n = 0, busy = 0, nd, bd, top;

		for (int d = d0; d <= NX_MIN(d1, 4); d++) {
			lane_brute(d, c, colw, &nd, &bd, &top);
			n += nd;
			busy += d == d0 ? bd : 0;
		}
		if (cells[c].n != n || cells[c].busy != busy)
			fail_msg("colw %lld lane %d col %d: n %lld/%lld busy"
				 " %lld/%lld", (long long)colw, d0, c,
				 (long long)cells[c].n, (long long)n,
				 (long long)cells[c].busy, (long long)busy);
		assert_true(!(n || busy) || cells[c].top_slice);
	}
}

static void test_lane_frames(void **state)
{
	struct model *m = model_open(cache);
	struct mtrack *tracks, *t;
	size_t nt;
	int tested = 0;

	(void)state;
	assert_non_null(m);
	assert_int_equal(model_tracks(m, 1, &tracks, &nt), 0);
	t = find_track(tracks, nt, track_lanes);
	assert_int_equal(t->max_depth, 4);
	assert_true(t->lod_level >= 0);
	for (int level = t->lod_level; level <= 9; level++) {
		int64_t colw = lod_width(level);

		/* zoomed out: more than LANE_EVENTS_PER_COL events a column */
		if (t->n_events * colw <= (t->max_ts - t->min_ts) *
		    LANE_EVENTS_PER_COL)
			continue;
		for (int k = 0; k < 3; k++)
			check_lane_frame(m, t, colw, k, k);
		check_lane_frame(m, t, colw, 3, INT32_MAX);
		tested++;
	}
	assert_true(tested >= 2);
	model_tracks_free(tracks, nt);
	model_close(m);
}

static void test_nesting(void **state)
{
	(void)state;
	char *d = tu_query_text(cache, "SELECT group_concat(depth, '') FROM"
		" (SELECT depth FROM slice WHERE track_id = 2 ORDER BY ts)");
	/* 0..1000, 100..1000, 150..160, 500..600, 2000 */
	assert_string_equal(d, "01220");
	free(d);
	assert_int_equal(tu_query_int(cache, "SELECT max_depth FROM track"
				      " WHERE id = 2"), 2);
}

static void test_slice_at_and_step(void **state)
{
	struct model *m = model_open(cache);
	struct mtrack *tracks, *t;
	struct mslice s;
	size_t nt;

	(void)state;
	model_tracks(m, 1, &tracks, &nt);
	t = find_track(tracks, nt, track_nested);
	assert_int_equal(model_slice_at(m, t, 155, &s), 0);
	assert_int_equal(s.ts, 150);
	assert_int_equal(s.depth, 2);
	assert_int_equal(model_slice_at(m, t, 700, &s), 0);
	assert_int_equal(s.ts, 100);
	assert_int_equal(model_slice_at(m, t, 1500, &s), 1);
	assert_int_equal(model_slice_step(m, t->id, 150, 1, &s), 0);
	assert_int_equal(s.ts, 500);
	assert_int_equal(model_slice_step(m, t->id, 150, -1, &s), 0);
	assert_int_equal(s.ts, 100);
	assert_int_equal(model_slice_step(m, t->id, 2000, 1, &s), 1);
	/* zoomed in far from the parent's start, it still shows */
	struct mcell c[4];
	assert_int_equal(model_frame(m, t, 900, 10, 4, c), 0);
	assert_int_equal(c[0].busy, 10);
	assert_int_equal(c[3].busy, 10);
	model_tracks_free(tracks, nt);
	model_close(m);
}

/* The nearest start or end within a distance: 0..1000, 100..1000,
 * 150..160, 500..600 and 2000 on the nested track. */
static void test_edge_near(void **state)
{
	struct model *m = model_open(cache);
	struct mtrack *tracks, *t;
	size_t nt;
	int64_t e;

	(void)state;
	model_tracks(m, 1, &tracks, &nt);
	t = find_track(tracks, nt, track_nested);
	assert_int_equal(model_edge_near(m, t, 158, 5, &e), 0);
	assert_int_equal(e, 160);
	assert_int_equal(model_edge_near(m, t, 490, 20, &e), 0);
	assert_int_equal(e, 500);
	assert_int_equal(model_edge_near(m, t, 995, 10, &e), 0);
	assert_int_equal(e, 1000);
	assert_int_equal(model_edge_near(m, t, 604, 10, &e), 0);
	assert_int_equal(e, 600);
	assert_int_equal(model_edge_near(m, t, 1200, 100, &e), 1);
	assert_int_equal(model_edge_near(m, t, 2000, 0, &e), 0);
	assert_int_equal(e, 2000);
	model_tracks_free(tracks, nt);
	model_close(m);
}

static void test_counter_frame(void **state)
{
	struct model *m = model_open(cache);
	struct mtrack *tracks, *t;
	struct mccell c[10];
	size_t nt;

	(void)state;
	model_tracks(m, 1, &tracks, &nt);
	t = find_track(tracks, nt, track_counter);
	/* columns of 500 ns: every other column holds the previous value */
	assert_int_equal(model_counter_frame(m, t, 10000, 500, 10, c), 0);
	for (int i = 0; i < 10; i++) {
		assert_true(c[i].have);
		assert_true(c[i].vmax == (double)(10 + i / 2));
	}
	/* wide columns read level-of-detail rows: max of 10 samples each */
	assert_int_equal(model_counter_frame(m, t, 0, 16384, 6, c), 0);
	assert_true(c[0].vmax >= 16.0);
	assert_true(c[5].vmax == 98.0);
	model_tracks_free(tracks, nt);
	model_close(m);
}

/* The flow ends of the flat track in each column, by brute force:
 * leaving at an event's last ns, entering at its start. */
static void brute_marks(int64_t t0, int64_t colw, int ncols,
			unsigned char *bits, int *n)
{
	memset(bits, 0, (size_t)ncols);
	memset(n, 0, (size_t)ncols * sizeof(*n));
	for (int i = 0; i <= NFLOW; i++) {
		int64_t at[2] = { evs[i].dur ? evs[i].ts + evs[i].dur - 1 :
				  evs[i].ts, evs[i].ts };
		int has[2] = { i < NFLOW, i > 0 };

		for (int k = 0; k < 2; k++) {
			int64_t c = at[k] >= t0 ? (at[k] - t0) / colw : -1;

			if (!has[k] || c < 0 || c >= ncols)
				continue;
			bits[c] |= k ? FLOW_MARK_IN : FLOW_MARK_OUT;
			n[c]++;
		}
	}
}

/* Columns with few flow ends get exactly theirs; a crowded column
 * (read only in part) gets some of its own and never another's. */
static void test_flow_marks(void **state)
{
	static const int64_t colws[] = { 7, 50, 400, 5000, 1000000 };
	struct model *m = model_open(cache);
	struct flow_marks *fm;
	unsigned char got[200], want[200];
	int n[200], crowded = 0;

	(void)state;
	assert_non_null(m);
	fm = flow_marks_open(m);
	assert_non_null(fm);
	for (size_t k = 0; k < NX_ARRAY_SIZE(colws); k++) {
		int64_t t0 = evs[0].ts - 123;

		brute_marks(t0, colws[k], 200, want, n);
		assert_int_equal(flow_marks_read(fm, track_flat, 1, t0,
						 colws[k], 200, got), 0);
		for (int c = 0; c < 200; c++) {
			assert_int_equal(got[c] & ~want[c], 0);
			assert_int_equal(!got[c], !want[c]);
			if (n[c] <= FLOW_MARK_READS)
				assert_int_equal(got[c], want[c]);
			crowded += n[c] > FLOW_MARK_READS;
		}
	}
	assert_true(crowded > 0);
	/* each end on its depth's lane; on 2 lanes, depth 2 on the last */
	assert_int_equal(flow_marks_read(fm, track_nested, 3, 0, 100, 12, got),
			 0);
	for (int c = 0; c < 36; c++)
		assert_int_equal(got[c], c == 9 ? FLOW_MARK_OUT :
				 c == 24 + 1 ? FLOW_MARK_IN : 0);
	assert_int_equal(flow_marks_read(fm, track_nested, 2, 0, 100, 12, got),
			 0);
	for (int c = 0; c < 24; c++)
		assert_int_equal(got[c], c == 9 ? FLOW_MARK_OUT :
				 c == 12 + 1 ? FLOW_MARK_IN : 0);
	flow_marks_close(fm);
	model_close(m);
}

/* Parents found as the slices came, and by the parents pass when too
 * many wait for theirs: the same rule; a row set to nest by time after
 * its first slices gets the parents of time containment. */
static void test_stack_parents(void **state)
{
	struct model *m = model_open(cache);
	struct mslice sl;

	(void)state;
	assert_non_null(m);
	for (int k = 0; k < 3; k++) {
		assert_int_equal(model_slice(m, stack_ids[k], &sl), 0);
		assert_int_equal(sl.parent, k ? stack_ids[k - 1] : 0);
	}
	for (int i = 0; i < NWIDE; i += 97) {
		assert_int_equal(model_slice(m, wide_child[i], &sl), 0);
		assert_int_equal(sl.parent, wide_root);
	}
	assert_int_equal(model_slice(m, wide_root, &sl), 0);
	assert_int_equal(sl.parent, 0);
	for (int r = 0; r < NMANY; r++) {
		for (int k = 0; k < 2; k++) {
			assert_int_equal(model_slice(m, many_kid[r][k], &sl), 0);
			assert_int_equal(sl.parent, many_root[r]);
		}
	}
	assert_int_equal(model_slice(m, late_c, &sl), 0);
	assert_int_equal(sl.parent, late_p2);
	assert_int_equal(sl.depth, 2);
	assert_int_equal(model_slice(m, late_p2, &sl), 0);
	assert_int_equal(sl.parent, late_p1);
	assert_int_equal(model_slice(m, same_c, &sl), 0);
	assert_int_equal(sl.depth, 0);
	assert_int_equal(sl.parent, 0);
	assert_int_equal(model_slice(m, same_p, &sl), 0);
	assert_int_equal(sl.parent, same_c);
	model_close(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frames_match_brute_force),
		cmocka_unit_test(test_nesting),
		cmocka_unit_test(test_lane_lod_rows),
		cmocka_unit_test(test_lane_frames),
		cmocka_unit_test(test_slice_at_and_step),
		cmocka_unit_test(test_edge_near),
		cmocka_unit_test(test_counter_frame),
		cmocka_unit_test(test_flow_marks),
		cmocka_unit_test(test_stack_parents),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
