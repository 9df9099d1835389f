/* The Profile Manager: the profiles in Neuron Explorer's data path (or
 * a folder of profiles) and the ones opened recently; Enter opens one
 * over the list, q there comes back. */
#ifndef NX_TUI_MANAGER_VIEW_H
#define NX_TUI_MANAGER_VIEW_H

#include "model/sysrows.h"
#include "tui/profiles.h"
#include "tui/view.h"

/* NULL with err_set(). */
struct view *manager_view_open(struct tui *t, const struct tui_profiles *p,
			       const struct sysgroup *group);

#endif
