#include "config.h"

#include "src/json/jscan.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/json/jsonsplit.h"
#include "src/json/jtext.h"

/* Decimal exponents beyond this cannot give an int64 anyway. */
#define MAX_EXP 400
/* Significant digits kept of a number: more than an int64 has. */
#define JSCAN_DIGITS 64

static const char *skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
		p++;
	return p;
}

/* End of a string starting after its opening quote; NULL if cut. */
static const char *string_end(const char *p, const char *end)
{
	while (p < end) {
		if (*p == '\\')
			p += 2;
		else if (*p == '"')
			return p;
		else
			p++;
	}
	return NULL;
}

/* One value at p: its span, and where it ends. */
static const char *value(const char *p, const char *end, struct jspan *v)
{
	int depth = 0;
	const char *q;

	p = skip_ws(p, end);
	if (p >= end)
		return NULL;
	switch (*p) {
	case '"':
		q = string_end(p + 1, end);
		if (!q)
			return NULL;
		v->p = p + 1;
		v->n = (size_t)(q - p - 1);
		v->type = JT_STRING;
		/* a number the splitter kept as its text */
		if (v->n && v->p[0] == JSPLIT_NUMTEXT) {
			v->p++;
			v->n--;
			v->type = JT_NUMBER;
		}
		return q + 1;
	case '{':
	case '[':
		v->type = *p == '{' ? JT_OBJECT : JT_ARRAY;
		for (q = p; q < end; q++) {
			if (*q == '"') {
				q = string_end(q + 1, end);
				if (!q)
					return NULL;
			} else if (*q == '{' || *q == '[') {
				depth++;
			} else if ((*q == '}' || *q == ']') && --depth == 0) {
				v->p = p;
				v->n = (size_t)(q + 1 - p);
				return q + 1;
			}
		}
		return NULL;
	default:
		for (q = p; q < end && *q != ',' && *q != '}' && *q != ']' &&
			    *q != ' ' && *q != '\n' && *q != '\r' && *q != '\t'; q++)
			;
		v->p = p;
		v->n = (size_t)(q - p);
		if (*p == 't' || *p == 'f')
			v->type = JT_BOOL;
		else if (*p == 'n')
			v->type = JT_NULL;
		else
			v->type = JT_NUMBER;
		return q;
	}
}

int jscan_object(struct jscan *s, const char *text, size_t len)
{
	const char *p = skip_ws(text, text + len);

	if (p >= text + len || *p != '{')
		return -1;
	s->p = p + 1;
	s->end = text + len;
	return 0;
}

int jscan_member(struct jscan *s, struct jspan *key, struct jspan *val)
{
	const char *p = skip_ws(s->p, s->end);

	if (p < s->end && *p == ',')
		p = skip_ws(p + 1, s->end);
	if (p < s->end && *p == '}') {
		s->p = p + 1;
		return 0;
	}
	p = value(p, s->end, key);
	if (!p || key->type != JT_STRING)
		return -1;
	p = skip_ws(p, s->end);
	if (p >= s->end || *p != ':')
		return -1;
	p = value(p + 1, s->end, val);
	if (!p)
		return -1;
	s->p = p;
	return 1;
}

int jscan_key_is(const struct jspan *key, const char *lit)
{
	size_t n = strlen(lit);

	return key->n == n && !memcmp(key->p, lit, n);
}

void jscan_text(const struct jspan *v, struct strbuf *out)
{
	sb_reset(out);
	if (v->type != JT_STRING) {
		sb_add(out, v->p, v->n);
		sb_cstr(out);
		return;
	}
	jt_unescape(v->p, v->n, out);
}

/* Digits of d times 10^e, where d is a run of decimal digits, or
 * JSCAN_RANGE past int64; *cut is set when a digit other than 0 is
 * dropped. Negative numbers are summed as negatives, so that INT64_MIN
 * is reached. */
