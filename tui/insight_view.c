/* The Insights list: the findings the timeline's analysis found, read
 * from the timeline each frame, so that a list opened while the rules
 * still run fills in when they are done. The list is small: the generic
 * list filters and sorts it. */
#include "config.h"

#include "tui/insight_view.h"

#include <stdlib.h>
#include <string.h>

#include "model/bounds.h"
#include "model/report/report.h"
#include "model/timefmt.h"
#include "tui/list.h"

enum { IC_SEVERITY, IC_RULE, IC_FINDING, IC_WHERE, IC_COUNT };

static const struct list_col cols[IC_COUNT] = {
	[IC_SEVERITY] = { "Severity", 8, 0, 0 },
	[IC_RULE] = { "Rule", 10, 0, 0 },
	[IC_FINDING] = { "Finding", 60, 0, 0 },
	[IC_WHERE] = { "Where", 40, 0, 0 },
};

struct insights_list {
	struct list list;
	struct timeline *tl;
	const struct an_result *res;	/* the timeline's; NULL: not yet */
};

static size_t ins_count(struct list *l)
{
	const struct an_result *r = ((struct insights_list *)l)->res;

	return r ? r->nfindings : 0;
}

static int by_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* "6 ranges on 2 rows: 1.2 ms .. 3.4 ms", or "1.2 ms .. 3.4 ms on
 * qSyncIO0": the rows and the span of the ranges. */
static void where(struct timeline *tl, const struct an_finding *f,
		  struct strbuf *out)
{
	int64_t t0 = INT64_MAX, t1 = INT64_MIN, row = f->ranges[0].row;
	size_t rows = 1, i = timeline_track_index(tl, row);
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
	timefmt_dur(a, sizeof(a), t0 - tl->origin, 3, draw_tf());
	timefmt_dur(b, sizeof(b), t1 - tl->origin, 3, draw_tf());
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
	const struct an_finding *f = &il->res->findings[i];

	sb_adds(&out->cells[IC_SEVERITY], an_severity_names[f->severity]);
	out->keys[IC_SEVERITY] = -(double)f->severity;
	sb_adds(&out->cells[IC_RULE], f->rule);
	sb_adds(&out->cells[IC_FINDING], f->text);
	if (f->nranges)
		where(il->tl, f, &out->cells[IC_WHERE]);
	else
		sb_adds(&out->cells[IC_WHERE], "the whole profile");
	if (f->severity == AN_INFO)
		out->style = S_DIM;
}

static int ins_enter(struct list *l, size_t i)
{
	struct insights_list *il = (struct insights_list *)l;
	struct timeline *tl = il->tl;
	const struct an_finding *f = &il->res->findings[i];

	tui_pop(l->view.tui);
	timeline_insight_show(tl, f);
	return 0;
}

/* The timeline's findings, once its analysis is done. */
static void ins_reload(struct list *l)
{
	struct insights_list *il = (struct insights_list *)l;
	const struct an_result *r = timeline_insights(il->tl);

	if (r == il->res)
		return;
	il->res = r;
	list_changed(l);
	list_fit_cols(l);
}

static void ins_header(struct list *l, struct strbuf *out)
{
	struct insights_list *il = (struct insights_list *)l;
	size_t n = ins_count(l);

	if (!il->res)
		sb_adds(out, il->tl->ins.done ? "the analysis failed" :
			     "the rules are running...");
	else
		sb_printf(out, "%zu finding%s", n, n == 1 ? "" : "s");
}

static const char *ins_export_name(struct list *l)
{
	return ((struct insights_list *)l)->res ? "insights" : NULL;
}

/* As `nxtop analyze` prints the whole profile, every finding listed. */
static int ins_export(struct list *l, enum out_format fmt, FILE *f)
{
	struct insights_list *il = (struct insights_list *)l;
	struct timeline *tl = il->tl;
	struct mprofile p = timeline_axis_profile(tl);
	struct an_limits all = { SIZE_MAX, SIZE_MAX };
	struct bounds b;

	if (fmt == OUT_CSV) {
		err_set("insights: text or JSON only");
		return -1;
	}
	memset(&b, 0, sizeof(b));
	if (bounds_compute(tl->m, tl->prof.id, tl->prof.start,
			   tl->prof.end + 1, &b)) {
		bounds_free(&b);
		return -1;
	}
	if (fmt == OUT_JSON)
		report_analyze_json(il->res, &b, &p, &all, f);
	else
		report_analyze_text(il->res, &b, &p, tl->tr.t, tl->tr.n, &all,
				    f);
	bounds_free(&b);
	return 0;
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
	"  q back", NULL);

struct view *insight_view_open(struct timeline *tl)
{
	struct insights_list *il = xcalloc(1, sizeof(*il));

	il->tl = tl;
	list_init(&il->list, &ins_vops, &ins_ops, LIST_SMALL, "insights");
	list_set_cols(&il->list, cols, IC_COUNT);
	ins_reload(&il->list);
	return &il->list.view;
}
