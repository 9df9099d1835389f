/* The timeline view: a time axis, one row per track in collapsible
 * groups, a details pane and a colour legend. Each terminal column is a
 * time bucket of colw ns; column c covers [t0 + c colw, t0 + (c+1) colw).
 * The cursor is a time (cur) and a row; zooming keeps the cursor's
 * column, panning moves the view and the cursor together by whole
 * columns so cached frames can be shifted instead of read again. */
#include "config.h"

#include "tui/timeline/timeline.h"

#include <stdlib.h>
#include <string.h>

#include "tui/compare_view.h"
#include "tui/draw.h"
#include "tui/help.h"
#include "tui/info_view.h"
#include "tui/insight_view.h"
#include "tui/layer_view.h"
#include "tui/marker_view.h"
#include "model/diff.h"
#include "model/report/export.h"
#include "model/syssummary.h"
#include "model/text.h"
#include "model/timefmt.h"
#include "model/util.h"
#include "tui/timeline/timeline_int.h"

/* What a slice's name, category and row are called in each kind of
 * profile: a system event's category is its source (neuron_rt, ...). */
static const char *const color_names[3][BY_COUNT] = {
	{ "opcode", "layer", "engine" },
	{ "name", "category", "thread" },	/* a trace */
	{ "name", "source", "row" },		/* a system profile */
};

const char *timeline_color_name(const struct timeline *tl, enum color_by c)
{
	return color_names[tl->is_trace ? 1 : tl->is_system ? 2 : 0][c];
}

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;

	return (a % b != 0 && a < 0) ? q - 1 : q;
}

/* Track index of the cursor row. */
size_t timeline_cur_track(const struct timeline *tl)
{
	return tl->tr.rows[tl->row];
}

int timeline_tracks_y(const struct timeline *tl)
{
	return tl->view.top + 1 + tl->ins_row + tl->marks_row;
}

static int label_width(const struct timeline *tl, size_t i)
{
	const struct track_state *s = &tl->tr.st[i];
	int w = 2 * s->depth + text_width(tl->tr.t[i].name);

	if (tl->tr.t[i].is_counter) {
		/* room for the values in view and the unit */
		struct strbuf unit;

		sb_init(&unit);
		timeline_counter_unit(tl, i, &unit);
		w += 1 + SCALE_MAX + 1 + text_width(sb_cstr(&unit));
		sb_free(&unit);
	}
	/* the fold glyph; a folded group's " (N)" may be cut */
	return s->is_group ? w + 2 : w;
}

/* The label column takes what the widest label needs, up to a share of
 * the screen: 24 columns of 80, 36 of 120, at most LABEL_MAX; longer
 * labels are shortened in the middle when drawn. */
static int label_cap(int width)
{
	return NX_MIN(width * 3 / 10, LABEL_MAX);
}

/* Rows the layout asks for beyond the view's height, with one track row:
 * axis, warnings, markers, pane, a search's two lines and the legend. */
static int layout_excess(const struct timeline *tl)
{
	return 3 + tl->ins_row + tl->marks_row + tl->details_h + tl->hl_rows -
	       tl->view.height;
}

void timeline_layout(struct timeline *tl)
{
	struct view *v = &tl->view;
	int widest = 0;

	for (size_t i = 0; i < tl->tr.n; i++)
		widest = NX_MAX(widest, label_width(tl, i));
	tl->labelw = NX_MAX(NX_MIN(widest + 1, label_cap(v->width)), LABEL_MIN);
	tl->ncols = NX_MAX(v->width - tl->labelw - 1, 1);
	tl->details_h = 0;
	tl->marks_row = tl->nmarks > 0;
	tl->ins_row = tl->ins.nspans + tl->ins_b.nspans > 0;
	if (tl->details_open) {
		/* a third of the height, or all the rows the tracks leave */
		int spare = v->height - 2 - tl->ins_row - tl->marks_row -
			    (int)tl->tr.nrows;

		tl->details_h = NX_MAX(NX_MAX(v->height / 3, DETAILS_MIN),
				       spare);
		tl->details_h = NX_MIN(tl->details_h, v->height - 5);
	}
	/* A short screen gives up the marker line, then the warnings lane,
	 * then rows of the pane, so that one track row fits and the lines
	 * below never land on the legend's. */
	if (layout_excess(tl) > 0)
		tl->marks_row = 0;
	if (layout_excess(tl) > 0)
		tl->ins_row = 0;
	tl->details_h = NX_MAX(tl->details_h - NX_MAX(layout_excess(tl), 0), 0);
	/* axis, warnings, marker and legend rows, the strip and results
	 * line of a search */
	tl->track_rows = NX_MAX(v->height - 2 - tl->ins_row - tl->marks_row -
				tl->hl_rows - tl->details_h, 1);
	/* a taller screen shows the rows scrolled off before blank ones */
	if (tl->tr.nrows > (size_t)tl->track_rows)
		tl->top = NX_MIN(tl->top, tl->tr.nrows - (size_t)tl->track_rows);
	else
		tl->top = 0;
	if (tl->row < tl->top)
		tl->top = tl->row;
	if (tl->row >= tl->top + (size_t)tl->track_rows)
		tl->top = tl->row - (size_t)tl->track_rows + 1;
}

