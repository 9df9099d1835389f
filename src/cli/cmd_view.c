/* nxtop PROFILE: the profile's timeline in the terminal; nxtop A B:
 * A's timeline and the Compare view of B; nxtop alone or on a folder of
 * profiles: the Profile Manager. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/cli/cli.h"
#include "model/summary.h"
#include "model/text.h"
#include "tui/tui.h"

static int parse_color(const char *s, enum tui_color *out)
{
	static const char *const names[] = { "auto", "always", "never" };
	static const enum tui_color values[] = { TUI_COLOR_AUTO,
						 TUI_COLOR_ALWAYS,
						 TUI_COLOR_NEVER };

	for (size_t i = 0; i < NX_ARRAY_SIZE(names); i++) {
		if (!strcmp(s, names[i])) {
			*out = values[i];
			return 0;
		}
	}
	return -1;
}

int cli_view_option(struct cli *c, int opt)
{
	switch (opt) {
	case CLI_OPT_COLOR:
		if (parse_color(optarg, &c->ui.color))
			return cli_usage_error("unknown --color '%s' (auto, always or never)",
					       optarg);
		return 1;
	case CLI_OPT_ASCII:
		c->ui.ascii = 1;
		return 1;
	case CLI_OPT_HEADLESS:
		c->ui.headless = optarg;
		return 1;
	case CLI_OPT_DUMP:
		c->ui.dump_dir = optarg;
		return 1;
	case CLI_OPT_DATA_PATH:
		c->data_path = optarg;
		return 1;
	default:
		return 0;
	}
}

/* The status line's first words for a JAX run: which run, which others
 * --run opens; NULL for any other profile. */
static char *run_note(struct model *m)
{
	struct summary s;
	struct strbuf sb;
	char *note;

	memset(&s, 0, sizeof(s));
	if (summary_runs(m, 1, &s) || !s.run) {
		summary_free(&s);
		return NULL;
	}
	sb_init(&sb);
	sb_printf(&sb, "JAX run %s", s.run);
	for (size_t i = 0; i < s.nother_runs; i++)
		sb_printf(&sb, "%s%s", i ? ", " : "; other runs (--run): ",
			  s.other_runs[i]);
	summary_free(&s);
	note = text_clean(sb_cstr(&sb));
	sb_free(&sb);
	return note;
}

int cli_view(struct cli *c, const char *profile)
{
	struct model *m = cli_open(profile, &c->imp);
	char *note;
	int rc;

	if (!m)
		return cli_fail();
	cli_remember(NULL, profile, model_path(m));
	c->ui.group = &c->group;
	note = run_note(m);
	c->ui.note = note;
	rc = tui_run(m, &c->ui) ? cli_fail() : 0;
	c->ui.note = NULL;
	free(note);
	model_close(m);
	return rc;
}

/* nxtop A B: A's timeline under the Compare view of B. */
static int view_pair(struct cli *c, const char *a, const char *b)
{
	struct model *ma = cli_open(a, &c->imp), *mb = NULL;
	int rc;

	if (ma)
		mb = cli_open(b, &c->imp);
	if (!mb) {
		if (ma)
			model_close(ma);
		return cli_fail();
	}
	cli_remember(NULL, a, model_path(ma));
	c->ui.group = &c->group;
	c->ui.compare = mb;
	rc = tui_run(ma, &c->ui) ? cli_fail() : 0;
	model_close(mb);
	model_close(ma);
	return rc;
}

int cmd_view(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_COMMON_OPTIONS,
		CLI_VIEW_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	const char *profile;
	int opt, rc;

	while ((opt = getopt_long(argc, argv, CLI_COMMON_SHORT, opts, NULL)) != -1) {
		if (cli_common(c, opt))
			continue;
		rc = cli_view_option(c, opt);
		if (rc > 1)
			return rc;
		if (!rc)
			return cli_bad_option(argv);
	}
	/* a script without a terminal gets the usage error, not a wait */
	if (optind == argc && (c->ui.headless || (isatty(STDIN_FILENO) &&
						  isatty(STDOUT_FILENO))))
		return cli_manager(c, NULL);
	if (argc - optind == 2)
		return view_pair(c, argv[optind], argv[optind + 1]);
	if ((rc = cli_profile_arg(argc, argv, &profile)))
		return rc;
	if (cli_has_profiles(profile))
		return cli_manager(c, profile);
	return cli_view(c, profile);
}
