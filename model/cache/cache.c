#include "config.h"

#include "model/cache/cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/cache/db.h"
#include "model/file.h"
#include "model/cache/schema.h"
#include "model/text.h"
#include "model/cache/validate.h"
#include "model/util.h"

int64_t stat_mtime_ns(const struct stat *sb)
{
	return (int64_t)sb->st_mtim.tv_sec * 1000000000 + sb->st_mtim.tv_nsec;
}

/* The input's own name without trailing slashes. */
static char *trimmed(const char *input)
{
	size_t n = strlen(input);

	while (n > 1 && input[n - 1] == '/')
		n--;
	return xstrndup(input, n);
}

#define FNV_OFFSET 1469598103934665603ull

static uint64_t fnv(uint64_t h, const unsigned char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 1099511628211ull;
	}
	return h;
}

static uint64_t hash_str(const char *s)
{
	return fnv(FNV_OFFSET, (const unsigned char *)s, strlen(s));
}

static int64_t stat_ctime_ns(const struct stat *sb)
{
	return (int64_t)sb->st_ctim.tv_sec * 1000000000 + sb->st_ctim.tv_nsec;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files nxtop itself writes in a profile's folder: exports,
 * temporary files (nxtop-*), caches (*.nxdb: a JAX run folder's in the
 * folder of runs, one asked for with import -o). */
static int own_file(const char *name)
{
	return !strcmp(name, ".") || !strcmp(name, "..") ||
	       !strncmp(name, FILE_TEMP_PREFIX, strlen(FILE_TEMP_PREFIX)) ||
	       strstr(name, CACHE_SUFFIX);
}

/* A folder of table files: its entries' names, which change when a
 * table file is added, removed or renamed (each file has its own
 * stamp for its content). Times are left out, and so are the files
 * nxtop itself writes there (own_file). */
static void stamp_dir(const char *path, struct cache_stamp *out)
{
	DIR *d = opendir(path);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;
	uint64_t h = FNV_OFFSET;

	if (!d)
		return;
	while ((e = readdir(d)) && n < CACHE_STAMP_MAX_NAMES) {
		if (own_file(e->d_name))
			continue;
		names = xreallocarray(names, n + 1, sizeof(*names));
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n; i++) {
		h = fnv(h, (const unsigned char *)names[i], strlen(names[i]) + 1);
		free(names[i]);
	}
	free(names);
	out->size = (int64_t)n;
	out->hash = (int64_t)h;
}

int64_t cache_dir_entries(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	uint64_t sum = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		uint64_t ino = (uint64_t)e->d_ino;

		/* a sum: the order readdir gives does not matter */
		if (!own_file(e->d_name))
			sum += fnv(hash_str(e->d_name),
				   (const unsigned char *)&ino, sizeof(ino));
	}
	closedir(d);
	return (int64_t)sum;
}

/* Only a regular file is opened: a device or FIFO named by a cache from
 * elsewhere is never touched. */
void cache_stamp_of(const char *path, struct cache_stamp *out)
{
	unsigned char block[CACHE_STAMP_BLOCK];
	struct stat sb;
	uint64_t h = FNV_OFFSET;
	int fd;

	memset(out, 0, sizeof(*out));
	out->size = -1;
	if (!stat(path, &sb) && S_ISDIR(sb.st_mode)) {
		stamp_dir(path, out);
		return;
	}
	if (stat(path, &sb) || !S_ISREG(sb.st_mode))
		return;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (!fstat(fd, &sb) && S_ISREG(sb.st_mode)) {
		ssize_t n = pread(fd, block, sizeof(block), 0);

		if (n > 0)
			h = fnv(h, block, (size_t)n);
		if (sb.st_size > (off_t)sizeof(block)) {
			n = pread(fd, block, sizeof(block),
				  NX_MAX(sb.st_size - (off_t)sizeof(block),
					 (off_t)sizeof(block)));
			if (n > 0)
				h = fnv(h, block, (size_t)n);
		}
		out->size = (int64_t)sb.st_size;
		out->mtime_ns = stat_mtime_ns(&sb);
		out->ctime_ns = stat_ctime_ns(&sb);
		out->hash = (int64_t)h;
	}
	close(fd);
}

/* Whether a file can be created in dir: access() says yes to root even
 * where creating fails (read-only mounts, /proc), so try it. */
static int dir_writable(const char *dir)
{
	char *probe;
	int fd = file_new(dir, FILE_TEMP_PREFIX, ".probe", &probe);

	if (fd < 0)
		return 0;
	close(fd);
	unlink(probe);
	free(probe);
	return 1;
}

