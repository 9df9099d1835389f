/* Scrolling, drawing, filtering and sorting shared by every list. */
#include "config.h"

#include "tui/list.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tui/keys.h"
#include "model/text.h"
#include "model/util.h"
#include "tui/pager.h"

#define COL_GAP 2		/* blanks between columns */
#define FIT_MAX 42		/* widest column list_fit_cols makes */
#define FIRST_MIN 16		/* the first column gives way down to this */
#define TITLE_MAX 32		/* columns of a pager's title from a cell */

static const struct prompt_spec filter_spec;

void list_init(struct list *l, const struct view_ops *vops,
	       const struct list_ops *ops, int flags, const char *title)
{
	l->view.ops = vops;
	l->view.title = xstrdup(title);
	l->ops = ops;
	l->flags = flags;
	l->sort_col = -1;
	l->dirty = 1;
}

static void scratch_size(struct list *l)
{
	struct list_line *s = &l->scratch;

	for (int c = 0; s->cells && c < l->ncols; c++)
		sb_free(&s->cells[c]);
	free(s->cells);
	free(s->keys);
	s->cells = xcalloc((size_t)NX_MAX(l->ncols, 1), sizeof(*s->cells));
	s->keys = xcalloc((size_t)NX_MAX(l->ncols, 1), sizeof(*s->keys));
}

void list_set_cols(struct list *l, const struct list_col *cols, int n)
{
	struct list_line *s = &l->scratch;

	for (int c = 0; s->cells && c < l->ncols; c++)
		sb_free(&s->cells[c]);
	free(s->cells);
	s->cells = NULL;
	free(l->cols);
	free(l->want);
	l->cols = xcalloc((size_t)NX_MAX(n, 1), sizeof(*l->cols));
	l->want = xcalloc((size_t)NX_MAX(n, 1), sizeof(*l->want));
	memcpy(l->cols, cols, (size_t)n * sizeof(*cols));
	l->ncols = n;
	if (l->sort_col >= n)
		l->sort_col = -1;
	l->hscroll = 0;
	scratch_size(l);
	l->dirty = 1;
}

static struct list_line *fetch(struct list *l, size_t i);

static int clean_width(const char *s)
{
	struct strbuf clean;
	int w;

	sb_init(&clean);
	text_sanitize(&clean, s, draw_ascii());
	w = text_width(sb_cstr(&clean));
	sb_free(&clean);
	return w;
}

void list_fit_cols(struct list *l)
{
	size_t n = l->ops->count(l);

	for (int c = 0; c < l->ncols; c++)
		l->cols[c].width = l->want[c] = text_width(l->cols[c].name);
	for (size_t i = 0; i < n; i++) {
		struct list_line *s = fetch(l, i);

		for (int c = 0; c < l->ncols && !s->span; c++) {
			int w = clean_width(sb_cstr(&s->cells[c]));

			l->want[c] = NX_MAX(l->want[c], w);
			l->cols[c].width = NX_MAX(l->cols[c].width,
						  NX_MIN(w, FIT_MAX));
		}
	}
}

void list_fit_col(struct list *l, int c, int widest)
{
	int title = text_width(l->cols[c].name);

	l->want[c] = NX_MAX(title, widest);
	l->cols[c].width = NX_MAX(title, NX_MIN(widest, FIT_MAX));
}

/* Source line i into the scratch line. */
static struct list_line *fetch(struct list *l, size_t i)
{
	struct list_line *s = &l->scratch;

	for (int c = 0; c < l->ncols; c++) {
		sb_reset(&s->cells[c]);
		s->keys[c] = NAN;
	}
	s->style = S_NORMAL;
	s->span = 0;
	l->ops->line(l, i, s);
	return s;
}

static int line_has(struct list *l, size_t i, const char *text)
{
	struct list_line *s = fetch(l, i);

	for (int c = 0; c < (s->span ? 1 : l->ncols); c++)
		if (strcasestr(sb_cstr(&s->cells[c]), text))
			return 1;
	return 0;
}

