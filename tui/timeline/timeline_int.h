/* The timeline view's state, shared by its files: timeline.c (moving,
 * requests, commands), draw.c (drawing), search.c
 * (search and layer highlights), box.c (box select and
 * summaries), marks.c (markers), drill.c (from a
 * system profile to its device profiles, and back; :align) and
 * group.c (a system profile's grouping). */
#ifndef NX_TUI_TIMELINE_INT_H
#define NX_TUI_TIMELINE_INT_H

#include <curses.h>
#include <stdint.h>

#include "tui/details.h"
#include "tui/keywatch.h"
#include "model/analyze/analyze.h"
#include "model/drill.h"
#include "model/model.h"
#include "model/search.h"
#include "model/searchdist.h"
#include "model/sysrows.h"
#include "model/userdata.h"
#include "tui/tracks.h"
#include "tui/view.h"

#define LABEL_MIN 12		/* columns of the label column */
#define LABEL_MAX 64
#define LABEL_NAME_MIN 2	/* a counter's name, cut before its scale */
#define SCALE_MAX 12		/* "12.4G–99.9G": a counter's values */
#define UNIT_MAX 6		/* columns of a counter's unit shown */
#define DETAILS_MIN 6		/* rows of an open details pane */
#define LEGEND_MAX 32		/* keys counted for the legend */

enum color_by { BY_OPCODE, BY_LAYER, BY_ENGINE, BY_COUNT };

/* A counter's label text for one column grid: kept while the view
 * stays, so moving between rows and events does not compute it again. */
struct scale_memo {
	int64_t track, t0, colw;	/* track id and the grid */
	int side;			/* stacked: the track's profile */
	int ncols;
	char text[64];		/* the values in view and the unit */
	char brief[64];		/* the largest value and the unit */
};

struct legend_key {
	int64_t key;		/* string id, or track index by engine */
	int cells;
};

/* What the timeline highlights: a search's matches, or the instructions
 * of a layer chosen in the layer table. */
enum hl_kind { HL_NONE, HL_SEARCH, HL_LAYER };

/* Hits per column of one track, for one column grid. */
struct hl_frame {
	int64_t t0, colw;
	int ncols, valid;
	int64_t *hits;
};

/* Whether an event is a match, remembered by id (direct-mapped). */
#define HL_SEEN_SLOTS 4096
struct hl_seen {
	int64_t id;		/* 0: empty */
	int match;
};

struct highlight {
	enum hl_kind kind;
	char *text;		/* the query, or the layer's name */
	struct search *search;
	int64_t *ids;		/* HL_LAYER: string ids of its layers */
	size_t nids;
	/* the same over profile B's rows (stacked); NULL when B cannot
	 * run the query */
	struct search *search_b;
	int64_t *ids_b;
	size_t nids_b;
	struct hl_frame *frames;	/* per track */
	/* the density strip over the whole profile */
	int64_t *density;
	int dcols, dvalid;
	/* matches in the view; stats_b: B's, over the same part of the
	 * axis */
	struct search_stats stats, stats_b;
	/* their durations, up to HL_DIST_MAX (one profile only) */
	struct search_dist sd;
	int64_t s_t0, s_t1, s_shift;
	int svalid;
	int failed;		/* an error was shown; do not repeat it */
	/* a search reading events, from its first reading in this frame
	 * or step: a key may stop it */
	struct keywatch kw;
	struct hl_seen *seen;
};

/* A box selection: a time range over a range of rows. While it is
 * being stretched, it covers the anchor's column and the cursor's. */
struct box {
	int on, fixed;		/* fixed: no longer follows the cursor */
	int64_t a0, a1;		/* the anchor's column, ns */
	size_t track;		/* the anchor's row (a track index) */
	int64_t t0, t1;		/* fixed: the range */
	size_t track_end;	/* fixed: the other row */
};

/* A stretch of the warnings lane: findings' ranges merged, ns. */
struct ins_span {
	int64_t ts, end;
	int sev;		/* the worst enum an_severity merged in */
};

