/* The Insights list: the findings the timeline's analysis found, read
 * from the timeline each frame, so that a list opened while the rules
 * still run fills in when they are done. The list is small: the generic
 * list filters and sorts it. */
#include "config.h"

#include "tui/insight_view.h"

#include <stdlib.h>
#include <string.h>

#include "model/bounds.h"
#include "model/report/jout.h"
#include "model/report/report.h"
#include "model/timefmt.h"
#include "tui/list.h"

enum { IC_SIDE, IC_SEVERITY, IC_RULE, IC_FINDING, IC_WHERE, IC_COUNT };

/* Alone, from Severity on; stacked, Side first. */
static const struct list_col cols[IC_COUNT] = {
	[IC_SIDE] = { "Side", 4, 0, 0 },
	[IC_SEVERITY] = { "Severity", 8, 0, 0 },
	[IC_RULE] = { "Rule", 10, 0, 0 },
	[IC_FINDING] = { "Finding", 60, 0, 0 },
	[IC_WHERE] = { "Where", 40, 0, 0 },
};

struct insights_list {
	struct list list;
	struct timeline *tl;
	/* the timeline's, A's and B's (stacked); NULL: not yet */
	const struct an_result *res[2];
	int stacked;		/* nxtop A B: a Side column first */
	int c0;			/* the first column: IC_SIDE when stacked */
};

static size_t side_count(const struct insights_list *il, int side)
{
	return il->res[side] ? il->res[side]->nfindings : 0;
}

static size_t ins_count(struct list *l)
{
	const struct insights_list *il = (struct insights_list *)l;

	return side_count(il, 0) + side_count(il, 1);
}

/* Line i's finding and its side: A's first, then B's. */
static const struct an_finding *finding(const struct insights_list *il,
					size_t i, int *side)
{
	size_t na = side_count(il, 0);

	*side = i >= na;
	return *side ? &il->res[1]->findings[i - na] : &il->res[0]->findings[i];
}

static int by_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* "6 ranges on 2 rows: 1.2 ms .. 3.4 ms", or "1.2 ms .. 3.4 ms on
 * qSyncIO0": the rows and the span of the ranges. */
static void where(struct timeline *tl, const struct an_finding *f, int side,
		  struct strbuf *out)
{
	int64_t t0 = INT64_MAX, t1 = INT64_MIN, row = f->ranges[0].row;
	int64_t sh = side ? tl->tr.shift : 0;
	size_t rows = 1, i = tracks_find_side(&tl->tr, side, row);
	int64_t *ids = xmalloc(f->nranges * sizeof(*ids));
	char a[48], b[48];

	for (size_t k = 0; k < f->nranges; k++) {
		t0 = NX_MIN(t0, f->ranges[k].ts);
		t1 = NX_MAX(t1, f->ranges[k].end);
		ids[k] = f->ranges[k].row;
	}
	qsort(ids, f->nranges, sizeof(*ids), by_id);
	for (size_t k = 1; k < f->nranges; k++)
		rows += ids[k] != ids[k - 1];
	free(ids);
	timefmt_dur(a, sizeof(a), t0 + sh - tl->origin, 3, draw_tf());
	timefmt_dur(b, sizeof(b), t1 + sh - tl->origin, 3, draw_tf());
	if (f->nranges > 1)
		sb_printf(out, "%zu ranges on %zu row%s: ", f->nranges, rows,
			  rows == 1 ? "" : "s");
	sb_printf(out, "%s .. %s", a, b);
	if (rows == 1 && i != SIZE_MAX)
		sb_printf(out, " on %s", tl->tr.t[i].name);
}

static void ins_line(struct list *l, size_t i, struct list_line *out)
{
	struct insights_list *il = (struct insights_list *)l;
	int side, c = -il->c0;
	const struct an_finding *f = finding(il, i, &side);

	if (il->stacked)
		sb_adds(&out->cells[IC_SIDE], side ? "B" : "A");
	sb_adds(&out->cells[c + IC_SEVERITY], an_severity_names[f->severity]);
	out->keys[c + IC_SEVERITY] = -(double)f->severity;
	sb_adds(&out->cells[c + IC_RULE], f->rule);
	sb_adds(&out->cells[c + IC_FINDING], f->text);
	if (f->nranges)
		where(il->tl, f, side, &out->cells[c + IC_WHERE]);
	else
		sb_adds(&out->cells[c + IC_WHERE], "the whole profile");
	if (f->severity == AN_INFO)
		out->style = S_DIM;
}

static int ins_enter(struct list *l, size_t i)
{
	struct insights_list *il = (struct insights_list *)l;
	struct timeline *tl = il->tl;
	int side;
	const struct an_finding *f = finding(il, i, &side);

	tui_pop(l->view.tui);
	timeline_insight_show(tl, f, side);
	return 0;
}

/* The timeline's findings, once its analysis is done. */
static void ins_reload(struct list *l)
{
	struct insights_list *il = (struct insights_list *)l;
	const struct an_result *a = timeline_insights(il->tl, 0);
	const struct an_result *b = il->stacked ? timeline_insights(il->tl, 1) : NULL;

	if (a == il->res[0] && b == il->res[1])
		return;
	il->res[0] = a;
	il->res[1] = b;
	list_changed(l);
	list_fit_cols(l);
}

