/* The timeline: the main view of a profile. */
#ifndef NX_TUI_TIMELINE_H
#define NX_TUI_TIMELINE_H

#include <stdint.h>

#include "model/model.h"
#include "view.h"

/* A timeline of one profile; profile 0 picks the first top-level one.
 * NULL with err_set(). */
struct view *timeline_open(struct model *m, int64_t profile);

#endif
