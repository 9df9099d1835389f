/* Lines come in pages from search_page(), which seeks per track instead
 * of counting earlier matches, so any page costs about the same. A
 * window of pages around the cursor is kept. */
#include "config.h"

#include "tui/results_view.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tui/draw.h"
#include "tui/keywatch.h"
#include "tui/list.h"
#include "model/dist.h"
#include "model/query.h"
#include "model/report/export.h"
#include "model/searchdist.h"
#include "model/text.h"
#include "model/timefmt.h"
#include "model/util.h"

#define PAGE 128		/* matches read at a time */
#define WINDOW_MAX (8 * PAGE)	/* matches kept */
#define FAR (4 * PAGE)		/* further than this: read from an end */

/* One profile's matches: A's, or B's when stacked (times on B's own
 * axis; shift puts them on A's). */
struct side {
	struct model *m;
	int64_t profile;
	struct search *s;	/* the timeline's search */
	struct search *own;	/* refined by the filter, ours */
	int64_t shift;
	int64_t count, dur;	/* matches in the range, their duration sum */
	int roww;		/* columns of the widest name of their rows */
	struct search_dist sd;	/* their durations */
	struct mslice *rows;	/* lines base .. base + n - 1 */
	size_t base, n;
};

struct results {
	struct list list;
	struct timeline *tl;
	int64_t t0, t1;		/* on the axis */
	struct side side[2];
	int nsides;		/* 2 when stacked: a heading before each */
	int failed;
	/* readings of matches that test events one by one, from the first
	 * in a frame (ended by results_header, drawn after the lines), in
	 * counting them or in an export: a key may stop them */
	struct keywatch kw;
};

/* The Row column is as wide as the names of the rows with matches
 * (fit_rows). */
static const struct list_col cols[] = {
	{ "Start", 14, 1, 0 }, { "Duration", 11, 1, 0 }, { "Row", 0, 0, 0 },
	{ "Name", 30, 0, 0 },
};

static struct search *cur_search(const struct side *sd)
{
	return sd->own ? sd->own : sd->s;
}

/* Before reading side sd's matches: where its search tests events one
 * by one, a key may stop the reading; -1 when a key stopped it. */
static int watch(struct results *r, struct side *sd)
{
	const struct search *s = cur_search(sd);

	if (r->kw.stopped)
		return -1;
	if (!search_reads_events(s))
		return 0;
	model_set_stop(sd->m, keywatch_check, &r->kw);
	return keywatch_begin(&r->kw, r->tl->view.tui,
			      "listing event by event the matches of",
			      search_text(s));
}

static void unwatch(struct side *sd)
{
	model_set_stop(sd->m, NULL, NULL);
}

/* (the busy line said that the search tests events one by one) */
#define STOPPED_WHY "stopped by a key; zoom in, or search a field (name~," \
	" opcode=, row=)"

/* After the readings of a frame or an export: 1 when a key stopped
 * them, said on the status line. */
static int stopped(struct results *r, const char *what)
{
	if (!keywatch_end(&r->kw))
		return 0;
	tui_message_past_key(r->tl->view.tui, "%s " STOPPED_WHY, what);
	return 1;
}

struct page {
	struct mslice *rows;
	size_t n;
};

static void page_add(void *ctx, const struct mslice *s)
{
	struct page *p = ctx;

	p->rows[p->n++] = *s;
}

/* Reads up to PAGE matches after (dir > 0) or before the window. */
static int read_page(struct results *r, struct side *sd, int dir,
		     struct page *p)
{
	int64_t ts, id;
	int rc;

	p->rows = xcalloc(PAGE, sizeof(*p->rows));
	p->n = 0;
	if (!sd->n) {
		ts = dir > 0 ? INT64_MIN : INT64_MAX;
		id = dir > 0 ? INT64_MIN : INT64_MAX;
	} else if (dir > 0) {
		ts = sd->rows[sd->n - 1].ts;
		id = sd->rows[sd->n - 1].id;
	} else {
		ts = sd->rows[0].ts;
		id = sd->rows[0].id;
	}
	rc = watch(r, sd) ? -1 :
	     search_page(cur_search(sd), r->t0 - sd->shift,
			 r->t1 - sd->shift, ts, id, dir, PAGE, page_add, p);
	unwatch(sd);
	return rc;
}

