/* nxtop export: any summary the UI shows, as text, JSON or CSV. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "src/cli/cli.h"
#include "src/cli/open.h"
#include "model/drill.h"
#include "model/report/export.h"
#include "model/file.h"
#include "model/query.h"
#include "model/timefmt.h"

enum { OPT_FORMAT = 256, OPT_WHAT, OPT_RANGE, OPT_TRACKS, OPT_QUERY,
       OPT_DEPTH, OPT_SORT, OPT_SECTION, OPT_UNIT };

enum what { W_SELECTION, W_WINDOW, W_LAYERS, W_SEARCH, W_MARKERS, W_INFO,
	    W_DEVICES, W_EVENTS, W_FLOWS };

static const char *const what_names[] = {
	"selection", "window", "layers", "search", "markers", "info", "devices",
	"events", "flows",
};

struct export_args {
	enum what what;
	enum out_format fmt;
	const char *range, *tracks, *query, *sort, *section, *unit, *output;
	int depth, depth_given;
	int what_given;		/* --what said, not the default */
};

/* A query that does not parse (or whose regex is too costly) is a usage
 * error, told in one line before any profile is read. */
static int check_query(const char *text)
{
	struct query q;
	char *err;

	if (!query_parse(text, &q, &err)) {
		query_free(&q);
		return 0;
	}
	err_note("--query: %s", err);
	free(err);
	return EXIT_USAGE;
}

/* "-dur": a column of the layer table, by its title or a short name,
 * and whether it sorts descending; -1 for no column. */
static int layer_sort(const char *s, enum layer_col *col, int *desc)
{
	*desc = 0;
	if (*s == '-') {
		*desc = 1;
		s++;
	}
	for (int c = 0; c < LC_COUNT; c++) {
		if (!strcasecmp(s, layer_col_names[c])) {
			*col = (enum layer_col)c;
			return 0;
		}
	}
	if (!strcasecmp(s, "name"))
		*col = LC_NAME;
	else if (!strcasecmp(s, "dur") || !strcasecmp(s, "duration"))
		*col = LC_DUR;
	else if (!strcasecmp(s, "flops"))
		*col = LC_FLOPS;
	else
		return -1;
	return 0;
}

/* The options together, before any profile is read: each goes with
 * what it changes, and a range or a query that cannot be one is told. */
static int check_args(struct export_args *a)
{
	enum layer_col col;
	int desc;

	if (a->what == W_SEARCH && !a->query)
		return cli_usage_error("--what search needs --query");
	/* an option that would change nothing is a mistake said so */
	if (a->section && a->what != W_INFO)
		return cli_usage_error("--section goes with --what info");
	if (a->unit && a->what != W_MARKERS)
		return cli_usage_error("--unit goes with --what markers");
	if (a->unit && a->fmt != OUT_TEXT)
		return cli_usage_error("--unit goes with --format text (JSON"
				       " and CSV give times in ns)");
	if ((a->sort || a->depth_given) && a->what != W_LAYERS)
		return cli_usage_error("--%s goes with --what layers",
				       a->sort ? "sort" : "depth");
	if (a->sort && layer_sort(a->sort, &col, &desc))
		return cli_usage_error("--sort: unknown column '%s' (name, "
				       "start, duration, tensor, ..., sync, "
				       "'tensor active', ..., flops, mfu, p50, "
				       "p90, p99)", a->sort);
	if (a->query && a->what != W_SEARCH) {
		if (a->what_given)
			return cli_usage_error("--query goes with --what search");
		a->what = W_SEARCH;
	}
	if (a->tracks && a->what != W_SELECTION && a->what != W_EVENTS)
		return cli_usage_error("--tracks goes with --what selection or"
				       " events (for a"
				       " search, use row=NAME in the query)");
	if (cli_span_syntax("--range", a->range) ||
	    cli_tracks_syntax(a->tracks))
		return EXIT_USAGE;
	return a->query ? check_query(a->query) : 0;
}

