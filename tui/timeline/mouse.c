/* The mouse on the timeline. A click on a track puts the cursor at that
 * time and row (the status line and an open details pane show the
 * event), on a group's label folds or unfolds the group, on the axis
 * moves the cursor in time; a double-click on a track is Enter there. A drag over
 * the tracks boxes the time and rows it spans, a drag along the axis
 * zooms to the time it spans. The wheel scrolls the rows; with Shift or
 * Ctrl it zooms around the pointer. In the details pane a click gives
 * it the focus and the wheel moves between its fields. */
#include "config.h"

#include "tui/timeline/timeline_int.h"

/* Where a cell of the screen falls in the timeline. */
enum area { A_NONE, A_AXIS, A_LABEL, A_TRACK, A_DETAILS };

struct spot {
	enum area area;
	int col;	/* time column, -1 in the label column */
	size_t row;	/* on a label or track: the row */
};

static enum area locate(const struct timeline *tl, int x, int y,
			struct spot *s)
{
	int y0 = timeline_tracks_y(tl), x0 = tl->labelw + 1;

	s->col = x >= x0 && x < x0 + tl->ncols ? x - x0 : -1;
	s->row = 0;
	s->area = A_NONE;
	if (y == tl->view.top && s->col >= 0) {
		s->area = A_AXIS;
	} else if (y >= y0 && y < y0 + tl->track_rows &&
		   tl->top + (size_t)(y - y0) < tl->tr.nrows) {
		s->row = tl->top + (size_t)(y - y0);
		s->area = s->col >= 0 ? A_TRACK : x < tl->labelw ? A_LABEL :
								    A_NONE;
	} else if (tl->details_open && y >= y0 + tl->track_rows &&
		   y < y0 + tl->track_rows + tl->details_h) {
		s->area = A_DETAILS;
	}
	return s->area;
}

static int64_t col_time(const struct timeline *tl, int col)
{
	return tl->t0 + (int64_t)col * tl->colw;
}

/* The cursor to a column (-1: stays) and a row. */
static void put_cursor(struct timeline *tl, int col, size_t row)
{
	if (col >= 0)
		tl->cur = col_time(tl, col);
	tl->row = row;
	tl->sel.id = 0;
	tl->fitted = 0;
	tl->focus_details = 0;
	timeline_layout(tl);
}

static int click(struct timeline *tl, const struct mouse_event *ev)
{
	struct spot s;

	switch (locate(tl, ev->x, ev->y, &s)) {
	case A_AXIS:
		put_cursor(tl, s.col, tl->row);
		break;
	case A_LABEL:
		put_cursor(tl, -1, s.row);
		if (tl->tr.st[tl->tr.rows[s.row]].is_group)
			return tl->view.ops->request(&tl->view, REQ_FOLD);
		break;
	case A_TRACK:
		put_cursor(tl, s.col, s.row);
		timeline_follow(tl);
		break;
	case A_DETAILS:
		tl->focus_details = 1;
		break;
	case A_NONE:
		break;
	}
	return 0;
}

/* A cell clamped into the track columns and rows on screen. */
static void clamp_cell(const struct timeline *tl, int x, int y, int *col,
		       size_t *row)
{
	int y0 = timeline_tracks_y(tl);
	long last = (long)NX_MIN(tl->tr.nrows - tl->top,
				 (size_t)tl->track_rows) - 1;

	*col = NX_MIN(NX_MAX(x - tl->labelw - 1, 0), tl->ncols - 1);
	*row = tl->top + (size_t)NX_MIN(NX_MAX((long)(y - y0), 0L), last);
}

static int drag(struct timeline *tl, const struct mouse_event *ev)
{
	struct spot s;
	int c0, c1;
	size_t r0, r1;

	switch (locate(tl, ev->x0, ev->y0, &s)) {
	case A_TRACK:
		clamp_cell(tl, ev->x0, ev->y0, &c0, &r0);
		clamp_cell(tl, ev->x, ev->y, &c1, &r1);
		put_cursor(tl, c1, r1);
		timeline_box_set(tl, col_time(tl, NX_MIN(c0, c1)),
				 col_time(tl, NX_MAX(c0, c1) + 1),
				 tl->tr.rows[r0], tl->tr.rows[r1]);
		return 0;
	case A_AXIS:
		clamp_cell(tl, ev->x0, ev->y0, &c0, &r0);
		clamp_cell(tl, ev->x, ev->y, &c1, &r1);
		timeline_zoom_range(tl, col_time(tl, NX_MIN(c0, c1)),
				    col_time(tl, NX_MAX(c0, c1) + 1));
		return 0;
	default:
		return 0;
	}
}

/* Rows scroll under the pointer: the first row shown and the cursor's
 * move together. */
static void scroll_rows(struct timeline *tl, int dir)
{
	size_t n = tl->tr.nrows, step = MOUSE_WHEEL_LINES;
	size_t last_top = n > (size_t)tl->track_rows ?
			  n - (size_t)tl->track_rows : 0;
	size_t top = dir > 0 ? NX_MIN(tl->top + step, last_top) :
			       (tl->top > step ? tl->top - step : 0);

	tl->row = NX_MIN(tl->row + top - tl->top, n - 1);
	tl->top = top;
	timeline_layout(tl);
}

static int wheel(struct timeline *tl, const struct mouse_event *ev)
{
	struct spot s;
	int up = ev->kind == MOUSE_WHEEL_UP;

	if (locate(tl, ev->x, ev->y, &s) == A_DETAILS && !ev->zoom) {
		for (int k = 0; k < MOUSE_WHEEL_LINES; k++)
			details_request(tl->details, tl->view.tui,
					up ? REQ_MOVE_UP : REQ_MOVE_DOWN);
		return 0;
	}
	if (!ev->zoom) {
		scroll_rows(tl, up ? -1 : 1);
		return 0;
	}
	/* the cursor to the pointer: zooming keeps the cursor's column */
	if (s.col >= 0 && (s.area == A_TRACK || s.area == A_AXIS))
		put_cursor(tl, s.col, tl->row);
	tl->focus_details = 0;
	return tl->view.ops->request(&tl->view, up ? REQ_ZOOM_IN :
						     REQ_ZOOM_OUT);
}

int timeline_mouse(struct view *v, const struct mouse_event *ev)
{
	struct timeline *tl = (struct timeline *)v;
	struct spot s;

	timeline_layout(tl);
	switch (ev->kind) {
	case MOUSE_CLICK:
		return click(tl, ev);
	case MOUSE_DOUBLE:
		/* on a track or a field, Enter on what the first click
		 * chose; on a label, one more click */
		switch (locate(tl, ev->x, ev->y, &s)) {
		case A_TRACK:
		case A_DETAILS:
			return 1;
		case A_LABEL:
			return click(tl, ev);
		default:
			return 0;
		}
	case MOUSE_DRAG:
		return drag(tl, ev);
	case MOUSE_WHEEL_UP:
	case MOUSE_WHEEL_DOWN:
		wheel(tl, ev);
		return 0;
	}
	return 0;
}
