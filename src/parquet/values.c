/* Decoding a page's values: PLAIN, dictionary indices, RLE booleans,
 * DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY and
 * BYTE_STREAM_SPLIT, into int64, double or byte views. Every read is
 * checked against the end of the page. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "src/parquet/pq_int.h"

void pq_dict_free(struct pq_dict *d)
{
	free(d->i64);
	free(d->f64);
	free(d->bytes);
	free(d->data);
	memset(d, 0, sizeof(*d));
}

static int fixed_width(const struct pq_column *c)
{
	switch (c->type) {
	case PQ_INT32:
	case PQ_FLOAT:
		return 4;
	case PQ_INT64:
	case PQ_DOUBLE:
		return 8;
	case PQ_INT96:
		return 12;
	case PQ_FIXED_LEN_BYTE_ARRAY:
		return c->type_length;
	default:
		return 0;
	}
}

static void emit_bytes(const struct pq_out *o, size_t i, const uint8_t *s,
		       size_t n, struct arena *a)
{
	char *d = (char *)s;

	if (a && n) {
		d = arena_chars(a, n);
		memcpy(d, s, n);
	}
	o->bytes[i].ptr = n ? d : "";
	o->bytes[i].len = n;
}

/* One fixed-size value from its little-endian bytes. */
static void emit_fixed(int type, int width, const struct pq_out *o,
		       size_t i, const uint8_t *s, struct arena *a)
{
	uint32_t u32;
	uint64_t u64;
	float fl;
	double db;

	switch (type) {
	case PQ_INT32:
		memcpy(&u32, s, 4);
		o->i64[i] = (int32_t)u32;
		break;
	case PQ_INT64:
		memcpy(&u64, s, 8);
		o->i64[i] = (int64_t)u64;
		break;
	case PQ_FLOAT:
		memcpy(&fl, s, 4);
		o->f64[i] = fl;
		break;
	case PQ_DOUBLE:
		memcpy(&db, s, 8);
		o->f64[i] = db;
		break;
	default:
		emit_bytes(o, i, s, (size_t)width, a);
	}
}

static const char *plain_bool(struct pq_values *v, const struct pq_out *o,
			      size_t n)
{
	if (n > (uint64_t)(v->end - v->p) * 8 - v->bitpos)
		return "page ends before its values";
	for (size_t i = 0; i < n; i++, v->bitpos++)
		o->i64[i] = v->p[v->bitpos >> 3] >> (v->bitpos & 7) & 1;
	return NULL;
}

static const char *plain_bytes(struct pq_values *v, const struct pq_out *o,
			       size_t n, struct arena *a)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t len;

		if (v->end - v->p < 4)
			return "page ends before its values";
		len = (uint32_t)v->p[0] | (uint32_t)v->p[1] << 8 |
		      (uint32_t)v->p[2] << 16 | (uint32_t)v->p[3] << 24;
		v->p += 4;
		if (len > (size_t)(v->end - v->p))
			return "string runs past the end of its page";
		emit_bytes(o, i, v->p, len, a);
		v->p += len;
	}
	return NULL;
}

static const char *plain(struct pq_values *v, const struct pq_out *o,
			 size_t n, struct arena *a)
{
	int w = v->width;

	if (v->type == PQ_BOOLEAN)
		return plain_bool(v, o, n);
	if (v->type == PQ_BYTE_ARRAY)
		return plain_bytes(v, o, n, a);
	if (n > (size_t)(v->end - v->p) / (size_t)w)
		return "page ends before its values";
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (v->type == PQ_INT64 || v->type == PQ_DOUBLE) {
		memcpy(v->type == PQ_INT64 ? (void *)o->i64 : (void *)o->f64,
		       v->p, n * 8);
		v->p += n * 8;
		return NULL;
	}
#endif
	for (size_t i = 0; i < n; i++, v->p += w)
		emit_fixed(v->type, w, o, i, v->p, a);
	return NULL;
}

static const char *split(struct pq_values *v, const struct pq_out *o,
			 size_t n, struct arena *a)
{
	uint8_t buf[256];
	uint8_t *val = (size_t)v->width <= sizeof(buf) ? buf : xmalloc((size_t)v->width);

	if (n > v->count - v->next) {
		if (val != buf)
			free(val);
		return "page ends before its values";
	}
	for (size_t i = 0; i < n; i++, v->next++) {
		for (int b = 0; b < v->width; b++)
			val[b] = v->p[(size_t)b * v->count + v->next];
		emit_fixed(v->type, v->width, o, i, val, a);
	}
	if (val != buf)
		free(val);
	return NULL;
}

