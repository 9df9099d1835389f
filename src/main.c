/* nxtop: a terminal browser for AWS Neuron profiles. */
#include "config.h"

#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/summary.h"
#include "model/util.h"
#include "open.h"
#include "model/report.h"

#define EXIT_BAD_INPUT 1
#define EXIT_USAGE 2

static const char usage_text[] =
	"Usage: nxtop [OPTIONS] PROFILE\n"
	"       nxtop import [OPTIONS] PROFILE [-o CACHE]\n"
	"       nxtop summary [OPTIONS] PROFILE [--format text|json]\n"
	"       nxtop --help | --version\n"
	"\n"
	"PROFILE is a Neuron device-profile JSON file, or an nxtop cache\n"
	"(.nxdb). The first open imports the profile into a cache beside it\n"
	"(PROFILE.nxdb); later opens reuse the cache while the file is\n"
	"unchanged.\n"
	"\n"
	"Commands:\n"
	"  import     build (or rebuild) the cache and exit\n"
	"  summary    print the profile summary\n"
	"\n"
	"Options:\n"
	"  -f, --force          rebuild the cache even if it is up to date\n"
	"  -q, --quiet          no progress line or rebuild notes on stderr\n"
	"  -o, --output=CACHE   (import) write the cache to CACHE\n"
	"      --format=FORMAT  (summary) text (default) or json\n"
	"  -h, --help           show this help\n"
	"  -V, --version        show the version\n"
	"\n"
	"Exit status: 0 success, 1 bad input or failure, 2 usage error.\n"
	"See nxtop(1).\n";

enum { OPT_FORMAT = 256 };

struct args {
	const char *cmd;
	const char *profile;
	const char *output;
	enum out_format format;
	struct import_opts imp;
};

static int usage_error(const char *fmt, const char *arg)
{
	fputs("nxtop: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'nxtop --help'.\n", stderr);
	return EXIT_USAGE;
}

static int fail(void)
{
	fprintf(stderr, "nxtop: %s\n", err_get());
	return EXIT_BAD_INPUT;
}

static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct option opts[] = {
		{ "force", no_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	if (argc > 1 && (!strcmp(argv[1], "import") ||
			 !strcmp(argv[1], "summary"))) {
		a->cmd = argv[1];
		argv++;
		argc--;
	}
	while ((c = getopt_long(argc, argv, "fqo:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			a->imp.force = 1;
			break;
		case 'q':
			a->imp.quiet = 1;
			break;
		case 'o':
			a->output = optarg;
			break;
		case OPT_FORMAT:
			if (out_format_parse(optarg, &a->format) ||
			    a->format == OUT_CSV)
				return usage_error("unknown format '%s' (text or json)",
						   optarg);
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(0);
		case 'V':
			printf("nxtop %s\n", PACKAGE_VERSION);
			exit(0);
		default:
			return usage_error("%s", "invalid option");
		}
	}
	if (optind >= argc)
		return usage_error("%s", "missing PROFILE");
	if (optind + 1 < argc)
		return usage_error("unexpected argument '%s'", argv[optind + 1]);
	a->profile = argv[optind];
	if (a->output && (!a->cmd || strcmp(a->cmd, "import")))
		return usage_error("%s", "--output goes with the import command");
	return 0;
}

static int cmd_summary(const struct args *a)
{
	struct summary s;
	struct model *m;
	char *cache;
	int rc = 0;

	if (open_profile(a->profile, &a->imp, &cache))
		return fail();
	m = model_open(cache);
	free(cache);
	if (!m)
		return fail();
	if (summary_compute(m, 1, &s)) {
		rc = fail();
	} else {
		if (a->format == OUT_JSON)
			report_summary_json(&s, stdout);
		else
			report_summary_text(&s, stdout);
		summary_free(&s);
	}
	model_close(m);
	return rc;
}

static int cmd_import(const struct args *a)
{
	char *cache = NULL;

	if (a->output) {
		if (open_import_to(a->profile, a->output, &a->imp))
			return fail();
		cache = xstrdup(a->output);
	} else if (open_profile(a->profile, &a->imp, &cache)) {
		return fail();
	}
	if (!a->imp.quiet)
		fprintf(stderr, "nxtop: cache %s\n", cache);
	free(cache);
	return 0;
}

int main(int argc, char **argv)
{
	struct args a;
	int rc;

	memset(&a, 0, sizeof(a));
	setlocale(LC_ALL, "");
	rc = parse_args(argc, argv, &a);
	if (rc)
		return rc;
	if (a.cmd && !strcmp(a.cmd, "import"))
		return cmd_import(&a);
	return cmd_summary(&a);
}