/* ns on screen */
static int64_t timeline_span(const struct timeline *tl)
{
	return tl->colw > INT64_MAX / tl->ncols ? INT64_MAX :
						    tl->colw * tl->ncols;
}

int64_t timeline_end(const struct timeline *tl)
{
	return sat_add(tl->t0, timeline_span(tl));
}

/* Zoomed out all the way, the profile takes half the width. */
static int64_t max_colw(const struct timeline *tl)
{
	int64_t len = tl->end - tl->start;

	return NX_MAX(len / tl->ncols * 2 + 2, 1);
}

/* Keeps at least half the view inside the profile, moving by whole
 * columns. */
void timeline_clamp(struct timeline *tl)
{
	int64_t half = timeline_span(tl) / 2;
	int64_t lo = tl->start - half, hi = tl->end - half;
	int64_t shift = 0;

	if (tl->colw > max_colw(tl))
		tl->colw = max_colw(tl);
	if (tl->colw < 1)
		tl->colw = 1;
	half = timeline_span(tl) / 2;
	lo = tl->start - half;
	hi = NX_MAX(tl->end - half, lo);
	if (tl->t0 < lo)
		shift = floor_div(lo - tl->t0 + tl->colw - 1, tl->colw);
	else if (tl->t0 > hi)
		shift = -floor_div(tl->t0 - hi + tl->colw - 1, tl->colw);
	tl->t0 += shift * tl->colw;
}

int timeline_cursor_col(const struct timeline *tl)
{
	int64_t c = floor_div(tl->cur - tl->t0, tl->colw);

	return c < 0 ? -1 : c >= tl->ncols ? tl->ncols : (int)c;
}

/* Brings the cursor into view: the view moves by whole columns so the
 * cursor lands in the middle. */
void timeline_show_cursor(struct timeline *tl)
{
	int64_t c = floor_div(tl->cur - tl->t0, tl->colw);

	if (c >= 0 && c < tl->ncols)
		return;
	tl->t0 += (c - tl->ncols / 2) * tl->colw;
	timeline_clamp(tl);
	c = floor_div(tl->cur - tl->t0, tl->colw);
	if (c < 0)
		tl->cur = tl->t0;
	else if (c >= tl->ncols)
		tl->cur = tl->t0 + (int64_t)(tl->ncols - 1) * tl->colw;
}

void timeline_zoom_fit(struct timeline *tl)
{
	int64_t len = NX_MAX(tl->end - tl->start, 1);

	tl->colw = NX_MAX((len + tl->ncols - 1) / tl->ncols, 1);
	tl->t0 = tl->start;
	tl->fitted = 1;
	if (tl->cur < tl->start || tl->cur >= tl->end)
		tl->cur = tl->start;
}

void timeline_zoom_range(struct timeline *tl, int64_t t0, int64_t t1)
{
	int64_t span = sat_sub(t1, t0);

	/* rounded up, without going past INT64_MAX on a huge range */
	tl->colw = NX_MAX(span / tl->ncols + (span % tl->ncols != 0), 1);
	tl->t0 = t0;
	tl->fitted = 0;
	timeline_clamp(tl);
	if (timeline_cursor_col(tl) < 0 || timeline_cursor_col(tl) >= tl->ncols)
		tl->cur = t0;
	timeline_show_cursor(tl);
}

void timeline_set_file(struct view *v, const char *path)
{
	struct timeline *tl = (struct timeline *)v;

	free(tl->file);
	tl->file = path ? xstrdup(path) : NULL;
}

void timeline_diff_files(const struct timeline *tl, struct diff *d)
{
	d->file[0] = tl->file;
	d->file[1] = tui_compare_named(tl->view.tui);
}

struct mprofile timeline_axis_profile(const struct timeline *tl)
{
	struct mprofile p = tl->prof;

	p.start = tl->origin;
	return p;
}

size_t timeline_track_index(const struct timeline *tl, int64_t id)
{
	return tracks_find(&tl->tr, id);
}

void timeline_goto(struct timeline *tl, int64_t t, size_t i)
{
	int unfolded = 0;

	for (size_t p = tl->tr.st[i].parent; p != SIZE_MAX;
	     p = tl->tr.st[p].parent) {
		if (tl->tr.st[p].folded) {
			tl->tr.st[p].folded = 0;
			unfolded = 1;
		}
	}
	if (unfolded)
		tracks_update_rows(&tl->tr);
	tl->row = tracks_row_of(&tl->tr, i);
	tl->cur = t;
	tl->fitted = 0;
	timeline_layout(tl);
	timeline_show_cursor(tl);
}

