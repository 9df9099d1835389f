/* Tick steps are 1, 2 or 5 times a power of ten, the smallest whose
 * labels fit between ticks. The unit follows the largest time on screen,
 * the decimals follow the step, so every label on the axis reads alike. */
#include "config.h"

#include "tui/axis.h"

#include <stdio.h>
#include <string.h>

#include "model/timefmt.h"
#include "model/util.h"

static int64_t mag(int64_t v)
{
	return v < 0 ? (v == INT64_MIN ? INT64_MAX : -v) : v;
}

static void pick_unit(struct axis *a, int64_t biggest, int step_exp)
{
	static const struct {
		int64_t below;
		const char *name;
		int exp;
	} units[] = {
		{ 1000, "ns", 0 },
		{ 1000000, "us", 3 },
		{ 1000000000, "ms", 6 },
		{ INT64_MAX, "s", 9 },
	};
	size_t i = 0;

	while (i + 1 < NX_ARRAY_SIZE(units) && biggest >= units[i].below)
		i++;
	a->unit = units[i].name;
	a->prec = NX_MAX(units[i].exp - step_exp, 0);
}

void axis_label(const struct axis *a, int64_t t, char *buf, size_t n)
{
	char num[48];

	timefmt_in_unit(num, sizeof(num), t, a->unit, a->prec);
	/* timefmt spells the unit itself so ASCII mode gets "us" */
	if (!strcmp(a->unit, "us")) {
		char u[16];

		timefmt_dur(u, sizeof(u), 1000, 0, TF_COMPACT | (a->ascii ? TF_ASCII : 0));
		snprintf(buf, n, "%s%s", num, u + 1);
	} else {
		snprintf(buf, n, "%s%s", num, a->unit);
	}
}

/* floor(a / b) for b > 0 */
static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;

	return (a % b != 0 && a < 0) ? q - 1 : q;
}

void axis_compute(struct axis *a, int64_t t0, int64_t colw, int ncols,
		  int64_t origin, int ascii)
{
	static const int mult[] = { 1, 2, 5 };
	int64_t span = colw * ncols, rel0 = t0 - origin;
	int64_t biggest = NX_MAX(mag(rel0), mag(rel0 + span));

	memset(a, 0, sizeof(*a));
	a->ascii = ascii;
	a->step = 1;
	pick_unit(a, biggest, 0);
	if (ncols <= 0 || colw <= 0)
		return;
	for (int64_t p10 = 1, e = 0; e < 19; e++, p10 *= 10) {
		int found = 0;

		for (size_t i = 0; i < NX_ARRAY_SIZE(mult); i++) {
			int64_t step = mult[i] * p10;
			char l1[48], l2[48];
			int64_t gap;

			if (step / mult[i] != p10)
				break;
			gap = step / colw;
			if (gap < 4)
				continue;
			a->step = step;
			pick_unit(a, biggest, (int)e);
			axis_label(a, rel0, l1, sizeof(l1));
			axis_label(a, rel0 + span, l2, sizeof(l2));
			if (gap >= (int64_t)NX_MAX(strlen(l1), strlen(l2)) + 2) {
				found = 1;
				break;
			}
		}
		if (found || p10 > INT64_MAX / 10)
			break;
	}
	for (int64_t k = floor_div(sat_add(rel0, a->step - 1), a->step);
	     a->n < AXIS_MAX_TICKS; k++) {
		int64_t rel, col;

		/* a tick past the 64-bit range is past the screen too */
		if (__builtin_mul_overflow(k, a->step, &rel) ||
		    __builtin_sub_overflow(rel, rel0, &col))
			break;
		col = floor_div(col, colw);

		if (col >= ncols)
			break;
		if (col < 0)
			continue;
		a->col[a->n] = (int)col;
		a->t[a->n] = rel;
		a->n++;
	}
}