/* The analysis behind the Insights list and the warnings lane. */
struct insights {
	struct an_job *job;	/* started after the first frame */
	int done;
	const struct an_result *res;	/* NULL until done, or failed */
	struct ins_span *spans;	/* in time order, disjoint */
	size_t nspans;
};

struct timeline {
	struct view view;
	struct model *m;
	struct mprofile prof;
	/* the profile's path as the user named it, for exports that name
	 * their files as nxtop diff does; NULL when not known */
	char *file;
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
	struct tl_jump *jumps;	/* where flows were followed from (flows.c) */
	size_t njumps;
	struct tl_flowmarks *fmarks;	/* flowmarks.c */
	/* layout of the view's area */
	int labelw, ncols, track_rows, details_h;
	struct legend_key legend[LEGEND_MAX];
	int nlegend;
	struct scale_memo *memo;	/* one per counter drawn */
	size_t nmemo;
	struct highlight hl;
	int hl_rows;		/* rows the strip and results line take */
	struct box box;
	char *ud_key;		/* user data key of the profile */
	struct marker *marks;	/* by time */
	size_t nmarks;
	int marks_loaded;
	int64_t mark_on;	/* the marker the cursor is on (id), when
				 * at its time; 0: none */
	int marks_row;		/* rows the marker line takes: 1 with markers */
	struct insights ins, ins_b;	/* ins_b: profile B's, stacked */
	int ins_row;		/* rows the warnings lane takes: 1 with ranges */
	/* a system profile: its rows are grouped at view time */
	int is_system;
	int is_trace;		/* not Neuron: Chrome JSON, Perfetto */
	struct sysgroup group, group_default;
	int64_t dropped;	/* dropped-event warnings of the profile */
	/* the time the axis counts from: the profile's start, or with
	 * :align the system profile's start on the device's axis */
	int64_t origin;
	/* a device profile opened from a system event (drilled), and
	 * where that execution sits in system time */
	int64_t drill_slice;
	struct malign align;
	int aligned;
	/* stacked (nxtop A B): profile B's rows under A's (tr.mb, tr.shift)
	 * and the times :align marked on each side, on the axis */
	struct mprofile prof_b;
	int64_t mark_at[2];
	int marked[2];
	int sel_side;		/* the side of sel */
	int details_side;	/* the side of the event in the details */
};

/* What the colour keys are called: a Neuron profile's opcode, layer
 * and engine, a trace's name, category and thread. */
const char *timeline_color_name(const struct timeline *tl, enum color_by c);
/* Column c covers [t0 + c colw, t0 + (c+1) colw). */
int64_t timeline_end(const struct timeline *tl);	/* t0 + ns on screen */
/* The cursor's column: -1 left of the view, ncols right of it. */
int timeline_cursor_col(const struct timeline *tl);
/* Track index of the cursor row. */
size_t timeline_cur_track(const struct timeline *tl);
/* The screen line of the first track row: under the axis and the
 * marker line. */
int timeline_tracks_y(const struct timeline *tl);
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

/* With the details pane open, shows the event under the cursor in it. */
void timeline_follow(struct timeline *tl);
/* mouse.c: the view's mouse op. */
int timeline_mouse(struct view *v, const struct mouse_event *ev);

/* Puts the cursor on event s of track index i (zooming out to show it
 * whole when it is wider than the screen); the details pane follows. */
void timeline_select(struct timeline *tl, const struct mslice *s, size_t i);
/* nest.c: folding lanes, parent, first child and sibling requests; 0
 * when handled. */
int timeline_nest_request(struct timeline *tl, enum request req);
/* :lanes N; -1 with err_set(). */
int timeline_lanes_command(struct timeline *tl, int argc, char **argv);
/* flows.c: F follows a flow, Backspace comes back while there are
 * jumps to come back along; 0 when handled. */
int timeline_flow_request(struct timeline *tl, enum request req);
void timeline_jumps_clear(struct timeline *tl);
/* flowmarks.c: the flow marks of row r (at line y, showing cells), and
 * over them all the ends of the flows of the event under the cursor. */
