/* The generic list view every list uses (tmux's mode-tree, tig's view
 * lines): the layer table, markers, marker sets, matches, info panels,
 * the panel chooser and the selection summary. It moves a cursor (j/k,
 * g/G, PgUp/PgDn), scrolls columns (h/l), filters (/), sorts (o/O),
 * opens a line (Enter), zooms to it (f), shows its cells in full in a
 * pager (t, or Enter where a line opens nothing else) and exports
 * (e/E), and draws only the lines on screen: a list asks its source for
 * those alone.
 *
 * A source is a struct embedding struct list first, with a struct
 * list_ops. A small source lets the list filter and sort for it
 * (LIST_SMALL): the list then keeps the order of the source's lines in
 * an index. A large one (a million matches) filters and sorts itself. */
#ifndef NX_TUI_LIST_H
#define NX_TUI_LIST_H

#include <stddef.h>
#include <stdio.h>

#include "tui/draw.h"
#include "tui/view.h"

struct list;

struct list_col {
	const char *name;
	int width;		/* columns of the cells */
	int right;		/* right-aligned (numbers) */
	int tail;		/* cut long cells at the start ("…/self/query") */
};

/* One line as the source gives it. */
struct list_line {
	struct strbuf *cells;	/* one per column, empty on entry */
	enum style style;
	int span;		/* cells[0] is the whole line (a heading) */
	double *keys;		/* LIST_SMALL sorting: numeric key per
				   column, NAN to sort by the text */
};

struct list_ops {
	/* Lines of the source (after its own filter, if it filters). */
	size_t (*count)(struct list *l);
	/* Fills line i of the source. */
	void (*line)(struct list *l, size_t i, struct list_line *out);
	/* Sorts the source by column col; NULL: the list sorts small
	 * sources itself and cannot sort large ones. */
	void (*sort)(struct list *l, int col, int desc);
	/* Filters the source; NULL: the list filters small sources
	 * itself. 0 or -1 with err_set(). */
	int (*filter)(struct list *l, const char *text);
	/* Enter and f on source line i; NULL: Enter shows the line in the
	 * pager, f does nothing. 0 or -1 with err_set(). */
	int (*enter)(struct list *l, size_t i);
	int (*zoom)(struct list *l, size_t i);
	/* Other requests (rename, depth, ...): 0 handled, 1 not. */
	int (*request)(struct list *l, enum request req);
	int (*command)(struct list *l, int argc, char **argv);
	/* What e/E write, as in struct view_ops. */
	const char *(*export_name)(struct list *l);
	int (*export)(struct list *l, enum out_format fmt, FILE *f);
	/* Before each frame and key: the source may reread what changed
	 * outside (another nxtop's markers) and call list_changed(). */
	void (*reload)(struct list *l);
	/* Header text after the breadcrumb. */
	void (*header)(struct list *l, struct strbuf *out);
	void (*free)(struct list *l);
};

/* LIST_FILTER_SHOWN: the header op shows the filter itself (the list
 * of matches: as part of its query), so list_header adds nothing. */
enum { LIST_SMALL = 1, LIST_FILTER_SHOWN = 2 };

struct list {
	struct view view;
	const struct list_ops *ops;
	int flags;
	struct list_col *cols;
	int ncols;
	/* the widest cell of each column (list_fit_cols), 0 if not known:
	 * a column grows to it when the screen has room */
	int *want;
	int sort_col, sort_desc;	/* -1: the source's own order */
	char *filter;
	size_t cur, top;	/* cursor and first line shown (list lines) */
	int hscroll;		/* first column shown after the first */
	/* LIST_SMALL: source line of each list line */
	size_t *order;
	size_t norder;
	int dirty;		/* order must be rebuilt */
	struct list_line scratch;
};

/* The commands every list takes (list_command), for the help screen
 * of a list without commands of its own. */
extern const struct view_cmd list_cmds[];

/* View functions for a list type's struct view_ops. */
#define LIST_VIEW_OPS(NAME, KEYMAP, HINTS, CMDS) { \
	.name = NAME, .keymap = KEYMAP, .draw = list_draw, \
	.header = list_header, .status = list_status, \
	.request = list_request, .mouse = list_mouse, \
	.command = list_command, \
	.export_name = list_export_name, .export = list_export, \
	.hints = HINTS, .commands = CMDS, .close = list_close }

void list_draw(struct view *v, WINDOW *win);
void list_header(struct view *v, struct strbuf *out);
void list_status(struct view *v, struct strbuf *out);
int list_request(struct view *v, enum request req);
int list_mouse(struct view *v, const struct mouse_event *ev);
int list_command(struct view *v, int argc, char **argv);
const char *list_export_name(struct view *v);
int list_export(struct view *v, enum out_format fmt, FILE *f);
void list_close(struct view *v);

/* Sets up l (embedded at the start of a source of size `size`). */
void list_init(struct list *l, const struct view_ops *vops,
	       const struct list_ops *ops, int flags, const char *title);
/* Columns (copied); a source may set them again when its shape
 * changes. */
void list_set_cols(struct list *l, const struct list_col *cols, int n);
/* Small lists: each column as wide as its widest cell (and title), up
 * to a limit. */
void list_fit_cols(struct list *l);
/* A large list (that never reads all its lines): column c as wide as
 * widest, the widest of its cells the source knows of, as
 * list_fit_cols makes it. */
void list_fit_col(struct list *l, int c, int widest);
/* The source changed (lines added, removed, reloaded): the cursor stays
 * on its line number, clamped. */
void list_changed(struct list *l);
/* The source line under the cursor; SIZE_MAX when the list is empty. */
size_t list_current(struct list *l);

#endif
