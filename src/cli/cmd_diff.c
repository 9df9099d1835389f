/* nxtop diff A B: two profiles compared, A the base; with
 * --fail-if-slower, exit status 3 when B's total time grew too much. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "src/cli/cli.h"
#include "model/diff.h"
#include "model/report/report.h"
#include "model/util.h"

enum { OPT_FORMAT = 256, OPT_WHAT, OPT_SORT, OPT_FAIL_SLOWER };

struct diff_args {
	enum out_format fmt;
	enum diff_what what;
	const char *sort;
	double slower;		/* --fail-if-slower percent; < 0: off */
	const char *a, *b;
};

static int parse_pct(const char *s, double *out)
{
	double v;

	if (parse_plain_real(s, &v))
		return cli_usage_error("--fail-if-slower: expected a percentage"
				       " like 5 or 2.5, not '%s'", s);
	*out = v;
	return 0;
}

static int diff_option(int opt, struct diff_args *a)
{
	switch (opt) {
	case OPT_FORMAT:
		if (out_format_parse(optarg, &a->fmt))
			return cli_usage_error("unknown format '%s' (text, json"
					       " or csv)", optarg);
		return 0;
	case OPT_WHAT:
		if (diff_what_parse(optarg, &a->what))
			return cli_usage_error("%s", err_get());
		return 0;
	case OPT_SORT:
		a->sort = optarg;
		return 0;
	case OPT_FAIL_SLOWER:
		return parse_pct(optarg, &a->slower);
	default:
		return -1;
	}
}

static int parse_args(struct cli *c, int argc, char **argv,
		      struct diff_args *a)
{
	static const struct option opts[] = {
		CLI_COMMON_OPTIONS,
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "what", required_argument, NULL, OPT_WHAT },
		{ "sort", required_argument, NULL, OPT_SORT },
		{ "fail-if-slower", required_argument, NULL, OPT_FAIL_SLOWER },
		{ NULL, 0, NULL, 0 },
	};
	int opt, rc;

	while ((opt = getopt_long(argc, argv, CLI_COMMON_SHORT, opts, NULL)) != -1) {
		if (cli_common(c, opt))
			continue;
		if ((rc = diff_option(opt, a)) < 0)
			return cli_bad_option(argv);
		if (rc)
			return rc;
	}
	if (argc - optind < 2)
		return cli_usage_error("diff needs two profiles, A and B");
	if (argc - optind > 2)
		return cli_usage_error("unexpected argument '%s'",
				       argv[optind + 2]);
	/* a column the table lacks fails before the profiles load */
	if (a->sort && diff_sort_check(a->what, a->sort))
		return cli_usage_error("%s", err_get());
	a->a = argv[optind];
	a->b = argv[optind + 1];
	return 0;
}

/* The reason for exit status 3, on one line. */
static int slower(const struct diff *d, double limit)
{
	char a[48], b[48], p[48];
	double pct;

	if (diff_total_pct(d, &pct))
		snprintf(p, sizeof(p), "from 0");
	else
		report_pct_change(p, sizeof(p), pct);
	err_note("B is slower than A: total time %s against %s (%s, more"
		 " than %g%%)", report_dur(b, sizeof(b), d->total[1]),
		 report_dur(a, sizeof(a), d->total[0]), p, limit);
	return EXIT_SLOWER;
}

static int run_diff(struct model *a, struct model *b,
		    const struct diff_args *o)
{
	struct diff d;
	int rc = 0;

	if (diff_compute(a, b, o->what, &d))
		return cli_fail();
	d.file[0] = o->a;
	d.file[1] = o->b;
	if (diff_sort(&d, o->sort)) {
		rc = cli_usage_error("%s", err_get());
	} else {
		report_diff(&d, o->fmt, stdout);
		/* a report not written whole is a failure, slower or not */
		if (stream_check(stdout, "standard output"))
			rc = cli_fail();
		else if (o->slower >= 0 && diff_slower(&d, o->slower))
			rc = slower(&d, o->slower);
	}
	diff_free(&d);
	return rc;
}

int cmd_diff(struct cli *c, int argc, char **argv)
{
	struct diff_args a = { OUT_TEXT, DW_OVERALL, NULL, -1, NULL, NULL };
	struct model *ma, *mb = NULL;
	int rc;

	if ((rc = parse_args(c, argc, argv, &a)))
		return rc;
	ma = cli_open(a.a, &c->imp);
	if (ma)
		mb = cli_open(a.b, &c->imp);
	if (!ma || !mb) {
		rc = cli_fail();
	} else {
		rc = run_diff(ma, mb, &a);
	}
	if (mb)
		model_close(mb);
	if (ma)
		model_close(ma);
	return rc;
}
