/* Flow marks on the timeline: a glyph at the edge of a slice where a
 * flow leaves it (its end) or enters it (its start), on the slice's
 * lane, in the empty cell just outside the edge when there is one (so
 * the event's name stays whole); the flows of the event under the
 * cursor have both their ends drawn in a colour of their own. :flows
 * off hides them. Each row reads only the flow ends of the columns on
 * screen (model/flow.h). Stacked, B's rows read B's flows, moved as B
 * is. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tui/timeline/timeline_int.h"

#include "model/flow.h"
#include "model/util.h"
#include "tui/draw.h"
#include "tui/tui.h"

/* The marks of one line (all its lanes) for one column grid, kept while
 * the view stays, so moving the cursor reads nothing again. */
struct line_marks {
	int64_t first;		/* the line's first track */
	int64_t t0, colw;	/* on the line's own profile's axis */
	int ncols, nlanes;
	unsigned char *bits;	/* nlanes x ncols */
};

struct tl_flowmarks {
	struct flow_marks *fm[2];	/* A's, B's */
	int off;		/* :flows off */
	int failed;		/* an error was shown; do not repeat it */
	struct line_marks *lines;	/* by track index */
	size_t nlines;
	unsigned char *tmp;	/* a merged line's member */
	size_t tmpcap;
	/* per screen row and column: the marks drawn and their column */
	unsigned char *bits;
	int *at;
	size_t ncells;
	int64_t sel;		/* the event whose flows are below */
	int sel_side;		/* its side */
	struct mflow *flows;
	size_t nflows;
};

static struct tl_flowmarks *state(struct timeline *tl)
{
	if (!tl->fmarks)
		tl->fmarks = xcalloc(1, sizeof(*tl->fmarks));
	return tl->fmarks;
}

void timeline_flowmarks_forget(struct timeline *tl)
{
	struct tl_flowmarks *s = tl->fmarks;

	if (!s)
		return;
	for (size_t i = 0; i < s->nlines; i++)
		free(s->lines[i].bits);
	free(s->lines);
	s->lines = NULL;
	s->nlines = 0;
}

void timeline_flowmarks_free(struct timeline *tl)
{
	struct tl_flowmarks *s = tl->fmarks;

	if (!s)
		return;
	timeline_flowmarks_forget(tl);
	flow_marks_close(s->fm[0]);
	flow_marks_close(s->fm[1]);
	flow_free(s->flows, s->nflows);
	free(s->tmp);
	free(s->bits);
	free(s->at);
	free(s);
	tl->fmarks = NULL;
}

static void fail(struct timeline *tl, struct tl_flowmarks *s)
{
	if (!s->failed)
		tui_error(tl->view.tui, "%s", err_get());
	s->failed = 1;
}

static const char *glyph_of(int bits)
{
	if (bits == (FLOW_MARK_OUT | FLOW_MARK_IN))
		return draw_glyph(G_FLOW_BOTH);
	return draw_glyph(bits & FLOW_MARK_OUT ? G_FLOW_OUT : G_FLOW_IN);
}

/* Reads the marks of every track line i draws into l; -1 on error. */
static int read_line(struct timeline *tl, struct tl_flowmarks *s, size_t i,
		     struct line_marks *l)
{
	size_t sz = (size_t)l->nlanes * (size_t)l->ncols, n;
	const struct mtrack *t = tracks_members(&tl->tr, i, &n);
	struct flow_marks *fm = s->fm[tl->tr.st[i].side];

	if (s->tmpcap < sz) {
		s->tmpcap = sz;
		s->tmp = xreallocarray(s->tmp, sz, 1);
	}
	memset(l->bits, 0, sz);
	for (size_t j = 0; j < n; j++) {
		if (t[j].is_counter || !t[j].n_events)
			continue;
		if (flow_marks_read(fm, t[j].id, l->nlanes, l->t0, l->colw,
				    l->ncols, s->tmp))
			return -1;
		for (size_t k = 0; k < sz; k++)
			l->bits[k] |= s->tmp[k];
	}
	return 0;
}

/* The marks of lane k of track line i on the grid on screen; NULL on
 * error. */
