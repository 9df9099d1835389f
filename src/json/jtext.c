#include "config.h"

#include "src/json/jtext.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/text.h"

int jt_hex4(const char *p, unsigned *out)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* Code points that name no character (U+0000, lone surrogates) become
 * U+FFFD, as the splitter makes them in records. */
static void put_utf8(struct strbuf *out, unsigned cp)
{
	char b[4];

	if (cp == 0 || (cp >= 0xd800 && cp <= 0xdfff))
		cp = 0xfffd;
	sb_add(out, b, text_utf8_put(cp, b));
}

/* \uXXXX, with a following low surrogate when this is a high one.
 * Returns the bytes consumed after the backslash. */
static size_t unicode_escape(const char *p, const char *end, struct strbuf *out)
{
	unsigned hi, lo;

	if (end - p < 5 || jt_hex4(p + 1, &hi)) {
		put_utf8(out, 0xfffd);
		return 1;
	}
	if (hi >= 0xd800 && hi <= 0xdbff && end - p >= 11 && p[5] == '\\' &&
	    p[6] == 'u' && !jt_hex4(p + 7, &lo) && lo >= 0xdc00 && lo <= 0xdfff) {
		put_utf8(out, 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00));
		return 11;
	}
	put_utf8(out, hi);
	return 5;
}

void jt_unescape(const char *p, size_t n, struct strbuf *out)
{
	const char *end = p + n;

	while (p < end) {
		const char *q = memchr(p, '\\', (size_t)(end - p));

		if (!q)
			q = end;
		sb_add(out, p, (size_t)(q - p));
		if (q == end)
			break;
		p = q + 1;
		if (p >= end)
			break;
		switch (*p) {
		case 'n': sb_addc(out, '\n'); break;
		case 't': sb_addc(out, '\t'); break;
		case 'r': sb_addc(out, '\r'); break;
		case 'b': sb_addc(out, '\b'); break;
		case 'f': sb_addc(out, '\f'); break;
		case 'u':
			p += unicode_escape(p, end, out);
			continue;
		default: sb_addc(out, *p); break;
		}
		p++;
	}
	sb_cstr(out);
}

/* End of the run of decimal digits at p. */
static const char *digits_end(const char *p, const char *end)
{
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	return p;
}

const char *jt_number_error(const char *p, size_t n, size_t *at)
{
	const char *start = p, *end = p + n, *q, *why = NULL;

	if (p < end && *p == '-')
		p++;
	if (p < end && *p == '0')
		p++;
	else if ((q = digits_end(p, end)) > p)
		p = q;
	else
		why = start < p ? "a digit after '-'" : "a digit";
	if (!why && p < end && *p >= '0' && *p <= '9')
		why = "no digit after a leading 0";
	if (!why && p < end && *p == '.') {
		if ((q = digits_end(p + 1, end)) == p + 1)
			why = "a digit after '.'";
		p = q;
	}
	if (!why && p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		if ((q = digits_end(p, end)) == p)
			why = "a digit in the exponent";
		p = q;
	}
	if (!why && p < end)
		why = "the number to end";
	*at = (size_t)(p - start);
	return why;
}

int jt_is_number(const char *p, size_t n)
{
	size_t at;

	return !jt_number_error(p, n, &at);
}

void jt_i64(struct strbuf *sb, int64_t v)
{
	sb_printf(sb, "%" PRId64, v);
}

void jt_u64(struct strbuf *sb, uint64_t v)
{
	sb_printf(sb, "%" PRIu64, v);
}

void jt_f64(struct strbuf *sb, double v)
{
	char buf[32];

	if (!isfinite(v)) {
		sb_adds(sb, "null");
		return;
	}
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	sb_adds(sb, buf);
}
