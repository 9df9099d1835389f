#include "config.h"

#include "src/cli/cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/open.h"
#include "src/import/sysfilter.h"

static const char help_text[] =
	"Usage: nxtop [OPTIONS] [PROFILE | FOLDER | A B]\n"
	"       nxtop [OPTIONS] PROFILE [--at T] [--zoom A:B] [--search Q]\n"
	"                    [--select A:B [--tracks ROWS]]\n"
	"       nxtop import [OPTIONS] PROFILE [-o CACHE]\n"
	"       nxtop summary [OPTIONS] PROFILE [--format text|json|csv]\n"
	"       nxtop analyze [OPTIONS] PROFILE [--range A:B | --between M1,M2]\n"
	"                    [--rule IDS] [--set RULE.PARAM=V] [--format F]\n"
	"       nxtop export [OPTIONS] PROFILE [--what WHAT] [--range A:B]\n"
	"                    [--tracks ROWS] [--query QUERY] [--format FORMAT]\n"
	"       nxtop diff [OPTIONS] A B [--what WHAT] [--sort COLUMN]\n"
	"                  [--fail-if-slower PCT] [--format text|json|csv]\n"
	"       nxtop demo [--events N] [--system-events N] [--seed S]\n"
	"                  [--format json|parquet] [--table-rows N]\n"
	"                  [--write DIR|FILE.json]\n"
	"       nxtop list [DIR] [--data-path P] [--format text|json|csv]\n"
	"       nxtop --help | --version\n"
	"\n"
	"PROFILE is a Neuron device- or system-profile JSON file, a bundle\n"
	"folder (a system profile and its device profiles), a Neuron Explorer\n"
	"device or system profile folder of Parquet tables (NAME@latest/; a\n"
	"system folder opens with its sibling device folders), a Perfetto\n"
	"trace (.pftrace, .pftrace.gz), a Chrome trace-event JSON file\n"
	"(.json, .json.gz), a JAX log folder (its newest run of\n"
	"plugins/profile/, or --run), or an nxtop cache (.nxdb). The first\n"
	"open imports the profile into a cache beside it (PROFILE.nxdb);\n"
	"later opens reuse the cache while the files are unchanged.\n"
	"\n"
	"Without a command, nxtop opens the profile's timeline in the\n"
	"terminal (press ? there for the keys). Without a PROFILE, or on a\n"
	"FOLDER of profiles, it opens the Profile Manager: the profiles in\n"
	"Neuron Explorer's data path (or the folder) and the recent ones.\n"
	"\n"
	"Commands:\n"
	"  import     build (or rebuild) the cache and exit\n"
	"  summary    print the profile summary\n"
	"  analyze    run the analysis rules: findings, where, advice\n"
	"  export     print a summary: selection, layers, search, markers, info\n"
	"  diff       compare profile B with profile A (the base)\n"
	"  demo       write and open a demo bundle\n"
	"  list       print the Profile Manager's list\n"
	"\n"
	"Options:\n"
	"  -f, --force          rebuild the cache even if it is up to date\n"
	"  -q, --quiet          no progress line or notes on stderr\n"
	"  -o, --output=FILE    (import) the cache; (export) the output file,\n"
	"                       - for standard output\n"
	"      --format=FORMAT  text (default), json, or (export, diff, list)\n"
	"                       csv\n"
	"      --what=WHAT      (export) selection (default), window, layers,\n"
	"                       search, markers, info, devices, events or\n"
	"                       flows; (diff) overall (default), engines,\n"
	"                       layers, opcodes, hlo, dma or executions\n"
	"      --range=A:B      (export, analyze) time range from the profile start,\n"
	"                       e.g. 1.2ms:3.4ms; either side may be empty\n"
	"      --tracks=ROWS    (export, --select) comma-separated rows or groups\n"
	"      --query=QUERY    (export) search query (--what search)\n"
	"      --depth=N        (export layers) group layer names at depth N\n"
	"      --sort=COLUMN    (export layers) sort by a column, '-' first for\n"
	"                       descending: -dur, name, start, mfu, ...;\n"
	"                       (diff) time_delta, count_b, name, ...\n"
	"      --fail-if-slower=PCT  (diff) exit 3 when B's total time is\n"
	"                       more than PCT percent above A's\n"
	"      --section=KEY    (export info) one section: summary, neff_node...\n"
	"      --unit=UNIT      (export markers) ns, us, ms or s\n"
	"      --between=M1,M2  (analyze) the span between two markers\n"
	"      --rule=IDS       (analyze) only these rules: mfu,spill,...\n"
	"      --set=R.P=V      (analyze) a rule's threshold: mfu.min_pct=40\n"
	"      --max-ranges=N   (analyze) ranges listed per finding (5)\n"
	"      --max-findings=N (analyze) findings listed per rule (10)\n"
	"      --color=WHEN     (viewer) colours: auto (default; none with\n"
	"                       NO_COLOR), always or never\n"
	"      --ascii          (viewer) ASCII characters only\n"
	"      --no-mouse       (viewer) leave the mouse to the terminal\n"
	"                       (its own text selection)\n"
	"      --at=T           (viewer) open with the cursor at T, as :goto\n"
	"      --zoom=A:B       (viewer) open showing A to B, as :zoom\n"
	"      --search=Q       (viewer) open with search Q on\n"
	"      --select=A:B     (viewer) open with a box over A:B and the rows\n"
	"                       of --tracks (all without)\n"
	"      --align=OFFSET   (viewer, nxtop A B) open with B moved so from\n"
	"                       its start: ns, or 1.2ms; negative for earlier\n"
	"      --headless=SCRIPT  (viewer) run without a terminal, typing the\n"
	"                       keys of SCRIPT (for tests; see nxtop(1))\n"
	"      --dump=DIR       (viewer) where --headless writes screens\n"
	"      --data-path=P    (viewer, list) Neuron Explorer's data path:\n"
	"                       profiles in P/profiles/global\n"
	"System profiles:\n"
	"      --filter-nc=LIST           keep these NeuronCores: 0,2-3\n"
	"      --filter-event-type=NAMES  keep these events: nrt_execute,...\n"
	"      --filter-instance=IDS      keep these instances\n"
	"      --group=FIELDS   group rows by (instance_id,process_id)\n"
	"      --row=FIELDS     one row per (worker_gid,lnc_idx,thread_id);\n"
	"                       fields: instance_id, process_id, thread_id,\n"
	"                       lnc_idx, worker_gid\n"
	"Demo (nxtop demo):\n"
	"      --events=N       instruction and DMA records per device profile\n"
	"                       (200000; 100 to 1000000000)\n"
	"      --system-events=N  trace events per NeuronCore (20000; 1 to\n"
	"                       100000000)\n"
	"      --seed=S         random seed (1)\n"
	"      --format=FORMAT  json (default) or parquet: Neuron Explorer's\n"
	"                       folders of Parquet tables\n"
	"      --table-rows=N   (parquet) rows of a table's file before it is\n"
	"                       split in parts (1000000)\n"
	"      --write=DIR      write the bundle into DIR (FILE.json: one\n"
	"                       device profile) and exit, without opening it\n"
	"JAX profile folders:\n"
	"      --run=NAME       open this run of LOG_DIR/plugins/profile\n"
	"                       (default: the newest, the last by name)\n"
	"  -h, --help           show this help\n"
	"  -V, --version        show the version\n"
	"\n"
	"Exit status: 0 success, 1 bad input or failure, 2 usage error,\n"
	"3 (diff --fail-if-slower) B slower than allowed.\n"
	"See nxtop(1).\n";

