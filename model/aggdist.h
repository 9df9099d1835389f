/* The distributions of a selection's names read from the duration
 * aggregates (model/agg.h, field AGG_DUR), for selections too big to
 * read event by event: whole buckets inside the range from the
 * aggregates' bins, the two edge buckets from the events.
 *
 * A bin is a 32nd of an octave and lies inside one power-of-two bucket
 * of model/dist.h, so the bucket counts are exact. A percentile is the
 * longest duration of the bin holding its rank (never above the value's
 * longest): at most one bin above the exact nearest rank, a bin being
 * 1/32 of its lowest duration or less (3.1 %), and marked estimated. A row whose aggregates keep
 * durations without names (too coarse for its span) gets them only when
 * it has one name. */
#ifndef NX_AGGDIST_H
#define NX_AGGDIST_H

#include <stdint.h>

#include "model/model.h"
#include "model/selection.h"

/* sf: the row's name field (AGG_NAME); fills its lines' dist. */
int aggdist_names(struct model *m, const struct mtrack *t, int64_t t0,
		  int64_t t1, struct sel_field *sf);

#endif
