#include "config.h"

#include "tests/testutil.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/util.h"
#include "src/import/import.h"

static char dir[512];

const char *tu_dir(void)
{
	if (!dir[0]) {
		const char *tmp = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%s/nxtop-test-XXXXXX",
			 tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(dir))
			fail_msg("mkdtemp failed");
	}
	return dir;
}

char *tu_write(const char *name, const char *text, size_t len)
{
	static char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tu_dir(), name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
	return path;
}

char *tu_import(const char *path)
{
	struct import_opts o = { .quiet = 1 };
	char *cache = xasprintf("%s/%s.nxdb", tu_dir(),
				strrchr(path, '/') ? strrchr(path, '/') + 1 : path);

	unlink(cache);
	if (import_build(path, cache, &o)) {
		free(cache);
		return NULL;
	}
	return cache;
}

char *tu_fixture(const char *name)
{
	const char *src = getenv("srcdir");

	return xasprintf("%s/tests/fixtures/%s", src && *src ? src : ".", name);
}

int64_t tu_query_int(const char *cache, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int64_t v = INT64_MIN;

	assert_int_equal(sqlite3_open_v2(cache, &db, SQLITE_OPEN_READONLY, NULL),
			 SQLITE_OK);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

char *tu_query_text(const char *cache, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	char *v = NULL;

	assert_int_equal(sqlite3_open_v2(cache, &db, SQLITE_OPEN_READONLY, NULL),
			 SQLITE_OK);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		v = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}
