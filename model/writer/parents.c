/* The parent of each nested slice, after the depths are final: the slice
 * one level up on the same row that was open when it began. Depths come
 * from time containment (finish_depths) or from the importer's own stack
 * (begin/end events); either way the enclosing slice is the one at
 * depth - 1 that started last at or before the child, and among equal
 * starts the one the nesting pass met last (shortest, then latest id). */
#include "config.h"

#include "model/writer/writer_int.h"

#include "model/db.h"

static const char parents_sql[] =
	"UPDATE slice SET parent_id=(SELECT p.id FROM slice p"
	" WHERE p.track_id=slice.track_id AND p.depth=slice.depth-1"
	" AND p.ts=(SELECT max(q.ts) FROM slice q WHERE q.track_id=slice.track_id"
	" AND q.depth=slice.depth-1 AND q.ts<=slice.ts)"
	" ORDER BY p.dur, p.id DESC LIMIT 1)"
	" WHERE track_id=?1 AND depth BETWEEN 1 AND ?2";

int finish_parents(sqlite3 *db, const struct wtrack *tracks, int64_t base,
		   int64_t ntracks)
{
	sqlite3_stmt *upd;
	int rc = SQLITE_DONE;

	if (sqlite3_prepare_v2(db, parents_sql, -1, &upd, NULL) != SQLITE_OK)
		return db_fail(db, "parents");
	for (int64_t id = 1; id <= ntracks && rc == SQLITE_DONE; id++) {
		if (tracks[id].is_counter || tracks[id].max_depth < 1)
			continue;
		sqlite3_bind_int64(upd, 1, base + id);
		sqlite3_bind_int(upd, 2, tracks[id].max_depth);
		rc = sqlite3_step(upd);
		sqlite3_reset(upd);
	}
	sqlite3_finalize(upd);
	return rc == SQLITE_DONE ? 0 : db_fail(db, "parents");
}
