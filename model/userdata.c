#include "config.h"

#include "model/userdata.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "model/cache/db.h"
#include "model/file.h"
#include "model/util.h"

/* 2: the recent profiles; 3: saved views; 4: a saved view's profile B,
 * how far B was moved and the key of the cursor's row */
#define USERDATA_VERSION 4
#define NX_STR2(x) #x
#define NX_STR(x) NX_STR2(x)
#define HISTORY_MAX 200
#define RECENT_MAX 100

struct userdata {
	sqlite3 *db;
	char *path;
	int64_t data_version;	/* at the last userdata_changed() */
};

static const char userdata_sql[] =
	"CREATE TABLE IF NOT EXISTS marker(id INTEGER PRIMARY KEY,"
	" profile TEXT NOT NULL, set_name TEXT NOT NULL DEFAULT '',"
	" name TEXT NOT NULL, ts INTEGER NOT NULL, ref INTEGER,"
	" created INTEGER NOT NULL);"
	"CREATE INDEX IF NOT EXISTS marker_profile ON marker(profile, set_name, ts);"
	"CREATE TABLE IF NOT EXISTS history(id INTEGER PRIMARY KEY,"
	" kind TEXT NOT NULL, text TEXT NOT NULL, used INTEGER NOT NULL);"
	"CREATE UNIQUE INDEX IF NOT EXISTS history_text ON history(kind, text);"
	"CREATE TABLE IF NOT EXISTS recent(path TEXT PRIMARY KEY,"
	" kind TEXT NOT NULL, cache TEXT NOT NULL, opened INTEGER NOT NULL,"
	" seq INTEGER NOT NULL);"
	"CREATE TABLE IF NOT EXISTS saved_view(profile TEXT NOT NULL,"
	" name TEXT NOT NULL, t0 INTEGER NOT NULL, t1 INTEGER NOT NULL,"
	" cur INTEGER NOT NULL, track INTEGER NOT NULL, folded TEXT NOT NULL,"
	" lanes_folded TEXT NOT NULL, color INTEGER NOT NULL,"
	" lanes INTEGER NOT NULL, search TEXT, saved INTEGER NOT NULL,"
	" PRIMARY KEY(profile, name));";

/* Columns version 4 added to saved_view, for a store an older nxtop
 * made. */
static const char *const view_columns[] = {
	"compare TEXT",
	"compare_offset INTEGER NOT NULL DEFAULT 0",
	"track_key TEXT",
};

static int fail(struct userdata *u, const char *what)
{
	const char *cause = db_write_cause(u->db);

	if (cause)
		err_set("%s: cannot write: %s", u->path, cause);
	else
		err_set("%s: %s: %s", u->path, what, sqlite3_errmsg(u->db));
	return -1;
}

char *userdata_default_path(void)
{
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");

	if (xdg && *xdg == '/')
		return xasprintf("%s/nxtop/userdata.db", xdg);
	return xasprintf("%s/.local/share/nxtop/userdata.db",
			 home && *home ? home : "/tmp");
}

