/* The time axis: ticks that land on round values, and their labels. */
#ifndef NX_TUI_AXIS_H
#define NX_TUI_AXIS_H

#include <stddef.h>
#include <stdint.h>

#define AXIS_MAX_TICKS 64

struct axis {
	int64_t step;		/* ns between ticks: 1, 2 or 5 x 10^k */
	const char *unit;	/* "ns", "us", "ms", "s" for every label */
	int prec;		/* decimals the step needs in that unit */
	int ascii;		/* labels say "us" for "µs" */
	int n;
	int col[AXIS_MAX_TICKS];
	int64_t t[AXIS_MAX_TICKS];	/* ns since origin */
};

/* Ticks for ncols columns of colw ns starting at t0; labels count time
 * from origin (the profile's start), in ASCII units when ascii is set. */
void axis_compute(struct axis *a, int64_t t0, int64_t colw, int ncols,
		  int64_t origin, int ascii);
/* A tick's label, e.g. "1.25ms". */
void axis_label(const struct axis *a, int64_t t, char *buf, size_t n);

#endif
