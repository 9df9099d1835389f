/* Lines come in pages from search_page(), which seeks per track instead
 * of counting earlier matches, so any page costs about the same. A
 * window of pages around the cursor is kept. */
#include "config.h"

#include "tui/results_view.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tui/draw.h"
#include "tui/list.h"
#include "model/dist.h"
#include "model/query.h"
#include "model/report/export.h"
#include "model/searchdist.h"
#include "model/timefmt.h"

#define PAGE 128		/* matches read at a time */
#define WINDOW_MAX (8 * PAGE)	/* matches kept */
#define FAR (4 * PAGE)		/* further than this: read from an end */

struct results {
	struct list list;
	struct timeline *tl;
	struct search *s;	/* the timeline's search */
	struct search *own;	/* refined by the filter, ours */
	int64_t t0, t1;
	int64_t count, dur;	/* matches in [t0, t1), their duration sum */
	struct search_dist sd;	/* their durations */
	struct mslice *rows;	/* lines base .. base + n - 1 */
	size_t base, n;
	int failed;
};

static const struct list_col cols[] = {
	{ "Start", 14, 1, 0 }, { "Duration", 11, 1, 0 }, { "Row", 28, 0, 0 },
	{ "Name", 30, 0, 0 },
};

static struct search *cur_search(struct results *r)
{
	return r->own ? r->own : r->s;
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
static int read_page(struct results *r, int dir, struct page *p)
{
	int64_t ts, id;

	p->rows = xcalloc(PAGE, sizeof(*p->rows));
	p->n = 0;
	if (!r->n) {
		ts = dir > 0 ? INT64_MIN : INT64_MAX;
		id = dir > 0 ? INT64_MIN : INT64_MAX;
	} else if (dir > 0) {
		ts = r->rows[r->n - 1].ts;
		id = r->rows[r->n - 1].id;
	} else {
		ts = r->rows[0].ts;
		id = r->rows[0].id;
	}
	return search_page(cur_search(r), r->t0, r->t1, ts, id, dir, PAGE,
			   page_add, p);
}

/* Keeps at most WINDOW_MAX lines, those nearest line i. */
static void trim(struct results *r, size_t i)
{
	size_t drop;

	if (r->n <= WINDOW_MAX)
		return;
	if (i >= r->base + r->n / 2) {
		drop = r->n - WINDOW_MAX;
		memmove(r->rows, r->rows + drop, WINDOW_MAX * sizeof(*r->rows));
		r->base += drop;
	}
	r->n = WINDOW_MAX;
}

static int grow(struct results *r, int dir)
{
	struct page p;

	if (read_page(r, dir, &p)) {
		free(p.rows);
		return -1;
	}
	if (!p.n) {
		free(p.rows);
		return 1;
	}
	r->rows = xreallocarray(r->rows, r->n + p.n, sizeof(*r->rows));
	if (dir > 0) {
		memcpy(r->rows + r->n, p.rows, p.n * sizeof(*p.rows));
	} else {
		/* the page came latest first */
		memmove(r->rows + p.n, r->rows, r->n * sizeof(*r->rows));
		for (size_t k = 0; k < p.n; k++)
			r->rows[p.n - 1 - k] = p.rows[k];
		r->base -= NX_MIN(r->base, p.n);
	}
	r->n += p.n;
	free(p.rows);
	return 0;
}

/* Makes line i readable; 0 if it is. */
static int ensure(struct results *r, size_t i)
{
	int rc = 0;

	if (i >= r->base && i < r->base + r->n)
		return 0;
	if (!r->n || i + FAR < r->base || i >= r->base + r->n + FAR) {
		/* start again from the nearer end */
		r->n = 0;
		r->base = i < (size_t)r->count / 2 ? 0 : (size_t)r->count;
	}
	while (!rc && i >= r->base + r->n)
		rc = grow(r, 1);
	while (!rc && i < r->base)
		rc = grow(r, -1);
	trim(r, i);
	if (rc < 0 && !r->failed) {
		r->failed = 1;
		tui_error(r->list.view.tui, "%s", err_get());
	}
	return i >= r->base && i < r->base + r->n ? 0 : -1;
}

static size_t results_count(struct list *l)
{
	return (size_t)((struct results *)l)->count;
}

static void results_line(struct list *l, size_t i, struct list_line *out)
{
	struct results *r = (struct results *)l;
	const struct mslice *m;
	size_t k;
	char b[48];

	if (ensure(r, i))
		return;
	m = &r->rows[i - r->base];
	timefmt_dur(b, sizeof(b), m->ts - r->tl->origin, 6, draw_tf());
	sb_adds(&out->cells[0], b);
	timefmt_dur(b, sizeof(b), m->dur, 3, draw_tf());
	sb_adds(&out->cells[1], b);
	k = timeline_track_index(r->tl, m->track_id);
	sb_adds(&out->cells[2], k == SIZE_MAX ? "?" : r->tl->tr.t[k].name);
	sb_adds(&out->cells[3], model_string(r->tl->m, m->name));
}

static int count(struct results *r)
{
	struct search_stats st;
	const struct highlight *h = &r->tl->hl;

	if (!r->own && h->svalid && h->s_t0 == r->t0 && h->s_t1 == r->t1) {
		r->count = h->stats.count;
		r->dur = h->stats.dur;
	} else {
		if (search_stats(cur_search(r), r->tl->tr.t, r->tl->tr.n, r->t0,
				 r->t1, &st))
			return -1;
		r->count = st.count;
		r->dur = st.dur;
		search_stats_free(&st);
	}
	return search_dist(cur_search(r), r->t0, r->t1, r->count, &r->sd);
}

/* The filter refines the query: its words are more terms, added to the
 * query's own (never pasted into its text). */
static struct search *refined(struct results *r, const char *text)
{
	struct query q = { NULL, 0 }, more;
	struct search *s;
	char *err = NULL;

