/* Pages of a column chunk: page headers, dictionary pages and data
 * pages V1 and V2 with their levels, read through a window of the file
 * and decompressed one page at a time. Index pages and page types this
 * reader does not know are skipped. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/parquet/pq_int.h"

#define READ_AHEAD (256u << 10)

struct header {
	int type;
	int64_t raw, comp;	/* uncompressed and compressed sizes */
	int64_t num_values, num_nulls, num_rows;
	int encoding, def_enc, rep_enc;
	int64_t def_len, rep_len;
	int is_compressed;
};

static int fail(struct pq_chunkrd *r, const char *fmt, ...) NX_PRINTF(2, 3);

static int fail(struct pq_chunkrd *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
	return -1;
}

/* Bytes [off, off + n) of the chunk, through the window. */
static const uint8_t *need(struct pq_chunkrd *r, uint64_t off, size_t n)
{
	size_t want;

	if (off >= r->off && off - r->off <= r->len && n <= r->len - (off - r->off))
		return r->buf + (off - r->off);
	want = n > READ_AHEAD ? n : READ_AHEAD;
	if (want > r->end - off)
		want = (size_t)(r->end - off);
	if (want + PQ_PAD > r->cap) {
		r->cap = want + PQ_PAD;
		free(r->buf);
		r->buf = xcalloc(1, r->cap);
	}
	r->len = 0;
	if (pq_pread(r->f, r->buf, want, off)) {
		snprintf(r->why, sizeof(r->why), "%s", r->f->io_err);
		return NULL;
	}
	memset(r->buf + want, 0, PQ_PAD);
	r->off = off;
	r->len = want;
	return r->buf;
}

static int parse_sub(struct thrift *t, struct header *h, int which)
{
	int last = 0, id, type, r;
	int64_t v;

	if (th_begin(t))
		return -1;
	while ((r = th_field(t, &last, &id, &type)) > 0) {
		v = 0;
		if (which == 8 && id == 7) {
			h->is_compressed = type == TH_TRUE;
			continue;
		}
		if (th_int(t, type, &v))
			return -1;
		if (id == 1)
			h->num_values = v;
		else if (which == 5 && id >= 2 && id <= 4)
			*(id == 2 ? &h->encoding : id == 3 ? &h->def_enc
			  : &h->rep_enc) = (int)v;
		else if (which == 7 && id == 2)
			h->encoding = (int)v;
		else if (which == 8 && id >= 2 && id <= 6)
			*(id == 2 ? &h->num_nulls : id == 3 ? &h->num_rows
			  : id == 5 ? &h->def_len : id == 6 ? &h->rep_len
			  : &v) = v;
		if (which == 8 && id == 4)
			h->encoding = (int)v;
	}
	th_end(t);
	return r;
}

static int parse_header(struct thrift *t, struct header *h)
{
	int last = 0, id, type, r;
	int64_t v;

	memset(h, 0, sizeof(*h));
	h->type = h->encoding = -1;
	h->raw = h->comp = h->num_values = -1;
	h->is_compressed = 1;
	if (th_begin(t))
		return -1;
	while ((r = th_field(t, &last, &id, &type)) > 0) {
		v = -1;
		if (id >= 5 && id <= 8 && id != 6 && type == TH_STRUCT)
			r = parse_sub(t, h, id);
		else if (id <= 3)
			r = th_int(t, type, &v);
		else
			r = th_skip(t, type);
		if (r)
			return -1;
		if (id == 1)
			h->type = (int)v;
		else if (id == 2 || id == 3)
			*(id == 2 ? &h->raw : &h->comp) = v;
	}
	th_end(t);
	return r;
}

/* A page header at r->pos, in a window grown until it fits. */
static int read_header(struct pq_chunkrd *r, struct header *h)
{
	uint64_t avail = r->end - r->pos;
	size_t win = avail < 4096 ? (size_t)avail : 4096;

	for (;;) {
		const uint8_t *p = need(r, r->pos, win);
		struct thrift t;

		if (!p)
			return -1;
		th_init(&t, p, win);
		if (!parse_header(&t, h)) {
			r->pos += th_offset(&t);
			return 0;
		}
		if (win == avail || win >= PQ_MAX_PAGE)
			return fail(r, "page header: %s", t.err ? t.err : "bad");
		win = avail / 4 < win ? (size_t)avail : win * 4;
	}
}

static int check_sizes(struct pq_chunkrd *r, const struct header *h)
{
	if (h->raw < 0 || h->comp < 0 || h->raw > PQ_MAX_PAGE ||
	    h->comp > PQ_MAX_PAGE)
		return fail(r, "page sizes %lld and %lld are negative or above"
			    " the limit", (long long)h->raw, (long long)h->comp);
	if ((uint64_t)h->comp > r->end - r->pos)
		return fail(r, "page of %lld bytes runs past its column chunk"
			    " (%lld bytes left)", (long long)h->comp,
			    (long long)(r->end - r->pos));
	return 0;
}

