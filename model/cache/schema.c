#include "config.h"

#include "model/cache/schema.h"

#include <stdio.h>

#include "model/cache/columns.h"
#include "model/cache/db.h"
#include "model/util.h"

/* Tables. Times are int64 nanoseconds on the owning profile's time axis;
 * names are documented for users in man/nxtop.1 (CACHE SCHEMA). The
 * typed tables come from their column tables (model/cache/columns.h). */
static const char schema_sql[] =
	"CREATE TABLE meta(key TEXT PRIMARY KEY, value) WITHOUT ROWID;\n"
	"CREATE TABLE source(id INTEGER PRIMARY KEY, profile_id INTEGER,"
	" path TEXT NOT NULL, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,"
	" ctime_ns INTEGER NOT NULL, ends_hash INTEGER NOT NULL,"
	" role TEXT NOT NULL);\n"
	"CREATE TABLE profile(id INTEGER PRIMARY KEY, parent_id INTEGER,"
	" kind TEXT NOT NULL, format TEXT NOT NULL, name TEXT NOT NULL,"
	" path TEXT, start_ns INTEGER, end_ns INTEGER,"
	" epoch INTEGER NOT NULL DEFAULT 0, nc_idx INTEGER, instance_id TEXT,"
	" instance_type TEXT, process_id TEXT, model TEXT,"
	" state TEXT NOT NULL DEFAULT 'ready', n_events INTEGER NOT NULL DEFAULT 0,"
	" active_max_ns INTEGER);\n"
	"CREATE TABLE string(id INTEGER PRIMARY KEY, str TEXT NOT NULL);\n"
	/* the typed columns a string is a value of (SU_* bits); str 0:
	 * not known, any string may be */
	"CREATE TABLE string_use(str INTEGER PRIMARY KEY,"
	" columns INTEGER NOT NULL);\n"
	"CREATE TABLE track(id INTEGER PRIMARY KEY, profile_id INTEGER NOT NULL,"
	" parent_id INTEGER, kind TEXT NOT NULL, name TEXT NOT NULL,"
	" sort_key INTEGER NOT NULL DEFAULT 0, unit TEXT,"
	" n_events INTEGER NOT NULL DEFAULT 0, max_dur INTEGER NOT NULL DEFAULT 0,"
	" max_depth INTEGER NOT NULL DEFAULT 0, min_ts INTEGER, max_ts INTEGER,"
	" busy_ns INTEGER NOT NULL DEFAULT 0, lod_level INTEGER,"
	" agg_fields INTEGER NOT NULL DEFAULT 0, agg_level INTEGER,"
	" args TEXT);\n"
	"CREATE TABLE slice(id INTEGER PRIMARY KEY, track_id INTEGER NOT NULL,"
	" ts INTEGER NOT NULL, dur INTEGER NOT NULL, name INTEGER NOT NULL,"
	" cat INTEGER, depth INTEGER NOT NULL DEFAULT 0,"
	" flags INTEGER NOT NULL DEFAULT 0, parent_id INTEGER, size INTEGER);\n"
	"CREATE INDEX slice_track ON slice(track_id, depth, ts, dur, name, cat,"
	" size);\n"
	/* kind: STAT_*; value: a string id, 0 for none */
	"CREATE TABLE track_stat(track_id INTEGER NOT NULL,"
	" kind INTEGER NOT NULL, value INTEGER NOT NULL, n INTEGER NOT NULL,"
	" total INTEGER NOT NULL, PRIMARY KEY(track_id, kind, value))"
	" WITHOUT ROWID;\n"
	"CREATE TABLE arg(slice_id INTEGER PRIMARY KEY, args TEXT NOT NULL);\n"
	"CREATE TABLE counter(track_id INTEGER NOT NULL, ts INTEGER NOT NULL,"
	" value REAL NOT NULL);\n"
	"CREATE TABLE lod(track_id INTEGER NOT NULL, level INTEGER NOT NULL,"
	" bucket INTEGER NOT NULL, n INTEGER NOT NULL, busy INTEGER NOT NULL,"
	" top_slice INTEGER, top_name INTEGER, top_cat INTEGER,"
	" PRIMARY KEY(track_id, level, bucket)) WITHOUT ROWID;\n"
	"CREATE TABLE lane_lod(track_id INTEGER NOT NULL,"
	" depth INTEGER NOT NULL, level INTEGER NOT NULL,"
	" bucket INTEGER NOT NULL, n INTEGER NOT NULL, busy INTEGER NOT NULL,"
	" top_slice INTEGER, top_name INTEGER, top_cat INTEGER,"
	" PRIMARY KEY(track_id, level, depth, bucket)) WITHOUT ROWID;\n"
	"CREATE TABLE counter_lod(track_id INTEGER NOT NULL,"
	" level INTEGER NOT NULL, bucket INTEGER NOT NULL, n INTEGER NOT NULL,"
	" vmin REAL NOT NULL, vmax REAL NOT NULL, vsum REAL NOT NULL,"
	" vlast REAL NOT NULL,"
	" PRIMARY KEY(track_id, level, bucket)) WITHOUT ROWID;\n"
	"CREATE TABLE agg(track_id INTEGER NOT NULL, field INTEGER NOT NULL,"
	" level INTEGER NOT NULL, bucket INTEGER NOT NULL,"
	" value INTEGER NOT NULL, n INTEGER NOT NULL, dur INTEGER NOT NULL,"
	" dmin INTEGER NOT NULL, dmax INTEGER NOT NULL,"
	" PRIMARY KEY(track_id, field, level, bucket, value)) WITHOUT ROWID;\n"
	/* instruction gains its other columns as they come (writer.c)
	 * and at the end (schema_complete_columns) */
	"CREATE TABLE instruction(slice_id INTEGER PRIMARY KEY);\n"
	TYPED_TABLE_DDL(dma_packet, dp, DMA_PACKET_COLUMNS)
	TYPED_TABLE_DDL(dma_transfer, dt, DMA_TRANSFER_COLUMNS)
	TYPED_TABLE_DDL(sys_event, se, SYS_EVENT_COLUMNS)
	"CREATE TABLE layer(id INTEGER PRIMARY KEY, profile_id INTEGER NOT NULL,"
	" name TEXT NOT NULL, subgraph TEXT, start_ns INTEGER NOT NULL,"
	" end_ns INTEGER NOT NULL, dur INTEGER NOT NULL,"
	" tensor_count INTEGER, tensor_time INTEGER, tensor_active INTEGER,"
	" vector_count INTEGER, vector_time INTEGER, vector_active INTEGER,"
	" scalar_count INTEGER, scalar_time INTEGER, scalar_active INTEGER,"
	" gpsimd_count INTEGER, gpsimd_time INTEGER, gpsimd_active INTEGER,"
	" sync_count INTEGER, sync_time INTEGER, sync_active INTEGER,"
	" flops INTEGER, model_flops INTEGER, mfu REAL, hfu REAL);\n"
	"CREATE TABLE active_time(profile_id INTEGER NOT NULL,"
	" engine TEXT NOT NULL, start_ns INTEGER NOT NULL,"
	" end_ns INTEGER NOT NULL, pcore_idx INTEGER);\n"
	"CREATE TABLE semaphore_update(profile_id INTEGER NOT NULL,"
	" ts INTEGER NOT NULL, sem_id TEXT NOT NULL, value INTEGER);\n"
	"CREATE TABLE info(profile_id INTEGER NOT NULL, section TEXT NOT NULL,"
	" idx INTEGER NOT NULL, key TEXT NOT NULL, value,"
	" PRIMARY KEY(profile_id, section, idx, key)) WITHOUT ROWID;\n"
	"CREATE TABLE warning(id INTEGER PRIMARY KEY, profile_id INTEGER,"
	" origin TEXT NOT NULL, category TEXT, message TEXT NOT NULL);\n"
	"CREATE TABLE flow(id INTEGER PRIMARY KEY, flow_id,"
	" slice_out INTEGER, slice_in INTEGER, kind TEXT,"
	" exact INTEGER NOT NULL DEFAULT 1);\n"
	/* where the timeline draws a flow's ends: a leaving flow at its
	 * slice's last ns (dir 0), an entering one at its start (dir 1) */
	"CREATE TABLE flow_mark(track_id INTEGER NOT NULL, ts INTEGER NOT NULL,"
	" slice_id INTEGER NOT NULL, dir INTEGER NOT NULL,"
	" depth INTEGER NOT NULL,"
	" PRIMARY KEY(track_id, ts, slice_id, dir)) WITHOUT ROWID;\n";