/* New column width, keeping the cursor where it is on screen. */
static void zoom_to(struct timeline *tl, int64_t colw)
{
	int64_t off = tl->cur - tl->t0;

	timeline_show_cursor(tl);
	off = tl->cur - tl->t0;
	tl->t0 = tl->cur - (int64_t)((double)off * (double)colw /
				     (double)tl->colw);
	tl->colw = colw;
	tl->fitted = 0;
	timeline_clamp(tl);
	timeline_show_cursor(tl);
}

static void pan(struct timeline *tl, int cols)
{
	int64_t before = tl->t0;

	tl->t0 += (int64_t)cols * tl->colw;
	timeline_clamp(tl);
	tl->cur += tl->t0 - before;
	tl->fitted = 0;
}

static void move_cursor_col(struct timeline *tl, int dir)
{
	int c = timeline_cursor_col(tl) + dir;

	if (c < 0 || c >= tl->ncols)
		pan(tl, dir * NX_MAX(tl->ncols / 4, 1));
	c = NX_MIN(NX_MAX(timeline_cursor_col(tl) + dir, 0), tl->ncols - 1);
	tl->cur = tl->t0 + (int64_t)c * tl->colw;
}

static void move_row(struct timeline *tl, long delta)
{
	long r = (long)tl->row + delta;

	if (r >= (long)tl->tr.nrows)
		r = (long)tl->tr.nrows - 1;
	if (r < 0)
		r = 0;
	tl->row = (size_t)r;
	timeline_layout(tl);
}

void timeline_fmt_rel(const struct timeline *tl, int64_t t, char *buf,
		    size_t n)
{
	/* enough decimals to tell one column from the next */
	int digits = 0;

	for (int64_t w = tl->colw; w < 1000000000 && digits < 9; w *= 10)
		digits++;
	digits -= 3;	/* timefmt picks at least µs for these */
	timefmt_dur(buf, n, t - tl->origin, NX_MAX(NX_MIN(digits, 6), 3), draw_tf());
}

/* Whether x is a better find than s: deeper at ts (dir 0), or nearer
 * to ts in the direction dir. */
static int nearer(const struct mslice *x, const struct mslice *s, int dir)
{
	if (!dir)
		return x->depth > s->depth;
	return dir > 0 ? x->ts < s->ts : x->ts > s->ts;
}

/* The event of track i's tracks covering ts, the deepest (dir 0), or
 * the first after ts (dir > 0) or before it; 0 found. */
static int slice_find(struct timeline *tl, size_t i, int64_t ts, int dir,
		      struct mslice *s)
{
	size_t n;
	const struct mtrack *t = tracks_members(&tl->tr, i, &n);
	struct model *m = tracks_model(&tl->tr, i);
	int64_t sh = tracks_shift(&tl->tr, i);
	int found = 1;

	ts = sat_add(ts, -sh);
	for (size_t j = 0; j < n; j++) {
		struct mslice x;
		int rc = dir ? model_slice_step(m, t[j].id, ts, dir, &x) :
			       model_slice_at(m, &t[j], ts, &x);

		if (rc < 0)
			return -1;
		x.ts += sh;
		if (!rc && (found || nearer(&x, s, dir))) {
			*s = x;
			found = 0;
		}
	}
	return found;
}

/* The event under the cursor on track i: the one jumped to while the
 * cursor stays on it, else the one covering most of the cursor's column,
 * else the one at the cursor's time. 0 found. */
int timeline_event_at(struct timeline *tl, size_t i, struct mslice *s)
{
	const struct mcell *cells;
	int c = timeline_cursor_col(tl), rc;

	if (tl->tr.st[i].is_group || tl->tr.t[i].is_counter)
		return 1;
	int lane = i == timeline_cur_track(tl) ? tl->tr.lane[tl->row] : 0;

	if (tl->sel.id && tl->sel.ts == tl->cur &&
	    tracks_find_side(&tl->tr, tl->sel_side, tl->sel.track_id) == i &&
	    NX_MIN(tl->sel.depth, tracks_lanes(&tl->tr, i) - 1) == lane) {
		*s = tl->sel;
		return 0;
	}
	cells = tracks_lane_frame(&tl->tr, i, lane, tl->t0, tl->colw,
				  tl->ncols);
	if (cells && c >= 0 && c < tl->ncols && cells[c].top_slice) {
		rc = model_slice(tracks_model(&tl->tr, i), cells[c].top_slice, s);
		if (!rc)
			s->ts += tracks_shift(&tl->tr, i);
		return rc;
	}
	if (tracks_lanes(&tl->tr, i) > 1)
		return 1;	/* a lane shows only its own depths */
	return slice_find(tl, i, tl->cur, 0, s);
}