/* Keeps at most WINDOW_MAX lines, those nearest line i. */
static void trim(struct side *sd, size_t i)
{
	size_t drop;

	if (sd->n <= WINDOW_MAX)
		return;
	if (i >= sd->base + sd->n / 2) {
		drop = sd->n - WINDOW_MAX;
		memmove(sd->rows, sd->rows + drop,
			WINDOW_MAX * sizeof(*sd->rows));
		sd->base += drop;
	}
	sd->n = WINDOW_MAX;
}

static int grow(struct results *r, struct side *sd, int dir)
{
	struct page p;

	if (read_page(r, sd, dir, &p)) {
		free(p.rows);
		return -1;
	}
	if (!p.n) {
		free(p.rows);
		return 1;
	}
	sd->rows = xreallocarray(sd->rows, sd->n + p.n, sizeof(*sd->rows));
	if (dir > 0) {
		memcpy(sd->rows + sd->n, p.rows, p.n * sizeof(*p.rows));
	} else {
		/* the page came latest first */
		memmove(sd->rows + p.n, sd->rows, sd->n * sizeof(*sd->rows));
		for (size_t k = 0; k < p.n; k++)
			sd->rows[p.n - 1 - k] = p.rows[k];
		sd->base -= NX_MIN(sd->base, p.n);
	}
	sd->n += p.n;
	free(p.rows);
	return 0;
}

/* Makes match i of one side readable; its slice, or NULL. */
static const struct mslice *ensure(struct results *r, struct side *sd,
				   size_t i)
{
	int rc = 0;

	if (i >= sd->base && i < sd->base + sd->n)
		return &sd->rows[i - sd->base];
	if (!sd->n || i + FAR < sd->base || i >= sd->base + sd->n + FAR) {
		/* start again from the nearer end */
		sd->n = 0;
		sd->base = i < (size_t)sd->count / 2 ? 0 : (size_t)sd->count;
	}
	while (!rc && i >= sd->base + sd->n)
		rc = grow(r, sd, 1);
	while (!rc && i < sd->base)
		rc = grow(r, sd, -1);
	trim(sd, i);
	if (rc < 0 && !r->failed && !r->kw.stopped) {
		r->failed = 1;
		tui_error(r->list.view.tui, "%s", err_get());
	}
	return i >= sd->base && i < sd->base + sd->n ?
	       &sd->rows[i - sd->base] : NULL;
}

/* Line i as a side and a match of it; SIZE_MAX: the side's heading. */
static struct side *line_side(struct results *r, size_t i, size_t *k)
{
	if (r->nsides == 1) {
		*k = i;
		return &r->side[0];
	}
	if (i <= (size_t)r->side[0].count) {
		*k = i ? i - 1 : SIZE_MAX;
		return &r->side[0];
	}
	i -= (size_t)r->side[0].count + 1;
	*k = i ? i - 1 : SIZE_MAX;
	return &r->side[1];
}

static size_t results_count(struct list *l)
{
	struct results *r = (struct results *)l;

	return (size_t)(r->side[0].count + r->side[1].count) +
	       (r->nsides == 2 ? 2 : 0);
}

/* The matches' shortest, average and longest, percentiles and histogram;
 * "-" where they were not read. */
static void durations(const struct side *s, struct strbuf *out)
{
	const struct search_dist *sd = &s->sd;
	const int64_t ns[6] = { sd->dmin, mean_round(s->dur, s->count), sd->dmax,
				sd->dist.measured ? sd->dist.p50 : -1,
				sd->dist.measured ? sd->dist.p90 : -1,
				sd->dist.measured ? sd->dist.p99 : -1 };
	static const char *const label[6] = { "min", "avg", "max", "p50",
					      "p90", "p99" };
	char b[48], h[DIST_GLYPHS_SIZE];

	for (int i = 0; i < 6; i++) {
		/* an estimate is its bin's longest duration */
		const char *est = i >= 3 && sd->dist.estimated ? "~" : "";

		if (ns[i] < 0)
			snprintf(b, sizeof(b), "-");
		else
			timefmt_dur(b, sizeof(b), ns[i], 3, draw_tf());
		sb_printf(out, "%s%s %s%s", i == 0 || i == 3 ? "  " : " ",
			  label[i], est, b);
	}
	if (sd->dist.measured)
		sb_printf(out, "  %s", dist_glyphs(&sd->dist, draw_ascii(), h));
}

