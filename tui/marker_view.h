/* The marker list (M): each marker's time and its difference from the
 * marker it is diffed against (the previous one unless chosen), in a
 * unit of your choice; rename, delete, clear, zoom to the span between
 * two markers, and marker sets saved and loaded by name (S lists them). */
#ifndef NX_TUI_MARKER_VIEW_H
#define NX_TUI_MARKER_VIEW_H

#include "tui/timeline/timeline_int.h"

/* NULL with err_set() when there is no user data store. */
struct view *marker_view_open(struct timeline *tl);

extern const struct view_cmd markers_cmds[];

#endif
