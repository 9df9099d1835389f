/* The mouse: what the terminal reports (a button pressed or released, a
 * wheel turned) made into what a view acts on (a click, a double-click,
 * a drag, a wheel step). Curses is told to report presses and releases
 * apart (mouseinterval 0) and no motion, so a pointer moving over the
 * screen costs nothing; a drag is a press and a release on different
 * cells. */
#ifndef NX_TUI_MOUSE_H
#define NX_TUI_MOUSE_H

#include <curses.h>

#define MOUSE_DOUBLE_MS 300	/* two clicks on one cell: a double-click */
#define MOUSE_WHEEL_LINES 3	/* lines one wheel step scrolls */

/* What the terminal said, in screen cells from 0,0 at the top left. */
enum mouse_raw_kind { MR_PRESS, MR_RELEASE, MR_WHEEL_UP, MR_WHEEL_DOWN };

struct mouse_raw {
	enum mouse_raw_kind kind;
	int x, y;
	int zoom;		/* Shift or Ctrl held */
	double ms;		/* when, for double-clicks */
};

enum mouse_kind { MOUSE_CLICK, MOUSE_DOUBLE, MOUSE_DRAG, MOUSE_WHEEL_UP,
		  MOUSE_WHEEL_DOWN };

struct mouse_event {
	enum mouse_kind kind;
	int x, y;		/* where; a drag: where it ended */
	int x0, y0;		/* a drag: where it started */
	int zoom;		/* a wheel step with Shift or Ctrl */
};

/* The state between reports: a press not yet released, the last
 * click. Zeroed: nothing pending. */
struct mouse {
	int down, x0, y0;
	int clicked, cx, cy;
	double cms;
};

/* Feeds one report; 1 with *ev when it completes an event. */
int mouse_feed(struct mouse *m, const struct mouse_raw *r,
	       struct mouse_event *ev);
/* The reports of a curses event (a click reported whole is a press and
 * a release) into r[0..]; how many (0: none of ours). */
int mouse_from_curses(const MEVENT *me, double ms, struct mouse_raw r[2]);
/* Asks the terminal for reports of button 1 and the wheel (on), or for
 * none, so its own text selection works; 0, or -1 when it has no
 * mouse. */
int mouse_enable(int on);

#endif
