/* Headless runs for tests and benchmarks: the real UI on a virtual
 * terminal, keys from a script, screens dumped as text.
 *
 * Script lines (blank lines and lines starting with '#' are skipped):
 *   size COLSxROWS   resize the virtual terminal (80x24 at the start)
 *   keys KEYS        type KEYS, written as in the request table:
 *                    "wws<Down><Enter>:goto 1.25ms<Enter>"
 *   dump NAME        write the screen as text to DIR/NAME
 *   attrs NAME       write the screen's colours to DIR/NAME: a character
 *                    per cell, its colour pair (0-9, a-z, A-Z) or '*' for
 *                    a reversed cell without colour
 *   times NAME       write each key's frame time so far to DIR/NAME,
 *                    "KEY MS" per line, then "#rss_kb N" (peak RSS)
 *   wait [N]         let N more of a bundle's device profiles import in
 *                    the background (all of them without N) and wait
 *                    until they are done; until then none does, so
 *                    that a run shows the same screens every time
 *   start [N]        the same without waiting
 *   typeahead        the frame after the next key finds a key typed
 *                    while it is being drawn (a long search stops)
 *   mouse click COL ROW, mouse double COL ROW,
 *   mouse drag COL ROW COL2 ROW2, mouse wheel up|down COL ROW [zoom],
 *   mouse press COL ROW, mouse release COL ROW
 *                    what a terminal reports of button 1 and the wheel,
 *                    in cells from 0 0 at the top left (zoom: with
 *                    Ctrl); a second click on a cell with no key between
 *                    is a double-click
 * The UI ends after the last line. */
#ifndef NX_TUI_HEADLESS_H
#define NX_TUI_HEADLESS_H

#include "tui/mouse.h"

struct headless;

/* Reads the script; NULL with err_set(). */
struct headless *headless_open(const char *script, const char *dump_dir);
void headless_close(struct headless *h);
/* Columns and rows the virtual terminal starts with. */
void headless_size(const struct headless *h, int *cols, int *rows);
/* The next key, after running the size, dump and times lines before it:
 * a curses key code, KEY_RESIZE after a size line, -1 at the end of the
 * script, -2 on an error (err_set()). */
int headless_key(struct headless *h);
/* After KEY_MOUSE: the reports of the mouse line one by one, 1 while
 * there is one. */
int headless_mouse(struct headless *h, struct mouse_raw *r);
/* fn(arg) runs before each dump and key: it waits for the UI's
 * background work and draws what it found, so that every run shows the
 * same screens. The key's frame time starts after it. */
void headless_on_settle(struct headless *h, void (*fn)(void *arg),
			void *arg);
/* fn(arg, n, wait) runs on a "wait" line (wait 1) or a "start" line
 * (wait 0): n imports, -1 for all. */
void headless_on_wait(struct headless *h,
		      void (*fn)(void *arg, int n, int wait), void *arg);
/* Whether a typeahead line armed a key typed meanwhile (once). */
int headless_typeahead(struct headless *h);
/* The frame after the last key (or the first frame) is complete. */
void headless_frame_done(struct headless *h);

#endif
