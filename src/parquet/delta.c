/* DELTA_BINARY_PACKED: a header (block size, miniblocks per block,
 * value count, first value), then blocks of a minimum delta and
 * miniblocks of bit-packed deltas above it. Arithmetic wraps, as the
 * format says, in 64 bits (INT32 columns keep the low 32). */
#include "config.h"

#include "src/parquet/pq_int.h"

static int zigzag(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	uint64_t u;

	if (pq_varint(p, end, &u))
		return -1;
	*v = (u >> 1) ^ (0 - (u & 1));
	return 0;
}

/* The header; 0, or -1 when it is bad. */
static int header(struct pq_delta *d)
{
	if (pq_varint(&d->p, d->end, &d->block_size) ||
	    pq_varint(&d->p, d->end, &d->minis) ||
	    pq_varint(&d->p, d->end, &d->total) ||
	    zigzag(&d->p, d->end, &d->last))
		return -1;
	if (!d->block_size || d->block_size % 128 || d->block_size > 1u << 24 ||
	    !d->minis || d->block_size % d->minis)
		return -1;
	d->per_mini = d->block_size / d->minis;
	if (d->per_mini % 8 || d->total > INT64_MAX)
		return -1;
	return 0;
}

int pq_delta_init(struct pq_delta *d, const uint8_t *p, size_t n, int is32)
{
	d->p = p;
	d->end = p + n;
	d->is32 = is32;
	if (header(d))
		return -1;
	d->left = d->total;
	d->first = d->total > 0;
	d->widths = NULL;
	d->mini = d->minis;	/* a block header comes next */
	d->in_mini = d->per_mini;
	d->bits = d->p;
	return 0;
}

static int next_block(struct pq_delta *d)
{
	if (zigzag(&d->p, d->end, &d->min_delta) ||
	    (uint64_t)(d->end - d->p) < d->minis)
		return -1;
	d->widths = d->p;
	d->p += d->minis;
	d->mini = 0;
	d->in_mini = 0;
	d->bits = d->p;
	return 0;
}

/* Moves to the next miniblock, or the next block; checks its bytes. */
static int next_mini(struct pq_delta *d)
{
	uint64_t bytes;

	if (d->widths && d->mini < d->minis) {
		d->p = d->bits + d->per_mini * d->widths[d->mini] / 8;
		d->mini++;
	}
	if (d->mini >= d->minis && next_block(d))
		return -1;
	if (d->widths[d->mini] > 64)
		return -1;
	bytes = d->per_mini * d->widths[d->mini] / 8;
	if (bytes > (uint64_t)(d->end - d->p))
		return -1;
	d->bits = d->p;
	d->in_mini = 0;
	return 0;
}

static int64_t out_value(const struct pq_delta *d)
{
	return d->is32 ? (int64_t)(int32_t)(uint32_t)d->last : (int64_t)d->last;
}

int64_t pq_delta_get(struct pq_delta *d, int64_t *out, size_t n)
{
	size_t got = 0;

	if (d->first && n) {
		out[got++] = out_value(d);
		d->first = 0;
		d->left--;
	}
	while (got < n && d->left) {
		int w;
		uint64_t k;

		if (d->in_mini == d->per_mini && next_mini(d))
			return -1;
		w = d->widths[d->mini];
		k = d->per_mini - d->in_mini;
		if (k > n - got)
			k = n - got;
		if (k > d->left)
			k = d->left;
		for (uint64_t i = 0; i < k; i++) {
			uint64_t delta = w ? pq_unpack(d->bits,
					(d->in_mini + i) * (unsigned)w, w) : 0;

			d->last += delta + d->min_delta;
			out[got++] = out_value(d);
		}
		d->in_mini += k;
		d->left -= k;
	}
	return (int64_t)got;
}

const uint8_t *pq_delta_end(const struct pq_delta *start)
{
	struct pq_delta d = *start;
	uint64_t left = d.total > 0 ? d.total - 1 : 0;

	if (d.left != d.total)
		return NULL;	/* only from a fresh stream */
	while (left) {
		if (next_block(&d))
			return NULL;
		for (uint64_t m = 0; m < d.minis && left; m++) {
			uint64_t bytes = d.per_mini * d.widths[m] / 8;

			if (d.widths[m] > 64 || bytes > (uint64_t)(d.end - d.p))
				return NULL;
			d.p += bytes;
			left -= left < d.per_mini ? left : d.per_mini;
		}
	}
	return d.p;
}
