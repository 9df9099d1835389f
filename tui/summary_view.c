/* The summary is laid out as lines: totals and headings span the width,
 * values are rows under the list's columns. Sorting reorders the values
 * inside each field table; the filter keeps the values that contain a
 * text, with their headings. */
#include "config.h"

#include "tui/summary_view.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tui/draw.h"
#include "tui/list.h"
#include "model/dist.h"
#include "model/query.h"
#include "model/report/export.h"
#include "model/timefmt.h"
#include "model/util.h"

enum skind { SL_TEXT, SL_BLANK, SL_GROUP, SL_FIELD, SL_VALUE };

struct sline {
	enum skind kind;
	char *text;		/* SL_TEXT, SL_GROUP, SL_FIELD */
	size_t g, f, r;		/* group, field, value */
};

struct sumview {
	struct list list;
	struct timeline *tl;
	struct selection *sel;
	int box;		/* the box's summary, not the window's */
	struct sline *lines;
	size_t n, cap;
	int sort_col, sort_desc;
};

static const struct list_col cols[] = {
	{ "Value", 36, 0, 0 }, { "Count", 8, 1, 0 }, { "Count %", 8, 1, 0 },
	{ "Dur Sum", 11, 1, 0 }, { "Dur %", 8, 1, 0 }, { "Dur Avg", 11, 1, 0 },
	{ "Min", 11, 1, 0 }, { "Max", 11, 1, 0 }, { "P50", 11, 1, 0 },
	{ "P90", 11, 1, 0 }, { "P99", 11, 1, 0 },
	{ "Histogram", DIST_COLS, 0, 0 },
};

static double pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

static void add(struct sumview *s, enum skind kind, char *text, size_t g,
		size_t f, size_t r)
{
	s->lines = xgrow(s->lines, &s->cap, s->n + 1, sizeof(*s->lines));
	s->lines[s->n++] = (struct sline){ kind, text, g, f, r };
}

static void clear_lines(struct sumview *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->lines[i].text);
	s->n = 0;
}

static char *dur(int64_t ns)
{
	char b[48];

	timefmt_dur(b, sizeof(b), ns, 3, draw_tf());
	return xstrdup(b);
}

/* The bounds of the range, as the exports print them. */
static void add_bounds(struct sumview *s)
{
	char *lines[REPORT_BOUNDS_LINES];
	size_t n = report_bounds_lines(&s->sel->bounds, draw_tf(), lines);

	for (size_t i = 0; i < n; i++)
		add(s, SL_TEXT, lines[i], 0, 0, 0);
}

static void add_totals(struct sumview *s)
{
	const struct selection *sel = s->sel;
	int64_t start = s->tl->origin;
	char *a = dur(sel->t0 - start), *b = dur(sel->end - start),
	     *c = dur(sel->end - sel->t0), *d = dur(sel->dur),
	     *e = dur(sel->active);
	char p[32];

	add(s, SL_TEXT, xasprintf("Range   %s .. %s (duration %s)", a, b, c),
	    0, 0, 0);
	add(s, SL_TEXT, xasprintf("Events  %" PRId64 " (duration sum %s)",
				  sel->n, d), 0, 0, 0);
	add(s, SL_TEXT, xasprintf("Active  %s%s (%s of the range)",
				  sel->active_exact ? "" : "~", e,
				  report_pct(p, sizeof(p), pct(sel->active,
							       sel->end - sel->t0))),
	    0, 0, 0);
	add_bounds(s);
	free(a);
	free(b);
	free(c);
	free(d);
	free(e);
}

static int value_matches(const struct sumview *s, const struct sel_value *v)
{
	const char *f = s->list.filter;

	return !f || strcasestr(v->value, f);
}

static void add_group(struct sumview *s, size_t g)
{
	const struct sel_group *gr = &s->sel->groups[g];
	const struct selection *sel = s->sel;
	size_t at = s->n;
	int shown = 0;

	add(s, SL_BLANK, NULL, g, 0, 0);
	if (!strcmp(gr->kind, "counter")) {
		if (!gr->counter.n || s->list.filter) {
			s->n = at;
			return;
		}
		add(s, SL_GROUP, xasprintf("== %s (counter%s%s): %" PRId64
					   " sample%s, min %.6g, max %.6g, mean %.6g",
					   gr->name, gr->unit ? ", " : "",
					   gr->unit ? gr->unit : "", gr->counter.n,
					   gr->counter.n == 1 ? "" : "s",
					   gr->counter.vmin, gr->counter.vmax,
					   gr->counter.mean), g, 0, 0);
		return;
	}
	{
		char *a = dur(gr->dur), *b = dur(gr->active), p[32];

		report_pct(p, sizeof(p), pct(gr->active, sel->end - sel->t0));
		add(s, SL_GROUP, xasprintf("== %s (%s): %" PRId64 " event%s, "
					   "duration sum %s, active %s (%s)",
					   gr->name, gr->kind, gr->n,
					   gr->n == 1 ? "" : "s", a, b, p),
		    g, 0, 0);
		free(a);
		free(b);
	}
	for (size_t f = 0; f < gr->nfields; f++) {
		const struct sel_field *fl = &gr->fields[f];
		size_t head = s->n;
		int any = 0;

		add(s, SL_FIELD, xstrdup(fl->name), g, f, 0);
		for (size_t r = 0; r < fl->nrows; r++) {
			if (!value_matches(s, &fl->rows[r]))
				continue;
			add(s, SL_VALUE, NULL, g, f, r);
			any = 1;
		}
		if (!any) {
			free(s->lines[head].text);
			s->n = head;
		}
		shown |= any;
	}
	/* a filtered row without matching values goes altogether */
	if (s->list.filter && !shown) {
		for (size_t i = at; i < s->n; i++)
			free(s->lines[i].text);
		s->n = at;
	}
}

