/* The '?' screen: keys from the request table and the commands of the
 * view it was opened from. */
#ifndef NX_TUI_HELP_H
#define NX_TUI_HELP_H

#include "view.h"

/* commands: the ':' commands of the view below; may be NULL. */
struct view *help_open(const struct view_cmd *commands);

#endif
