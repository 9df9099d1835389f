/* The pager: a long text (a field of an event, every cell of a list's
 * line) wrapped to the screen's width, scrolled with the keys of every
 * list (j/k, PgUp/PgDn, g/G) and searched with / (n, N). It is a list
 * of its wrapped lines, so it draws only the lines on screen. */
#ifndef NX_TUI_PAGER_H
#define NX_TUI_PAGER_H

#include <stddef.h>

#include "tui/view.h"

/* A piece of the text: a heading line (NULL: none) over len bytes of
 * text (untrusted). */
struct pager_part {
	const char *heading;
	const char *text;
	size_t len;
};

/* A pager with the breadcrumb title on the parts (copied), a blank
 * line between them. Lines break wherever they are full, nothing added:
 * what is copied from the screen is what the profile says. */
struct view *pager_open(const char *title, const struct pager_part *parts,
			size_t n);
/* The same for text nxtop wrote (the command line y shows): lines break
 * at blanks, a word wider than the screen is cut, and a line the text
 * goes on from ends with a mark in the last column (a heading's lines
 * go on without). */
struct view *pager_open_words(const char *title,
			      const struct pager_part *parts, size_t n);

#endif