static void grow_idx(struct pq_values *v, size_t n)
{
	if (v->idx_cap < n) {
		v->idx_cap = n;
		v->idx = xreallocarray(v->idx, n, sizeof(*v->idx));
	}
}

static const char *dictionary(struct pq_values *v, const struct pq_out *o,
			      size_t n)
{
	const struct pq_dict *d = v->dict;

	grow_idx(v, n);
	if (pq_rle_get(&v->rle, v->idx, n) != (int64_t)n)
		return "bad or short dictionary indices";
	for (size_t i = 0; i < n; i++)
		if (v->idx[i] >= d->n)
			return "dictionary index out of range";
	if (d->i64)
		for (size_t i = 0; i < n; i++)
			o->i64[i] = d->i64[v->idx[i]];
	else if (d->f64)
		for (size_t i = 0; i < n; i++)
			o->f64[i] = d->f64[v->idx[i]];
	else
		for (size_t i = 0; i < n; i++)
			o->bytes[i] = d->bytes[v->idx[i]];
	return NULL;
}

static const char *rle_bool(struct pq_values *v, const struct pq_out *o,
			    size_t n)
{
	grow_idx(v, n);
	if (pq_rle_get(&v->rle, v->idx, n) != (int64_t)n)
		return "bad or short boolean runs";
	for (size_t i = 0; i < n; i++)
		o->i64[i] = v->idx[i];
	return NULL;
}

/* The next n lengths of a delta stream, each a size within the page. */
static const char *lengths(struct pq_delta *d, int64_t *len, size_t n)
{
	if (pq_delta_get(d, len, n) != (int64_t)n)
		return "bad or short delta-encoded lengths";
	for (size_t i = 0; i < n; i++)
		if (len[i] < 0 || len[i] > (int64_t)PQ_MAX_PAGE)
			return "negative or huge length";
	return NULL;
}

static const char *delta_length(struct pq_values *v, const struct pq_out *o,
				size_t n, struct arena *a)
{
	int64_t len[256];

	for (size_t i = 0; i < n;) {
		size_t k = n - i < 256 ? n - i : 256;
		const char *why = lengths(&v->lens, len, k);

		if (why)
			return why;
		for (size_t j = 0; j < k; j++, i++) {
			if ((uint64_t)len[j] > (uint64_t)(v->end - v->p))
				return "string runs past the end of its page";
			emit_bytes(o, i, v->p, (size_t)len[j], a);
			v->p += len[j];
		}
	}
	return NULL;
}

/* One DELTA_BYTE_ARRAY value: a prefix of the last one, and a suffix. */
static const char *front_coded(struct pq_values *v, int64_t pre, int64_t suf)
{
	size_t need = (size_t)pre + (size_t)suf;

	if ((size_t)pre > v->prev_len)
		return "prefix longer than the previous value";
	if ((uint64_t)suf > (uint64_t)(v->end - v->p))
		return "string runs past the end of its page";
	if (need > v->prev_cap) {
		v->prev_cap = need * 2;
		v->prev = xrealloc(v->prev, v->prev_cap);
	}
	if (suf)
		memcpy(v->prev + pre, v->p, (size_t)suf);
	v->p += suf;
	v->prev_len = need;
	return NULL;
}

static const char *delta_bytes(struct pq_values *v, const struct pq_out *o,
			       size_t n, struct arena *a)
{
	int64_t pre[128], suf[128];

	for (size_t i = 0; i < n;) {
		size_t k = n - i < 128 ? n - i : 128;
		const char *why = lengths(&v->pre, pre, k);

		if (!why)
			why = lengths(&v->lens, suf, k);
		for (size_t j = 0; !why && j < k; j++, i++) {
			why = front_coded(v, pre[j], suf[j]);
			if (!why && v->type == PQ_FIXED_LEN_BYTE_ARRAY &&
			    v->prev_len != (size_t)v->width)
				why = "fixed-size value of another size";
			if (!why)
				emit_bytes(o, i, v->prev, v->prev_len, a);
		}
		if (why)
			return why;
	}
	return NULL;
}

