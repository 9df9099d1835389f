/* Glyphs, colours and clipped text output. The terminal may be remote,
 * 8-colour, monochrome or ASCII-only: everything here has a fallback. */
#include "config.h"

#include "tui/draw.h"

#include <string.h>

#include "model/text.h"
#include "model/timefmt.h"
#include "model/util.h"

/* Table of glyphs: UTF-8 and the ASCII stand-in. */
static const char *const glyphs[G_COUNT][2] = {
	[G_SHADE1] = { "\xe2\x96\x91", "." },		/* ░ */
	[G_SHADE2] = { "\xe2\x96\x92", ":" },		/* ▒ */
	[G_SHADE3] = { "\xe2\x96\x93", "=" },		/* ▓ */
	[G_FULL] = { "\xe2\x96\x88", "#" },		/* █ */
	[G_INSTANT] = { "\xe2\x95\xb5", "'" },		/* ╵ */
	[G_SPARK0 + 0] = { "\xe2\x96\x81", "_" },	/* ▁ */
	[G_SPARK0 + 1] = { "\xe2\x96\x82", "." },
	[G_SPARK0 + 2] = { "\xe2\x96\x83", "-" },
	[G_SPARK0 + 3] = { "\xe2\x96\x84", ":" },
	[G_SPARK0 + 4] = { "\xe2\x96\x85", "=" },
	[G_SPARK0 + 5] = { "\xe2\x96\x86", "+" },
	[G_SPARK0 + 6] = { "\xe2\x96\x87", "*" },
	[G_SPARK0 + 7] = { "\xe2\x96\x88", "#" },	/* █ */
	[G_FLAT] = { "\xe2\x94\x80", "~" },		/* ─ */
	[G_RANGE] = { "\xe2\x80\x93", ".." },		/* – */
	[G_FOLDED] = { "\xe2\x96\xb8", "+" },		/* ▸ */
	[G_UNFOLDED] = { "\xe2\x96\xbe", "-" },		/* ▾ */
	[G_TICK] = { "\xe2\x94\x82", "|" },		/* │ */
	[G_CURSOR_MARK] = { "\xe2\x96\xbc", "v" },	/* ▼ */
	[G_VLINE] = { "\xe2\x94\x82", "|" },		/* │ */
	[G_HLINE] = { "\xe2\x94\x80", "-" },		/* ─ */
	[G_ELLIPSIS] = { "\xe2\x80\xa6", "~" },		/* … */
	[G_CRUMB] = { "\xe2\x80\xba", ">" },		/* › */
	[G_SIDES] = { "\xc2\xb7", "|" },		/* · */
	[G_SWATCH] = { "\xe2\x96\xa0", "#" },		/* ■ */
	[G_SORT_UP] = { "\xe2\x96\xb2", "^" },		/* ▲ */
	[G_SORT_DOWN] = { "\xe2\x96\xbc", "v" },	/* ▼ */
	[G_MARKER] = { "\xe2\x97\x86", "*" },		/* ◆ */
	[G_MARKER_LINE] = { "\xe2\x94\x8a", ":" },	/* ┊ */
	[G_LANE] = { "\xe2\x94\x94", "`" },		/* └ */
	[G_FLOW_OUT] = { "\xe2\x96\xb8", ">" },	/* ▸ */
	[G_FLOW_IN] = { "\xe2\x97\x82", "<" },		/* ◂ */
	[G_FLOW_BOTH] = { "\xe2\x97\x87", "x" },	/* ◇ */
	[G_WRAP] = { "\xe2\x86\xa9", "+" },		/* ↩ */
};

/* Distinct hues for events; the 8-colour set skips black and white. */
static const short palette256[] = { 39, 208, 114, 204, 141, 220, 45, 167,
				    150, 110, 180, 176 };
static const short palette8[] = { COLOR_BLUE, COLOR_YELLOW, COLOR_GREEN,
				  COLOR_MAGENTA, COLOR_CYAN, COLOR_RED };

/* Colour pairs: styles first, then the palette as glyphs and as bars. */
#define PAIR_FG 32
#define PAIR_BAR 48
_Static_assert(S_COUNT < PAIR_FG && PAIR_FG + 12 <= PAIR_BAR,
	       "colour pairs overlap");

struct style_def {
	short fg256, bg256, fg8, bg8;
	attr_t color_attr;	/* added in colour modes */
	attr_t mono;		/* the whole style without colours */
};