static void ins_header(struct list *l, struct strbuf *out)
{
	struct insights_list *il = (struct insights_list *)l;
	size_t n = ins_count(l);

	for (int side = 0; side <= il->stacked; side++) {
		if (il->res[side])
			continue;
		sb_printf(out, "%s%s  ", il->stacked ? (side ? "B: " : "A: ") : "",
			  timeline_insights_done(il->tl, side) ?
			  "the analysis failed" : "the rules are running...");
	}
	if (il->stacked)
		sb_printf(out, "A %zu %s B %zu findings", side_count(il, 0),
			  draw_glyph(G_SIDES), side_count(il, 1));
	else if (il->res[0])
		sb_printf(out, "%zu finding%s", n, n == 1 ? "" : "s");
}

static const char *ins_export_name(struct list *l)
{
	return ((struct insights_list *)l)->res[0] ? "insights" : NULL;
}

/* One side as `nxtop analyze` prints its whole profile, every finding
 * listed; side: NULL alone, "A" or "B" stacked; j: the stacked JSON
 * object it goes into. */
static int side_export(struct insights_list *il, int k, const char *side,
		       enum out_format fmt, struct jout *j, FILE *f)
{
	struct timeline *tl = il->tl;
	struct model *m = k ? tl->tr.mb : tl->m;
	const struct mprofile *prof = k ? &tl->prof_b : &tl->prof;
	struct mprofile p = side ? *prof : timeline_axis_profile(tl);
	struct an_limits all = { SIZE_MAX, SIZE_MAX };
	const struct mtrack *t = tl->tr.t;
	size_t nt = tl->tr.n;
	struct bounds b;

	if (side)
		t = timeline_side_tracks(tl, k, &nt);
	memset(&b, 0, sizeof(b));
	if (bounds_compute(m, prof->id, prof->start, prof->last + 1, &b)) {
		bounds_free(&b);
		return -1;
	}
	if (j)
		report_analyze_jout(il->res[k], &b, &p, &all, j);
	else if (fmt == OUT_JSON)
		report_analyze_json(il->res[k], &b, &p, &all, f);
	else
		report_analyze_text(il->res[k], &b, &p, t, nt, &all, side, f);
	bounds_free(&b);
	return 0;
}

/* B's side in its report's title: with B moved on the axis (:align,
 * --align), "B, shown moved by -1.5 ms on the timeline; ...". */
static void b_title(const struct timeline *tl, struct strbuf *out)
{
	int64_t d = NX_MAX(timeline_stack_offset(tl), -INT64_MAX);
	char b[48];

	sb_adds(out, "B");
	if (d)
		sb_printf(out, ", shown moved by %s%s on the timeline; its "
			  "times here are its own", d < 0 ? "-" : "+",
			  report_dur(b, sizeof(b), d < 0 ? -d : d));
}

/* As `nxtop analyze` prints the whole profile; stacked, A's then B's
 * (JSON: {"A": ..., "B": ...}), each of its own profile. */
static int ins_export(struct list *l, enum out_format fmt, FILE *f)
{
	struct insights_list *il = (struct insights_list *)l;
	struct jout j, *jp = fmt == OUT_JSON ? &j : NULL;
	struct strbuf b;
	int rc;

	if (fmt == OUT_CSV) {
		err_set("insights: text or JSON only");
		return -1;
	}
	if (!il->stacked)
		return side_export(il, 0, NULL, fmt, NULL, f);
	if (!il->res[1]) {
		err_set("insights: B's rules are still running");
		return -1;
	}
	if (jp) {
		jout_init(jp, f, 1);
		jout_obj(jp);
		jout_key(jp, "A");
	}
	rc = side_export(il, 0, "A", fmt, jp, f);
	if (jp)
		jout_key(jp, "B");
	else
		fputc('\n', f);
	sb_init(&b);
	b_title(il->tl, &b);
	rc = rc || side_export(il, 1, sb_cstr(&b), fmt, jp, f);
	sb_free(&b);
	if (jp) {
		jout_end(jp);
		jout_done(jp);
	}
	return rc ? -1 : 0;
}

static void ins_free(struct list *l)
{
	free(l);
}

static const struct list_ops ins_ops = {
	.count = ins_count,
	.line = ins_line,
	.enter = ins_enter,
	.zoom = ins_enter,
	.reload = ins_reload,
	.export_name = ins_export_name,
	.export = ins_export,
	.header = ins_header,
	.free = ins_free,
};

static const struct view_ops ins_vops = LIST_VIEW_OPS("insights", KM_LIST,
	"? help  j/k move  Enter zoom and box  / filter  o/O sort  e/E export"
	"  q back", list_cmds);

struct view *insight_view_open(struct timeline *tl)
{
	struct insights_list *il = xcalloc(1, sizeof(*il));

	il->tl = tl;
	il->stacked = tl->tr.mb != NULL;
	il->c0 = il->stacked ? IC_SIDE : IC_SEVERITY;
	list_init(&il->list, &ins_vops, &ins_ops, LIST_SMALL, "insights");
	list_set_cols(&il->list, cols + il->c0, IC_COUNT - il->c0);
	ins_reload(&il->list);
	return &il->list.view;
}
