/* The help screen is built from the request table, so it can never
 * disagree with the keymap. */
#include "config.h"

#include "tui/help.h"

#include <stdlib.h>
#include <string.h>

#include "tui/draw.h"
#include "tui/keys.h"
#include "tui/wrap.h"
#include "model/query.h"
#include "model/text.h"

enum hkind { H_TITLE, H_GROUP, H_ENTRY, H_TEXT, H_BLANK };

struct hline {
	enum hkind kind;
	char *left;		/* keys or command */
	char *right;		/* what it does */
};

/* A screen row: parts of one line's texts, word-wrapped to the width. */
struct hrow {
	size_t line;
	struct wline left, right;	/* len 0: nothing */
};

struct help {
	struct view view;
	struct hline *lines;
	size_t n, cap;
	struct hrow *rows;	/* laid out for width rows_w */
	size_t nrows, rows_cap;
	int rows_w;
	size_t top;		/* the first row shown */
	int leftw;
	const char *header;
};

/* Commands every view has (the screen loop runs them). */
static const struct view_cmd common_cmds[] = {
	{ "help", "", "Show this help" },
	{ "quit", "", "Quit (also :q)" },
	{ "set", "osc52 on|off", "Let y copy to the terminal's clipboard "
	  "(OSC 52; off by default)" },
	{ "set", "mouse on|off", "Take clicks and the wheel (on by default), "
	  "or leave them to the terminal's own text selection" },
	{ "NAME", "", "Run a request by its name, e.g. :zoom-in" },
	{ NULL, NULL, NULL },
};

/* left is taken over; right is copied. */
static void add(struct help *h, enum hkind kind, char *left,
		const char *right)
{
	h->lines = xgrow(h->lines, &h->cap, h->n + 1, sizeof(*h->lines));
	h->lines[h->n++] = (struct hline){ kind, left,
					    right ? xstrdup(right) : NULL };
	if (kind == H_ENTRY)
		h->leftw = NX_MAX(h->leftw, text_width(left));
}

/* "w + =" reads better as "w, +, =" */
static char *key_list(const char *keys)
{
	struct strbuf sb;

	sb_init(&sb);
	for (const char *p = keys; *p; p++) {
		if (*p == ' ')
			sb_adds(&sb, ", ");
		else
			sb_addc(&sb, *p);
	}
	return sb_detach(&sb);
}

static void add_commands(struct help *h, const struct view_cmd *c)
{
	for (; c && c->name; c++)
		add(h, H_ENTRY, xasprintf(":%s%s%s", c->name, *c->args ? " " : "",
					  c->args), c->help);
}

static int key_width(const struct help *h, int width)
{
	return NX_MIN(h->leftw, width / 3);
}

static void add_row(struct help *h, size_t line, struct wline left,
		    struct wline right)
{
	h->rows = xgrow(h->rows, &h->rows_cap, h->nrows + 1, sizeof(*h->rows));
	h->rows[h->nrows++] = (struct hrow){ line, left, right };
}

/* The rows of text (NULL: one empty row) wrapped at w columns, each
 * as its left or right part. */
static void add_wrapped(struct help *h, size_t line, const char *text,
			int w, int as_left)
{
	struct wrap wr = { 0 };
	static const struct wline none;

	wrap_words(&wr, text ? text : "", text ? strlen(text) : 0, w);
	for (size_t i = 0; i < wr.n; i++)
		add_row(h, line, as_left ? wr.lines[i] : none,
			as_left ? none : wr.lines[i]);
	wrap_free(&wr);
}

/* The rows for the view's width: an entry's keys that fit their column
 * share a row with the first of its meaning; longer keys take rows of
 * their own above it. */
static void layout(struct help *h, int width)
{
	int keyw = key_width(h, width);

	h->nrows = 0;
	h->rows_w = width;
	for (size_t i = 0; i < h->n; i++) {
		const struct hline *l = &h->lines[i];
		size_t first = h->nrows;

		switch (l->kind) {
		case H_TITLE:
			add_wrapped(h, i, l->right, width, 0);
			break;
		case H_GROUP:
			add_wrapped(h, i, l->right, width - 1, 0);
			break;
		case H_TEXT:
			add_wrapped(h, i, l->right, width - 3, 0);
			break;
		case H_BLANK:
			add_wrapped(h, i, NULL, width, 0);
			break;
		case H_ENTRY:
			if (text_width(l->left) > keyw) {
				add_wrapped(h, i, l->left, width - 3, 1);
				add_wrapped(h, i, l->right, width - 5 - keyw, 0);
				break;
			}
			add_wrapped(h, i, l->right, width - 5 - keyw, 0);
			h->rows[first].left =
				(struct wline){ 0, strlen(l->left) };
			break;
		}
	}
}

