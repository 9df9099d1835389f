/* The durations of a search's matches in a time range: shortest,
 * longest and their distribution (model/dist.h), read match by match
 * when there are few enough of them. */
#ifndef NX_SEARCHDIST_H
#define NX_SEARCHDIST_H

#include <stdint.h>

#include "model/dist.h"
#include "model/search.h"

/* Above this many matches the durations are not read. */
#define SEARCH_DIST_MAX 100000

struct search_dist {
	int64_t dmin, dmax;	/* -1: not measured */
	struct dist dist;	/* exact percentiles; measured as dmin */
};

/* count: the matches in [t0, t1) (search_stats). */
int search_dist(struct search *s, int64_t t0, int64_t t1, int64_t count,
		struct search_dist *out);

#endif
