/* The timeline view's state, shared by its two files: timeline.c
 * (moving, requests, commands) and timeline_draw.c (drawing). */
#ifndef NX_TUI_TIMELINE_INT_H
#define NX_TUI_TIMELINE_INT_H

#include <curses.h>
#include <stdint.h>

#include "details.h"
#include "model/model.h"
#include "tracks.h"
#include "view.h"

#define LABEL_MIN 12		/* columns of the label column */
#define DETAILS_MIN 6		/* rows of an open details pane */
#define LEGEND_MAX 32		/* keys counted for the legend */

enum color_by { BY_OPCODE, BY_LAYER, BY_ENGINE, BY_COUNT };

/* "opcode", "layer", "engine" */
extern const char *const timeline_color_names[BY_COUNT];

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
	int first_drawn;	/* groups were folded to fit the first screen */
	enum color_by color_by;
	struct details *details;
	int details_open, focus_details;
	struct mslice sel;	/* the event jumped to, while the cursor is on it */
	/* layout of the view's area */
	int labelw, ncols, track_rows, details_h;
	struct legend_key legend[LEGEND_MAX];
	int nlegend;
};

/* Column c covers [t0 + c colw, t0 + (c+1) colw). */
int64_t timeline_span(const struct timeline *tl);	/* ns on screen */
int64_t timeline_end(const struct timeline *tl);	/* t0 + span */
/* The cursor's column: -1 left of the view, ncols right of it. */
int timeline_cursor_col(const struct timeline *tl);
/* Track index of the cursor row. */
size_t timeline_cur_track(const struct timeline *tl);
/* Fits the label column, tracks and panes into the view's area. */
void timeline_layout(struct timeline *tl);
void timeline_clamp(struct timeline *tl);
void timeline_show_cursor(struct timeline *tl);
void timeline_zoom_fit(struct timeline *tl);
/* A time since the profile's start, with the decimals the zoom needs. */
void timeline_fmt_rel(const struct timeline *tl, int64_t t, char *buf,
		      size_t n);
/* The event under the cursor on track i; 0 found, 1 none, -1 error. */
int timeline_event_at(struct timeline *tl, size_t i, struct mslice *s);

void timeline_draw(struct view *v, WINDOW *win);
void timeline_header(struct view *v, struct strbuf *out);
void timeline_status(struct view *v, struct strbuf *out);

#endif
