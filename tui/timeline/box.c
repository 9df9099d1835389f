/* Box select: v anchors a box at the cursor's column and row; moving
 * the cursor stretches it over time and rows; Enter opens its Selection
 * Summary, f zooms to it (and fixes it), Esc clears it. W summarises
 * the whole window: the time on screen over every row. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tui/compare_view.h"
#include "tui/draw.h"
#include "model/report/report.h"
#include "model/report/export.h"
#include "model/selection.h"
#include "model/timefmt.h"
#include "tui/summary_view.h"
#include "tui/timeline/timeline_int.h"

void timeline_box_start(struct timeline *tl)
{
	struct box *b = &tl->box;

	b->on = 1;
	b->fixed = 0;
	b->a0 = tl->cur;
	b->a1 = tl->cur + tl->colw;
	b->track = timeline_cur_track(tl);
	tui_message(tl->view.tui, "box: move to stretch it, Enter summarises, "
		    "f zooms, Esc clears");
}

void timeline_box_set(struct timeline *tl, int64_t t0, int64_t t1, size_t a,
		      size_t b)
{
	struct box *bx = &tl->box;

	bx->on = bx->fixed = 1;
	bx->t0 = t0;
	bx->t1 = t1;
	bx->track = a;
	bx->track_end = b;
	tui_message(tl->view.tui, "box: Enter summarises, f zooms, Esc "
		    "clears");
}

static int64_t clamp(int64_t v, int64_t lo, int64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* The box's time range (inside the profile) and rows; 1 if none. */
int timeline_box_range(const struct timeline *tl, int64_t *t0, int64_t *t1,
		       size_t *r0, size_t *r1)
{
	const struct box *b = &tl->box;
	size_t a, c;

	if (!b->on)
		return 1;
	if (b->fixed) {
		*t0 = b->t0;
		*t1 = b->t1;
		a = tracks_row_of(&tl->tr, b->track);
		c = tracks_row_of(&tl->tr, b->track_end);
	} else {
		*t0 = NX_MIN(b->a0, tl->cur);
		*t1 = NX_MAX(b->a1, tl->cur + tl->colw);
		a = tracks_row_of(&tl->tr, b->track);
		c = tl->row;
	}
	*t0 = clamp(*t0, tl->start, tl->end);
	*t1 = clamp(*t1, *t0 + 1, tl->end + 1);
	*r0 = NX_MIN(a, c);
	*r1 = NX_MAX(a, c);
	return 0;
}

/* The ids line i stands for; a stacked side's heading has none of its
 * own: the tracks under it. */
static void line_ids(const struct tracks *tr, size_t i, int64_t **ids,
		     size_t *n)
{
	if (tr->mb && tr->st[i].parent == SIZE_MAX && tr->st[i].is_group) {
		for (size_t k = i + 1; k < tr->n && tr->st[k].depth > 0; k++)
			if (tr->st[k].parent == i)
				tracks_ids(tr, k, ids, n);
		return;
	}
	tracks_ids(tr, i, ids, n);
}

int timeline_box_row_counts(const struct timeline *tl, size_t r,
			    size_t r0, int pass)
{
	size_t i = tl->tr.rows[r];
	const struct track_state *s = &tl->tr.st[i];

	/* a track's other lanes: once */
	return !(s->is_group && !s->folded && !pass) &&
	       !(r > r0 && tl->tr.rows[r - 1] == i);
}

/* Track ids of rows r0..r1 of one side: a folded group stands for its
 * tracks, an open one is left to its own rows unless it is all there
 * is. */
static int64_t *box_tracks(const struct timeline *tl, size_t r0, size_t r1,
			   int side, size_t *n)
{
	int64_t *ids = NULL;

	*n = 0;
	for (int pass = 0; pass < 2 && !*n; pass++) {
		for (size_t r = r0; r <= r1 && r < tl->tr.nrows; r++) {
			size_t i = tl->tr.rows[r];

			if (timeline_box_row_counts(tl, r, r0, pass) &&
			    tl->tr.st[i].side == side)
				line_ids(&tl->tr, i, &ids, n);
		}
	}
	return ids;
}