static int parse(struct cli *c, int argc, char **argv, struct export_args *a)
{
	static const struct option opts[] = {
		CLI_COMMON_OPTIONS,
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "what", required_argument, NULL, OPT_WHAT },
		{ "range", required_argument, NULL, OPT_RANGE },
		{ "tracks", required_argument, NULL, OPT_TRACKS },
		{ "query", required_argument, NULL, OPT_QUERY },
		{ "depth", required_argument, NULL, OPT_DEPTH },
		{ "sort", required_argument, NULL, OPT_SORT },
		{ "section", required_argument, NULL, OPT_SECTION },
		{ "unit", required_argument, NULL, OPT_UNIT },
		{ NULL, 0, NULL, 0 },
	};
	int opt;
	size_t i;
	char *end;
	int64_t per;

	while ((opt = getopt_long(argc, argv, CLI_COMMON_SHORT "o:", opts,
				  NULL)) != -1) {
		if (cli_common(c, opt))
			continue;
		switch (opt) {
		case 'o':
			/* -o - is standard output, as no -o */
			a->output = strcmp(optarg, "-") ? optarg : NULL;
			break;
		case OPT_FORMAT:
			if (out_format_parse(optarg, &a->fmt))
				return cli_usage_error("unknown format '%s' (text,"
						       " json or csv)", optarg);
			break;
		case OPT_WHAT:
			for (i = 0; i < NX_ARRAY_SIZE(what_names); i++)
				if (!strcmp(optarg, what_names[i]))
					break;
			if (i == NX_ARRAY_SIZE(what_names))
				return cli_usage_error("unknown --what '%s' (selection,"
						       " window, layers, search,"
						       " markers, info, devices,"
						       " events or flows)",
						       optarg);
			a->what = (enum what)i;
			a->what_given = 1;
			break;
		case OPT_RANGE:
			a->range = optarg;
			break;
		case OPT_TRACKS:
			a->tracks = optarg;
			break;
		case OPT_QUERY:
			a->query = optarg;
			break;
		case OPT_DEPTH:
			errno = 0;
			a->depth = (int)strtol(optarg, &end, 10);
			a->depth_given = 1;
			if (*end || errno || a->depth < 0 || a->depth > 64)
				return cli_usage_error("--depth takes 0..64, not '%s'",
						       optarg);
			break;
		case OPT_SORT:
			a->sort = optarg;
			break;
		case OPT_SECTION:
			a->section = optarg;
			break;
		case OPT_UNIT:
			if (timefmt_unit(optarg, &per))
				return cli_usage_error("unknown unit '%s' (ns, us, ms"
						       " or s)", optarg);
			a->unit = optarg;
			break;
		default:
			return cli_bad_option(argv);
		}
	}
	return check_args(a);
}


int cli_range(const char *s, const struct mprofile *p, int64_t *t0,
	      int64_t *t1)
{
	if (cli_span("--range", s, p, t0, t1))
		return -1;
	if (*t1 <= p->start) {
		/* before the profile's start: nothing is there either */
		cli_outside("--range", s, p->last - p->start);
		return -1;
	}
	return 0;
}

/* The text of a span "A:B": each side in ns from the profile start,
 * has0/has1 0 for a side left empty. */
struct span_text {
	int has0, has1;
	int64_t v0, v1;
};

static int span_side(const char *opt, const char *text, const char *like,
		     int *has, int64_t *v)
{
	*has = *text != '\0';
	if (*has && timefmt_parse(text, v)) {
		err_set("%s: '%s' is not a time like %s", opt, text, like);
		return -1;
	}
	return 0;
}

