/* Busy time of a row inside a time range, as the Selection Summary and
 * the performance bounds measure it. */
#ifndef NX_BUSY_H
#define NX_BUSY_H

#include <stdint.h>

#include "model/model.h"

/* The time inside [t0, t1) a row is covered by any event: exact, and
 * fast on long ranges (level-of-detail buckets inside, events at the
 * edges). */
int busy_track(struct model *m, const struct mtrack *t, int64_t t0,
	       int64_t t1, int64_t *busy);

#endif