struct sort_key {
	size_t i;
	double num;
	char *text;
};

/* arg: 1 for a descending order */
static int cmp_key(const void *a, const void *b, void *arg)
{
	const struct sort_key *x = a, *y = b;
	int r;

	if (!isnan(x->num) && !isnan(y->num))
		r = x->num < y->num ? -1 : x->num > y->num;
	else if (isnan(x->num) != isnan(y->num))
		r = isnan(x->num) ? 1 : -1;	/* numbers first */
	else
		r = strcasecmp(x->text, y->text);
	if (*(const int *)arg)
		r = -r;
	return r ? r : (x->i < y->i ? -1 : x->i > y->i);
}

/* A number at the start of a cell ("1.25 ms" sorts by 1.25 ms): the
 * source's own key when it gave one. */
static double cell_number(const struct list_line *s, int c)
{
	const char *t = sb_cstr(&s->cells[c]);
	char *end;
	double v;

	if (!isnan(s->keys[c]))
		return s->keys[c];
	v = strtod(t, &end);
	return end == t ? NAN : v;
}

static void sort_order(struct list *l)
{
	struct sort_key *k;

	if (l->sort_col < 0 || l->norder < 2)
		return;
	k = xcalloc(l->norder, sizeof(*k));
	for (size_t n = 0; n < l->norder; n++) {
		struct list_line *s = fetch(l, l->order[n]);

		k[n].i = l->order[n];
		k[n].num = cell_number(s, l->sort_col);
		k[n].text = xstrdup(sb_cstr(&s->cells[l->sort_col]));
	}
	qsort_r(k, l->norder, sizeof(*k), cmp_key, &l->sort_desc);
	for (size_t n = 0; n < l->norder; n++) {
		l->order[n] = k[n].i;
		free(k[n].text);
	}
	free(k);
}

/* Small lists: which source lines show, in which order. */
static void rebuild(struct list *l)
{
	size_t n;

	if (!l->dirty || !(l->flags & LIST_SMALL))
		return;
	l->dirty = 0;
	n = l->ops->count(l);
	l->order = xreallocarray(l->order, NX_MAX(n, 1), sizeof(*l->order));
	l->norder = 0;
	for (size_t i = 0; i < n; i++)
		if (!l->filter || l->ops->filter || line_has(l, i, l->filter))
			l->order[l->norder++] = i;
	if (!l->ops->sort)
		sort_order(l);
}

/* Lines the list shows (after filtering). */
static size_t list_count(struct list *l)
{
	rebuild(l);
	return (l->flags & LIST_SMALL) ? l->norder : l->ops->count(l);
}

static size_t source_of(struct list *l, size_t row)
{
	return (l->flags & LIST_SMALL) ? l->order[row] : row;
}

size_t list_current(struct list *l)
{
	size_t n = list_count(l);

	if (!n)
		return SIZE_MAX;
	return source_of(l, NX_MIN(l->cur, n - 1));
}

void list_changed(struct list *l)
{
	size_t n;

	l->dirty = 1;
	n = list_count(l);
	if (l->cur >= n)
		l->cur = n ? n - 1 : 0;
}

/* Room left on a screen of width for columns cut to their width:
 * each grows towards its widest cell, or its title when its cells are
 * not known, left to right. */
static void share_room(struct list *l, int n, const int *idx, int *w,
		       int width)
{
	int used = 0;

	for (int k = 0; k < n; k++)
		used += w[k] + (k ? COL_GAP : 0);
	for (int k = 0; k < n && used < width; k++) {
		int want = NX_MAX(l->want[idx[k]],
				  text_width(l->cols[idx[k]].name));
		int more = NX_MIN(want - w[k], width - used);

		if (more > 0) {
			w[k] += more;
			used += more;
		}
	}
}