static int open_details(struct timeline *tl, const struct mslice *s,
			size_t i)
{
	char when[48], dur[48], *title;
	int rc;

	timeline_fmt_rel(tl, s->ts, when, sizeof(when));
	timefmt_dur(dur, sizeof(dur), s->dur, 3, draw_tf());
	struct model *m = tracks_model(&tl->tr, i);

	title = xasprintf("%s on %s at %s, %s", model_string(m, s->name),
			  tl->tr.t[i].name, when, dur);
	rc = details_load(tl->details, m, s->id, title);
	free(title);
	if (rc < 0) {
		tui_error(tl->view.tui, "%s", err_get());
		return -1;
	}
	tl->details_open = 1;
	tl->details_side = tl->tr.st[i].side;
	timeline_layout(tl);
	if (tl->is_system) {
		char *hint = timeline_drill_hint(tl, s, tl->details_side);

		if (hint)
			tui_message(tl->view.tui, "%s", hint);
		free(hint);
	}
	return 0;
}

void timeline_follow(struct timeline *tl)
{
	size_t i = timeline_cur_track(tl);
	struct mslice s;

	if (tl->details_open && !timeline_event_at(tl, i, &s) &&
	    (details_slice(tl->details) != s.id ||
	     tl->details_side != tl->tr.st[i].side))
		open_details(tl, &s, i);
}

static void req_enter(struct timeline *tl)
{
	size_t i = timeline_cur_track(tl);
	struct mslice s;
	int rc;

	if (tl->box.on) {
		timeline_box_summary(tl);
		return;
	}
	if (tl->tr.st[i].is_group) {
		tl->tr.st[i].folded = !tl->tr.st[i].folded;
		tracks_update_rows(&tl->tr);
		return;
	}
	if (tl->tr.t[i].is_counter) {
		tui_message(tl->view.tui, "a counter has no events to show");
		return;
	}
	rc = timeline_event_at(tl, i, &s);
	if (rc < 0)
		tui_error(tl->view.tui, "%s", err_get());
	else if (rc > 0)
		tui_message(tl->view.tui, "no event under the cursor");
	else if (tl->is_system && tl->details_open &&
		 details_slice(tl->details) == s.id &&
		 tl->details_side == tl->tr.st[i].side)
		timeline_drill(tl, &s, tl->details_side);  /* the second Enter */
	else
		open_details(tl, &s, i);
}

/* To the next event after from (dir > 0) or the one before it; from
 * INT64_MAX and dir < 0: the last. */
static void req_step(struct timeline *tl, int64_t from, int dir)
{
	size_t i = timeline_cur_track(tl);
	struct mslice s;
	int rc;

	if (tl->tr.st[i].is_group || tl->tr.t[i].is_counter) {
		tui_message(tl->view.tui, "no events on this row");
		return;
	}
	rc = slice_find(tl, i, from, dir, &s);
	if (rc < 0) {
		tui_error(tl->view.tui, "%s", err_get());
		return;
	}
	if (rc > 0) {
		tui_message(tl->view.tui, "no %sevent on this track",
			    from == INT64_MAX ? "" : dir > 0 ? "later " :
			    "earlier ");
		return;
	}
	timeline_select(tl, &s, i);
}

void timeline_select(struct timeline *tl, const struct mslice *s, size_t i)
{
	size_t r = tracks_row_of(&tl->tr, i);

	if (s->dur > timeline_span(tl))
		timeline_zoom_range(tl, s->ts, sat_add(s->ts, s->dur));
	if (tl->tr.rows[r] == i)	/* the event's lane */
		tl->row = r + (size_t)NX_MIN(s->depth, tracks_lanes(&tl->tr, i) - 1);
	tl->cur = s->ts;
	tl->sel = *s;
	tl->sel_side = tl->tr.st[i].side;
	timeline_show_cursor(tl);
	if (tl->details_open)
		open_details(tl, s, i);
}

static void req_fold(struct timeline *tl)
{
	size_t i = timeline_cur_track(tl);

	if (!tl->tr.st[i].is_group) {
		i = tl->tr.st[i].parent;
		if (i == SIZE_MAX) {
			tui_message(tl->view.tui, "this track is not in a group");
			return;
		}
	}
	tl->tr.st[i].folded = !tl->tr.st[i].folded;
	tracks_update_rows(&tl->tr);
	tl->row = tracks_row_of(&tl->tr, i);
	timeline_layout(tl);
}

static int details_focused(const struct timeline *tl)
{
	return tl->details_open && tl->focus_details;
}

