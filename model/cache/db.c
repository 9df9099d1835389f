#include "config.h"

#include "model/cache/db.h"

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "model/util.h"

int db_exec(sqlite3 *db, const char *sql)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(db, "build");
	return 0;
}

const char *db_write_cause(sqlite3 *db)
{
	int code = sqlite3_errcode(db), e = sqlite3_system_errno(db);
	int ext = sqlite3_extended_errcode(db);

	/* the cause is not always kept once SQLite has cleaned up */
	if (code != SQLITE_FULL && ext != SQLITE_IOERR_WRITE &&
	    ext != SQLITE_IOERR_FSYNC && ext != SQLITE_IOERR_TRUNCATE &&
	    ext != SQLITE_IOERR_SHMSIZE)
		return NULL;
	if (e)
		return strerror(e);
	return code == SQLITE_FULL ? "disk full" :
	       "write failed (a full disk or a file size limit?)";
}

void db_describe(sqlite3 *db, const char *what, char *buf, size_t n)
{
	const char *cause = db_write_cause(db);
	const char *file = sqlite3_db_filename(db, "main");

	/* a full disk, a quota or a file size limit: say where */
	if (cause)
		snprintf(buf, n, "cannot write the cache %s: %s", file && *file ?
			 file : "(temporary)", cause);
	else
		snprintf(buf, n, "cache: %s: %s", what, sqlite3_errmsg(db));
}

int db_fail(sqlite3 *db, const char *what)
{
	char msg[512];

	db_describe(db, what, msg, sizeof(msg));
	err_set("%s", msg);
	return -1;
}

sqlite3_stmt *db_prepare_rows(sqlite3 *db, const char *sql, int rows)
{
	const char *values = strstr(sql, "VALUES(");
	sqlite3_stmt *st = NULL;
	struct strbuf sb;

	if (!values || strchr(values, ';'))
		return NULL;
	sb_init(&sb);
	sb_add(&sb, sql, (size_t)(values - sql) + 6);
	for (int r = 0; r < rows; r++)
		sb_printf(&sb, "%s%s", r ? "," : "", values + 6);
	if (sqlite3_prepare_v2(db, sb_cstr(&sb), -1, &st, NULL) != SQLITE_OK)
		st = NULL;
	sb_free(&sb);
	return st;
}

char *db_col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s ? xstrdup((const char *)s) : NULL;
}

char *db_col_str(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return xstrdup(s ? (const char *)s : "");
}