static size_t last_top(const struct help *h, int height)
{
	return h->nrows > (size_t)height ? h->nrows - (size_t)height : 0;
}

static void draw_part(WINDOW *win, int y, int x, int w, const char *text,
		      struct wline part, attr_t a)
{
	char *s;

	if (!part.len || w <= 0)
		return;
	s = xstrndup(text + part.off, part.len);
	draw_str(win, y, x, w, s, a);
	free(s);
}

static void help_draw(struct view *v, WINDOW *win)
{
	struct help *h = (struct help *)v;
	int keyw = key_width(h, v->width);

	if (h->rows_w != v->width)
		layout(h, v->width);
	h->top = NX_MIN(h->top, last_top(h, v->height));
	for (int r = 0; r < v->height && h->top + (size_t)r < h->nrows; r++) {
		const struct hrow *row = &h->rows[h->top + (size_t)r];
		const struct hline *l = &h->lines[row->line];
		int y = v->top + r;

		switch (l->kind) {
		case H_TITLE:
			draw_part(win, y, 0, v->width, l->right, row->right,
				  A_BOLD);
			break;
		case H_GROUP:
			draw_part(win, y, 1, v->width - 1, l->right,
				  row->right, draw_style(S_FIELD_GROUP));
			break;
		case H_ENTRY:
			draw_part(win, y, 3, row->right.len ? keyw :
				  v->width - 3, l->left, row->left,
				  draw_style(S_HELP_KEY));
			draw_part(win, y, 5 + keyw, v->width - 5 - keyw,
				  l->right, row->right, A_NORMAL);
			break;
		case H_TEXT:
			draw_part(win, y, 3, v->width - 3, l->right,
				  row->right, A_NORMAL);
			break;
		case H_BLANK:
			break;
		}
	}
}

static void help_header(struct view *v, struct strbuf *out)
{
	sb_adds(out, ((struct help *)v)->header);
}

static void help_status(struct view *v, struct strbuf *out)
{
	struct help *h = (struct help *)v;

	sb_printf(out, "line %zu/%zu", h->nrows ? h->top + 1 : 0, h->nrows);
}

static int help_request(struct view *v, enum request req)
{
	struct help *h = (struct help *)v;
	size_t page = (size_t)NX_MAX(v->height - 1, 1);
	size_t last = last_top(h, v->height);

	switch (req) {
	case REQ_MOVE_DOWN:
		h->top = NX_MIN(h->top + 1, last);
		return 0;
	case REQ_MOVE_UP:
		h->top = h->top ? h->top - 1 : 0;
		return 0;
	case REQ_PAGE_DOWN:
		h->top = NX_MIN(h->top + page, last);
		return 0;
	case REQ_PAGE_UP:
		h->top = h->top > page ? h->top - page : 0;
		return 0;
	case REQ_FIRST_LINE:
		h->top = 0;
		return 0;
	case REQ_LAST_LINE:
		h->top = last;
		return 0;
	case REQ_HELP:
	case REQ_CLOSE_PANE:
		tui_pop(v->tui);
		return 0;
	default:
		return 1;
	}
}

static void help_close(struct view *v)
{
	struct help *h = (struct help *)v;

	for (size_t i = 0; i < h->n; i++) {
		free(h->lines[i].left);
		free(h->lines[i].right);
	}
	free(h->lines);
	free(h->rows);
	free(v->title);
	free(h);
}

static const struct view_ops help_ops = {
	.name = "help",
	.keymap = KM_LINES,
	.draw = help_draw,
	.header = help_header,
	.status = help_status,
	.request = help_request,
	.close = help_close,
};

static struct help *help_new(const char *title, const char *header)
{
	struct help *h = xcalloc(1, sizeof(*h));

	h->header = header;
	h->view.ops = &help_ops;
	h->view.title = xstrdup(title);
	return h;
}

/* What the mouse does, where the terminal reports it. */
static void add_mouse(struct help *h)
{
	add(h, H_BLANK, NULL, NULL);
	add(h, H_TITLE, NULL, "With the mouse (--no-mouse or :set mouse off: "
	    "the terminal's own text selection)");
	add(h, H_ENTRY, xstrdup("click"), "On a track: the cursor to that "
	    "time and row; on a group's name: fold or unfold it; on the "
	    "axis: the cursor to that time; in a list: choose the line; on "
	    "the breadcrumb: back to that view");
	add(h, H_ENTRY, xstrdup("double-click"), "Enter: the event's "
	    "details, or open the line");
	add(h, H_ENTRY, xstrdup("drag"), "Over the tracks: box the time and "
	    "rows; along the axis: zoom to that time");
	add(h, H_ENTRY, xstrdup("wheel"), "Scroll the rows or lines; with Ctrl "
	    "or Shift, zoom around the pointer");
}

