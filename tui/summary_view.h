/* The Selection Summary of a box select (or of the window, W): totals,
 * then per row its field tables (Value, Count, Count %, Dur Sum, Dur %,
 * Dur Avg, Min, Max), as a list that scrolls, filters values, sorts each
 * table by a column and exports what `nxtop export` prints. */
#ifndef NX_TUI_SUMMARY_VIEW_H
#define NX_TUI_SUMMARY_VIEW_H

#include "model/selection.h"
#include "tui/timeline/timeline_int.h"

/* Takes over sel (malloc'd, computed); box: it is the box's, so f zooms
 * to the box (and fixes it). */
struct view *summary_open(struct timeline *tl, const char *title,
			  struct selection *sel, int box);

#endif
