/* The timeline's track list: the group tree, folding, the rows on
 * screen, and per-track frames cached for the columns on screen. A
 * system profile's lines are its rows under a grouping chosen at view
 * time (model/sysrows.h): a line may then draw several tracks. */
#ifndef NX_TUI_TRACKS_H
#define NX_TUI_TRACKS_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/sysrows.h"

struct track_frame;

struct track_state {
	size_t parent;		/* index of the parent, or SIZE_MAX */
	int depth;		/* nesting level, 0 for top-level rows */
	int nchildren;
	int folded;
	int lanes_folded;	/* a nested track drawn on one line */
	int is_group;
	int have_range;		/* counters: vmin..vmax below is known */
	double vmin, vmax;
	struct track_frame *frame;
	const struct mrow *row;	/* a system profile's row, else NULL */
	int side;		/* stacked: 0 profile A's, 1 profile B's */
};

struct tracks {
	struct model *m;
	/* Stacked (nxtop A B): B's rows under A's, read from B's model with
	 * B's times shifted by shift ns onto A's axis. */
	struct model *mb;
	int64_t shift;
	struct mtrack *t;	/* in tree order: a group, then its tree */
	struct track_state *st;
	size_t n;
	size_t *rows;		/* indices of unfolded rows, top to bottom */
	int *lane;		/* each row's lane: its depth in the track */
	size_t nrows;
	int lanes;		/* most lanes a nested track takes */
	struct mcell *lane_cells;	/* the last lane frame read */
	int lane_cap;
	struct mcell *zero;	/* empty cells for counters */
	int nzero;
	struct mrow *srows;	/* a system profile's rows, line by line */
	size_t nsrows;
	struct mrow *srows_b;	/* stacked: B's system rows, if any */
	size_t nsrows_b;
	/* every track that can hold events, once (t itself, or the tracks
	 * of the system rows); stacked, all_b holds B's as all holds A's */
	struct mtrack *all, *all_b;
	size_t nall, nall_b;
};

int tracks_load(struct tracks *tr, struct model *m, int64_t profile);
/* A system profile's rows under grouping g: headings are groups, and a
 * row draws every track it merges. */
int tracks_load_rows(struct tracks *tr, struct model *m, int64_t profile,
		     const struct sysgroup *g);
void tracks_free(struct tracks *tr);
/* Stacks b's tracks (of model mb, taken: b is left empty) under tr's:
 * each side under a heading of its own, "A: name" and "B: name". Both
 * are device profiles, or both a system profile's rows. */
void tracks_stack(struct tracks *tr, struct tracks *b, struct model *mb,
		  const char *name_a, const char *name_b);
/* The model track i is read from, and what its times add to be on the
 * axis (0 for A's, shift for B's). */
struct model *tracks_model(const struct tracks *tr, size_t i);
int64_t tracks_shift(const struct tracks *tr, size_t i);
/* Moves B's rows to shift ns on the axis. */
void tracks_set_shift(struct tracks *tr, int64_t shift);
/* Lanes of a nested track: one per depth, LANES_DEFAULT at most unless
 * set, the last one taking the deeper events too. */
#define LANES_DEFAULT 4
#define LANES_MAX 16
/* Lanes track i is drawn on now (1 for a folded or flat track). */
int tracks_lanes(const struct tracks *tr, size_t i);
/* Cells of lane k of track i (all of it when it has one lane); valid
 * until the next call. NULL with err_set() on a model error. */
const struct mcell *tracks_lane_frame(struct tracks *tr, size_t i, int k,
				      int64_t t0, int64_t colw, int ncols);
/* Recomputes the rows after folding or unfolding. */
void tracks_update_rows(struct tracks *tr);
/* Folds groups until the rows fit in rows lines: groups of DMA transfers
 * (in a system profile, of counters) first, then the biggest (the last
 * of equals in a system profile); never a group of engines. */
void tracks_fold_to_fit(struct tracks *tr, size_t rows);
/* The row showing track i, or the row of its nearest shown ancestor. */
size_t tracks_row_of(const struct tracks *tr, size_t i);
/* The tracks line i draws: n is 1 (the line's own track) unless a
 * system row merges several. */
const struct mtrack *tracks_members(const struct tracks *tr, size_t i,
				    size_t *n);
/* The line drawing track id (a track of a merged row included) among
 * A's rows, or of one side's when stacked; SIZE_MAX if none. */
size_t tracks_find(const struct tracks *tr, int64_t id);
size_t tracks_find_side(const struct tracks *tr, int side, int64_t id);
/* Appends to ids the tracks a selection over line i covers: its own id
 * (a group stands for its tree), or a system row's tracks (a heading:
 * those of its rows). */
void tracks_ids(const struct tracks *tr, size_t i, int64_t **ids, size_t *n);

/* Cells of track i for ncols columns of colw ns from t0, reusing what
 * was read for an earlier frame on the same column grid. A folded group
 * gets the busiest of its tracks per column; an open group or a counter
 * gets empty cells. NULL with err_set() on a
 * model error. Valid until the next call for the same track. */
const struct mcell *tracks_frame(struct tracks *tr, size_t i, int64_t t0,
				 int64_t colw, int ncols);
const struct mccell *tracks_counter_frame(struct tracks *tr, size_t i,
					  int64_t t0, int64_t colw, int ncols);
/* Smallest and largest sample of counter track i; 0 if known. */
int tracks_counter_range(struct tracks *tr, size_t i, double *vmin,
			 double *vmax);

#endif
