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
 * when that folder is writable, else $XDG_CACHE_HOME/nxtop/<name>-<hash>.nxdb.
 * Returns a malloc'd string. */
char *cache_path_for(const char *input);

/* Checks a cache; *why (malloc'd, may be NULL) explains a non-fresh state.
 * With check_sources == 0 the source files are not compared. */
enum cache_state cache_check(const char *path, int check_sources, char **why);

/* A meta value of a cache (malloc'd), or NULL. */
char *cache_meta(const char *path, const char *key);

/* A temporary name in the cache's folder, unique to this process. */
char *cache_temp_path(const char *path);

/* Makes a finished temporary cache durable and renames it into place. */
int cache_commit(const char *tmp, const char *path);

int64_t stat_mtime_ns(const struct stat *sb);

/* 1 if path names a file that starts like an SQLite database. */
int cache_is_sqlite(const char *path);

#endif