/* The page's body decompressed into r->out (padded); n is the size it
 * must have. */
static const uint8_t *inflate_body(struct pq_chunkrd *r, const uint8_t *src,
				   size_t len, size_t n, int compressed)
{
	const char *why = NULL;

	if (!compressed || r->codec == PQ_UNCOMPRESSED) {
		if (len != n) {
			fail(r, "uncompressed page of %lld bytes says %lld",
			     (long long)len, (long long)n);
			return NULL;
		}
		return src;
	}
	if (!pq_codec_supported(r->codec)) {
		fail(r, "codec %s (%d) is not supported",
		     pq_codec_name(r->codec), r->codec);
		return NULL;
	}
	if (n + PQ_PAD > r->out_cap) {
		r->out_cap = n + PQ_PAD;
		free(r->out);
		r->out = xmalloc(r->out_cap);
	}
	memset(r->out + n, 0, PQ_PAD);
	if (pq_decompress(r->codec, src, len, r->out, n, &why)) {
		fail(r, "%s (page of %lld bytes, %lld uncompressed)", why,
		     (long long)len, (long long)n);
		return NULL;
	}
	return r->out;
}

/* The smallest encoded size of a PLAIN value, to bound a dictionary's
 * count by its page before allocating. */
static size_t min_size(const struct pq_column *c)
{
	switch (c->type) {
	case PQ_INT32: case PQ_FLOAT: case PQ_BYTE_ARRAY: return 4;
	case PQ_INT64: case PQ_DOUBLE: return 8;
	case PQ_INT96: return 12;
	case PQ_FIXED_LEN_BYTE_ARRAY: return (size_t)c->type_length;
	case PQ_BOOLEAN: break;	/* booleans have no dictionary */
	}
	return 0;
}

static int read_dictionary(struct pq_chunkrd *r, const struct header *h,
			   const uint8_t *body)
{
	struct pq_dict *d = &r->dict;
	const struct pq_column *c = r->col;
	struct pq_values v = { 0 };
	struct pq_out o;
	const uint8_t *p;
	const char *why;

	if (r->has_dict || r->data_seen)
		return fail(r, "a second dictionary page, or one after data");
	if (h->encoding != PQ_PLAIN && h->encoding != PQ_PLAIN_DICTIONARY)
		return fail(r, "dictionary page in encoding %d", h->encoding);
	if (!min_size(c) || h->num_values < 0 ||
	    (uint64_t)h->num_values > (uint64_t)h->raw / min_size(c))
		return fail(r, "dictionary of %lld values cannot fit in %lld"
			    " bytes", (long long)h->num_values, (long long)h->raw);
	if (!(p = inflate_body(r, body, (size_t)h->comp, (size_t)h->raw, 1)))
		return -1;
	/* the dictionary outlives the page: it owns a copy */
	d->data = xmalloc((size_t)h->raw + PQ_PAD);
	memcpy(d->data, p, (size_t)h->raw + PQ_PAD);
	d->n = (size_t)h->num_values;
	o.i64 = d->i64 = c->kind == PQ_K_I64 ? xcalloc(d->n + 1, 8) : NULL;
	o.f64 = d->f64 = c->kind == PQ_K_F64 ? xcalloc(d->n + 1, 8) : NULL;
	o.bytes = d->bytes = c->kind == PQ_K_BYTES
		? xcalloc(d->n + 1, sizeof(*d->bytes)) : NULL;
	r->has_dict = 1;
	why = pq_values_init(&v, c, PQ_PLAIN, d->data, (size_t)h->raw, NULL);
	if (!why)
		why = pq_values_get(&v, &o, d->n, NULL);
	pq_values_free(&v);
	return why ? fail(r, "dictionary page: %s", why) : 0;
}

static int level_width(int max)
{
	int w = 0;

	while (max >> w)
		w++;
	return w;
}

/* V1 levels: a 4-byte length, then RLE runs. */
static const uint8_t *levels_v1(struct pq_chunkrd *r, struct pq_rle *rle,
				int max, int enc, const uint8_t *p,
				const uint8_t *end)
{
	uint32_t len;

	if (!max)
		return p;
	if (enc != PQ_RLE) {
		fail(r, "levels in encoding %d are not supported", enc);
		return NULL;
	}
	if (end - p < 4) {
		fail(r, "page ends before its levels");
		return NULL;
	}
	len = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	      (uint32_t)p[3] << 24;
	if (len > (size_t)(end - p - 4)) {
		fail(r, "levels of %u bytes run past their page", len);
		return NULL;
	}
	pq_rle_init(rle, p + 4, len, level_width(max));
	return p + 4 + len;
}