struct view *help_open(enum keymap km, const struct view_cmd *commands)
{
	struct help *h = help_new("help", "keys and commands");
	const struct req_info *r;
	size_t n;
	int shown = 0;

	add(h, H_TITLE, NULL, "Keys (q, Esc or ? closes this help)");
	r = req_table(&n);
	for (size_t i = 0; i < n; i++) {
		if (r[i].req == REQ_NONE) {
			shown = keymap_covers(km, r[i].keymap);
			if (shown) {
				add(h, H_BLANK, NULL, NULL);
				add(h, H_GROUP, NULL, r[i].name);
			}
		} else if (shown) {
			add(h, H_ENTRY, key_list(r[i].keys), r[i].help);
		}
	}
	add_mouse(h);
	add(h, H_BLANK, NULL, NULL);
	add(h, H_TITLE, NULL, "Commands (type : then a command and Enter)");
	add_commands(h, commands);
	add_commands(h, common_cmds);
	add(h, H_BLANK, NULL, NULL);
	add(h, H_TITLE, NULL, "On the command line");
	add(h, H_TEXT, NULL, "Left, Right, Home, End, Backspace and Delete "
	    "edit (also Ctrl-B, Ctrl-F, Ctrl-A, Ctrl-E, Ctrl-H, Ctrl-D); "
	    "Ctrl-U deletes to the start, Ctrl-K to the end; Up and Down "
	    "(Ctrl-P, Ctrl-N) recall earlier lines; Esc or Ctrl-G cancels; "
	    "Enter runs.");
	add(h, H_TEXT, NULL, "Times are written like 1.25ms, 100us, 350ns, "
	    "2s or 2 s; a bare number is ns.");
	return &h->view;
}

static const char *const query_intro[] = {
	"A query is terms separated by blanks; an event matches when every",
	"term holds: there is no or and no grouping. Text comparisons ignore",
	"case.",
	"",
};

static const struct {
	const char *form, *meaning;
} query_forms[] = {
	{ "word", "a free word: name, opcode, HLO name, layer, DMA queue or row contains it" },
	{ "field=value", "the field equals the value (opcode=MATMUL)" },
	{ "field~value", "the field contains the value (layer~attention)" },
	{ "field=/regex/", "matches a POSIX extended regex (hlo_name=/dot\\.[0-9]+/); != too" },
	{ "/regex/", "a free word as a regex (/^nrt_exec/)" },
	{ "field>value", "also >=, <, <=, =, !=: numbers (pc>16)" },
	{ "dur>2us size>=4KiB", "times and sizes take units (KiB: 1024, kB: 1000)" },
	{ "-term", "exactly the events the term does not match (-drain)" },
	{ "field!=value", "also !~: a text field that differs, or is missing" },
	{ "\"two words\"", "quotes keep blanks in a value; \\\" \\\\ \\xHH inside" },
};

struct view *help_query_open(void)
{
	struct help *h = help_new("query help", "the search query language");

	add(h, H_TITLE, NULL, "Search queries (q, Esc or ? closes this help)");
	add(h, H_BLANK, NULL, NULL);
	for (size_t i = 0; i < NX_ARRAY_SIZE(query_intro); i++)
		add(h, *query_intro[i] ? H_TEXT : H_BLANK, NULL,
		    *query_intro[i] ? query_intro[i] : NULL);
	add(h, H_GROUP, NULL, "Terms");
	for (size_t i = 0; i < NX_ARRAY_SIZE(query_forms); i++)
		add(h, H_ENTRY, xstrdup(query_forms[i].form),
		    query_forms[i].meaning);
	add(h, H_BLANK, NULL, NULL);
	add(h, H_GROUP, NULL, "Fields");
	for (int f = F_WORD + 1; f < F_COUNT; f++) {
		const struct qfield_info *fi = &query_fields[f];

		add(h, H_ENTRY, fi->alias ? xasprintf("%s, %s", fi->name,
						      fi->alias) :
					    xstrdup(fi->name), fi->help);
	}
	add(h, H_BLANK, NULL, NULL);
	add(h, H_TEXT, NULL, "Queries of names only (name, opcode, engine, row, "
	    "and free words that only names or rows hold) are answered from "
	    "per-name summaries: fast on any profile.");
	add(h, H_TEXT, NULL, "n and N step through the matches; R lists "
	    "them; Esc clears the search.");
	return &h->view;
}
