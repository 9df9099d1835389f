/* Nesting queries. A slice's children are the slices naming it as their
 * parent (slice.parent_id, read through the slice_parent index: one
 * index range per parent, no table row per child); they are one depth
 * down on its row, or on another row where the profile names the parent
 * itself (a Neuron system event's parent_id). Events at depth 0 without
 * a parent are siblings along their row. */
#include "config.h"

#include "model/nest.h"

#include <inttypes.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>

#include "model/timefmt.h"
#include "model/util.h"

#define SLICE_COLS "id, track_id, ts, dur, name, cat, depth, flags," \
	" coalesce(parent_id, 0)"

/* Runs sql bound to v[0..5] as ?1..?6 and reads one row:
 * 0 found, 1 none, -1 error. */
static int one(struct model *m, const char *sql, const int64_t v[6],
	       struct mslice *out, int64_t *n, int64_t *total)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(model_db(m), sql, -1, &st, NULL) != SQLITE_OK)
		return model_fail(m, "nesting");
	for (int i = 0; i < sqlite3_bind_parameter_count(st) && i < 6; i++)
		sqlite3_bind_int64(st, i + 1, v[i]);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && out)
		model_slice_read(st, out);
	if (rc == SQLITE_ROW && n) {
		*n = sqlite3_column_int64(st, 0);
		*total = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 0;
	return rc == SQLITE_DONE ? 1 : model_fail(m, "nesting");
}

/* The direct children of s: how many, and their summed duration (ns). */
static int nest_children(struct model *m, const struct mslice *s, int64_t *n,
			 int64_t *total)
{
	int64_t v[6] = { s->id };

	*n = *total = 0;
	return one(m, "SELECT count(*), coalesce(sum(dur), 0) FROM slice"
		   " WHERE parent_id=?1", v, NULL, n, total) < 0 ? -1 : 0;
}

int nest_first_child(struct model *m, const struct mslice *s,
		     struct mslice *out)
{
	int64_t v[6] = { s->id };

	return one(m, "SELECT " SLICE_COLS " FROM slice WHERE parent_id=?1"
		   " ORDER BY ts, id LIMIT 1", v, out, NULL, NULL);
}

/* Siblings with a parent: its other children in (ts, id) order. */
static int child_sibling(struct model *m, const struct mslice *s, int dir,
			 struct mslice *out)
{
	int64_t v[6] = { s->parent, s->ts, s->id };

	if (dir > 0)
		return one(m, "SELECT " SLICE_COLS " FROM slice WHERE"
			   " parent_id=?1 AND ts>=?2 AND (ts>?2 OR id>?3)"
			   " ORDER BY ts, id LIMIT 1", v, out, NULL, NULL);
	return one(m, "SELECT " SLICE_COLS " FROM slice WHERE parent_id=?1"
		   " AND ts<=?2 AND (ts<?2 OR id<?3) ORDER BY ts DESC, id DESC"
		   " LIMIT 1", v, out, NULL, NULL);
}

int nest_sibling(struct model *m, const struct mslice *s, int dir,
		 struct mslice *out)
{
	int64_t v[6] = { s->track_id, s->depth, 0, 0, s->id, s->ts };

	if (s->parent)
		return child_sibling(m, s, dir, out);
	if (dir > 0)
		return one(m, "SELECT " SLICE_COLS " FROM slice WHERE"
			   " track_id=?1 AND depth=?2 AND ts>=?6 AND parent_id"
			   " IS NULL AND (ts>?6 OR id>?5) ORDER BY ts, id LIMIT 1",
			   v, out, NULL, NULL);
	return one(m, "SELECT " SLICE_COLS " FROM slice WHERE track_id=?1"
		   " AND depth=?2 AND ts<=?6 AND parent_id IS NULL AND"
		   " (ts<?6 OR id<?5) ORDER BY ts DESC, id DESC LIMIT 1", v, out,
		   NULL, NULL);
}

int nest_events(struct model *m, const struct mtrack *t, int64_t t0,
		int64_t t1, nest_event_fn fn, void *ctx)
{
	sqlite3_stmt *st;
	struct mslice s;
	int rc;

	if (t->is_counter || !t->n_events)
		return 0;
	if (sqlite3_prepare_v2(model_db(m), "SELECT " SLICE_COLS " FROM slice"
			       " WHERE track_id=?1 AND depth BETWEEN 0 AND ?2"
			       " AND ts>=?3 AND ts<?4 AND (ts+dur>?5 OR ts>=?5)"
			       " ORDER BY ts, depth, id", -1, &st, NULL) != SQLITE_OK)
		return model_fail(m, "events");
	sqlite3_bind_int64(st, 1, t->id);
	sqlite3_bind_int64(st, 2, t->max_depth);
	sqlite3_bind_int64(st, 3, sat_add(t0, -t->max_dur));
	sqlite3_bind_int64(st, 4, t1);
	sqlite3_bind_int64(st, 5, t0);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		model_slice_read(st, &s);
		if (fn(ctx, &s))
			break;
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return -1;
	return rc == SQLITE_DONE ? 0 : model_fail(m, "events");
}

/* Ancestors shown in the details pane; a deeper chain ends in a count. */
#define NEST_SHOWN 8

static void share(char *buf, size_t n, int64_t part, int64_t whole)
{
	if (whole > 0)
		snprintf(buf, n, "%.1f%%", 100.0 * (double)part / (double)whole);
	else
		snprintf(buf, n, "-");
}

/* One ancestor: its name, duration and share of its own parent. */
static void ancestor_field(struct model *m, const struct mslice *a, int k,
			   mfield_fn fn, void *ctx)
{
	char key[32], d[48], pct[16], buf[160];
	struct mslice pp;
	struct strbuf v;

	timefmt_dur(d, sizeof(d), a->dur, 3, 0);
	snprintf(key, sizeof(key), k == 1 ? "parent" : "ancestor %d", k);
	if (a->parent && model_slice(m, a->parent, &pp) == 0) {
		share(pct, sizeof(pct), a->dur, pp.dur);
		snprintf(buf, sizeof(buf), "%s, %s of its parent: ", d, pct);
	} else {
		snprintf(buf, sizeof(buf), "%s, at depth 0: ", d);
	}
	sb_init(&v);
	sb_adds(&v, buf);
	sb_adds(&v, model_string(m, a->name));
	fn(ctx, "Nesting", key, sb_cstr(&v), NULL);
	sb_free(&v);
}

int nest_fields(struct model *m, const struct mslice *s, mfield_fn fn,
		void *ctx)
{
	struct mslice a = *s, p;
	int64_t n, total;
	char d[48], pct[16], buf[128];
	int k = 0;

	if (s->parent && model_slice(m, s->parent, &p) == 0) {
		share(pct, sizeof(pct), s->dur, p.dur);
		fn(ctx, "Nesting", "share of parent", pct, NULL);
	}
	while (a.parent && model_slice(m, a.parent, &p) == 0) {
		if (++k > NEST_SHOWN) {
			snprintf(buf, sizeof(buf), "%d more, to depth 0", p.depth + 1);
			fn(ctx, "Nesting", "ancestors", buf, NULL);
			break;
		}
		ancestor_field(m, &p, k, fn, ctx);
		a = p;
	}
	if (nest_children(m, s, &n, &total))
		return -1;
	if (!n)
		return 0;
	timefmt_dur(d, sizeof(d), total, 3, 0);
	share(pct, sizeof(pct), total, s->dur);
	snprintf(buf, sizeof(buf), "%" PRId64 ", total %s (%s of this)", n, d, pct);
	fn(ctx, "Nesting", "children", buf, NULL);
	return 0;
}
