/* Info panels (i): a chooser listing the profile's sections (Summary,
 * NEFF header, NEFF nodes, Model info, DMA queues info, NC memory usage,
 * Warnings, Terminology, and any other), each opening as a list. */
#ifndef NX_TUI_INFO_VIEW_H
#define NX_TUI_INFO_VIEW_H

#include "model/model.h"
#include "tui/view.h"

/* NULL with err_set(). */
struct view *panels_open(struct model *m, const struct mprofile *p);

#endif
