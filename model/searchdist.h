/* The durations of a search's matches in a time range: shortest,
 * longest and their distribution (model/dist.h). Up to SEARCH_DIST_MAX
 * matches every duration is read and the percentiles are exact; above,
 * they are counted by bin (a 32nd of an octave), name-only queries and
 * dur comparisons reading the aggregates' bins (search_durations), and
 * the percentiles are estimated: at most DIST_ERR_BIN above the exact
 * ones. Shortest, longest and histogram are exact either way. */
#ifndef NX_SEARCHDIST_H
#define NX_SEARCHDIST_H

#include <stdint.h>

#include "model/dist.h"
#include "model/search.h"

/* Above this many matches the durations are counted by bin. */
#define SEARCH_DIST_MAX 100000

struct search_dist {
	int64_t dmin, dmax;	/* -1: not measured */
	struct dist dist;
};

/* count: the matches in [t0, t1) (search_stats). */
int search_dist(struct search *s, int64_t t0, int64_t t1, int64_t count,
		struct search_dist *out);

#endif