static const struct style_def styles[S_COUNT] = {
	[S_NORMAL] = { -1, -1, -1, -1, A_NORMAL, A_NORMAL },
	[S_HEADER] = { 255, 24, COLOR_WHITE, COLOR_BLUE, A_BOLD, A_REVERSE },
	[S_AXIS] = { 109, -1, COLOR_CYAN, -1, A_NORMAL, A_NORMAL },
	[S_LABEL] = { -1, -1, -1, -1, A_NORMAL, A_NORMAL },
	[S_GROUP] = { 179, -1, COLOR_YELLOW, -1, A_BOLD, A_BOLD },
	[S_LABEL_CURSOR] = { 16, 252, COLOR_BLACK, COLOR_WHITE, A_NORMAL,
			     A_REVERSE },
	[S_CURSOR] = { -1, -1, -1, -1, A_REVERSE | A_BOLD, A_REVERSE | A_BOLD },
	[S_CURSOR_COL] = { 240, -1, COLOR_WHITE, -1, A_NORMAL, A_DIM },
	[S_STATUS] = { 252, 236, COLOR_BLACK, COLOR_WHITE, A_NORMAL,
		       A_REVERSE },
	[S_ERROR] = { 231, 124, COLOR_WHITE, COLOR_RED, A_BOLD,
		      A_REVERSE | A_BOLD },
	[S_PANE_TITLE] = { 250, 238, COLOR_BLACK, COLOR_WHITE, A_NORMAL,
			   A_UNDERLINE },
	[S_PANE_FOCUS] = { 231, 25, COLOR_WHITE, COLOR_BLUE, A_BOLD,
			   A_REVERSE },
	[S_FIELD_GROUP] = { 179, -1, COLOR_YELLOW, -1, A_BOLD, A_BOLD },
	[S_FIELD_KEY] = { 110, -1, COLOR_CYAN, -1, A_NORMAL, A_NORMAL },
	[S_DIM] = { 244, -1, COLOR_WHITE, -1, A_NORMAL, A_DIM },
	[S_COUNTER] = { 72, -1, COLOR_GREEN, -1, A_NORMAL, A_NORMAL },
	[S_HELP_KEY] = { 179, -1, COLOR_YELLOW, -1, A_BOLD, A_BOLD },
	[S_MATCH] = { 16, 220, COLOR_BLACK, COLOR_YELLOW, A_BOLD,
		      A_REVERSE | A_BOLD },
	[S_MATCH_FG] = { 220, -1, COLOR_YELLOW, -1, A_BOLD,
			 A_BOLD | A_UNDERLINE },
	[S_LAYER] = { 16, 213, COLOR_BLACK, COLOR_MAGENTA, A_BOLD,
		      A_REVERSE | A_BOLD },
	[S_LAYER_FG] = { 213, -1, COLOR_MAGENTA, -1, A_BOLD,
			 A_BOLD | A_UNDERLINE },
	[S_FADED_BAR] = { 250, 237, COLOR_WHITE, COLOR_BLACK, A_NORMAL,
			  A_DIM },
	[S_BOX] = { 255, 24, COLOR_WHITE, COLOR_BLUE, A_NORMAL, A_REVERSE },
	[S_STRIP] = { 220, -1, COLOR_YELLOW, -1, A_NORMAL, A_BOLD },
	[S_STRIP_VIEW] = { 220, 238, COLOR_YELLOW, COLOR_BLUE, A_NORMAL,
			   A_REVERSE },
	[S_MARKER] = { 213, -1, COLOR_MAGENTA, -1, A_BOLD, A_BOLD },
	/* a background of their own: they read on light and dark themes
	 * and over any event's colour */
	[S_FLOW] = { 231, 30, COLOR_WHITE, COLOR_CYAN, A_BOLD, A_BOLD },
	[S_FLOW_SEL] = { 16, 208, COLOR_BLACK, COLOR_YELLOW, A_BOLD,
			 A_REVERSE | A_BOLD },
	/* black on amber reads on dark and light backgrounds alike */
	[S_WARN] = { 16, 214, COLOR_BLACK, COLOR_YELLOW, A_BOLD,
		     A_REVERSE | A_BOLD },
};

static int use_ascii;
static enum color_level level;
static attr_t style_attr[S_COUNT];
static struct strbuf scratch;

/* Event colours: palette slots at this colour level. */
static int draw_palette_size(void)
{
	if (level == COLORS_256)
		return (int)NX_ARRAY_SIZE(palette256);
	if (level == COLORS_8)
		return (int)NX_ARRAY_SIZE(palette8);
	return 1;
}

