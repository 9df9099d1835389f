/* Markers on the timeline: m drops one at the cursor, snapped to the
 * nearest event edge of the cursor's track; ' and " jump between them.
 * They are drawn on a line of their own under the time axis, with their
 * names where there is room, and as a thin line through empty cells.
 * The list is read again whenever another nxtop changed the store, so
 * two viewers of one profile see each other's markers. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/draw.h"
#include "model/timefmt.h"
#include "tui/timeline/timeline_int.h"

/* Snapping looks this many columns either side of the cursor. */
#define SNAP_COLS 2

void timeline_marks_load(struct timeline *tl)
{
	struct userdata *u = tui_userdata(tl->view.tui);
	struct marker *mk;
	size_t n;

	if (!u)
		return;
	if (tl->marks_loaded && !userdata_changed(u))
		return;
	/* a bundle's profile: what older versions filed under the bundle
	 * moves to the profile's own file, once */
	if ((!tl->marks_loaded &&
	     userdata_adopt(u, tl->m, tl->prof.id, tl->ud_key)) ||
	    marker_list(u, tl->ud_key, &mk, &n)) {
		tui_error(tl->view.tui, "%s", err_get());
		return;
	}
	marker_list_free(tl->marks, tl->nmarks);
	tl->marks = mk;
	tl->nmarks = n;
	tl->marks_loaded = 1;
}

static int64_t dist(int64_t a, int64_t b)
{
	return a > b ? a - b : b - a;
}

/* The cursor's time, moved to the nearest start or end of an event on
 * its track (the tracks of its row) when one is near. */
static int64_t snap(struct timeline *tl, const char **what)
{
	size_t i = timeline_cur_track(tl), n;
	int64_t target = tl->cur, edge = tl->cur, sh;
	const struct mtrack *t;
	int found = 0;

	*what = "";
	if (tl->tr.st[i].is_group || tl->tr.t[i].is_counter)
		return tl->cur;
	/* on an event jumped to, its start; else the column's middle */
	if (!(tl->sel.id && tl->sel.ts == tl->cur))
		target = tl->cur + tl->colw / 2;
	t = tracks_members(&tl->tr, i, &n);
	sh = tracks_shift(&tl->tr, i);
	for (size_t j = 0; j < n; j++) {
		int64_t e;
		int rc = model_edge_near(tracks_model(&tl->tr, i), &t[j],
					 target - sh,
					 NX_MAX(tl->colw * SNAP_COLS, 1), &e);

		if (rc < 0) {
			tui_error(tl->view.tui, "%s", err_get());
			return tl->cur;
		}
		e += sh;
		if (!rc && (!found || dist(e, target) < dist(edge, target))) {
			edge = e;
			found = 1;
		}
	}
	if (found)
		*what = ", on an event edge";
	return edge;
}

void timeline_mark(struct timeline *tl, const char *name)
{
	struct userdata *u = tui_userdata(tl->view.tui);
	const char *what;
	int64_t ts, id;
	char when[48];

	if (!u) {
		tui_error(tl->view.tui, "markers: %s",
			  tui_userdata_error(tl->view.tui));
		return;
	}
	ts = snap(tl, &what);
	if (marker_add(u, tl->ud_key, name, ts, &id)) {
		tui_error(tl->view.tui, "%s", err_get());
		return;
	}
	tl->marks_loaded = 0;
	timeline_marks_load(tl);
	for (size_t k = 0; k < tl->nmarks; k++) {
		if (tl->marks[k].id != id)
			continue;
		timeline_fmt_rel(tl, ts, when, sizeof(when));
		tui_message(tl->view.tui, "marker %s at %s%s", tl->marks[k].name,
			    when, what);
	}
	tl->mark_on = id;
}

/* The index of the marker the cursor is on, -1 if none: markers at one
 * time are told apart by the one last dropped, stepped or gone to. */
static long mark_on(const struct timeline *tl)
{
	for (size_t k = 0; k < tl->nmarks; k++)
		if (tl->marks[k].id == tl->mark_on)
			return tl->marks[k].ts == tl->cur ? (long)k : -1;
	return -1;
}

/* The marker after (dir > 0) or before the cursor, in the list's order
 * (by time, then as dropped); *wrapped when past the last or first. */