char *cache_private_dir(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	char *dir;

	if (xdg && *xdg == '/')
		dir = xasprintf("%s/nxtop", xdg);
	else
		dir = xasprintf("%s/.cache/nxtop", home && *home ? home : "/tmp");
	if (file_private_dir(dir)) {
		free(dir);
		return NULL;
	}
	return dir;
}

char *cache_path_private(const char *input)
{
	char *in = trimmed(input), *dir = cache_private_dir(), *path = NULL;
	const char *name = strrchr(in, '/') ? strrchr(in, '/') + 1 : in;
	char real[PATH_MAX];
	size_t n = strlen(name);

	if (!realpath(in, real))
		snprintf(real, sizeof(real), "%s", in);
	/* room for "-<hash>.<filter hash>.nxdb" within NAME_MAX */
	if (n > NAME_MAX - 48)
		for (n = NAME_MAX - 48; n && (name[n] & 0xc0) == 0x80; n--)
			;
	if (dir)
		path = xasprintf("%s/%.*s-%016" PRIx64 "%s", dir, (int)n, name,
				 hash_str(real), CACHE_SUFFIX);
	free(dir);
	free(in);
	return path;
}

char *cache_path_for(const char *input)
{
	char *in = trimmed(input);
	char *dir = file_dir(in);
	const char *name = strrchr(in, '/') ? strrchr(in, '/') + 1 : in;
	char *path = xasprintf("%s%s", in, CACHE_SUFFIX);
	struct stat sb;

	/* one already beside it is read even where it cannot be rebuilt */
	if (strlen(name) + strlen(CACHE_SUFFIX) > NAME_MAX ||
	    (!dir_writable(dir) && lstat(path, &sb))) {
		free(path);
		path = cache_path_private(in);
	}
	free(dir);
	free(in);
	return path;
}

/* Sets *why: what is quoted comes from the cache (its paths, its keys),
 * so it is cleaned for the terminal here. */
static enum cache_state say(char **why, enum cache_state st, const char *fmt,
			    const char *arg)
{
	char *raw;

	if (why) {
		raw = xasprintf(fmt, arg);
		*why = text_clean(raw);
		free(raw);
	}
	return st;
}

/* One recorded file: still there and the same, or still missing. */
static enum cache_state check_source(sqlite3_stmt *st, const char *p,
				     char **why)
{
	struct cache_stamp now;
	struct stat sb;

	/* size -1: a file that was missing at import (a bundle's listed
	 * device profile); its arrival makes the cache stale */
	if (sqlite3_column_int64(st, 1) == -1)
		return stat(p, &sb) ? CACHE_FRESH :
		       say(why, CACHE_STALE, "%s appeared", p);
	cache_stamp_of(p, &now);
	if (now.size < 0)
		return say(why, CACHE_STALE, "%s is gone", p);
	if (now.size != sqlite3_column_int64(st, 1) ||
	    now.mtime_ns != sqlite3_column_int64(st, 2) ||
	    now.ctime_ns != sqlite3_column_int64(st, 3) ||
	    now.hash != sqlite3_column_int64(st, 4))
		return say(why, CACHE_STALE, "%s changed", p);
	return CACHE_FRESH;
}

static int ends_with_str(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && !strcmp(s + n - m, suffix);
}

static int ends_latest(const char *path)
{
	return ends_with_str(path, "@latest");
}

/* A source a profile in folder base may have been built from: a file of
 * base or of a folder in it, or base itself; for a Parquet system
 * profile folder, its sibling device folders (NAME@latest) and their
 * table files too (FORMATS.md §1.5a); for a JAX log folder, its runs
 * and their files. */
/* 1 if p is the plugins/profile folder of JAX log folder base (or of
 * one level down to a run), a run in it, or a file of a run. */
static int in_jax(const char *p, const char *base)
{
	static const char *const down[] = { "/plugins/profile", "/profile", "" };
	char *dir = file_dir(p), *up = file_dir(dir), *root;
	int ok = 0;

	for (size_t i = 0; i < 4 && !ok; i++) {
		root = i < 3 ? xasprintf("%s%s", base, down[i]) : file_dir(base);
		ok = ends_with_str(root, "/plugins/profile") &&
		     (!strcmp(p, root) || !strcmp(dir, root) ||
		      !strcmp(up, root));
		free(root);
	}
	free(dir);
	free(up);
	return ok;
}

static int in_profile(const char *p, const char *base)
{
	char *dir = file_dir(p), *up = file_dir(dir), *parent = file_dir(base);
	int ok = !strcmp(p, base) || !strcmp(dir, base) || !strcmp(up, base) ||
		 (ends_latest(p) && !strcmp(dir, parent)) ||
		 (ends_latest(dir) && !strcmp(up, parent)) || in_jax(p, base);

	free(dir);
	free(up);
	free(parent);
	return ok;
}

