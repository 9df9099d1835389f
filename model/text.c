#include "config.h"

#include "model/text.h"

#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>

size_t text_utf8_char(const unsigned char *s, size_t n, unsigned *cp)
{
	unsigned c = s[0], v;
	size_t len;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		v = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		v = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		v = c & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((len == 3 && v < 0x800) || (len == 4 && v < 0x10000) ||
	    (v >= 0xd800 && v <= 0xdfff) || v > 0x10ffff)
		return 0;
	*cp = v;
	return len;
}

size_t text_utf8_put(unsigned cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

int text_shown(unsigned cp)
{
	/* controls, bidi overrides that reorder text, and the zero-width
	 * joiner: tmux and many terminals draw emoji joined by it as one
	 * glyph two columns wide, where curses and wcwidth() count every
	 * part, and the rest of the line lands columns away */
	return !(cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) ||
		 cp == 0x200d || cp == 0x2028 || cp == 0x2029 ||
		 (cp >= 0x202a && cp <= 0x202e) ||
		 (cp >= 0x2066 && cp <= 0x2069));
}

static void replacement(struct strbuf *out, int ascii)
{
	if (ascii)
		sb_addc(out, '?');
	else
		sb_add(out, "\xef\xbf\xbd", 3);
}

void text_sanitize_n(struct strbuf *out, const char *str, size_t n, int ascii)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	while (i < n) {
		unsigned cp;
		size_t len = text_utf8_char(s + i, n - i, &cp);

		if (!len) {
			replacement(out, ascii);
			i++;
			continue;
		}
		if (!text_shown(cp)) {
			if (cp == '\t')
				sb_addc(out, ' ');
			else
				replacement(out, ascii);
		} else if (ascii && cp >= 0x80) {
			sb_addc(out, '?');
		} else {
			sb_add(out, s + i, len);
		}
		i += len;
	}
}

void text_sanitize(struct strbuf *out, const char *s, int ascii)
{
	text_sanitize_n(out, s ? s : "", s ? strlen(s) : 0, ascii);
}

char *text_clean(const char *s)
{
	struct strbuf sb;

	sb_init(&sb);
	text_sanitize(&sb, s, 0);
	return sb_detach(&sb);
}

static int cp_width(unsigned cp)
{
	int w = wcwidth((wchar_t)cp);

	if (w >= 0)
		return w;
	/* wcwidth needs a UTF-8 locale; fall back to common wide ranges */
	if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) ||
	    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
	    (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
	    (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1faff) ||
	    (cp >= 0x20000 && cp <= 0x3fffd))
		return 2;
	return cp < 0x20 ? 0 : 1;
}

int text_width(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str), i = 0;
	int w = 0;

	while (i < n) {
		unsigned cp;
		size_t len = text_utf8_char(s + i, n - i, &cp);

		if (!len) {
			w++;
			i++;
			continue;
		}
		w += cp_width(cp);
		i += len;
	}
	return w;
}

size_t text_fit_n(const char *str, size_t n, int cols)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;
	int w = 0;

	/* n may run past the end: the NUL stops both the loop and any
	 * character it would cut */
	while (i < n && s[i]) {
		unsigned cp;
		size_t len = text_utf8_char(s + i, n - i, &cp);
		int cw;

		if (!len) {
			len = 1;
			cw = 1;
		} else {
			cw = cp_width(cp);
		}
		if (w + cw > cols)
			break;
		w += cw;
		i += len;
	}
	return i;
}

size_t text_fit(const char *str, int cols)
{
	return text_fit_n(str, SIZE_MAX, cols);
}

/* Byte offset where the longest end of s that fits in cols columns
 * starts; s is width columns wide. */
static size_t tail_fit(const char *str, int width, int cols)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str), i = 0;

	while (i < n && width > cols) {
		unsigned cp;
		size_t len = text_utf8_char(s + i, n - i, &cp);

		width -= len ? cp_width(cp) : 1;
		i += len ? len : 1;
	}
	return i;
}

void text_shorten(struct strbuf *out, const char *s, int cols)
{
	int width = text_width(s), tail;
	size_t head;

	if (width <= cols) {
		sb_adds(out, s);
		return;
	}
	cols = NX_MAX(cols, 3);
	tail = (cols - 1) / 2;
	head = text_fit(s, cols - 1 - tail);
	sb_add(out, s, head);
	sb_adds(out, "\xe2\x80\xa6");	/* … */
	sb_adds(out, s + tail_fit(s, width, tail));
}

void text_json_str(struct strbuf *sb, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, run;

	sb_addc(sb, '"');
	while (i < n) {
		unsigned cp;
		size_t len;

		/* copy plain ASCII in runs */
		for (run = i; run < n && s[run] >= 0x20 && s[run] < 0x80 &&
			      s[run] != '"' && s[run] != '\\'; run++)
			;
		if (run > i) {
			sb_add(sb, s + i, run - i);
			i = run;
			continue;
		}
		if (s[i] == '"' || s[i] == '\\') {
			sb_addc(sb, '\\');
			sb_addc(sb, (char)s[i++]);
			continue;
		}
		if (s[i] < 0x20) {
			sb_printf(sb, "\\u%04x", s[i++]);
			continue;
		}
		len = text_utf8_char(s + i, n - i, &cp);
		if (!len) {
			sb_add(sb, "\xef\xbf\xbd", 3);
			i++;
			continue;
		}
		sb_add(sb, s + i, len);
		i += len;
	}
	sb_addc(sb, '"');
}

int text_mentions(const char *s, const char *word)
{
	size_t n = strlen(word);

	for (; s && *s; s++)
		if (!strncasecmp(s, word, n))
			return 1;
	return 0;
}
