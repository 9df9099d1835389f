/* Drawing the timeline: the axis, a label and a row of cells per track
 * (busy shades, bars with names, sparklines), the cursor, the details
 * pane and the legend; the header and status texts. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/axis.h"
#include "tui/draw.h"
#include "model/text.h"
#include "model/timefmt.h"
#include "model/util.h"
#include "tui/timeline/timeline_int.h"


/* A string id of profile B's is kept as -1 - id: B's ids are not A's. */
static int64_t color_key(const struct timeline *tl, size_t i,
			 const struct mcell *c)
{
	int64_t k;

	switch (tl->color_by) {
	case BY_OPCODE:
		k = c->top_name;
		break;
	case BY_LAYER:
		k = c->top_cat;
		break;
	default:
		return (int64_t)i;
	}
	return tl->tr.st[i].side ? -1 - k : k;
}

static const char *key_text(struct timeline *tl, int64_t key)
{
	const char *s;

	if (tl->color_by == BY_ENGINE)
		return tl->tr.t[key].name;
	s = key < 0 ? model_string(tl->tr.mb, -1 - key) :
		      model_string(tl->m, key);
	return *s ? s : "(none)";
}

/* Whether two colour keys name the same thing: stacked, A's and B's
 * ids of one name do. */
static int same_key(struct timeline *tl, int64_t a, int64_t b)
{
	if (a == b)
		return 1;
	if (!tl->tr.mb || tl->color_by == BY_ENGINE || (a < 0) == (b < 0))
		return 0;
	return !strcmp(key_text(tl, a), key_text(tl, b));
}

static void tally(struct timeline *tl, int64_t key, int cells)
{
	for (int k = 0; k < tl->nlegend; k++) {
		if (same_key(tl, tl->legend[k].key, key)) {
			tl->legend[k].cells += cells;
			return;
		}
	}
	if (tl->nlegend < LEGEND_MAX)
		tl->legend[tl->nlegend++] = (struct legend_key){ key, cells };
}

static enum glyph busy_glyph(const struct mcell *c, int64_t colw)
{
	int64_t eighths = c->busy >= colw ? 8 : c->busy * 8 / colw;

	if (!c->busy)
		return G_INSTANT;
	if (eighths >= 7)
		return G_FULL;
	if (eighths >= 4)
		return G_SHADE3;
	if (eighths >= 2)
		return G_SHADE2;
	return G_SHADE1;
}

static int is_empty(const struct mcell *c)
{
	return !c->n && !c->busy && !c->top_slice;
}

/* Runs of this many cells or more draw as a bar with the event's name;
 * shorter ones as glyphs, where a squeezed name would only be noise. */
#define BAR_MIN 4

/* A cell that is at least half one event, part of a bar. */
static int bar_cell(const struct mcell *c, int64_t colw)
{
	return c->top_slice && c->busy * 2 >= colw;
}

/* With a highlight, a cell is a hit (1) or not (0); -1 without one. A
 * cell that is mostly one event is a hit when that event is one; a
 * busier cell when a hit starts in it. */
static int hit(struct timeline *tl, size_t i, const struct mcell *cells,
	       const int64_t *hits, int c)
{
	if (!hits)
		return -1;
	if (bar_cell(&cells[c], tl->colw))
		return timeline_hl_event(tl, i, &cells[c]);
	return hits[c] > 0;
}

/* Colours of a run of cells: the event's own, or the highlight's. */
static void run_attrs(const struct timeline *tl, int slot, int h,
		      attr_t *bar, attr_t *fg)
{
	int layer = tl->hl.kind == HL_LAYER;

	if (h < 0) {
		*bar = draw_bar(slot);
		*fg = draw_fg(slot);
	} else if (h) {
		*bar = draw_style(layer ? S_LAYER : S_MATCH);
		*fg = draw_style(layer ? S_LAYER_FG : S_MATCH_FG);
	} else {
		*bar = draw_style(S_FADED_BAR);
		*fg = draw_style(S_DIM);
	}
}

