/* The timeline view: a time axis, one row per track in collapsible
 * groups, a details pane and a colour legend. Each terminal column is a
 * time bucket of colw ns; column c covers [t0 + c colw, t0 + (c+1) colw).
 * The cursor is a time (cur) and a row; zooming keeps the cursor's
 * column, panning moves the view and the cursor together by whole
 * columns so cached frames can be shifted instead of read again. */
#include "config.h"

#include "timeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "axis.h"
#include "details.h"
#include "draw.h"
#include "model/text.h"
#include "model/timefmt.h"
#include "model/util.h"
#include "tracks.h"

#define LABEL_MIN 12		/* columns of the label column */
#define DETAILS_MIN 6		/* rows of an open details pane */
#define LEGEND_MAX 32		/* keys counted for the legend */

enum color_by { BY_OPCODE, BY_LAYER, BY_ENGINE, BY_COUNT };

static const char *const color_by_names[BY_COUNT] = { "opcode", "layer",
						      "engine" };

struct legend_key {
	int64_t key;		/* string id, or track index by engine */
	int cells;
};

struct timeline {
	struct view view;
	struct model *m;
	struct mprofile prof;
	struct tracks tr;
	int64_t start, end;	/* the profile's extent, ns */
	int64_t t0, colw;	/* the view */
	int64_t cur;		/* cursor time, ns */
	size_t row, top;	/* cursor row and first row shown */
	int fitted;		/* zoomed to fit: refit on resize */
	enum color_by color_by;
	struct details *details;
	int details_open, focus_details;
	struct mslice sel;	/* the event jumped to, while the cursor is on it */
	/* layout of the view's area */
	int labelw, ncols, track_rows, details_h;
	struct legend_key legend[LEGEND_MAX];
	int nlegend;
};

static int64_t sat_add(int64_t a, int64_t b)
{
	if (b > 0 && a > INT64_MAX - b)
		return INT64_MAX;
	if (b < 0 && a < INT64_MIN - b)
		return INT64_MIN;
	return a + b;
}

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;

	return (a % b != 0 && a < 0) ? q - 1 : q;
}

/* Track index of the cursor row. */
static size_t cur_track(const struct timeline *tl)
{
	return tl->tr.rows[tl->row];
}

static int label_width(const struct timeline *tl, size_t i)
{
	const struct track_state *s = &tl->tr.st[i];
	int w = 2 * s->depth + text_width(tl->tr.t[i].name);

	if (s->is_group)
		w += 2 + 6;	/* fold glyph, " (NNN)" */
	return w;
}

static void layout(struct timeline *tl)
{
	struct view *v = &tl->view;
	int widest = 0;

	for (size_t i = 0; i < tl->tr.n; i++)
		widest = NX_MAX(widest, label_width(tl, i));
	tl->labelw = NX_MAX(NX_MIN(widest + 1, v->width / 4), LABEL_MIN);
	tl->ncols = NX_MAX(v->width - tl->labelw - 1, 1);
	tl->details_h = 0;
	if (tl->details_open) {
		/* a third of the height, or all the rows the tracks leave */
		int spare = v->height - 2 - (int)tl->tr.nrows;

		tl->details_h = NX_MAX(NX_MAX(v->height / 3, DETAILS_MIN),
				       spare);
		tl->details_h = NX_MIN(tl->details_h, v->height - 5);
	}
	/* axis and legend rows */
	tl->track_rows = NX_MAX(v->height - 2 - tl->details_h, 1);
	if (tl->row < tl->top)
		tl->top = tl->row;
	if (tl->row >= tl->top + (size_t)tl->track_rows)
		tl->top = tl->row - (size_t)tl->track_rows + 1;
}

static int64_t span(const struct timeline *tl)
{
	return tl->colw > INT64_MAX / tl->ncols ? INT64_MAX :
						    tl->colw * tl->ncols;
}

/* Zoomed out all the way, the profile takes half the width. */
static int64_t max_colw(const struct timeline *tl)
{
	int64_t len = tl->end - tl->start;

	return NX_MAX(len / tl->ncols * 2 + 2, 1);
}

