/* Per-row totals for the profile summary (the track_stat table),
 * counted as the events are written: a summary of ten million events
 * then reads a few rows instead of joining every event to its typed
 * row. */
#include "config.h"

#include "model/writer/writer_int.h"

#include <stdio.h>

#include "model/cache/db.h"
#include "model/cache/schema.h"
#include "model/util.h"

/* A row keeps this many values of one kind; past them its totals are
 * counted from the tables at the end. */
#define STAT_VALUES_MAX 256

int stat_add(struct wtrack *t, int kind, int64_t value, int64_t total)
{
	struct wstat *s = t->stat_hit < t->nstats ? &t->stats[t->stat_hit] :
		NULL;

	if (!s || s->kind != kind || s->value != value) {
		size_t i = 0;

		while (i < t->nstats && (t->stats[i].kind != kind ||
					 t->stats[i].value != value))
			i++;
		if (i == t->nstats) {
			if (i == STAT_VALUES_MAX)
				return -1;
			t->stats = xgrow(t->stats, &t->capstats, i + 1,
					 sizeof(*t->stats));
			t->stats[t->nstats++] = (struct wstat){ kind, value,
								0, 0 };
		}
		t->stat_hit = i;
		s = &t->stats[i];
	}
	s->n++;
	if (total > 0)
		s->total = sat_add(s->total, total);
	return 0;
}

/* Each typed kind's table, the column its value is and what it totals,
 * in STAT_* order from STAT_INSTR. */
static const struct {
	const char *table, *value, *total;
} recounted[] = {
	{ "instruction", "subgroup", "sl.dur" },
	{ "dma_packet", "queue_type", "max(x.transfer_size, 0)" },
	{ "dma_transfer", "queue_type", "max(x.transfer_size, 0)" },
};

/* The typed kinds' totals of slices (base, last] from their tables. */
static int recount(sqlite3 *db, int64_t base, int64_t last)
{
	char sql[512];

	for (int k = 0; k < (int)NX_ARRAY_SIZE(recounted); k++) {
		snprintf(sql, sizeof(sql), "INSERT INTO track_stat SELECT"
			 " sl.track_id, %d, coalesce(x.%s, 0), count(*),"
			 " coalesce(sum(%s), 0) FROM %s x JOIN slice sl ON"
			 " sl.id = x.slice_id WHERE x.slice_id > %lld AND"
			 " x.slice_id <= %lld GROUP BY 1, 3", STAT_INSTR + k,
			 recounted[k].value, recounted[k].total,
			 recounted[k].table, (long long)base, (long long)last);
		if (db_exec(db, sql))
			return -1;
	}
	return 0;
}

static int put(sqlite3_stmt *st, int64_t track, int kind, int64_t value,
	       int64_t n, int64_t total)
{
	sqlite3_bind_int64(st, 1, track);
	sqlite3_bind_int(st, 2, kind);
	sqlite3_bind_int64(st, 3, value);
	sqlite3_bind_int64(st, 4, n);
	sqlite3_bind_int64(st, 5, total);
	if (sqlite3_step(st) != SQLITE_DONE)
		return -1;
	sqlite3_reset(st);
	return 0;
}

int stats_write(sqlite3 *db, const struct wtrack *tracks, int64_t base,
		int64_t ntracks, int64_t last_slice, int lost)
{
	sqlite3_stmt *st;
	int rc = 0;

	if (sqlite3_prepare_v2(db, "INSERT INTO track_stat VALUES(?,?,?,?,?)",
			       -1, &st, NULL) != SQLITE_OK)
		return db_fail(db, "prepare");
	for (int64_t i = 1; i <= ntracks && !rc; i++) {
		const struct wtrack *t = &tracks[i];

		if (t->is_counter || !t->n)
			continue;
		rc = put(st, base + i, STAT_SLICES, 0, t->n, t->dur_sum);
		for (size_t k = 0; k < t->nstats && !rc && !lost; k++)
			rc = put(st, base + i, t->stats[k].kind,
				 t->stats[k].value, t->stats[k].n,
				 t->stats[k].total);
	}
	if (rc)
		db_fail(db, "track_stat");
	sqlite3_finalize(st);
	if (!rc && lost)
		rc = recount(db, base, last_slice);
	return rc;
}
