/* Cache location, reuse and rebuild: a fresh cache is reused, a changed
 * source or another schema version is rebuilt, a truncated or foreign
 * file is never taken as complete. */
#include "config.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/cache/cache.h"
#include "model/cache/db.h"
#include "model/cache/schema.h"
#include "model/util.h"
#include "src/import/import.h"
#include "src/cli/open.h"
#include "tests/testutil.h"

static const char doc[] =
	"{\"instruction\":[{\"timestamp\":1,\"duration\":2,\"label\":\"Sync\","
	"\"opcode\":\"WRITE\"}]}";

static void test_path_beside(void **state)
{
	char *p;

	(void)state;
	p = cache_path_for("/tmp/some/profile.json");
	(void)p;
	free(p);
	p = cache_path_for(tu_write("beside.json", doc, strlen(doc)));
	assert_non_null(strstr(p, "/beside.json.nxdb"));
	assert_int_equal(strncmp(p, tu_dir(), strlen(tu_dir())), 0);
	free(p);
	p = cache_path_for("dir/");
	assert_string_equal(p, "dir.nxdb");
	free(p);
}

/* An input in a folder we cannot write to gets its cache under
 * $XDG_CACHE_HOME/nxtop. */
static void test_path_xdg(void **state)
{
	char *xdg = xasprintf("%s/xdg", tu_dir());
	char *p;

	(void)state;
	setenv("XDG_CACHE_HOME", xdg, 1);
	p = cache_path_for("/proc/version");
	assert_int_equal(strncmp(p, xdg, strlen(xdg)), 0);
	assert_non_null(strstr(p, "/nxtop/version-"));
	assert_non_null(strstr(p, ".nxdb"));
	free(p);
	free(xdg);
	unsetenv("XDG_CACHE_HOME");
}

static void set_user_version(const char *cache, int v)
{
	sqlite3 *db;
	char sql[64];

	assert_int_equal(sqlite3_open(cache, &db), SQLITE_OK);
	snprintf(sql, sizeof(sql), "PRAGMA user_version=%d", v);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static enum cache_state state_of(const char *cache, const char *input)
{
	char *why = NULL;
	enum cache_state st = cache_check(cache, input, &why);

	free(why);
	return st;
}

static void test_reuse_and_rebuild(void **state)
{
	struct import_opts o = { .quiet = 1 };
	char *input = xstrdup(tu_write("reuse.json", doc, strlen(doc)));
	char *cache = NULL, *again = NULL;
	struct stat a, b;

	(void)state;
	assert_int_equal(open_profile(input, &o, &cache), 0);
	assert_int_equal(state_of(cache, input), CACHE_FRESH);
	assert_int_equal(stat(cache, &a), 0);
	/* unchanged source: the same file is reused */
	assert_int_equal(open_profile(input, &o, &again), 0);
	assert_int_equal(stat(again, &b), 0);
	assert_int_equal(a.st_ino, b.st_ino);
	free(again);
	/* changed source: rebuilt */
	tu_write("reuse.json", doc, strlen(doc) - 2);
	assert_int_equal(state_of(cache, input), CACHE_STALE);
	assert_int_not_equal(open_profile(input, &o, &again), 0);
	tu_write("reuse.json", doc, strlen(doc));
	assert_int_equal(open_profile(input, &o, &again), 0);
	assert_int_equal(stat(again, &b), 0);
	assert_int_not_equal(a.st_ino, b.st_ino);
	free(again);
	/* another schema version: rebuilt */
	set_user_version(cache, SCHEMA_VERSION + 1);
	assert_int_equal(state_of(cache, input), CACHE_OTHER_VERSION);
	assert_int_equal(open_profile(input, &o, &again), 0);
	assert_int_equal(state_of(cache, input), CACHE_FRESH);
	free(again);
	free(cache);
	free(input);
}

static void test_broken(void **state)
{
	struct import_opts o = { .quiet = 1 };
	char *input = xstrdup(tu_write("broken.json", doc, strlen(doc)));
	char *cache = NULL, *again = NULL;
	FILE *f;

	(void)state;
	assert_int_equal(open_profile(input, &o, &cache), 0);
	/* truncated to its header page */
	assert_int_equal(truncate(cache, 100), 0);
	assert_int_equal(state_of(cache, input), CACHE_BROKEN);
	assert_int_equal(open_profile(input, &o, &again), 0);
	assert_int_equal(state_of(cache, input), CACHE_FRESH);
	free(again);
	/* not SQLite at all */
	f = fopen(cache, "w");
	fputs("garbage", f);
	fclose(f);
	assert_int_equal(state_of(cache, input), CACHE_BROKEN);
	assert_int_equal(open_profile(input, &o, &again), 0);
	assert_int_equal(state_of(cache, input), CACHE_FRESH);
	free(again);
	free(cache);
	free(input);
}

/* What the rebuild note says: a newer schema, a cache cut short (from
 * its header, before SQLite reads it), one grown. */
static void test_why(void **state)
{
	struct import_opts o = { .quiet = 1 };
	char *input = xstrdup(tu_write("why.json", doc, strlen(doc)));
	char *cache = NULL, *why = NULL, *want;
	struct stat sb;

	(void)state;
	assert_int_equal(open_profile(input, &o, &cache), 0);
	set_user_version(cache, 99);
	assert_int_equal(cache_check(cache, input, &why), CACHE_OTHER_VERSION);
	want = xasprintf("schema version 99, newer than this nxtop's %d",
			 SCHEMA_VERSION);
	assert_string_equal(why, want);
	free(want);
	free(why);
	set_user_version(cache, SCHEMA_VERSION);
	assert_int_equal(stat(cache, &sb), 0);
	assert_int_equal(truncate(cache, sb.st_size - 8192), 0);
	assert_int_equal(cache_check(cache, input, &why), CACHE_BROKEN);
	assert_string_equal(why, "damaged: cut short or grown");
	free(why);
	assert_int_equal(truncate(cache, sb.st_size + 1), 0);
	assert_int_equal(cache_check(cache, input, &why), CACHE_BROKEN);
	assert_string_equal(why, "damaged: cut short or grown");
	free(why);
	free(cache);
	free(input);
}

/* Temporary files of imports that died (no lock held) are removed by
 * the next build: a dead cache's, a part of it, one caught being made;
 * one a live import holds, one that is not an SQLite file (not ours to
 * judge) and a link are left alone. */
static void test_stale_temp(void **state)
{
	static const char head[] = "SQLite format 3";
	struct import_opts o = { .quiet = 1, .force = 1 };
	char *input = xstrdup(tu_write("tmp.json", doc, strlen(doc)));
	char *dead = xstrdup(tu_write("nxtop-Dead0001.tmp", head, 16));
	char *part = xstrdup(tu_write("nxtop-Dead0001.tmp-Part0001", head, 16));
	char *held = xstrdup(tu_write("nxtop-Held0001.tmp", head, 16));
	char *held_part = xstrdup(tu_write("nxtop-Held0001.tmp-Part0002",
					   head, 16));
	char *other = xstrdup(tu_write("nxtop-Text0001.tmp", "notes", 5));
	char *link = xasprintf("%s/nxtop-Link0001.tmp", tu_dir());
	char *out = NULL;
	int fd = open(held, O_RDONLY);

	(void)state;
	assert_int_equal(flock(fd, LOCK_EX), 0);
	assert_int_equal(symlink(dead, link), 0);
	assert_int_equal(open_profile(input, &o, &out), 0);
	assert_int_not_equal(access(dead, F_OK), 0);
	assert_int_not_equal(access(part, F_OK), 0);
	assert_int_equal(access(held, F_OK), 0);
	assert_int_equal(access(held_part, F_OK), 0);
	assert_int_equal(access(other, F_OK), 0);
	assert_int_equal(faccessat(AT_FDCWD, link, F_OK, AT_SYMLINK_NOFOLLOW), 0);
	/* once its import is gone, it goes too */
	close(fd);
	import_remove_stale(out);
	assert_int_not_equal(access(held, F_OK), 0);
	assert_int_not_equal(access(held_part, F_OK), 0);
	unlink(other);
	unlink(link);
	free(out);
	free(link);
	free(other);
	free(held_part);
	free(held);
	free(part);
	free(dead);
	free(input);
}

/* Whether a lock is held on the bytes of a file that SQLite's readers
 * lock (its PENDING, RESERVED and SHARED bytes at 1 GiB), asked through
 * fd, a descriptor of the file kept open meanwhile (closing one would
 * drop this process's locks): an open file description lock conflicts
 * with the process's own record locks too, so no other process need
 * ask. */
static int reader_locked(int fd)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET,
			    .l_start = 0x40000000, .l_len = 512 };

	assert_int_equal(fcntl(fd, F_OFD_GETLK, &fl), 0);
	return fl.l_type != F_UNLCK;
}

