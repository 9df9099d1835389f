/* nxtop summary: the profile summary as text, JSON or CSV. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "src/cli/cli.h"
#include "model/report/report.h"
#include "model/summary.h"

enum { OPT_FORMAT = 256 };

/* A bundle or system profile: rows as grouped, names, devices, files. */
static int system_summary(struct model *m, const struct cli *c,
			  enum out_format fmt)
{
	struct syssummary s;

	if (syssummary_compute(m, 1, &c->group, &s) || model_check(m))
		return cli_fail();
	if (fmt == OUT_JSON)
		report_syssummary_json(&s, stdout);
	else if (fmt == OUT_CSV)
		report_syssummary_csv(&s, stdout);
	else
		report_syssummary_text(&s, stdout);
	syssummary_free(&s);
	return 0;
}

static int cli_print_summary(struct cli *c, const char *profile,
			     enum out_format fmt)
{
	struct summary s;
	struct mprofile p;
	struct model *m = cli_open(profile, &c->imp);
	int rc = 0;

	if (!m)
		return cli_fail();
	if (model_profile(m, 1, &p) == 0 && p.kind && !strcmp(p.kind, "system")) {
		model_profile_clear(&p);
		rc = system_summary(m, c, fmt);
		model_close(m);
		return rc;
	}
	model_profile_clear(&p);
	if (summary_compute(m, 1, &s)) {
		rc = cli_fail();
	} else if (model_check(m)) {
		summary_free(&s);
		rc = cli_fail();
	} else {
		if (fmt == OUT_JSON)
			report_summary_json(&s, stdout);
		else if (fmt == OUT_CSV)
			report_summary_csv(&s, stdout);
		else
			report_summary_text(&s, stdout);
		summary_free(&s);
	}
	model_close(m);
	return rc;
}

int cmd_summary(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_COMMON_OPTIONS,
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ NULL, 0, NULL, 0 },
	};
	enum out_format fmt = OUT_TEXT;
	const char *profile;
	int opt, rc;

	while ((opt = getopt_long(argc, argv, CLI_COMMON_SHORT, opts, NULL)) != -1) {
		if (cli_common(c, opt))
			continue;
		if (opt != OPT_FORMAT)
			return cli_bad_option(argv);
		if (out_format_parse(optarg, &fmt))
			return cli_usage_error("unknown format '%s' (text, json"
					       " or csv)", optarg);
	}
	if ((rc = cli_profile_arg(argc, argv, &profile)))
		return rc;
	return cli_print_summary(c, profile, fmt);
}