static int exec(struct userdata *u, const char *sql)
{
	if (sqlite3_exec(u->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return fail(u, "write");
	return 0;
}

static int64_t data_version(struct userdata *u)
{
	sqlite3_stmt *st;
	int64_t v = -1;

	if (sqlite3_prepare_v2(u->db, "PRAGMA data_version", -1, &st, NULL) !=
	    SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* How long a change waits for another process holding the file, and
 * how long opening it may take in all. Another nxtop holds it for a
 * moment; beyond, the markers are off rather than the viewer stalled. */
#define USERDATA_BUSY_MS 1000
#define USERDATA_OPEN_MS 3000

static int64_t ms_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)(now.tv_sec - t0->tv_sec) * 1000 +
	       (now.tv_nsec - t0->tv_nsec) / 1000000;
}

/* The version of the tables; a store a newer nxtop wrote keeps its
 * number (its tables are a superset of these). */
static int set_version(struct userdata *u)
{
	sqlite3_stmt *st;
	int rc, v = 0;

	rc = sqlite3_prepare_v2(u->db, "PRAGMA user_version", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	rc = sqlite3_finalize(st);
	if (rc != SQLITE_OK || v > USERDATA_VERSION)
		return rc;
	return sqlite3_exec(u->db, "PRAGMA user_version = "
			    NX_STR(USERDATA_VERSION), NULL, NULL, NULL);
}

/* 1 if saved_view has column name, 0 if not, -1 (an SQLite code in
 * *rc) on an error. */
static int has_column(struct userdata *u, const char *name, int *rc)
{
	sqlite3_stmt *st;
	int found = 0;

	*rc = sqlite3_prepare_v2(u->db, "PRAGMA table_info(saved_view)", -1,
				 &st, NULL);
	if (*rc != SQLITE_OK)
		return -1;
	while ((*rc = sqlite3_step(st)) == SQLITE_ROW)
		if (!strcmp((const char *)sqlite3_column_text(st, 1), name))
			found = 1;
	*rc = sqlite3_finalize(st);
	return *rc == SQLITE_OK ? found : -1;
}

/* Adds the columns saved_view lacks; an SQLite code. */
static int add_columns(struct userdata *u)
{
	int rc = SQLITE_OK;

	for (size_t k = 0; k < NX_ARRAY_SIZE(view_columns); k++) {
		size_t n = strcspn(view_columns[k], " ");
		char name[32], *sql;
		int have;

		snprintf(name, sizeof(name), "%.*s", (int)n, view_columns[k]);
		have = has_column(u, name, &rc);
		if (have < 0)
			return rc;
		if (have)
			continue;
		sql = xasprintf("ALTER TABLE saved_view ADD COLUMN %s",
				view_columns[k]);
		rc = sqlite3_exec(u->db, sql, NULL, NULL, NULL);
		free(sql);
		if (rc != SQLITE_OK)
			return rc;
	}
	return rc;
}

/* Switching to WAL and creating the tables need locks the busy handler
 * does not wait for when another nxtop is creating the same file at that
 * moment: try again, for a while. */
static int setup(struct userdata *u)
{
	static const char sql[] = "PRAGMA journal_mode=WAL;"
		" PRAGMA synchronous=FULL;";
	struct timespec t0;
	int rc = SQLITE_BUSY;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (ms_since(&t0) < USERDATA_OPEN_MS) {
		rc = sqlite3_exec(u->db, sql, NULL, NULL, NULL);
		if (rc == SQLITE_OK)
			rc = sqlite3_exec(u->db, userdata_sql, NULL, NULL, NULL);
		if (rc == SQLITE_OK)
			rc = add_columns(u);
		if (rc == SQLITE_OK)
			rc = set_version(u);
		if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
			break;
		sqlite3_sleep(50);
	}
	if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) {
		err_set("%s: busy: another process has held a lock on it for %d"
			" s", u->path, USERDATA_OPEN_MS / 1000);
		return -1;
	}
	return rc == SQLITE_OK ? 0 : fail(u, "setup");
}

/* The file and the journal files SQLite keeps beside it are this
 * user's own and private: created 0600 when missing, made so when
 * another nxtop left them readable (someone who can open a file can
 * hold a lock on it), and refused when a link or another user's, or
 * when another user's process holds a lock on one (it opened it while
 * it was readable), which would make every change wait. */
static int private_file(const char *path, int create)
{
	enum file_owner fo = file_owner(path);
	long pid;
	int fd;

	if (fo == FILE_NONE && !create)
		return 0;
	if (fo != FILE_NONE && fo != FILE_MINE) {
		err_set("%s: not used: %s", path, file_owner_why(fo));
		return -1;
	}
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || fchmod(fd, 0600)) {
		err_set("%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	pid = file_locked_by_other(fd);
	close(fd);
	if (pid) {
		err_set("%s: a process of another user (pid %ld) holds a lock on"
			" it", path, pid);
		return -1;
	}
	return 0;
}

static int private_files(const char *path)
{
	char *wal = xasprintf("%s-wal", path), *shm = xasprintf("%s-shm", path);
	char *dir = file_dir(path);
	int rc = file_private_dir(dir) || private_file(path, 1) ||
		 private_file(wal, 0) || private_file(shm, 0) ? -1 : 0;

	free(dir);
	free(shm);
	free(wal);
	return rc;
}

struct userdata *userdata_open(const char *path)
{
	struct userdata *u = xcalloc(1, sizeof(*u));
	char *real;
	int rc;

	u->path = xstrdup(path);
	if (private_files(path))
		goto fail;
	real = file_real_dir(path);
	rc = sqlite3_open_v2(real, &u->db, SQLITE_OPEN_READWRITE |
			     SQLITE_OPEN_NOFOLLOW, NULL);
	free(real);
	if (rc != SQLITE_OK) {
		fail(u, "open");
		goto fail;
	}
	/* another nxtop may be writing: wait for it rather than fail */
	sqlite3_busy_timeout(u->db, USERDATA_BUSY_MS);
	if (setup(u))
		goto fail;
	u->data_version = data_version(u);
	return u;
fail:
	userdata_close(u);
	return NULL;
}

int userdata_changed(struct userdata *u)
{
	int64_t v = data_version(u);

	if (v == u->data_version)
		return 0;
	u->data_version = v;
	return 1;
}

void userdata_close(struct userdata *u)
{
	if (!u)
		return;
	sqlite3_close(u->db);
	free(u->path);
	free(u);
}

static char *input_of(struct model *m)
{
	sqlite3_stmt *st;
	char *input = NULL;

	if (sqlite3_prepare_v2(model_db(m), "SELECT value FROM meta WHERE"
			       " key = 'input'", -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
			input = xstrdup((const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	return input ? input : xstrdup(model_path(m));
}

/* The key of a bundle's profile p (older: "<input>::<file>"), or of the
 * profile itself. */
static char *key_of(const char *input, const struct mprofile *p, int older)
{
	struct stat sb;
	char *dir, *key;

	if (!p->parent_id)
		return xstrdup(input);
	if (!p->path || strchr(p->path, '/') || older)
		return xasprintf("%s::%s", input, p->path ? p->path : p->name);
	/* a file beside the system profile, in the bundle's folder */
	dir = stat(input, &sb) || S_ISDIR(sb.st_mode) ? xstrdup(input) :
							 file_dir(input);
	key = xasprintf("%s/%s", dir, p->path);
	free(dir);
	return key;
}

char *userdata_profile_key(struct model *m, int64_t profile)
{
	char *input = input_of(m), *key;
	struct mprofile p;

	if (model_profile(m, profile, &p))
		return input;
	key = key_of(input, &p, 0);
	model_profile_clear(&p);
	free(input);
	return key;
}


static sqlite3_stmt *prep(struct userdata *u, const char *sql)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(u->db, sql, -1, &st, NULL) != SQLITE_OK) {
		fail(u, "query");
		return NULL;
	}
	return st;
}

/* Runs a statement to completion; -1 on failure. */
static int run(struct userdata *u, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(u, "write");
}

int userdata_adopt(struct userdata *u, struct model *m, int64_t profile,
		   const char *key)
{
	static const char *const sql[] = {
		"UPDATE marker SET profile = ?1 WHERE profile = ?2",
		"UPDATE saved_view SET profile = ?1 WHERE profile = ?2",
	};
	char *input, *old;
	struct mprofile p;
	int rc = 0;

	if (model_profile(m, profile, &p))
		return -1;
	input = input_of(m);
	old = key_of(input, &p, 1);
	for (size_t i = 0; i < 2 && !rc && p.parent_id && strcmp(old, key);
	     i++) {
		sqlite3_stmt *st = prep(u, sql[i]);

		if (!st) {
			rc = -1;
			break;
		}
		sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, old, -1, SQLITE_STATIC);
		rc = run(u, st);
	}
	free(old);
	free(input);
	model_profile_clear(&p);
	return rc;
}

static int list_set(struct userdata *u, const char *profile, const char *set,
		    struct marker **out, size_t *n)
{
	sqlite3_stmt *st = prep(u, "SELECT id, name, ts, coalesce(ref, 0) FROM"
				" marker WHERE profile = ? AND set_name = ?"
				" ORDER BY ts, id");

	*out = NULL;
	*n = 0;
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, profile, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, set, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct marker *mk;

		*out = xreallocarray(*out, *n + 1, sizeof(**out));
		mk = &(*out)[(*n)++];
		mk->id = sqlite3_column_int64(st, 0);
		mk->name = xstrdup((const char *)sqlite3_column_text(st, 1));
		mk->ts = sqlite3_column_int64(st, 2);
		mk->ref = sqlite3_column_int64(st, 3);
	}
	sqlite3_finalize(st);
	return 0;
}

int marker_list(struct userdata *u, const char *profile, struct marker **out,
		size_t *n)
{
	return list_set(u, profile, "", out, n);
}

void marker_list_free(struct marker *m, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(m[i].name);
	free(m);
}

static int64_t next_number(struct userdata *u, const char *profile)
{
	sqlite3_stmt *st = prep(u, "SELECT max(CAST(substr(name, 2) AS INTEGER))"
				" FROM marker WHERE profile = ? AND set_name = ''"
				" AND name GLOB 'M[0-9]*'");
	int64_t n = 0;

	if (!st)
		return 1;
	sqlite3_bind_text(st, 1, profile, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n + 1;
}

static int insert(struct userdata *u, const char *profile, const char *set,
		  const char *name, int64_t ts, int64_t ref, int64_t *id)
{
	sqlite3_stmt *st = prep(u, "INSERT INTO marker(profile, set_name, name,"
				" ts, ref, created) VALUES(?,?,?,?,?,?)");

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, profile, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, set, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, ts);
	if (ref > 0)
		sqlite3_bind_int64(st, 5, ref);
	sqlite3_bind_int64(st, 6, (int64_t)time(NULL));
	if (run(u, st))
		return -1;
	if (id)
		*id = sqlite3_last_insert_rowid(u->db);
	return 0;
}

/* Whether another of the profile's markers (of the marker id, when
 * profile is NULL) is named name: one name, one marker, so that diff-vs
 * and --between NAME say which. 1 with err_get() set, 0, or -1. */
static int name_taken(struct userdata *u, const char *profile, int64_t id,
		      const char *name)
{
	sqlite3_stmt *st = prep(u, "SELECT 1 FROM marker WHERE set_name = ''"
				" AND profile = coalesce(?1, (SELECT profile FROM"
				" marker WHERE id = ?2)) AND name = ?3 AND"
				" id != ?2 LIMIT 1");
	int rc;

	if (!st)
		return -1;
	if (profile)
		sqlite3_bind_text(st, 1, profile, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, id);
	sqlite3_bind_text(st, 3, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW) {
		err_set("a marker named \"%s\" is there already", name);
		return 1;
	}
	return rc == SQLITE_DONE ? 0 : -1;
}

int marker_add(struct userdata *u, const char *profile, const char *name,
	       int64_t ts, int64_t *id)
{
	char auto_name[32];
	int rc;

	if (exec(u, "BEGIN IMMEDIATE"))
		return -1;
	if (!name || !*name) {
		snprintf(auto_name, sizeof(auto_name), "M%" PRId64,
			 next_number(u, profile));
		name = auto_name;
	} else if (name_taken(u, profile, 0, name)) {
		exec(u, "ROLLBACK");
		return -1;
	}
	rc = insert(u, profile, "", name, ts, 0, id);
	if (rc) {
		exec(u, "ROLLBACK");
		return -1;
	}
	return exec(u, "COMMIT");
}

static int update(struct userdata *u, const char *sql, int64_t id,
		  const char *text, int64_t num)
{
	sqlite3_stmt *st = prep(u, sql);

	if (!st)
		return -1;
	if (text)
		sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
	else if (num > 0)
		sqlite3_bind_int64(st, 1, num);
	else
		sqlite3_bind_null(st, 1);
	sqlite3_bind_int64(st, 2, id);
	return run(u, st);
}

int marker_rename(struct userdata *u, int64_t id, const char *name)
{
	if (exec(u, "BEGIN IMMEDIATE"))
		return -1;
	if (name_taken(u, NULL, id, name) ||
	    update(u, "UPDATE marker SET name = ? WHERE id = ?", id, name, 0)) {
		exec(u, "ROLLBACK");
		return -1;
	}
	return exec(u, "COMMIT");
}

int marker_set_ref(struct userdata *u, int64_t id, int64_t ref)
{
	return update(u, "UPDATE marker SET ref = ? WHERE id = ?", id, NULL, ref);
}

int marker_delete(struct userdata *u, int64_t id)
{
	sqlite3_stmt *st;

	if (exec(u, "BEGIN IMMEDIATE"))
		return -1;
	/* markers that were diffed against it go back to "previous" */
	st = prep(u, "UPDATE marker SET ref = NULL WHERE ref = ?");
	if (st) {
		sqlite3_bind_int64(st, 1, id);
		run(u, st);
	}
	st = prep(u, "DELETE FROM marker WHERE id = ?");
	if (!st || (sqlite3_bind_int64(st, 1, id), run(u, st))) {
		exec(u, "ROLLBACK");
		return -1;
	}
	return exec(u, "COMMIT");
}

static int delete_set(struct userdata *u, const char *profile, const char *set)
{
	sqlite3_stmt *st = prep(u, "DELETE FROM marker WHERE profile = ? AND"
				" set_name = ?");

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, profile, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, set, -1, SQLITE_STATIC);
	return run(u, st);
}

int marker_clear(struct userdata *u, const char *profile)
{
	return delete_set(u, profile, "");
}

/* Copies set from into set to (replacing it), keeping "diff vs" links. */
static int copy_set(struct userdata *u, const char *profile, const char *from,
		    const char *to)
{
	struct marker *mk;
	int64_t *ids;
	size_t n;
	int rc = 0;

	if (exec(u, "BEGIN IMMEDIATE"))
		return -1;
	if (list_set(u, profile, from, &mk, &n) || delete_set(u, profile, to)) {
		exec(u, "ROLLBACK");
		return -1;
	}
	ids = xcalloc(n ? n : 1, sizeof(*ids));
	for (size_t i = 0; i < n && !rc; i++)
		rc = insert(u, profile, to, mk[i].name, mk[i].ts, 0, &ids[i]);
	for (size_t i = 0; i < n && !rc; i++) {
		for (size_t k = 0; k < n && mk[i].ref; k++) {
			if (mk[k].id == mk[i].ref) {
				rc = marker_set_ref(u, ids[i], ids[k]);
				break;
			}
		}
	}
	free(ids);
	marker_list_free(mk, n);
	if (rc) {
		exec(u, "ROLLBACK");
		return -1;
	}
	return exec(u, "COMMIT");
}

int marker_set_save(struct userdata *u, const char *profile, const char *set)
{
	if (!set || !*set) {
		err_set("a marker set needs a name");
		return -1;
	}
	return copy_set(u, profile, "", set);
}

int marker_set_load(struct userdata *u, const char *profile, const char *set)
{
	char **names;
	size_t n;
	int found = 0;

	if (marker_sets(u, profile, &names, &n))
		return -1;
	for (size_t i = 0; i < n; i++)
		found |= !strcmp(names[i], set);
	strings_free(names, n);
	if (!found) {
		err_set("no marker set named \"%s\"", set);
		return -1;
	}
	return copy_set(u, profile, set, "");
}

int marker_set_delete(struct userdata *u, const char *profile, const char *set)
{
	if (!set || !*set) {
		err_set("a marker set needs a name");
		return -1;
	}
	return delete_set(u, profile, set);
}

static int strings(struct userdata *u, sqlite3_stmt *st, char ***out, size_t *n)
{
	(void)u;
	*out = NULL;
	*n = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		*out = xreallocarray(*out, *n + 1, sizeof(**out));
		(*out)[(*n)++] = xstrdup((const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	return 0;
}

int marker_sets(struct userdata *u, const char *profile, char ***names,
		size_t *n)
{
	sqlite3_stmt *st = prep(u, "SELECT DISTINCT set_name FROM marker WHERE"
				" profile = ? AND set_name != '' ORDER BY 1");

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, profile, -1, SQLITE_STATIC);
	return strings(u, st, names, n);
}

int history_add(struct userdata *u, const char *kind, const char *text)
{
	sqlite3_stmt *st;
	int64_t seq = 0;

	if (!text || !*text)
		return 0;
	if (exec(u, "BEGIN IMMEDIATE"))
		return -1;
	st = prep(u, "SELECT coalesce(max(used), 0) + 1 FROM history");
	if (st && sqlite3_step(st) == SQLITE_ROW)
		seq = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	st = prep(u, "INSERT INTO history(kind, text, used) VALUES(?,?,?)"
		  " ON CONFLICT(kind, text) DO UPDATE SET used = excluded.used");
	if (!st) {
		exec(u, "ROLLBACK");
		return -1;
	}
	sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, text, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, seq);
	if (run(u, st)) {
		exec(u, "ROLLBACK");
		return -1;
	}
	st = prep(u, "DELETE FROM history WHERE kind = ? AND id NOT IN (SELECT id"
		  " FROM history WHERE kind = ? ORDER BY used DESC LIMIT ?)");
	if (st) {
		sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 3, HISTORY_MAX);
		run(u, st);
	}
	return exec(u, "COMMIT");
}

int history_list(struct userdata *u, const char *kind, size_t max,
		 char ***out, size_t *n)
{
	sqlite3_stmt *st = prep(u, "SELECT text FROM history WHERE kind = ?"
				" ORDER BY used DESC LIMIT ?");

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (int64_t)max);
	return strings(u, st, out, n);
}