	if (query_parse(text, &more, &err)) {
		err_set("%s", err);
		free(err);
		return NULL;
	}
	query_append(&q, search_query(r->s));
	query_append(&q, &more);
	query_free(&more);
	s = search_new_query(r->tl->m, r->tl->prof.id, &q, &err);
	if (!s) {
		err_set("%s", err);
		free(err);
	}
	return s;
}

static int results_filter(struct list *l, const char *text)
{
	struct results *r = (struct results *)l;
	struct search *s = NULL;

	if (text[strspn(text, " \t")] && !(s = refined(r, text)))
		return -1;
	search_free(r->own);
	r->own = s;
	r->n = r->base = 0;
	r->failed = 0;
	return count(r);
}

static const struct mslice *current(struct results *r, size_t i)
{
	return ensure(r, i) ? NULL : &r->rows[i - r->base];
}

static int results_enter(struct list *l, size_t i)
{
	struct results *r = (struct results *)l;
	struct timeline *tl = r->tl;
	const struct mslice *m = current(r, i);
	struct mslice s;
	size_t k;

	if (!m)
		return 0;
	s = *m;
	k = timeline_track_index(tl, s.track_id);
	tui_pop(l->view.tui);
	if (k != SIZE_MAX) {
		timeline_goto(tl, s.ts, k);
		tl->sel = s;
	}
	return 0;
}

static int results_zoom(struct list *l, size_t i)
{
	struct results *r = (struct results *)l;
	struct timeline *tl = r->tl;
	const struct mslice *m = current(r, i);
	struct mslice s;
	size_t k;

	if (!m)
		return 0;
	s = *m;
	k = timeline_track_index(tl, s.track_id);
	tui_pop(l->view.tui);
	/* the event with as much again around it */
	timeline_zoom_range(tl, s.ts - s.dur / 2, s.ts + s.dur + s.dur / 2 + 1);
	if (k != SIZE_MAX) {
		timeline_goto(tl, s.ts, k);
		tl->sel = s;
	}
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

	return export_search(r->tl->m, cur_search(r), &p, r->t0, r->t1, fmt, f);
}

/* The matches' shortest, average and longest, percentiles and histogram;
 * "-" where they were not read. */
static void durations(const struct results *r, struct strbuf *out)
{
	const struct search_dist *sd = &r->sd;
	const int64_t ns[6] = { sd->dmin, r->dur / r->count, sd->dmax,
				sd->dist.measured ? sd->dist.p50 : -1,
				sd->dist.measured ? sd->dist.p90 : -1,
				sd->dist.measured ? sd->dist.p99 : -1 };
	static const char *const label[6] = { "min", "avg", "max", "p50",
					      "p90", "p99" };
	char b[48], h[DIST_GLYPHS_SIZE];

	for (int i = 0; i < 6; i++) {
		if (ns[i] < 0)
			snprintf(b, sizeof(b), "-");
		else
			timefmt_dur(b, sizeof(b), ns[i], 3, draw_tf());
		sb_printf(out, "%s%s %s", i == 0 || i == 3 ? "  " : " ",
			  label[i], b);
	}
	if (sd->dist.measured)
		sb_printf(out, "  %s", dist_glyphs(&sd->dist, draw_ascii(), h));
}

static void results_header(struct list *l, struct strbuf *out)
{
	struct results *r = (struct results *)l;
	char a[48], b[48];

	timefmt_dur(a, sizeof(a), r->t0 - r->tl->origin, 3, draw_tf());
	timefmt_dur(b, sizeof(b), r->t1 - r->tl->origin, 3, draw_tf());
	sb_printf(out, "/%s  %" PRId64 " match%s in %s .. %s", search_text(r->s),
		  r->count, r->count == 1 ? "" : "es", a, b);
	if (r->count)
		durations(r, out);
}

static void results_free(struct list *l)
{
	struct results *r = (struct results *)l;

	search_free(r->own);
	free(r->rows);
	free(r);
}

static const struct list_ops results_ops = {
	.count = results_count,
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
	"e/E export  q back", NULL);

struct view *results_open(struct timeline *tl, struct search *s, int64_t t0,
			  int64_t t1)
{
	struct results *r = xcalloc(1, sizeof(*r));

	r->tl = tl;
	r->s = s;
	r->t0 = t0;
	r->t1 = t1;
	if (count(r)) {
		free(r);
		return NULL;
	}
	list_init(&r->list, &results_vops, &results_ops, 0, "matches");
	list_set_cols(&r->list, cols, (int)NX_ARRAY_SIZE(cols));
	return &r->list.view;
}
