/* The RLE/bit-packed hybrid of levels, dictionary indices and
 * booleans: runs of one repeated value, or groups of eight values
 * packed width bits each, least significant bit first. */
#include "config.h"

#include "src/parquet/pq_int.h"

void pq_rle_init(struct pq_rle *r, const uint8_t *p, size_t n, int width)
{
	r->p = p;
	r->end = p + n;
	r->width = width;
	r->run = 0;
	r->packed = 0;
	r->value = 0;
	r->bits = NULL;
	r->bitpos = 0;
}

/* 1 with a new run, 0 at the end of the data, -1 on bad data. */
static int next_run(struct pq_rle *r)
{
	uint64_t h;

	if (r->p >= r->end)
		return 0;
	if (pq_varint(&r->p, r->end, &h))
		return -1;
	if (!(h & 1)) {
		unsigned nb = ((unsigned)r->width + 7) / 8;
		uint32_t v = 0;

		if ((size_t)(r->end - r->p) < nb)
			return -1;
		for (unsigned i = 0; i < nb; i++)
			v |= (uint32_t)r->p[i] << (8 * i);
		r->p += nb;
		if (r->width < 32 && v >> r->width)
			return -1;
		r->packed = 0;
		r->value = v;
		r->run = h >> 1;
		return 1;
	}
	h >>= 1;		/* bit-packed: groups of 8 values */
	if (h > UINT64_C(1) << 56 ||
	    (r->width && h > (uint64_t)(r->end - r->p) / (unsigned)r->width))
		return -1;
	r->packed = 1;
	r->bits = r->p;
	r->bitpos = 0;
	r->p += h * (unsigned)r->width;
	r->run = h * 8;
	return 1;
}

/* k values of a bit-packed run; widths are at most 32 bits, so one
 * 64-bit load at the value's first byte holds all of it. */
static void unpack(struct pq_rle *r, uint32_t *out, size_t k)
{
	const uint64_t mask = (UINT64_C(1) << r->width) - 1;
	uint64_t pos = r->bitpos;

	for (size_t i = 0; i < k; i++, pos += (unsigned)r->width)
		out[i] = (uint32_t)(pq_load64(r->bits + (pos >> 3)) >> (pos & 7) & mask);
	r->bitpos = pos;
}

int64_t pq_rle_get(struct pq_rle *r, uint32_t *out, size_t n)
{
	size_t got = 0;

	while (got < n) {
		size_t k;

		if (!r->run) {
			int rc = next_run(r);

			if (rc <= 0)
				return rc < 0 ? -1 : (int64_t)got;
			continue;
		}
		k = r->run < n - got ? (size_t)r->run : n - got;
		if (!r->packed) {
			for (size_t i = 0; i < k; i++)
				out[got + i] = r->value;
		} else if (!r->width) {
			for (size_t i = 0; i < k; i++)
				out[got + i] = 0;
		} else {
			unpack(r, out + got, k);
		}
		r->run -= k;
		got += k;
	}
	return (int64_t)got;
}