/* Whether a cache is bound to the files it was built from: it records
 * at least one, and each is still what it was. With base (a folder),
 * each must be in it and one must be primary (the input file) or, when
 * primary is NULL, a system profile (the input is the folder). */
static enum cache_state check_sources(sqlite3 *db, const char *base,
				      const char *primary, char **why)
{
	sqlite3_stmt *st;
	enum cache_state state = CACHE_FRESH;
	int n = 0, found = 0;

	if (sqlite3_prepare_v2(db, "SELECT path, size, mtime_ns, ctime_ns,"
			       " ends_hash, role FROM source", -1, &st,
			       NULL) != SQLITE_OK)
		return say(why, CACHE_BROKEN, "%s", "no source table");
	while (state == CACHE_FRESH && sqlite3_step(st) == SQLITE_ROW) {
		const char *p = (const char *)sqlite3_column_text(st, 0);
		const char *role = (const char *)sqlite3_column_text(st, 5);

		n++;
		/* a folder of tables is itself a source (its list of files) */
		int is_base = base && !strcmp(p, base);

		if (base && !in_profile(p, base))
			state = say(why, CACHE_STALE, "it was built from %s,"
				    " outside the profile's folder", p);
		else
			state = check_source(st, p, why);
		if (primary ? !strcmp(p, primary) && strcmp(role, "device") :
			      !strcmp(role, "system") || is_base)
			found = 1;
	}
	sqlite3_finalize(st);
	if (state == CACHE_FRESH && !n)
		state = say(why, CACHE_STALE, "%s",
			    "it names no file it was built from");
	else if (state == CACHE_FRESH && base && !found)
		state = say(why, CACHE_STALE, "%s",
			    "it was built from another file");
	return state;
}

