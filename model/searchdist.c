#include "config.h"

#include "model/searchdist.h"

#include <stdlib.h>
#include <string.h>

#include "model/util.h"

struct durs {
	int64_t *v;
	size_t n, cap;
};

static void add_dur(void *ctx, const struct mslice *ms)
{
	struct durs *d = ctx;

	d->v = xgrow(d->v, &d->cap, d->n + 1, sizeof(*d->v));
	d->v[d->n++] = ms->dur;
}

int search_dist(struct search *s, int64_t t0, int64_t t1, int64_t count,
		struct search_dist *out)
{
	struct durs d = { NULL, 0, 0 };

	memset(out, 0, sizeof(*out));
	out->dmin = out->dmax = -1;
	if (count <= 0 || count > SEARCH_DIST_MAX)
		return 0;
	if (search_list(s, t0, t1, 0, count, add_dur, &d)) {
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
