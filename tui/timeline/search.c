/* Highlights on the timeline: the matches of a search (/, n, N, R) or
 * the instructions of a layer (Enter in the layer table). Hits per
 * column are cached per track for the column grid on screen; a folded
 * group shows the sum of its tracks. Two rows under the tracks show
 * where the hits are in the whole profile (the density strip) and, for
 * a search, the matches in view: count, duration sum, percentiles (up
 * to HL_DIST_MAX matches, where they fit), per-row counts. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tui/draw.h"
#include "tui/help.h"
#include "model/report/export.h"
#include "model/layers.h"
#include "model/searchdist.h"
#include "model/text.h"
#include "model/timefmt.h"
#include "tui/results_view.h"
#include "tui/timeline/timeline_int.h"

/* Matches in view whose durations the search line reads for its
 * percentiles: few enough to read on every change of the view. */
#define HL_DIST_MAX 10000

#define HL_ROWS 2		/* the strip and the results line */

static int search_done(struct view *v, const char *text);

static struct view *query_help(struct view *v)
{
	(void)v;
	return help_query_open();
}

static const struct prompt_spec search_spec = {
	.lead = '/',
	.history = "search",
	.done = search_done,
	.help = query_help,
};

int timeline_search_prompt(struct timeline *tl)
{
	tui_prompt(tl->view.tui, &search_spec, NULL);
	return 0;
}

static int search_done(struct view *v, const char *text)
{
	struct timeline *tl = (struct timeline *)v;

	if (!*text) {
		timeline_hl_clear(tl);
		return 0;
	}
	return timeline_search(tl, text);
}

void timeline_hl_clear(struct timeline *tl)
{
	struct highlight *h = &tl->hl;

	search_free(h->search);
	search_free(h->search_b);
	free(h->text);
	free(h->ids);
	free(h->ids_b);
	for (size_t i = 0; h->frames && i < tl->tr.n; i++)
		free(h->frames[i].hits);
	free(h->frames);
	free(h->density);
	free(h->seen);
	keywatch_free(&h->kw);
	search_stats_free(&h->stats);
	search_stats_free(&h->stats_b);
	memset(h, 0, sizeof(*h));
	tl->hl_rows = 0;
	timeline_layout(tl);
}

void timeline_rows_changed(struct timeline *tl, size_t old_n)
{
	struct highlight *h = &tl->hl;

	tl->box.on = 0;
	timeline_flowmarks_forget(tl);
	if (!h->frames)
		return;
	for (size_t i = 0; i < old_n; i++)
		free(h->frames[i].hits);
	free(h->frames);
	h->frames = xcalloc(tl->tr.n + 1, sizeof(*h->frames));
}

static void hl_start(struct timeline *tl, enum hl_kind kind, const char *text)
{
	timeline_hl_clear(tl);
	tl->hl.kind = kind;
	tl->hl.text = xstrdup(text);
	tl->hl.frames = xcalloc(tl->tr.n + 1, sizeof(*tl->hl.frames));
	tl->hl.seen = xcalloc(HL_SEEN_SLOTS, sizeof(*tl->hl.seen));
	tl->hl_rows = HL_ROWS;
	timeline_layout(tl);
}

static int search_start(struct timeline *tl, struct search *s, char *err)
{
	if (!s) {
		err_set("%s", err ? err : "bad query");
		free(err);
		return -1;
	}
	hl_start(tl, HL_SEARCH, search_text(s));
	tl->hl.search = s;
	return timeline_hl_side_b(tl);
}

int timeline_search(struct timeline *tl, const char *text)
{
	char *err = NULL;
	struct search *s = search_new(tl->m, tl->prof.id, text, &err);

	return search_start(tl, s, err);
}

int timeline_search_query(struct timeline *tl, struct query *q)
{
	char *err = NULL;
	struct search *s = search_new_query(tl->m, tl->prof.id, q, &err);
	struct userdata *u = tui_userdata(tl->view.tui);

	if (search_start(tl, s, err))
		return -1;
	/* / then Up recalls it, to refine: its text parses back the same */
	if (u && history_add(u, "search", search_text(s)))
		tui_error(tl->view.tui, "%s", err_get());
	return 0;
}

int timeline_layer(struct timeline *tl, const char *row)
{
	int64_t *ids;
	size_t n;

	if (layers_row_ids(tl->m, tl->prof.id, row, &ids, &n))
		return -1;
	hl_start(tl, HL_LAYER, row);
	tl->hl.ids = ids;
	tl->hl.nids = n;
	return timeline_hl_side_b(tl);
}