static int data_v1(struct pq_chunkrd *r, const struct header *h,
		   const uint8_t *body, const uint8_t **vals, size_t *n)
{
	const struct pq_column *c = r->col;
	const uint8_t *p, *end;

	if (!(p = inflate_body(r, body, (size_t)h->comp, (size_t)h->raw, 1)))
		return -1;
	end = p + h->raw;
	if (!(p = levels_v1(r, &r->page.rep, c->max_rep, h->rep_enc, p, end)) ||
	    !(p = levels_v1(r, &r->page.def, c->max_def, h->def_enc, p, end)))
		return -1;
	*vals = p;
	*n = (size_t)(end - p);
	return 0;
}

/* V2: levels first and never compressed, then the values. */
static int data_v2(struct pq_chunkrd *r, const struct header *h,
		   const uint8_t *body, const uint8_t **vals, size_t *n)
{
	const struct pq_column *c = r->col;
	int64_t lv = h->rep_len + h->def_len;

	if (h->rep_len < 0 || h->def_len < 0 || lv > h->comp || lv > h->raw)
		return fail(r, "level sizes %lld and %lld do not fit in the page",
			    (long long)h->rep_len, (long long)h->def_len);
	pq_rle_init(&r->page.rep, body, (size_t)h->rep_len,
		    level_width(c->max_rep));
	pq_rle_init(&r->page.def, body + h->rep_len, (size_t)h->def_len,
		    level_width(c->max_def));
	if (!(*vals = inflate_body(r, body + lv, (size_t)(h->comp - lv),
				   (size_t)(h->raw - lv), h->is_compressed)))
		return -1;
	*n = (size_t)(h->raw - lv);
	return 0;
}

static int start_data(struct pq_chunkrd *r, const struct header *h,
		      const uint8_t *body)
{
	const uint8_t *vals;
	size_t n;
	const char *why;

	if (h->num_values < 0 || h->num_values > r->values_left)
		return fail(r, "page of %lld values, the column chunk has %lld"
			    " left", (long long)h->num_values,
			    (long long)r->values_left);
	if ((h->type == PQ_DATA_PAGE ? data_v1 : data_v2)(r, h, body, &vals, &n))
		return -1;
	r->data_seen = 1;
	r->values_left -= h->num_values;
	r->page.num_values = r->page.left = h->num_values;
	if (h->encoding >= 0 && h->encoding < 32)
		r->seen.encodings |= 1u << h->encoding;
	why = pq_values_init(&r->page.vals, r->col, h->encoding, vals, n,
			     r->has_dict ? &r->dict : NULL);
	return why ? fail(r, "%s (encoding %d)", why, h->encoding) : 0;
}

int pq_chunk_next(struct pq_chunkrd *r)
{
	struct header h;
	const uint8_t *body;

	while (r->pos < r->end) {
		r->page_at = r->pos;
		if (read_header(r, &h) || check_sizes(r, &h))
			return -1;
		if (!(body = need(r, r->pos, (size_t)h.comp)))
			return -1;
		r->pos += (uint64_t)h.comp;
		if (h.type >= 0 && h.type < 8)
			r->seen.pages |= 1u << h.type;
		if (h.type == PQ_DICTIONARY_PAGE) {
			if (read_dictionary(r, &h, body))
				return -1;
		} else if (h.type == PQ_DATA_PAGE || h.type == PQ_DATA_PAGE_V2) {
			return start_data(r, &h, body) ? -1 : 1;
		}
	}
	return 0;
}

void pq_chunk_init(struct pq_chunkrd *r, struct pq_file *f, int col)
{
	memset(r, 0, sizeof(*r));
	r->f = f;
	r->col = &f->cols[col];
}

void pq_chunk_start(struct pq_chunkrd *r, int rg)
{
	const struct pq_chunk *ch = &r->f->rgs[rg].chunks[r->col - r->f->cols];

	pq_dict_free(&r->dict);
	r->has_dict = r->data_seen = 0;
	r->codec = ch->codec;
	r->pos = (uint64_t)ch->start;
	r->end = r->pos + (uint64_t)ch->compressed;
	r->values_left = ch->num_values;
	r->page.left = 0;
	r->len = 0;
	if (ch->codec >= 0 && ch->codec < 32)
		r->seen.codecs |= 1u << ch->codec;
}

void pq_chunk_free(struct pq_chunkrd *r)
{
	pq_dict_free(&r->dict);
	pq_values_free(&r->page.vals);
	free(r->buf);
	free(r->out);
}
