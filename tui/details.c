/* Fields are copied (cleaned, their line breaks kept) when an event is
 * loaded and laid out into wrapped lines whenever the width changes.
 * A field with a unit shows it after its key ("transfer_size [B]"), and
 * its description, when the profile has one, follows its value in the
 * pager.
 * A value shows at most DETAILS_VALUE_LINES lines and then its length:
 * laying out a value of megabytes takes no longer than a short one, and
 * Enter on it reads it all in the pager. */
#include "config.h"

#include "tui/details.h"

#include <stdlib.h>
#include <string.h>

#include "tui/draw.h"
#include "model/text.h"
#include "model/util.h"
#include "tui/pager.h"
#include "tui/wrap.h"

#define DETAILS_COL_MIN 48	/* columns of one newspaper column */
#define DETAILS_COLS_MAX 4
#define DETAILS_VALUE_LINES 8	/* lines of a value before its length */
#define DETAILS_TITLE_MAX 512	/* columns of the title kept */

struct field {
	char *group, *key, *value;
	char *description;	/* NULL: none */
	size_t len;		/* bytes of value */
	size_t chars;		/* characters of value */
	size_t line, nlines;	/* its lines in the layout */
};

enum dkind { D_HEADING, D_VALUE, D_MORE };

struct dline {
	size_t f;		/* field index */
	enum dkind kind;
	int first;		/* first line of a field: show the key */
	size_t off, len;	/* D_VALUE: bytes of the value on this line */
};

struct details {
	int64_t slice;
	char *title;
	struct field *fields;
	size_t nfields, cap;
	struct dline *lines;
	size_t nlines, lcap;
	int laid_w;		/* width the lines were laid out for */
	int ncol, colw, keyw, valw;
	size_t top;		/* first line shown */
	size_t cur;		/* the field chosen while focused */
	int page;		/* lines per screen at the last draw */
};

struct details *details_new(void)
{
	return xcalloc(1, sizeof(struct details));
}

static void clear_fields(struct details *d)
{
	for (size_t i = 0; i < d->nfields; i++) {
		free(d->fields[i].group);
		free(d->fields[i].key);
		free(d->fields[i].value);
		free(d->fields[i].description);
	}
	d->nfields = 0;
	d->nlines = 0;
	d->laid_w = 0;
	d->top = 0;
	d->cur = 0;
}

void details_free(struct details *d)
{
	if (!d)
		return;
	clear_fields(d);
	free(d->fields);
	free(d->lines);
	free(d->title);
	free(d);
}

static char *clean(const char *s, size_t *len)
{
	struct strbuf sb;

	sb_init(&sb);
	s = s ? s : "";
	wrap_clean(&sb, s, strlen(s), draw_ascii());
	if (len)
		*len = sb.len;
	return sb_detach(&sb);
}

/* UTF-8 characters of the n bytes at s (invalid bytes count one). */
static size_t count_chars(const char *s, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += ((unsigned char)s[i] & 0xc0) != 0x80;
	return k;
}

/* The key with its unit, unless its label already names it. */
static char *unit_key(const char *key, const struct mfield_doc *doc)
{
	char *k, *paren;

	if (!doc || !doc->unit || !*doc->unit)
		return clean(key, NULL);
	paren = xasprintf("(%s)", doc->unit);
	k = strstr(key, paren) ? xstrdup(key) :
				 xasprintf("%s [%s]", key, doc->unit);
	free(paren);
	paren = clean(k, NULL);
	free(k);
	return paren;
}

static void add_field(void *ctx, const char *group, const char *key,
		      const char *value, const struct mfield_doc *doc)
{
	struct details *d = ctx;
	struct field *f;

	d->fields = xgrow(d->fields, &d->cap, d->nfields + 1,
			  sizeof(*d->fields));
	f = &d->fields[d->nfields++];
	memset(f, 0, sizeof(*f));
	f->group = clean(group, NULL);
	f->key = unit_key(key, doc);
	f->value = clean(value, &f->len);
	if (doc && doc->description && *doc->description)
		f->description = xstrdup(doc->description);
	f->chars = count_chars(f->value, f->len);
}