int timeline_hl_side_b(struct timeline *tl)
{
	struct highlight *h = &tl->hl;
	char *err = NULL;

	if (!tl->tr.mb || h->search_b || h->ids_b)
		return 0;
	if (h->kind == HL_LAYER)
		return layers_row_ids(tl->tr.mb, tl->prof_b.id, h->text,
				      &h->ids_b, &h->nids_b);
	if (h->kind != HL_SEARCH)
		return 0;
	/* B highlights what the same text finds in B, if it can */
	h->search_b = search_new(tl->tr.mb, tl->prof_b.id,
				 search_text(h->search), &err);
	free(err);
	h->svalid = h->dvalid = 0;
	return 0;
}

/* Before a search's reading on model m: where it reads events, a key
 * may stop it (until timeline_hl_settle); -1 when a key stopped it. */
static int watch(struct timeline *tl, struct model *m,
		 const struct search *s)
{
	struct highlight *h = &tl->hl;

	if (h->kw.stopped)
		return -1;
	if (!search_reads_events(s))
		return 0;
	model_set_stop(m, keywatch_check, &h->kw);
	return keywatch_begin(&h->kw, tl->view.tui,
			      "searching event by event for", h->text);
}

/* The frame of search s (on model m), read so that a key can stop it. */
static int watched_frame(struct timeline *tl, struct model *m,
			 struct search *s, const struct mtrack *t,
			 int64_t t0, int64_t colw, int ncols, int64_t *hits)
{
	int rc = watch(tl, m, s) ? -1 :
		 search_frame(s, t, t0, colw, ncols, hits);

	model_set_stop(m, NULL, NULL);
	return rc;
}

/* The same for the statistics of the matches in [t0, t1). */
static int watched_stats(struct timeline *tl, struct model *m,
			 struct search *s, const struct mtrack *t, size_t n,
			 int64_t t0, int64_t t1, struct search_stats *out)
{
	int rc = watch(tl, m, s) ? -1 : search_stats(s, t, n, t0, t1, out);

	model_set_stop(m, NULL, NULL);
	return rc;
}

static int one_track_hits(struct timeline *tl, int side,
			  const struct mtrack *t, int64_t t0, int64_t colw,
			  int ncols, int64_t *hits)
{
	struct highlight *h = &tl->hl;

	if (side) {
		t0 -= tl->tr.shift;
		if (h->kind == HL_LAYER)
			return layers_frame(tl->tr.mb, t, h->ids_b, h->nids_b,
					    t0, colw, ncols, hits);
		if (h->search_b)
			return watched_frame(tl, tl->tr.mb, h->search_b, t,
					       t0, colw, ncols, hits);
		memset(hits, 0, (size_t)ncols * sizeof(*hits));
		return 0;
	}
	if (h->kind == HL_SEARCH)
		return watched_frame(tl, tl->m, h->search, t, t0, colw,
				       ncols, hits);
	return layers_frame(tl->m, t, h->ids, h->nids, t0, colw, ncols, hits);
}

/* The hits of tracks t[0..n) of one side, added to sum. */
static int add_hits(struct timeline *tl, int side, const struct mtrack *t,
		    size_t n, int64_t t0, int64_t colw, int ncols,
		    int64_t *sum)
{
	int64_t *one = xcalloc((size_t)ncols, sizeof(*one));

	for (size_t j = 0; j < n; j++) {
		if (one_track_hits(tl, side, &t[j], t0, colw, ncols, one)) {
			free(one);
			return -1;
		}
		for (int c = 0; c < ncols; c++)
			sum[c] += one[c];
	}
	free(one);
	return 0;
}

/* Hits of the tracks line i draws, added up. */
static int track_hits(struct timeline *tl, size_t i, int64_t t0,
		      int64_t colw, int ncols, int64_t *hits)
{
	size_t n;
	const struct mtrack *t = tracks_members(&tl->tr, i, &n);
	int side = tl->tr.st[i].side;

	if (n == 1)
		return one_track_hits(tl, side, t, t0, colw, ncols, hits);
	memset(hits, 0, (size_t)ncols * sizeof(*hits));
	return add_hits(tl, side, t, n, t0, colw, ncols, hits);
}

