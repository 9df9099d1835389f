#include "config.h"

#include "model/busy.h"

#include <sqlite3.h>

#include "model/lod.h"
#include "model/util.h"

static sqlite3_stmt *prep(struct model *m, const char *sql)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(model_db(m), sql, -1, &st, NULL) != SQLITE_OK) {
		model_fail(m, "busy time");
		return NULL;
	}
	return st;
}

/* Whole buckets of this level from the LOD rows, the parts before and
 * after them one level finer, down to the events. */
static int busy_at(struct model *m, const struct mtrack *t, int64_t t0,
		   int64_t t1, int level, sqlite3_stmt *st, int64_t *busy)
{
	int64_t w, b0, b1;
	struct mcell c;

	if (t1 <= t0)
		return 0;
	if (level < t->lod_level) {
		if (model_frame_events(m, t, t0, t1 - t0, 1, &c))
			return -1;
		*busy += c.busy;
		return 0;
	}
	w = lod_width(level);
	b0 = lod_floor_shift(t0 + w - 1, 2 * level);
	b1 = lod_floor_shift(t1, 2 * level);
	if (b1 <= b0)
		return busy_at(m, t, t0, t1, level - 1, st, busy);
	sqlite3_bind_int64(st, 1, t->id);
	sqlite3_bind_int(st, 2, level);
	sqlite3_bind_int64(st, 3, b0);
	sqlite3_bind_int64(st, 4, b1);
	if (sqlite3_step(st) == SQLITE_ROW)
		*busy += sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return busy_at(m, t, t0, b0 * w, level - 1, st, busy) ||
	       busy_at(m, t, b1 * w, t1, level - 1, st, busy) ? -1 : 0;
}

int busy_track(struct model *m, const struct mtrack *t, int64_t t0,
	       int64_t t1, int64_t *busy)
{
	int64_t span = NX_MAX(t->max_ts - t->min_ts, 1);
	sqlite3_stmt *st;
	int level, rc;

	*busy = 0;
	if (t1 <= t0 || t->is_counter)
		return 0;
	if (t->lod_level < 0) {
		struct mcell c;

		rc = model_frame_events(m, t, t0, t1 - t0, 1, &c);
		*busy = c.busy;
		return rc;
	}
	/* start with about 64 buckets in the range */
	level = lod_level_for((t1 - t0) / 64 + 1);
	level = NX_MIN(level, NX_MAX(lod_level_for(span), t->lod_level));
	st = prep(m, "SELECT coalesce(sum(busy), 0) FROM lod WHERE track_id = ?"
		  " AND level = ? AND bucket >= ? AND bucket < ?");
	if (!st)
		return -1;
	rc = busy_at(m, t, t0, t1, level, st, busy);
	sqlite3_finalize(st);
	return rc;
}
