#include "config.h"

#include "src/cli/open.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/cache/cache.h"
#include "model/cache/db.h"
#include "model/file.h"
#include "model/model.h"
#include "model/text.h"
#include "model/util.h"
#include "model/writer/writer.h"
#include "src/cli/progress.h"
#include "src/import/background.h"
#include "src/import/bundle.h"
#include "src/import/jax.h"
#include "src/import/parquet/folder.h"

static int check_input(const char *input, struct stat *sb)
{
	if (stat(input, sb)) {
		err_set("%s: %s", input, strerror(errno));
		return -1;
	}
	if (S_ISDIR(sb->st_mode) || S_ISREG(sb->st_mode))
		return 0;
	err_set("%s: not a regular file or folder", input);
	return -1;
}

static uint64_t hash_text(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ull;
	}
	return h;
}

/* The cache of input under filters: "<input>.nxdb", or with filters
 * "<input>.<hash>.nxdb", so that each choice keeps its own; in this
 * user's own cache folder when private is set or the name is too long. */
static char *cache_for(const char *input, const char *filter, int private)
{
	char *path = private ? cache_path_private(input) :
		     cache_path_for(input);
	char *out;
	const char *base;
	size_t n;

	if (!path || !*filter)
		return path;
	n = strlen(path) - strlen(CACHE_SUFFIX);
	out = xasprintf("%.*s.%016" PRIx64 "%s", (int)n, path,
			hash_text(filter), CACHE_SUFFIX);
	free(path);
	base = strrchr(out, '/') ? strrchr(out, '/') + 1 : out;
	if (strlen(base) > NAME_MAX && !private) {
		free(out);
		return cache_for(input, filter, 1);
	}
	return out;
}

/* The cache path to use: another user's file, a link or anything but a
 * regular file where the cache would be is left alone (in a shared
 * folder it may have been planted), and this user's own cache folder
 * used instead. */
static char *cache_usable(const char *input, const char *filter, int quiet)
{
	char *path = cache_for(input, filter, 0);
	enum file_owner fo = path ? file_owner(path) : FILE_NONE;

	if (fo == FILE_NONE || fo == FILE_MINE)
		return path;
	if (!quiet)
		err_note("%s is %s: not used", path, file_owner_why(fo));
	free(path);
	return cache_for(input, filter, 1);
}

/* A fresh cache built with other filters is not this one. */
static enum cache_state check_filter(const char *path, enum cache_state st,
				     const char *filter, char **why)
{
	char *have;

	if (st != CACHE_FRESH)
		return st;
	have = cache_meta(path, "filter");
	if (!have || strcmp(have, filter)) {
		free(*why);
		*why = xstrdup("built with other filters");
		st = CACHE_STALE;
	}
	free(have);
	return st;
}

/* The cache to open input with, and its state: the one beside input
 * (read even where its folder is not writable), or this user's own when
 * that one is to be built and cannot be. */
static char *cache_pick(const char *input, const char *filter,
			const struct import_opts *o, enum cache_state *st,
			char **why)
{
	char *path = cache_usable(input, filter, o->quiet);

	if (!path)
		return NULL;
	*st = check_filter(path, cache_check(path, input, why), filter, why);
	if ((*st == CACHE_FRESH && !o->force) || db_dir_writable(path))
		return path;
	if (!o->quiet && *st != CACHE_MISSING && *st != CACHE_FRESH)
		err_note("%s is not used (%s): building one in your own"
			 " cache folder", path, *why ? *why : "outdated");
	free(path);
	free(*why);
	*why = NULL;
	path = cache_for(input, filter, 1);
	if (path)
		*st = check_filter(path, cache_check(path, input, why), filter,
				   why);
	return path;
}

/* How long an import waits for another one of the same cache. */
#define LOCK_WAIT_MS 5000

/* The lock of a cache: a file in this user's own cache folder, named
 * after the cache's path, so that no other user can take it. */
static char *lock_path(const char *cache)
{
	char *dir = cache_private_dir(), *locks, *real, *path = NULL;

	if (!dir)
		return NULL;
	locks = xasprintf("%s/locks", dir);
	real = file_real_dir(cache);
	if (!file_private_dir(locks))
		path = xasprintf("%s/%016" PRIx64 ".lock", locks,
				 hash_text(real));
	free(real);
	free(locks);
	free(dir);
	return path;
}

/* Imports of one cache take turns: the second waits, then finds the
 * first one's cache and uses it. The wait is bounded: past it (an
 * import of a huge file), this one goes ahead too, and each renames a
 * complete cache into place. Where there is no lock (no cache folder,
 * no flock) imports run side by side the same way. Returns the
 * descriptor to pass to file_unlock, or -1. */