/* Requests that move in time. 0 when handled. */
static int time_request(struct timeline *tl, enum request req)
{
	switch (req) {
	case REQ_ZOOM_IN:
		if (tl->colw == 1)
			tui_message(tl->view.tui, "zoomed in to 1 ns per column");
		else
			zoom_to(tl, tl->colw / 2);
		return 0;
	case REQ_ZOOM_OUT:
		if (tl->colw >= max_colw(tl))
			tui_message(tl->view.tui, "zoomed out all the way");
		else
			zoom_to(tl, NX_MIN(tl->colw * 2, max_colw(tl)));
		return 0;
	case REQ_ZOOM_FIT:
		timeline_zoom_fit(tl);
		return 0;
	case REQ_PAN_LEFT:
	case REQ_PAN_RIGHT:
		pan(tl, (req == REQ_PAN_LEFT ? -1 : 1) *
				NX_MAX(tl->ncols / 4, 1));
		return 0;
	case REQ_SCROLL_LEFT:
	case REQ_SCROLL_RIGHT:
		pan(tl, (req == REQ_SCROLL_LEFT ? -1 : 1) *
				NX_MAX(tl->ncols / 16, 1));
		return 0;
	case REQ_CURSOR_LEFT:
	case REQ_CURSOR_RIGHT:
		move_cursor_col(tl, req == REQ_CURSOR_LEFT ? -1 : 1);
		tl->fitted = 0;
		return 0;
	case REQ_NEXT_EVENT:
	case REQ_PREV_EVENT:
		req_step(tl, tl->cur, req == REQ_NEXT_EVENT ? 1 : -1);
		return 0;
	case REQ_LAST_EVENT:
		req_step(tl, INT64_MAX, -1);
		return 0;
	default:
		return timeline_nest_request(tl, req) &&
		       timeline_flow_request(tl, req);
	}
}

/* Esc: the details pane, else the box, else the highlight. */
static int close_pane(struct timeline *tl)
{
	if (tl->details_open) {
		tl->details_open = tl->focus_details = 0;
		timeline_layout(tl);
	} else if (tl->box.on) {
		tl->box.on = 0;
	} else if (tl->hl.kind != HL_NONE) {
		timeline_hl_clear(tl);
	} else {
		return 1;
	}
	return 0;
}

static void push(struct timeline *tl, struct view *v)
{
	if (v)
		tui_push(tl->view.tui, v);
	else
		tui_error(tl->view.tui, "%s", err_get());
}

/* Search, selections, markers and panels. */
static int analysis_request(struct timeline *tl, enum request req)
{
	switch (req) {
	case REQ_SEARCH:
		return timeline_search_prompt(tl);
	case REQ_NEXT_MATCH:
	case REQ_PREV_MATCH:
		timeline_hl_step(tl, req == REQ_NEXT_MATCH ? 1 : -1);
		return 0;
	case REQ_MATCHES:
		timeline_matches(tl);
		return 0;
	case REQ_BOX:
		if (tl->box.on && !tl->box.fixed) {
			tl->box.on = 0;
			tui_message(tl->view.tui, "box cleared");
		} else {
			timeline_box_start(tl);
		}
		return 0;
	case REQ_ZOOM_TO:
		timeline_box_zoom(tl);
		return 0;
	case REQ_WINDOW:
		timeline_window_summary(tl);
		return 0;
	case REQ_MARK:
		timeline_mark(tl, NULL);
		return 0;
	case REQ_NEXT_MARKER:
	case REQ_PREV_MARKER:
		timeline_mark_step(tl, req == REQ_NEXT_MARKER ? 1 : -1);
		return 0;
	case REQ_MARKERS:
		push(tl, marker_view_open(tl));
		return 0;
	case REQ_LAYERS:
		push(tl, layer_view_open(tl));
		return 0;
	case REQ_PANELS:
		push(tl, panels_open(tl->m, &tl->prof));
		return 0;
	case REQ_INSIGHTS:
		push(tl, insight_view_open(tl));
		return 0;
	default:
		return 1;
	}
}

/* From a system profile to its device profiles and back. */
static int drill_request(struct timeline *tl, enum request req)
{
	switch (req) {
	case REQ_BACK:
		timeline_back(tl);
		return 0;
	case REQ_DEVICES:
		timeline_devices(tl);
		return 0;
	case REQ_REGROUP:
		timeline_group_prompt(tl);
		return 0;
	case REQ_ALIGN:
		if (tl->tr.mb ? timeline_stack_align(tl, 1, NULL) :
				timeline_align(tl, -1))
			tui_error(tl->view.tui, "%s", err_get());
		return 0;
	default:
		return analysis_request(tl, req);
	}
}

static int timeline_request(struct view *v, enum request req)
{
	struct timeline *tl = (struct timeline *)v;

	timeline_layout(tl);
	if (details_focused(tl) && !details_request(tl->details, v->tui, req))
		return 0;
	if (!time_request(tl, req))
		return 0;
	switch (req) {
	case REQ_MOVE_DOWN:
	case REQ_MOVE_UP:
		move_row(tl, req == REQ_MOVE_DOWN ? 1 : -1);
		return 0;
	case REQ_PAGE_DOWN:
	case REQ_PAGE_UP:
		move_row(tl, (req == REQ_PAGE_DOWN ? 1 : -1) *
				     (long)NX_MAX(tl->track_rows - 1, 1));
		return 0;
	case REQ_FOLD:
		req_fold(tl);
		return 0;
	case REQ_ENTER:
		req_enter(tl);
		return 0;
	case REQ_FOCUS:
		tl->focus_details = tl->details_open && !tl->focus_details;
		if (tl->focus_details)
			tui_message(v->tui, "j/k choose a field, Enter reads it "
				    "in full, Tab goes back");
		else if (!tl->details_open)
			tui_message(v->tui, "no details pane: Enter opens one");
		return 0;
	case REQ_CLOSE_PANE:
		return close_pane(tl);
	case REQ_COPY_VIEW:
		timeline_copy_view(tl);
		return 0;
	case REQ_COLOR:
		tl->color_by = (tl->color_by + 1) % BY_COUNT;
		tui_message(v->tui, "colour by %s",
			    timeline_color_name(tl, tl->color_by));
		return 0;
	default:
		return drill_request(tl, req);
	}
}

