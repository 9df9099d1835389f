/* The '?' screen: keys from the request table and the commands of the
 * view it was opened from; and the search query syntax. */
#ifndef NX_TUI_HELP_H
#define NX_TUI_HELP_H

#include "tui/request.h"
#include "tui/view.h"

/* The keys of keymap km (and the keymaps under it); commands: the ':'
 * commands of the view below, may be NULL. */
struct view *help_open(enum keymap km, const struct view_cmd *commands);
/* The query language of '/', with every field from model/query.h. */
struct view *help_query_open(void);

#endif