/* A side's heading: its count, time and durations. */
static void heading(struct results *r, struct side *sd,
		    struct list_line *out)
{
	int b = sd == &r->side[1];
	const struct mprofile *p = b ? &r->tl->prof_b : &r->tl->prof;
	char d[48];

	timefmt_dur(d, sizeof(d), sd->dur, 3, draw_tf());
	sb_printf(&out->cells[0], "%s: %s  %" PRId64 " match%s, %s",
		  b ? "B" : "A", p->name ? p->name : "profile", sd->count,
		  sd->count == 1 ? "" : "es", d);
	if (!sd->s)
		sb_adds(&out->cells[0], "  (the query does not apply)");
	else if (sd->count)
		durations(sd, &out->cells[0]);
	out->span = 1;
	out->style = S_GROUP;
}

static void results_line(struct list *l, size_t i, struct list_line *out)
{
	struct results *r = (struct results *)l;
	size_t k;
	struct side *sd = line_side(r, i, &k);
	const struct mslice *m;
	char b[48];

	if (k == SIZE_MAX) {
		heading(r, sd, out);
		return;
	}
	if (!(m = ensure(r, sd, k)))
		return;
	timefmt_dur(b, sizeof(b), m->ts + sd->shift - r->tl->origin, 6,
		    draw_tf());
	sb_adds(&out->cells[0], b);
	timefmt_dur(b, sizeof(b), m->dur, 3, draw_tf());
	sb_adds(&out->cells[1], b);
	k = tracks_find_side(&r->tl->tr, sd == &r->side[1], m->track_id);
	sb_adds(&out->cells[2], k == SIZE_MAX ? "?" : r->tl->tr.t[k].name);
	sb_adds(&out->cells[3], model_string(sd->m, m->name));
}

/* The widest name, as drawn, of the rows st says have matches. */
static int row_width(struct results *r, int b, const struct search_stats *st)
{
	struct strbuf clean;
	int w = 0;

	sb_init(&clean);
	for (size_t k = 0; k < st->nrows; k++) {
		size_t i = tracks_find_side(&r->tl->tr, b, st->rows[k].track);

		sb_reset(&clean);
		text_sanitize(&clean, i == SIZE_MAX ? "?" : r->tl->tr.t[i].name,
			      draw_ascii());
		w = NX_MAX(w, text_width(sb_cstr(&clean)));
	}
	sb_free(&clean);
	return w;
}

static int count_side(struct results *r, struct side *sd)
{
	const struct highlight *h = &r->tl->hl;
	int b = sd == &r->side[1];
	struct search_stats st;
	size_t nt;
	const struct mtrack *t = timeline_side_tracks(r->tl, b, &nt);

	sd->count = sd->dur = 0;
	sd->roww = 0;
	memset(&sd->sd, 0, sizeof(sd->sd));
	if (!sd->s)
		return 0;
	if (!sd->own && h->svalid && h->s_t0 == r->t0 && h->s_t1 == r->t1 &&
	    h->s_shift == sd->shift) {
		sd->count = b ? h->stats_b.count : h->stats.count;
		sd->dur = b ? h->stats_b.dur : h->stats.dur;
		sd->roww = row_width(r, b, b ? &h->stats_b : &h->stats);
	} else {
		if (search_stats(cur_search(sd), t, nt, r->t0 - sd->shift,
				 r->t1 - sd->shift, &st))
			return -1;
		sd->count = st.count;
		sd->dur = st.dur;
		sd->roww = row_width(r, b, &st);
		search_stats_free(&st);
	}
	return search_dist(cur_search(sd), r->t0 - sd->shift,
			   r->t1 - sd->shift, sd->count, &sd->sd);
}

/* Counts each side's matches; -1 on an error, or when a key stopped it
 * (*stop set). */
static int count(struct results *r, int *stop)
{
	int rc = 0;

	for (int k = 0; k < r->nsides && !rc; k++) {
		rc = watch(r, &r->side[k]) ? -1 :
		     count_side(r, &r->side[k]);
		unwatch(&r->side[k]);
	}
	*stop = keywatch_end(&r->kw);
	return rc;
}