static const unsigned char *lane_marks(struct timeline *tl,
				       struct tl_flowmarks *s, size_t i, int k)
{
	size_t n;
	int64_t first = tracks_members(&tl->tr, i, &n)->id;
	int64_t t0 = tl->t0 - tracks_shift(&tl->tr, i);
	int side = tl->tr.st[i].side;
	struct line_marks *l;
	int nl = tracks_lanes(&tl->tr, i);

	if (!s->fm[side] &&
	    !(s->fm[side] = flow_marks_open(tracks_model(&tl->tr, i))))
		return NULL;
	if (s->nlines < tl->tr.n) {
		s->lines = xreallocarray(s->lines, tl->tr.n, sizeof(*s->lines));
		memset(s->lines + s->nlines, 0,
		       (tl->tr.n - s->nlines) * sizeof(*s->lines));
		s->nlines = tl->tr.n;
	}
	l = &s->lines[i];
	if (!l->bits || l->first != first || l->t0 != t0 ||
	    l->colw != tl->colw || l->ncols != tl->ncols || l->nlanes != nl) {
		free(l->bits);
		*l = (struct line_marks){ first, t0, tl->colw, tl->ncols, nl,
					  xcalloc((size_t)nl, (size_t)tl->ncols) };
		if (read_line(tl, s, i, l)) {
			l->ncols = 0;	/* read again next time */
			return NULL;
		}
	}
	return l->bits + (size_t)k * (size_t)tl->ncols;
}

static int is_empty(const struct mcell *c)
{
	return !c->n && !c->busy && !c->top_slice;
}

/* The column a mark of column c is drawn in: an entering one in the
 * empty cell before, a leaving one in the empty cell after, else c. */
static int mark_col(const struct timeline *tl, const struct mcell *cells,
		    const unsigned char *bits, int c)
{
	if (bits[c] == FLOW_MARK_IN && c > 0 && is_empty(&cells[c - 1]) &&
	    !bits[c - 1])
		return c - 1;
	if (bits[c] == FLOW_MARK_OUT && c + 1 < tl->ncols &&
	    is_empty(&cells[c + 1]) && !bits[c + 1])
		return c + 1;
	return c;
}

/* The record of screen row k's marks, cleared. */
static void row_record(struct timeline *tl, struct tl_flowmarks *s, int k,
		       unsigned char **bits, int **at)
{
	size_t need = (size_t)NX_MAX(tl->track_rows, 1) *
		      (size_t)NX_MAX(tl->ncols, 1);

	if (need > s->ncells) {
		s->ncells = need;
		s->bits = xreallocarray(s->bits, need, 1);
		s->at = xreallocarray(s->at, need, sizeof(*s->at));
	}
	*bits = s->bits + (size_t)k * (size_t)tl->ncols;
	*at = s->at + (size_t)k * (size_t)tl->ncols;
	memset(*bits, 0, (size_t)tl->ncols);
}

void timeline_flowmarks_row(struct timeline *tl, WINDOW *win, int y,
			    size_t r, const struct mcell *cells)
{
	struct tl_flowmarks *s = state(tl);
	size_t i = tl->tr.rows[r];
	int x0 = tl->labelw + 1;
	const unsigned char *lane;
	unsigned char *bits;
	int *at;

	if (s->off || r < tl->top || tl->ncols <= 0)
		return;
	row_record(tl, s, (int)(r - tl->top), &bits, &at);
	if (tl->tr.st[i].is_group || tl->tr.t[i].is_counter)
		return;
	if (!(lane = lane_marks(tl, s, i, tl->tr.lane[r]))) {
		fail(tl, s);
		return;
	}
	memcpy(bits, lane, (size_t)tl->ncols);
	for (int c = 0; c < tl->ncols; c++) {
		if (!bits[c])
			continue;
		at[c] = mark_col(tl, cells, bits, c);
		if (at[c] == c && cells[c].n > 1) {
			/* zoomed out, a shade of several events keeps its
			 * glyph: marks there would cover the whole row */
			bits[c] = 0;
			continue;
		}
		draw_str(win, y, x0 + at[c], 1, glyph_of(bits[c]),
			 draw_style(S_FLOW));
	}
}