/* hits: the highlight's hits per column, or NULL. */
static void draw_cells(struct timeline *tl, WINDOW *win, int y, int x0,
		       size_t i, const struct mcell *cells,
		       const int64_t *hits)
{
	int n = tl->ncols;

	for (int c = 0; c < n;) {
		const struct mcell *cell = &cells[c];
		int64_t key;
		int slot, e = c + 1, h = hit(tl, i, cells, hits, c);
		attr_t bar, fg;

		if (is_empty(cell)) {
			c++;
			continue;
		}
		key = color_key(tl, i, cell);
		slot = draw_palette_slot(key_text(tl, key));
		if (bar_cell(cell, tl->colw))
			while (e < n && cells[e].top_slice == cell->top_slice &&
			       bar_cell(&cells[e], tl->colw) &&
			       hit(tl, i, cells, hits, e) == h)
				e++;
		tally(tl, key, e - c);
		run_attrs(tl, slot, h, &bar, &fg);
		if (e - c >= BAR_MIN) {
			draw_text(win, y, x0 + c, e - c,
				  model_string(tracks_model(&tl->tr, i),
					       cell->top_name), bar, 1);
		} else {
			for (int k = c; k < e; k++)
				draw_str(win, y, x0 + k, 1,
					 draw_glyph(busy_glyph(&cells[k],
							       tl->colw)), fg);
		}
		c = e;
	}
}

/* The sparkline's scale, zero-based: from 0 (or the smallest sample
 * below it) to the largest sample of the whole profile, so panning
 * keeps the picture; a percentage is drawn against 0-100 and a ratio
 * against 0-1 (or the largest sample above them). 1 when the counter
 * never changes from a value other than 0 and has no such scale: drawn
 * as a thin line, the label giving the value. */
static int spark_scale(struct timeline *tl, size_t i, double *lo,
		       double *hi)
{
	const char *unit = tl->tr.t[i].unit ? tl->tr.t[i].unit : "";
	double top = !strcmp(unit, "%") ? 100 : !strcmp(unit, "ratio") ? 1 : 0;

	if (tracks_counter_range(&tl->tr, i, lo, hi))
		return -1;
	if (*lo == *hi && *lo != 0 && !top)
		return 1;
	*lo = NX_MIN(*lo, 0);
	*hi = NX_MAX(*hi, top);
	return 0;
}

static void draw_counter(struct timeline *tl, WINDOW *win, int y, int x0,
			 size_t i, const struct mccell *cells)
{
	double lo = 0, hi = 0;
	int flat = spark_scale(tl, i, &lo, &hi);

	if (flat < 0)
		return;
	for (int c = 0; c < tl->ncols; c++) {
		double v = cells[c].vmax;
		enum glyph g = G_FLAT;

		if (!cells[c].have)
			continue;
		if (!flat) {
			int level = hi > lo ? (int)lround((v - lo) / (hi - lo) *
							 7.0) : 0;

			g = G_SPARK0 + NX_MIN(NX_MAX(level, 0), 7);
		}
		draw_str(win, y, x0 + c, 1, draw_glyph(g),
			 draw_style(S_COUNTER));
	}
}

