/* The analysis rules' findings on the timeline: they are computed once
 * per open timeline, on a thread of their own started after the first
 * frame, so that the profile shows at once. Then the header counts them
 * ("3 insights"), a warnings lane under the axis draws their ranges in
 * amber, and the Insights list (I) shows them one per line. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tui/draw.h"
#include "tui/timeline/timeline_int.h"

/* The lane's cell: '!' for a warning or an error, 'i' for information
 * only. */
static const char sev_glyph[] = { 'i', '!', '!' };

static int by_ts(const void *a, const void *b)
{
	const struct ins_span *x = a, *y = b;

	return (x->ts > y->ts) - (x->ts < y->ts);
}

/* Every finding's ranges as disjoint spans in time order, each with
 * the highest severity of the ranges it merges. */
static void build_spans(struct insights *in, const struct an_result *r)
{
	struct ins_span *s = NULL;
	size_t n = 0, cap = 0, out = 0;

	for (size_t i = 0; i < r->nfindings; i++) {
		const struct an_finding *f = &r->findings[i];

		for (size_t k = 0; k < f->nranges; k++) {
			s = xgrow(s, &cap, n + 1, sizeof(*s));
			s[n++] = (struct ins_span){ f->ranges[k].ts,
				NX_MAX(f->ranges[k].end, f->ranges[k].ts + 1),
				(int)f->severity };
		}
	}
	if (n > 1)
		qsort(s, n, sizeof(*s), by_ts);
	for (size_t i = 0; i < n; i++) {
		if (out && s[i].ts <= s[out - 1].end) {
			s[out - 1].end = NX_MAX(s[out - 1].end, s[i].end);
			s[out - 1].sev = NX_MAX(s[out - 1].sev, s[i].sev);
		} else {
			s[out++] = s[i];
		}
	}
	in->spans = s;
	in->nspans = out;
}

static void take_result(struct timeline *tl, struct insights *in)
{
	const char *error;

	in->res = an_job_result(in->job, &error);
	if (!in->res) {
		tui_error(tl->view.tui, "insights%s: %s",
			  in == &tl->ins_b ? " of B" : "",
			  error ? error : "failed");
		return;
	}
	build_spans(in, in->res);
}

/* One side's analysis: the whole profile, as `nxtop analyze` reads it. */
static int poll_side(struct timeline *tl, struct insights *in,
		     struct model *m, const struct mprofile *p, int wait)
{
	if (in->done)
		return VIEW_IDLE;
	if (!in->job) {
		in->job = an_job_start(m, p->id, p->start, p->last + 1);
		if (!in->job) {
			in->done = 1;
			tui_error(tl->view.tui, "insights: %s", err_get());
			return VIEW_DONE;
		}
	}
	if (!an_job_poll(in->job, wait))
		return VIEW_BUSY;
	in->done = 1;
	take_result(tl, in);
	return VIEW_DONE;
}

int timeline_insights_poll(struct timeline *tl, int wait)
{
	int a = poll_side(tl, &tl->ins, tl->m, &tl->prof, wait), b;

	if (!tl->tr.mb)
		return a;
	b = poll_side(tl, &tl->ins_b, tl->tr.mb, &tl->prof_b, wait);
	return a == VIEW_BUSY || b == VIEW_BUSY ? VIEW_BUSY :
	       a == VIEW_DONE || b == VIEW_DONE ? VIEW_DONE : VIEW_IDLE;
}

static const struct insights *side_ins(const struct timeline *tl, int side)
{
	return side ? &tl->ins_b : &tl->ins;
}

const struct an_result *timeline_insights(const struct timeline *tl,
					  int side)
{
	const struct insights *in = side_ins(tl, side);

	return in->done ? in->res : NULL;
}

int timeline_insights_done(const struct timeline *tl, int side)
{
	return side_ins(tl, side)->done;
}

static void insights_free(struct insights *in)
{
	an_job_free(in->job);
	free(in->spans);
	memset(in, 0, sizeof(*in));
}

void timeline_insights_free(struct timeline *tl)
{
	insights_free(&tl->ins);
	insights_free(&tl->ins_b);
}

/* "3 insights"; stacked, "A 3 · B 4 insights". */
void timeline_insights_header(const struct timeline *tl, struct strbuf *out)
{
	size_t n;

	if (tl->tr.mb && (tl->ins.res || tl->ins_b.res)) {
		sb_printf(out, "  A %zu %s B %zu insights",
			  tl->ins.res ? tl->ins.res->nfindings : 0,
			  draw_glyph(G_SIDES),
			  tl->ins_b.res ? tl->ins_b.res->nfindings : 0);
		return;
	}
	if (!tl->ins.res)
		return;
	n = tl->ins.res->nfindings;
	sb_printf(out, "  %zu insight%s", n, n == 1 ? "" : "s");
}

