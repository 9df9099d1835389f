/* D: the device profiles of a system profile. */
#ifndef NX_TUI_DEVICE_VIEW_H
#define NX_TUI_DEVICE_VIEW_H

#include <stdint.h>

#include "model/drill.h"
#include "model/model.h"
#include "tui/view.h"

/* The list of system profile sys's device profiles; Enter opens one.
 * NULL with err_set(). */
struct view *device_view_open(struct model *m, int64_t sys);
/* A short name for a device profile and its file ("bert-large nc3
 * (i-..._nc_3_model_1578576049.json)"), malloc'd. */
char *device_label(const struct mdevice *d);

#endif
