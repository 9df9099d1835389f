/* The text is cleaned once, with its headings, into one buffer; the
 * wrapped lines are offsets into it, laid out again when the width
 * changes. Finding looks through the whole buffer, so a match that
 * wraps from one line to the next is found too. */
#include "config.h"

#include "tui/pager.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tui/draw.h"
#include "tui/list.h"
#include "model/text.h"
#include "model/util.h"
#include "tui/wrap.h"

struct pager {
	struct list list;
	struct strbuf text;
	size_t *heads;		/* [start, end) of each heading, ascending */
	size_t nheads;
	struct wrap wr;
	int words;		/* text nxtop wrote: broken at blanks */
	int laid_w;		/* width the lines were laid out for */
	char *find;		/* what / looks for, NULL before */
	size_t found;		/* offset of the match shown; SIZE_MAX none */
};

static const struct prompt_spec find_spec;

static size_t pager_count(struct list *l)
{
	return ((struct pager *)l)->wr.n;
}

static int is_heading(const struct pager *p, size_t off)
{
	for (size_t k = 0; k < p->nheads; k++)
		if (off >= p->heads[2 * k] && off < p->heads[2 * k + 1])
			return 1;
	return 0;
}

/* A line of text nxtop wrote that goes on on the next ends with a mark
 * in the last column, so that a line broken to fit is not read as one
 * that ends there (a command's lines are what a shell reads); a heading
 * is prose, and wraps without one. */
static void pager_line(struct list *l, size_t i, struct list_line *out)
{
	struct pager *p = (struct pager *)l;
	const struct wline *w = &p->wr.lines[i];

	sb_add(&out->cells[0], p->text.buf + w->off, w->len);
	if (p->words && !is_heading(p, w->off) &&
	    wrap_goes_on(&p->wr, p->text.buf, i)) {
		int x = text_width(sb_cstr(&out->cells[0]));

		for (; x < p->laid_w - 1; x++)
			sb_addc(&out->cells[0], ' ');
		sb_adds(&out->cells[0], draw_glyph(G_WRAP));
	}
	if (is_heading(p, w->off))
		out->style = S_FIELD_GROUP;
}