/* Times on the command line: "1.25ms", "1.25 ms" or a bare ns count. */
static int parse_times(int argc, char **argv, int64_t *out, int want)
{
	int got = 0;

	for (int i = 1; i < argc && got < want; i++) {
		char buf[96];
		int64_t per;

		if (i + 1 < argc && !timefmt_unit(argv[i + 1], &per)) {
			snprintf(buf, sizeof(buf), "%s%s", argv[i], argv[i + 1]);
			i++;
		} else {
			snprintf(buf, sizeof(buf), "%s", argv[i]);
		}
		if (timefmt_parse(buf, &out[got])) {
			err_set("'%s' is not a time (try 1.25ms, 100us, 350ns)",
				buf);
			return -1;
		}
		got++;
	}
	if (got != want) {
		err_set("expected %d time%s", want, want > 1 ? "s" : "");
		return -1;
	}
	return 0;
}

/* The error for a time outside the profile. */
static int outside(const struct timeline *tl, const char *cmd)
{
	char a[48], b[48];

	timefmt_dur(a, sizeof(a), tl->start - tl->origin, 3, draw_tf());
	timefmt_dur(b, sizeof(b), tl->end - tl->origin, 3, draw_tf());
	err_set("%s: outside the profile (%s .. %s)", cmd, a, b);
	return -1;
}

static int cmd_goto(struct timeline *tl, int argc, char **argv)
{
	int64_t t;

	if (parse_times(argc, argv, &t, 1))
		return -1;
	if (t < tl->start - tl->origin || t > tl->end - tl->origin)
		return outside(tl, "goto");
	tl->cur = tl->origin + t;
	tl->fitted = 0;
	timeline_show_cursor(tl);
	return 0;
}

static int cmd_zoom(struct timeline *tl, int argc, char **argv)
{
	int64_t t[2];

	if (parse_times(argc, argv, t, 2))
		return -1;
	if (t[1] <= t[0]) {
		err_set("zoom: the end must come after the start");
		return -1;
	}
	if (t[0] >= tl->end - tl->origin || t[1] <= tl->start - tl->origin)
		return outside(tl, "zoom");
	timeline_zoom_range(tl, sat_add(tl->origin, t[0]),
			    sat_add(tl->origin, t[1]));
	return 0;
}

/* Either set of names works in any profile. */
static int cmd_color(struct timeline *tl, int argc, char **argv)
{
	for (int i = 0; argc == 2 && i < BY_COUNT; i++) {
		if (!strcmp(argv[1], color_names[0][i]) ||
		    !strcmp(argv[1], color_names[1][i]) ||
		    !strcmp(argv[1], color_names[2][i])) {
			tl->color_by = i;
			return 0;
		}
	}
	err_set("color: expected %s, %s or %s", timeline_color_name(tl, 0),
		timeline_color_name(tl, 1), timeline_color_name(tl, 2));
	return -1;
}

static int cmd_text(struct timeline *tl, int argc, char **argv)
{
	char *text = tui_command_rest(argc, argv);
	int rc = 0;

	if (!strcmp(argv[0], "search"))
		rc = *text ? timeline_search(tl, text) : (timeline_hl_clear(tl), 0);
	else
		timeline_mark(tl, *text ? text : NULL);
	free(text);
	return rc;
}

static int cmd_align(struct timeline *tl, int argc, char **argv)
{
	if (tl->tr.mb)
		return timeline_stack_align(tl, argc, argv);
	if (argc == 2 && (!strcmp(argv[1], "on") || !strcmp(argv[1], "off")))
		return timeline_align(tl, !strcmp(argv[1], "on"));
	err_set("align: expected on or off (no word: toggle)");
	return -1;
}

int timeline_compare(struct view *v, const char *what)
{
	struct timeline *tl = (struct timeline *)v;
	struct model *b = tui_compare_model(v->tui);
	const char *kind = tl->prof.kind ? tl->prof.kind : "";
	enum diff_what w = !strcmp(kind, "system") ? DW_EXECUTIONS :
			   !strcmp(kind, "trace") ? DW_OVERALL : DW_LAYERS;
	struct view *cv;

	if (what && diff_what_parse(what, &w)) {
		if (b) {	/* B is open: a table's name */
			err_set("compare: B is open; '%s' is not overall, "
				"engines, layers, opcodes, hlo, dma or "
				"executions", what);
			return -1;
		}
		/* no B yet: what is its path */
		if (!(b = tui_open_compare(v->tui, what)) || timeline_stack(v, b))
			return -1;
	}
	if (!b) {
		err_set("compare: open two profiles to compare them: nxtop A B,"
			" or :compare B");
		return -1;
	}
	cv = compare_view_open(tl, b, w);
	if (!cv)
		return -1;
	tui_push(v->tui, cv);
	return 0;
}