/* A cache in WAL mode that a connection of this process reads keeps the
 * lock that tells other processes so while nxtop checks it again (as a
 * viewer does while it imports device profiles into it). Closing any
 * descriptor of a file drops every lock the process holds on it: the
 * header read with open() and close() let another nxtop, closing its
 * own connection, take the cache for unused and delete its -wal file,
 * and the viewer found its cache damaged. */
static void test_wal_lock_kept(void **state)
{
	struct import_opts o = { .quiet = 1 };
	char *input = xstrdup(tu_write("wal.json", doc, strlen(doc)));
	char *cache = NULL, *why = NULL;
	sqlite3 *w, *r;
	int fd;

	(void)state;
	assert_int_equal(open_profile(input, &o, &cache), 0);
	assert_int_equal(sqlite3_open(cache, &w), SQLITE_OK);
	assert_int_equal(sqlite3_exec(w, "PRAGMA journal_mode=WAL; UPDATE meta"
				      " SET value=value", NULL, NULL, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_open_v2(cache, &r, SQLITE_OPEN_READONLY, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_exec(r, "SELECT count(*) FROM meta", NULL,
				      NULL, NULL), SQLITE_OK);
	fd = open(cache, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_true(reader_locked(fd));
	assert_int_equal(cache_check(cache, input, &why), CACHE_FRESH);
	free(why);
	assert_true(reader_locked(fd));
	assert_int_equal(db_in_wal(cache), 1);
	assert_true(reader_locked(fd));
	sqlite3_close(r);
	sqlite3_close(w);
	close(fd);
	free(cache);
	free(input);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_beside),
		cmocka_unit_test(test_path_xdg),
		cmocka_unit_test(test_reuse_and_rebuild),
		cmocka_unit_test(test_broken),
		cmocka_unit_test(test_why),
		cmocka_unit_test(test_stale_temp),
		cmocka_unit_test(test_wal_lock_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
