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
};

/* Appends the lines of the n bytes of text (cleaned by wrap_clean) at
 * most w columns wide, stopping after max lines (0: no limit). A line
 * ends at a newline (on neither line) or before the character that
 * would not fit; a character wider than w has a line of its own; empty
 * text is one empty line. Returns the bytes laid out: n, or fewer when
 * max stopped it. Takes time in proportion to those bytes. */
size_t wrap_text(struct wrap *wr, const char *text, size_t n, int w,
		 size_t max);
/* Appends the lines of the n bytes of one paragraph (no newlines) at most
 * w columns wide, breaking at blanks: the blanks at a break are on
 * neither line; a word wider than w is cut. Returns the lines added (at
 * least one). For prose nxtop writes, not for profile text. */
size_t wrap_words(struct wrap *wr, const char *text, size_t n, int w);
void wrap_free(struct wrap *wr);
/* Appends s (n bytes, untrusted) cleaned for the terminal as
 * text_sanitize does, but with its newlines kept as line breaks. */
void wrap_clean(struct strbuf *out, const char *s, size_t n, int ascii);

#endif