/* Column widths on screen: the first column stays, the others scroll;
 * a last column that fits takes what is left. Returns how many columns
 * show, their indices in idx and widths in w. */
static int layout(struct list *l, int width, int *idx, int *w)
{
	int n = 0, x = 0, total = 0, first;

	for (int c = 0; c < l->ncols; c++)
		if (c == 0 || c > l->hscroll)
			total += l->cols[c].width + COL_GAP;
	/* a wide first column shrinks to let more columns in */
	first = l->ncols ? l->cols[0].width : 0;
	if (total - COL_GAP > width)
		first = NX_MAX(NX_MIN(first, NX_MAX(width / 3,
					first - (total - COL_GAP - width))),
			       NX_MIN(first, FIRST_MIN));
	for (int c = 0; c < l->ncols; c++) {
		if (c > 0 && c <= l->hscroll)
			continue;
		if (n && x >= width)
			break;
		idx[n] = c;
		w[n] = NX_MIN(c ? l->cols[c].width : first, width - x);
		x += w[n] + COL_GAP;
		n++;
	}
	if (n && idx[n - 1] == l->ncols - 1)
		share_room(l, n, idx, w, width);
	/* a last column of text takes what is left */
	x = 0;
	for (int k = 0; k < n; k++)
		x += w[k] + COL_GAP;
	if (n && idx[n - 1] == l->ncols - 1 && !l->cols[l->ncols - 1].right &&
	    x - COL_GAP < width)
		w[n - 1] += width - (x - COL_GAP);
	return n;
}

/* Untrusted text cut at the start when too long: "…/self/query". */
static void draw_tail(WINDOW *win, int y, int x, int w, const char *s,
		      attr_t a)
{
	struct strbuf clean;
	const char *p;

	sb_init(&clean);
	text_sanitize(&clean, s, draw_ascii());
	p = sb_cstr(&clean);
	if (text_width(p) <= w || w < 2) {
		draw_str(win, y, x, w, p, a);
	} else {
		while (*p && text_width(p) > w - 1) {
			unsigned cp;
			size_t n = text_utf8_char((const unsigned char *)p,
						  strlen(p), &cp);

			p += n ? n : 1;
		}
		draw_str(win, y, x, 1, draw_glyph(G_ELLIPSIS), a);
		draw_str(win, y, x + 1 + (w - 1 - text_width(p)), w - 1, p, a);
	}
	sb_free(&clean);
}

static void draw_cells(struct list *l, WINDOW *win, int y,
		       struct strbuf *cells, attr_t a, int n, const int *idx,
		       const int *w)
{
	int x = 0;

	for (int k = 0; k < n; k++) {
		const char *s = sb_cstr(&cells[idx[k]]);

		if (l->cols[idx[k]].right) {
			int tw = clean_width(s);

			draw_text(win, y, x + NX_MAX(w[k] - tw, 0),
				  NX_MIN(w[k], tw), s, a, 0);
		} else if (l->cols[idx[k]].tail) {
			draw_tail(win, y, x, w[k], s, a);
		} else {
			draw_text(win, y, x, w[k], s, a, 0);
		}
		x += w[k] + COL_GAP;
	}
}

static void draw_titles(struct list *l, WINDOW *win, int y, int width,
			int n, const int *idx, const int *w)
{
	struct strbuf *names = xcalloc((size_t)l->ncols, sizeof(*names));

	for (int c = 0; c < l->ncols; c++) {
		sb_init(&names[c]);
		sb_adds(&names[c], l->cols[c].name);
		if (c == l->sort_col)
			sb_printf(&names[c], " %s", draw_glyph(l->sort_desc ?
							    G_SORT_DOWN :
							    G_SORT_UP));
	}
	draw_fill(win, y, 0, width, draw_style(S_PANE_TITLE));
	draw_cells(l, win, y, names, draw_style(S_PANE_TITLE), n, idx, w);
	for (int c = 0; c < l->ncols; c++)
		sb_free(&names[c]);
	free(names);
}