void strings_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static int64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

int recent_add(struct userdata *u, const char *path, const char *kind,
	       const char *cache)
{
	sqlite3_stmt *st;

	if (exec(u, "BEGIN IMMEDIATE"))
		return -1;
	st = prep(u, "INSERT INTO recent(path, kind, cache, opened, seq)"
		  " VALUES(?1, ?2, ?3, ?4, (SELECT coalesce(max(seq), 0) + 1"
		  " FROM recent)) ON CONFLICT(path) DO UPDATE SET"
		  " kind = excluded.kind, cache = excluded.cache,"
		  " opened = excluded.opened, seq = excluded.seq");
	if (!st) {
		exec(u, "ROLLBACK");
		return -1;
	}
	sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, cache, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, now_ns());
	if (run(u, st)) {
		exec(u, "ROLLBACK");
		return -1;
	}
	st = prep(u, "DELETE FROM recent WHERE path NOT IN (SELECT path FROM"
		  " recent ORDER BY seq DESC LIMIT " NX_STR(RECENT_MAX) ")");
	if (st)
		run(u, st);
	return exec(u, "COMMIT");
}

int recent_list(struct userdata *u, struct recent **out, size_t *n)
{
	sqlite3_stmt *st = prep(u, "SELECT path, kind, cache, opened FROM recent"
				" ORDER BY seq DESC");

	*out = NULL;
	*n = 0;
	if (!st)
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct recent *r;

		*out = xreallocarray(*out, *n + 1, sizeof(**out));
		r = &(*out)[(*n)++];
		r->path = xstrdup((const char *)sqlite3_column_text(st, 0));
		r->kind = xstrdup((const char *)sqlite3_column_text(st, 1));
		r->cache = xstrdup((const char *)sqlite3_column_text(st, 2));
		r->opened = sqlite3_column_int64(st, 3);
	}
	sqlite3_finalize(st);
	return 0;
}

