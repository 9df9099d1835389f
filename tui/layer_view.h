/* The layer table (L): one line per layer (name, start, duration,
 * per-engine instruction counts and active time, FLOPs, MFU), sorted by
 * any column, filtered, grouped by path depth (+ and -). Enter zooms the
 * timeline to the layer and colours its instructions. */
#ifndef NX_TUI_LAYER_VIEW_H
#define NX_TUI_LAYER_VIEW_H

#include "tui/timeline/timeline_int.h"

/* NULL with err_set(). */
struct view *layer_view_open(struct timeline *tl);

extern const struct view_cmd layers_cmds[];

#endif
