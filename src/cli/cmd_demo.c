/* nxtop demo: write a realistic demo bundle (once) and open it: a system
 * profile of 2 instances x 4 NeuronCores running 2 models, and a device
 * profile of each model, as JSON files or as Parquet folders. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "src/cli/cli.h"
#include "src/demo/demo.h"
#include "src/demo/demo_pq.h"
#include "src/demo/demo_system.h"
#include "model/cache/cache.h"
#include "model/file.h"

enum { OPT_EVENTS = 256, OPT_SEED, OPT_WRITE, OPT_SYSTEM_EVENTS, OPT_FORMAT,
       OPT_TABLE_ROWS };

/* Part of the demo file's name: a newer generator writes a new file. */
#define DEMO_VERSION 3

#define DEMO_INSTANCES 2
#define DEMO_CORES 4
/* Trace events per NeuronCore in the system profile, by default. */
#define DEMO_SYSTEM_EVENTS 20000
/* Parquet: rows of a table's file before it is split, by default, and
 * rows of a row group. */
#define DEMO_TABLE_ROWS 1000000
#define DEMO_GROUP_ROWS 65536

/* What to write: the options beyond the generator's. */
struct demo_bundle {
	int64_t system_events;
	int parquet;
	uint64_t table_rows;
};

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

static void bundle_model(struct demo_model *dm, int m)
{
	dm->id = demo_models[m].id;
	dm->neff = xasprintf("/home/ubuntu/%s/compiled/graph.neff",
			     demo_models[m].name);
	dm->profiled = 1;
	dm->exec_ns = 1000000;
}

static void bundle_opts(struct demo_opts *d, const struct demo_opts *o, int m)
{
	*d = *o;
	d->model_name = demo_models[m].name;
	d->nc_idx = 0;
	d->seed = o->seed + (uint64_t)m;
}

static void bundle_system(struct demo_system *s, const struct demo_opts *o,
			const struct demo_bundle *b, struct demo_model *models)
{
	memset(s, 0, sizeof(*s));
	s->instances = DEMO_INSTANCES;
	s->cores = DEMO_CORES;
	s->events = b->system_events;
	s->seed = o->seed;
	s->models = models;
	s->nmodels = 2;
}

/* The bundle in dir: the device profiles first, then the system profile
 * (its executions as long as the device profiles), written last so that
 * a folder with system_profile.json is whole. The files are named and
 * say NeuronCore 0 inside the way the tools write them: only the
 * bundle tells which core each one profiled. */
static int write_json(const char *dir, const struct demo_opts *o,
		      struct demo_system *s)
{
	struct demo_model *models = (struct demo_model *)s->models;
	char *path, *name;
	int rc = 0;

	for (int m = 0; m < 2 && !rc; m++) {
		struct demo_opts d;

		bundle_opts(&d, o, m);
		name = demo_device_name(s, m);
		path = xasprintf("%s/%s.json", dir, name);
		rc = write_device(path, &d, &models[m].exec_ns);
		free(path);
		free(name);
	}
	if (!rc) {
		path = xasprintf("%s/system_profile.json", dir);
		rc = write_system(path, s);
		free(path);
	}
	return rc;
}

/* The same as Parquet folders: <device profile name>@latest/ per model,
 * then DEMO_PQ_SYSTEM@latest/; a failure removes what was written. */
static int write_parquet(const char *dir, const struct demo_opts *o,
			 const struct demo_bundle *b, struct demo_system *s)
{
	struct demo_model *models = (struct demo_model *)s->models;
	struct demo_pq pq = { .split_rows = b->table_rows,
			      .group_rows = DEMO_GROUP_ROWS };
	char *path, *name;
	int rc = 0;

	if (pq.group_rows > b->table_rows)
		pq.group_rows = (size_t)b->table_rows;
	for (int m = 0; m < 2 && !rc; m++) {
		struct demo_opts d;

		bundle_opts(&d, o, m);
		name = demo_device_name(s, m);
		path = xasprintf("%s/%s@latest", dir, name);
		rc = demo_pq_device(&pq, path, &d, &models[m].exec_ns);
		free(path);
		free(name);
	}
	if (!rc) {
		path = xasprintf("%s/" DEMO_PQ_SYSTEM "@latest", dir);
		rc = demo_pq_system(&pq, path, s);
		free(path);
	}
	if (rc)
		demo_pq_undo(&pq);
	demo_pq_free(&pq);
	return rc;
}

