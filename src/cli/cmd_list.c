/* nxtop list [DIR]: the Profile Manager's listing as text, JSON or CSV. */
#include "config.h"

#include <stdio.h>

#include "src/cli/cli.h"

enum { OPT_FORMAT = 256 };

int cmd_list(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_COMMON_OPTIONS,
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "data-path", required_argument, NULL, CLI_OPT_DATA_PATH },
		{ NULL, 0, NULL, 0 },
	};
	enum out_format fmt = OUT_TEXT;
	int opt;

	while ((opt = getopt_long(argc, argv, CLI_COMMON_SHORT, opts, NULL)) != -1) {
		if (cli_common(c, opt))
			continue;
		if (opt == CLI_OPT_DATA_PATH) {
			c->data_path = optarg;
		} else if (opt == OPT_FORMAT) {
			if (out_format_parse(optarg, &fmt))
				return cli_usage_error("unknown format '%s' (text,"
						       " json or csv)", optarg);
		} else {
			return cli_bad_option(argv);
		}
	}
	if (optind + 1 < argc)
		return cli_usage_error("unexpected argument '%s'", argv[optind + 1]);
	if (optind < argc && c->data_path)
		return cli_usage_error("list: a folder or --data-path, not both");
	return cli_print_profiles(c, optind < argc ? argv[optind] : NULL, fmt);
}
