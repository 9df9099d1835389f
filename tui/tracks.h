/* The timeline's track list: the group tree, folding, the rows on
 * screen, and per-track frames cached for the columns on screen. */
#ifndef NX_TUI_TRACKS_H
#define NX_TUI_TRACKS_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

struct track_frame;

struct track_state {
	size_t parent;		/* index of the parent, or SIZE_MAX */
	int depth;		/* nesting level, 0 for top-level rows */
	int nchildren;
	int folded;
	int is_group;
	int have_range;		/* counters: vmin..vmax below is known */
	double vmin, vmax;
	struct track_frame *frame;
};

struct tracks {
	struct model *m;
	struct mtrack *t;	/* in tree order: a group, then its tree */
	struct track_state *st;
	size_t n;
	size_t *rows;		/* indices of unfolded rows, top to bottom */
	size_t nrows;
	struct mcell *zero;	/* empty cells for counters */
	int nzero;
};

int tracks_load(struct tracks *tr, struct model *m, int64_t profile);
void tracks_free(struct tracks *tr);
/* Recomputes the rows after folding or unfolding. */
void tracks_update_rows(struct tracks *tr);
/* Folds groups until the rows fit in rows lines: groups of DMA transfers
 * first, then the biggest; never a group of engines. */
void tracks_fold_to_fit(struct tracks *tr, size_t rows);
/* The row showing track i, or the row of its nearest shown ancestor. */
size_t tracks_row_of(const struct tracks *tr, size_t i);

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
/* Forgets cached frames (after a model change, not needed for moves). */
void tracks_invalidate(struct tracks *tr);

#endif
