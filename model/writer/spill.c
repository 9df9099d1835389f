#include "config.h"

#include "model/writer/spill.h"

#include <sqlite3.h>
#include <stdlib.h>

#include "model/util.h"

struct spill {
	sqlite3 *db;
	sqlite3_stmt *ins, *sel;
	int sorted;
};

static int spill_fail(struct spill *s, const char *what)
{
	err_set("temporary sort: %s: %s", what, sqlite3_errmsg(s->db));
	return -1;
}

/* An empty file name gives a private on-disk database that SQLite
 * deletes on close; a small page cache keeps memory bounded. */
struct spill *spill_open(void)
{
	struct spill *s = xcalloc(1, sizeof(*s));

	if (sqlite3_open_v2("", &s->db, SQLITE_OPEN_READWRITE |
			    SQLITE_OPEN_CREATE, NULL) != SQLITE_OK ||
	    sqlite3_exec(s->db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
			 " PRAGMA cache_size=-16384; PRAGMA temp_store=FILE;"
			 " CREATE TABLE spill(key INTEGER, sub BLOB, ts INTEGER,"
			 " seq INTEGER, tag INTEGER, val INTEGER, t0 TEXT,"
			 " t1 TEXT, t2 TEXT, t3 TEXT); BEGIN", NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db, "INSERT INTO spill VALUES(?,?,?,?,?,?,?,?,?,?)",
			       -1, &s->ins, NULL) != SQLITE_OK) {
		spill_fail(s, "cannot create");
		spill_close(s);
		return NULL;
	}
	return s;
}

void spill_close(struct spill *s)
{
	if (!s)
		return;
	sqlite3_finalize(s->ins);
	sqlite3_finalize(s->sel);
	sqlite3_close(s->db);
	free(s);
}

int spill_add(struct spill *s, const struct spill_row *r)
{
	sqlite3_stmt *st = s->ins;
	int rc;

	sqlite3_bind_int64(st, 1, r->key);
	if (r->sub)
		sqlite3_bind_blob(st, 2, r->sub, (int)r->sublen, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 2);
	sqlite3_bind_int64(st, 3, r->ts);
	sqlite3_bind_int64(st, 4, r->seq);
	sqlite3_bind_int(st, 5, r->tag);
	sqlite3_bind_int64(st, 6, r->val);
	for (int i = 0; i < 4; i++) {
		if (r->text[i])
			sqlite3_bind_text(st, 7 + i, r->text[i], -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(st, 7 + i);
	}
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : spill_fail(s, "write");
}

int spill_sort(struct spill *s)
{
	if (sqlite3_prepare_v2(s->db, "SELECT key, sub, ts, seq, tag, val, t0,"
			       " t1, t2, t3 FROM spill ORDER BY key, sub, ts, seq",
			       -1, &s->sel, NULL) != SQLITE_OK)
		return spill_fail(s, "sort");
	s->sorted = 1;
	return 0;
}

int spill_next(struct spill *s, struct spill_row *r)
{
	sqlite3_stmt *st = s->sel;
	int rc;

	if (!s->sorted)
		return 0;
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
		return spill_fail(s, "read");
	r->key = sqlite3_column_int64(st, 0);
	r->sub = sqlite3_column_blob(st, 1);
	r->sublen = (size_t)sqlite3_column_bytes(st, 1);
	r->ts = sqlite3_column_int64(st, 2);
	r->seq = sqlite3_column_int64(st, 3);
	r->tag = sqlite3_column_int(st, 4);
	r->val = sqlite3_column_int64(st, 5);
	for (int i = 0; i < 4; i++)
		r->text[i] = (const char *)sqlite3_column_text(st, 6 + i);
	return 1;
}
