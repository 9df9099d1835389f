/* A reading of events that may take long and that a key stops: after
 * KEYWATCH_AFTER_MS (at once when headless) the status line says what
 * is being read (drawn again at the new size when the terminal is
 * resized, which does not stop it), and a key typed from then on stops
 * it. Keys typed sooner stay for after it, so that /query<Enter>n still
 * works. The model calls keywatch_check() as its progress check
 * (model_set_stop). */
#ifndef NX_TUI_KEYWATCH_H
#define NX_TUI_KEYWATCH_H

#include <time.h>

struct tui;

#define KEYWATCH_AFTER_MS 300

struct keywatch {
	struct tui *tui;
	char *busy;		/* the status line's text once it is slow */
	struct timespec since;	/* the reading's start */
	int watching, shown, stopped;
};

/* Starts watching a reading on tui t (the clock starts with the first
 * reading since keywatch_end); once it is slow the status line says
 * "DOING WHAT (any key stops)...". Returns -1 when a key stopped it,
 * else 0. */
int keywatch_begin(struct keywatch *w, struct tui *t, const char *doing,
		   const char *what);
/* The progress check (arg: the watch): 1 when a key stopped it. */
int keywatch_check(void *arg);
/* After the readings of a frame, a step or a list: the next reading
 * starts the clock again. Returns 1 when a key stopped them (and forgets
 * it), else 0. */
int keywatch_end(struct keywatch *w);
void keywatch_free(struct keywatch *w);

#endif