void timeline_box_zoom(struct timeline *tl)
{
	struct box *b = &tl->box;
	int64_t t0, t1;
	size_t r0, r1;

	if (timeline_box_range(tl, &t0, &t1, &r0, &r1)) {
		tui_message(tl->view.tui, "no box: v starts one");
		return;
	}
	b->t0 = t0;
	b->t1 = t1;
	b->track = tl->tr.rows[r0];
	b->track_end = tl->tr.rows[r1];
	b->fixed = 1;
	timeline_zoom_range(tl, t0, t1);
}

/* The Selection Summary of [t0, t1) over tracks (NULL: every row). */
static int compute(struct timeline *tl, int64_t t0, int64_t t1,
		   const int64_t *ids, size_t n, struct selection *sel)
{
	return selection_compute(tl->m, tl->prof.id, t0, t1, ids, n, sel);
}

static void push_summary(struct timeline *tl, const char *title,
			 int64_t t0, int64_t t1, const int64_t *ids, size_t n,
			 int box)
{
	struct selection *sel = xcalloc(1, sizeof(*sel));

	if (compute(tl, t0, t1, ids, n, sel)) {
		tui_error(tl->view.tui, "%s", err_get());
		free(sel);
		return;
	}
	tui_push(tl->view.tui, summary_open(tl, title, sel, box));
}

/* Stacked: the figures of [t0, t1) over rows r0..r1 (SIZE_MAX: every
 * row) in A and in B (its own times), compared. */
static int pair_diff(struct timeline *tl, const char *scope, int64_t t0,
		     int64_t t1, size_t r0, size_t r1, struct diff *d)
{
	struct model *m[2] = { tl->m, tl->tr.mb };
	int64_t prof[2] = { tl->prof.id, tl->prof_b.id };
	/* where each side's times count from: A's as its axis shows them,
	 * B's from its own start, as the stacked exports give them */
	int64_t from[2] = { timeline_axis_profile(tl).start, tl->prof_b.start };
	struct selection sel[2];
	const struct selection *of[2] = { NULL, NULL };
	int rc = 0;

	for (int side = 0; side < 2 && !rc; side++) {
		size_t n = 0;
		int64_t *ids = r1 == SIZE_MAX ? NULL :
			       box_tracks(tl, r0, r1, side, &n);
		int64_t sh = side ? tl->tr.shift : 0;

		if (r1 != SIZE_MAX && !n)
			continue;	/* the box holds none of its rows */
		rc = selection_compute(m[side], prof[side], t0 - sh, t1 - sh,
				       ids, n, &sel[side]);
		free(ids);
		if (!rc)
			of[side] = &sel[side];
	}
	if (!rc)
		rc = diff_selections(m, prof, of, scope, d);
	for (int side = 0; side < 2; side++) {
		int64_t sh = side ? tl->tr.shift : 0;

		if (of[side])
			selection_free(&sel[side]);
		if (!rc) {
			/* the ns after the axis's last holds nothing */
			d->range[side][0] = t0 - sh - from[side];
			d->range[side][1] = NX_MIN(t1, tl->end) - sh -
					    from[side];
		}
	}
	if (!rc)
		timeline_diff_files(tl, d);
	return rc;
}

static void push_pair(struct timeline *tl, const char *scope, int64_t t0,
		      int64_t t1, size_t r0, size_t r1)
{
	struct diff d;
	struct view *v;

	if (pair_diff(tl, scope, t0, t1, r0, r1, &d)) {
		tui_error(tl->view.tui, "%s", err_get());
		return;
	}
	v = compare_view_open_diff(tl, &d);
	tui_push(tl->view.tui, v);
}

