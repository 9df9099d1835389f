/* Markers are user data: they survive the process being killed right
 * after they are set, a change by another process is noticed, two
 * processes adding markers at once keep all of them, sets save and load
 * with their "diff vs" links, history and recent profiles keep the most
 * recent entries first, a store of version 1 gains the recent list and a
 * newer store keeps its version, saved views keep every field, and a store held by another process is given up on in seconds. */
#include "config.h"

#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "model/report/export.h"
#include "model/userdata.h"
#include "model/util.h"
#include "tests/testutil.h"

static char *db_path;

static int setup(void **state)
{
	(void)state;
	db_path = xasprintf("%s/data/nxtop/userdata.db", tu_dir());
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(db_path);
	return 0;
}

static void test_add_list_rename_delete(void **state)
{
	struct userdata *u = userdata_open(db_path);
	struct marker *mk;
	size_t n;
	int64_t a, b, c;

	(void)state;
	assert_non_null(u);
	assert_int_equal(marker_add(u, "p1", NULL, 500, &a), 0);
	assert_int_equal(marker_add(u, "p1", NULL, 100, &b), 0);
	assert_int_equal(marker_add(u, "p1", "end", 900, &c), 0);
	assert_int_equal(marker_add(u, "other", NULL, 1, NULL), 0);
	assert_int_equal(marker_list(u, "p1", &mk, &n), 0);
	assert_int_equal(n, 3);
	/* by time; automatic names count up */
	assert_string_equal(mk[0].name, "M2");
	assert_string_equal(mk[1].name, "M1");
	assert_string_equal(mk[2].name, "end");
	/* diff vs the previous marker by default, or the chosen one */
	assert_int_equal(export_marker_base(mk, n, 0), -1);
	assert_int_equal(export_marker_base(mk, n, 2), 1);
	marker_list_free(mk, n);
	assert_int_equal(marker_set_ref(u, c, b), 0);
	assert_int_equal(marker_rename(u, a, "middle"), 0);
	/* one name, one marker of a profile: diff-vs NAME says which */
	assert_int_not_equal(marker_rename(u, b, "end"), 0);
	assert_string_equal(err_get(), "a marker named \"end\" is there already");
	assert_int_not_equal(marker_add(u, "p1", "middle", 5, NULL), 0);
	assert_int_equal(marker_add(u, "other", "middle", 5, NULL), 0);
	assert_int_equal(marker_rename(u, a, "middle"), 0);
	assert_int_equal(marker_list(u, "p1", &mk, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(mk[0].name, "M2");
	assert_string_equal(mk[1].name, "middle");
	assert_int_equal(export_marker_base(mk, n, 2), 0);
	marker_list_free(mk, n);
	/* deleting the referenced marker falls back to "previous" */
	assert_int_equal(marker_delete(u, b), 0);
	assert_int_equal(marker_list(u, "p1", &mk, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(mk[1].ref, 0);
	marker_list_free(mk, n);
	assert_int_equal(marker_clear(u, "p1"), 0);
	assert_int_equal(marker_list(u, "p1", &mk, &n), 0);
	assert_int_equal(n, 0);
	marker_list_free(mk, n);
	assert_int_equal(marker_list(u, "other", &mk, &n), 0);
	assert_int_equal(n, 2);
	marker_list_free(mk, n);
	userdata_close(u);
}

/* A process killed with SIGKILL right after setting a marker keeps it. */
static void test_kill_after_set(void **state)
{
	pid_t pid;
	int status;
	int pipefd[2];
	char c;
	struct userdata *u;
	struct marker *mk;
	size_t n;

	(void)state;
	assert_int_equal(pipe(pipefd), 0);
	pid = fork();
	if (pid == 0) {
		struct userdata *cu = userdata_open(db_path);

		marker_add(cu, "killed", "kept", 42, NULL);
		if (write(pipefd[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	assert_int_equal(read(pipefd[0], &c, 1), 1);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	assert_true(WIFSIGNALED(status));
	u = userdata_open(db_path);
	assert_int_equal(marker_list(u, "killed", &mk, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(mk[0].name, "kept");
	assert_int_equal(mk[0].ts, 42);
	marker_list_free(mk, n);
	userdata_close(u);
	close(pipefd[0]);
	close(pipefd[1]);
}

/* A change by another connection is noticed once; one's own is not. */
static void test_changed(void **state)
{
	struct userdata *a = userdata_open(db_path), *b = userdata_open(db_path);

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	userdata_changed(a);	/* opening b wrote the schema version */
	assert_int_equal(userdata_changed(a), 0);
	assert_int_equal(marker_add(b, "changed", NULL, 7, NULL), 0);
	assert_int_equal(userdata_changed(a), 1);
	assert_int_equal(userdata_changed(a), 0);
	assert_int_equal(marker_add(a, "changed", NULL, 8, NULL), 0);
	assert_int_equal(userdata_changed(a), 0);
	assert_int_equal(userdata_changed(b), 1);
	userdata_close(a);
	userdata_close(b);
}

/* Two processes adding markers to one profile at once lose none. */
static void test_two_processes(void **state)
{
	struct userdata *u;
	struct marker *mk;
	size_t n;
	pid_t pids[2];

	(void)state;
	for (int k = 0; k < 2; k++) {
		pids[k] = fork();
		if (pids[k] == 0) {
			struct userdata *cu = userdata_open(db_path);
			int bad = !cu;

			for (int i = 0; i < 50 && !bad; i++)
				bad = marker_add(cu, "shared", NULL, k * 1000 + i,
						 NULL) != 0;
			userdata_close(cu);
			_exit(bad);
		}
	}
	for (int k = 0; k < 2; k++) {
		int status;

		waitpid(pids[k], &status, 0);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	u = userdata_open(db_path);
	assert_int_equal(marker_list(u, "shared", &mk, &n), 0);
	assert_int_equal(n, 100);
	marker_list_free(mk, n);
	userdata_close(u);
}

static void test_sets(void **state)
{
	struct userdata *u = userdata_open(db_path);
	struct marker *mk;
	char **names;
	size_t n;
	int64_t a, b;

	(void)state;
	marker_add(u, "s", "a", 10, &a);
	marker_add(u, "s", "b", 20, &b);
	marker_add(u, "s", "c", 30, NULL);
	marker_list(u, "s", &mk, &n);
	marker_set_ref(u, mk[2].id, a);
	marker_list_free(mk, n);
	assert_int_equal(marker_set_save(u, "s", "baseline"), 0);
	assert_int_equal(marker_clear(u, "s"), 0);
	marker_add(u, "s", "other", 5, NULL);
	assert_int_equal(marker_set_save(u, "s", "second"), 0);
	assert_int_equal(marker_sets(u, "s", &names, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(names[0], "baseline");
	strings_free(names, n);
	assert_int_equal(marker_set_load(u, "s", "baseline"), 0);
	assert_int_equal(marker_list(u, "s", &mk, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(mk[2].name, "c");
	/* the link survived the copy: c is diffed against a, not b */
	assert_int_equal(export_marker_base(mk, n, 2), 0);
	marker_list_free(mk, n);
	assert_int_not_equal(marker_set_load(u, "s", "nope"), 0);
	assert_non_null(strstr(err_get(), "no marker set named \"nope\""));
	assert_int_equal(marker_set_delete(u, "s", "second"), 0);
	assert_int_equal(marker_sets(u, "s", &names, &n), 0);
	assert_int_equal(n, 1);
	strings_free(names, n);
	userdata_close(u);
}

static void test_history(void **state)
{
	struct userdata *u = userdata_open(db_path);
	char **h;
	size_t n;

	(void)state;
	history_add(u, "search", "opcode=MATMUL");
	history_add(u, "search", "dur>2us");
	history_add(u, "search", "opcode=MATMUL");
	history_add(u, "command", "goto 1ms");
	assert_int_equal(history_list(u, "search", 10, &h, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(h[0], "opcode=MATMUL");
	assert_string_equal(h[1], "dur>2us");
	strings_free(h, n);
	userdata_close(u);
}

/* Opening a profile again makes it the most recent; forgetting one
 * removes it alone. */
static void test_recent(void **state)
{
	struct userdata *u = userdata_open(db_path);
	struct recent *r;
	size_t n;

	(void)state;
	assert_non_null(u);
	assert_int_equal(recent_add(u, "/p/a.json", "device", "/p/a.json.nxdb"), 0);
	assert_int_equal(recent_add(u, "/p/b", "bundle", "/p/b.nxdb"), 0);
	assert_int_equal(recent_add(u, "/p/a.json", "device", "/c/a.nxdb"), 0);
	assert_int_equal(recent_list(u, &r, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(r[0].path, "/p/a.json");
	assert_string_equal(r[0].cache, "/c/a.nxdb");
	assert_string_equal(r[1].path, "/p/b");
	assert_string_equal(r[1].kind, "bundle");
	assert_true(r[0].opened > r[1].opened);
	assert_true(r[1].opened > 1700000000 * INT64_C(1000000000));
	recent_list_free(r, n);
	assert_int_equal(recent_forget(u, "/p/a.json"), 0);
	assert_int_equal(recent_list(u, &r, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(r[0].path, "/p/b");
	recent_list_free(r, n);
	userdata_close(u);
}

static int user_version(void)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int v = -1;

	assert_int_equal(sqlite3_open(db_path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st,
					    NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

static void set_store(const char *sql)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(db_path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

/* A store from before the recent list (version 1, no table) gains it;
 * one a newer nxtop wrote keeps its number. */
static void test_recent_versions(void **state)
{
	struct userdata *u;
	struct recent *r;
	size_t n;

	(void)state;
	set_store("DROP TABLE IF EXISTS recent; PRAGMA user_version = 1");
	u = userdata_open(db_path);
	assert_non_null(u);
	assert_int_equal(recent_list(u, &r, &n), 0);
	assert_int_equal(n, 0);
	recent_list_free(r, n);
	userdata_close(u);
	assert_int_equal(user_version(), 4);
	set_store("PRAGMA user_version = 7");
	u = userdata_open(db_path);
	assert_non_null(u);
	userdata_close(u);
	assert_int_equal(user_version(), 7);
	set_store("PRAGMA user_version = 4");
}

/* Saved views: a name replaces its view, each profile has its own, the
 * list comes by name with every field as saved (64-bit times exact), a
 * view that is not there cannot be deleted; a store of version 2 (no
 * table) gains them. */
static void test_views(void **state)
{
	struct saved_view a = { .name = "b", .t0 = -5, .t1 = INT64_C(9007199254740993),
				.cur = 7, .track = 42, .folded = "3,7,",
				.lanes_folded = "", .color = 2, .lanes = 3,
				.search = "name:MATMUL" };
	struct saved_view b = { .name = "a", .t0 = 1, .t1 = 2, .cur = 1,
				.track = 1, .folded = "", .lanes_folded = "9,",
				.color = 0, .lanes = 4, .search = NULL };
	struct saved_view *v;
	struct userdata *u;
	size_t n;

	(void)state;
	set_store("DROP TABLE IF EXISTS saved_view; PRAGMA user_version = 2");
	u = userdata_open(db_path);
	assert_non_null(u);
	assert_int_equal(saved_view_put(u, "/p.json", &b), 0);
	b.t1 = 3;
	assert_int_equal(saved_view_put(u, "/p.json", &b), 0);
	assert_int_equal(saved_view_put(u, "/p.json", &a), 0);
	assert_int_equal(saved_view_put(u, "/q.json", &a), 0);
	assert_int_equal(saved_view_list(u, "/p.json", &v, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(v[0].name, "a");
	assert_int_equal(v[0].t1, 3);
	assert_string_equal(v[0].lanes_folded, "9,");
	assert_null(v[0].search);
	assert_string_equal(v[1].name, "b");
	assert_true(v[1].t0 == -5 && v[1].t1 == INT64_C(9007199254740993));
	assert_true(v[1].cur == 7 && v[1].track == 42);
	assert_int_equal(v[1].color, 2);
	assert_int_equal(v[1].lanes, 3);
	assert_string_equal(v[1].folded, "3,7,");
	assert_string_equal(v[1].search, "name:MATMUL");
	saved_view_list_free(v, n);
	assert_int_equal(saved_view_delete(u, "/p.json", "b"), 0);
	assert_int_equal(saved_view_delete(u, "/p.json", "b"), -1);
	assert_string_equal(err_get(), "no view named \"b\"");
	assert_int_equal(saved_view_list(u, "/p.json", &v, &n), 0);
	assert_int_equal(n, 1);
	saved_view_list_free(v, n);
	assert_int_equal(saved_view_list(u, "/q.json", &v, &n), 0);
	assert_int_equal(n, 1);
	saved_view_list_free(v, n);
	userdata_close(u);
	assert_int_equal(user_version(), 4);
}

/* A store of version 3 (saved views without profile B) gains B's
 * path, its offset and the cursor row's key, its views kept; a stacked
 * view comes back with them. */
static void test_views_b(void **state)
{
	struct saved_view a = { .name = "s", .t0 = 1, .t1 = 2, .cur = 1,
				.track = 5, .folded = "0,b0,bh12,",
				.lanes_folded = "", .color = 0, .lanes = 4,
				.compare = "/b dir/b.json",
				.compare_offset = -INT64_C(9007199254740993),
				.track_key = "bh12" };
	struct saved_view *v;
	struct userdata *u;
	size_t n;

	(void)state;
	set_store("DROP TABLE IF EXISTS saved_view;"
		  " CREATE TABLE saved_view(profile TEXT NOT NULL,"
		  " name TEXT NOT NULL, t0 INTEGER NOT NULL, t1 INTEGER NOT NULL,"
		  " cur INTEGER NOT NULL, track INTEGER NOT NULL, folded TEXT"
		  " NOT NULL, lanes_folded TEXT NOT NULL, color INTEGER NOT"
		  " NULL, lanes INTEGER NOT NULL, search TEXT, saved INTEGER NOT"
		  " NULL, PRIMARY KEY(profile, name));"
		  " INSERT INTO saved_view VALUES('/p.json', 'old', 1, 2, 1, 3,"
		  " '', '', 0, 4, NULL, 0); PRAGMA user_version = 3");
	u = userdata_open(db_path);
	assert_non_null(u);
	assert_int_equal(saved_view_put(u, "/p.json", &a), 0);
	assert_int_equal(saved_view_list(u, "/p.json", &v, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(v[0].name, "old");
	assert_null(v[0].compare);
	assert_true(v[0].compare_offset == 0 && !v[0].track_key);
	assert_string_equal(v[1].compare, "/b dir/b.json");
	assert_true(v[1].compare_offset == -INT64_C(9007199254740993));
	assert_string_equal(v[1].track_key, "bh12");
	assert_string_equal(v[1].folded, "0,b0,bh12,");
	saved_view_list_free(v, n);
	userdata_close(u);
	assert_int_equal(user_version(), 4);
}

/* Another process holding the store for long (here a write lock that
 * is never let go) makes opening it fail within seconds, saying so,
 * rather than wait for it. */
static void test_busy(void **state)
{
	struct userdata *u = userdata_open(db_path);
	struct timespec t0, t1;
	sqlite3 *db;

	(void)state;
	assert_non_null(u);
	userdata_close(u);
	assert_int_equal(sqlite3_open(db_path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "BEGIN EXCLUSIVE", NULL, NULL, NULL),
			 SQLITE_OK);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_null(userdata_open(db_path));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_non_null(strstr(err_get(), "busy"));
	assert_true(t1.tv_sec - t0.tv_sec < 8);
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(db);
	u = userdata_open(db_path);
	assert_non_null(u);
	userdata_close(u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_list_rename_delete),
		cmocka_unit_test(test_kill_after_set),
		cmocka_unit_test(test_changed),
		cmocka_unit_test(test_two_processes),
		cmocka_unit_test(test_sets),
		cmocka_unit_test(test_history),
		cmocka_unit_test(test_recent),
		cmocka_unit_test(test_recent_versions),
		cmocka_unit_test(test_views),
		cmocka_unit_test(test_views_b),
		cmocka_unit_test(test_busy),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