static int span_parse(const char *opt, const char *s, struct span_text *st)
{
	const char *colon = strchr(s, ':');
	char a[64], b[64];

	if (!colon || (size_t)(colon - s) >= sizeof(a) ||
	    strlen(colon + 1) >= sizeof(b)) {
		err_set("%s: expected START:END like 1.2ms:3.4ms, not '%s'",
			opt, s);
		return -1;
	}
	snprintf(a, sizeof(a), "%.*s", (int)(colon - s), s);
	snprintf(b, sizeof(b), "%s", colon + 1);
	if (span_side(opt, a, "1.2ms", &st->has0, &st->v0) ||
	    span_side(opt, b, "3.4ms", &st->has1, &st->v1))
		return -1;
	if (st->has0 && st->has1 && st->v1 <= st->v0) {
		err_set("%s: the end must come after the start", opt);
		return -1;
	}
	return 0;
}

int cli_span_syntax(const char *opt, const char *s)
{
	struct span_text st;

	if (s && span_parse(opt, s, &st))
		return cli_usage_error("%s", err_get());
	return 0;
}

void cli_outside(const char *opt, const char *arg, int64_t len)
{
	char b[48];

	timefmt_dur(b, sizeof(b), len, 3, 0);
	err_set("%s: '%s' is outside the profile (0 .. %s)", opt, arg, b);
}

int cli_span(const char *opt, const char *s, const struct mprofile *p,
	     int64_t *t0, int64_t *t1)
{
	struct span_text st;

	*t0 = p->start;
	*t1 = sat_add(p->last, 1);
	if (!s)
		return 0;
	if (span_parse(opt, s, &st))
		return -1;
	if (st.has0)
		*t0 = sat_add(p->start, st.v0);
	/* to the last ns or past it: to the end, as shown, with an instant
	 * at the last ns (struct mprofile) */
	if (st.has1 && sat_add(p->start, st.v1) < p->last)
		*t1 = sat_add(p->start, st.v1);
	/* nothing can start in it: a unit mistaken, most likely (an end
	 * before a start given is a usage error span_parse() told) */
	if (*t0 > p->last || *t1 <= *t0) {
		cli_outside(opt, s, p->last - p->start);
		return -1;
	}
	return 0;
}

int cli_tracks_syntax(const char *list)
{
	const char *p = list;
	size_t len;

	if (!list)
		return 0;
	/* an unset shell variable or a comma too many: not every row */
	if (!list[strspn(list, " ,")])
		return cli_usage_error("--tracks: no row in '%s' (without"
				       " --tracks: every row)", list);
	for (;; p++) {
		p += strspn(p, " ");
		len = strcspn(p, ",");
		if (!len)
			return cli_usage_error("--tracks: an empty row name in"
					       " '%s'", list);
		p += len;
		if (!*p)
			return 0;
	}
}

/* Row names to track ids; groups by their name too; GROUP/ROW picks one
 * of the rows sharing a name. */
int cli_tracks(struct model *m, int64_t profile, const char *list,
	       int64_t **ids, size_t *n)
{
	struct mtrack *t;
	size_t nt;
	char *copy, *tok, *save = NULL;
	int rc = 0;

	*ids = NULL;
	*n = 0;
	if (!list)
		return 0;
	if (model_tracks(m, profile, &t, &nt))
		return -1;
	copy = xstrdup(list);
	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		int found = 0;

		while (*tok == ' ')
			tok++;
		for (size_t i = 0; i < nt; i++) {
			if (!model_track_named(t, nt, i, tok))
				continue;
			*ids = xreallocarray(*ids, *n + 1, sizeof(**ids));
			(*ids)[(*n)++] = t[i].id;
			found = 1;
		}
		if (!found) {
			struct strbuf names;
			size_t i;

			sb_init(&names);
			for (i = 0; i < nt && names.len < 300; i++) {
				sb_adds(&names, i ? ", " : "");
				model_track_label(t, nt, i, &names);
			}
			err_set("--tracks: no row named '%s' (rows: %s%s)", tok,
				sb_cstr(&names), i < nt ? ", ..." : "");
			sb_free(&names);
			rc = -1;
		}
	}
	free(copy);
	model_tracks_free(t, nt);
	return rc;
}

