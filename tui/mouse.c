/* Clicks, double-clicks and drags are told apart here, not by curses:
 * its own click detection waits mouseinterval() after every press and
 * reports a drag as nothing. */
#include "config.h"

#include "tui/mouse.h"

#include <curses.h>

int mouse_feed(struct mouse *m, const struct mouse_raw *r,
	       struct mouse_event *ev)
{
	ev->x = ev->x0 = r->x;
	ev->y = ev->y0 = r->y;
	ev->zoom = r->zoom;
	switch (r->kind) {
	case MR_WHEEL_UP:
	case MR_WHEEL_DOWN:
		ev->kind = r->kind == MR_WHEEL_UP ? MOUSE_WHEEL_UP :
						    MOUSE_WHEEL_DOWN;
		return 1;
	case MR_PRESS:
		m->down = 1;
		m->x0 = r->x;
		m->y0 = r->y;
		return 0;
	case MR_RELEASE:
		break;
	}
	if (!m->down)
		return 0;	/* pressed before the mouse was on */
	m->down = 0;
	if (r->x != m->x0 || r->y != m->y0) {
		ev->kind = MOUSE_DRAG;
		ev->x0 = m->x0;
		ev->y0 = m->y0;
		m->clicked = 0;
		return 1;
	}
	if (m->clicked && m->cx == r->x && m->cy == r->y &&
	    r->ms - m->cms <= MOUSE_DOUBLE_MS) {
		ev->kind = MOUSE_DOUBLE;
		m->clicked = 0;	/* a third click is a click again */
		return 1;
	}
	ev->kind = MOUSE_CLICK;
	m->clicked = 1;
	m->cx = r->x;
	m->cy = r->y;
	m->cms = r->ms;
	return 1;
}

static int report(struct mouse_raw *r, enum mouse_raw_kind kind,
	       const MEVENT *me, double ms)
{
	r->kind = kind;
	r->x = me->x;
	r->y = me->y;
	r->zoom = (me->bstate & (BUTTON_SHIFT | BUTTON_CTRL)) != 0;
	r->ms = ms;
	return 1;
}

int mouse_from_curses(const MEVENT *me, double ms, struct mouse_raw r[2])
{
	mmask_t b = me->bstate;

	if (b & BUTTON1_PRESSED)
		return report(&r[0], MR_PRESS, me, ms);
	if (b & BUTTON1_RELEASED)
		return report(&r[0], MR_RELEASE, me, ms);
	if (b & BUTTON1_CLICKED)
		return report(&r[0], MR_PRESS, me, ms) +
		       report(&r[1], MR_RELEASE, me, ms);
	if (b & BUTTON4_PRESSED)
		return report(&r[0], MR_WHEEL_UP, me, ms);
	if (b & BUTTON5_PRESSED)
		return report(&r[0], MR_WHEEL_DOWN, me, ms);
	return 0;
}

int mouse_enable(int on)
{
	mmask_t want = on ? BUTTON1_PRESSED | BUTTON1_RELEASED |
			    BUTTON1_CLICKED | BUTTON4_PRESSED |
			    BUTTON5_PRESSED | BUTTON_SHIFT | BUTTON_CTRL : 0;

	mouseinterval(0);
	return mousemask(want, NULL) == 0 && on ? -1 : 0;
}