static void build(struct sumview *s)
{
	clear_lines(s);
	add_totals(s);
	for (size_t g = 0; g < s->sel->ngroups; g++)
		add_group(s, g);
	list_changed(&s->list);
}

static size_t summary_count(struct list *l)
{
	return ((struct sumview *)l)->n;
}

/* A shortest or longest duration; "-" when it was not measured. */
static void extreme(struct strbuf *out, int64_t ns)
{
	char b[48];

	if (ns < 0) {
		sb_adds(out, "-");
		return;
	}
	timefmt_dur(b, sizeof(b), ns, 3, draw_tf());
	sb_adds(out, b);
}

/* A value's p-th percentile; -1 when its distribution was not measured. */
static int64_t pctile(const struct sel_value *v, int p)
{
	if (!v->dist.measured)
		return -1;
	return p == 50 ? v->dist.p50 : p == 90 ? v->dist.p90 : v->dist.p99;
}

static void value_line(struct sumview *s, const struct sline *ln,
		       struct list_line *out)
{
	const struct sel_group *g = &s->sel->groups[ln->g];
	const struct sel_value *v = &g->fields[ln->f].rows[ln->r];
	char b[48], h[DIST_GLYPHS_SIZE];

	sb_printf(&out->cells[0], "  %s", v->value);
	sb_printf(&out->cells[1], "%" PRId64, v->n);
	sb_adds(&out->cells[2], report_pct(b, sizeof(b), pct(v->n, g->n)));
	timefmt_dur(b, sizeof(b), v->dur, 3, draw_tf());
	sb_adds(&out->cells[3], b);
	sb_adds(&out->cells[4], report_pct(b, sizeof(b), pct(v->dur, g->dur)));
	timefmt_dur(b, sizeof(b), mean_round(v->dur, v->n), 3, draw_tf());
	sb_adds(&out->cells[5], b);
	extreme(&out->cells[6], v->dmin);
	extreme(&out->cells[7], v->dmax);
	for (int k = 0; k < 3; k++) {
		/* an estimate is its bucket's bound */
		if (v->dist.estimated)
			sb_addc(&out->cells[8 + k], '~');
		extreme(&out->cells[8 + k], pctile(v, k ? 80 + 10 * k : 50));
	}
	sb_adds(&out->cells[11], dist_glyphs(&v->dist, draw_ascii(), h));
}

static void summary_line(struct list *l, size_t i, struct list_line *out)
{
	struct sumview *s = (struct sumview *)l;
	const struct sline *ln = &s->lines[i];

	switch (ln->kind) {
	case SL_VALUE:
		value_line(s, ln, out);
		return;
	case SL_GROUP:
		out->style = S_FIELD_GROUP;
		break;
	case SL_FIELD:
		out->style = S_FIELD_KEY;
		break;
	default:
		break;
	}
	out->span = 1;
	if (ln->text)
		sb_adds(&out->cells[0], ln->text);
}

/* The order of a field's values: a column of the list, and up or down. */
struct value_order {
	int col, desc;
};

static int64_t num(const struct sel_value *v, int col)
{
	switch (col) {
	case 1: case 2: return v->n;
	case 3: case 4: return v->dur;
	case 5: return mean_round(v->dur, v->n);
	case 6: return v->dmin;
	case 7: return v->dmax;
	case 8: return pctile(v, 50);
	case 9: return pctile(v, 90);
	/* the histogram sorts as its p99: where its tail ends */
	default: return pctile(v, 99);
	}
}

static int cmp_values(const void *a, const void *b, void *arg)
{
	const struct sel_value *x = a, *y = b;
	const struct value_order *o = arg;
	int r;

	if (o->col == 0) {
		r = strcasecmp(x->value, y->value);
	} else {
		int64_t p = num(x, o->col), q = num(y, o->col);

		r = p < q ? -1 : p > q;
	}
	if (!r)
		r = strcmp(x->value, y->value);
	return o->desc ? -r : r;
}