static void keep_cursor_shown(struct list *l, int rows)
{
	size_t n = list_count(l);

	if (l->cur >= n)
		l->cur = n ? n - 1 : 0;
	if (l->cur < l->top)
		l->top = l->cur;
	if (rows > 0 && l->cur >= l->top + (size_t)rows)
		l->top = l->cur - (size_t)rows + 1;
	if (n <= (size_t)NX_MAX(rows, 0))
		l->top = 0;
	else if (l->top + (size_t)rows > n)
		l->top = n - (size_t)rows;
}

void list_draw(struct view *v, WINDOW *win)
{
	struct list *l = (struct list *)v;
	int idx[64], w[64], n, rows = v->height - 1;
	size_t count;

	if (l->ops->reload)
		l->ops->reload(l);
	if (l->ncols > 64)
		l->ncols = 64;
	n = layout(l, v->width, idx, w);
	draw_titles(l, win, v->top, v->width, n, idx, w);
	count = list_count(l);
	keep_cursor_shown(l, rows);
	if (!count) {
		draw_str(win, v->top + 1, 1, v->width - 1,
			 l->filter ? "no line contains the filter (Esc clears "
				     "it)" : "nothing to show",
			 draw_style(S_DIM));
		return;
	}
	for (int r = 0; r < rows && l->top + (size_t)r < count; r++) {
		size_t row = l->top + (size_t)r;
		struct list_line *s = fetch(l, source_of(l, row));
		attr_t a = row == l->cur ? draw_style(S_LABEL_CURSOR) :
					   draw_style(s->style);
		int y = v->top + 1 + r;

		if (row == l->cur)
			draw_fill(win, y, 0, v->width, a);
		if (s->span)
			draw_text(win, y, 0, v->width, sb_cstr(&s->cells[0]), a, 0);
		else
			draw_cells(l, win, y, s->cells, a, n, idx, w);
	}
}

void list_header(struct view *v, struct strbuf *out)
{
	struct list *l = (struct list *)v;

	if (l->ops->header)
		l->ops->header(l, out);
	if (l->filter && !(l->flags & LIST_FILTER_SHOWN))
		sb_printf(out, "%sfilter: %s", out->len ? "  " : "", l->filter);
}

void list_status(struct view *v, struct strbuf *out)
{
	struct list *l = (struct list *)v;
	size_t n = list_count(l);

	sb_printf(out, "%zu/%zu", n ? l->cur + 1 : 0, n);
}

static int filter_done(struct view *v, const char *text)
{
	struct list *l = (struct list *)v;
	char *old = l->filter;

	l->filter = *text ? xstrdup(text) : NULL;
	if (l->ops->filter && l->ops->filter(l, l->filter ? l->filter : "")) {
		free(l->filter);
		l->filter = old;
		return -1;
	}
	free(old);
	l->cur = l->top = 0;
	l->dirty = 1;
	return 0;
}

static const struct prompt_spec filter_spec = {
	.lead = '/',
	.history = "filter",
	.done = filter_done,
};

static void resort(struct list *l)
{
	if (l->ops->sort)
		l->ops->sort(l, l->sort_col, l->sort_desc);
	else if (!(l->flags & LIST_SMALL))
		return;
	l->dirty = 1;
	l->cur = l->top = 0;
	tui_message(l->view.tui, "sorted by %s%s", l->cols[l->sort_col].name,
		    l->sort_desc ? ", descending" : "");
}

static int can_sort(struct list *l)
{
	if (l->ops->sort || (l->flags & LIST_SMALL))
		return 1;
	tui_message(l->view.tui, "this list keeps its order");
	return 0;
}

/* Every cell of source line i in full, each under its column's name,
 * in a pager titled by the line's first cell. */