static void hl_fail(struct timeline *tl)
{
	if (!tl->hl.failed && !tl->hl.kw.stopped)
		tui_error(tl->view.tui, "%s", err_get());
	tl->hl.failed = 1;
}

int timeline_hl_settle(struct timeline *tl)
{
	char *text;

	if (!keywatch_end(&tl->hl.kw))
		return 0;
	text = xstrdup(tl->hl.text);
	timeline_hl_clear(tl);
	tui_message_past_key(tl->view.tui, "search %s stopped by a key: it"
			     " tests events one by one; zoom in, or search a"
			     " field (name~, opcode=, row=)", text);
	free(text);
	return 1;
}

/* Hits of track i (a group: the sum of the tracks under it). */
static const int64_t *frame_of(struct timeline *tl, size_t i)
{
	struct hl_frame *f = &tl->hl.frames[i];

	if (f->valid && f->t0 == tl->t0 && f->colw == tl->colw &&
	    f->ncols == tl->ncols)
		return f->hits;
	f->hits = xreallocarray(f->hits, (size_t)tl->ncols, sizeof(*f->hits));
	memset(f->hits, 0, (size_t)tl->ncols * sizeof(*f->hits));
	if (tl->tr.st[i].is_group) {
		int depth = tl->tr.st[i].depth;

		for (size_t k = i + 1; k < tl->tr.n &&
		     tl->tr.st[k].depth > depth; k++) {
			const int64_t *h;

			if (tl->tr.st[k].is_group)
				continue;
			h = frame_of(tl, k);
			if (!h)
				return NULL;
			for (int c = 0; c < tl->ncols; c++)
				f->hits[c] += h[c];
		}
	} else if (track_hits(tl, i, tl->t0, tl->colw, tl->ncols, f->hits)) {
		hl_fail(tl);
		return NULL;
	}
	f->t0 = tl->t0;
	f->colw = tl->colw;
	f->ncols = tl->ncols;
	f->valid = 1;
	return f->hits;
}

const int64_t *timeline_hl_hits(struct timeline *tl, size_t i)
{
	if (tl->hl.kind == HL_NONE ||
	    (tl->tr.st[i].is_group && !tl->tr.st[i].folded))
		return NULL;
	return frame_of(tl, i);
}

/* On one of profile B's rows: B's layer ids, B's search (not
 * remembered: the ids are B's). */
static int hl_event_b(struct timeline *tl, const struct mcell *c)
{
	struct highlight *h = &tl->hl;
	int m;

	if (h->kind == HL_LAYER) {
		for (size_t k = 0; k < h->nids_b; k++)
			if (h->ids_b[k] == c->top_cat)
				return 1;
		return 0;
	}
	if (h->kind != HL_SEARCH || !h->search_b || !c->top_slice)
		return 0;
	m = search_match(h->search_b, c->top_slice);
	if (m < 0)
		hl_fail(tl);
	return m > 0;
}

int timeline_hl_event(struct timeline *tl, size_t i, const struct mcell *c)
{
	struct highlight *h = &tl->hl;
	struct hl_seen *slot;
	int m;

	if (tl->tr.st[i].side)
		return hl_event_b(tl, c);
	if (h->kind == HL_LAYER) {
		for (size_t k = 0; k < h->nids; k++)
			if (h->ids[k] == c->top_cat)
				return 1;
		return 0;
	}
	if (h->kind != HL_SEARCH || !c->top_slice)
		return 0;
	slot = &h->seen[(uint64_t)c->top_slice % HL_SEEN_SLOTS];
	if (slot->id == c->top_slice)
		return slot->match;
	m = search_match(h->search, c->top_slice);
	if (m < 0) {
		hl_fail(tl);
		return 0;
	}
	*slot = (struct hl_seen){ c->top_slice, m };
	return m;
}

const struct mtrack *timeline_side_tracks(const struct timeline *tl, int side,
					  size_t *n)
{
	*n = side ? tl->tr.nall_b : tl->tr.nall;
	return side ? tl->tr.all_b : tl->tr.all;
}

/* Hits over the whole axis, one column per strip cell: stacked, A's
 * and B's together. */
