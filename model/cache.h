/* Where a profile's cache lives, whether it can be reused, and how a new
 * one is put in place without ever exposing a half-built file. */
#ifndef NX_CACHE_H
#define NX_CACHE_H

#include <stdint.h>
#include <sys/stat.h>

#define CACHE_SUFFIX ".nxdb"

enum cache_state {
	CACHE_MISSING,		/* no file */
	CACHE_FRESH,		/* complete, current schema, sources unchanged */
	CACHE_STALE,		/* a source file changed or vanished */
	CACHE_OTHER_VERSION,	/* written by another schema version */
	CACHE_BROKEN,		/* not a complete nxtop cache */
};

/* The cache path for an input file or folder: "<input>.nxdb" beside it
 * when that folder is writable (and the name fits), else
 * cache_path_private(). Returns a malloc'd string, or NULL with err_get()
 * set when there is no usable place. */
char *cache_path_for(const char *input);

/* $XDG_CACHE_HOME/nxtop/<name>-<hash>.nxdb, in a folder only this user
 * can write to; NULL with err_get() set when that folder is not usable. */
char *cache_path_private(const char *input);

/* Checks a cache; *why (malloc'd, may be NULL) explains a non-fresh state.
 * With check_sources == 0 the source files are not compared. */
enum cache_state cache_check(const char *path, int check_sources, char **why);

/* A meta value of a cache (malloc'd), or NULL. */
char *cache_meta(const char *path, const char *key);

/* Creates the temporary file a cache is built in, beside it, with a
 * random name (model/file.h); the descriptor holds its lock and is
 * closed once the cache is committed or removed. -1 with err_get() set. */
int cache_temp_create(const char *path, char **tmp);

/* Makes a finished temporary cache (open as fd) durable and renames it
 * into place, unless something replaced it meanwhile. */
int cache_commit(const char *tmp, int fd, const char *path);

int64_t stat_mtime_ns(const struct stat *sb);

/* 1 if path names a file that starts like an SQLite database. */
int cache_is_sqlite(const char *path);

#endif