static int write_bundle(const char *dir, const struct demo_opts *o,
			const struct demo_bundle *b)
{
	struct demo_model models[2];
	struct demo_system s;
	int rc;

	if (mkdirs(dir))
		return -1;
	for (int m = 0; m < 2; m++)
		bundle_model(&models[m], m);
	bundle_system(&s, o, b, models);
	rc = b->parquet ? write_parquet(dir, o, b, &s) : write_json(dir, o, &s);
	for (int m = 0; m < 2; m++)
		free((char *)models[m].neff);
	return rc;
}

/* The file a whole bundle has: the system profile, written last. */
static char *bundle_marker(const char *dir, const struct demo_bundle *b)
{
	if (b->parquet)
		return xasprintf("%s/" DEMO_PQ_SYSTEM "@latest/%s", dir,
				 DEMO_PQ_MARKER);
	return xasprintf("%s/system_profile.json", dir);
}

/* $XDG_CACHE_HOME/nxtop/demo/bundle-v3-s<seed>-e<events>-n<system>/
 * (JSON) or pqbundle-v3-s<seed>-e<events>-n<system>-r<rows>/, made once. */
static char *demo_path(const struct demo_opts *o, const struct demo_bundle *b,
		       int quiet)
{
	char *dir = cache_private_dir(), *path, *marker;
	struct stat sb;
	int whole;

	if (!dir)
		return NULL;
	if (b->parquet)
		path = xasprintf("%s/demo/pqbundle-v%d-s%" PRIu64 "-e%" PRIu64
				 "-n%" PRId64 "-r%" PRIu64, dir, DEMO_VERSION,
				 o->seed, o->events, b->system_events,
				 b->table_rows);
	else
		path = xasprintf("%s/demo/bundle-v%d-s%" PRIu64 "-e%" PRIu64
				 "-n%" PRId64, dir, DEMO_VERSION, o->seed,
				 o->events, b->system_events);
	free(dir);
	marker = bundle_marker(path, b);
	whole = stat(marker, &sb) == 0;
	free(marker);
	if (whole)
		return path;
	if (!quiet)
		err_note("writing the demo bundle %s", path);
	if (write_bundle(path, o, b)) {
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
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "table-rows", required_argument, NULL, OPT_TABLE_ROWS },
		{ NULL, 0, NULL, 0 },
	};
	const char *write = NULL;
	uint64_t system_events = DEMO_SYSTEM_EVENTS;
	struct demo_bundle b = { .table_rows = DEMO_TABLE_ROWS };
	struct demo_opts o;
	char *path;
	int opt, rc, table_rows_given = 0;

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
		case OPT_FORMAT:
			if (!strcmp(optarg, "parquet"))
				b.parquet = 1;
			else if (strcmp(optarg, "json"))
				return cli_usage_error("--format takes json or "
						       "parquet, not '%s'", optarg);
			break;
		case OPT_TABLE_ROWS:
			if ((rc = parse_u64_arg("--table-rows", optarg,
						 &b.table_rows, 1, UINT32_MAX)))
				return rc;
			table_rows_given = 1;
			break;
		default:
			return cli_bad_option(argv);
		}
	}
	if (optind < argc)
		return cli_usage_error("unexpected argument '%s'", argv[optind]);
	if (table_rows_given && !b.parquet)
		return cli_usage_error("--table-rows goes with --format parquet");
	b.system_events = (int64_t)system_events;
	/* FILE.json: one device profile; anything else: a bundle folder */
	if (write && has_suffix(write, ".json") && b.parquet)
		return cli_usage_error("--format parquet writes a folder, not "
				       "'%s'", write);
	if (write && has_suffix(write, ".json"))
		return write_file(write, &o) ? cli_fail() : 0;
	if (write)
		return write_bundle(write, &o, &b) ? cli_fail() : 0;
	path = demo_path(&o, &b, c->imp.quiet);
	if (!path)
		return cli_fail();
	rc = cli_view(c, path, NULL);
	free(path);
	return rc;
}