static int run_selection(struct model *m, const struct mprofile *p,
			 const struct export_args *a, int64_t t0, int64_t t1,
			 FILE *out)
{
	int64_t *ids = NULL;
	size_t nids = 0;
	struct selection s;
	int rc = -1;

	if (!cli_tracks(m, p->id, a->tracks, &ids, &nids) &&
	    !selection_compute(m, p->id, t0, t1, ids, nids, &s)) {
		if (a->what == W_WINDOW)
			export_window(&s, p, a->fmt, out);
		else
			export_selection(&s, p, a->fmt, out);
		selection_free(&s);
		rc = 0;
	}
	free(ids);
	return rc;
}

static int run_layers(struct model *m, const struct mprofile *p,
		      const struct export_args *a, FILE *out)
{
	struct layer_table lt;
	enum layer_col col = LC_START;
	int desc = 0;

	/* a bad column is a usage error, told before (check_args) */
	if (a->sort)
		layer_sort(a->sort, &col, &desc);
	if (layers_load(m, p->id, a->depth, NULL, &lt))
		return -1;
	if (layers_dists(m, p->id, &lt)) {
		layers_free(&lt);
		return -1;
	}
	layers_sort(&lt, col, desc);
	export_layers(&lt, p, a->fmt, out);
	layers_free(&lt);
	return 0;
}

static int run_search(struct model *m, const struct mprofile *p,
		      const struct export_args *a, int64_t t0, int64_t t1,
		      FILE *out)
{
	char *err = NULL;
	struct search *s = search_new(m, p->id, a->query, &err);
	int rc;

	if (!s) {
		err_set("--query: %s", err);
		free(err);
		return -1;
	}
	rc = export_search(m, s, p, t0, t1, a->fmt, out);
	search_free(s);
	return rc;
}

static int run_markers(struct model *m, const struct mprofile *p,
		       const struct export_args *a, FILE *out)
{
	char *path = userdata_default_path();
	struct userdata *u = userdata_open(path);
	struct marker *mk;
	size_t n;
	char *key;
	int rc;

	free(path);
	if (!u)
		return -1;
	key = userdata_profile_key(m, p->id);
	rc = marker_list(u, key, &mk, &n);
	if (!rc) {
		export_markers(mk, n, p, a->unit, a->fmt, out);
		marker_list_free(mk, n);
	}
	free(key);
	userdata_close(u);
	return rc;
}

static int run_devices(struct model *m, const struct mprofile *p,
		       const struct export_args *a, FILE *out)
{
	struct mdevice *d;
	size_t n;

	/* as D in the viewer: a device profile has no list, not an empty one */
	if (strcmp(p->kind, "system")) {
		err_set("--what devices lists the device profiles of a system"
			" profile; %s is a %s profile", p->name, p->kind);
		return -1;
	}
	if (model_devices(m, p->id, &d, &n))
		return -1;
	export_devices(d, n, p, a->fmt, out);
	model_devices_free(d, n);
	return 0;
}

static int run_events(struct model *m, const struct mprofile *p,
		      const struct export_args *a, int64_t t0, int64_t t1,
		      FILE *out)
{
	int64_t *ids = NULL;
	size_t nids = 0;
	int rc = cli_tracks(m, p->id, a->tracks, &ids, &nids) ||
		 export_events(m, p, t0, t1, ids, nids, a->fmt, out) ? -1 : 0;

	free(ids);
	return rc;
}

/* --section names one of the info sections; the error lists them. */
static int section_check(const struct export_args *a,
			 const struct info_section *secs, size_t ns)
{
	struct strbuf names;

	if (!a->section)
		return 0;
	for (size_t i = 0; i < ns; i++)
		if (!strcmp(secs[i].key, a->section))
			return 0;
	sb_init(&names);
	for (size_t i = 0; i < ns; i++)
		sb_printf(&names, "%s%s", i ? ", " : "", secs[i].key);
	err_set("--section: no section '%s' (sections: %s)", a->section,
		sb_cstr(&names));
	sb_free(&names);
	return -1;
}