static void summary_sort(struct list *l, int col, int desc)
{
	struct sumview *s = (struct sumview *)l;
	struct value_order o = { col, desc };

	for (size_t g = 0; g < s->sel->ngroups; g++)
		for (size_t f = 0; f < s->sel->groups[g].nfields; f++) {
			struct sel_field *fl = &s->sel->groups[g].fields[f];

			if (fl->nrows)
				qsort_r(fl->rows, fl->nrows, sizeof(*fl->rows),
					cmp_values, &o);
		}
	build(s);
}

static int summary_filter(struct list *l, const char *text)
{
	(void)text;	/* the list keeps it in l->filter */
	build((struct sumview *)l);
	return 0;
}

static int summary_zoom(struct list *l, size_t i)
{
	struct sumview *s = (struct sumview *)l;
	struct timeline *tl = s->tl;
	int64_t t0 = s->sel->t0, t1 = s->sel->t1;

	int box = s->box;

	(void)i;
	tui_pop(l->view.tui);
	if (box)
		timeline_box_zoom(tl);
	else
		timeline_zoom_range(tl, t0, t1);
	return 0;
}

/* The terms of a value of a field on a row; on "(none)", of the row's
 * events without the field. Built from the parts, never parsed: a value
 * or row name from the profile is only ever a value. */
static int value_query(const char *field, const struct sel_value *v,
		       const char *row, struct query *q)
{
	enum qfield f;
	char *err = NULL;
	int rc;

	*q = (struct query){ NULL, 0 };
	if (query_field(field, strlen(field), &f)) {
		err_set("cannot search for a value of %s", field);
		return -1;
	}
	if (!v->none)
		rc = query_add(q, f, Q_EQ, 0, v->value, &err);
	else if (query_fields[f].kind != QF_STRING &&
		 query_fields[f].kind != QF_TEXT)	/* a number: neither */
		rc = query_add(q, f, Q_GE, 1, "0", &err) ||
		     query_add(q, f, Q_LT, 1, "0", &err);
	else	/* text: not even "" */
		rc = query_add(q, f, Q_HAS, 1, "", &err);
	if (!rc)
		rc = query_add(q, F_ROW, Q_EQ, 0, row, &err);
	if (rc) {
		err_set("%s", err);
		free(err);
		query_free(q);
	}
	return rc;
}

/* Enter on a value searches for it on its row. */
static int summary_enter(struct list *l, size_t i)
{
	struct sumview *s = (struct sumview *)l;
	const struct sline *ln = &s->lines[i];
	const struct sel_group *g;
	struct timeline *tl = s->tl;
	struct query q;

	if (ln->kind != SL_VALUE) {
		tui_message(l->view.tui, "Enter on a value searches for it");
		return 0;
	}
	g = &s->sel->groups[ln->g];
	if (value_query(g->fields[ln->f].name, &g->fields[ln->f].rows[ln->r],
			g->name, &q))
		return -1;
	tui_pop(l->view.tui);
	return timeline_search_query(tl, &q);
}

/* "selection" or "window", as the breadcrumb says */
static const char *summary_export_name(struct list *l)
{
	return l->view.title;
}

static int summary_export(struct list *l, enum out_format fmt, FILE *f)
{
	struct sumview *s = (struct sumview *)l;
	struct mprofile p = timeline_axis_profile(s->tl);

	if (s->box)
		export_selection(s->sel, &p, fmt, f);
	else
		export_window(s->sel, &p, fmt, f);
	return 0;
}

static void summary_header(struct list *l, struct strbuf *out)
{
	struct sumview *s = (struct sumview *)l;
	char d[48];

	timefmt_dur(d, sizeof(d), s->sel->end - s->sel->t0, 3, draw_tf());
	sb_printf(out, "%zu row%s, %s", s->sel->ngroups,
		  s->sel->ngroups == 1 ? "" : "s", d);
}

static void sumview_free(struct list *l)
{
	struct sumview *s = (struct sumview *)l;

	clear_lines(s);
	free(s->lines);
	selection_free(s->sel);
	free(s->sel);
	free(s);
}

static const struct list_ops summary_ops = {
	.count = summary_count,
	.line = summary_line,
	.sort = summary_sort,
	.filter = summary_filter,
	.enter = summary_enter,
	.zoom = summary_zoom,
	.export_name = summary_export_name,
	.export = summary_export,
	.header = summary_header,
	.free = sumview_free,
};

static const struct view_ops summary_vops = LIST_VIEW_OPS("summary", KM_LIST,
	"? help  j/k move  / filter  o sort  Enter search value  f zoom  "
	"e/E export  q back", list_cmds);

struct view *summary_open(struct timeline *tl, const char *title,
			  struct selection *sel, int box)
{
	struct sumview *s = xcalloc(1, sizeof(*s));

	s->tl = tl;
	s->sel = sel;
	s->box = box;
	list_init(&s->list, &summary_vops, &summary_ops, 0, title);
	list_set_cols(&s->list, cols, (int)NX_ARRAY_SIZE(cols));
	build(s);
	return &s->list.view;
}
