#include "config.h"

#include "model/searchdist.h"

#include <stdlib.h>
#include <string.h>

#include "model/agg.h"
#include "model/util.h"

#define NBINS (1 << AGG_DUR_SHIFT)

struct durs {
	int64_t *v;
	size_t n, cap;
};

static void add_dur(void *ctx, int64_t dur)
{
	struct durs *d = ctx;

	d->v = xgrow(d->v, &d->cap, d->n + 1, sizeof(*d->v));
	d->v[d->n++] = dur;
}

/* Counts per duration bin, with each bin's shortest and longest. */
struct bins {
	int64_t n[NBINS], dmin[NBINS], dmax[NBINS];
};

static void add_bin(void *ctx, int bin, int64_t n, int64_t dmin, int64_t dmax)
{
	struct bins *b = ctx;

	if (bin < 0 || bin >= NBINS || n <= 0)
		return;
	if (!b->n[bin] || dmin < b->dmin[bin])
		b->dmin[bin] = dmin;
	if (!b->n[bin] || dmax > b->dmax[bin])
		b->dmax[bin] = dmax;
	b->n[bin] += n;
}

static void bin_dur(void *ctx, int64_t dur)
{
	add_bin(ctx, (int)agg_dur_value(0, dur), 1, dur, dur);
}

/* NXTOP_TEST_DIST_AGGREGATES counts by bin however few the matches, so
 * that tests reach that path on small profiles. */
static int64_t exact_max(void)
{
	return getenv("NXTOP_TEST_DIST_AGGREGATES") ? 0 : SEARCH_DIST_MAX;
}

static int dist_exact(struct search *s, int64_t t0, int64_t t1,
		      struct search_dist *out)
{
	struct durs d = { NULL, 0, 0 };
	struct search_durs cb = { add_dur, NULL, &d };

	if (search_durations(s, t0, t1, &cb)) {
		free(d.v);
		return -1;
	}
	if (d.n) {
		dist_from_durations(d.v, d.n, &out->dist);
		out->dmin = d.v[0];
		out->dmax = d.v[d.n - 1];
	}
	free(d.v);
	return 0;
}

static int dist_binned(struct search *s, int64_t t0, int64_t t1,
		       struct search_dist *out)
{
	struct bins *b = xcalloc(1, sizeof(*b));
	struct search_durs cb = { bin_dur, add_bin, b };
	struct dist_bin *v;
	size_t n = 0;

	if (search_durations(s, t0, t1, &cb)) {
		free(b);
		return -1;
	}
	v = xreallocarray(NULL, NBINS, sizeof(*v));
	for (int k = 0; k < NBINS; k++) {
		if (!b->n[k])
			continue;
		if (!n)
			out->dmin = b->dmin[k];
		out->dmax = b->dmax[k];
		v[n++] = (struct dist_bin){ k, b->n[k], b->dmax[k] };
	}
	if (n)
		dist_from_bins(v, n, out->dmax, &out->dist);
	free(v);
	free(b);
	return 0;
}

int search_dist(struct search *s, int64_t t0, int64_t t1, int64_t count,
		struct search_dist *out)
{
	memset(out, 0, sizeof(*out));
	out->dmin = out->dmax = -1;
	if (count <= 0)
		return 0;
	return count <= exact_max() ? dist_exact(s, t0, t1, out) :
				      dist_binned(s, t0, t1, out);
}
