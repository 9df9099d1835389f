#include "config.h"

#include "model/dist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/util.h"

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

int64_t dist_hi(int b)
{
	/* unsigned: bucket 62 ends at INT64_MAX */
	return (int64_t)(((uint64_t)1 << (b + 1)) - 1);
}

/* The nearest rank of percentile p among n: ceil(p/100 x n), 1-based. */
static int64_t dist_rank(int p, int64_t n)
{
	return (p * n + 99) / 100;
}

static int64_t rank_of(const int64_t *durs, size_t n, int p)
{
	return durs[dist_rank(p, (int64_t)n) - 1];
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

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

void dist_from_durations(int64_t *durs, size_t n, struct dist *out)
{
	if (n > 1)
		qsort(durs, n, sizeof(*durs), cmp_i64);
	dist_from_sorted(durs, n, out);
}

void dist_add(struct dist *d, int64_t ns)
{
	d->measured = 1;
	d->hist[dist_bucket(ns)]++;
}

/* The highest duration of the bucket holding rank r (1-based). */
static int64_t rank_bucket(const struct dist *d, int64_t r)
{
	int64_t seen = 0;

	for (int b = 0; b < DIST_BUCKETS; b++) {
		seen += d->hist[b];
		if (seen >= r)
			return dist_hi(b);
	}
	return 0;
}

void dist_estimate(struct dist *d, int64_t max)
{
	int64_t n = 0;

	for (int b = 0; b < DIST_BUCKETS; b++)
		n += d->hist[b];
	d->measured = 1;
	d->estimated = 1;
	d->max_error = DIST_ERR_BUCKET;
	if (!n)
		return;
	d->p50 = rank_bucket(d, dist_rank(50, n));
	d->p90 = rank_bucket(d, dist_rank(90, n));
	d->p99 = rank_bucket(d, dist_rank(99, n));
	if (max >= 0) {
		d->p50 = NX_MIN(d->p50, max);
		d->p90 = NX_MIN(d->p90, max);
		d->p99 = NX_MIN(d->p99, max);
	}
}

void dist_from_bins(const struct dist_bin *v, size_t n, int64_t longest,
		    struct dist *d)
{
	static const int pc[3] = { 50, 90, 99 };
	int64_t *out[3] = { &d->p50, &d->p90, &d->p99 };
	int64_t total = 0, seen = 0;
	int i = 0;

	d->measured = d->estimated = 1;
	d->max_error = DIST_ERR_BIN;
	for (size_t k = 0; k < n; k++) {
		d->hist[dist_bucket(v[k].dmax)] += v[k].n;
		total += v[k].n;
	}
	for (size_t k = 0; k < n && i < 3; k++) {
		seen += v[k].n;
		while (i < 3 && seen >= dist_rank(pc[i], total))
			*out[i++] = NX_MIN(v[k].dmax, longest);
	}
}

/* The lowest and highest non-empty buckets; -1 when empty. */
static int dist_span(const struct dist *d, int *lo, int *hi)
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

char *dist_glyphs(const struct dist *d, int ascii, char *buf)
{
	static const char *const block[8] = {
		"\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83",	/* ▁▂▃ */
		"\xe2\x96\x84", "\xe2\x96\x85", "\xe2\x96\x86",	/* ▄▅▆ */
		"\xe2\x96\x87", "\xe2\x96\x88",			/* ▇█ */
	};
	int64_t col[DIST_BUCKETS] = { 0 }, top = 0;
	int lo, hi, per = 1, ncol;
	char *p = buf;

	*buf = 0;
	if (!d->measured || dist_span(d, &lo, &hi))
		return buf;
	while ((hi - lo) / per + 1 > DIST_COLS)
		per *= 2;
	ncol = (hi - lo) / per + 1;
	for (int b = lo; b <= hi; b++)
		col[(b - lo) / per] += d->hist[b];
	for (int c = 0; c < ncol; c++)
		top = col[c] > top ? col[c] : top;
	for (int c = 0; c < ncol; c++) {
		/* ceil(8 c / top): any non-empty column shows */
		int h = (int)((col[c] * 8 + top - 1) / top);

		if (!h)
			*p++ = ' ';
		else if (ascii)
			*p++ = ".:-=+*#@"[h - 1];
		else
			p += sprintf(p, "%s", block[h - 1]);
	}
	*p = 0;
	return buf;
}