static const int64_t *density(struct timeline *tl, int64_t *colw)
{
	struct highlight *h = &tl->hl;
	int64_t len = tl->end - tl->start;

	*colw = NX_MAX((len + tl->ncols - 1) / tl->ncols, 1);
	if (h->dvalid && h->dcols == tl->ncols)
		return h->density;
	h->density = xreallocarray(h->density, (size_t)tl->ncols,
				   sizeof(*h->density));
	h->dcols = tl->ncols;
	memset(h->density, 0, (size_t)tl->ncols * sizeof(*h->density));
	for (int side = 0; side < (tl->tr.mb ? 2 : 1); side++) {
		size_t n;
		const struct mtrack *t = timeline_side_tracks(tl, side, &n);

		if (add_hits(tl, side, t, n, tl->start, *colw, tl->ncols,
			     h->density)) {
			hl_fail(tl);
			return NULL;
		}
	}
	h->dvalid = 1;
	return h->density;
}

/* The part of the view inside the profile. */
static void view_range(const struct timeline *tl, int64_t *t0, int64_t *t1)
{
	*t0 = NX_MAX(tl->t0, tl->start);
	*t1 = NX_MIN(timeline_end(tl), tl->end + 1);
	if (*t1 <= *t0)
		*t1 = *t0 + 1;
}

/* Matches in the view: A's, and B's in stats_b when stacked. */
static const struct search_stats *view_stats(struct timeline *tl)
{
	struct highlight *h = &tl->hl;
	int64_t t0, t1, sh = tl->tr.shift;
	size_t nb;
	const struct mtrack *tb = timeline_side_tracks(tl, 1, &nb);

	view_range(tl, &t0, &t1);
	if (h->svalid && h->s_t0 == t0 && h->s_t1 == t1 && h->s_shift == sh)
		return &h->stats;
	search_stats_free(&h->stats);
	search_stats_free(&h->stats_b);
	h->svalid = 0;
	if (watched_stats(tl, tl->m, h->search, tl->tr.all, tl->tr.nall,
			    t0, t1, &h->stats) ||
	    (h->search_b && watched_stats(tl, tl->tr.mb, h->search_b, tb,
					    nb, t0 - sh, t1 - sh,
					    &h->stats_b))) {
		hl_fail(tl);
		return NULL;
	}
	/* read on every change of the view: fewer than the list reads;
	 * one profile only (percentiles()) */
	if (!h->search_b &&
	    search_dist(h->search, t0, t1, h->stats.count <= HL_DIST_MAX ?
			h->stats.count : 0, &h->sd)) {
		hl_fail(tl);
		return NULL;
	}
	h->s_t0 = t0;
	h->s_t1 = t1;
	h->s_shift = sh;
	h->svalid = 1;
	return &h->stats;
}

static void draw_strip(struct timeline *tl, WINDOW *win, int y)
{
	int x0 = tl->labelw + 1, n = tl->ncols;
	int64_t colw, max = 0;
	const int64_t *d = density(tl, &colw);

	draw_str(win, y, 0, tl->labelw, tl->hl.kind == HL_SEARCH ?
		 "matches" : "layer", draw_style(S_DIM));
	if (!d)
		return;
	for (int c = 0; c < n; c++)
		max = NX_MAX(max, d[c]);
	for (int c = 0; c < n; c++) {
		int64_t lo = tl->start + (int64_t)c * colw;
		int in_view = lo + colw > tl->t0 && lo < timeline_end(tl);
		attr_t a = draw_style(in_view ? S_STRIP_VIEW : S_STRIP);
		int level;

		if (!d[c]) {
			if (in_view)
				draw_str(win, y, x0 + c, 1, " ", a);
			continue;
		}
		/* log scale: one match still shows next to thousands */
		level = max > 1 ? (int)lround(log((double)d[c]) /
					      log((double)max) * 7.0) : 7;
		level = NX_MIN(NX_MAX(level, 0), 7);
		draw_str(win, y, x0 + c, 1, draw_glyph(G_SPARK0 + level), a);
	}
}

struct row_count {
	const char *name;
	size_t line;		/* SIZE_MAX: not on screen */
	int side;
	int64_t n;
};

static int cmp_count(const void *a, const void *b)
{
	const struct row_count *x = a, *y = b;

	return x->n != y->n ? (x->n > y->n ? -1 : 1) : strcmp(x->name, y->name);
}

/* ", p50 1 us, p90 2 us, p99 3 us" of two or more matches in view,
 * when they were read and fit on the line with the first of the
 * per-row counts (first_row columns), which matter more. Not for a
 * search over two stacked profiles: its line counts both sides. */
