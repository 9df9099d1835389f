#include "config.h"

#include "src/json/jtext.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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
