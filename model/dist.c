#include "config.h"

#include "model/dist.h"

#include <string.h>

int dist_bucket(int64_t ns)
{
	int b = 0;

	while (b + 1 < DIST_BUCKETS && ns >> (b + 1))
		b++;
	return b;
}

int64_t dist_lo(int b)
{
	return b ? (int64_t)1 << b : 0;
}

/* Nearest rank of percentile p among n: ceil(p/100 x n), 1-based. */
static int64_t rank_of(const int64_t *durs, size_t n, int p)
{
	return durs[((size_t)p * n + 99) / 100 - 1];
}

void dist_from_sorted(const int64_t *durs, size_t n, struct dist *out)
{
	memset(out, 0, sizeof(*out));
	out->measured = 1;
	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		out->hist[dist_bucket(durs[i])]++;
	out->p50 = rank_of(durs, n, 50);
	out->p90 = rank_of(durs, n, 90);
	out->p99 = rank_of(durs, n, 99);
}

int dist_span(const struct dist *d, int *lo, int *hi)
{
	*lo = *hi = -1;
	for (int b = 0; b < DIST_BUCKETS; b++) {
		if (!d->hist[b])
			continue;
		if (*lo < 0)
			*lo = b;
		*hi = b;
	}
	return *lo < 0 ? -1 : 0;
}
