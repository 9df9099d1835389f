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
static void build_spans(struct timeline *tl, const struct an_result *r)
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
	tl->ins.spans = s;
	tl->ins.nspans = out;
}

static void take_result(struct timeline *tl)
{
	const char *error;

	tl->ins.res = an_job_result(tl->ins.job, &error);
	if (!tl->ins.res) {
		tui_error(tl->view.tui, "insights: %s", error ? error : "failed");
		return;
	}
	build_spans(tl, tl->ins.res);
}

int timeline_insights_poll(struct timeline *tl, int wait)
{
	if (tl->ins.done)
		return VIEW_IDLE;
	if (!tl->ins.job) {
		/* the whole profile, as `nxtop analyze` reads it */
		tl->ins.job = an_job_start(tl->m, tl->prof.id, tl->prof.start,
					   tl->prof.end + 1);
		if (!tl->ins.job) {
			tl->ins.done = 1;
			tui_error(tl->view.tui, "insights: %s", err_get());
			return VIEW_DONE;
		}
	}
	if (!an_job_poll(tl->ins.job, wait))
		return VIEW_BUSY;
	tl->ins.done = 1;
	take_result(tl);
	return VIEW_DONE;
}

const struct an_result *timeline_insights(const struct timeline *tl)
{
	return tl->ins.done ? tl->ins.res : NULL;
}

void timeline_insights_free(struct timeline *tl)
{
	an_job_free(tl->ins.job);
	free(tl->ins.spans);
	memset(&tl->ins, 0, sizeof(tl->ins));
}

void timeline_insights_header(const struct timeline *tl, struct strbuf *out)
{
	size_t n;

	if (!tl->ins.res)
		return;
	n = tl->ins.res->nfindings;
	sb_printf(out, "  %zu insight%s", n, n == 1 ? "" : "s");
}

/* The first span that ends after t (spans are disjoint: their ends are
 * in order too). */
static size_t first_span(const struct timeline *tl, int64_t t)
{
	size_t lo = 0, hi = tl->ins.nspans;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tl->ins.spans[mid].end <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void timeline_insights_draw(struct timeline *tl, WINDOW *win)
{
	int x0 = tl->labelw + 1, y = tl->view.top + 1, last = -1;
	int64_t vend = timeline_end(tl);
	char cell[2] = "";

	if (!tl->ins_row)
		return;
	draw_str(win, y, 0, tl->labelw, "insights", draw_style(S_DIM));
	for (size_t k = first_span(tl, tl->t0); k < tl->ins.nspans &&
	     tl->ins.spans[k].ts < vend; k++) {
		const struct ins_span *s = &tl->ins.spans[k];
		int c0 = (int)(NX_MAX(s->ts - tl->t0, 0) / tl->colw);
		int c1 = (int)NX_MIN((s->end - 1 - tl->t0) / tl->colw,
				     (int64_t)tl->ncols - 1);

		/* a column two spans share keeps the first's, unless the
		 * second is worse */
		if (c0 == last && s->sev <= tl->ins.spans[k - 1].sev)
			c0++;
		for (int c = c0; c <= c1; c++) {
			cell[0] = sev_glyph[s->sev];
			draw_str(win, y, x0 + c, 1, cell, draw_style(S_WARN));
		}
		last = c1;
	}
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
			 size_t *first, size_t *last)
{
	size_t r0 = SIZE_MAX, r1 = 0;
	int changed = 0;

	for (size_t k = 0; k < f->nranges; k++) {
		size_t i = timeline_track_index(tl, f->ranges[k].row);

		if (i != SIZE_MAX)
			changed |= unfold(tl, i);
	}
	if (changed)
		tracks_update_rows(&tl->tr);
	for (size_t k = 0; k < f->nranges; k++) {
		size_t i = timeline_track_index(tl, f->ranges[k].row);

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

void timeline_insight_show(struct timeline *tl, const struct an_finding *f)
{
	int64_t t0 = INT64_MAX, t1 = INT64_MIN;
	size_t first, last;

	if (!f->nranges) {
		timeline_zoom_fit(tl);
		tl->box.on = 0;
		tui_message(tl->view.tui, "%s: the finding is about the whole "
			    "profile", f->rule);
		return;
	}
	for (size_t k = 0; k < f->nranges; k++) {
		t0 = NX_MIN(t0, f->ranges[k].ts);
		t1 = NX_MAX(t1, f->ranges[k].end);
	}
	t0 = NX_MAX(t0, tl->start);
	t1 = NX_MAX(NX_MIN(t1, tl->end + 1), t0 + 1);
	finding_rows(tl, f, &first, &last);
	tl->box = (struct box){ .on = 1, .fixed = 1, .t0 = t0, .t1 = t1,
				.track = first, .track_end = last };
	timeline_layout(tl);
	tl->row = tracks_row_of(&tl->tr, first);
	tl->cur = t0;
	timeline_zoom_range(tl, t0, t1);
	tui_message(tl->view.tui, "%s: %zu range%s boxed; Enter summarises, "
		    "Esc clears", f->rule, f->nranges, f->nranges == 1 ? "" : "s");
}