void recent_list_free(struct recent *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(r[i].path);
		free(r[i].kind);
		free(r[i].cache);
	}
	free(r);
}

int recent_forget(struct userdata *u, const char *path)
{
	sqlite3_stmt *st = prep(u, "DELETE FROM recent WHERE path = ?");

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
	return run(u, st);
}

int saved_view_put(struct userdata *u, const char *profile,
		   const struct saved_view *v)
{
	sqlite3_stmt *st;

	if (!v->name || !*v->name) {
		err_set("a view needs a name");
		return -1;
	}
	st = prep(u, "INSERT OR REPLACE INTO saved_view(profile, name, t0, t1,"
		  " cur, track, folded, lanes_folded, color, lanes, search,"
		  " saved, compare, compare_offset, track_key)"
		  " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, profile, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, v->name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, v->t0);
	sqlite3_bind_int64(st, 4, v->t1);
	sqlite3_bind_int64(st, 5, v->cur);
	sqlite3_bind_int64(st, 6, v->track);
	sqlite3_bind_text(st, 7, v->folded, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 8, v->lanes_folded, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 9, v->color);
	sqlite3_bind_int(st, 10, v->lanes);
	sqlite3_bind_text(st, 11, v->search, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 12, now_ns());
	sqlite3_bind_text(st, 13, v->compare, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 14, v->compare_offset);
	sqlite3_bind_text(st, 15, v->track_key, -1, SQLITE_STATIC);
	return run(u, st);
}

int saved_view_list(struct userdata *u, const char *profile,
		    struct saved_view **out, size_t *n)
{
	sqlite3_stmt *st = prep(u, "SELECT name, t0, t1, cur, track, folded,"
				" lanes_folded, color, lanes, search,"
				" compare, compare_offset, track_key FROM"
				" saved_view WHERE profile = ? ORDER BY name");

	*out = NULL;
	*n = 0;
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, profile, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct saved_view *v;

		*out = xreallocarray(*out, *n + 1, sizeof(**out));
		v = &(*out)[(*n)++];
		v->name = db_col_dup(st, 0);
		v->t0 = sqlite3_column_int64(st, 1);
		v->t1 = sqlite3_column_int64(st, 2);
		v->cur = sqlite3_column_int64(st, 3);
		v->track = sqlite3_column_int64(st, 4);
		v->folded = db_col_dup(st, 5);
		v->lanes_folded = db_col_dup(st, 6);
		v->color = sqlite3_column_int(st, 7);
		v->lanes = sqlite3_column_int(st, 8);
		v->search = db_col_dup(st, 9);
		v->compare = db_col_dup(st, 10);
		v->compare_offset = sqlite3_column_int64(st, 11);
		v->track_key = db_col_dup(st, 12);
	}
	sqlite3_finalize(st);
	return 0;
}

void saved_view_list_free(struct saved_view *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].folded);
		free(v[i].lanes_folded);
		free(v[i].search);
		free(v[i].compare);
		free(v[i].track_key);
	}
	free(v);
}

int saved_view_delete(struct userdata *u, const char *profile,
		      const char *name)
{
	sqlite3_stmt *st = prep(u, "DELETE FROM saved_view WHERE profile = ?"
				" AND name = ?");

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, profile, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	if (run(u, st))
		return -1;
	if (!sqlite3_changes(u->db)) {
		err_set("no view named \"%s\"", name);
		return -1;
	}
	return 0;
}