static int show_text(struct list *l, size_t i)
{
	struct list_line *s = fetch(l, i);
	int n = s->span ? 1 : l->ncols;
	struct pager_part *parts = xcalloc((size_t)NX_MAX(n, 1),
					   sizeof(*parts));
	const char *first = sb_cstr(&s->cells[0]);
	char *title;

	for (int c = 0; c < n; c++) {
		parts[c].heading = s->span ? NULL : l->cols[c].name;
		parts[c].text = sb_cstr(&s->cells[c]);
		parts[c].len = s->cells[c].len;
	}
	title = *first ? xstrndup(first, text_fit(first, TITLE_MAX)) :
			 xasprintf("line %zu", l->cur + 1);
	tui_push(l->view.tui, pager_open(title, parts, (size_t)n));
	free(title);
	free(parts);
	return 0;
}

/* fn may close the list: nothing of l is used after it. */
static void run(struct list *l, int (*fn)(struct list *, size_t))
{
	size_t i = list_current(l);
	struct tui *t = l->view.tui;

	if (!fn) {
		tui_message(l->view.tui, "nothing to do on this line");
		return;
	}
	if (i == SIZE_MAX) {
		tui_message(l->view.tui, "the list is empty");
		return;
	}
	if (fn(l, i) < 0)
		tui_error(t, "%s", err_get());
}

static int move_request(struct list *l, enum request req)
{
	size_t n = list_count(l);
	size_t page = (size_t)NX_MAX(l->view.height - 2, 1);

	switch (req) {
	case REQ_MOVE_DOWN:
		if (l->cur + 1 < n)
			l->cur++;
		return 0;
	case REQ_MOVE_UP:
		if (l->cur)
			l->cur--;
		return 0;
	case REQ_PAGE_DOWN:
		l->cur = n ? NX_MIN(l->cur + page, n - 1) : 0;
		l->top += page;
		return 0;
	case REQ_PAGE_UP:
		l->cur = l->cur > page ? l->cur - page : 0;
		l->top = l->top > page ? l->top - page : 0;
		return 0;
	case REQ_FIRST_LINE:
		l->cur = 0;
		return 0;
	case REQ_LAST_LINE:
		l->cur = n ? n - 1 : 0;
		return 0;
	case REQ_COLUMNS_LEFT:
		if (l->hscroll)
			l->hscroll--;
		return 0;
	case REQ_COLUMNS_RIGHT:
		if (l->hscroll + 2 < l->ncols)
			l->hscroll++;
		return 0;
	default:
		return 1;
	}
}

int list_request(struct view *v, enum request req)
{
	struct list *l = (struct list *)v;

	if (l->ops->reload)
		l->ops->reload(l);
	if (!move_request(l, req))
		return 0;
	if (l->ops->request && !l->ops->request(l, req))
		return 0;
	switch (req) {
	case REQ_FILTER:
		tui_prompt(v->tui, &filter_spec, l->filter);
		return 0;
	case REQ_SORT:
		if (can_sort(l) && l->ncols) {
			l->sort_col = (l->sort_col + 1) % l->ncols;
			resort(l);
		}
		return 0;
	case REQ_SORT_REVERSE:
		if (can_sort(l) && l->ncols) {
			if (l->sort_col < 0)
				l->sort_col = 0;
			l->sort_desc = !l->sort_desc;
			resort(l);
		}
		return 0;
	case REQ_ENTER:
		run(l, l->ops->enter ? l->ops->enter : show_text);
		return 0;
	case REQ_SHOW_TEXT:
		run(l, show_text);
		return 0;
	case REQ_ZOOM_TO:
		run(l, l->ops->zoom);
		return 0;
	case REQ_CLOSE_PANE:
		if (l->filter)
			filter_done(v, "");
		else
			tui_pop(v->tui);
		return 0;
	default:
		return 1;
	}
}

/* A click selects the line under the pointer, a double-click is Enter
 * on it, the wheel scrolls the lines (the cursor with them). */
