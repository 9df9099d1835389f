/* A device profile drilled into before the background import brought
 * it in: its progress until it is ready, then its timeline in place of
 * this view. */
#ifndef NX_TUI_WAIT_VIEW_H
#define NX_TUI_WAIT_VIEW_H

#include <stdint.h>

#include "model/model.h"
#include "tui/view.h"

/* Waits for device (moved to the front of the queue); label names it,
 * slice is the system event drilled from (0: none). */
struct view *wait_view_open(struct model *m, int64_t device, int64_t slice,
			    const char *label);

#endif
