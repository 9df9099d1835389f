/* Rows of part caches joining a cache: before it is finished (parts
 * imported side by side), or after (device profiles imported while the
 * viewer reads the cache). */
#include "config.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "model/cache/cache.h"
#include "model/cache/db.h"
#include "model/file.h"
#include "model/util.h"
#include "model/writer/writer.h"
#include "model/writer/writer_int.h"

/* How long a merge waits for readers of the cache to let it write. */
#define MERGE_BUSY_MS 10000

/* Tables whose ids no other table refers to: merged rows get new ids. */
static const char *const renumbered[] = { "flow", "layer", "source",
					  "warning" };

static int merge_table(sqlite3 *db, const char *table)
{
	struct strbuf cols, sql;
	sqlite3_stmt *st;
	int renumber = 0, rc;

	for (size_t i = 0; i < NX_ARRAY_SIZE(renumbered); i++)
		renumber |= !strcmp(table, renumbered[i]);
	sb_init(&cols);
	sb_init(&sql);
	sb_printf(&sql, "PRAGMA part.table_info(\"%s\")", table);
	if (sqlite3_prepare_v2(db, sb_cstr(&sql), -1, &st, NULL) != SQLITE_OK) {
		sb_free(&sql);
		return db_fail(db, "merge");
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *c = (const char *)sqlite3_column_text(st, 1);

		if (!c || (renumber && !strcmp(c, "id")))
			continue;
		sb_printf(&cols, "%s\"%s\"", cols.len ? "," : "", c);
	}
	sqlite3_finalize(st);
	sb_reset(&sql);
	sb_printf(&sql, "INSERT INTO main.\"%s\"(%s) SELECT %s FROM part.\"%s\"",
		  table, sb_cstr(&cols), sb_cstr(&cols), table);
	rc = db_exec(db, sb_cstr(&sql));
	sb_free(&cols);
	sb_free(&sql);
	return rc;
}

int writer_merge_tables(sqlite3 *db)
{
	sqlite3_stmt *st;
	int rc = 0;

	if (sqlite3_prepare_v2(db, "SELECT name FROM part.sqlite_master"
			       " WHERE type='table' AND name NOT LIKE 'sqlite_%'"
			       " AND name<>'meta'", -1, &st, NULL) != SQLITE_OK)
		return db_fail(db, "merge");
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		char *t = xstrdup((const char *)sqlite3_column_text(st, 0));

		rc = merge_table(db, t);
		free(t);
	}
	sqlite3_finalize(st);
	return rc;
}

/* The finished cache at path, to write; NULL with err_get() set. */
static sqlite3 *open_rw(const char *path)
{
	char *real = file_real_dir(path);
	sqlite3 *db = NULL;
	int rc = sqlite3_open_v2(real, &db, SQLITE_OPEN_READWRITE |
				 SQLITE_OPEN_NOFOLLOW, NULL);

	free(real);
	if (rc != SQLITE_OK) {
		db_fail(db, "open");
		sqlite3_close(db);
		return NULL;
	}
	sqlite3_busy_timeout(db, MERGE_BUSY_MS);
	return db;
}

int writer_wal(const char *path)
{
	sqlite3 *db = open_rw(path);
	int rc;

	if (!db)
		return -1;
	rc = db_exec(db, "PRAGMA journal_mode=WAL");
	sqlite3_close(db);
	return rc;
}

/* How long going back to rollback-journal mode waits for other users. */
#define SETTLE_BUSY_MS 200

int writer_settle(const char *path)
{
	sqlite3 *db;
	int64_t queued = 1;
	sqlite3_stmt *st;
	int rc;

	if (!db_in_wal(path) || !db_dir_writable(path) || !(db = open_rw(path)))
		return 0;
	sqlite3_busy_timeout(db, SETTLE_BUSY_MS);
	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM profile WHERE"
			       " state='queued'", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		queued = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	/* fails while another nxtop reads it: the last one to go does it */
	rc = sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL,
			  NULL) == SQLITE_OK && !queued &&
	     sqlite3_exec(db, "PRAGMA journal_mode=DELETE", NULL, NULL,
			  NULL) == SQLITE_OK;
	sqlite3_close(db);
	return rc && !db_in_wal(path);
}

/* 1 if profile is still queued (another nxtop may have imported it). */
static int still_queued(sqlite3 *db, int64_t profile)
{
	sqlite3_stmt *st;
	int rc = 0;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM profile WHERE id=?1 AND"
			       " state='queued'", -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_int64(st, 1, profile);
	rc = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return rc;
}

