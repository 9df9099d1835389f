#include "config.h"

#include "model/timefmt.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "model/util.h"

/* ns as a decimal in units of per with prec decimals, rounded half away
 * from zero, using integer arithmetic only. */
static void decimal(char *buf, size_t n, int64_t ns, int64_t per, int prec)
{
	uint64_t mag = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	uint64_t scale = 1;
	uint64_t whole, frac;

	for (int i = 0; i < prec && scale * 10 <= (uint64_t)per; i++)
		scale *= 10;
	prec = 0;
	for (uint64_t k = scale; k > 1; k /= 10)
		prec++;
	/* Rounded value in units of per/scale. */
	{
		uint64_t step = (uint64_t)per / scale;

		frac = mag / step + ((mag % step) * 2 >= step ? 1 : 0);
	}
	whole = frac / scale;
	frac %= scale;
	if (prec) {
		char digits[24];

		snprintf(digits, sizeof(digits), "%020" PRIu64, frac);
		snprintf(buf, n, "%s%" PRIu64 ".%s", ns < 0 ? "-" : "", whole,
			 digits + 20 - prec);
	} else
		snprintf(buf, n, "%s%" PRIu64, ns < 0 ? "-" : "", whole);
}

void timefmt_dur(char *buf, size_t n, int64_t ns, int prec, int flags)
{
	uint64_t mag = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	const char *unit;
	int64_t per;
	char num[48];

	if (mag < 1000) {
		per = 1, unit = "ns", prec = 0;
	} else if (mag < 1000000) {
		per = 1000, unit = flags & TF_ASCII ? "us" : "\xc2\xb5s";
	} else if (mag < 1000000000) {
		per = 1000000, unit = "ms";
	} else {
		per = 1000000000, unit = "s";
	}
	decimal(num, sizeof(num), ns, per, prec);
	/* "1.500 ms" reads better as "1.5 ms" */
	if (strchr(num, '.')) {
		char *e = num + strlen(num) - 1;

		while (*e == '0')
			*e-- = '\0';
		if (*e == '.')
			*e = '\0';
	}
	snprintf(buf, n, "%s%s%s", num, flags & TF_COMPACT ? "" : " ", unit);
}

int timefmt_unit(const char *s, int64_t *per)
{
	static const struct {
		const char *name;
		int64_t per;
	} units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "\xc2\xb5s", 1000 },
		{ "\xce\xbcs", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	};

	for (size_t i = 0; i < NX_ARRAY_SIZE(units); i++) {
		if (!strcmp(s, units[i].name)) {
			*per = units[i].per;
			return 0;
		}
	}
	return -1;
}

void timefmt_in_unit(char *buf, size_t n, int64_t ns, const char *unit,
		     int prec)
{
	int64_t per = 1;

	if (timefmt_unit(unit, &per))
		per = 1;
	decimal(buf, n, ns, per, per == 1 ? 0 : prec);
}

void timefmt_exact(char *buf, size_t n, int64_t ns, const char *unit)
{
	int64_t per = 1;
	int prec = 0;

	if (timefmt_unit(unit, &per))
		per = 1;
	for (int64_t p = per; p > 1; p /= 10)
		prec++;
	decimal(buf, n, ns, per, prec);
}

int timefmt_parse(const char *s, int64_t *out)
{
	uint64_t whole = 0, frac = 0, fscale = 1;
	int neg = 0, digits = 0;
	int64_t per = 1;
	const char *p = s;

	while (*p == ' ')
		p++;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	for (; *p >= '0' && *p <= '9'; p++, digits++) {
		if (whole > (UINT64_MAX - 9) / 10)
			return -1;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, digits++) {
			if (fscale < 1000000000) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				fscale *= 10;
			}
		}
	}
	if (!digits)
		return -1;
	while (*p == ' ')
		p++;
	if (*p && timefmt_unit(p, &per))
		return -1;
	if (whole > (uint64_t)INT64_MAX / (uint64_t)per)
		return -1;
	uint64_t v = whole * (uint64_t)per +
		     frac * (uint64_t)per / fscale;
	if (v > (uint64_t)INT64_MAX)
		return -1;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}