/* Fields of one group together, groups in the order they first came. */
static void group_fields(struct details *d)
{
	struct field *out = xcalloc(d->nfields + 1, sizeof(*out));
	char *done = xcalloc(d->nfields + 1, 1);
	size_t n = 0;

	for (size_t i = 0; i < d->nfields; i++) {
		const char *g = d->fields[i].group;

		if (done[i])
			continue;
		for (size_t j = i; j < d->nfields; j++) {
			if (!done[j] && !strcmp(d->fields[j].group, g)) {
				out[n++] = d->fields[j];
				done[j] = 1;
			}
		}
	}
	free(d->fields);
	free(done);
	d->fields = out;
	d->cap = d->nfields + 1;
}

/* The title, cleaned, cut where no screen is wide enough to show
 * more (a name of megabytes costs nothing per frame). */
static char *short_title(const char *title)
{
	char *t = clean(title, NULL);
	size_t n = text_fit(t, DETAILS_TITLE_MAX);
	char *cut;

	if (!t[n])
		return t;
	cut = xasprintf("%.*s%s", (int)n, t, draw_glyph(G_ELLIPSIS));
	free(t);
	return cut;
}

int details_load(struct details *d, struct model *m, int64_t slice,
		 const char *title)
{
	int rc;

	clear_fields(d);
	free(d->title);
	d->title = short_title(title);
	d->slice = slice;
	rc = model_slice_fields(m, slice, draw_ascii(), add_field, d);
	group_fields(d);
	return rc;
}

int64_t details_slice(const struct details *d)
{
	return d->slice;
}

static void add_line(struct details *d, size_t f, enum dkind kind,
		     int first, size_t off, size_t len)
{
	d->lines = xgrow(d->lines, &d->lcap, d->nlines + 1, sizeof(*d->lines));
	d->lines[d->nlines++] = (struct dline){ f, kind, first, off, len };
}

/* The lines of field i: its value wrapped, at most DETAILS_VALUE_LINES
 * of them, then a line with its length when it is longer. */
static void layout_field(struct details *d, size_t i, struct wrap *wr)
{
	struct field *f = &d->fields[i];
	size_t laid;

	wr->n = 0;
	laid = wrap_text(wr, f->value, f->len, d->valw, DETAILS_VALUE_LINES);
	f->line = d->nlines;
	for (size_t k = 0; k < wr->n; k++)
		add_line(d, i, D_VALUE, k == 0, wr->lines[k].off,
			 wr->lines[k].len);
	if (laid < f->len)
		add_line(d, i, D_MORE, 0, 0, 0);
	f->nlines = d->nlines - f->line;
}

static void layout(struct details *d, int w)
{
	struct wrap wr = { 0 };

	d->ncol = w >= 2 * DETAILS_COL_MIN ?
			  NX_MIN(w / DETAILS_COL_MIN, DETAILS_COLS_MAX) : 1;
	d->colw = w / d->ncol;
	d->keyw = 0;
	for (size_t i = 0; i < d->nfields; i++)
		d->keyw = NX_MAX(d->keyw, text_width(d->fields[i].key));
	d->keyw = NX_MIN(d->keyw, d->colw / 2 - 2);
	/* two blanks before the key and after it, one between columns */
	d->valw = NX_MAX(d->colw - d->keyw - 5, 8);
	d->nlines = 0;
	for (size_t i = 0; i < d->nfields; i++) {
		if (!i || strcmp(d->fields[i].group, d->fields[i - 1].group))
			add_line(d, i, D_HEADING, 0, 0, 0);
		layout_field(d, i, &wr);
	}
	wrap_free(&wr);
	d->laid_w = w;
	if (d->top >= d->nlines)
		d->top = d->nlines ? d->nlines - 1 : 0;
}