const char *const schema_indexes[SCHEMA_INDEXES] = {
	/* first: the finishing pass reads counters through it */
	"CREATE INDEX counter_track_ts ON counter(track_id, ts, value)",
	"CREATE INDEX string_str ON string(str)",
	"CREATE INDEX track_profile ON track(profile_id, sort_key)",
	"CREATE INDEX layer_profile ON layer(profile_id, start_ns)",
	"CREATE INDEX flow_out ON flow(slice_out)",
	"CREATE INDEX flow_in ON flow(slice_in)",
	/* a slice's children: count and total from the index alone */
	"CREATE INDEX slice_parent ON slice(parent_id, ts, dur)"
	" WHERE parent_id IS NOT NULL",
	/* a range's ActiveTime rows: those starting in it, and before it
	 * by up to the profile's longest (profile.active_max_ns) */
	"CREATE INDEX active_time_start ON active_time(profile_id, start_ns,"
	" end_ns, engine, pcore_idx)",
};

int schema_create(sqlite3 *db)
{
	char pragma[64];

	if (db_exec(db, schema_sql))
		return -1;
	snprintf(pragma, sizeof(pragma), "PRAGMA user_version=%d;",
		 SCHEMA_VERSION);
	return db_exec(db, pragma);
}

/* The instruction columns, in the column table's order. */
#define INSTR_ADD(col, kind, member, group, label, field) \
	{ #col, "ALTER TABLE instruction ADD COLUMN " #col COL_SQL_##kind },
static const struct {
	const char *name, *sql;
} instr_add[] = { INSTRUCTION_COLUMNS(INSTR_ADD) };

int schema_complete_columns(sqlite3 *db)
{
	sqlite3_stmt *st;
	int rc = 0;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM pragma_table_info('instruction')"
			       " WHERE name = ?", -1, &st, NULL) != SQLITE_OK)
		return db_fail(db, "prepare");
	for (size_t i = 0; !rc && i < NX_ARRAY_SIZE(instr_add); i++) {
		int have;

		sqlite3_bind_text(st, 1, instr_add[i].name, -1, SQLITE_STATIC);
		have = sqlite3_step(st) == SQLITE_ROW;
		sqlite3_reset(st);
		if (!have)
			rc = db_exec(db, instr_add[i].sql);
	}
	sqlite3_finalize(st);
	return rc;
}

const char *schema_add_column_sql(int col)
{
	return instr_add[col].sql;
}

int schema_depths(sqlite3 *db)
{
	return db_exec(db, "CREATE TEMP TABLE IF NOT EXISTS nx_depths(d INTEGER"
		       " PRIMARY KEY); WITH RECURSIVE c(d) AS (SELECT 0 UNION ALL"
		       " SELECT d + 1 FROM c WHERE d < 255) INSERT OR IGNORE INTO"
		       " temp.nx_depths SELECT d FROM c;");
}

int schema_create_indexes(sqlite3 *db)
{
	int rc = 0;

	for (int i = 0; i < SCHEMA_INDEXES && !rc; i++)
		rc = db_exec(db, schema_indexes[i]);
	return rc;
}
