/* The Selection Summary of a box select (or of the visible window): over
 * a time range and a set of rows, the totals, then per row a table per
 * field (opcode, layer, HLO / variable, queue type, transfer size / name,
 * category) with count, duration sum, average, shortest and longest.
 *
 * An event belongs to the selection when it starts inside [t0, t1).
 * Active time is the time inside [t0, t1) during which the row is busy
 * (covered by any event, wherever it started). Every field's table sums
 * to its row: events without a value for it are one more value,
 * "(none)". With them come the performance bounds of [t0, t1) over every
 * row (model/bounds.h). */
#ifndef NX_SELECTION_H
#define NX_SELECTION_H

#include <stdint.h>

#include "model/bounds.h"
#include "model/dist.h"
#include "model/model.h"

/* The "(none)" lines' shortest and longest, and every line's
 * distribution, are read from the events when the selection holds at
 * most this many. */
#define SEL_NONE_EXACT_MAX 100000
/* Above that and up to this many, the values of the fields the event
 * index holds (name, category, transfer size) get their distributions
 * counted in one pass over the index: exact bucket counts, percentiles
 * estimated as their bucket's bound; their "(none)" lines' shortest and
 * longest are exact. Above it, only the name lines get theirs, from the
 * duration aggregates (model/selection_agg.c). */
#define SEL_DIST_COUNT_MAX 2000000

struct sel_value {
	char *value;		/* display text of the value */
	int64_t n, dur;
	int64_t dmin, dmax;	/* -1: not measured (a "(none)" line) */
	int none;		/* the events without a value: "(none)" */
	int64_t key;		/* the value's string id or number */
	struct dist dist;	/* its durations; measured: see above */
};

struct sel_field {
	const char *name;	/* "opcode", "layer", ... */
	int agg;		/* its enum agg_field */
	struct sel_value *rows;	/* by duration sum, longest first */
	size_t nrows;
};

struct sel_counter {
	int64_t n;		/* samples in the range */
	double vmin, vmax, mean;
};

struct sel_group {
	int64_t track;
	char *name, *kind, *unit;
	int64_t n, dur, active;
	struct sel_field fields[3];
	size_t nfields;
	struct sel_counter counter;	/* counter rows */
};

struct selection {
	int64_t t0, t1;
	int64_t end;		/* where the range shows its end and is
				 * measured to (model_range_end) */
	int64_t n, dur;
	int64_t active;		/* any selected row busy */
	int active_exact;	/* 0: active is measured per 1/4096 of the range */
	struct sel_group *groups;
	size_t ngroups;
	struct bounds bounds;	/* of [t0, t1), every row */
};

/* tracks: the selected rows (group rows select their children); NULL
 * with ntracks 0 selects every row of the profile. */
int selection_compute(struct model *m, int64_t profile, int64_t t0,
		      int64_t t1, const int64_t *tracks, size_t ntracks,
		      struct selection *out);
void selection_free(struct selection *s);

/* The events of row t named name (a string id) in [t0, t1): their
 * count and total duration, from the name aggregates for the whole
 * buckets in the range and from the events at its edges. */
int selection_name_total(struct model *m, const struct mtrack *t, int64_t t0,
			 int64_t t1, int64_t name, int64_t *n, int64_t *dur);

/* Above SEL_DIST_COUNT_MAX (model/selection_agg.c): the distributions
 * of a row's names from the duration aggregates (model/agg.h, field
 * AGG_DUR), whole buckets inside the range from the aggregates' bins,
 * the two edge buckets from the events. A bin is a 32nd of an octave
 * and lies inside one power-of-two bucket of model/dist.h, so the
 * bucket counts are exact. A percentile is the longest duration of the
 * bin holding its rank (never above the value's longest): at most one
 * bin above the exact nearest rank, a bin being at most 1/32 (3.1 %)
 * of its lowest duration, and marked estimated. A row whose aggregates
 * keep durations without names (too sparse for names) gets them only
 * when it has one name. sf: the row's name field (AGG_NAME). */
int selection_agg_names(struct model *m, const struct mtrack *t, int64_t t0,
			int64_t t1, struct sel_field *sf);


#endif