static int lock_cache(const char *lock, const char *input, int quiet)
{
	int fd, busy;

	if (!lock)
		return -1;
	fd = file_lock(lock, 0, &busy);
	if (fd >= 0 || !busy)
		return fd;
	if (!quiet)
		err_note("waiting for another nxtop importing %s", input);
	fd = file_lock(lock, LOCK_WAIT_MS, &busy);
	if (busy && !quiet)
		err_note("another nxtop has been importing %s for %d s:"
			 " importing it here too", input, LOCK_WAIT_MS / 1000);
	return fd;
}

/* A cache named by the user: used as it is, once it is found valid;
 * one not built here is read through first (see cache_check). */
static int open_named_cache(const char *input, int quiet, char **cache)
{
	enum cache_state st;
	char *why = NULL;

	if (!quiet && cache_built_here(input) == 0)
		err_note("%s was not built here from its profile: checking"
			 " all of it", input);
	st = cache_check(input, NULL, &why);
	if (st != CACHE_FRESH) {
		char *from = st == CACHE_OTHER_VERSION || st == CACHE_STALE ?
			     cache_meta(input, "input") : NULL;

		/* the way to a usable one: open the profile it came from */
		if (from && *from && !access(from, F_OK))
			err_set("%s: not a usable nxtop cache (%s); open its"
				" profile, %s, to build it again", input,
				why ? why : "unknown state", from);
		else
			err_set("%s: not a usable nxtop cache (%s)", input,
				why ? why : "unknown state");
		free(from);
		free(why);
		return -1;
	}
	*cache = xstrdup(input);
	return 0;
}

static void show_progress(void *ctx, const char *what, int pct,
			  uint64_t events)
{
	if (what)
		progress_update(ctx, what, pct, events);
	else
		progress_done(ctx);
}

/* import_build() with a progress line on stderr unless quiet. */
static int build(const char *input, const char *cache_path,
		 const struct import_opts *o)
{
	struct import_opts shown = *o;
	int rc;

	shown.progress.ctx = progress_new(!o->quiet);
	shown.progress.fn = show_progress;
	rc = import_build(input, cache_path, &shown);
	progress_free(shown.progress.ctx);
	return rc;
}

/* Device profiles a viewer left queued are imported now, unless this is
 * a viewer too (it imports them in the background); then the cache
 * leaves the WAL mode their import needed. */
static int finish_devices(const char *path, const struct import_opts *o)
{
	struct import_opts shown = *o;
	int rc;

	if (o->defer_devices)
		return 0;
	shown.progress.ctx = progress_new(!o->quiet);
	shown.progress.fn = show_progress;
	rc = background_finish(path, &shown);
	progress_free(shown.progress.ctx);
	if (!rc)
		writer_settle(path);
	return rc;
}

int open_profile(const char *input, const struct import_opts *o, char **cache)
{
	struct stat sb;
	enum cache_state st;
	struct strbuf filter;
	char *why = NULL, *lock_file = NULL;
	char *path;
	int lock = -1, rc;

	*cache = NULL;
	if (check_input(input, &sb))
		return -1;
	if (!S_ISDIR(sb.st_mode) && import_detect(input) == FMT_CACHE)
		return open_named_cache(input, o->quiet, cache);
	sb_init(&filter);
	if (import_filter_key(o, &filter)) {
		sb_free(&filter);
		return -1;
	}
	path = cache_pick(input, sb_cstr(&filter), o, &st, &why);
	if (!path) {
		sb_free(&filter);
		return -1;
	}
	if (st != CACHE_FRESH || o->force) {
		/* another import of it may be under way: wait, look again */
		lock_file = lock_path(path);
		lock = lock_cache(lock_file, input, o->quiet);
		if (!o->force) {
			free(why);
			st = check_filter(path, cache_check(path, input, &why),
					  sb_cstr(&filter), &why);
		}
	}
	sb_free(&filter);
	if (st == CACHE_FRESH && !o->force) {
		file_unlock(lock_file, lock);
		free(lock_file);
		free(why);
		/* what a killed import left beside it */
		import_remove_stale(path);
		*cache = path;
		return finish_devices(path, o);
	}
	if (!o->quiet && st != CACHE_MISSING && !o->force)
		err_note("rebuilding %s (%s)", path, why ? why : "outdated");
	free(why);
	rc = build(input, path, o);
	file_unlock(lock_file, lock);
	free(lock_file);
	if (rc) {
		free(path);
		return -1;
	}
	*cache = path;
	return finish_devices(path, o);
}