static int scale_digits(const char *d, size_t nd, int neg, long e,
			int64_t *out, int *cut)
{
	int64_t v = 0, sign = neg ? -1 : 1;
	size_t keep;
	int up;

	if (e >= 0) {
		keep = nd;
	} else if ((size_t)-e >= nd) {
		keep = 0;
	} else {
		keep = nd - (size_t)-e;
	}
	for (size_t i = 0; i < keep; i++)
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, sign * (d[i] - '0'), &v))
			return JSCAN_RANGE;
	for (long i = 0; i < e; i++)
		if (__builtin_mul_overflow(v, 10, &v))
			return JSCAN_RANGE;
	for (size_t i = keep; i < nd; i++)
		*cut |= d[i] != '0';
	/* round on the first dropped digit: halves go away from zero */
	up = e < 0 && (size_t)-e <= nd && d[keep] >= '5';
	if (up && __builtin_add_overflow(v, sign, &v))
		return JSCAN_RANGE;
	*out = v;
	return 0;
}

/* Keeps the significant digit c of a number in digits (nd of them so
 * far); past the buffer, which holds more than int64 needs, a digit
 * only counts for *cut. */
static void add_digit(char *digits, size_t *nd, char c, int *cut)
{
	if (!*nd && c == '0')
		return;
	if (*nd == JSCAN_DIGITS)
		*cut |= c != '0';
	else
		digits[(*nd)++] = c;
}

int jscan_decimal(const char *p, size_t n, int scale, int64_t *out,
		  int *cut)
{
	const char *end = p + n;
	char digits[JSCAN_DIGITS];
	size_t nd = 0;
	long e = scale, x = 0;
	int neg = 0, any = 0, xneg = 0, lost = 0;

	while (p < end && *p == ' ')
		p++;
	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	for (; p < end && *p >= '0' && *p <= '9'; p++, any = 1) {
		/* beyond the buffer: int64 overflows anyway; keep magnitude */
		if (nd == JSCAN_DIGITS)
			e++;
		add_digit(digits, &nd, *p, &lost);
	}
	if (p < end && *p == '.') {
		for (p++; p < end && *p >= '0' && *p <= '9'; p++, any = 1) {
			if (nd < JSCAN_DIGITS)
				e--;
			add_digit(digits, &nd, *p, &lost);
		}
	}
	if (!any)
		return -1;
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '-' || *p == '+'))
			xneg = *p++ == '-';
		if (p >= end || *p < '0' || *p > '9')
			return -1;
		for (; p < end && *p >= '0' && *p <= '9'; p++)
			if (x < MAX_EXP * 10)
				x = x * 10 + (*p - '0');
		e += xneg ? -x : x;
	}
	while (p < end && *p == ' ')
		p++;
	if (p != end)
		return -1;
	if (cut)
		*cut = lost;
	if (!nd) {
		*out = 0;
		return 0;
	}
	if (e > MAX_EXP)
		return JSCAN_RANGE;
	if (e < -MAX_EXP)
		e = -MAX_EXP;
	return scale_digits(digits, nd, neg, e, out, cut ? cut : &lost);
}

int jscan_scaled(const struct jspan *v, int scale, int64_t *out)
{
	if (v->type != JT_NUMBER && v->type != JT_STRING)
		return -1;
	return jscan_decimal(v->p, v->n, scale, out, NULL);
}

int jscan_double(const struct jspan *v, double *out)
{
	/* past the splitter's longest number literal */
	char buf[512], *endp;
	const char *p = v->p;
	size_t n = v->n;

	if (v->type != JT_NUMBER && v->type != JT_STRING)
		return -1;
	if (!n || n >= sizeof(buf))
		return -1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	errno = 0;
	*out = strtod(buf, &endp);
	if (*endp || endp == buf)
		return -1;
	if (errno == ERANGE && isinf(*out))
		return JSCAN_RANGE;
	/* strtod's "nan" and "inf" are no JSON numbers */
	return isfinite(*out) ? 0 : -1;
}

void jscan_untag(const char *p, size_t n, struct strbuf *out)
{
	const char *end = p + n;

	while (p < end) {
		const char *q = memchr(p, JSPLIT_NUMTEXT, (size_t)(end - p));

		/* the tag sits right after the quote of a tagged number */
		if (!q || q == p) {
			sb_add(out, p, (size_t)((q ? q : end) - p));
			if (!q)
				break;
			p = q + 1;
			continue;
		}
		sb_add(out, p, (size_t)(q - 1 - p));
		for (p = q + 1; p < end && *p != '"'; p++)
			sb_addc(out, *p);
		p++;
	}
	sb_cstr(out);
}
