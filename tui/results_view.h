/* The matches of a search in a time range, in time order: a virtual
 * list that reads only the lines on screen (a million matches page in
 * as fast as ten). Enter jumps to the match on the timeline. */
#ifndef NX_TUI_RESULTS_VIEW_H
#define NX_TUI_RESULTS_VIEW_H

#include "model/search.h"
#include "tui/timeline/timeline_int.h"

/* s stays the timeline's. Where s tests events one by one, a key stops
 * the counting, as it stops the timeline's frame (keywatch.h), and later
 * readings of the list: the status line says so. NULL with *stop set
 * when a key stopped it, else with err_set(). */
struct view *results_open(struct timeline *tl, struct search *s, int64_t t0,
			  int64_t t1, int *stop);

#endif
