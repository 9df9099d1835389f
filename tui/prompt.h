/* The command line at the bottom of the screen: a one-line editor. */
#ifndef NX_TUI_PROMPT_H
#define NX_TUI_PROMPT_H

#include <curses.h>

#define PROMPT_MAX 256		/* bytes of text */

struct prompt {
	char lead;		/* ':' (commands); later '/' (search) */
	char text[PROMPT_MAX];
	size_t len, pos;	/* bytes; pos is on a character boundary */
};

enum prompt_result { PROMPT_EDITING, PROMPT_DONE, PROMPT_CANCEL };

void prompt_start(struct prompt *p, char lead);
/* Feeds one key (curses code, or KEY_UNICODE(cp) for a character). */
enum prompt_result prompt_key(struct prompt *p, int key);
/* Draws the line at (y, 0) over w columns and leaves the cursor in it. */
void prompt_draw(const struct prompt *p, WINDOW *win, int y, int w);

#endif
