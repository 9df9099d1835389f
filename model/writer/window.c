/* Slices of rows that nest by time wait in a window ordered by start
 * (the longer first on equal starts) and get their depth and parent as
 * they leave it, so files whose events are out of order by less than
 * the window need no pass over their slices at the end. */
#include "config.h"

#include "model/writer/writer_int.h"

#include <stdlib.h>

#include "model/util.h"

int nest_place(struct nest_stack *st, int64_t id, int64_t ts, int64_t end,
	       int64_t *parent)
{
	size_t depth = st->n;

	/* the same rule as scan_slices(): a slice ending at ts does not
	 * hold an instant at ts only when it is one itself */
	while (depth && st->s[depth - 1].end <= ts &&
	       !(st->s[depth - 1].end == ts && end == ts))
		depth--;
	st->s = xgrow(st->s, &st->cap, depth + 1, sizeof(*st->s));
	if (depth > WRITER_MAX_DEPTH)
		depth = WRITER_MAX_DEPTH;
	/* a slice that outlasts the one above it (overlapping, not
	 * nested) is drawn under it but is not its child */
	*parent = depth && end <= st->s[depth - 1].end ?
		  st->s[depth - 1].id : 0;
	st->s[depth] = (struct open_slice){ end, id };
	st->n = depth + 1;
	return (int)depth;
}

int window_before(const struct wpending *a, const struct wpending *b)
{
	if (a->ts != b->ts)
		return a->ts < b->ts;
	if (a->dur != b->dur)
		return a->dur > b->dur;
	return a->id < b->id;
}

void window_push(struct window *win, const struct wpending *p)
{
	size_t i = win->n++;

	win->heap = xgrow(win->heap, &win->cap, win->n, sizeof(*win->heap));
	while (i && window_before(p, &win->heap[(i - 1) / 2])) {
		win->heap[i] = win->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	win->heap[i] = *p;
}

int window_pop(struct window *win, struct wpending *out)
{
	struct wpending last;
	size_t i = 0;

	if (!win->n)
		return 0;
	*out = win->heap[0];
	last = win->heap[--win->n];
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= win->n)
			break;
		if (c + 1 < win->n && window_before(&win->heap[c + 1],
						    &win->heap[c]))
			c++;
		if (!window_before(&win->heap[c], &last))
			break;
		win->heap[i] = win->heap[c];
		i = c;
	}
	win->heap[i] = last;
	return 1;
}
