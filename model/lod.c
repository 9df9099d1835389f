/* Level-of-detail arithmetic shared by the writer's finishing pass
 * (model/writer/finish.c) and the reader. */
#include "config.h"

#include "model/lod.h"

#include "model/cache/schema.h"

int64_t lod_floor_shift(int64_t v, int shift)
{
	if (v >= 0)
		return v >> shift;
	return -((-(v + 1)) >> shift) - 1;
}

void lod_whole_buckets(int level, int64_t min_ts, int64_t max_ts, int64_t t0,
		       int64_t t1, int64_t *b0, int64_t *b1)
{
	int64_t w = (int64_t)1 << (2 * level);

	*b0 = t0 <= min_ts ? lod_floor_shift(min_ts, 2 * level) :
			     lod_floor_shift(t0 + w - 1, 2 * level);
	*b1 = t1 > max_ts ? lod_floor_shift(max_ts, 2 * level) + 1 :
			    lod_floor_shift(t1, 2 * level);
}

int lod_level_for(int64_t v)
{
	int l = 0;

	while (l < LOD_MAX_LEVEL && ((int64_t)1 << (2 * l)) < v)
		l++;
	return l;
}
