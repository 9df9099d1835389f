/* The distribution of a set of durations: counts in fixed power-of-two
 * buckets of nanoseconds, the same bounds for every profile so that
 * exports compare, and exact nearest-rank percentiles.
 *
 * Bucket 0 holds [0, 2) ns, bucket k >= 1 holds [2^k, 2^(k+1)) ns. The
 * p-th percentile is the duration of rank ceil(p/100 x n) in ascending
 * order (nearest rank): always one of the durations. When only the
 * bucket counts are known (dist_add), the rank's bucket is known exactly
 * and the percentile is estimated as that bucket's highest duration. */
#ifndef NX_DIST_H
#define NX_DIST_H

#include <stddef.h>
#include <stdint.h>

#define DIST_BUCKETS 63
/* A bucket's highest duration is less than twice its lowest; a 32nd
 * of an octave (model/agg.h) at most 33/32 of its lowest. */
#define DIST_ERR_BUCKET 1.0
#define DIST_ERR_BIN (1.0 / 32)

struct dist {
	int measured;			/* 0: not measured, the rest unset */
	int estimated;			/* 1: p50..p99 are bucket bounds */
	/* how far above the exact percentile an estimate may be, as a
	 * fraction of it: DIST_ERR_BUCKET or DIST_ERR_BIN; 0 exact */
	double max_error;
	int64_t hist[DIST_BUCKETS];
	int64_t p50, p90, p99;
};

int dist_bucket(int64_t ns);
int64_t dist_lo(int b);		/* a bucket's lowest duration, ns */
int64_t dist_hi(int b);		/* its highest, ns */
/* durs: n durations in ascending order. */
void dist_from_sorted(const int64_t *durs, size_t n, struct dist *out);
/* The same for durations in any order, which it sorts. */
void dist_from_durations(int64_t *durs, size_t n, struct dist *out);
/* Counting without keeping the durations: dist_add each one, then
 * dist_estimate for the percentiles (estimated), none above max (the
 * longest duration when known; -1: unknown). */
void dist_add(struct dist *d, int64_t ns);
void dist_estimate(struct dist *d, int64_t max);

/* Durations counted by bin (model/agg.h: a 32nd of an octave, inside one
 * bucket): the bin's key, how many, the longest of them. */
struct dist_bin {
	int64_t value, n, dmax;
};

/* From bins in ascending order of duration: the histogram exact, each
 * percentile the longest duration of the bin holding its rank, never
 * above longest: at most one bin (DIST_ERR_BIN) above the exact nearest
 * rank, and marked estimated. d is added to (zero it first). */
void dist_from_bins(const struct dist_bin *v, size_t n, int64_t longest,
		    struct dist *d);

/* The histogram as one glyph per column, from the shortest's bucket to
 * the longest's, heights ▁..█ (ASCII ".:-=+*#@") relative to the fullest
 * column, an empty bucket a space. Wider than DIST_COLS, each column
 * covers 2, 4, ... buckets. "" when not measured or empty. */
#define DIST_COLS 16
#define DIST_GLYPHS_SIZE (DIST_COLS * 3 + 1)
char *dist_glyphs(const struct dist *d, int ascii, char *buf);

#endif