void timeline_flowmarks_row(struct timeline *tl, WINDOW *win, int y,
			    size_t r, const struct mcell *cells);
void timeline_flowmarks_cursor(struct timeline *tl, WINDOW *win);
/* :flows [on|off]; -1 with err_set(). */
int timeline_flows_command(struct timeline *tl, int argc, char **argv);
void timeline_flowmarks_free(struct timeline *tl);
/* Forgets the marks kept per line (the lines changed). */
void timeline_flowmarks_forget(struct timeline *tl);

/* Moves the cursor to t on track index i (unfolding its group) and
 * brings it into view. */
void timeline_goto(struct timeline *tl, int64_t t, size_t i);
/* Shows [t0, t1) across the screen. */
void timeline_zoom_range(struct timeline *tl, int64_t t0, int64_t t1);
/* The profile as the axis reads it: its start is the time shown as 0
 * (aligned: the system profile's start), for what lists and exports
 * of the view show. */
struct mprofile timeline_axis_profile(const struct timeline *tl);
struct diff;
/* A's and B's files in d as the user named them, for its header: the
 * exports of the Compare view are what nxtop diff prints. */
void timeline_diff_files(const struct timeline *tl, struct diff *d);
/* The tracks of one side (0 A's, 1 B's when stacked) that hold events,
 * for searches over that side's model. */
const struct mtrack *timeline_side_tracks(const struct timeline *tl, int side,
					  size_t *n);
/* Track index of a track id; SIZE_MAX if none. */
size_t timeline_track_index(const struct timeline *tl, int64_t id);
/* Track indices and row positions changed (a new grouping): forgets
 * what was kept per track. old_n: tracks before. */
void timeline_rows_changed(struct timeline *tl, size_t old_n);

/* search.c */
int timeline_search_prompt(struct timeline *tl);
/* Starts a search; -1 with err_set() on a bad query. */
int timeline_search(struct timeline *tl, const char *text);
/* The same for a query built term by term (its terms are taken); it
 * joins the search history. */
int timeline_search_query(struct timeline *tl, struct query *q);
/* Colours the instructions of a layer table row. */
int timeline_layer(struct timeline *tl, const char *row);
void timeline_hl_clear(struct timeline *tl);
/* After a frame is drawn: a search a key stopped is cleared, and the
 * status line says why; 1 then (the frame is to be drawn again). */
int timeline_hl_settle(struct timeline *tl);
/* The highlight over profile B's rows too (stacked); -1 with err_set(). */
int timeline_hl_side_b(struct timeline *tl);
/* Hits per column of the row of track index i; NULL without a
 * highlight or on error. */
const int64_t *timeline_hl_hits(struct timeline *tl, size_t i);
/* 1 if the event a cell shows (its top event) is highlighted. */
int timeline_hl_event(struct timeline *tl, size_t i, const struct mcell *c);
void timeline_hl_step(struct timeline *tl, int dir);
void timeline_hl_draw(struct timeline *tl, WINDOW *win, int y);
void timeline_matches(struct timeline *tl);
int timeline_search_export(struct timeline *tl, enum out_format fmt,
			   FILE *f);

/* box.c */
void timeline_box_start(struct timeline *tl);
/* A fixed box over [t0, t1) from track index a's row to b's. */
void timeline_box_set(struct timeline *tl, int64_t t0, int64_t t1, size_t a,
		      size_t b);
int timeline_box_range(const struct timeline *tl, int64_t *t0, int64_t *t1,
		       size_t *r0, size_t *r1);
/* Whether row r of a box from row r0 counts on its own in pass 0 (an
 * open group is left to its rows, a track's other lanes are skipped)
 * or in pass 1, taken when pass 0 finds none (open groups too). */
int timeline_box_row_counts(const struct timeline *tl, size_t r,
			    size_t r0, int pass);
void timeline_box_zoom(struct timeline *tl);
void timeline_box_summary(struct timeline *tl);
void timeline_window_summary(struct timeline *tl);
int timeline_box_export(struct timeline *tl, enum out_format fmt, FILE *f);
void timeline_box_draw(struct timeline *tl, WINDOW *win);