int list_mouse(struct view *v, const struct mouse_event *ev)
{
	struct list *l = (struct list *)v;
	size_t n = list_count(l), step = MOUSE_WHEEL_LINES, rows;
	size_t line = l->top + (size_t)NX_MAX(ev->y - v->top - 1, 0);
	int on_line = ev->y > v->top && line < n;

	switch (ev->kind) {
	case MOUSE_CLICK:
		if (on_line)
			l->cur = line;
		return 0;
	case MOUSE_DOUBLE:
		return on_line;
	case MOUSE_WHEEL_UP:
		step = NX_MIN(step, l->top);
		l->top -= step;
		l->cur -= NX_MIN(step, l->cur);
		return 0;
	case MOUSE_WHEEL_DOWN:
		rows = (size_t)NX_MAX(v->height - 1, 0);
		step = n > rows + l->top ? NX_MIN(step, n - rows - l->top) : 0;
		l->top += step;
		l->cur = n ? NX_MIN(l->cur + step, n - 1) : 0;
		return 0;
	case MOUSE_DRAG:
		return 0;
	}
	return 0;
}

/* ":sort COLUMN [desc]" and ":filter TEXT" work in every list. */
static int cmd_sort(struct list *l, int argc, char **argv)
{
	struct strbuf name;
	int found = -1, desc = 0, last = argc;

	if (argc > 2 && (!strcmp(argv[argc - 1], "desc") ||
			 !strcmp(argv[argc - 1], "asc"))) {
		desc = !strcmp(argv[argc - 1], "desc");
		last--;
	}
	sb_init(&name);
	for (int i = 1; i < last; i++)
		sb_printf(&name, "%s%s", i > 1 ? " " : "", argv[i]);
	for (int c = 0; c < l->ncols && found < 0; c++)
		if (!strcasecmp(l->cols[c].name, sb_cstr(&name)))
			found = c;
	if (found < 0) {
		err_set("sort: no column '%s'", sb_cstr(&name));
		sb_free(&name);
		return -1;
	}
	sb_free(&name);
	if (!can_sort(l))
		return 0;
	l->sort_col = found;
	l->sort_desc = desc;
	resort(l);
	return 0;
}

const struct view_cmd list_cmds[] = {
	{ "sort", "COLUMN [asc|desc]", "Sort by a column" },
	{ "filter", "TEXT", "Keep the lines containing TEXT" },
	{ NULL, NULL, NULL },
};

int list_command(struct view *v, int argc, char **argv)
{
	struct list *l = (struct list *)v;
	int rc;

	if (l->ops->command && (rc = l->ops->command(l, argc, argv)) <= 0)
		return rc;
	if (!strcmp(argv[0], "sort") && argc > 1)
		return cmd_sort(l, argc, argv);
	if (!strcmp(argv[0], "filter")) {
		struct strbuf text;

		sb_init(&text);
		for (int i = 1; i < argc; i++)
			sb_printf(&text, "%s%s", i > 1 ? " " : "", argv[i]);
		rc = filter_done(v, sb_cstr(&text));
		sb_free(&text);
		return rc;
	}
	return 1;
}

const char *list_export_name(struct view *v)
{
	struct list *l = (struct list *)v;

	return l->ops->export_name ? l->ops->export_name(l) : NULL;
}

int list_export(struct view *v, enum out_format fmt, FILE *f)
{
	struct list *l = (struct list *)v;

	return l->ops->export ? l->ops->export(l, fmt, f) : -1;
}

void list_close(struct view *v)
{
	struct list *l = (struct list *)v;

	for (int c = 0; l->scratch.cells && c < l->ncols; c++)
		sb_free(&l->scratch.cells[c]);
	free(l->scratch.cells);
	free(l->scratch.keys);
	free(l->cols);
	free(l->want);
	free(l->order);
	free(l->filter);
	free(v->title);
	l->ops->free(l);
}
