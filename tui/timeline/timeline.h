/* The timeline: the main view of a profile. */
#ifndef NX_TUI_TIMELINE_H
#define NX_TUI_TIMELINE_H

#include <stdint.h>

#include "model/model.h"
#include "model/sysrows.h"
#include "tui/view.h"

struct tui_start;

/* A timeline of one profile; profile 0 picks the first top-level one.
 * g: how a system profile's rows are grouped (NULL: the default). NULL
 * with err_set(). */
struct view *timeline_open(struct model *m, int64_t profile,
			   const struct sysgroup *g);
/* The timeline of a system profile's device profile, opened from
 * system event slice (0: from the device list). NULL with err_set()
 * when it cannot be shown (missing from the bundle, failed to import). */
struct view *timeline_open_device(struct model *m, int64_t device,
				  int64_t slice);
/* The profile's path as the user named it (nxtop PATH, the Profile
 * Manager's list): what the Compare view's exports call A's file. */
void timeline_set_file(struct view *v, const char *path);
/* Opens the view where s says (views.c); a search that fails is said
 * on the status line. */
void timeline_start(struct view *v, const struct tui_start *s);

/* Opens the Compare view of profile B (tui_compare_model) over the
 * timeline: what (NULL: layers, executions for a system profile, the
 * overall figures for a trace) as nxtop diff --what names it. -1 with
 * err_set(). */
int timeline_compare(struct view *v, const char *what);
/* Stacks profile B's rows (of mb) under the timeline's, B's start on
 * A's; a system profile stays alone. -1 with err_set(). */
int timeline_stack(struct view *v, struct model *mb);
/* Where the ':' command name works, of the timeline and the views it
 * opens ("the layer table"); NULL when none has it. */
const char *timeline_command_home(const char *name);

#endif