/* Keeps at least half the view inside the profile, moving by whole
 * columns. */
static void clamp_view(struct timeline *tl)
{
	int64_t half = span(tl) / 2;
	int64_t lo = tl->start - half, hi = tl->end - half;
	int64_t shift = 0;

	if (tl->colw > max_colw(tl))
		tl->colw = max_colw(tl);
	if (tl->colw < 1)
		tl->colw = 1;
	half = span(tl) / 2;
	lo = tl->start - half;
	hi = NX_MAX(tl->end - half, lo);
	if (tl->t0 < lo)
		shift = floor_div(lo - tl->t0 + tl->colw - 1, tl->colw);
	else if (tl->t0 > hi)
		shift = -floor_div(tl->t0 - hi + tl->colw - 1, tl->colw);
	tl->t0 += shift * tl->colw;
}

static int cursor_col(const struct timeline *tl)
{
	int64_t c = floor_div(tl->cur - tl->t0, tl->colw);

	return c < 0 ? -1 : c >= tl->ncols ? tl->ncols : (int)c;
}

/* Brings the cursor into view: the view moves by whole columns so the
 * cursor lands in the middle. */
static void show_cursor(struct timeline *tl)
{
	int64_t c = floor_div(tl->cur - tl->t0, tl->colw);

	if (c >= 0 && c < tl->ncols)
		return;
	tl->t0 += (c - tl->ncols / 2) * tl->colw;
	clamp_view(tl);
	c = floor_div(tl->cur - tl->t0, tl->colw);
	if (c < 0)
		tl->cur = tl->t0;
	else if (c >= tl->ncols)
		tl->cur = tl->t0 + (int64_t)(tl->ncols - 1) * tl->colw;
}

static void zoom_fit(struct timeline *tl)
{
	int64_t len = NX_MAX(tl->end - tl->start, 1);

	tl->colw = NX_MAX((len + tl->ncols - 1) / tl->ncols, 1);
	tl->t0 = tl->start;
	tl->fitted = 1;
	if (tl->cur < tl->start || tl->cur >= tl->end)
		tl->cur = tl->start;
}

/* New column width, keeping the cursor where it is on screen. */
static void zoom_to(struct timeline *tl, int64_t colw)
{
	int64_t off = tl->cur - tl->t0;

	show_cursor(tl);
	off = tl->cur - tl->t0;
	tl->t0 = tl->cur - (int64_t)((double)off * (double)colw /
				     (double)tl->colw);
	tl->colw = colw;
	tl->fitted = 0;
	clamp_view(tl);
	show_cursor(tl);
}

static void pan(struct timeline *tl, int cols)
{
	int64_t before = tl->t0;

	tl->t0 += (int64_t)cols * tl->colw;
	clamp_view(tl);
	tl->cur += tl->t0 - before;
	tl->fitted = 0;
}

static void move_cursor_col(struct timeline *tl, int dir)
{
	int c = cursor_col(tl) + dir;

	if (c < 0 || c >= tl->ncols)
		pan(tl, dir * NX_MAX(tl->ncols / 4, 1));
	c = NX_MIN(NX_MAX(cursor_col(tl) + dir, 0), tl->ncols - 1);
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
	layout(tl);
}

static void fmt_rel(const struct timeline *tl, int64_t t, char *buf,
		    size_t n)
{
	/* enough decimals to tell one column from the next */
	int digits = 0;

	for (int64_t w = tl->colw; w < 1000000000 && digits < 9; w *= 10)
		digits++;
	digits -= 3;	/* timefmt picks at least µs for these */
	timefmt_dur(buf, n, t - tl->start, NX_MAX(NX_MIN(digits, 6), 3), 0);
}

/* The event under the cursor on track i: the one jumped to while the
 * cursor stays on it, else the one covering most of the cursor's column,
 * else the one at the cursor's time. 0 found. */
