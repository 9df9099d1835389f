/* Where a profile's cache lives, whether it can be reused, and how a new
 * one is put in place without ever exposing a half-built file. */
#ifndef NX_CACHE_H
#define NX_CACHE_H

#include <stdint.h>
#include <sys/stat.h>

#define CACHE_SUFFIX ".nxdb"
/* The meta key of a cache that a device profile could not be written
 * into (a full disk): the next open builds it again. */
#define CACHE_META_RETRY "retry"

enum cache_state {
	CACHE_MISSING,		/* no file */
	CACHE_FRESH,		/* complete, current schema, valid, bound */
	CACHE_STALE,		/* a source file changed, vanished or is not
				 * the input */
	CACHE_OTHER_VERSION,	/* written by another schema version */
	CACHE_BROKEN,		/* not a complete nxtop cache */
};

/* The cache path for an input file or folder: "<input>.nxdb" beside it
 * when that folder is writable or something already has that name (and
 * the name fits), else cache_path_private(). Returns a malloc'd string, or NULL with err_get()
 * set when there is no usable place. */
char *cache_path_for(const char *input);

/* $XDG_CACHE_HOME/nxtop/<name>-<hash>.nxdb, in a folder only this user
 * can write to; NULL with err_get() set when that folder is not usable. */
char *cache_path_private(const char *input);

/* That folder, $XDG_CACHE_HOME/nxtop (~/.cache/nxtop), made when
 * missing and checked (model/file.h): malloc'd, or NULL with err_get()
 * set. */
char *cache_private_dir(void);

/* Checks a cache; *why (malloc'd, may be NULL) explains a non-fresh
 * state. input is the file or folder the cache must have been built
 * from (the cache nxtop keeps beside it): the cache must record it, and
 * every file it records must be in its folder and unchanged (struct
 * cache_stamp). With input NULL (a cache the user named) the files are
 * not required, but unless the cache was built here (cache_built_here)
 * every table is validated (model/cache/validate.h), which reads all of it. */
enum cache_state cache_check(const char *path, const char *input,
			     char **why);

/* 1 if the cache at path is this user's and every file it was built
 * from is as it was then, 0 if not, -1 if it cannot be opened or is of
 * another schema version (it is then not read through). */
int cache_built_here(const char *path);

/* What binds a cache to a file it was built from. The change time is
 * the kernel's: no copy, archive or touch carries it, so a cache from
 * elsewhere never matches a file here. */
struct cache_stamp {
	int64_t size;		/* -1: missing (or not a regular file) */
	int64_t mtime_ns, ctime_ns;
	int64_t hash;		/* FNV-1a 64 of the first and last blocks */
};
#define CACHE_STAMP_BLOCK 4096
/* A folder's stamp: the count of its entries as size, a hash of their
 * sorted names, no times; names beyond this many are not read. */
#define CACHE_STAMP_MAX_NAMES 100000

void cache_stamp_of(const char *path, struct cache_stamp *out);
/* A hash of the names and inodes of the entries of a folder, those of
 * the files nxtop writes there left out (a cache made in the folder it
 * reads, temporary files): it changes when a file is added, removed,
 * renamed or replaced by another, not when one is written in place. */
int64_t cache_dir_entries(const char *path);

/* A meta value of a cache (malloc'd), or NULL. */
char *cache_meta(const char *path, const char *key);
/* The kind of a cache's first top-level profile ("system", "device",
 * "trace"; malloc'd), or NULL. */
char *cache_root_kind(const char *path);

/* Creates the temporary file a cache is built in, beside it, with a
 * random name (model/file.h); the descriptor holds its lock and is
 * closed once the cache is committed or removed. -1 with err_get() set. */
int cache_temp_create(const char *path, char **tmp);

/* Makes a finished temporary cache (open as fd) durable and renames it
 * into place, unless something replaced it meanwhile. */
int cache_commit(const char *tmp, int fd, const char *path);

int64_t stat_mtime_ns(const struct stat *sb);


#endif
