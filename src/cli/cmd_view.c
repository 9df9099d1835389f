/* nxtop PROFILE: the profile's timeline in the terminal; nxtop A B:
 * B's timeline stacked under A's, and the Compare view of B; nxtop
 * alone or on a folder of profiles: the Profile Manager. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/cli/cli.h"
#include "model/query.h"
#include "model/summary.h"
#include "model/text.h"
#include "model/timefmt.h"
#include "model/util.h"
#include "model/writer/writer.h"
#include "src/import/background.h"
#include "tui/tui.h"

/* Where the timeline opens; --align only with nxtop A B. */
enum { OPT_AT = 700, OPT_ZOOM, OPT_SEARCH, OPT_SELECT, OPT_TRACKS,
       OPT_ALIGN };

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
	case CLI_OPT_NO_MOUSE:
		c->ui.no_mouse = 1;
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

static int start_option(struct cli *c, int opt)
{
	const char **slot[] = { &c->at, &c->zoom, &c->search, &c->select,
				&c->tracks, &c->align };

	if (opt < OPT_AT || opt > OPT_ALIGN)
		return 0;
	*slot[opt - OPT_AT] = optarg;
	return 1;
}

static int check_search(const char *text)
{
	struct query q;
	char *err;

	if (!query_parse(text, &q, &err)) {
		query_free(&q);
		return 0;
	}
	cli_usage_error("--search: %s", err);
	free(err);
	return EXIT_USAGE;
}

static int start_times(struct cli *c, const struct mprofile *p,
		       struct tui_start *s)
{
	/* times from the profile's start, as :goto reads them */
	struct mprofile rel = { .start = 0, .end = p->end - p->start,
				.last = p->last - p->start };

	if (c->at) {
		if (timefmt_parse(c->at, &s->at))
			return cli_usage_error("--at: '%s' is not a time like "
					       "1.2ms", c->at);
		if (s->at < 0 || s->at > rel.last) {
			cli_outside("--at", c->at, rel.last);
			return cli_usage_error("%s", err_get());
		}
		s->has_at = 1;
	}
	if (c->zoom) {
		if (cli_span("--zoom", c->zoom, &rel, &s->zoom0, &s->zoom1))
			return cli_usage_error("%s", err_get());
		s->has_zoom = 1;
	}
	if (c->select) {
		if (cli_span("--select", c->select, &rel, &s->sel0, &s->sel1))
			return cli_usage_error("%s", err_get());
		s->has_select = 1;
	}
	return 0;
}

/* --align OFFSET: B moved from its start on A's, later when positive. */
static int align_option(struct cli *c, struct tui_start *s)
{
	int neg = c->align[0] == '-';

	if (timefmt_parse(c->align + (neg || c->align[0] == '+'), &s->align))
		return cli_usage_error("--align: '%s' is not a time like "
				       "-1.2ms", c->align);
	if (neg)
		s->align = -s->align;
	s->has_align = 1;
	return 0;
}

/* The extent times are checked against: A's, or with B stacked as far
 * as B's own reaches when moved by --align. */
static void pair_extent(struct model *mb, const struct tui_start *s,
			struct mprofile *p)
{
	struct mprofile b;

	if (!mb || model_profile(mb, 1, &b))
		return;
	p->end = NX_MAX(p->end, sat_add(p->start + (b.end - b.start),
					NX_MAX(s->align, 0)));
	p->last = NX_MAX(p->last, p->end);
	model_profile_clear(&b);
}

/* The start options checked against the profile m opens on (with B of
 * mb stacked): a bad one is a usage error (its exit status), before
 * any screen. */
static int start_check(struct cli *c, struct model *m, struct model *mb,
		       struct tui_start *s)
{
	struct mprofile p;
	int rc;

	if (c->tracks && !c->select)
		return cli_usage_error("--tracks goes with --select");
	if (c->search && (rc = check_search(c->search)))
		return rc;
	s->search = c->search;
	if (c->align && (rc = align_option(c, s)))
		return rc;
	if (!c->at && !c->zoom && !c->select)
		return 0;
	if (model_profile(m, 1, &p))
		return cli_fail();
	pair_extent(mb, s, &p);
	rc = start_times(c, &p, s);
	if (!rc && cli_tracks(m, p.id, c->tracks, &s->tracks, &s->ntracks))
		rc = cli_usage_error("%s", err_get());
	model_profile_clear(&p);
	return rc;
}

/* Profile B (nxtop A B, :compare PATH) opened as nxtop PATH would,
 * but a bundle's device profiles imported first, with progress: B's
 * bundle has no import of its own in the background. */
static struct model *open_compare(void *ctx, const char *path)
{
	struct cli *c = ctx;
	struct import_opts o = c->imp;

	o.defer_devices = 0;
	return cli_open(path, &o);
}

