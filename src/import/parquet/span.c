/* Intervals leave the window earliest start first, so a union grows
 * only at its end: by the part of each interval past the merged end.
 * An interval that arrives after a later-starting one of its union has
 * left the window would have to go back in; the union is then unknown
 * rather than wrong. */
#include "config.h"

#include "src/import/parquet/span.h"

static void swap(struct span_iv *a, struct span_iv *b)
{
	struct span_iv t = *a;

	*a = *b;
	*b = t;
}

static void sift_up(struct span_window *w, size_t i)
{
	while (i && w->win[(i - 1) / 2].start > w->win[i].start) {
		swap(&w->win[(i - 1) / 2], &w->win[i]);
		i = (i - 1) / 2;
	}
}

static void sift_down(struct span_window *w, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < w->n && w->win[l].start < w->win[m].start)
			m = l;
		if (r < w->n && w->win[r].start < w->win[m].start)
			m = r;
		if (m == i)
			return;
		swap(&w->win[i], &w->win[m]);
		i = m;
	}
}

int span_pop(struct span_window *w, struct span_iv *out)
{
	if (!w->n)
		return 0;
	*out = w->win[0];
	w->win[0] = w->win[--w->n];
	sift_down(w, 0);
	return 1;
}

int span_push(struct span_window *w, struct span_iv iv, struct span_iv *out)
{
	int full = w->n == SPAN_WINDOW;

	if (full)
		span_pop(w, out);
	w->win[w->n] = iv;
	sift_up(w, w->n++);
	return full;
}

/* a + (end - from), end > from, for hostile values: saturates instead
 * of overflowing. */
static int64_t add_sat(int64_t a, int64_t end, int64_t from)
{
	int64_t b = from < 0 && end > INT64_MAX + from ? INT64_MAX : end - from;

	return a > INT64_MAX - b ? INT64_MAX : a + b;
}

void span_merge(struct span *s, int64_t start, int64_t end)
{
	int64_t from;

	if (s->merged && start < s->last_start)
		s->unordered = 1;
	from = s->merged && s->end > start ? s->end : start;
	if (end > from)
		s->len = add_sat(s->len, end, from);
	if (!s->merged || end > s->end)
		s->end = end;
	s->last_start = start;
	s->merged = 1;
}

int64_t span_len(const struct span *s)
{
	return s->unordered ? -1 : s->len;
}