static int query_int(sqlite3 *db, const char *sql, int64_t *out)
{
	sqlite3_stmt *st;
	int rc = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW) {
		*out = sqlite3_column_int64(st, 0);
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

char *cache_meta(const char *path, const char *key)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st;
	char *v = NULL;

	if (!db_open_read(path, 0, &db) &&
	    sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key=?", -1,
			       &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
			v = xstrdup((const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return v;
}

char *cache_root_kind(const char *path)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st;
	char *v = NULL;

	if (!db_open_read(path, 0, &db) &&
	    sqlite3_prepare_v2(db, "SELECT kind FROM profile WHERE parent_id"
			       " IS NULL ORDER BY id LIMIT 1", -1, &st,
			       NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
			v = xstrdup((const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return v;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
	       p[3];
}

/* A cheap sign of damage: a file cut short or grown, its size no longer
 * the page size times the page count its header gives (when the header
 * vouches for that count). Damage inside is found by the queries that
 * read it (model.c). */
static int size_mismatch(const unsigned char *h, const struct stat *sb)
{
	uint32_t psize;

	psize = (uint32_t)h[16] << 8 | h[17];
	if (psize == 1)
		psize = 65536;
	/* the count is valid when written by the same change as the file */
	if (!be32(h + 28) || be32(h + 92) != be32(h + 24))
		return 0;
	return (int64_t)psize * be32(h + 28) != (int64_t)sb->st_size;
}

static enum cache_state unreadable(sqlite3 *db, char **why)
{
	int code = sqlite3_errcode(db);

	if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB)
		return say(why, CACHE_BROKEN, "damaged: %s", sqlite3_errmsg(db));
	return say(why, CACHE_BROKEN, "%s", "unreadable");
}

/* Written by this nxtop's schema and importers, and complete. */
static enum cache_state check_versions(sqlite3 *db, char **why)
{
	int64_t v = 0;
	char ver[64];

	if (query_int(db, "PRAGMA user_version", &v))
		return unreadable(db, why);
	if (v != SCHEMA_VERSION) {
		snprintf(ver, sizeof(ver), "%" PRId64 ", %s than this nxtop's %d",
			 v, v > SCHEMA_VERSION ? "newer" : "older",
			 SCHEMA_VERSION);
		return say(why, CACHE_OTHER_VERSION, "schema version %s", ver);
	}
	if (query_int(db, "SELECT value FROM meta WHERE key='complete'", &v))
		return sqlite3_errcode(db) == SQLITE_CORRUPT ?
		       unreadable(db, why) :
		       say(why, CACHE_BROKEN, "%s", "incomplete");
	if (v != 1)
		return say(why, CACHE_BROKEN, "%s", "incomplete");
	if (query_int(db, "SELECT value FROM meta WHERE key='import_version'",
		      &v) || v != IMPORT_VERSION)
		return say(why, CACHE_OTHER_VERSION, "%s",
			   "written by another nxtop version");
	return CACHE_FRESH;
}

static enum cache_state validated(sqlite3 *db, enum validate_level level,
				  char **why)
{
	char *bad = NULL;
	enum cache_state st = CACHE_FRESH;

	if (cache_validate(db, level, &bad))
		st = say(why, CACHE_BROKEN, "not valid: %s", bad);
	free(bad);
	return st;
}

/* The cache beside input was built from it: from the file itself, or
 * from a folder's system profile, and from nothing outside its folder. */
static enum cache_state check_bound(sqlite3 *db, const char *input,
				    char **why)
{
	char real[PATH_MAX];
	struct stat sb;
	enum cache_state st;
	char *base;

	if (!realpath(input, real) || stat(real, &sb))
		return say(why, CACHE_STALE, "%s is gone", input);
	if (S_ISDIR(sb.st_mode))
		return check_sources(db, real, NULL, why);
	base = file_dir(real);
	st = check_sources(db, base, real, why);
	free(base);
	return st;
}

/* A cache of this user's whose files are all as they were: built here,
 * by this user's nxtop (a copy or an archive could not know the times
 * the kernel gave those files). */
static int built_here(sqlite3 *db, const char *path)
{
	struct stat sb;

	return !stat(path, &sb) && S_ISREG(sb.st_mode) &&
	       sb.st_uid == geteuid() &&
	       check_sources(db, NULL, NULL, NULL) == CACHE_FRESH;
}

/* A device profile failed for want of space (or a write error), not
 * for its input: writer_fail_queued marked it. */
static int marked_retry(sqlite3 *db)
{
	int64_t v = 0;

	return !query_int(db, "SELECT value FROM meta WHERE key='"
			  CACHE_META_RETRY "'", &v) && v == 1;
}

/* Opens a cache for reading; a link is refused unless allowed. */
static sqlite3 *open_ro(const char *path, int links)
{
	char *real = file_real_dir(path);
	sqlite3 *db;

	db_open_read(real, links ? 0 : SQLITE_OPEN_NOFOLLOW, &db);
	free(real);
	return db;
}

enum cache_state cache_check(const char *path, const char *input,
			     char **why)
{
	unsigned char head[100];
	long got;
	sqlite3 *db;
	enum cache_state st;
	struct stat sb;

	if (why)
		*why = NULL;
	if (stat(path, &sb))
		return CACHE_MISSING;
	got = db_head(path, head, sizeof(head));
	if (got < 16 || memcmp(head, "SQLite format 3", 16))
		return say(why, CACHE_BROKEN, "%s", "not an SQLite file");
	if (got != (long)sizeof(head) || size_mismatch(head, &sb))
		return say(why, CACHE_BROKEN, "%s", "damaged: cut short or grown");
	if (!(db = open_ro(path, !input)))
		return say(why, CACHE_BROKEN, "%s", err_get());
	st = check_versions(db, why);
	if (st == CACHE_FRESH)
		st = validated(db, VALIDATE_QUICK, why);
	if (st == CACHE_FRESH && input) {
		st = check_bound(db, input, why);
		if (st == CACHE_FRESH && marked_retry(db))
			st = say(why, CACHE_STALE, "%s", "a device profile could"
				 " not be written to it before; importing it"
				 " again");
	} else if (st == CACHE_FRESH && !built_here(db, path)) {
		st = validated(db, VALIDATE_FULL, why);
	}
	sqlite3_close(db);
	return st;
}

int cache_built_here(const char *path)
{
	sqlite3 *db = open_ro(path, 1);
	char *why = NULL;
	int here;

	if (!db)
		return -1;
	if (check_versions(db, &why) != CACHE_FRESH)
		here = -1;
	else
		here = validated(db, VALIDATE_QUICK, &why) == CACHE_FRESH &&
		       built_here(db, path);
	free(why);
	sqlite3_close(db);
	return here;
}

int cache_temp_create(const char *path, char **tmp)
{
	int fd = file_temp_beside(path, tmp);

	if (fd < 0)
		err_set("cache: %s", err_get());
	return fd;
}

int cache_commit(const char *tmp, int fd, const char *path)
{
	char *dir;
	int dfd;

	/* only its owner can replace it in a shared (sticky) folder */
	if (!file_same(fd, tmp)) {
		err_set("cache: %s was replaced while it was built", tmp);
		return -1;
	}
	if (fsync(fd)) {
		err_set("cache: %s: %s", tmp, strerror(errno));
		return -1;
	}
	/* what a killed viewer left beside the cache it replaces (or beside
	 * none, the cache deleted alone) is not this one's */
	file_unlink_sqlite_sides(path);
	if (rename(tmp, path)) {
		err_set("cache: cannot rename to %s: %s", path, strerror(errno));
		return -1;
	}
	dir = file_dir(path);
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	free(dir);
	return 0;
}