static void percentiles(const struct timeline *tl, struct strbuf *sb,
			size_t first_row)
{
	const struct dist *d = &tl->hl.sd.dist;
	char a[48], b[48], c[48], line[160];
	int n;

	if (tl->hl.search_b || !d->measured || tl->hl.stats.count < 2)
		return;
	timefmt_dur(a, sizeof(a), d->p50, 3, draw_tf());
	timefmt_dur(b, sizeof(b), d->p90, 3, draw_tf());
	timefmt_dur(c, sizeof(c), d->p99, 3, draw_tf());
	n = snprintf(line, sizeof(line), ", p50 %s, p90 %s, p99 %s", a, b, c);
	if (n > 0 && (size_t)text_width(sb_cstr(sb)) + (size_t)n + first_row <=
		     (size_t)NX_MAX(tl->view.width, 0))
		sb_adds(sb, line);
}

/* Adds one side's per-track counts to rc by line: a system row may
 * merge several tracks. */
static size_t count_lines(struct timeline *tl, int side,
			  const struct search_stats *st, struct row_count *rc,
			  size_t n)
{
	for (size_t i = 0; i < st->nrows; i++) {
		size_t k = side ? tracks_find_side(&tl->tr, 1, st->rows[i].track)
				: timeline_track_index(tl, st->rows[i].track);
		size_t j;

		for (j = 0; j < n && (k == SIZE_MAX || rc[j].line != k); j++)
			;
		if (j == n) {
			rc[n].name = k == SIZE_MAX ? "?" : tl->tr.t[k].name;
			rc[n].side = side;
			rc[n++].line = k;
		}
		rc[j].n += st->rows[i].n;
	}
	return n;
}

/* The count and time of the matches in view; stacked, A's then B's. */
static void count_text(struct timeline *tl, const struct search_stats *st,
		       struct strbuf *sb)
{
	const struct search_stats *b = &tl->hl.stats_b;
	const char *sep = draw_glyph(G_SIDES);
	char d[48], db[48];

	timefmt_dur(d, sizeof(d), st->dur, 3, draw_tf());
	if (!tl->hl.search_b) {
		sb_printf(sb, "in view: %" PRId64 " match%s, %s", st->count,
			  st->count == 1 ? "" : "es", d);
		return;
	}
	timefmt_dur(db, sizeof(db), b->dur, 3, draw_tf());
	sb_printf(sb, "in view: A %" PRId64 " %s B %" PRId64 " matches, "
		  "A %s %s B %s", st->count, sep, b->count, d, sep, db);
}

static void results_line(struct timeline *tl, struct strbuf *sb)
{
	const struct search_stats *st = view_stats(tl);
	struct row_count *rc;
	struct strbuf rows;
	size_t n, first = 0;

	sb_printf(sb, "/%s  ", tl->hl.text);
	if (!st)
		return;
	count_text(tl, st, sb);
	if (!st->count && !tl->hl.search_b && search_hint(tl->hl.search))
		sb_printf(sb, " (%s)", search_hint(tl->hl.search));
	rc = xcalloc(st->nrows + tl->hl.stats_b.nrows + 1, sizeof(*rc));
	n = count_lines(tl, 0, st, rc, 0);
	n = count_lines(tl, 1, &tl->hl.stats_b, rc, n);
	if (n > 1)
		qsort(rc, n, sizeof(*rc), cmp_count);
	sb_init(&rows);
	for (size_t i = 0; i < n; i++) {
		sb_printf(&rows, "%s %s%s %" PRId64, i ? "," : " ", rc[i].name,
			  rc[i].side ? " (B)" : "", rc[i].n);
		if (!i)
			first = (size_t)text_width(sb_cstr(&rows));
	}
	percentiles(tl, sb, first);
	sb_adds(sb, sb_cstr(&rows));
	sb_free(&rows);
	free(rc);
}

void timeline_hl_draw(struct timeline *tl, WINDOW *win, int y)
{
	struct strbuf sb;

	if (tl->hl.kind == HL_NONE)
		return;
	draw_strip(tl, win, y);
	sb_init(&sb);
	if (tl->hl.kind == HL_SEARCH)
		results_line(tl, &sb);
	else
		sb_printf(&sb, "layer %s  (Esc clears the colours)", tl->hl.text);
	draw_text(win, y + 1, 0, tl->view.width, sb_cstr(&sb),
		  draw_style(S_HELP_KEY), 0);
	sb_free(&sb);
}