static int run_info(struct model *m, const struct mprofile *p,
		    const struct export_args *a, FILE *out)
{
	struct info_section *secs;
	size_t ns;
	int rc;

	if (info_sections(m, p->id, &secs, &ns))
		return -1;
	rc = section_check(a, secs, ns);
	if (!rc)
		export_info(m, p, a->section, a->fmt, out);
	info_sections_free(secs, ns);
	return rc;
}

/* The range cut to the time the viewer's axis spans ([p->first,
 * p->last]), as it cuts a box or its window: the duration and shares a
 * summary prints are of that time. */
static void cut_range(const struct mprofile *p, int64_t *t0, int64_t *t1)
{
	*t0 = NX_MAX(*t0, p->first);
	*t1 = NX_MAX(NX_MIN(*t1, p->last + 1), *t0 + 1);
}

static int run(struct model *m, const struct mprofile *p,
	       const struct export_args *a, FILE *out)
{
	int64_t t0, t1;

	if (cli_range(a->range, p, &t0, &t1))
		return -1;
	if (a->range)
		cut_range(p, &t0, &t1);
	switch (a->what) {
	case W_SELECTION:
	case W_WINDOW:
		return run_selection(m, p, a, t0, t1, out);
	case W_LAYERS:
		return run_layers(m, p, a, out);
	case W_SEARCH:
		return run_search(m, p, a, t0, t1, out);
	case W_MARKERS:
		return run_markers(m, p, a, out);
	case W_DEVICES:
		return run_devices(m, p, a, out);
	case W_EVENTS:
		return run_events(m, p, a, t0, t1, out);
	case W_FLOWS:
		return export_flows(m, p, a->fmt, out);
	case W_INFO:
		return run_info(m, p, a, out);
	}
	return 0;
}

/* -o FILE: created, or emptied when it is there. *created says whether
 * it was new, so that a failed export takes away only its own file. */
/* Writes the export to -o FILE: complete, or (if it was new) gone. */
static int run_to_file(struct model *m, const struct mprofile *p,
		       const struct export_args *a)
{
	int created, rc;
	FILE *out = file_open_write(a->output, &created);

	if (!out)
		return -1;
	rc = run(m, p, a, out);
	if (!rc && model_check(m))
		rc = -1;
	if (!rc && stream_check(out, a->output))
		rc = -1;
	if (fclose(out) && !rc) {
		err_set("%s: %s", a->output, strerror(errno));
		rc = -1;
	}
	if (rc && created)
		unlink(a->output);
	return rc;
}

int cmd_export(struct cli *c, int argc, char **argv)
{
	struct export_args a = { .what = W_SELECTION, .fmt = OUT_TEXT };
	struct mprofile p;
	const char *profile;
	struct model *m;
	int rc;

	if ((rc = parse(c, argc, argv, &a)))
		return rc;
	if ((rc = cli_profile_arg(argc, argv, &profile)))
		return rc;
	if (a.output && file_same_file(profile, a.output)) {
		err_set("%s: is the profile being exported: not written",
			a.output);
		return cli_fail();
	}
	m = cli_open(profile, &c->imp);
	if (!m)
		return cli_fail();
	if ((a.output && open_output_check(m, a.output, "exported")) ||
	    model_profile(m, 1, &p)) {
		model_close(m);
		return cli_fail();
	}
	if (a.output) {
		rc = run_to_file(m, &p, &a);
	} else {
		/* main checks that standard output got it all */
		rc = run(m, &p, &a, stdout);
		if (!rc && model_check(m))
			rc = -1;
	}
	model_profile_clear(&p);
	model_close(m);
	return rc ? cli_fail() : 0;
}
