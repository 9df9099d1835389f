/* nxtop analyze: runs the analysis rules and prints their findings,
 * then the performance bounds of the range. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "model/analyze/analyze.h"
#include "model/bounds.h"
#include "model/report/report.h"
#include "model/userdata.h"

enum { OPT_FORMAT = 256, OPT_RANGE, OPT_BETWEEN, OPT_RULE, OPT_SET,
       OPT_MAX_RANGES, OPT_MAX_FINDINGS };

struct analyze_args {
	enum out_format fmt;
	const char *range, *between;
	struct an_limits lim;
	struct an_opts rules;
};

/* The time of the marker named name; -1 with err_get() set. */
static int marker_ts(const struct marker *mk, size_t n, const char *name,
		     size_t len, int64_t *ts)
{
	for (size_t i = 0; i < n; i++) {
		if (strlen(mk[i].name) == len && !strncmp(mk[i].name, name, len)) {
			*ts = mk[i].ts;
			return 0;
		}
	}
	err_set("--between: no marker '%.*s' on this profile", (int)len, name);
	return -1;
}

/* "M1,M2": the span between two markers, in either order. */
static int between(struct model *m, const struct mprofile *p, const char *s,
		   int64_t *t0, int64_t *t1)
{
	const char *comma = strchr(s, ',');
	char *path = userdata_default_path();
	struct userdata *u = userdata_open(path);
	struct marker *mk = NULL;
	char *key;
	size_t n = 0;
	int64_t a, b;
	int rc = -1;

	free(path);
	if (!u)
		return -1;
	key = userdata_profile_key(m, p->id);
	if (!comma)
		err_set("--between: expected M1,M2 (two marker names), not '%s'", s);
	else if (!marker_list(u, key, &mk, &n) &&
		 !marker_ts(mk, n, s, (size_t)(comma - s), &a) &&
		 !marker_ts(mk, n, comma + 1, strlen(comma + 1), &b))
		rc = 0;
	if (!rc && a == b) {
		err_set("--between: the two markers are at the same time");
		rc = -1;
	}
	*t0 = a < b ? a : b;
	*t1 = a < b ? b : a;
	marker_list_free(mk, n);
	free(key);
	userdata_close(u);
	return rc;
}

static void print(struct model *m, const struct mprofile *p,
		  const struct an_result *r, const struct bounds *b,
		  const struct analyze_args *a)
{
	struct mtrack *t = NULL;
	size_t nt = 0;

	if (a->fmt == OUT_JSON) {
		report_analyze_json(r, b, p, &a->lim, stdout);
		return;
	}
	/* without row names the ranges still print */
	if (model_tracks(m, p->id, &t, &nt))
		nt = 0;
	report_analyze_text(r, b, p, t, nt, &a->lim, NULL, stdout);
	model_tracks_free(t, nt);
}

static int run(struct cli *c, const char *profile, struct analyze_args *a)
{
	struct model *m = cli_open(profile, &c->imp);
	struct an_result r;
	struct bounds b;
	struct mprofile p;
	int64_t t0, t1;
	int rc = -1;

	if (!m)
		return cli_fail();
	memset(&r, 0, sizeof(r));
	memset(&b, 0, sizeof(b));
	if (model_profile(m, 1, &p) == 0) {
		if (a->between ? !between(m, &p, a->between, &t0, &t1)
			       : !cli_range(a->range, &p, &t0, &t1))
			rc = analyze_run(m, 1, t0, t1, &a->rules, &r) ||
			     bounds_compute(m, 1, t0, t1, &b) ? -1 : 0;
		if (!rc && !(rc = model_check(m)))
			print(m, &p, &r, &b, a);
		model_profile_clear(&p);
	}
	bounds_free(&b);
	analyze_free(&r);
	model_close(m);
	return rc ? cli_fail() : 0;
}

/* A count for --max-ranges and --max-findings. */
static int count_arg(const char *opt, size_t *out)
{
	char *end;

	errno = 0;
	*out = strtoul(optarg, &end, 10);
	if (end == optarg || *end || errno || *optarg == '-')
		return cli_usage_error("%s: '%s' is not a count", opt, optarg);
	return 0;
}

static int option(struct analyze_args *a, int opt)
{
	switch (opt) {
	case OPT_FORMAT:
		if (out_format_parse(optarg, &a->fmt) || a->fmt == OUT_CSV)
			return cli_usage_error("unknown format '%s' (text or"
					       " json)", optarg);
		return 0;
	case OPT_RANGE:
		a->range = optarg;
		return 0;
	case OPT_BETWEEN:
		a->between = optarg;
		return 0;
	case OPT_RULE:
		return an_opts_rules(&a->rules, optarg) ?
			cli_usage_error("%s", err_get()) : 0;
	case OPT_SET:
		return an_opts_set(&a->rules, optarg) ?
			cli_usage_error("%s", err_get()) : 0;
	case OPT_MAX_RANGES:
		return count_arg("--max-ranges", &a->lim.ranges);
	case OPT_MAX_FINDINGS:
		return count_arg("--max-findings", &a->lim.findings);
	}
	return -1;
}

static int parse(struct cli *c, int argc, char **argv, struct analyze_args *a)
{
	static const struct option opts[] = {
		CLI_COMMON_OPTIONS,
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "range", required_argument, NULL, OPT_RANGE },
		{ "between", required_argument, NULL, OPT_BETWEEN },
		{ "rule", required_argument, NULL, OPT_RULE },
		{ "set", required_argument, NULL, OPT_SET },
		{ "max-ranges", required_argument, NULL, OPT_MAX_RANGES },
		{ "max-findings", required_argument, NULL, OPT_MAX_FINDINGS },
		{ NULL, 0, NULL, 0 },
	};
	int opt, rc;

	while ((opt = getopt_long(argc, argv, CLI_COMMON_SHORT, opts, NULL)) != -1) {
		if (cli_common(c, opt))
			continue;
		if ((rc = option(a, opt)) < 0)
			return cli_bad_option(argv);
		if (rc)
			return rc;
	}
	if (a->range && a->between)
		return cli_usage_error("--range and --between do not go together");
	if (a->between && (!strchr(a->between, ',') || *a->between == ',' ||
			   a->between[strlen(a->between) - 1] == ','))
		return cli_usage_error("--between: expected M1,M2 (two marker"
				       " names), not '%s'", a->between);
	return cli_span_syntax("--range", a->range);
}

int cmd_analyze(struct cli *c, int argc, char **argv)
{
	struct analyze_args a = { .fmt = OUT_TEXT,
				   .lim = { .findings = 10, .ranges = 5 } };
	const char *profile;
	int rc;

	an_opts_init(&a.rules);
	if (!(rc = parse(c, argc, argv, &a)) &&
	    !(rc = cli_profile_arg(argc, argv, &profile)))
		rc = run(c, profile, &a);
	an_opts_free(&a.rules);
	return rc;
}
