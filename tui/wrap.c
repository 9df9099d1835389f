/* Lines are found in one pass: each newline is looked for once, and
 * each line's end by text_fit_n over that line alone. */
#include "config.h"

#include "tui/wrap.h"

#include <stdlib.h>
#include <string.h>

#include "model/text.h"

static void add(struct wrap *wr, size_t off, size_t len)
{
	wr->lines = xgrow(wr->lines, &wr->cap, wr->n + 1, sizeof(*wr->lines));
	wr->lines[wr->n++] = (struct wline){ off, len };
}

/* Bytes of the (possibly invalid) character at s, of n. */
static size_t char_len(const char *s, size_t n)
{
	unsigned cp;
	size_t len = text_utf8_char((const unsigned char *)s, n, &cp);

	return len ? len : 1;
}

size_t wrap_text(struct wrap *wr, const char *text, size_t n, int w,
		 size_t max)
{
	size_t off = 0, added = 0;

	w = NX_MAX(w, 1);
	for (;;) {
		const char *nl = memchr(text + off, '\n', n - off);
		size_t end = nl ? (size_t)(nl - text) : n;

		do {
			size_t len;

			if (max && added == max)
				return off;
			len = text_fit_n(text + off, end - off, w);
			if (!len && off < end)
				len = char_len(text + off, end - off);
			add(wr, off, len);
			added++;
			off += len;
		} while (off < end);
		if (!nl)
			return n;
		off = end + 1;
	}
}

/* One paragraph: the bytes [off, n) of text, no newline among them. */
static void words(struct wrap *wr, const char *text, size_t off, size_t n,
		  int w)
{
	size_t before = wr->n;

	while (off < n || wr->n == before) {
		size_t len = text_fit_n(text + off, n - off, w);

		if (off + len < n && wr->mark)
			len = text_fit_n(text + off, n - off,
					 NX_MAX(w - wr->mark, 1));
		if (!len && off < n)
			len = char_len(text + off, n - off);
		if (off + len < n) {
			/* back to the last blanks after a word that fit,
			 * or are just past the line; none: cut the word */
			size_t b = len;

			while (b > 0 && text[off + b] != ' ')
				b--;
			while (b > 0 && text[off + b - 1] == ' ')
				b--;
			if (b > 0)
				len = b;
		}
		add(wr, off, len);
		off += len;
		while (off < n && text[off] == ' ')
			off++;
	}
}

size_t wrap_words(struct wrap *wr, const char *text, size_t n, int w)
{
	size_t off = 0, before = wr->n;

	w = NX_MAX(w, 1);
	for (;;) {
		const char *nl = memchr(text + off, '\n', n - off);
		size_t end = nl ? (size_t)(nl - text) : n;

		words(wr, text, off, end, w);
		if (!nl)
			return wr->n - before;
		off = end + 1;
	}
}

int wrap_goes_on(const struct wrap *wr, const char *text, size_t i)
{
	return i + 1 < wr->n && text[wr->lines[i + 1].off - 1] != '\n';
}

void wrap_free(struct wrap *wr)
{
	free(wr->lines);
	memset(wr, 0, sizeof(*wr));
}

void wrap_clean(struct strbuf *out, const char *s, size_t n, int ascii)
{
	size_t off = 0;

	for (;;) {
		const char *nl = memchr(s + off, '\n', n - off);
		size_t end = nl ? (size_t)(nl - s) : n;

		text_sanitize_n(out, s + off, end - off, ascii);
		if (!nl)
			break;
		sb_addc(out, '\n');
		off = end + 1;
	}
	sb_cstr(out);
}
