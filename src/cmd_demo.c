/* nxtop demo: write a realistic demo profile (once) and open it. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "demo.h"

enum { OPT_EVENTS = 256, OPT_SEED, OPT_WRITE };

/* Part of the demo file's name: a newer generator writes a new file. */
#define DEMO_VERSION 1

static int parse_u64_arg(const char *opt, const char *s, uint64_t *out,
			 uint64_t min, uint64_t max)
{
	if (parse_u64(s, strlen(s), out) || *out < min || *out > max)
		return cli_usage_error("%s takes a number from %" PRIu64 " to %"
				       PRIu64 ", not '%s'", opt, min, max, s);
	return 0;
}

static int write_file(const char *path, const struct demo_opts *o)
{
	char *tmp = xasprintf("%s.tmp-%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	int rc;

	if (!f) {
		err_set("%s: %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	rc = demo_write_device(f, o);
	if (fclose(f) && !rc) {
		err_set("%s: %s", path, strerror(errno));
		rc = -1;
	}
	if (!rc && rename(tmp, path)) {
		err_set("%s: %s", path, strerror(errno));
		rc = -1;
	}
	if (rc)
		unlink(tmp);
	free(tmp);
	return rc;
}

/* $XDG_CACHE_HOME/nxtop/demo/demo-v1-s<seed>-e<events>.json, made once. */
static char *demo_path(const struct demo_opts *o, int quiet)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	char *dir, *path;
	struct stat sb;

	if (xdg && *xdg == '/')
		dir = xasprintf("%s/nxtop/demo", xdg);
	else
		dir = xasprintf("%s/.cache/nxtop/demo", home && *home ? home : "/tmp");
	if (mkdirs(dir)) {
		free(dir);
		return NULL;
	}
	path = xasprintf("%s/demo-v%d-s%" PRIu64 "-e%" PRIu64 ".json", dir,
			 DEMO_VERSION, o->seed, o->events);
	free(dir);
	if (stat(path, &sb) == 0)
		return path;
	if (!quiet)
		fprintf(stderr, "nxtop: writing the demo profile %s\n", path);
	if (write_file(path, o)) {
		free(path);
		return NULL;
	}
	return path;
}

int cmd_demo(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_COMMON_OPTIONS,
		CLI_VIEW_OPTIONS,
		{ "events", required_argument, NULL, OPT_EVENTS },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "write", required_argument, NULL, OPT_WRITE },
		{ NULL, 0, NULL, 0 },
	};
	const char *write = NULL;
	struct demo_opts o;
	char *path;
	int opt, rc;

	demo_opts_init(&o);
	while ((opt = getopt_long(argc, argv, CLI_COMMON_SHORT, opts, NULL)) != -1) {
		if (cli_common(c, opt))
			continue;
		if ((rc = cli_view_option(c, opt)) == 1)
			continue;
		if (rc)
			return rc;
		switch (opt) {
		case OPT_EVENTS:
			if ((rc = parse_u64_arg("--events", optarg, &o.events, 100,
						 1000000000)))
				return rc;
			break;
		case OPT_SEED:
			if ((rc = parse_u64_arg("--seed", optarg, &o.seed, 0,
						 UINT64_MAX)))
				return rc;
			break;
		case OPT_WRITE:
			write = optarg;
			break;
		default:
			return cli_bad_option(argv);
		}
	}
	if (optind < argc)
		return cli_usage_error("unexpected argument '%s'", argv[optind]);
	if (write)
		return write_file(write, &o) ? cli_fail() : 0;
	path = demo_path(&o, c->imp.quiet);
	if (!path)
		return cli_fail();
	rc = cli_view(c, path);
	free(path);
	return rc;
}
