/* Text laid out in lines of a width, for the details pane and the
 * pager. Wrapping only breaks lines, it never adds a character: the
 * lines' bytes joined (with a newline where the text has one) are the
 * text, so what is copied from the screen is what the profile says. */
#ifndef NX_TUI_WRAP_H
#define NX_TUI_WRAP_H

#include <stddef.h>

#include "model/util.h"

/* A line: bytes [off, off + len) of the text. */
struct wline {
	size_t off, len;
};

struct wrap {
	struct wline *lines;
	size_t n, cap;
	int mark;	/* wrap_words: columns a line the text goes on from
			 * keeps free at its end, for a mark saying so */
};

/* Appends the lines of the n bytes of text (cleaned by wrap_clean) at
 * most w columns wide, stopping after max lines (0: no limit). A line
 * ends at a newline (on neither line) or before the character that
 * would not fit; a character wider than w has a line of its own; empty
 * text is one empty line. Returns the bytes laid out: n, or fewer when
 * max stopped it. Takes time in proportion to those bytes. */
size_t wrap_text(struct wrap *wr, const char *text, size_t n, int w,
		 size_t max);
/* Appends the lines of the n bytes of text at most w columns wide (w -
 * wr->mark where the text goes on past the line), breaking at blanks:
 * the blanks at a break are on neither line; a word wider than that is
 * cut. A line ends at a newline too (on neither line). Returns the lines
 * added (at least one). For text nxtop writes, not for profile text. */
size_t wrap_words(struct wrap *wr, const char *text, size_t n, int w);
/* 1 if the text goes on from line i on line i + 1 with no newline
 * between: the line was broken to fit (text is what was laid out). */
int wrap_goes_on(const struct wrap *wr, const char *text, size_t i);
void wrap_free(struct wrap *wr);
/* Appends s (n bytes, untrusted) cleaned for the terminal as
 * text_sanitize does, but with its newlines kept as line breaks. */
void wrap_clean(struct strbuf *out, const char *s, size_t n, int ascii);

#endif
