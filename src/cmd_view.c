/* nxtop PROFILE: open a profile. */
#include "config.h"

#include "cli.h"

/* Until the timeline view lands, looking at a profile prints its
 * summary. */
int cli_view(struct cli *c, const char *profile)
{
	return cli_print_summary(c, profile, OUT_TEXT);
}

int cmd_view(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_COMMON_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	const char *profile;
	int opt, rc;

	while ((opt = getopt_long(argc, argv, CLI_COMMON_SHORT, opts, NULL)) != -1)
		if (!cli_common(c, opt))
			return cli_bad_option(argv);
	if ((rc = cli_profile_arg(argc, argv, &profile)))
		return rc;
	return cli_view(c, profile);
}