/* The exit status of --help. The text is longer than stdio's buffer: a
 * write that fails while it is printed must say why at once, as the
 * stream no longer knows it when it is flushed at the end. */
static int cli_help(void)
{
	if (fputs(help_text, stdout) == EOF) {
		err_set("standard output: %s", strerror(errno));
		return cli_fail();
	}
	return cli_finish(0);
}

/* The exit status of --version. */
static int cli_version(void)
{
	printf("nxtop %s\nCopyright (c) 2026 The nxtop authors; "
	       "MIT License (see LICENSE)\n", PACKAGE_VERSION);
	return cli_finish(0);
}

/* Checks a filter option now, so that a typo is a usage error. */
static void check_filters(const struct import_opts *o)
{
	struct sysfilter f;

	if (sysfilter_parse(&f, o->filter_nc, o->filter_event_type,
			    o->filter_instance))
		exit(cli_usage_error("%s", err_get()));
	sysfilter_free(&f);
}

static void parse_fields(const char *opt, const char *arg, enum sysfield *f,
			 int *n)
{
	if (sysgroup_parse(arg, opt, f, n))
		exit(cli_usage_error("%s", err_get()));
}

int cli_common(struct cli *c, int opt)
{
	switch (opt) {
	case CLI_OPT_FILTER_NC:
		c->imp.filter_nc = optarg;
		check_filters(&c->imp);
		return 1;
	case CLI_OPT_FILTER_TYPE:
		c->imp.filter_event_type = optarg;
		check_filters(&c->imp);
		return 1;
	case CLI_OPT_FILTER_INSTANCE:
		c->imp.filter_instance = optarg;
		check_filters(&c->imp);
		return 1;
	case CLI_OPT_GROUP:
		parse_fields("--group", optarg, c->group.group, &c->group.ngroup);
		return 1;
	case CLI_OPT_ROW:
		parse_fields("--row", optarg, c->group.row, &c->group.nrow);
		return 1;
	case CLI_OPT_RUN:
		c->imp.run = optarg;
		return 1;
	case 'f':
		c->imp.force = 1;
		return 1;
	case 'q':
		c->imp.quiet = 1;
		return 1;
	case 'h':
		exit(cli_help());
	case 'V':
		exit(cli_version());
	default:
		return 0;
	}
}

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vnote(fmt, ap);
	va_end(ap);
	fputs("Try 'nxtop --help'.\n", stderr);
	return EXIT_USAGE;
}

int cli_bad_option(char **argv)
{
	const char *arg = argv[optind - 1];

	if (optopt && arg[0] == '-' && arg[1] != '-')
		return cli_usage_error("invalid option '-%c'", optopt);
	return cli_usage_error("invalid option '%s'", arg);
}

int cli_fail(void)
{
	err_note("%s", err_get());
	return EXIT_BAD_INPUT;
}

int cli_finish(int rc)
{
	if (!rc && stream_check(stdout, "standard output"))
		return cli_fail();
	return rc;
}

int cli_profile_arg(int argc, char **argv, const char **profile)
{
	if (optind >= argc)
		return cli_usage_error("missing PROFILE");
	if (optind + 1 < argc)
		return cli_usage_error("unexpected argument '%s'", argv[optind + 1]);
	*profile = argv[optind];
	return 0;
}

struct model *cli_open(const char *profile, const struct import_opts *o)
{
	struct model *m;
	char *cache;

	if (open_profile(profile, o, &cache))
		return NULL;
	m = model_open(cache);
	/* a cache named by the user is theirs; others are disposable */
	if (m && strcmp(cache, profile))
		model_set_disposable(m);
	free(cache);
	return m;
}
