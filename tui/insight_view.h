/* The Insights list (I, :insights): one line per finding of the
 * analysis rules (severity, rule, finding, where), as `nxtop analyze`
 * finds them. Enter zooms the timeline to the finding's ranges and
 * boxes their rows. */
#ifndef NX_TUI_INSIGHT_VIEW_H
#define NX_TUI_INSIGHT_VIEW_H

#include "tui/timeline/timeline_int.h"

struct view *insight_view_open(struct timeline *tl);

#endif
