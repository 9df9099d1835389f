/* Drawing primitives: glyphs with an ASCII fallback, colours for 256, 8
 * or no colours, and text output that is sanitised and clipped. */
#ifndef NX_TUI_DRAW_H
#define NX_TUI_DRAW_H

#include <curses.h>
#include <stdint.h>

enum glyph {
	G_SHADE1, G_SHADE2, G_SHADE3, G_FULL,	/* busy a quarter .. all */
	G_INSTANT,		/* zero-length events only */
	G_SPARK0,		/* G_SPARK0 + 0..7: sparkline heights */
	G_SPARK7 = G_SPARK0 + 7,
	G_FLAT,			/* a counter that never changes */
	G_RANGE,		/* between a smallest and a largest value */
	G_FOLDED, G_UNFOLDED,
	G_TICK,			/* tick on the time axis */
	G_CURSOR_MARK,		/* cursor position on the time axis */
	G_VLINE,		/* the cursor column through empty cells */
	G_HLINE,		/* pane separator */
	G_ELLIPSIS,
	G_CRUMB,		/* between breadcrumb entries */
	G_SWATCH,		/* legend colour sample */
	G_SORT_UP, G_SORT_DOWN,	/* sorted column of a list */
	G_MARKER,		/* a marker on the time axis */
	G_MARKER_LINE,		/* a marker's column through empty cells */
	G_LANE,			/* a nested track's lane below its name */
	G_FLOW_OUT, G_FLOW_IN,	/* a flow leaves, enters an event */
	G_FLOW_BOTH,		/* flows leave and enter in one cell */
	G_SIDES,		/* between profile A's figure and B's */
	G_WRAP,			/* a line broken to fit goes on below */
	G_COUNT
};

enum style {
	S_NORMAL, S_HEADER, S_AXIS, S_LABEL, S_GROUP, S_LABEL_CURSOR,
	S_CURSOR, S_CURSOR_COL, S_STATUS, S_ERROR, S_PANE_TITLE,
	S_PANE_FOCUS, S_FIELD_GROUP, S_FIELD_KEY, S_DIM, S_COUNTER,
	S_HELP_KEY,
	S_MATCH,		/* a bar of a search match */
	S_MATCH_FG,		/* a glyph of a search match */
	S_LAYER,		/* a bar of the chosen layer */
	S_LAYER_FG,		/* a glyph of the chosen layer */
	S_FADED_BAR,		/* a bar that is not a match */
	S_BOX,			/* inside the box selection */
	S_STRIP,		/* the hit-density strip */
	S_STRIP_VIEW,		/* the part of the strip that is on screen */
	S_MARKER,
	S_WARN,			/* a finding's range on the warnings lane */
	S_FLOW,			/* a flow mark */
	S_FLOW_SEL,		/* a flow mark of the event under the cursor */
	S_COUNT
};

/* How many colours to use. */
enum color_level { COLORS_NONE = 0, COLORS_8 = 8, COLORS_256 = 256 };

/* Picks glyphs and sets up colour pairs; call after curses started. */
void draw_setup(int ascii, enum color_level colors);
int draw_ascii(void);
/* timefmt_dur() flags for the terminal: TF_ASCII without UTF-8. */
int draw_tf(void);
enum color_level draw_colors(void);

const char *draw_glyph(enum glyph g);
attr_t draw_style(enum style s);

/* Event colours: a palette slot per key, stable across runs. */
int draw_palette_slot(const char *key);
attr_t draw_fg(int slot);	/* glyphs in the slot's colour */
attr_t draw_bar(int slot);	/* text on the slot's colour */

/* Writes untrusted text at (y, x), sanitised and clipped to w columns;
 * pads with spaces to w columns when pad. Returns the columns used. */
int draw_text(WINDOW *win, int y, int x, int w, const char *s, attr_t a,
	      int pad);
/* Trusted text (no sanitising), clipped the same way. */
int draw_str(WINDOW *win, int y, int x, int w, const char *s, attr_t a);
/* Restyles the cell at (y, x), drawn already: a blank becomes the glyph
 * blank in attributes st; a character keeps its colour, with flip
 * toggled and add set in its attributes (left alone when both are 0). */
void draw_restyle(WINDOW *win, int y, int x, const char *blank, attr_t st,
		  attr_t flip, attr_t add);
/* Fills w columns with spaces. */
void draw_fill(WINDOW *win, int y, int x, int w, attr_t a);

#endif
