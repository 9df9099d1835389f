/* The Compare view: profile B (given with nxtop A B) against the
 * timeline's profile A, as nxtop diff compares them: layers, opcodes,
 * engines (:what), each figure in A, in B, B-A and (B-A)/A, rows only
 * one side has marked added or removed. Enter on a layer zooms the
 * timeline to it. */
#ifndef NX_TUI_COMPARE_VIEW_H
#define NX_TUI_COMPARE_VIEW_H

#include "model/diff.h"
#include "tui/timeline/timeline_int.h"

/* NULL with err_set(). */
struct view *compare_view_open(struct timeline *tl, struct model *b,
			       enum diff_what w);
/* The same view of figures already compared (a box over both sides of
 * the stacked timeline: diff_selections); d is taken. */
struct view *compare_view_open_diff(struct timeline *tl, struct diff *d);

extern const struct view_cmd compare_cmds[];

#endif