static size_t mark_next(const struct timeline *tl, int dir, int *wrapped)
{
	long on = mark_on(tl), n = (long)tl->nmarks;

	*wrapped = 0;
	if (on >= 0) {
		on += dir;
		*wrapped = on < 0 || on >= n;
		return (size_t)((on + n) % n);
	}
	for (long k = 0; k < n; k++) {
		long j = dir > 0 ? k : n - 1 - k;

		if (dir > 0 ? tl->marks[j].ts > tl->cur :
			      tl->marks[j].ts < tl->cur)
			return (size_t)j;
	}
	*wrapped = 1;
	return dir > 0 ? 0 : (size_t)n - 1;
}

/* ", 2 of 3 at this time" when other markers share marker k's time. */
static void mark_among(const struct timeline *tl, size_t k, char *buf,
		       size_t n)
{
	int64_t ts = tl->marks[k].ts;
	size_t first = k, last = k;

	while (first && tl->marks[first - 1].ts == ts)
		first--;
	while (last + 1 < tl->nmarks && tl->marks[last + 1].ts == ts)
		last++;
	if (first == last)
		buf[0] = 0;
	else
		snprintf(buf, n, ", %zu of %zu at this time", k - first + 1,
			 last - first + 1);
}

void timeline_mark_step(struct timeline *tl, int dir)
{
	const struct marker *to;
	char when[48], among[48];
	size_t k;
	int wrapped;

	timeline_marks_load(tl);
	if (!tl->nmarks) {
		tui_message(tl->view.tui, "no markers: m drops one");
		return;
	}
	k = mark_next(tl, dir, &wrapped);
	to = &tl->marks[k];
	tl->cur = to->ts;
	tl->mark_on = to->id;
	tl->fitted = 0;
	timeline_show_cursor(tl);
	timeline_fmt_rel(tl, to->ts, when, sizeof(when));
	mark_among(tl, k, among, sizeof(among));
	tui_message(tl->view.tui, "marker %s at %s%s%s", to->name, when, among,
		    !wrapped ? "" : dir > 0 ? " (wrapped to the first)" :
					      " (wrapped to the last)");
}

/* The column of time t on screen, -1 if off screen. */
static int column_of(const struct timeline *tl, int64_t t)
{
	int64_t c;

	if (t < tl->t0)
		return -1;
	c = (t - tl->t0) / tl->colw;
	return c < tl->ncols ? (int)c : -1;
}

const struct marker *timeline_mark_at_cursor(struct timeline *tl)
{
	int c = timeline_cursor_col(tl);

	for (size_t k = 0; k < tl->nmarks; k++)
		if (column_of(tl, tl->marks[k].ts) == c)
			return &tl->marks[k];
	return NULL;
}

static int blank(WINDOW *win, int y, int x)
{
	cchar_t cc;
	wchar_t wc[CCHARW_MAX + 1];
	attr_t a;
	short pair;

	return mvwin_wch(win, y, x, &cc) != ERR &&
	       getcchar(&cc, wc, &a, &pair, NULL) != ERR && wc[0] == L' ';
}

/* Marker k at column c on the marker line: its glyph, then its name up
 * to a blank before column next. */
static void draw_mark(struct timeline *tl, WINDOW *win, int y, size_t k,
		      int c, int next)
{
	int x0 = tl->labelw + 1, room = next - c - 2;

	draw_str(win, y, x0 + c, 1, draw_glyph(G_MARKER), draw_style(S_MARKER));
	if (room >= 2)
		draw_text(win, y, x0 + c + 1, room, tl->marks[k].name,
			  draw_style(S_MARKER), 0);
}

void timeline_marks_draw(struct timeline *tl, WINDOW *win)
{
	int x0 = tl->labelw + 1, y = tl->view.top + 1 + tl->ins_row;

	if (!tl->marks_row)
		return;
	draw_str(win, y, 0, tl->labelw, "markers", draw_style(S_DIM));
	for (size_t k = 0; k < tl->nmarks; k++) {
		int c = column_of(tl, tl->marks[k].ts), next = tl->ncols + 1;

		/* of markers sharing a column, the first is named */
		if (c < 0 || (k && column_of(tl, tl->marks[k - 1].ts) == c))
			continue;
		for (size_t j = k + 1; j < tl->nmarks && next > tl->ncols; j++)
			if (column_of(tl, tl->marks[j].ts) > c)
				next = column_of(tl, tl->marks[j].ts);
		draw_mark(tl, win, y, k, c, next);
		for (int r = 0; r < tl->track_rows; r++) {
			int ty = timeline_tracks_y(tl) + r;

			if (tl->top + (size_t)r >= tl->tr.nrows)
				break;
			if (blank(win, ty, x0 + c))
				draw_str(win, ty, x0 + c, 1,
					 draw_glyph(G_MARKER_LINE),
					 draw_style(S_MARKER));
		}
	}
}
