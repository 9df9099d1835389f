/* The details pane: every field of one event, grouped (Event, Timing,
 * IDs, Instruction / DMA / System, HLO and layer, Operands, other), in
 * as many columns as the width allows. Focused, j and k choose a field
 * and Enter reads it in full in the pager. */
#ifndef NX_TUI_DETAILS_H
#define NX_TUI_DETAILS_H

#include <curses.h>
#include <stdint.h>

#include "model/model.h"
#include "tui/request.h"
#include "tui/view.h"

struct details;

struct details *details_new(void);
void details_free(struct details *d);
/* Reads the fields of a slice; title (untrusted) heads the pane. 0 on
 * success, -1 with err_set(). */
int details_load(struct details *d, struct model *m, int64_t slice,
		 const char *title);
int64_t details_slice(const struct details *d);
/* Draws the pane in h rows from y: a title row, then the fields. */
void details_draw(struct details *d, WINDOW *win, int y, int h, int w,
		  int focused);
/* Moves and pages choose a field; Enter opens it in a pager on t's
 * view stack. 0 if handled. */
int details_request(struct details *d, struct tui *t, enum request req);

#endif