static int event_at_cursor(struct timeline *tl, size_t i, struct mslice *s)
{
	const struct mcell *cells;
	int c = cursor_col(tl);

	if (tl->tr.st[i].is_group || tl->tr.t[i].is_counter)
		return 1;
	if (tl->sel.id && tl->sel.ts == tl->cur &&
	    tl->sel.track_id == tl->tr.t[i].id) {
		*s = tl->sel;
		return 0;
	}
	cells = tracks_frame(&tl->tr, i, tl->t0, tl->colw, tl->ncols);
	if (cells && c >= 0 && c < tl->ncols && cells[c].top_slice)
		return model_slice(tl->m, cells[c].top_slice, s);
	return model_slice_at(tl->m, &tl->tr.t[i], tl->cur, s);
}

static int open_details(struct timeline *tl, const struct mslice *s,
			size_t i)
{
	char when[48], dur[48], *title;
	int rc;

	fmt_rel(tl, s->ts, when, sizeof(when));
	timefmt_dur(dur, sizeof(dur), s->dur, 3, 0);
	title = xasprintf("%s on %s at %s, %s", model_string(tl->m, s->name),
			  tl->tr.t[i].name, when, dur);
	rc = details_load(tl->details, tl->m, s->id, title);
	free(title);
	if (rc < 0) {
		tui_error(tl->view.tui, "%s", err_get());
		return -1;
	}
	tl->details_open = 1;
	layout(tl);
	return 0;
}

static void req_enter(struct timeline *tl)
{
	size_t i = cur_track(tl);
	struct mslice s;
	int rc;

	if (tl->tr.st[i].is_group) {
		tl->tr.st[i].folded = !tl->tr.st[i].folded;
		tracks_update_rows(&tl->tr);
		return;
	}
	if (tl->tr.t[i].is_counter) {
		tui_message(tl->view.tui, "a counter has no events to show");
		return;
	}
	rc = event_at_cursor(tl, i, &s);
	if (rc < 0)
		tui_error(tl->view.tui, "%s", err_get());
	else if (rc > 0)
		tui_message(tl->view.tui, "no event under the cursor");
	else
		open_details(tl, &s, i);
}

static void req_step(struct timeline *tl, int dir)
{
	size_t i = cur_track(tl);
	struct mslice s;
	int rc;

	if (tl->tr.st[i].is_group || tl->tr.t[i].is_counter) {
		tui_message(tl->view.tui, "no events on this row");
		return;
	}
	rc = model_slice_step(tl->m, tl->tr.t[i].id, tl->cur, dir, &s);
	if (rc < 0) {
		tui_error(tl->view.tui, "%s", err_get());
		return;
	}
	if (rc > 0) {
		tui_message(tl->view.tui, "no %s event on this track",
			    dir > 0 ? "later" : "earlier");
		return;
	}
	tl->cur = s.ts;
	tl->sel = s;
	show_cursor(tl);
	if (tl->details_open)
		open_details(tl, &s, i);
}

static void req_fold(struct timeline *tl)
{
	size_t i = cur_track(tl);

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
	layout(tl);
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
		zoom_fit(tl);
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
		req_step(tl, req == REQ_NEXT_EVENT ? 1 : -1);
		return 0;
	default:
		return 1;
	}
}