static void fit_rows(struct results *r)
{
	list_fit_col(&r->list, 2,
		     NX_MAX(r->side[0].roww, r->side[1].roww));
}

/* The filter refines the query: its words are more terms, added to the
 * query's own (never pasted into its text). */
static struct search *refined(const struct side *sd, const char *text)
{
	struct query q = { NULL, 0 }, more;
	struct search *s;
	char *err = NULL;

	if (query_parse(text, &more, &err)) {
		err_set("%s", err);
		free(err);
		return NULL;
	}
	query_append(&q, search_query(sd->s));
	query_append(&q, &more);
	query_free(&more);
	s = search_new_query(sd->m, sd->profile, &q, &err);
	if (!s) {
		err_set("%s", err);
		free(err);
	}
	return s;
}

/* A filter that fails or that a key stops leaves the list as it was,
 * the prompt open with the reason. */
static int results_filter(struct list *l, const char *text)
{
	struct results *r = (struct results *)l;
	struct search *s[2] = { NULL, NULL };
	struct side old[2];
	int all = !text[strspn(text, " \t")];
	int stop;

	for (int k = 0; k < r->nsides && !all; k++) {
		if (r->side[k].s && !(s[k] = refined(&r->side[k], text))) {
			search_free(s[0]);
			return -1;
		}
	}
	memcpy(old, r->side, sizeof(old));
	for (int k = 0; k < r->nsides; k++) {
		r->side[k].own = s[k];
		r->side[k].n = r->side[k].base = 0;
	}
	if (count(r, &stop)) {
		for (int k = 0; k < r->nsides; k++) {
			search_free(r->side[k].own);
			r->side[k] = old[k];
		}
		if (stop)
			err_set("filtering " STOPPED_WHY);
		return -1;
	}
	for (int k = 0; k < r->nsides; k++)
		search_free(old[k].own);
	r->failed = 0;
	fit_rows(r);
	return 0;
}

/* The match on line i on the axis, with the track line it is on. */
static int current(struct results *r, size_t i, struct mslice *s,
		   size_t *line)
{
	size_t k;
	struct side *sd = line_side(r, i, &k);
	const struct mslice *m = k == SIZE_MAX ? NULL : ensure(r, sd, k);

	if (!m)
		return -1;
	*s = *m;
	s->ts += sd->shift;
	*line = tracks_find_side(&r->tl->tr, sd == &r->side[1], s->track_id);
	return 0;
}

/* After tui_pop(): r is gone, tl stays. */
static void go(struct timeline *tl, const struct mslice *s, size_t line)
{
	if (line == SIZE_MAX)
		return;
	timeline_goto(tl, s->ts, line);
	tl->sel = *s;
	tl->sel_side = tl->tr.st[line].side;
}

static int results_enter(struct list *l, size_t i)
{
	struct results *r = (struct results *)l;
	struct timeline *tl = r->tl;
	struct mslice s;
	size_t line;

	if (current(r, i, &s, &line))
		return 0;
	tui_pop(l->view.tui);
	go(tl, &s, line);
	return 0;
}

static int results_zoom(struct list *l, size_t i)
{
	struct results *r = (struct results *)l;
	struct timeline *tl = r->tl;
	struct mslice s;
	size_t line;

	if (current(r, i, &s, &line))
		return 0;
	tui_pop(l->view.tui);
	/* the event with as much again around it */
	timeline_zoom_range(tl, s.ts - s.dur / 2, s.ts + s.dur + s.dur / 2 + 1);
	go(tl, &s, line);
	return 0;
}

static const char *results_export_name(struct list *l)
{
	(void)l;
	return "search";
}

static int results_export(struct list *l, enum out_format fmt, FILE *f)
{
	struct results *r = (struct results *)l;
	struct mprofile p = timeline_axis_profile(r->tl);
	struct export_side s[2];
	int rc = 0;

	for (int k = 0; k < r->nsides; k++) {
		struct side *sd = &r->side[k];

		s[k] = (struct export_side){ sd->m, cur_search(sd),
			k ? r->tl->prof_b : p, r->t0 - sd->shift,
			r->t1 - sd->shift };
		/* B's times from B's own start */
		if (k)
			s[k].p.start = r->tl->prof_b.start;
	}
	for (int k = 0; k < r->nsides && !rc; k++)
		rc = watch(r, &r->side[k]);
	if (!rc)
		rc = r->nsides == 1 ?
		     export_search(s[0].m, s[0].s, &s[0].p, s[0].t0, s[0].t1,
				   fmt, f) :
		     export_search_sides(s, fmt, f);
	for (int k = 0; k < r->nsides; k++)
		unwatch(&r->side[k]);
	if (keywatch_end(&r->kw))
		err_set("exporting " STOPPED_WHY);
	return rc;
}

