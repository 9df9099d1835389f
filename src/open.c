#include "config.h"

#include "open.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/cache.h"
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

static int open_dir(const char *input)
{
	err_set("%s: a folder with nothing nxtop reads (expected Neuron"
		" profile JSON, .pftrace or Chrome trace files)", input);
	return -1;
}

int open_profile(const char *input, const struct import_opts *o, char **cache)
{
	struct stat sb;
	enum cache_state st;
	char *why = NULL;
	char *path;

	*cache = NULL;
	if (check_input(input, &sb))
		return -1;
	if (S_ISDIR(sb.st_mode))
		return open_dir(input);
	if (import_detect(input) == FMT_CACHE) {
		st = cache_check(input, 0, &why);
		if (st != CACHE_FRESH) {
			err_set("%s: not a usable nxtop cache (%s)", input,
				why ? why : "unknown state");
			free(why);
			return -1;
		}
		*cache = xstrdup(input);
		return 0;
	}
	path = cache_path_for(input);
	st = cache_check(path, 1, &why);
	if (st == CACHE_FRESH && !o->force) {
		*cache = path;
		return 0;
	}
	if (!o->quiet && st != CACHE_MISSING && !o->force)
		fprintf(stderr, "nxtop: rebuilding %s (%s)\n", path,
			why ? why : "outdated");
	free(why);
	if (import_build(input, path, o)) {
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

	if (check_input(input, &sb))
		return -1;
	if (S_ISDIR(sb.st_mode))
		return open_dir(input);
	return import_build(input, cache_out, o);
}