static int timeline_command(struct view *v, int argc, char **argv)
{
	struct timeline *tl = (struct timeline *)v;

	timeline_layout(tl);
	if (!strcmp(argv[0], "search") || !strcmp(argv[0], "mark"))
		return cmd_text(tl, argc, argv);
	if (!strcmp(argv[0], "query-help")) {
		tui_push(v->tui, help_query_open());
		return 0;
	}
	if (!strcmp(argv[0], "goto"))
		return cmd_goto(tl, argc, argv);
	if (!strcmp(argv[0], "zoom"))
		return cmd_zoom(tl, argc, argv);
	if (!strcmp(argv[0], "color") || !strcmp(argv[0], "colour"))
		return cmd_color(tl, argc, argv);
	if (!strcmp(argv[0], "group"))
		return timeline_group_command(tl, argc, argv);
	if (!strcmp(argv[0], "align"))
		return cmd_align(tl, argc, argv);
	if (!strcmp(argv[0], "lanes"))
		return timeline_lanes_command(tl, argc, argv);
	if (!strcmp(argv[0], "compare")) {
		if (argc <= 2)
			return timeline_compare(v, argc == 2 ? argv[1] : NULL);
		err_set("compare: expected a profile, or one of overall, "
			"engines, layers, opcodes, hlo, dma or executions");
		return -1;
	}
	if (!strcmp(argv[0], "flows"))
		return timeline_flows_command(tl, argc, argv);
	if (!strcmp(argv[0], "view"))
		return timeline_view_command(tl, argc, argv);
	return 1;
}

static const char *timeline_export_name(struct view *v)
{
	struct timeline *tl = (struct timeline *)v;

	if (tl->hl.kind == HL_SEARCH)
		return "search";
	return tl->box.on ? "selection" : "window";
}

static int timeline_export(struct view *v, enum out_format fmt, FILE *f)
{
	struct timeline *tl = (struct timeline *)v;

	if (tl->hl.kind == HL_SEARCH)
		return timeline_search_export(tl, fmt, f);
	return timeline_box_export(tl, fmt, f);
}

static void timeline_close(struct view *v)
{
	struct timeline *tl = (struct timeline *)v;

	timeline_hl_clear(tl);
	marker_list_free(tl->marks, tl->nmarks);
	free(tl->ud_key);
	free(tl->file);
	tracks_free(&tl->tr);
	free(tl->memo);
	timeline_jumps_clear(tl);
	timeline_flowmarks_free(tl);
	timeline_insights_free(tl);
	details_free(tl->details);
	model_profile_clear(&tl->prof);
	model_profile_clear(&tl->prof_b);
	free(v->title);
	free(tl);
}

static int timeline_poll(struct view *v, int wait)
{
	return timeline_insights_poll((struct timeline *)v, wait);
}

static const struct view_cmd timeline_cmds[] = {
	{ "goto", "TIME", "Move the cursor to TIME since the profile's start "
			  "(aligned: the system profile's)" },
	{ "zoom", "FROM TO", "Show the time from FROM to TO" },
	{ "color", "opcode|layer|engine", "Colour events by opcode, layer "
	  "or engine (in a trace: name, category or thread; in a system "
	  "profile: name, source or row); also :colour" },
	{ "search", "QUERY", "Search (as /); no query clears the search" },
	{ "query-help", "", "Explain search queries" },
	{ "mark", "[NAME]", "Drop a marker at the cursor, named NAME" },
	{ "group", "--group F --row F", "Group a system profile's rows as "
	  "the options do (fields instance_id, process_id, thread_id, "
	  "lnc_idx, worker_gid; --group= for none; default: as at the "
	  "start)" },
	{ "align", "[on|off|start]", "Read a device profile's times in "
	  "system time (no word: toggle); with nxtop A B, mark the event or "
	  "marker under the cursor on one profile's rows, then on the "
	  "other's: B moves so both line up (start: B's start on A's)" },
	{ "lanes", "N", "Draw a nested track on at most N lanes, one per "
			"depth, the last taking the deeper events (default 4)" },
	{ "compare", "[B|WHAT]", "Compare profile B (of nxtop A B, or opened "
	  "here by its path, once) with this one, stacking its rows under "
	  "these: layers (default), opcodes, engines, hlo, dma, overall or "
	  "executions" },
	{ "flows", "[on|off]", "Show or hide the marks where flows leave and "
			       "enter events (no word: toggle)" },
	{ "view", "[save|delete] [NAME]", "Restore the view saved as NAME; "
	  "save NAME: save what the screen shows (range, cursor, row, folds, "
	  "colours, search, lanes; stacked, B's path, move and folds); "
	  "delete NAME; no word: list the views" },
	{ NULL, NULL, NULL },
};