static void results_header(struct list *l, struct strbuf *out)
{
	struct results *r = (struct results *)l;
	const char *q = search_text(cur_search(&r->side[0]));
	char a[48], b[48];

	/* drawn after the lines: their readings end here */
	stopped(r, "reading");
	timefmt_dur(a, sizeof(a), r->t0 - r->tl->origin, 3, draw_tf());
	timefmt_dur(b, sizeof(b), r->t1 - r->tl->origin, 3, draw_tf());
	if (r->nsides == 2) {
		sb_printf(out, "/%s  A %" PRId64 " %s B %" PRId64
			  " matches in %s .. %s", q, r->side[0].count,
			  draw_glyph(G_SIDES), r->side[1].count, a, b);
		return;
	}
	sb_printf(out, "/%s  %" PRId64 " match%s in %s .. %s", q,
		  r->side[0].count, r->side[0].count == 1 ? "" : "es", a, b);
	if (r->side[0].count)
		durations(&r->side[0], out);
}

static void results_free(struct list *l)
{
	struct results *r = (struct results *)l;

	for (int k = 0; k < 2; k++) {
		search_free(r->side[k].own);
		free(r->side[k].rows);
	}
	keywatch_free(&r->kw);
	free(r);
}

/* Tab, stacked: from A's lines to B's heading, from B's to A's. */
static int results_request(struct list *l, enum request req)
{
	struct results *r = (struct results *)l;
	size_t b = (size_t)r->side[0].count + 1;

	if (req != REQ_OTHER_SIDE || r->nsides < 2)
		return 1;
	l->cur = l->cur >= b ? 0 : b;
	l->top = l->cur;
	return 0;
}

static const struct list_ops results_ops = {
	.count = results_count,
	.request = results_request,
	.line = results_line,
	.filter = results_filter,
	.enter = results_enter,
	.zoom = results_zoom,
	.export_name = results_export_name,
	.export = results_export,
	.header = results_header,
	.free = results_free,
};

static const struct view_ops results_vops = LIST_VIEW_OPS("matches", KM_LIST,
	"? help  j/k move  g/G ends  / refine  Enter go to  f zoom  "
	"e/E export  q back", list_cmds);
static const struct view_ops results_vops_ab = LIST_VIEW_OPS("matches",
	KM_LIST, "? help  j/k move  g/G ends  Tab A/B  / refine  Enter go to"
	"  f zoom  e/E export  q back", list_cmds);

struct view *results_open(struct timeline *tl, struct search *s, int64_t t0,
			  int64_t t1, int *stop)
{
	struct results *r = xcalloc(1, sizeof(*r));

	r->tl = tl;
	r->t0 = t0;
	r->t1 = t1;
	r->side[0] = (struct side){ .m = tl->m, .profile = tl->prof.id,
				    .s = s };
	r->nsides = 1;
	if (tl->tr.mb) {
		/* stacked: B's matches of the same text, under A's */
		r->side[1] = (struct side){ .m = tl->tr.mb,
			.profile = tl->prof_b.id, .s = tl->hl.search_b,
			.shift = tl->tr.shift };
		r->nsides = 2;
	}
	if (count(r, stop)) {
		if (*stop)
			tui_message_past_key(tl->view.tui,
					     "listing " STOPPED_WHY);
		keywatch_free(&r->kw);
		free(r);
		return NULL;
	}
	/* the header's query is the refined one */
	list_init(&r->list, r->nsides == 2 ? &results_vops_ab : &results_vops,
		  &results_ops, LIST_FILTER_SHOWN, "matches");
	list_set_cols(&r->list, cols, (int)NX_ARRAY_SIZE(cols));
	fit_rows(r);
	return &r->list.view;
}
