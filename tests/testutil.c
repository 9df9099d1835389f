#include "config.h"

#include "tests/testutil.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/model.h"
#include "model/search.h"
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

char *tu_read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	struct strbuf sb;
	char buf[4096];
	size_t n;

	if (!f)
		return NULL;
	sb_init(&sb);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sb_add(&sb, buf, n);
	fclose(f);
	return sb_detach(&sb);
}

char *tu_read_man(void)
{
	const char *src = getenv("srcdir");
	char *path = xasprintf("%s/man/nxtop.1", src && *src ? src : ".");
	char *man = tu_read_file(path);

	if (!man)
		fail_msg("cannot read %s", path);
	free(path);
	return man;
}

int64_t tu_search_count(struct model *m, int64_t profile, const char *q)
{
	struct mtrack *t;
	size_t n;
	struct search_stats st;
	char *err = NULL;
	struct search *s = search_new(m, profile, q, &err);
	int64_t c;

	if (!s)
		fail_msg("%s: %s", q, err);
	model_tracks(m, profile, &t, &n);
	assert_int_equal(search_stats(s, t, n, INT64_MIN / 2, INT64_MAX / 2,
				      &st), 0);
	c = st.count;
	search_stats_free(&st);
	model_tracks_free(t, n);
	search_free(s);
	return c;
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