/* The flows of the event under the cursor, read again when it changes;
 * 0 when there are some. */
static int cursor_flows(struct timeline *tl, struct tl_flowmarks *s)
{
	size_t i = timeline_cur_track(tl);
	int side = tl->tr.st[i].side;
	struct mslice ev;

	if (timeline_event_at(tl, i, &ev))
		ev.id = 0;
	if (ev.id != s->sel || side != s->sel_side) {
		flow_free(s->flows, s->nflows);
		s->flows = NULL;
		s->nflows = 0;
		s->sel = ev.id;
		s->sel_side = side;
		if (ev.id && flow_of_slice(tracks_model(&tl->tr, i), ev.id,
					   &s->flows, &s->nflows)) {
			fail(tl, s);
			s->sel = 0;
		}
	}
	return s->nflows ? 0 : 1;
}

static int blank_at(WINDOW *win, int y, int x)
{
	return (mvwinch(win, y, x) & A_CHARTEXT) == ' ';
}

/* One end e of a flow, leaving it (dir FLOW_MARK_OUT) or entering it,
 * where it is on screen: where its row drew its mark, or (a dependency,
 * or in a crowded column) by the same rule. Its times are its side's. */
static void draw_end(struct timeline *tl, struct tl_flowmarks *s,
		     WINDOW *win, const struct mslice *e, int dir)
{
	size_t i = tracks_find_side(&tl->tr, s->sel_side, e->track_id), r, k;
	int64_t t = dir == FLOW_MARK_OUT && e->dur > 0 ?
		    sat_add(e->ts, e->dur - 1) : e->ts;
	int x0 = tl->labelw + 1, y, c;

	if (!e->id || i == SIZE_MAX)
		return;
	t = sat_add(t, tracks_shift(&tl->tr, i));
	if (t < tl->t0 || t >= timeline_end(tl))
		return;
	r = tracks_row_of(&tl->tr, i);
	if (tl->tr.rows[r] == i)	/* the end's lane */
		r += (size_t)NX_MIN(e->depth, tracks_lanes(&tl->tr, i) - 1);
	if (r < tl->top || r >= tl->top + (size_t)tl->track_rows || !s->bits)
		return;
	y = timeline_tracks_y(tl) + (int)(r - tl->top);
	c = (int)((t - tl->t0) / tl->colw);
	k = (size_t)(r - tl->top) * (size_t)tl->ncols + (size_t)c;
	if (s->bits[k])
		c = s->at[k];
	else if (dir == FLOW_MARK_IN && c > 0 && blank_at(win, y, x0 + c - 1))
		c--;
	else if (dir == FLOW_MARK_OUT && c + 1 < tl->ncols &&
		 blank_at(win, y, x0 + c + 1))
		c++;
	/* kept, so that another flow's end in the cell is drawn there */
	s->bits[k] |= (unsigned char)dir;
	s->at[k] = c;
	draw_str(win, y, x0 + c, 1, glyph_of(s->bits[k]),
		 draw_style(S_FLOW_SEL));
}

void timeline_flowmarks_cursor(struct timeline *tl, WINDOW *win)
{
	struct tl_flowmarks *s = state(tl);

	if (s->off || cursor_flows(tl, s))
		return;
	for (size_t k = 0; k < s->nflows; k++) {
		draw_end(tl, s, win, &s->flows[k].out, FLOW_MARK_OUT);
		draw_end(tl, s, win, &s->flows[k].in, FLOW_MARK_IN);
	}
}

int timeline_flows_command(struct timeline *tl, int argc, char **argv)
{
	struct tl_flowmarks *s = state(tl);

	if (argc == 1) {
		s->off = !s->off;
	} else if (argc == 2 && (!strcmp(argv[1], "on") ||
				 !strcmp(argv[1], "off"))) {
		s->off = !strcmp(argv[1], "off");
	} else {
		err_set("flows: expected on or off (no word: toggle)");
		return -1;
	}
	tui_message(tl->view.tui, "flow marks %s", s->off ? "off" : "on");
	return 0;
}