const char *pq_values_get(struct pq_values *v, const struct pq_out *o,
			  size_t n, struct arena *a)
{
	if (!n)
		return NULL;
	switch (v->enc) {
	case PQ_PLAIN:
		return plain(v, o, n, a);
	case PQ_PLAIN_DICTIONARY:
	case PQ_RLE_DICTIONARY:
		return dictionary(v, o, n);
	case PQ_RLE:
		return rle_bool(v, o, n);
	case PQ_DELTA_BINARY_PACKED:
		return pq_delta_get(&v->lens, o->i64, n) == (int64_t)n ? NULL
			: "bad or short delta-encoded values";
	case PQ_DELTA_LENGTH_BYTE_ARRAY:
		return delta_length(v, o, n, a);
	case PQ_DELTA_BYTE_ARRAY:
		return delta_bytes(v, o, n, a);
	case PQ_BYTE_STREAM_SPLIT:
		return split(v, o, n, a);
	}
	return "page holds no values";
}

static int le32(const uint8_t *p)
{
	uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 |
		     (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;

	return v > INT32_MAX ? -1 : (int)v;
}

static const char *init_dictionary(struct pq_values *v, const uint8_t *p,
				   size_t n)
{
	if (!v->dict)
		return "dictionary-encoded page without a dictionary page";
	if (p[0] > 32)
		return "dictionary index width above 32 bits";
	pq_rle_init(&v->rle, p + 1, n - 1, p[0]);
	return NULL;
}

/* DELTA_LENGTH_BYTE_ARRAY, and the suffixes of DELTA_BYTE_ARRAY: the
 * lengths, then the bytes they measure. */
static const char *init_lengths(struct pq_values *v, const uint8_t *p,
				size_t n)
{
	if (pq_delta_init(&v->lens, p, n, 1) ||
	    !(v->p = pq_delta_end(&v->lens)))
		return "bad delta-encoded lengths";
	return NULL;
}

static const char *init_encoding(struct pq_values *v, const uint8_t *p,
				 size_t n)
{
	int len, t = v->type;
	const uint8_t *q;

	switch (v->enc) {
	case PQ_PLAIN:
		return NULL;
	case PQ_PLAIN_DICTIONARY:
	case PQ_RLE_DICTIONARY:
		return init_dictionary(v, p, n);
	case PQ_RLE:
		if (t != PQ_BOOLEAN || n < 4 || (len = le32(p)) < 0 ||
		    (size_t)len > n - 4)
			return "bad RLE boolean values";
		pq_rle_init(&v->rle, p + 4, (size_t)len, 1);
		return NULL;
	case PQ_DELTA_BINARY_PACKED:
		if (t != PQ_INT32 && t != PQ_INT64)
			break;
		return pq_delta_init(&v->lens, p, n, t == PQ_INT32)
			? "bad delta-encoded values" : NULL;
	case PQ_DELTA_LENGTH_BYTE_ARRAY:
		if (t != PQ_BYTE_ARRAY)
			break;
		return init_lengths(v, p, n);
	case PQ_DELTA_BYTE_ARRAY:
		if (t != PQ_BYTE_ARRAY && t != PQ_FIXED_LEN_BYTE_ARRAY)
			break;
		if (pq_delta_init(&v->pre, p, n, 1) || !(q = pq_delta_end(&v->pre)))
			return "bad delta-encoded prefix lengths";
		return init_lengths(v, q, (size_t)(v->end - q));
	case PQ_BYTE_STREAM_SPLIT:
		if (t == PQ_BOOLEAN || t == PQ_BYTE_ARRAY || n % (size_t)v->width)
			break;
		v->count = n / (size_t)v->width;
		return NULL;
	default:
		return "unsupported encoding";
	}
	return "encoding does not apply to the column's type";
}

const char *pq_values_init(struct pq_values *v, const struct pq_column *c,
			   int enc, const uint8_t *p, size_t n,
			   const struct pq_dict *dict)
{
	v->enc = enc;
	v->type = c->type;
	v->width = fixed_width(c);
	v->p = p;
	v->end = p + n;
	v->bitpos = 0;
	v->next = 0;
	v->dict = dict;
	v->prev_len = 0;
	if (!n) {
		v->enc = -1;	/* a page of nulls only */
		return NULL;
	}
	return init_encoding(v, p, n);
}

void pq_values_free(struct pq_values *v)
{
	free(v->prev);
	free(v->idx);
	v->prev = NULL;
	v->idx = NULL;
	v->prev_cap = v->idx_cap = 0;
}
