/* Files written by e and E: a new file per export, never overwriting
 * one, in $NXTOP_EXPORT_DIR or else the current directory. */
#ifndef NX_TUI_EXPORTFILE_H
#define NX_TUI_EXPORTFILE_H

#include "tui/view.h"

/* Writes what view v exports as fmt to DIR/nxtop-WHAT-N.EXT (N from 1
 * up, the first free one). The path (malloc'd), or NULL with err_set(). */
char *exportfile_write(struct view *v, enum out_format fmt);

#endif
