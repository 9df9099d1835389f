/* Fields are copied (sanitised) when an event is loaded and laid out
 * into wrapped lines whenever the width changes. */
#include "config.h"

#include "details.h"

#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "model/text.h"
#include "model/util.h"

#define DETAILS_COL_MIN 48	/* columns of one newspaper column */
#define DETAILS_COLS_MAX 4

struct field {
	char *group, *key, *value;
};

struct dline {
	const struct field *f;
	int heading;		/* the group's name */
	int first;		/* first line of a field: show the key */
	size_t off, len;	/* bytes of f->value on this line */
};

struct details {
	int64_t slice;
	char *title;
	struct field *fields;
	size_t nfields, cap;
	struct dline *lines;
	size_t nlines, lcap;
	int laid_w;		/* width the lines were laid out for */
	int ncol, colw, keyw;
	size_t top;		/* first line shown */
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
	}
	d->nfields = 0;
	d->nlines = 0;
	d->laid_w = 0;
	d->top = 0;
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

static char *clean(const char *s)
{
	struct strbuf sb;

	sb_init(&sb);
	text_sanitize(&sb, s ? s : "", draw_ascii());
	sb_cstr(&sb);
	return sb_detach(&sb);
}

static void add_field(void *ctx, const char *group, const char *key,
		      const char *value)
{
	struct details *d = ctx;
	struct field *f;

	if (d->nfields == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 32;
		d->fields = xreallocarray(d->fields, d->cap, sizeof(*d->fields));
	}
	f = &d->fields[d->nfields++];
	f->group = clean(group);
	f->key = clean(key);
	f->value = clean(value);
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

int details_load(struct details *d, struct model *m, int64_t slice,
		 const char *title)
{
	int rc;

	clear_fields(d);
	free(d->title);
	d->title = clean(title);
	d->slice = slice;
	rc = model_slice_fields(m, slice, add_field, d);
	group_fields(d);
	return rc;
}

int64_t details_slice(const struct details *d)
{
	return d->slice;
}

static void add_line(struct details *d, const struct field *f, int heading,
		     int first, size_t off, size_t len)
{
	if (d->nlines == d->lcap) {
		d->lcap = d->lcap ? 2 * d->lcap : 64;
		d->lines = xreallocarray(d->lines, d->lcap, sizeof(*d->lines));
	}
	d->lines[d->nlines++] = (struct dline){ f, heading, first, off, len };
}

static void layout(struct details *d, int w)
{
	int valw;

	d->ncol = w >= 2 * DETAILS_COL_MIN ?
			  NX_MIN(w / DETAILS_COL_MIN, DETAILS_COLS_MAX) : 1;
	d->colw = w / d->ncol;
	d->keyw = 0;
	for (size_t i = 0; i < d->nfields; i++)
		d->keyw = NX_MAX(d->keyw, text_width(d->fields[i].key));
	d->keyw = NX_MIN(d->keyw, d->colw / 2 - 2);
	valw = NX_MAX(d->colw - d->keyw - 4, 8);
	d->nlines = 0;
	for (size_t i = 0; i < d->nfields; i++) {
		const struct field *f = &d->fields[i];
		const char *v = f->value;
		size_t off = 0, total = strlen(v);

		if (!i || strcmp(f->group, d->fields[i - 1].group))
			add_line(d, f, 1, 0, 0, 0);
		do {
			size_t len = text_fit(v + off, valw);

			if (!len && off < total)	/* a character wider than valw */
				len = total - off;
			add_line(d, f, 0, off == 0, off, len);
			off += len;
		} while (off < total);
	}
	d->laid_w = w;
	if (d->top >= d->nlines)
		d->top = d->nlines ? d->nlines - 1 : 0;
}

static void draw_line(struct details *d, WINDOW *win, int y, int x,
		      const struct dline *l)
{
	int w = d->colw - 1;

	if (l->heading) {
		draw_str(win, y, x, w, l->f->group, draw_style(S_FIELD_GROUP));
		return;
	}
	if (l->first)
		draw_str(win, y, x + 2, d->keyw, l->f->key,
			 draw_style(S_FIELD_KEY));
	{
		char *part = xstrndup(l->f->value + l->off, l->len);

		draw_str(win, y, x + 4 + d->keyw, w - 4 - d->keyw, part,
			 A_NORMAL);
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
			draw_line(d, win, y + 1 + r, c * d->colw, &d->lines[k]);
		}
	}
}

int details_request(struct details *d, enum request req)
{
	size_t last = d->nlines > (size_t)d->page ?
			      d->nlines - (size_t)d->page : 0;
	size_t step = (size_t)NX_MAX(d->page - 1, 1);

	switch (req) {
	case REQ_MOVE_DOWN:
		d->top = NX_MIN(d->top + 1, last);
		return 0;
	case REQ_MOVE_UP:
		d->top = d->top ? d->top - 1 : 0;
		return 0;
	case REQ_PAGE_DOWN:
		d->top = NX_MIN(d->top + step, last);
		return 0;
	case REQ_PAGE_UP:
		d->top = d->top > step ? d->top - step : 0;
		return 0;
	default:
		return 1;
	}
}