const char *timeline_command_home(const char *name)
{
	static const struct {
		const struct view_cmd *cmds;
		const char *where;
	} homes[] = {
		{ timeline_cmds, "the timeline" },
		{ layers_cmds, "the layer table" },
		{ markers_cmds, "the marker list" },
		{ compare_cmds, "the Compare view" },
	};

	for (size_t i = 0; i < NX_ARRAY_SIZE(homes); i++)
		for (const struct view_cmd *c = homes[i].cmds; c->name; c++)
			if (!strcmp(c->name, name))
				return homes[i].where;
	return NULL;
}

#define TIMELINE_OPS(HINTS) { \
	.name = "timeline", \
	.keymap = KM_TIMELINE, \
	.draw = timeline_draw, \
	.header = timeline_header, \
	.flag = timeline_flag, \
	.status = timeline_status, \
	.request = timeline_request, \
	.mouse = timeline_mouse, \
	.poll = timeline_poll, \
	.command = timeline_command, \
	.bare_command = "search", \
	.export_name = timeline_export_name, \
	.export = timeline_export, \
	.hints = HINTS, \
	.commands = timeline_cmds, \
	.close = timeline_close, \
}

static const struct view_ops timeline_ops = TIMELINE_OPS(
	"? help  w/s zoom  a/d pan  ,/. event  / search  v box  m mark  "
	"L layers  i info  q quit");
/* a system profile's: drilldown and grouping */
static const struct view_ops system_ops = TIMELINE_OPS(
	"? help  w/s zoom  a/d pan  / search  Enter details, again: device "
	"profile  D devices  G group  q quit");

int timeline_first_profile(struct model *m, int64_t *id)
{
	struct mprofile *p;
	size_t n;

	if (model_profiles(m, &p, &n))
		return -1;
	*id = 0;
	for (size_t i = 0; i < n && !*id; i++)
		if (!p[i].parent_id)
			*id = p[i].id;
	if (!*id && n)
		*id = p[0].id;
	model_profiles_free(p, n);
	if (!*id) {
		err_set("%s: the cache holds no profile", model_path(m));
		return -1;
	}
	return 0;
}

void timeline_extent(struct timeline *tl)
{
	tl->start = tl->prof.first;
	tl->end = tl->prof.last;
	if (tl->tr.mb) {
		tl->start = NX_MIN(tl->start, tl->prof_b.first + tl->tr.shift);
		tl->end = NX_MAX(tl->end, tl->prof_b.last + tl->tr.shift);
	}
	if (tl->end <= tl->start)
		tl->end = tl->start + 1;
}

static int is_system(const struct mprofile *p)
{
	return p->kind && !strcmp(p->kind, "system");
}

/* A system profile's name without ".json": "system_profile". */
static char *title_of(const struct mprofile *p)
{
	const char *name = p->name ? p->name : "profile";
	size_t n = strlen(name);

	if (is_system(p) && n > 5 && !strcmp(name + n - 5, ".json"))
		return xstrndup(name, n - 5);
	return xstrdup(name);
}

static int load_tracks(struct timeline *tl, struct model *m, int64_t profile,
		       const struct sysgroup *g)
{
	if (model_profile(m, profile, &tl->prof))
		return -1;
	tl->is_system = is_system(&tl->prof);
	tl->is_trace = tl->prof.kind && !strcmp(tl->prof.kind, "trace");
	if (!tl->is_system)
		return tracks_load(&tl->tr, m, profile);
	if (g)
		tl->group_default = *g;
	else
		sysgroup_default(&tl->group_default);
	tl->group = tl->group_default;
	return tracks_load_rows(&tl->tr, m, profile, &tl->group);
}

struct view *timeline_open(struct model *m, int64_t profile,
			   const struct sysgroup *g)
{
	struct timeline *tl = xcalloc(1, sizeof(*tl));

	if ((!profile && timeline_first_profile(m, &profile)) ||
	    load_tracks(tl, m, profile, g)) {
		if (!*err_get())
			err_set("%s: no profile %lld", model_path(m),
				(long long)profile);
		model_profile_clear(&tl->prof);
		free(tl);
		return NULL;
	}
	if (!tl->tr.nrows) {
		err_set("%s: nothing to show: the profile has no events",
			tl->prof.name && *tl->prof.name ? tl->prof.name :
			model_path(m));
		tracks_free(&tl->tr);
		model_profile_clear(&tl->prof);
		free(tl);
		return NULL;
	}
	tl->m = m;
	tl->view.ops = tl->is_system ? &system_ops : &timeline_ops;
	tl->view.title = title_of(&tl->prof);
	tl->details = details_new();
	tl->ud_key = userdata_profile_key(m, profile);
	tl->dropped = model_dropped_warnings(m, profile);
	timeline_extent(tl);
	tl->origin = tl->start;
	tl->cur = tl->start;
	tl->fitted = 1;
	tl->colw = 1;
	tl->ncols = 1;
	return &tl->view;
}