static int pair_export(struct timeline *tl, const char *scope, int64_t t0,
		       int64_t t1, size_t r0, size_t r1, enum out_format fmt,
		       FILE *f)
{
	struct diff d;

	if (pair_diff(tl, scope, t0, t1, r0, r1, &d))
		return -1;
	report_diff(&d, fmt, f);
	diff_free(&d);
	return 0;
}

void timeline_box_summary(struct timeline *tl)
{
	int64_t t0, t1, *ids;
	size_t r0, r1, n;

	if (timeline_box_range(tl, &t0, &t1, &r0, &r1))
		return;
	if (tl->tr.mb) {
		push_pair(tl, "selection", t0, t1, r0, r1);
		return;
	}
	ids = box_tracks(tl, r0, r1, 0, &n);
	push_summary(tl, "selection", t0, t1, ids, n, 1);
	free(ids);
}

static void window_range(const struct timeline *tl, int64_t *t0, int64_t *t1)
{
	*t0 = clamp(tl->t0, tl->start, tl->end);
	*t1 = clamp(timeline_end(tl), *t0 + 1, tl->end + 1);
}

void timeline_window_summary(struct timeline *tl)
{
	int64_t t0, t1;

	window_range(tl, &t0, &t1);
	if (tl->tr.mb)
		push_pair(tl, "window", t0, t1, 0, SIZE_MAX);
	else
		push_summary(tl, "window", t0, t1, NULL, 0, 0);
}

/* e/E in the timeline without a search: the box, else the window. */
int timeline_box_export(struct timeline *tl, enum out_format fmt, FILE *f)
{
	struct mprofile p;
	struct selection sel;
	int64_t t0, t1, *ids = NULL;
	size_t r0, r1, n = 0;
	int rc, box = !timeline_box_range(tl, &t0, &t1, &r0, &r1);

	if (!box) {
		window_range(tl, &t0, &t1);
		r0 = 0;
		r1 = SIZE_MAX;
	}
	if (tl->tr.mb)
		return pair_export(tl, box ? "selection" : "window", t0, t1,
				   r0, r1, fmt, f);
	if (box)
		ids = box_tracks(tl, r0, r1, 0, &n);
	rc = compute(tl, t0, t1, ids, n, &sel);
	free(ids);
	if (rc)
		return -1;
	p = timeline_axis_profile(tl);
	if (box)
		export_selection(&sel, &p, fmt, f);
	else
		export_window(&sel, &p, fmt, f);
	selection_free(&sel);
	return 0;
}

/* Reverses the cell at (y, x); a blank cell gets the box colour. */
static void shade(WINDOW *win, int y, int x)
{
	draw_restyle(win, y, x, " ", draw_style(S_BOX), A_REVERSE, 0);
}

void timeline_box_draw(struct timeline *tl, WINDOW *win)
{
	int64_t t0, t1, c0, c1;
	size_t r0, r1;
	int x0 = tl->labelw + 1, y0 = timeline_tracks_y(tl);

	if (timeline_box_range(tl, &t0, &t1, &r0, &r1))
		return;
	c0 = (t0 - tl->t0) / tl->colw - (t0 < tl->t0 && (t0 - tl->t0) % tl->colw);
	c1 = (t1 - 1 - tl->t0) / tl->colw;
	if (t1 - 1 < tl->t0)
		return;
	c0 = NX_MAX(c0, 0);
	c1 = NX_MIN(c1, tl->ncols - 1);
	for (int64_t c = c0; c <= c1; c++)
		shade(win, tl->view.top, x0 + (int)c);
	for (size_t r = NX_MAX(r0, tl->top); r <= r1; r++) {
		if (r >= tl->top + (size_t)tl->track_rows)
			break;
		for (int64_t c = c0; c <= c1; c++)
			shade(win, y0 + (int)(r - tl->top), x0 + (int)c);
	}
}