static int timeline_request(struct view *v, enum request req)
{
	struct timeline *tl = (struct timeline *)v;

	layout(tl);
	if (details_focused(tl) && !details_request(tl->details, req))
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
		if (tl->details_open)
			tl->focus_details = !tl->focus_details;
		else
			tui_message(v->tui, "no details pane: Enter opens one");
		return 0;
	case REQ_CLOSE_PANE:
		if (!tl->details_open)
			return 1;
		tl->details_open = tl->focus_details = 0;
		layout(tl);
		return 0;
	case REQ_COLOR:
		tl->color_by = (tl->color_by + 1) % BY_COUNT;
		tui_message(v->tui, "colour by %s", color_by_names[tl->color_by]);
		return 0;
	default:
		return 1;
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

static int cmd_goto(struct timeline *tl, int argc, char **argv)
{
	int64_t t;
	char a[48], b[48];

	if (parse_times(argc, argv, &t, 1))
		return -1;
	if (t < 0 || t > tl->end - tl->start) {
		timefmt_dur(a, sizeof(a), 0, 3, 0);
		timefmt_dur(b, sizeof(b), tl->end - tl->start, 3, 0);
		err_set("goto: outside the profile (%s .. %s)", a, b);
		return -1;
	}
	tl->cur = tl->start + t;
	tl->fitted = 0;
	show_cursor(tl);
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
	tl->colw = NX_MAX((t[1] - t[0] + tl->ncols - 1) / tl->ncols, 1);
	tl->t0 = tl->start + t[0];
	tl->fitted = 0;
	clamp_view(tl);
	if (cursor_col(tl) < 0 || cursor_col(tl) >= tl->ncols)
		tl->cur = tl->start + t[0];
	show_cursor(tl);
	return 0;
}

static int cmd_color(struct timeline *tl, int argc, char **argv)
{
	for (int i = 0; argc == 2 && i < BY_COUNT; i++) {
		if (!strcmp(argv[1], color_by_names[i])) {
			tl->color_by = i;
			return 0;
		}
	}
	err_set("color: expected opcode, layer or engine");
	return -1;
}

static int timeline_command(struct view *v, int argc, char **argv)
{
	struct timeline *tl = (struct timeline *)v;

	layout(tl);
	if (!strcmp(argv[0], "goto"))
		return cmd_goto(tl, argc, argv);
	if (!strcmp(argv[0], "zoom"))
		return cmd_zoom(tl, argc, argv);
	if (!strcmp(argv[0], "color") || !strcmp(argv[0], "colour"))
		return cmd_color(tl, argc, argv);
	return 1;
}

/* Drawing. */

static int64_t color_key(const struct timeline *tl, size_t i,
			 const struct mcell *c)
{
	switch (tl->color_by) {
	case BY_OPCODE:
		return c->top_name;
	case BY_LAYER:
		return c->top_cat;
	default:
		return (int64_t)i;
	}
}

static const char *key_text(struct timeline *tl, int64_t key)
{
	const char *s;

	if (tl->color_by == BY_ENGINE)
		return tl->tr.t[key].name;
	s = model_string(tl->m, key);
	return *s ? s : "(none)";
}

static void tally(struct timeline *tl, int64_t key, int cells)
{
	for (int k = 0; k < tl->nlegend; k++) {
		if (tl->legend[k].key == key) {
			tl->legend[k].cells += cells;
			return;
		}
	}
	if (tl->nlegend < LEGEND_MAX)
		tl->legend[tl->nlegend++] = (struct legend_key){ key, cells };
}

static enum glyph busy_glyph(const struct mcell *c, int64_t colw)
{
	int64_t eighths = c->busy >= colw ? 8 : c->busy * 8 / colw;

	if (!c->busy)
		return G_INSTANT;
	if (eighths >= 7)
		return G_FULL;
	if (eighths >= 4)
		return G_SHADE3;
	if (eighths >= 2)
		return G_SHADE2;
	return G_SHADE1;
}

static int is_empty(const struct mcell *c)
{
	return !c->n && !c->busy && !c->top_slice;
}

/* Runs of this many cells or more draw as a bar with the event's name;
 * shorter ones as glyphs, where a squeezed name would only be noise. */
#define BAR_MIN 4

/* A cell that is at least half one event, part of a bar. */
static int bar_cell(const struct mcell *c, int64_t colw)
{
	return c->top_slice && c->busy * 2 >= colw;
}

static void draw_cells(struct timeline *tl, WINDOW *win, int y, int x0,
		       size_t i, const struct mcell *cells)
{
	int n = tl->ncols;

	for (int c = 0; c < n;) {
		const struct mcell *cell = &cells[c];
		int64_t key;
		int slot, e = c + 1;

		if (is_empty(cell)) {
			c++;
			continue;
		}
		key = color_key(tl, i, cell);
		slot = draw_palette_slot(key_text(tl, key));
		if (bar_cell(cell, tl->colw))
			while (e < n && cells[e].top_slice == cell->top_slice &&
			       bar_cell(&cells[e], tl->colw))
				e++;
		tally(tl, key, e - c);
		if (e - c >= BAR_MIN) {
			draw_text(win, y, x0 + c, e - c,
				  model_string(tl->m, cell->top_name),
				  draw_bar(slot), 1);
		} else {
			for (int k = c; k < e; k++)
				draw_str(win, y, x0 + k, 1,
					 draw_glyph(busy_glyph(&cells[k],
							       tl->colw)),
					 draw_fg(slot));
		}
		c = e;
	}
}

static void draw_counter(struct timeline *tl, WINDOW *win, int y, int x0,
			 size_t i, const struct mccell *cells)
{
	double lo = 0, hi = 0;

	if (tracks_counter_range(&tl->tr, i, &lo, &hi))
		return;
	for (int c = 0; c < tl->ncols; c++) {
		double v = cells[c].vmax;
		int level;

		if (!cells[c].have)
			continue;
		if (hi > lo)
			level = (int)lround((v - lo) / (hi - lo) * 7.0);
		else
			level = v > 0 ? 7 : 0;
		level = NX_MIN(NX_MAX(level, 0), 7);
		draw_str(win, y, x0 + c, 1, draw_glyph(G_SPARK0 + level),
			 draw_style(S_COUNTER));
	}
}

/* Turns the cell at (y, x) into the cursor: reversed and bold, or a
 * thin line through empty cells of other rows. */
static void mark_cursor(WINDOW *win, int y, int x, int on_row)
{
	cchar_t cc;
	wchar_t wc[CCHARW_MAX + 1];
	attr_t a;
	short pair;

	if (mvwin_wch(win, y, x, &cc) == ERR ||
	    getcchar(&cc, wc, &a, &pair, NULL) == ERR)
		return;
	if (wc[0] == L' ') {
		draw_str(win, y, x, 1, on_row ? " " : draw_glyph(G_VLINE),
			 draw_style(on_row ? S_CURSOR : S_CURSOR_COL));
		return;
	}
	if (!on_row)
		return;
	setcchar(&cc, wc, (a ^ A_REVERSE) | A_BOLD, pair, NULL);
	mvwadd_wch(win, y, x, &cc);
}

static void draw_label(struct timeline *tl, WINDOW *win, int y, size_t i,
		       int is_cur)
{
	const struct track_state *s = &tl->tr.st[i];
	struct strbuf sb;
	attr_t a = is_cur ? draw_style(S_LABEL_CURSOR) :
		   s->is_group ? draw_style(S_GROUP) : draw_style(S_LABEL);
	int x = 2 * s->depth;

	draw_fill(win, y, 0, tl->labelw, a);
	sb_init(&sb);
	text_sanitize(&sb, tl->tr.t[i].name, draw_ascii());
	if (s->is_group) {
		struct strbuf g;

		sb_init(&g);
		sb_printf(&g, "%s %s", draw_glyph(s->folded ? G_FOLDED :
						  G_UNFOLDED), sb_cstr(&sb));
		if (s->folded)
			sb_printf(&g, " (%d)", s->nchildren);
		draw_str(win, y, x, tl->labelw - x - 1, sb_cstr(&g), a);
		sb_free(&g);
	} else {
		draw_str(win, y, x, tl->labelw - x - 1, sb_cstr(&sb), a);
	}
	sb_free(&sb);
}

static int draw_track(struct timeline *tl, WINDOW *win, int y, size_t r)
{
	size_t i = tl->tr.rows[r];
	int x0 = tl->labelw + 1;

	draw_label(tl, win, y, i, r == tl->row);
	if (tl->tr.t[i].is_counter) {
		const struct mccell *cc = tracks_counter_frame(
			&tl->tr, i, tl->t0, tl->colw, tl->ncols);

		if (!cc)
			return -1;
		draw_counter(tl, win, y, x0, i, cc);
	} else {
		const struct mcell *cells = tracks_frame(&tl->tr, i, tl->t0,
							 tl->colw, tl->ncols);

		if (!cells)
			return -1;
		draw_cells(tl, win, y, x0, i, cells);
	}
	return 0;
}

static void draw_axis(struct timeline *tl, WINDOW *win, int y)
{
	struct axis ax;
	char buf[64];
	int x0 = tl->labelw + 1, c = cursor_col(tl);

	fmt_rel(tl, tl->cur, buf, sizeof(buf));
	draw_text(win, y, 0, tl->labelw, buf, draw_style(S_AXIS), 0);
	axis_compute(&ax, tl->t0, tl->colw, tl->ncols, tl->start);
	for (int k = 0; k < ax.n; k++) {
		int room = (k + 1 < ax.n ? ax.col[k + 1] : tl->ncols) - ax.col[k];

		int w;

		axis_label(&ax, ax.t[k], buf, sizeof(buf));
		w = text_width(buf);
		draw_str(win, y, x0 + ax.col[k], 1, draw_glyph(G_TICK),
			 draw_style(S_AXIS));
		/* a label the cursor mark would cut is left out */
		if (w + 1 < room && !(c > ax.col[k] && c <= ax.col[k] + w))
			draw_str(win, y, x0 + ax.col[k] + 1, room - 1, buf,
				 draw_style(S_AXIS));
	}
	if (c >= 0 && c < tl->ncols)
		draw_str(win, y, x0 + c, 1, draw_glyph(G_CURSOR_MARK),
			 draw_style(S_AXIS) | A_BOLD);
}

static int cmp_legend(const void *a, const void *b)
{
	const struct legend_key *x = a, *y = b;

	if (x->cells != y->cells)
		return x->cells > y->cells ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

static void draw_legend(struct timeline *tl, WINDOW *win, int y)
{
	struct view *v = &tl->view;
	char head[48];
	int x;

	snprintf(head, sizeof(head), "colour by %s:",
		 color_by_names[tl->color_by]);
	x = draw_str(win, y, 0, v->width, head, draw_style(S_DIM));
	if (draw_colors() == COLORS_NONE) {
		draw_str(win, y, x, v->width - x, " (no colours)",
			 draw_style(S_DIM));
		return;
	}
	qsort(tl->legend, (size_t)tl->nlegend, sizeof(tl->legend[0]),
	      cmp_legend);
	for (int k = 0; k < tl->nlegend; k++) {
		const char *name = key_text(tl, tl->legend[k].key);
		struct strbuf sb;
		int w;

		sb_init(&sb);
		text_sanitize(&sb, name, draw_ascii());
		w = text_width(sb_cstr(&sb));
		if (x + 3 + w > v->width) {
			sb_free(&sb);
			break;
		}
		draw_str(win, y, x + 1, 1, draw_glyph(G_SWATCH),
			 draw_fg(draw_palette_slot(name)));
		draw_str(win, y, x + 3, w, sb_cstr(&sb), A_NORMAL);
		x += 3 + w;
		sb_free(&sb);
	}
}

static void timeline_draw(struct view *v, WINDOW *win)
{
	struct timeline *tl = (struct timeline *)v;
	int c, y0 = v->top + 1, failed = 0;

	layout(tl);
	if (tl->fitted)
		zoom_fit(tl);
	clamp_view(tl);
	c = cursor_col(tl);
	if (c < 0 || c >= tl->ncols)
		show_cursor(tl);
	c = cursor_col(tl);
	draw_axis(tl, win, v->top);
	tl->nlegend = 0;
	for (int r = 0; r < tl->track_rows; r++) {
		size_t ri = tl->top + (size_t)r;

		if (ri >= tl->tr.nrows)
			break;
		if (draw_track(tl, win, y0 + r, ri))
			failed = 1;
		if (c >= 0 && c < tl->ncols)
			mark_cursor(win, y0 + r, tl->labelw + 1 + c,
				    ri == tl->row);
	}
	if (failed)
		tui_error(v->tui, "%s", err_get());
	if (tl->details_open)
		details_draw(tl->details, win, y0 + tl->track_rows,
			     tl->details_h, v->width, tl->focus_details);
	draw_legend(tl, win, v->top + v->height - 1);
}

static void timeline_header(struct view *v, struct strbuf *out)
{
	struct timeline *tl = (struct timeline *)v;
	const struct mprofile *p = &tl->prof;
	char a[48], b[48], w[48];

	layout(tl);
	sb_adds(out, p->kind ? p->kind : "profile");
	if (p->nc_idx >= 0)
		sb_printf(out, "  NC%lld", (long long)p->nc_idx);
	if (p->instance_type && *p->instance_type)
		sb_printf(out, "  %s", p->instance_type);
	fmt_rel(tl, tl->t0, a, sizeof(a));
	fmt_rel(tl, sat_add(tl->t0, span(tl)), b, sizeof(b));
	timefmt_dur(w, sizeof(w), tl->colw, 3, 0);
	sb_printf(out, "  %s .. %s  %s/col", a, b, w);
}

static void timeline_status(struct view *v, struct strbuf *out)
{
	struct timeline *tl = (struct timeline *)v;
	size_t i = cur_track(tl);
	int c = cursor_col(tl);
	struct mslice s;
	char d[48];

	if (tl->tr.st[i].is_group) {
		sb_printf(out, "%d tracks", tl->tr.st[i].nchildren);
	} else if (tl->tr.t[i].is_counter) {
		const struct mccell *cc = tracks_counter_frame(
			&tl->tr, i, tl->t0, tl->colw, tl->ncols);

		if (cc && c >= 0 && c < tl->ncols && cc[c].have)
			sb_printf(out, " %.6g %s", cc[c].vlast,
				  tl->tr.t[i].unit ? tl->tr.t[i].unit : "");
	} else if (!event_at_cursor(tl, i, &s)) {
		timefmt_dur(d, sizeof(d), s.dur, 3, 0);
		sb_printf(out, "%s %s", model_string(tl->m, s.name), d);
	}
}

static void timeline_close(struct view *v)
{
	struct timeline *tl = (struct timeline *)v;

	tracks_free(&tl->tr);
	details_free(tl->details);
	model_profile_clear(&tl->prof);
	free(v->title);
	free(tl);
}

static const struct view_cmd timeline_cmds[] = {
	{ "goto", "TIME", "Move the cursor to TIME since the profile's start" },
	{ "zoom", "FROM TO", "Show the time from FROM to TO" },
	{ "color", "opcode|layer|engine", "Colour events by opcode, layer "
					  "or engine" },
	{ NULL, NULL, NULL },
};

static const struct view_ops timeline_ops = {
	.name = "timeline",
	.draw = timeline_draw,
	.header = timeline_header,
	.status = timeline_status,
	.request = timeline_request,
	.command = timeline_command,
	.hints = "? help  w/s zoom  a/d pan  ,/. event  Enter details  "
		 "Space fold  c colour  : command  q quit",
	.commands = timeline_cmds,
	.close = timeline_close,
};

static int first_profile(struct model *m, int64_t *id)
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

static void extent(struct timeline *tl)
{
	tl->start = tl->prof.start;
	tl->end = tl->prof.end;
	for (size_t i = 0; i < tl->tr.n; i++) {
		const struct mtrack *t = &tl->tr.t[i];

		if (!t->n_events)
			continue;
		tl->start = NX_MIN(tl->start, t->min_ts);
		tl->end = NX_MAX(tl->end, t->max_ts);
	}
	if (tl->end <= tl->start)
		tl->end = tl->start + 1;
}

struct view *timeline_open(struct model *m, int64_t profile)
{
	struct timeline *tl = xcalloc(1, sizeof(*tl));

	if ((!profile && first_profile(m, &profile)) ||
	    model_profile(m, profile, &tl->prof) ||
	    tracks_load(&tl->tr, m, profile)) {
		if (!*err_get())
			err_set("%s: no profile %lld", model_path(m),
				(long long)profile);
		model_profile_clear(&tl->prof);
		free(tl);
		return NULL;
	}
	if (!tl->tr.nrows) {
		err_set("%s: the profile has no tracks", model_path(m));
		tracks_free(&tl->tr);
		model_profile_clear(&tl->prof);
		free(tl);
		return NULL;
	}
	tl->m = m;
	tl->view.ops = &timeline_ops;
	tl->view.title = xstrdup(tl->prof.name ? tl->prof.name : "profile");
	tl->details = details_new();
	extent(tl);
	tl->cur = tl->start;
	tl->fitted = 1;
	tl->colw = 1;
	tl->ncols = 1;
	return &tl->view;
}