/* The line holding byte off. */
static size_t line_of(const struct pager *p, size_t off)
{
	size_t lo = 0, hi = p->wr.n;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->wr.lines[mid].off <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Lays the text out again for a new width; the cursor stays on the
 * text it was on. */
static void pager_reload(struct list *l)
{
	struct pager *p = (struct pager *)l;
	int w = NX_MAX(l->view.width, 1);
	size_t at = p->wr.n ? p->wr.lines[NX_MIN(l->cur, p->wr.n - 1)].off : 0;

	if (w == p->laid_w)
		return;
	p->wr.n = 0;
	if (p->words)
		wrap_words(&p->wr, p->text.buf, p->text.len, w);
	else
		wrap_text(&p->wr, p->text.buf, p->text.len, w, 0);
	p->laid_w = w;
	l->cols[0].width = w;
	l->cur = line_of(p, at);
	list_changed(l);
}

/* The first match at or after from (dir > 0), or the last one before
 * from (dir < 0); SIZE_MAX if none. */
static size_t find_from(const struct pager *p, size_t from, int dir)
{
	const char *s = p->text.buf, *hit;
	size_t last = SIZE_MAX;

	if (dir > 0) {
		hit = from <= p->text.len ? strcasestr(s + from, p->find) : NULL;
		return hit ? (size_t)(hit - s) : SIZE_MAX;
	}
	for (hit = strcasestr(s, p->find); hit && (size_t)(hit - s) < from;
	     hit = strcasestr(hit + 1, p->find))
		last = (size_t)(hit - s);
	return last;
}

/* Moves to the next match (dir > 0) or the previous one, going round
 * the end of the text. */
static void find_step(struct pager *p, int dir)
{
	struct list *l = &p->list;
	struct tui *t = l->view.tui;
	size_t cur = p->wr.n ? p->wr.lines[NX_MIN(l->cur, p->wr.n - 1)].off : 0;
	size_t from, hit;
	const char *round = "";

	if (!p->find) {
		tui_message(t, "nothing to find yet: / asks for a text");
		return;
	}
	/* from the match shown while the cursor is on its line, else from
	 * the cursor's line */
	if (p->found != SIZE_MAX && line_of(p, p->found) == l->cur)
		from = dir > 0 ? p->found + 1 : p->found;
	else
		from = cur;
	hit = find_from(p, from, dir);
	if (hit == SIZE_MAX) {
		hit = find_from(p, dir > 0 ? 0 : p->text.len + 1, dir);
		round = dir > 0 ? " (from the top)" : " (from the end)";
	}
	if (hit == SIZE_MAX) {
		tui_error(t, "not found: %s", p->find);
		p->found = SIZE_MAX;
		return;
	}
	p->found = hit;
	l->cur = line_of(p, hit);
	tui_message(t, "found %s on line %zu%s", p->find, l->cur + 1, round);
}

static int find_done(struct view *v, const char *text)
{
	struct pager *p = (struct pager *)v;

	if (!*text)
		return 0;
	free(p->find);
	p->find = xstrdup(text);
	p->found = SIZE_MAX;
	find_step(p, 1);
	return 0;
}

static const struct prompt_spec find_spec = {
	.lead = '/',
	.history = "find",
	.done = find_done,
};

static int pager_request(struct list *l, enum request req)
{
	struct pager *p = (struct pager *)l;

	switch (req) {
	case REQ_ENTER:
		tui_message(l->view.tui, "this is the text in full (q goes back)");
		return 0;
	case REQ_FIND:
		tui_prompt(l->view.tui, &find_spec, NULL);
		return 0;
	case REQ_FIND_NEXT:
	case REQ_FIND_PREV:
		find_step(p, req == REQ_FIND_NEXT ? 1 : -1);
		return 0;
	default:
		return 1;
	}
}

/* ":find TEXT" as / does. */
static int pager_command(struct list *l, int argc, char **argv)
{
	struct strbuf text;

	if (strcmp(argv[0], "find"))
		return 1;
	sb_init(&text);
	for (int i = 1; i < argc; i++)
		sb_printf(&text, "%s%s", i > 1 ? " " : "", argv[i]);
	find_done(&l->view, sb_cstr(&text));
	sb_free(&text);
	return 0;
}

static void pager_header(struct list *l, struct strbuf *out)
{
	struct pager *p = (struct pager *)l;

	sb_printf(out, "%zu line%s", p->wr.n, p->wr.n == 1 ? "" : "s");
	if (p->find)
		sb_printf(out, "  find: %s", p->find);
}

static void pager_free(struct list *l)
{
	struct pager *p = (struct pager *)l;

	sb_free(&p->text);
	free(p->heads);
	wrap_free(&p->wr);
	free(p->find);
	free(p);
}

static const struct list_ops pager_ops = {
	.count = pager_count,
	.line = pager_line,
	.request = pager_request,
	.command = pager_command,
	.reload = pager_reload,
	.header = pager_header,
	.free = pager_free,
};

static const struct view_cmd pager_cmds[] = {
	{ "find", "TEXT", "Find TEXT (as /)" },
	{ NULL, NULL, NULL },
};

static const struct view_ops pager_vops = LIST_VIEW_OPS("pager", KM_PAGER,
	"? help  j/k PgUp/PgDn g/G move  / find  n/N again  q back",
	pager_cmds);

static const struct list_col pager_col = { "Text", 1, 0, 0 };

static struct view *open_pager(const char *title,
				const struct pager_part *parts, size_t n,
				int words)
{
	struct pager *p = xcalloc(1, sizeof(*p));

	sb_init(&p->text);
	p->heads = xcalloc(2 * n + 1, sizeof(*p->heads));
	for (size_t k = 0; k < n; k++) {
		if (k)
			sb_adds(&p->text, "\n\n");
		if (parts[k].heading) {
			p->heads[2 * p->nheads] = p->text.len;
			wrap_clean(&p->text, parts[k].heading,
				   strlen(parts[k].heading), draw_ascii());
			p->heads[2 * p->nheads + 1] = p->text.len;
			p->nheads++;
			sb_addc(&p->text, '\n');
		}
		wrap_clean(&p->text, parts[k].text, parts[k].len, draw_ascii());
	}
	sb_cstr(&p->text);
	p->words = words;
	p->wr.mark = words;	/* the mark's column */
	p->found = SIZE_MAX;
	list_init(&p->list, &pager_vops, &pager_ops, 0, title);
	list_set_cols(&p->list, &pager_col, 1);
	return &p->list.view;
}

struct view *pager_open(const char *title, const struct pager_part *parts,
			size_t n)
{
	return open_pager(title, parts, n, 0);
}

struct view *pager_open_words(const char *title,
			      const struct pager_part *parts, size_t n)
{
	return open_pager(title, parts, n, 1);
}
