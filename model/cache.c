#include "config.h"

#include "cache.h"

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

#include "file.h"
#include "schema.h"
#include "util.h"

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

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ull;
	}
	return h;
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

char *cache_path_private(const char *input)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	char *in = trimmed(input), *base, *dir, *path = NULL;
	const char *name = strrchr(in, '/') ? strrchr(in, '/') + 1 : in;
	char real[PATH_MAX];
	size_t n = strlen(name);

	if (!realpath(in, real))
		snprintf(real, sizeof(real), "%s", in);
	if (xdg && *xdg == '/')
		base = xstrdup(xdg);
	else
		base = xasprintf("%s/.cache", home && *home ? home : "/tmp");
	dir = xasprintf("%s/nxtop", base);
	/* room for "-<hash>.<filter hash>.nxdb" within NAME_MAX */
	if (n > NAME_MAX - 48)
		for (n = NAME_MAX - 48; n && (name[n] & 0xc0) == 0x80; n--)
			;
	if (!file_private_dir(dir))
		path = xasprintf("%s/%.*s-%016" PRIx64 "%s", dir, (int)n, name,
				 hash_str(real), CACHE_SUFFIX);
	free(dir);
	free(base);
	free(in);
	return path;
}

char *cache_path_for(const char *input)
{
	char *in = trimmed(input);
	char *dir = file_dir(in);
	const char *name = strrchr(in, '/') ? strrchr(in, '/') + 1 : in;
	char *path;

	if (strlen(name) + strlen(CACHE_SUFFIX) <= NAME_MAX && dir_writable(dir))
		path = xasprintf("%s%s", in, CACHE_SUFFIX);
	else
		path = cache_path_private(in);
	free(dir);
	free(in);
	return path;
}

int cache_is_sqlite(const char *path)
{
	char head[16];
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	struct stat sb;
	ssize_t n;

	if (fd < 0)
		return 0;
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		close(fd);
		return 0;
	}
	n = read(fd, head, sizeof(head));
	close(fd);
	return n == 16 && !memcmp(head, "SQLite format 3", 16);
}

static enum cache_state say(char **why, enum cache_state st, const char *fmt,
			    const char *arg)
{
	if (why)
		*why = xasprintf(fmt, arg);
	return st;
}

static enum cache_state check_sources(sqlite3 *db, char **why)
{
	sqlite3_stmt *st;
	enum cache_state state = CACHE_FRESH;

	if (sqlite3_prepare_v2(db, "SELECT path, size, mtime_ns FROM source",
			       -1, &st, NULL) != SQLITE_OK)
		return say(why, CACHE_BROKEN, "%s", "no source table");
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *p = (const char *)sqlite3_column_text(st, 0);
		struct stat sb;

		if (!p)
			continue;
		/* size -1: a file that was missing at import (a bundle's
		 * listed device profile); its arrival makes the cache stale */
		if (sqlite3_column_int64(st, 1) == -1) {
			if (!stat(p, &sb)) {
				state = say(why, CACHE_STALE, "%s appeared", p);
				break;
			}
			continue;
		}
		if (stat(p, &sb)) {
			state = say(why, CACHE_STALE, "%s is gone", p);
			break;
		}
		if ((int64_t)sb.st_size != sqlite3_column_int64(st, 1) ||
		    stat_mtime_ns(&sb) != sqlite3_column_int64(st, 2)) {
			state = say(why, CACHE_STALE, "%s changed", p);
			break;
		}
	}
	sqlite3_finalize(st);
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

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
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

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
	       p[3];
}

/* A cheap sign of damage: a file cut short or grown, its size no longer
 * the page size times the page count its header gives (when the header
 * vouches for that count). Damage inside is found by the queries that
 * read it (model.c). */
static int size_mismatch(const char *path, const struct stat *sb)
{
	unsigned char h[100];
	uint32_t psize;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, h, sizeof(h));

	if (fd >= 0)
		close(fd);
	if (n != (ssize_t)sizeof(h))
		return 1;
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

enum cache_state cache_check(const char *path, int check_src, char **why)
{
	sqlite3 *db = NULL;
	enum cache_state st;
	int64_t v = 0;
	struct stat sb;

	if (why)
		*why = NULL;
	if (stat(path, &sb))
		return CACHE_MISSING;
	if (!cache_is_sqlite(path))
		return say(why, CACHE_BROKEN, "%s", "not an SQLite file");
	if (size_mismatch(path, &sb))
		return say(why, CACHE_BROKEN, "%s", "damaged: cut short or grown");
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		sqlite3_close(db);
		return say(why, CACHE_BROKEN, "%s", "cannot be opened");
	}
	if (query_int(db, "PRAGMA user_version", &v)) {
		st = unreadable(db, why);
	} else if (v != SCHEMA_VERSION) {
		char ver[64];

		snprintf(ver, sizeof(ver), "%" PRId64 ", %s than this nxtop's %d",
			 v, v > SCHEMA_VERSION ? "newer" : "older",
			 SCHEMA_VERSION);
		st = say(why, CACHE_OTHER_VERSION, "schema version %s", ver);
	} else if (query_int(db, "SELECT value FROM meta WHERE key='complete'",
			     &v)) {
		st = sqlite3_errcode(db) == SQLITE_CORRUPT ? unreadable(db, why) :
		     say(why, CACHE_BROKEN, "%s", "incomplete");
	} else if (v != 1) {
		st = say(why, CACHE_BROKEN, "%s", "incomplete");
	} else if (query_int(db, "SELECT value FROM meta WHERE"
			     " key='import_version'", &v) || v != IMPORT_VERSION) {
		st = say(why, CACHE_OTHER_VERSION, "%s",
			 "written by another nxtop version");
	} else {
		st = check_src ? check_sources(db, why) : CACHE_FRESH;
	}
	sqlite3_close(db);
	return st;
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
