/* Level-of-detail arithmetic shared by the writer and the reader. Level L
 * has buckets 4^L ns wide, aligned to 0 on the profile's time axis. */
#ifndef NX_LOD_H
#define NX_LOD_H

#include <stdint.h>

/* Tracks with fewer events get no level of detail. */
#define LOD_MIN_EVENTS 64

/* floor(v / 2^shift) for negative v too. */
int64_t lod_floor_shift(int64_t v, int shift);
/* Smallest level whose buckets are at least v ns wide. */
int lod_level_for(int64_t v);
/* The buckets [*b0, *b1) of a level whose events all start in [t0, t1),
 * for a track whose events start in [min_ts, max_ts]: a bucket wider
 * than the range still counts when the track's events in it do. */
void lod_whole_buckets(int level, int64_t min_ts, int64_t max_ts, int64_t t0,
		       int64_t t1, int64_t *b0, int64_t *b1);
static inline int64_t lod_width(int level)
{
	return (int64_t)1 << (2 * level);
}

#endif