/* marks.c */
void timeline_marks_load(struct timeline *tl);
void timeline_mark(struct timeline *tl, const char *name);
void timeline_mark_step(struct timeline *tl, int dir);
/* The marker line under the axis (the markers in view and their
 * names) and each marker's column through empty cells. */
void timeline_marks_draw(struct timeline *tl, WINDOW *win);
/* The marker in the cursor's column, NULL if none. */
const struct marker *timeline_mark_at_cursor(struct timeline *tl);

/* insights.c */
/* Starts the analysis (after the first frame) and looks at it (wait:
 * until it ends): enum view_poll. */
int timeline_insights_poll(struct timeline *tl, int wait);
/* The findings; NULL while the analysis runs, or when it failed. */
/* One side's findings (1: profile B's, stacked); NULL until done. */
const struct an_result *timeline_insights(const struct timeline *tl,
					  int side);
/* 1 once the side's analysis ended (found or failed). */
int timeline_insights_done(const struct timeline *tl, int side);
void timeline_insights_free(struct timeline *tl);
/* "  3 insights" once they are known. */
void timeline_insights_header(const struct timeline *tl, struct strbuf *out);
/* The warnings lane under the axis: the findings' ranges in amber. */
void timeline_insights_draw(struct timeline *tl, WINDOW *win);
/* Zooms to a finding's ranges and boxes their rows. */
void timeline_insight_show(struct timeline *tl, const struct an_finding *f,
			   int side);

/* drill.c */
/* Enter on an event already in the details pane: its device profile
 * (of profile B's bundle when side is 1). */
void timeline_drill(struct timeline *tl, const struct mslice *s, int side);
/* What Enter on s would open, for the status line; NULL if nothing. */
char *timeline_drill_hint(struct timeline *tl, const struct mslice *s,
			  int side);
void timeline_back(struct timeline *tl);
void timeline_devices(struct timeline *tl);
/* on: 1 aligns, 0 stops, -1 toggles; -1 with err_set(). */
int timeline_align(struct timeline *tl, int on);

/* stack.c: :align with profile B stacked (start, or no word: the
 * event or marker under the cursor on each side); -1 with err_set(). */
int timeline_stack_align(struct timeline *tl, int argc, char **argv);
/* Stacks profile B's tracks (of mb, as A's are: a system profile's
 * rows under grouping g) under a's; a is left as it was, -1 with
 * err_set(), on an error. */
int timeline_stack_tracks(struct timeline *tl, struct tracks *a,
			  struct model *mb, const struct sysgroup *g);
/* How far B was moved from its start on A's, ns (0 unstacked); and
 * B moved so (--align, :view). */
int64_t timeline_stack_offset(const struct timeline *tl);
void timeline_stack_move(struct timeline *tl, int64_t offset);
/* "  B +1.2ms": how far B was moved from its start on A's. */
void timeline_stack_header(const struct timeline *tl, struct strbuf *out);
/* The profile's extent (and B's, shifted), into start and end. */
void timeline_extent(struct timeline *tl);
/* The first top-level profile of m; -1 with err_set(). */
int timeline_first_profile(struct model *m, int64_t *id);

/* views.c: :view, :view save NAME, :view delete NAME, :view NAME; -1
 * with err_set(). */
int timeline_view_command(struct timeline *tl, int argc, char **argv);
/* y: the command line that reopens the view, shown and copied. */
void timeline_copy_view(struct timeline *tl);

/* group.c */
/* G: the command line with the grouping filled in. */
void timeline_group_prompt(struct timeline *tl);
/* :group ARGS; -1 with err_set(). */
int timeline_group_command(struct timeline *tl, int argc, char **argv);

/* A counter's unit as its label shows it (cleaned, cut). */
void timeline_counter_unit(const struct timeline *tl, size_t i,
			   struct strbuf *out);

void timeline_draw(struct view *v, WINDOW *win);
void timeline_header(struct view *v, struct strbuf *out);
void timeline_flag(struct view *v, struct strbuf *out);
void timeline_status(struct view *v, struct strbuf *out);

#endif