/* The first span of in that ends after t (spans are disjoint: their
 * ends are in order too). */
static size_t first_span(const struct insights *in, int64_t t)
{
	size_t lo = 0, hi = in->nspans;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (in->spans[mid].end <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* One side's spans, sh ns later on the axis. */
static void draw_spans(struct timeline *tl, WINDOW *win,
		       const struct insights *in, int64_t sh)
{
	int x0 = tl->labelw + 1, y = tl->view.top + 1, last = -1;
	int64_t vend = timeline_end(tl);
	char cell[2] = "";

	for (size_t k = first_span(in, tl->t0 - sh); k < in->nspans &&
	     in->spans[k].ts + sh < vend; k++) {
		const struct ins_span *s = &in->spans[k];
		int c0 = (int)(NX_MAX(s->ts + sh - tl->t0, 0) / tl->colw);
		int c1 = (int)NX_MIN((s->end + sh - 1 - tl->t0) / tl->colw,
				     (int64_t)tl->ncols - 1);

		/* a column two spans share keeps the first's, unless the
		 * second is worse */
		if (c0 == last && s->sev <= in->spans[k - 1].sev)
			c0++;
		for (int c = c0; c <= c1; c++) {
			cell[0] = sev_glyph[s->sev];
			draw_str(win, y, x0 + c, 1, cell, draw_style(S_WARN));
		}
		last = c1;
	}
}

void timeline_insights_draw(struct timeline *tl, WINDOW *win)
{
	if (!tl->ins_row)
		return;
	draw_str(win, tl->view.top + 1, 0, tl->labelw, "insights",
		 draw_style(S_DIM));
	draw_spans(tl, win, &tl->ins, 0);
	if (tl->tr.mb)
		draw_spans(tl, win, &tl->ins_b, tl->tr.shift);
}

/* Unfolds the groups holding track i; 1 if one was folded. */
static int unfold(struct timeline *tl, size_t i)
{
	int changed = 0;

	for (size_t p = tl->tr.st[i].parent; p != SIZE_MAX;
	     p = tl->tr.st[p].parent) {
		changed |= tl->tr.st[p].folded;
		tl->tr.st[p].folded = 0;
	}
	return changed;
}

/* The rows of a finding's ranges, shown: the first and last track
 * index by row position; every row when no range names one here. */
static void finding_rows(struct timeline *tl, const struct an_finding *f,
			 int side, size_t *first, size_t *last)
{
	size_t r0 = SIZE_MAX, r1 = 0;
	int changed = 0;

	for (size_t k = 0; k < f->nranges; k++) {
		size_t i = tracks_find_side(&tl->tr, side, f->ranges[k].row);

		if (i != SIZE_MAX)
			changed |= unfold(tl, i);
	}
	if (changed)
		tracks_update_rows(&tl->tr);
	for (size_t k = 0; k < f->nranges; k++) {
		size_t i = tracks_find_side(&tl->tr, side, f->ranges[k].row);

		if (i == SIZE_MAX)
			continue;
		r0 = NX_MIN(r0, tracks_row_of(&tl->tr, i));
		r1 = NX_MAX(r1, tracks_row_of(&tl->tr, i));
	}
	if (r0 == SIZE_MAX) {
		r0 = 0;
		r1 = tl->tr.nrows - 1;
	}
	*first = tl->tr.rows[r0];
	*last = tl->tr.rows[r1];
}

void timeline_insight_show(struct timeline *tl, const struct an_finding *f,
			   int side)
{
	int64_t t0 = INT64_MAX, t1 = INT64_MIN, sh = side ? tl->tr.shift : 0;
	size_t first, last;

	if (!f->nranges) {
		timeline_zoom_fit(tl);
		tl->box.on = 0;
		tui_message(tl->view.tui, "%s: the finding is about the whole "
			    "profile", f->rule);
		return;
	}
	for (size_t k = 0; k < f->nranges; k++) {
		t0 = NX_MIN(t0, f->ranges[k].ts + sh);
		t1 = NX_MAX(t1, f->ranges[k].end + sh);
	}
	t0 = NX_MAX(t0, tl->start);
	t1 = NX_MAX(NX_MIN(t1, tl->end + 1), t0 + 1);
	finding_rows(tl, f, side, &first, &last);
	tl->box = (struct box){ .on = 1, .fixed = 1, .t0 = t0, .t1 = t1,
				.track = first, .track_end = last };
	timeline_layout(tl);
	tl->row = tracks_row_of(&tl->tr, first);
	tl->cur = t0;
	timeline_zoom_range(tl, t0, t1);
	tui_message(tl->view.tui, "%s: %zu range%s boxed; Enter summarises, "
		    "Esc clears", f->rule, f->nranges, f->nranges == 1 ? "" : "s");
}