void draw_setup(int ascii, enum color_level colors)
{
	use_ascii = ascii;
	level = colors;
	if (level != COLORS_NONE && (!has_colors() || start_color() == ERR))
		level = COLORS_NONE;
	if (level == COLORS_256 && COLORS < 256)
		level = COLORS_8;
	if (level != COLORS_NONE)
		use_default_colors();
	for (int s = 0; s < S_COUNT; s++) {
		const struct style_def *d = &styles[s];
		short fg = level == COLORS_256 ? d->fg256 : d->fg8;
		short bg = level == COLORS_256 ? d->bg256 : d->bg8;

		if (level == COLORS_NONE) {
			style_attr[s] = d->mono;
		} else if (fg == -1 && bg == -1) {
			style_attr[s] = d->color_attr;
		} else {
			init_pair((short)(1 + s), fg, bg);
			style_attr[s] = COLOR_PAIR(1 + s) | d->color_attr;
		}
	}
	for (int i = 0; i < draw_palette_size() && level != COLORS_NONE; i++) {
		short c = level == COLORS_256 ? palette256[i] : palette8[i];

		init_pair((short)(PAIR_FG + i), c, -1);
		init_pair((short)(PAIR_BAR + i),
			  level == COLORS_256 ? 16 : COLOR_BLACK, c);
	}
}

int draw_ascii(void)
{
	return use_ascii;
}

int draw_tf(void)
{
	return use_ascii ? TF_ASCII : 0;
}

enum color_level draw_colors(void)
{
	return level;
}

const char *draw_glyph(enum glyph g)
{
	return glyphs[g][use_ascii ? 1 : 0];
}

attr_t draw_style(enum style s)
{
	return style_attr[s];
}

/* Bytes of a key the palette looks at: names longer than this (of
 * megabytes, from a hostile file) cost no more per frame. */
#define KEY_BYTES 1024

int draw_palette_slot(const char *key)
{
	uint32_t h = 2166136261u;	/* FNV-1a */
	const unsigned char *p = (const unsigned char *)key;

	for (size_t i = 0; i < KEY_BYTES && p[i]; i++)
		h = (h ^ p[i]) * 16777619u;
	return (int)(h % (uint32_t)draw_palette_size());
}

attr_t draw_fg(int slot)
{
	return level == COLORS_NONE ? A_NORMAL : COLOR_PAIR(PAIR_FG + slot);
}

attr_t draw_bar(int slot)
{
	return level == COLORS_NONE ? A_REVERSE : COLOR_PAIR(PAIR_BAR + slot);
}

void draw_fill(WINDOW *win, int y, int x, int w, attr_t a)
{
	if (w <= 0)
		return;
	wattrset(win, a);
	wmove(win, y, x);
	for (int i = 0; i < w; i++)
		waddch(win, ' ');
}

/* Puts s (safe text) clipped to w columns, with an ellipsis when cut. */
static int put_clipped(WINDOW *win, int y, int x, int w, const char *s,
		       attr_t a)
{
	int width = text_width(s);
	size_t len;

	if (w <= 0)
		return 0;
	wattrset(win, a);
	if (width <= w) {
		mvwaddstr(win, y, x, s);
		return width;
	}
	/* the ellipsis takes the last column; a wide character that did
	 * not fit leaves a gap before it */
	len = text_fit(s, w - 1);
	mvwaddnstr(win, y, x, s, (int)len);
	getyx(win, y, width);
	while (width < x + w - 1) {
		waddch(win, ' ');
		width++;
	}
	waddstr(win, draw_glyph(G_ELLIPSIS));
	return w;
}

int draw_str(WINDOW *win, int y, int x, int w, const char *s, attr_t a)
{
	return put_clipped(win, y, x, w, s, a);
}

/* Bytes of untrusted text enough for w columns (a character takes
 * at most 4 bytes): the rest of a long name is never looked at. */
#define FIT_BYTES(w) (4 * (size_t)NX_MAX(w, 0) + 16)

int draw_text(WINDOW *win, int y, int x, int w, const char *s, attr_t a,
	      int pad)
{
	size_t n;
	int used;

	s = s ? s : "";
	n = strnlen(s, FIT_BYTES(w));
	sb_reset(&scratch);
	if (s[n]) {
		/* cut on a character, marked as cut whatever fits */
		while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
		text_sanitize_n(&scratch, s, n, use_ascii);
		sb_adds(&scratch, draw_glyph(G_ELLIPSIS));
	} else {
		text_sanitize_n(&scratch, s, n, use_ascii);
	}
	used = put_clipped(win, y, x, w, sb_cstr(&scratch), a);
	if (pad && used < w)
		draw_fill(win, y, x + used, w - used, a);
	return pad ? NX_MAX(w, used) : used;
}

void draw_restyle(WINDOW *win, int y, int x, const char *blank, attr_t st,
		  attr_t flip, attr_t add)
{
	cchar_t cc;
	wchar_t wc[CCHARW_MAX + 1];
	attr_t a;
	short pair;

	if (mvwin_wch(win, y, x, &cc) == ERR ||
	    getcchar(&cc, wc, &a, &pair, NULL) == ERR)
		return;
	if (wc[0] == L' ') {
		draw_str(win, y, x, 1, blank, st);
		return;
	}
	if (!flip && !add)
		return;
	setcchar(&cc, wc, (a ^ flip) | add, pair, NULL);
	mvwadd_wch(win, y, x, &cc);
}
