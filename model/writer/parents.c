/* The parent of each nested slice whose depth the importer gave (from
 * its own stack of begin/end events; finish_depths() sets both on rows
 * that nest by time) on the rows whose parents were not found as their
 * slices came (writer.c): the slice one level up on the same row that
 * was open when it began. Reading a row's slices by start (the
 * shallower first on equal starts), the enclosing slice is the last one
 * read at depth - 1. Each depth is read in order from the slice index
 * and the depths are merged, so the pass reads nothing twice. The
 * parents found are written in batches sorted by slice id, so that the
 * small page cache of the finishing passes meets each page of the
 * table once a batch rather than once per row or track. */
#include "config.h"

#include "model/writer/writer_int.h"

#include <stdlib.h>
#include <string.h>

#include "model/cache/db.h"
#include "model/util.h"

/* Deeper rows are read sorted by SQLite instead of merged. */
#define PARENT_MERGE 32
/* Parents written at a time: 16 MB. */
#define PARENT_BATCH (1 << 20)

struct pset {
	int64_t id, parent;
};

struct pcursors {
	sqlite3_stmt *depth[PARENT_MERGE + 1], *sorted, *upd;
	struct pset *batch;
	size_t n, cap;
};

static int pc_open(sqlite3 *db, struct pcursors *c)
{
	int rc = 0;

	for (int d = 0; d <= PARENT_MERGE && !rc; d++)
		rc = sqlite3_prepare_v2(db, "SELECT id, ts, depth FROM slice"
					" WHERE track_id=?1 AND depth=?2 ORDER BY ts",
					-1, &c->depth[d], NULL) != SQLITE_OK;
	if (!rc)
		rc = sqlite3_prepare_v2(db, "SELECT id, ts, depth FROM slice"
					" WHERE track_id=?1 ORDER BY ts, depth, dur",
					-1, &c->sorted, NULL) != SQLITE_OK;
	if (!rc)
		rc = sqlite3_prepare_v2(db, "UPDATE slice SET parent_id=?"
					" WHERE id=?", -1, &c->upd, NULL) != SQLITE_OK;
	return rc ? -1 : 0;
}

static void pc_close(struct pcursors *c)
{
	for (int d = 0; d <= PARENT_MERGE; d++)
		sqlite3_finalize(c->depth[d]);
	sqlite3_finalize(c->sorted);
	sqlite3_finalize(c->upd);
	free(c->batch);
}

/* The cursor with the earliest start (the shallowest on a tie); -1 at
 * the end. */
static int pc_next(sqlite3_stmt **cur, const int *live, int n)
{
	int best = -1;

	for (int i = 0; i < n; i++) {
		if (live[i] && (best < 0 || sqlite3_column_int64(cur[i], 1) <
				sqlite3_column_int64(cur[best], 1)))
			best = i;
	}
	return best;
}

static int cmp_pset(const void *a, const void *b)
{
	const struct pset *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* Writes the batch, by slice id. */
static int flush_parents(struct pcursors *c)
{
	int rc = SQLITE_DONE;

	if (c->n > 1)	/* batch is NULL before the first */
		qsort(c->batch, c->n, sizeof(*c->batch), cmp_pset);
	for (size_t i = 0; i < c->n && rc == SQLITE_DONE; i++) {
		sqlite3_bind_int64(c->upd, 1, c->batch[i].parent);
		sqlite3_bind_int64(c->upd, 2, c->batch[i].id);
		rc = sqlite3_step(c->upd);
		sqlite3_reset(c->upd);
	}
	c->n = 0;
	return rc == SQLITE_DONE ? 0 : -1;
}

static int set_parent(struct pcursors *c, int64_t id, int64_t parent)
{
	c->batch = xgrow(c->batch, &c->cap, c->n + 1, sizeof(*c->batch));
	c->batch[c->n++] = (struct pset){ id, parent };
	return c->n < PARENT_BATCH ? 0 : flush_parents(c);
}

static int track_parents(struct pcursors *c, int64_t track, int max_depth)
{
	sqlite3_stmt *cur[PARENT_MERGE + 1];
	int live[PARENT_MERGE + 1], n = 0, i, rc = 0;
	int64_t last[WRITER_MAX_DEPTH + 1] = { 0 };

	if (max_depth > PARENT_MERGE) {
		cur[n++] = c->sorted;
		sqlite3_bind_int64(c->sorted, 1, track);
	} else {
		for (int d = 0; d <= max_depth; d++) {
			cur[n++] = c->depth[d];
			sqlite3_bind_int64(c->depth[d], 1, track);
			sqlite3_bind_int(c->depth[d], 2, d);
		}
	}
	for (i = 0; i < n; i++)
		live[i] = sqlite3_step(cur[i]) == SQLITE_ROW;
	while (!rc && (i = pc_next(cur, live, n)) >= 0) {
		int64_t id = sqlite3_column_int64(cur[i], 0);
		int d = sqlite3_column_int(cur[i], 2);

		if (d < 0 || d > WRITER_MAX_DEPTH)
			d = WRITER_MAX_DEPTH;
		if (d && last[d - 1])
			rc = set_parent(c, id, last[d - 1]);
		last[d] = id;
		live[i] = sqlite3_step(cur[i]) == SQLITE_ROW;
	}
	for (i = 0; i < n; i++)
		sqlite3_reset(cur[i]);
	return rc;
}

int finish_parents(sqlite3 *db, const struct wtrack *tracks, int64_t base,
		   int64_t ntracks)
{
	struct pcursors c;
	int rc;

	memset(&c, 0, sizeof(c));
	rc = pc_open(db, &c);
	for (int64_t id = 1; id <= ntracks && !rc; id++) {
		const struct wtrack *t = &tracks[id];

		if (!t->is_counter && !nests_by_time(t) && t->max_depth > 0 &&
		    t->parents_pass)
			rc = track_parents(&c, base + id, t->max_depth);
	}
	if (!rc)
		rc = flush_parents(&c);
	pc_close(&c);
	return rc ? db_fail(db, "parents") : 0;
}