/* The next match of one side after (ts, id) on the axis; 0 found. */
static int step_side(struct timeline *tl, int side, int64_t ts, int64_t id,
		     int dir, struct mslice *s)
{
	struct search *q = side ? tl->hl.search_b : tl->hl.search;
	struct model *m = side ? tl->tr.mb : tl->m;
	int64_t sh = side ? tl->tr.shift : 0;
	int rc;

	if (!q)
		return 1;
	if (ts != INT64_MIN && ts != INT64_MAX)
		ts -= sh;
	rc = watch(tl, m, q) ? -1 : search_step(q, ts, id, dir, s);
	model_set_stop(m, NULL, NULL);
	if (!rc)
		s->ts += sh;
	return rc;
}

/* The next match on either side, in (time, side, id) order: at one
 * time A's come before B's. from_sel: from the event jumped to. 0
 * found, with its side. */
static int step_both(struct timeline *tl, int64_t ts, int from_sel, int dir,
		     struct mslice *s, int *side)
{
	int found = 0;

	for (int k = 0; k < (tl->tr.mb ? 2 : 1); k++) {
		struct mslice x;
		int64_t id = 0;
		int rc;

		if (from_sel)
			id = k == tl->sel_side ? tl->sel.id :
			     k < tl->sel_side ? INT64_MAX : 0;
		rc = step_side(tl, k, ts, id, dir, &x);
		if (rc < 0)
			return -1;
		if (rc || (found && (dir > 0 ? x.ts >= s->ts : x.ts < s->ts)))
			continue;
		*s = x;
		*side = k;
		found = 1;
	}
	return !found;
}

void timeline_hl_step(struct timeline *tl, int dir)
{
	struct mslice s;
	int from_sel = tl->sel.id && tl->sel.ts == tl->cur;
	const char *wrapped = NULL;
	char when[48];
	size_t i;
	int rc, side = 0;

	if (tl->hl.kind != HL_SEARCH) {
		tui_message(tl->view.tui, "no search: / starts one");
		return;
	}
	rc = step_both(tl, tl->cur, from_sel, dir, &s, &side);
	if (rc == 1) {
		/* wrap around, like vi */
		rc = step_both(tl, dir > 0 ? INT64_MIN : INT64_MAX, 0, dir, &s,
			       &side);
		wrapped = dir > 0 ? "; wrapped to the first" :
				    "; wrapped to the last";
	}
	if (rc < 0 && !tl->hl.kw.stopped)
		tui_error(tl->view.tui, "%s", err_get());
	/* the step's watch ends here; the frame after it keeps its own */
	if (timeline_hl_settle(tl) || rc < 0)
		return;
	if (rc == 1) {
		const char *h = search_hint(tl->hl.search);

		tui_message(tl->view.tui, "/%s: no match%s%s%s", tl->hl.text,
			    h ? " (" : "", h ? h : "", h ? ")" : "");
		return;
	}
	i = tracks_find_side(&tl->tr, side, s.track_id);
	if (i == SIZE_MAX)
		return;
	timeline_goto(tl, s.ts, i);
	tl->sel = s;
	tl->sel_side = side;
	timeline_fmt_rel(tl, s.ts, when, sizeof(when));
	tui_message(tl->view.tui, "%s on %s%s at %s%s",
		    model_string(tracks_model(&tl->tr, i), s.name),
		    tl->tr.t[i].name, !tl->tr.mb ? "" : side ? " (B)" : " (A)",
		    when, wrapped ? wrapped : "");
}

void timeline_matches(struct timeline *tl)
{
	int64_t t0, t1;
	struct view *v;
	int stop;

	if (tl->hl.kind != HL_SEARCH) {
		tui_message(tl->view.tui, "no search: / starts one");
		return;
	}
	view_range(tl, &t0, &t1);
	v = results_open(tl, tl->hl.search, t0, t1, &stop);
	if (v)
		tui_push(tl->view.tui, v);
	else if (!stop)
		tui_error(tl->view.tui, "%s", err_get());
}

int timeline_search_export(struct timeline *tl, enum out_format fmt, FILE *f)
{
	int64_t t0, t1;
	struct mprofile p = timeline_axis_profile(tl);

	view_range(tl, &t0, &t1);
	return export_search(tl->m, tl->hl.search, &p, t0, t1, fmt, f);
}