/* The viewer on m (and B of mb stacked), once the start options hold. */
static int run_viewer(struct cli *c, struct model *m, struct model *mb,
		      const char *profile, const char *compare)
{
	struct tui_start start = { 0 };
	char *abs = realpath(profile, NULL), *absb = NULL, *note = NULL;
	int rc = start_check(c, m, mb, &start);

	if (!rc) {
		cli_remember(NULL, profile, model_path(m));
		absb = compare ? realpath(compare, NULL) : NULL;
		c->ui.group = &c->group;
		c->ui.profile = abs ? abs : profile;
		c->ui.compare = mb;
		c->ui.compare_path = absb ? absb : compare;
		c->ui.profile_named = profile;
		c->ui.compare_named = compare;
		c->ui.open_compare = open_compare;
		c->ui.open_ctx = c;
		note = run_note(m);
		c->ui.note = note;
		/* without one, the first frame folds rows to fit as always */
		if (c->at || c->zoom || c->search || c->select || c->align)
			c->ui.start = &start;
		rc = tui_run(m, &c->ui) ? cli_fail() : 0;
		c->ui.note = NULL;
	}
	free(note);
	free(start.tracks);
	free(abs);
	free(absb);
	return rc;
}

int cli_view_open(struct cli *c, const char *profile, struct viewed *v)
{
	struct import_opts o = c->imp;

	/* a bundle's system profile first, its device profiles meanwhile */
	o.defer_devices = 1;
	v->bg = NULL;
	v->q = NULL;
	v->m = cli_open(profile, &o);
	if (!v->m)
		return -1;
	v->q = devq_new();
	/* a headless script says when they import (its wait lines) */
	if (c->ui.headless)
		devq_limit(v->q, 0);
	v->bg = background_start(model_path(v->m), &o, v->q);
	if (v->bg)
		model_set_devqueue(v->m, v->q);
	return 0;
}

void cli_view_close(struct viewed *v)
{
	char *path;

	if (!v->m)
		return;
	background_stop(v->bg);
	devq_free(v->q);
	path = xstrdup(model_path(v->m));
	model_close(v->m);
	/* the last reader gone, the cache leaves WAL mode once finished */
	writer_settle(path);
	free(path);
	*v = (struct viewed){ 0 };
}

int cli_view(struct cli *c, const char *profile, const char *compare)
{
	struct viewed v;
	struct model *mb = NULL;
	int rc;

	if (cli_view_open(c, profile, &v))
		return cli_fail();
	if (compare && !(mb = open_compare(c, compare))) {
		cli_view_close(&v);
		return cli_fail();
	}
	rc = run_viewer(c, v.m, mb, profile, compare);
	/* B first: no import of its own to stop */
	if (mb)
		model_close(mb);
	cli_view_close(&v);
	return rc;
}

int cmd_view(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_COMMON_OPTIONS,
		CLI_VIEW_OPTIONS,
		{ "at", required_argument, NULL, OPT_AT },
		{ "zoom", required_argument, NULL, OPT_ZOOM },
		{ "search", required_argument, NULL, OPT_SEARCH },
		{ "select", required_argument, NULL, OPT_SELECT },
		{ "tracks", required_argument, NULL, OPT_TRACKS },
		{ "align", required_argument, NULL, OPT_ALIGN },
		{ NULL, 0, NULL, 0 },
	};
	const char *profile;
	int opt, rc;

	while ((opt = getopt_long(argc, argv, CLI_COMMON_SHORT, opts, NULL)) != -1) {
		if (cli_common(c, opt) || start_option(c, opt))
			continue;
		rc = cli_view_option(c, opt);
		if (rc > 1)
			return rc;
		if (!rc)
			return cli_bad_option(argv);
	}
	if ((rc = cli_tracks_syntax(c->tracks)))
		return rc;
	if (optind == argc || cli_has_profiles(argv[optind])) {
		if (c->at || c->zoom || c->search || c->select || c->tracks ||
		    c->align)
			return cli_usage_error("--at, --zoom, --search, "
					       "--select and --align need a "
					       "PROFILE");
	}
	/* a script without a terminal gets the usage error, not a wait */
	if (optind == argc && (c->ui.headless || (isatty(STDIN_FILENO) &&
						  isatty(STDOUT_FILENO))))
		return cli_manager(c, NULL);
	if (argc - optind == 2)
		return cli_view(c, argv[optind], argv[optind + 1]);
	if (c->align)
		return cli_usage_error("--align goes with two profiles: "
				       "nxtop A B --align OFFSET");
	if ((rc = cli_profile_arg(argc, argv, &profile)))
		return rc;
	if (cli_has_profiles(profile))
		return cli_manager(c, profile);
	return cli_view(c, profile, NULL);
}
