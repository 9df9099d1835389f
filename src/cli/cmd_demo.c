/* nxtop demo: write a realistic demo bundle (once) and open it: a system
 * profile of 2 instances x 4 NeuronCores running 2 models, and a device
 * profile of each model. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "src/cli/cli.h"
#include "src/demo/demo.h"
#include "src/demo/demo_system.h"
#include "model/cache.h"
#include "model/file.h"

enum { OPT_EVENTS = 256, OPT_SEED, OPT_WRITE, OPT_SYSTEM_EVENTS };

/* Part of the demo file's name: a newer generator writes a new file. */
#define DEMO_VERSION 3

#define DEMO_INSTANCES 2
#define DEMO_CORES 4
/* Trace events per NeuronCore in the system profile, by default. */
#define DEMO_SYSTEM_EVENTS 20000

/* The two models: the first runs on NeuronCores 0-1 of each instance,
 * the second on 2-3. */
static const struct {
	const char *name, *id;
} demo_models[2] = {
	{ "bert-large", "1578576049" },
	{ "llama-3-8b", "446048307616134" },
};

static int parse_u64_arg(const char *opt, const char *s, uint64_t *out,
			 uint64_t min, uint64_t max)
{
	if (parse_u64(s, strlen(s), out) || *out < min || *out > max)
		return cli_usage_error("%s takes a number from %" PRIu64 " to %"
				       PRIu64 ", not '%s'", opt, min, max, s);
	return 0;
}

/* Writes one device profile through a temporary file (model/file.h);
 * *len_ns gets its length. */
static int write_device(const char *path, const struct demo_opts *o,
			int64_t *len_ns)
{
	struct file_out out;
	FILE *f = file_out_open(&out, path, 0666);

	if (!f)
		return -1;
	if (demo_write_device_len(f, o, len_ns)) {
		file_out_abort(&out);
		return -1;
	}
	return file_out_commit(&out);
}

/* The system profile, the same way. */
static int write_system(const char *path, const struct demo_system *s)
{
	struct file_out out;
	FILE *f = file_out_open(&out, path, 0666);

	if (!f)
		return -1;
	if (demo_write_system(f, s)) {
		file_out_abort(&out);
		return -1;
	}
	return file_out_commit(&out);
}

static int write_file(const char *path, const struct demo_opts *o)
{
	int64_t len;

	return write_device(path, o, &len);
}

/* The bundle in dir: the device profiles first, then the system profile
 * (its executions as long as the device profiles), written last so that
 * a folder with system_profile.json is whole. The files are named and
 * say NeuronCore 0 inside the way the tools write them: only the
 * bundle tells which core each one profiled. */
static int write_bundle(const char *dir, const struct demo_opts *o,
			int64_t system_events)
{
	struct demo_model models[2];
	struct demo_system s = {
		.instances = DEMO_INSTANCES, .cores = DEMO_CORES,
		.events = system_events, .seed = o->seed,
		.models = models, .nmodels = 2,
	};
	char *neff[2], *sys;
	int rc = 0;

	if (mkdirs(dir))
		return -1;
	for (int m = 0; m < 2; m++) {
		neff[m] = xasprintf("/home/ubuntu/%s/compiled/graph.neff",
				    demo_models[m].name);
		models[m].id = demo_models[m].id;
		models[m].neff = neff[m];
		models[m].profiled = 1;
		models[m].exec_ns = 1000000;
	}
	for (int m = 0; m < 2 && !rc; m++) {
		struct demo_opts d = *o;
		char *name = demo_device_name(&s, m);
		char *path = xasprintf("%s/%s.json", dir, name);

		d.model_name = demo_models[m].name;
		d.nc_idx = 0;
		d.seed = o->seed + (uint64_t)m;
		rc = write_device(path, &d, &models[m].exec_ns);
		free(path);
		free(name);
	}
	if (!rc) {
		sys = xasprintf("%s/system_profile.json", dir);
		rc = write_system(sys, &s);
		free(sys);
	}
	for (int m = 0; m < 2; m++)
		free(neff[m]);
	return rc;
}

/* $XDG_CACHE_HOME/nxtop/demo/bundle-v3-s<seed>-e<events>-n<system>/,
 * made once. */
static char *demo_path(const struct demo_opts *o, int64_t system_events,
		       int quiet)
{
	char *dir = cache_private_dir(), *path, *sys;
	struct stat sb;

	if (!dir)
		return NULL;
	path = xasprintf("%s/demo/bundle-v%d-s%" PRIu64 "-e%" PRIu64 "-n%" PRId64,
			 dir, DEMO_VERSION, o->seed, o->events, system_events);
	free(dir);
	sys = xasprintf("%s/system_profile.json", path);
	if (stat(sys, &sb) == 0) {
		free(sys);
		return path;
	}
	free(sys);
	if (!quiet)
		err_note("writing the demo bundle %s", path);
	if (write_bundle(path, o, system_events)) {
		free(path);
		return NULL;
	}
	return path;
}

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

int cmd_demo(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_COMMON_OPTIONS,
		CLI_VIEW_OPTIONS,
		{ "events", required_argument, NULL, OPT_EVENTS },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "write", required_argument, NULL, OPT_WRITE },
		{ "system-events", required_argument, NULL, OPT_SYSTEM_EVENTS },
		{ NULL, 0, NULL, 0 },
	};
	const char *write = NULL;
	uint64_t system_events = DEMO_SYSTEM_EVENTS;
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
		case OPT_SYSTEM_EVENTS:
			if ((rc = parse_u64_arg("--system-events", optarg,
						 &system_events, 1, 100000000)))
				return rc;
			break;
		default:
			return cli_bad_option(argv);
		}
	}
	if (optind < argc)
		return cli_usage_error("unexpected argument '%s'", argv[optind]);
	/* FILE.json: one device profile; anything else: a bundle folder */
	if (write && has_suffix(write, ".json"))
		return write_file(write, &o) ? cli_fail() : 0;
	if (write)
		return write_bundle(write, &o, (int64_t)system_events) ?
			       cli_fail() : 0;
	path = demo_path(&o, (int64_t)system_events, c->imp.quiet);
	if (!path)
		return cli_fail();
	rc = cli_view(c, path);
	free(path);
	return rc;
}