/* What -o names is replaced by the new cache only where that cannot
 * lose a user's file: not the profile itself, not a file that is no
 * SQLite database (a mistyped name), not what another user may have put
 * in a folder others can write to. */
static int check_output(const char *input, const char *out)
{
	enum file_owner fo = file_owner(out);
	const char *why = NULL;
	struct stat sb;

	if (file_same_file(input, out))
		why = "is the profile being imported";
	else if (fo == FILE_MINE && !file_is_sqlite(out) &&
		 !stat(out, &sb) && sb.st_size > 0)
		why = "is not an nxtop cache (remove it first to use the name)";
	else if (fo == FILE_NOT_REGULAR)
		why = file_owner_why(fo);
	else if ((fo == FILE_LINK || fo == FILE_OTHERS) && file_dir_shared(out))
		why = fo == FILE_LINK ? "a link another user may have put there" :
					"another user's file";
	if (!why)
		return 0;
	err_set("%s: %s: not replaced", out, why);
	return -1;
}

/* What the plan of the import (import_plan) could not know is known
 * once it is done: the new cache names every file it read. */
static int check_built(const char *built, void *out)
{
	struct model *m = model_open(built);
	int rc;

	if (!m)
		return -1;
	rc = open_output_check(m, out, "imported");
	model_close(m);
	return rc;
}

/* 1 if the import that read source s takes a file named name in folder
 * dir by its name alone: beside a system profile JSON, the bundle's
 * names; beside a table file, other table files; in a JAX run's folder,
 * its trace files. */
static int takes_name(const struct msource *s, const char *dir,
		      const char *name)
{
	struct stat sb;
	char *sdir;
	int yes = 0;

	if (!strcmp(s->role, "folder"))
		return !strcmp(s->path, dir) && jax_takes_name(name);
	sdir = file_dir(s->path);
	if (!strcmp(sdir, dir)) {
		if (!strcmp(s->role, "table"))
			yes = pqfolder_takes_name(name);
		else if (!strcmp(s->role, "system") && !stat(s->path, &sb) &&
			 S_ISREG(sb.st_mode))
			yes = bundle_takes_name(name);
	}
	free(sdir);
	return yes;
}

/* open_output_check over the sources v of a profile, read from the
 * cache named cache (NULL: none yet). */
static int check_sources(const struct msource *v, size_t n,
			 const char *cache, const char *out, const char *done)
{
	char *real = file_real_dir(out), *dir = file_dir(real);
	const char *name = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
	const char *why = NULL;
	char *own = xasprintf("is a file of the profile being %s", done);

	if (cache && file_same_file(out, cache))
		why = "is the cache the profile is read from";
	for (size_t i = 0; i < n && !why; i++)
		if (file_same_file(out, v[i].path) || !strcmp(real, v[i].path))
			why = v[i].missing ? "is a device profile the bundle"
					     " lists" : own;
	for (size_t i = 0; i < n && !why; i++)
		if (takes_name(&v[i], dir, name))
			why = "the profile's next import would read a file of"
			      " that name as one of its own";
	free(dir);
	free(real);
	if (why)
		err_set("%s: %s: not written", out, why);
	free(own);
	return why ? -1 : 0;
}

/* The files the import will read, where they are known before it runs:
 * refused before a long import rather than after it. */
static int check_planned(const char *input, const char *out,
			 const struct import_opts *o)
{
	struct msource *v;
	size_t n;
	int rc;

	import_plan(input, o, &v, &n);
	rc = check_sources(v, n, NULL, out, "imported");
	model_sources_free(v, n);
	return rc;
}

int open_import_to(const char *input, const char *cache_out,
		   const struct import_opts *o)
{
	struct import_opts checked = *o;
	struct stat sb;
	char *lock_file;
	int lock, rc;

	if (check_input(input, &sb) || check_output(input, cache_out) ||
	    check_planned(input, cache_out, o))
		return -1;
	checked.check = check_built;
	checked.check_ctx = (void *)cache_out;
	lock_file = lock_path(cache_out);
	lock = lock_cache(lock_file, input, o->quiet);
	rc = build(input, cache_out, &checked);
	file_unlock(lock_file, lock);
	free(lock_file);
	return rc;
}

int open_output_check(struct model *m, const char *out, const char *done)
{
	struct msource *v;
	size_t n;
	int rc;

	if (model_sources(m, &v, &n))
		return -1;
	rc = check_sources(v, n, model_path(m), out, done);
	model_sources_free(v, n);
	return rc;
}
