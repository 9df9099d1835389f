/* nxtop import: build the cache and exit. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/cli/open.h"

int cmd_import(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_COMMON_OPTIONS,
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	const char *profile, *output = NULL;
	char *cache = NULL;
	int opt, rc;

	while ((opt = getopt_long(argc, argv, CLI_COMMON_SHORT "o:", opts,
				  NULL)) != -1) {
		if (cli_common(c, opt))
			continue;
		if (opt == 'o')
			output = optarg;
		else
			return cli_bad_option(argv);
	}
	if (output && !strcmp(output, "-"))
		return cli_usage_error("-o -: a cache is a file, it cannot be"
				       " written to standard output");
	if ((rc = cli_profile_arg(argc, argv, &profile)))
		return rc;
	if (output) {
		if (open_import_to(profile, output, &c->imp))
			return cli_fail();
		cache = xstrdup(output);
	} else if (open_profile(profile, &c->imp, &cache)) {
		return cli_fail();
	}
	cli_remember(NULL, profile, cache);
	if (!c->imp.quiet)
		err_note("cache %s", cache);
	free(cache);
	return 0;
}