/* Runs sql with ?1 bound to profile. */
static int exec_for(sqlite3 *db, const char *sql, int64_t profile)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return db_fail(db, "merge");
	sqlite3_bind_int64(st, 1, profile);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : db_fail(db, "merge");
	sqlite3_finalize(st);
	return rc;
}

int writer_merge_finished(const char *cache, const char *part,
			  int64_t profile)
{
	sqlite3 *db = open_rw(cache);
	char *sql, *real;
	int rc;

	if (!db)
		return -1;
	real = file_real_dir(part);
	sql = sqlite3_mprintf("ATTACH %Q AS part", real);
	free(real);
	rc = db_exec(db, sql);
	sqlite3_free(sql);
	/* the queued row, its sources and warnings give way to the part's,
	 * all in one commit: readers see all of it or none */
	if (!rc && !(rc = db_exec(db, "BEGIN IMMEDIATE")) &&
	    !still_queued(db, profile)) {
		rc = db_exec(db, "COMMIT");
	} else if (!rc) {
		rc = exec_for(db, "DELETE FROM warning WHERE profile_id=?1", profile) ||
		     exec_for(db, "DELETE FROM source WHERE profile_id=?1", profile) ||
		     exec_for(db, "DELETE FROM profile WHERE id=?1", profile) ||
		     writer_merge_tables(db) ? -1 : 0;
		rc = rc ? -1 : db_exec(db, "COMMIT");
		if (rc)
			sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	}
	sqlite3_close(db);
	return rc;
}

int writer_fail_queued(const char *cache, int64_t profile,
		       const char *message, int retry)
{
	sqlite3 *db = open_rw(cache);
	sqlite3_stmt *st = NULL;
	int rc;

	if (!db)
		return -1;
	rc = db_exec(db, "BEGIN IMMEDIATE");
	if (!rc && !still_queued(db, profile)) {
		sqlite3_close(db);
		return 0;
	}
	if (!rc && sqlite3_prepare_v2(db, "INSERT INTO warning(profile_id,"
				      " origin, category, message) SELECT"
				      " parent_id, 'bundle', 'Device profile', ?2"
				      " FROM profile WHERE id=?1", -1, &st,
				      NULL) != SQLITE_OK)
		rc = db_fail(db, "warning");
	if (!rc) {
		sqlite3_bind_int64(st, 1, profile);
		sqlite3_bind_text(st, 2, message, -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = db_fail(db, "warning");
	}
	sqlite3_finalize(st);
	if (!rc)
		rc = exec_for(db, "UPDATE profile SET state='failed' WHERE id=?1",
			      profile);
	if (!rc && retry)
		rc = db_exec(db, "INSERT OR REPLACE INTO meta VALUES('"
			     CACHE_META_RETRY "', 1)");
	rc = rc ? -1 : db_exec(db, "COMMIT");
	if (rc)
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(db);
	return rc;
}

int writer_queued(const char *path, struct wqueued **out, size_t *n)
{
	char *real = file_real_dir(path);
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int rc = db_open_read(real, SQLITE_OPEN_NOFOLLOW, &db);

	free(real);
	*out = NULL;
	*n = 0;
	if (rc) {
		err_set("%s: %s", path, err_get());
		return -1;
	}
	if (sqlite3_prepare_v2(db,
		"SELECT p.id, p.parent_id, coalesce(p.nc_idx, -1), p.path, s.path,"
		" p.instance_id, p.process_id, p.model,"
		" p.format = 'neuron-parquet' FROM profile p JOIN source s"
		" ON s.profile_id = p.id AND s.role = 'device'"
		" WHERE p.state = 'queued' AND p.path IS NOT NULL ORDER BY p.id",
		-1, &st, NULL) != SQLITE_OK) {
		rc = db_fail(db, "queued device profiles");
		sqlite3_close(db);
		return rc;
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct wqueued *q;

		*out = xgrow(*out, &cap, *n + 1, sizeof(**out));
		q = &(*out)[(*n)++];
		q->profile = sqlite3_column_int64(st, 0);
		q->parent = sqlite3_column_int64(st, 1);
		q->nc_idx = sqlite3_column_int64(st, 2);
		q->file = db_col_dup(st, 3);
		q->path = db_col_dup(st, 4);
		q->instance_id = db_col_dup(st, 5);
		q->process_id = db_col_dup(st, 6);
		q->model = db_col_dup(st, 7);
		q->folders = sqlite3_column_int(st, 8);
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	return 0;
}

void writer_queued_free(struct wqueued *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].file);
		free(v[i].path);
		free(v[i].instance_id);
		free(v[i].process_id);
		free(v[i].model);
	}
	free(v);
}