/* A value in at most 5 columns: 3 digits and a k, M, G or T. */
static void compact(char *buf, size_t n, double v)
{
	static const struct {
		double f;
		const char *s;
	} si[] = { { 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" } };

	for (size_t k = 0; k < NX_ARRAY_SIZE(si); k++) {
		if (fabs(v) >= si[k].f * 0.9995) {
			snprintf(buf, n, "%.3g%s", v / si[k].f, si[k].s);
			return;
		}
	}
	snprintf(buf, n, "%.3g", v);
}

void timeline_counter_unit(const struct timeline *tl, size_t i,
			   struct strbuf *out)
{
	const char *unit = tl->tr.t[i].unit;

	if (unit && *unit)
		text_sanitize_n(out, unit, text_fit(unit, UNIT_MAX),
				draw_ascii());
}

/* What a counter's label says after its name: the smallest and the
 * largest value in view and the unit ("0–12.4G B/s"), one value when
 * they are the same, "(unit)" when nothing is in view; into brief, the
 * same with the largest value alone, for a label short of room. */
static void counter_scale(struct timeline *tl, size_t i,
			  const struct mccell *cells, struct strbuf *out,
			  struct strbuf *brief)
{
	double lo = 0, hi = 0;
	int seen = 0;
	char a[24], b[24];

	for (int c = 0; c < tl->ncols; c++) {
		if (!cells[c].have)
			continue;
		lo = seen ? NX_MIN(lo, cells[c].vmin) : cells[c].vmin;
		hi = seen ? NX_MAX(hi, cells[c].vmax) : cells[c].vmax;
		seen = 1;
	}
	compact(a, sizeof(a), lo);
	compact(b, sizeof(b), hi);
	if (!seen) {
		struct strbuf unit;

		sb_init(&unit);
		timeline_counter_unit(tl, i, &unit);
		if (unit.len)
			sb_printf(out, "(%s)", sb_cstr(&unit));
		sb_adds(brief, sb_cstr(out));
		sb_free(&unit);
		return;
	}
	if (!strcmp(a, b))
		sb_adds(out, a);
	else
		sb_printf(out, "%s%s%s", a, draw_glyph(G_RANGE), b);
	sb_adds(brief, b);
	if (tl->tr.t[i].unit && *tl->tr.t[i].unit) {
		sb_addc(out, ' ');
		sb_addc(brief, ' ');
	}
	timeline_counter_unit(tl, i, out);
	timeline_counter_unit(tl, i, brief);
}

/* Turns the cell at (y, x) into the cursor: reversed and bold, or a
 * thin line through empty cells of other rows. */
static void mark_cursor(WINDOW *win, int y, int x, int on_row)
{
	if (on_row)
		draw_restyle(win, y, x, " ", draw_style(S_CURSOR), A_REVERSE,
			  A_BOLD);
	else
		draw_restyle(win, y, x, draw_glyph(G_VLINE),
			  draw_style(S_CURSOR_COL), 0, 0);
}

/* Bytes of the longest end of s that fits in cols columns. */
static size_t suffix_fit(const char *s, int cols)
{
	size_t len = strlen(s), n = 0;

	for (size_t k = 1; k <= len; k++) {
		if (((unsigned char)s[len - k] & 0xc0) == 0x80)
			continue;	/* inside a character */
		if (text_width(s + len - k) > cols)
			break;
		n = k;
	}
	return n;
}

static void abbreviate(struct strbuf *out, const char *s, int w);

/* GROUP/ROW (model_track_label) shortened part by part, so that rows of
 * one name keep what tells them apart: the row part whole while the
 * group keeps a third, each part's ends ("i-0a…a7b0/CPU average"). */
static void abbreviate_parts(struct strbuf *out, const char *s,
			     const char *slash, int w)
{
	int gfull = text_width(s) - text_width(slash);
	int gw = NX_MAX(w - text_width(slash), NX_MIN(gfull, w / 3));
	char *group = xstrndup(s, (size_t)(slash - s));

	abbreviate(out, group, gw);
	sb_addc(out, '/');
	abbreviate(out, slash + 1, w - gw - 1);
	free(group);
}

/* s (sanitised) shortened in the middle to w columns. Names of rows
 * differ at both ends ("gid36-nc0-tid2107-neuron_rt"), so the end keeps
 * the last '-' part whole when it takes at most half ("…neuron_rt"),
 * and the start stops at a '-' in its second half ("gid36-nc0…"). */
static void abbreviate(struct strbuf *out, const char *s, int w)
{
	const char *dash = strrchr(s, '-'), *slash = strrchr(s, '/');
	size_t len = strlen(s), head, tail;

	if (w < 4 || text_width(s) <= w) {
		sb_adds(out, s);
		return;
	}
	if (slash && slash > s && slash[1] && w >= 12) {
		abbreviate_parts(out, s, slash, w);
		return;
	}
	if (dash && dash > s && text_width(dash + 1) <= w / 2)
		tail = strlen(dash + 1);
	else
		tail = suffix_fit(s, (w - 1) / 2);
	head = text_fit(s, w - 1 - text_width(s + len - tail));
	for (size_t k = head; k > head / 2; k--) {
		if (s[k - 1] == '-') {
			head = k - 1;
			break;
		}
	}
	sb_printf(out, "%.*s%s%s", (int)head, s, draw_glyph(G_ELLIPSIS),
		  s + len - tail);
}

/* scale: what a counter's label shows right-aligned after its name,
 * or NULL: the values in view and the unit (struct scale_memo), or the
 * largest alone where the whole name leaves no room for both; the name
 * then gives way to it down to LABEL_NAME_MIN columns, a letter and the
 * cut mark, as the values and the unit are what a user reads there. */
static void draw_label(struct timeline *tl, WINDOW *win, int y, size_t i,
		       int is_cur, const struct scale_memo *scale)
{
	const struct track_state *s = &tl->tr.st[i];
	struct strbuf sb, name;
	attr_t a = is_cur ? draw_style(S_LABEL_CURSOR) :
		   s->is_group ? draw_style(S_GROUP) : draw_style(S_LABEL);
	int x = 2 * s->depth, w = tl->labelw - x - 1;

	draw_fill(win, y, 0, tl->labelw, a);
	sb_init(&sb);
	sb_init(&name);
	text_sanitize(&name, tl->tr.t[i].name, draw_ascii());
	if (s->is_group) {
		char count[24] = "";

		if (s->folded)
			snprintf(count, sizeof(count), " (%d)", s->nchildren);
		sb_printf(&sb, "%s ", draw_glyph(s->folded ? G_FOLDED :
						 G_UNFOLDED));
		abbreviate(&sb, sb_cstr(&name), w - 2 - (int)strlen(count));
		sb_adds(&sb, count);
	} else if (scale && *scale->text) {
		int namew = text_width(sb_cstr(&name));
		const char *v = namew + 1 + text_width(scale->text) <= w ?
				scale->text : scale->brief;
		int nw = NX_MAX(w - text_width(v) - 1,
				NX_MIN(namew, LABEL_NAME_MIN));

		abbreviate(&sb, sb_cstr(&name), nw);
		draw_str(win, y, x + nw + 1, w - nw - 1, v,
			 is_cur ? a : draw_style(S_DIM));
		w = nw;
	} else {
		abbreviate(&sb, sb_cstr(&name), w);
	}
	draw_str(win, y, x, w, sb_cstr(&sb), a);
	sb_free(&name);
	sb_free(&sb);
}

/* A nested track's lane k below its name: its depth, and "+" on the
 * last lane when deeper events are drawn on it too. */
static void draw_lane_label(struct timeline *tl, WINDOW *win, int y,
			    size_t i, int k, int is_cur)
{
	attr_t a = is_cur ? draw_style(S_LABEL_CURSOR) : draw_style(S_DIM);
	int last = k == tracks_lanes(&tl->tr, i) - 1;
	char buf[32];

	snprintf(buf, sizeof(buf), "%s%d%s", draw_glyph(G_LANE), k,
		 last && tl->tr.t[i].max_depth > k ? "+" : "");
	draw_fill(win, y, 0, tl->labelw, a);
	draw_str(win, y, NX_MAX(tl->labelw - 1 - text_width(buf), 0),
		 tl->labelw - 1, buf, a);
}

/* counter_scale's texts for the grid on screen, from the memo when the
 * view has not moved since. */
static const struct scale_memo *counter_label(struct timeline *tl, size_t i,
					      const struct mccell *cells)
{
	struct scale_memo *mo = NULL;
	struct strbuf sb, brief;

	for (size_t k = 0; k < tl->nmemo && !mo; k++)
		if (tl->memo[k].track == tl->tr.t[i].id &&
		    tl->memo[k].side == tl->tr.st[i].side)
			mo = &tl->memo[k];
	if (!mo) {
		tl->memo = xreallocarray(tl->memo, tl->nmemo + 1,
					 sizeof(*tl->memo));
		mo = &tl->memo[tl->nmemo++];
		memset(mo, 0, sizeof(*mo));
		mo->track = tl->tr.t[i].id;
		mo->side = tl->tr.st[i].side;
	} else if (mo->t0 == tl->t0 && mo->colw == tl->colw &&
		   mo->ncols == tl->ncols) {
		return mo;
	}
	sb_init(&sb);
	sb_init(&brief);
	counter_scale(tl, i, cells, &sb, &brief);
	snprintf(mo->text, sizeof(mo->text), "%s", sb_cstr(&sb));
	snprintf(mo->brief, sizeof(mo->brief), "%s", sb_cstr(&brief));
	sb_free(&brief);
	sb_free(&sb);
	mo->t0 = tl->t0;
	mo->colw = tl->colw;
	mo->ncols = tl->ncols;
	return mo;
}

static int draw_track(struct timeline *tl, WINDOW *win, int y, size_t r)
{
	size_t i = tl->tr.rows[r];
	int x0 = tl->labelw + 1;

	if (tl->tr.t[i].is_counter) {
		const struct mccell *cc = tracks_counter_frame(
			&tl->tr, i, tl->t0, tl->colw, tl->ncols);

		if (!cc)
			return -1;
		draw_label(tl, win, y, i, r == tl->row,
			   counter_label(tl, i, cc));
		draw_counter(tl, win, y, x0, i, cc);
	} else {
		int k = tl->tr.lane[r];
		const struct mcell *cells = tracks_lane_frame(
			&tl->tr, i, k, tl->t0, tl->colw, tl->ncols);

		if (k)
			draw_lane_label(tl, win, y, i, k, r == tl->row);
		else
			draw_label(tl, win, y, i, r == tl->row, NULL);
		if (!cells)
			return -1;
		draw_cells(tl, win, y, x0, i, cells,
			   k ? NULL : timeline_hl_hits(tl, i));
		timeline_flowmarks_row(tl, win, y, r, cells);
	}
	return 0;
}

static void draw_axis(struct timeline *tl, WINDOW *win, int y)
{
	struct axis ax;
	char buf[64];
	int x0 = tl->labelw + 1, c = timeline_cursor_col(tl);

	timeline_fmt_rel(tl, tl->cur, buf, sizeof(buf));
	draw_text(win, y, 0, tl->labelw, buf, draw_style(S_AXIS), 0);
	axis_compute(&ax, tl->t0, tl->colw, tl->ncols, tl->origin, draw_ascii());
	for (int k = 0; k < ax.n; k++) {
		int room = (k + 1 < ax.n ? ax.col[k + 1] : tl->ncols) - ax.col[k];

		int w;

		axis_label(&ax, ax.t[k], buf, sizeof(buf));
		w = text_width(buf);
		draw_str(win, y, x0 + ax.col[k], 1, draw_glyph(G_TICK),
			 draw_style(S_AXIS));
		/* a label the cursor mark would cut is left out */
		if (w + 1 < room && !(c > ax.col[k] && c <= ax.col[k] + w))
			draw_str(win, y, x0 + ax.col[k] + 1, room - 1, buf,
				 draw_style(S_AXIS));
	}
	if (c >= 0 && c < tl->ncols)
		draw_str(win, y, x0 + c, 1, draw_glyph(G_CURSOR_MARK),
			 draw_style(S_AXIS) | A_BOLD);
}

static int cmp_legend(const void *a, const void *b)
{
	const struct legend_key *x = a, *y = b;

	if (x->cells != y->cells)
		return x->cells > y->cells ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

static void draw_legend(struct timeline *tl, WINDOW *win, int y)
{
	struct view *v = &tl->view;
	char head[48];
	int x;

	snprintf(head, sizeof(head), "colour by %s:",
		 timeline_color_name(tl, tl->color_by));
	x = draw_str(win, y, 0, v->width, head, draw_style(S_DIM));
	if (draw_colors() == COLORS_NONE) {
		draw_str(win, y, x, v->width - x, " (no colours)",
			 draw_style(S_DIM));
		return;
	}
	qsort(tl->legend, (size_t)tl->nlegend, sizeof(tl->legend[0]),
	      cmp_legend);
	for (int k = 0; k < tl->nlegend; k++) {
		const char *name = key_text(tl, tl->legend[k].key);
		struct strbuf sb;
		int w;

		sb_init(&sb);
		text_sanitize_n(&sb, name, text_fit(name, v->width),
				draw_ascii());
		w = text_width(sb_cstr(&sb));
		if (x + 3 + w > v->width) {
			sb_free(&sb);
			break;
		}
		draw_str(win, y, x + 1, 1, draw_glyph(G_SWATCH),
			 draw_fg(draw_palette_slot(name)));
		draw_str(win, y, x + 3, w, sb_cstr(&sb), A_NORMAL);
		x += 3 + w;
		sb_free(&sb);
	}
}

void timeline_draw(struct view *v, WINDOW *win)
{
	struct timeline *tl = (struct timeline *)v;
	int c, y0, failed = 0;

	timeline_marks_load(tl);
	timeline_layout(tl);
	if (!tl->first_drawn) {
		tl->first_drawn = 1;
		tracks_fold_to_fit(&tl->tr, (size_t)tl->track_rows);
		tl->row = 0;
		timeline_layout(tl);
	}
	if (tl->fitted)
		timeline_zoom_fit(tl);
	timeline_clamp(tl);
	c = timeline_cursor_col(tl);
	if (c < 0 || c >= tl->ncols)
		timeline_show_cursor(tl);
	c = timeline_cursor_col(tl);
	y0 = timeline_tracks_y(tl);
	draw_axis(tl, win, v->top);
	tl->nlegend = 0;
	for (int r = 0; r < tl->track_rows; r++) {
		size_t ri = tl->top + (size_t)r;

		if (ri >= tl->tr.nrows)
			break;
		if (draw_track(tl, win, y0 + r, ri))
			failed = 1;
	}
	if (failed)
		tui_error(v->tui, "%s", err_get());
	timeline_flowmarks_cursor(tl, win);
	/* the box, then markers, then the cursor on top of both */
	timeline_box_draw(tl, win);
	timeline_insights_draw(tl, win);
	timeline_marks_draw(tl, win);
	for (int r = -tl->marks_row; r < tl->track_rows && c >= 0 &&
				     c < tl->ncols; r++) {
		size_t ri = tl->top + (size_t)NX_MAX(r, 0);

		if (ri >= tl->tr.nrows)
			break;
		mark_cursor(win, y0 + r, tl->labelw + 1 + c,
			    r >= 0 && ri == tl->row);
	}
	if (tl->details_open)
		details_draw(tl->details, win, y0 + tl->track_rows,
			     tl->details_h, v->width, tl->focus_details);
	timeline_hl_draw(tl, win, y0 + tl->track_rows + tl->details_h);
	draw_legend(tl, win, v->top + v->height - 1);
	if (timeline_hl_settle(tl)) {
		/* the search's lines are gone: the tracks take them */
		for (int y = v->top; y < v->top + v->height; y++) {
			wmove(win, y, 0);
			wclrtoeol(win);
		}
		timeline_draw(v, win);
	}
}

#define FLAG_TEXT "DROPPED EVENTS"

/* After the breadcrumb (in out): what the profile is (kind, NeuronCore,
 * instance), how many insights the analysis found, and what is on
 * screen (range, zoom). The count and range always show; on a narrow
 * screen the instance, then the NeuronCore, give way. */
void timeline_header(struct view *v, struct strbuf *out)
{
	struct timeline *tl = (struct timeline *)v;
	const struct mprofile *p = &tl->prof;
	struct strbuf when, piece;
	char a[48], b[48], w[48], nc[32] = "";
	int room;

	timeline_layout(tl);
	timeline_fmt_rel(tl, tl->t0, a, sizeof(a));
	timeline_fmt_rel(tl, timeline_end(tl), b, sizeof(b));
	/* three or four digits tell zoom levels apart */
	timefmt_dur(w, sizeof(w), tl->colw, 1, draw_tf());
	sb_init(&when);
	timeline_insights_header(tl, &when);
	sb_printf(&when, "  %s%s .. %s  %s/col",
		  tl->aligned ? "system time " : "", a, b, w);
	timeline_stack_header(tl, &when);
	room = v->width - text_width(sb_cstr(out)) -
	       text_width(sb_cstr(&when)) -
	       (tl->dropped > 0 ? (int)strlen(FLAG_TEXT) + 2 : 0);
	sb_adds(out, p->kind ? p->kind : "profile");
	room -= p->kind ? (int)strlen(p->kind) : 7;
	if (p->nc_idx >= 0)
		snprintf(nc, sizeof(nc), " NC%lld", (long long)p->nc_idx);
	sb_init(&piece);
	sb_adds(&piece, nc);
	/* the instance, by id where the profile has one (a bundle's) */
	if (p->instance_id && *p->instance_id)
		sb_printf(&piece, " %s", p->instance_id);
	else if (p->instance_type && *p->instance_type)
		sb_printf(&piece, " %s", p->instance_type);
	if (text_width(sb_cstr(&piece)) <= room)
		sb_adds(out, sb_cstr(&piece));
	else if ((int)strlen(nc) <= room)
		sb_adds(out, nc);
	sb_adds(out, sb_cstr(&when));
	sb_free(&piece);
	sb_free(&when);
}

void timeline_flag(struct view *v, struct strbuf *out)
{
	struct timeline *tl = (struct timeline *)v;

	if (tl->dropped > 0)
		sb_adds(out, FLAG_TEXT);
}

void timeline_status(struct view *v, struct strbuf *out)
{
	struct timeline *tl = (struct timeline *)v;
	size_t i = timeline_cur_track(tl);
	int c = timeline_cursor_col(tl);
	struct mslice s;
	char d[48];
	const struct marker *mk = timeline_mark_at_cursor(tl);
	int64_t b0, b1;
	size_t r0, r1;

	if (!timeline_box_range(tl, &b0, &b1, &r0, &r1)) {
		timefmt_dur(d, sizeof(d), b1 - b0, 3, draw_tf());
		sb_printf(out, "box %s x %zu row%s  ", d, r1 - r0 + 1,
			  r1 == r0 ? "" : "s");
	}
	if (mk)
		sb_printf(out, "[%s] ", mk->name);
	if (tl->tr.st[i].is_group) {
		sb_printf(out, "%d track%s", tl->tr.st[i].nchildren,
			  tl->tr.st[i].nchildren == 1 ? "" : "s");
	} else if (tl->tr.t[i].is_counter) {
		const struct mccell *cc = tracks_counter_frame(
			&tl->tr, i, tl->t0, tl->colw, tl->ncols);

		if (cc && c >= 0 && c < tl->ncols && cc[c].have)
			sb_printf(out, "%s %.6g %s", tl->tr.t[i].name,
				  cc[c].vlast,
				  tl->tr.t[i].unit ? tl->tr.t[i].unit : "");
	} else if (!timeline_event_at(tl, i, &s)) {
		const char *name = model_string(tracks_model(&tl->tr, i),
						s.name);

		timefmt_dur(d, sizeof(d), s.dur, 3, draw_tf());
		/* the status line shows half the screen at most */
		sb_printf(out, "%.*s %s", (int)text_fit(name, v->width), name, d);
	}
}

