#include "config.h"

#include "open.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/cache.h"
#include "model/file.h"
#include "model/text.h"
#include "model/util.h"

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
	uint64_t h = 1469598103934665603ull;

	if (!path || !*filter)
		return path;
	n = strlen(path) - strlen(CACHE_SUFFIX);
	for (const char *c = filter; *c; c++) {
		h ^= (unsigned char)*c;
		h *= 1099511628211ull;
	}
	out = xasprintf("%.*s.%016" PRIx64 "%s", (int)n, path, h, CACHE_SUFFIX);
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
	if (!quiet) {
		char *clean = text_clean(path);

		fprintf(stderr, "nxtop: %s is %s: not used\n", clean,
			file_owner_why(fo));
		free(clean);
	}
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

/* Imports of one input take turns: the second waits, then finds the
 * first one's cache and uses it. The lock is on the input itself, so
 * that no lock file is left behind, and goes when the import ends or
 * its process dies. Where there is no flock (some network file systems)
 * imports run side by side, each renaming a complete cache into place.
 * Returns the descriptor to close, or -1. */
static int lock_input(const char *input, int quiet)
{
	int fd = open(input, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return -1;
	if (!flock(fd, LOCK_EX | LOCK_NB))
		return fd;
	if (errno != EWOULDBLOCK) {
		close(fd);
		return -1;
	}
	if (!quiet)
		fprintf(stderr, "nxtop: waiting for another nxtop importing %s\n",
			input);
	while (flock(fd, LOCK_EX) && errno == EINTR)
		;
	return fd;
}

static void unlock_input(int fd)
{
	if (fd >= 0)
		close(fd);
}

/* A cache named by the user: used as it is, once it is found valid;
 * one not built here is read through first (see cache_check). */
static int open_named_cache(const char *input, int quiet, char **cache)
{
	enum cache_state st;
	char *why = NULL;

	if (!quiet && !cache_built_here(input)) {
		char *clean = text_clean(input);

		fprintf(stderr, "nxtop: %s was not built here from its profile:"
			" checking all of it\n", clean);
		free(clean);
	}
	st = cache_check(input, NULL, &why);
	if (st != CACHE_FRESH) {
		err_set("%s: not a usable nxtop cache (%s)", input,
			why ? why : "unknown state");
		free(why);
		return -1;
	}
	*cache = xstrdup(input);
	return 0;
}

int open_profile(const char *input, const struct import_opts *o, char **cache)
{
	struct stat sb;
	enum cache_state st;
	struct strbuf filter;
	char *why = NULL;
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
	path = cache_usable(input, sb_cstr(&filter), o->quiet);
	if (!path) {
		sb_free(&filter);
		return -1;
	}
	st = check_filter(path, cache_check(path, input, &why), sb_cstr(&filter),
			  &why);
	if (st != CACHE_FRESH || o->force) {
		/* another import of it may be under way: wait, look again */
		lock = lock_input(input, o->quiet);
		if (!o->force) {
			free(why);
			st = check_filter(path, cache_check(path, input, &why),
					  sb_cstr(&filter), &why);
		}
	}
	sb_free(&filter);
	if (st == CACHE_FRESH && !o->force) {
		unlock_input(lock);
		free(why);
		/* what a killed import left beside it */
		import_remove_stale(path);
		*cache = path;
		return 0;
	}
	if (!o->quiet && st != CACHE_MISSING && !o->force)
		fprintf(stderr, "nxtop: rebuilding %s (%s)\n", path,
			why ? why : "outdated");
	free(why);
	rc = import_build(input, path, o);
	unlock_input(lock);
	if (rc) {
		free(path);
		return -1;
	}
	*cache = path;
	return 0;
}

int open_import_to(const char *input, const char *cache_out,
		   const struct import_opts *o)
{
	struct stat sb;

	int lock, rc;

	if (check_input(input, &sb))
		return -1;
	lock = lock_input(input, o->quiet);
	rc = import_build(input, cache_out, o);
	unlock_input(lock);
	return rc;
}
