/* The command line at the bottom of the screen: a one-line editor with
 * a history (Up and Down). */
#ifndef NX_TUI_PROMPT_H
#define NX_TUI_PROMPT_H

#include <curses.h>
#include <stddef.h>

#define PROMPT_MAX 256		/* bytes of text */

#define PROMPT_LABEL_MAX 32	/* bytes of the fixed label */

struct prompt {
	char lead;		/* ':' (commands), '/' (search, filter) */
	/* shown after the lead and not edited: the command word of
	 * ":rename NAME", where only the name is the text */
	char label[PROMPT_LABEL_MAX];
	char text[PROMPT_MAX];
	size_t len, pos;	/* bytes; pos is on a character boundary */
	char **hist;		/* earlier lines, most recent first */
	size_t nhist;
	size_t hpos;		/* 0: the line being typed; k: hist[k - 1] */
	char typed[PROMPT_MAX];	/* the line being typed, while in history */
};

enum prompt_result { PROMPT_EDITING, PROMPT_DONE, PROMPT_CANCEL };

/* Starts an empty line without history (prompt_free() the last one's
 * first). */
void prompt_start(struct prompt *p, char lead);
/* Shows label (trusted) between the lead and the text. */
void prompt_set_label(struct prompt *p, const char *label);
/* Puts text on the line, the cursor at its end. */
void prompt_set(struct prompt *p, const char *text);
/* Gives the prompt its history (it frees it). */
void prompt_set_history(struct prompt *p, char **hist, size_t n);
void prompt_free(struct prompt *p);
/* Feeds one key (curses code, or KEY_UNICODE(cp) for a character). */
enum prompt_result prompt_key(struct prompt *p, int key);
/* Draws the line at (y, 0) over w columns and leaves the cursor in it. */
void prompt_draw(const struct prompt *p, WINDOW *win, int y, int w);

#endif