static void draw_line(struct details *d, WINDOW *win, int y, int x,
		      const struct dline *l, int chosen)
{
	const struct field *f = &d->fields[l->f];
	int vx = x + 4 + d->keyw;

	if (l->kind == D_HEADING) {
		draw_str(win, y, x, d->colw - 1, f->group,
			 draw_style(S_FIELD_GROUP));
		return;
	}
	if (l->first && chosen) {
		draw_fill(win, y, x + 1, d->keyw + 2, draw_style(S_LABEL_CURSOR));
		draw_str(win, y, x + 2, d->keyw, f->key,
			 draw_style(S_LABEL_CURSOR));
	} else if (l->first) {
		draw_str(win, y, x + 2, d->keyw, f->key, draw_style(S_FIELD_KEY));
	}
	if (l->kind == D_MORE) {
		char more[96];

		snprintf(more, sizeof(more), "%s %zu characters in all; Enter "
			 "reads them", draw_glyph(G_ELLIPSIS), f->chars);
		draw_str(win, y, vx, d->valw, more, draw_style(S_DIM));
		return;
	}
	{
		char *part = xstrndup(f->value + l->off, l->len);

		draw_str(win, y, vx, d->valw, part, A_NORMAL);
		free(part);
	}
}

void details_draw(struct details *d, WINDOW *win, int y, int h, int w,
		  int focused)
{
	struct strbuf sb;
	attr_t ta = draw_style(focused ? S_PANE_FOCUS : S_PANE_TITLE);
	int rows = h - 1;

	if (h <= 0)
		return;
	sb_init(&sb);
	sb_printf(&sb, " %s", d->title ? d->title : "");
	draw_fill(win, y, 0, w, ta);
	draw_str(win, y, 0, w, sb_cstr(&sb), ta);
	sb_free(&sb);
	if (d->laid_w != w)
		layout(d, w);
	d->page = NX_MAX(rows * d->ncol, 1);
	for (int c = 0; c < d->ncol; c++) {
		for (int r = 0; r < rows; r++) {
			size_t k = d->top + (size_t)c * (size_t)rows + (size_t)r;

			if (k >= d->nlines)
				break;
			draw_line(d, win, y + 1 + r, c * d->colw, &d->lines[k],
				  focused && d->lines[k].f == d->cur);
		}
	}
}

/* Scrolls so that the chosen field shows, from its group's heading
 * when that is just above it. */
static void show_chosen(struct details *d)
{
	const struct field *f;
	size_t first, last, page = (size_t)d->page;

	if (d->cur >= d->nfields || !d->nlines)
		return;
	f = &d->fields[d->cur];
	first = f->line;
	if (first && d->lines[first - 1].kind == D_HEADING)
		first--;
	last = f->line + f->nlines - 1;
	if (first < d->top)
		d->top = first;
	else if (last >= d->top + page)
		d->top = NX_MIN(first, last - page + 1);
}

/* After a page up or down: the chosen field is the first one on
 * screen, unless it is on screen already. */
static void choose_shown(struct details *d)
{
	size_t page = (size_t)d->page;

	if (d->cur < d->nfields && d->fields[d->cur].line >= d->top &&
	    d->fields[d->cur].line < d->top + page)
		return;
	for (size_t i = 0; i < d->nfields; i++) {
		if (d->fields[i].line >= d->top) {
			d->cur = i;
			return;
		}
	}
}

static void open_pager(struct details *d, struct tui *t)
{
	const struct field *f;
	struct pager_part part[2];

	if (d->cur >= d->nfields) {
		tui_message(t, "no field to read");
		return;
	}
	f = &d->fields[d->cur];
	part[0] = (struct pager_part){ NULL, f->value, f->len };
	if (f->description)
		part[1] = (struct pager_part){ "Description", f->description,
					       strlen(f->description) };
	tui_push(t, pager_open(f->key, part, f->description ? 2 : 1));
}

int details_request(struct details *d, struct tui *t, enum request req)
{
	size_t last = d->nlines > (size_t)d->page ?
			      d->nlines - (size_t)d->page : 0;
	size_t step = (size_t)NX_MAX(d->page - 1, 1);

	switch (req) {
	case REQ_MOVE_DOWN:
		if (d->cur + 1 < d->nfields)
			d->cur++;
		show_chosen(d);
		return 0;
	case REQ_MOVE_UP:
		if (d->cur)
			d->cur--;
		show_chosen(d);
		return 0;
	case REQ_PAGE_DOWN:
		d->top = NX_MIN(d->top + step, last);
		choose_shown(d);
		return 0;
	case REQ_PAGE_UP:
		d->top = d->top > step ? d->top - step : 0;
		choose_shown(d);
		return 0;
	case REQ_ENTER:
		open_pager(d, t);
		return 0;
	default:
		return 1;
	}
}
