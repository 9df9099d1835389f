#include "config.h"

#include "src/parquet/pqwrite.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "model/file.h"
#include "model/util.h"
#include "src/parquet/pq_int.h"
#include "src/parquet/tout.h"

/* Physical types, repetitions and converted types of parquet.thrift. */
enum { T_BOOLEAN = 0, T_INT32 = 1, T_INT64 = 2, T_DOUBLE = 5,
       T_BYTE_ARRAY = 6 };
enum { REP_REQUIRED = 0, REP_OPTIONAL = 1, REP_REPEATED = 2 };
enum { CONV_UTF8 = 0, CONV_LIST = 3 };

struct pqw_col {
	char *name;
	enum pqw_type type;
	int optional;
	int max_def;		/* 0 required, 1 optional, 3 a list */
	struct tout vals;	/* PLAIN values of the row group (booleans a byte each) */
	/* levels per slot (a row, or a list's element): definition 0..max_def,
	 * repetition 1 for a list's second element on */
	uint8_t *def, *rep;
	size_t slots, cap;
	int set;		/* has its value in the current row */
	int twice;		/* was given two in the current row */
};

/* Where a column chunk went: offsets and sizes of the file. */
struct pqw_chunk {
	int64_t off, usize, csize;
	int64_t values;		/* slots */
};

struct pqw_group {
	int64_t rows;
	struct pqw_chunk *c;
};

struct pqw {
	struct file_out out;
	int64_t pos;		/* bytes written so far */
	struct pqw_col *col;
	int ncol;
	enum pqw_codec codec;
	size_t group_rows, rows;	/* rows buffered */
	int64_t total;
	struct pqw_group *g;
	size_t ng;
	struct tout page, comp;	/* scratch: a page body, compressed */
};

static const int phys_type[] = { T_BOOLEAN, T_INT32, T_INT64, T_DOUBLE,
				 T_BYTE_ARRAY, T_BYTE_ARRAY };

static void put(struct pqw *w, const void *p, size_t n)
{
	fwrite(p, 1, n, w->out.f);
	w->pos += (int64_t)n;
}

struct pqw *pqw_open(const char *path, const struct pqw_field *fields,
		     int nfields, enum pqw_codec codec, size_t group_rows)
{
	struct pqw *w;

	if (nfields < 1) {
		err_set("%s: a table needs a column", path);
		return NULL;
	}
	w = xcalloc(1, sizeof(*w));
	if (!file_out_open(&w->out, path, 0666)) {
		free(w);
		return NULL;
	}
	w->col = xcalloc((size_t)nfields, sizeof(*w->col));
	w->ncol = nfields;
	for (int i = 0; i < nfields; i++) {
		w->col[i].name = xstrdup(fields[i].name);
		w->col[i].type = fields[i].type;
		w->col[i].optional = fields[i].optional ||
				     fields[i].type == PQW_STRING_LIST;
		w->col[i].max_def = fields[i].type == PQW_STRING_LIST ? 3 :
				    w->col[i].optional;
	}
	w->codec = codec;
	w->group_rows = group_rows ? group_rows : 1;
	put(w, "PAR1", 4);
	return w;
}

static void set_levels(struct pqw_col *c, uint8_t d, uint8_t r)
{
	if (!c->max_def)
		return;
	if (c->slots >= c->cap) {
		c->cap = c->cap ? c->cap * 2 : 1024;
		c->def = xrealloc(c->def, c->cap);
		c->rep = xrealloc(c->rep, c->cap);
	}
	c->def[c->slots] = d;
	c->rep[c->slots++] = r;
}

static struct pqw_col *value(struct pqw *w, int col, const void *p,
			     size_t n)
{
	struct pqw_col *c = &w->col[col];

	c->twice |= c->set;
	set_levels(c, 1, 0);
	tout_bytes(&c->vals, p, n);
	c->set = 1;
	return c;
}

void pqw_bool(struct pqw *w, int col, int v)
{
	uint8_t b = v != 0;

	value(w, col, &b, 1);
}

/* PLAIN numbers are little-endian. */
static void le_bytes(uint8_t *b, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		b[i] = (uint8_t)(v >> (8 * i));
}

void pqw_i32(struct pqw *w, int col, int32_t v)
{
	uint8_t b[4];

	le_bytes(b, (uint32_t)v, 4);
	value(w, col, b, 4);
}

void pqw_i64(struct pqw *w, int col, int64_t v)
{
	uint8_t b[8];

	le_bytes(b, (uint64_t)v, 8);
	value(w, col, b, 8);
}

void pqw_double(struct pqw *w, int col, double v)
{
	uint64_t bits;
	uint8_t b[8];

	memcpy(&bits, &v, 8);
	le_bytes(b, bits, 8);
	value(w, col, b, 8);
}

void pqw_str(struct pqw *w, int col, const char *s)
{
	size_t n;
	uint8_t b[4];

	if (!s) {
		pqw_null(w, col);
		return;
	}
	n = strlen(s);
	le_bytes(b, n, 4);
	tout_bytes(&value(w, col, b, 4)->vals, s, n);
}

void pqw_null(struct pqw *w, int col)
{
	w->col[col].twice |= w->col[col].set;
	set_levels(&w->col[col], 0, 0);
	w->col[col].set = 1;
}

/* Levels of a list: 0 null list, 1 empty, 2 null element, 3 element. */
void pqw_strs(struct pqw *w, int col, const char *const *v, size_t n)
{
	struct pqw_col *c = &w->col[col];
	uint8_t b[4];

	if (!v) {
		pqw_null(w, col);
		return;
	}
	c->twice |= c->set;
	c->set = 1;
	if (!n)
		set_levels(c, 1, 0);
	for (size_t i = 0; i < n; i++) {
		set_levels(c, v[i] ? 3 : 2, i > 0);
		if (!v[i])
			continue;
		le_bytes(b, strlen(v[i]), 4);
		tout_bytes(&c->vals, b, 4);
		tout_bytes(&c->vals, v[i], strlen(v[i]));
	}
}

/* Values of width bits bit-packed, least significant bit first, in
 * groups of 8 values. */
static void pack_bits(struct tout *t, const uint8_t *v, size_t n, int width)
{
	for (size_t i = 0; i < n; i += 8) {
		uint32_t bits = 0;
		uint8_t b[4];

		for (size_t j = 0; j < 8 && i + j < n; j++)
			bits |= (uint32_t)v[i + j] << (j * (size_t)width);
		le_bytes(b, bits, width);
		tout_bytes(t, b, (size_t)width);
	}
}

/* Levels as one bit-packed run of the RLE hybrid, behind its 4-byte
 * length as data pages V1 have them. */
static void put_levels(struct tout *t, const uint8_t *lv, size_t n,
		       int width)
{
	size_t start = t->len, groups = (n + 7) / 8;
	uint64_t h = (uint64_t)groups << 1 | 1;
	uint8_t len[4] = { 0 }, b;

	tout_bytes(t, len, 4);
	do {
		b = (uint8_t)(h & 0x7f) | (h >= 0x80 ? 0x80 : 0);
		tout_bytes(t, &b, 1);
		h >>= 7;
	} while (h);
	pack_bits(t, lv, n, width);
	le_bytes(t->p + start, t->len - start - 4, 4);
}

static int compress_page(struct pqw *w)
{
	size_t bound = ZSTD_compressBound(w->page.len), got;

	w->comp.len = 0;
	if (bound > w->comp.cap) {
		w->comp.cap = bound;
		w->comp.p = xrealloc(w->comp.p, bound);
	}
	got = ZSTD_compress(w->comp.p, bound, w->page.p, w->page.len, 3);
	if (ZSTD_isError(got)) {
		err_set("%s: ZSTD: %s", w->out.path, ZSTD_getErrorName(got));
		return -1;
	}
	w->comp.len = got;
	return 0;
}

static void page_header(struct tout *h, size_t values, size_t usize,
			size_t csize)
{
	tout_i32(h, 1, PQ_DATA_PAGE);
	tout_i32(h, 2, (int32_t)usize);
	tout_i32(h, 3, (int32_t)csize);
	tout_struct(h, 5);
	tout_i32(h, 1, (int32_t)values);
	tout_i32(h, 2, PQ_PLAIN);
	tout_i32(h, 3, PQ_RLE);
	tout_i32(h, 4, PQ_RLE);
	tout_end(h);
	tout_end(h);
}

/* One column chunk: a single data page V1. */
static int write_chunk(struct pqw *w, struct pqw_col *c, struct pqw_chunk *k)
{
	const struct tout *body = &w->page;
	struct tout h;

	w->page.len = 0;
	k->values = c->max_def ? (int64_t)c->slots : (int64_t)w->rows;
	if (c->max_def > 1)
		put_levels(&w->page, c->rep, c->slots, 1);
	if (c->max_def)
		put_levels(&w->page, c->def, c->slots, c->max_def > 1 ? 2 : 1);
	if (c->type == PQW_BOOLEAN)
		pack_bits(&w->page, c->vals.p, c->vals.len, 1);
	else if (c->vals.len)
		tout_bytes(&w->page, c->vals.p, c->vals.len);
	if (w->page.len > PQ_MAX_PAGE) {
		err_set("%s: column %s: a page of %zu bytes is too big",
			w->out.path, c->name, w->page.len);
		return -1;
	}
	if (w->codec == PQW_ZSTD) {
		if (compress_page(w))
			return -1;
		body = &w->comp;
	}
	tout_init(&h);
	page_header(&h, (size_t)k->values, w->page.len, body->len);
	k->off = w->pos;
	k->usize = (int64_t)(h.len + w->page.len);
	k->csize = (int64_t)(h.len + body->len);
	put(w, h.p, h.len);
	put(w, body->p, body->len);
	tout_free(&h);
	return 0;
}

static int flush_group(struct pqw *w)
{
	struct pqw_group *g;

	if (!w->rows)
		return 0;
	w->g = xreallocarray(w->g, w->ng + 1, sizeof(*w->g));
	g = &w->g[w->ng++];
	g->rows = (int64_t)w->rows;
	g->c = xcalloc((size_t)w->ncol, sizeof(*g->c));
	for (int i = 0; i < w->ncol; i++) {
		if (write_chunk(w, &w->col[i], &g->c[i]))
			return -1;
		w->col[i].vals.len = 0;
		w->col[i].slots = 0;
	}
	w->total += (int64_t)w->rows;
	w->rows = 0;
	return 0;
}

int pqw_row(struct pqw *w)
{
	for (int i = 0; i < w->ncol; i++) {
		struct pqw_col *c = &w->col[i];

		if ((!c->set && !c->optional) || c->twice) {
			err_set("%s: column %s: %s in row %" PRId64,
				w->out.path, c->name,
				c->twice ? "two values" : "no value",
				w->total + (int64_t)w->rows);
			return -1;
		}
		if (!c->set)
			pqw_null(w, i);
		c->set = 0;
	}
	if (++w->rows < w->group_rows)
		return 0;
	return flush_group(w);
}

/* The three levels of a list: optional group NAME (LIST) { repeated
 * group list { optional element } }. */
static void list_els(struct tout *t, const struct pqw_col *c)
{
	tout_elem_struct(t);
	tout_i32(t, 3, REP_OPTIONAL);
	tout_str(t, 4, c->name);
	tout_i32(t, 5, 1);
	tout_i32(t, 6, CONV_LIST);
	tout_struct(t, 10);	/* LogicalType: LIST */
	tout_struct(t, 3);
	tout_end(t);
	tout_end(t);
	tout_end(t);
	tout_elem_struct(t);
	tout_i32(t, 3, REP_REPEATED);
	tout_str(t, 4, "list");
	tout_i32(t, 5, 1);
	tout_end(t);
}

static void schema_el(struct tout *t, const struct pqw_col *c)
{
	if (c->type == PQW_STRING_LIST)
		list_els(t, c);
	tout_elem_struct(t);
	tout_i32(t, 1, phys_type[c->type]);
	tout_i32(t, 3, c->optional ? REP_OPTIONAL : REP_REQUIRED);
	tout_str(t, 4, c->type == PQW_STRING_LIST ? "element" : c->name);
	if (c->type == PQW_STRING || c->type == PQW_STRING_LIST) {
		tout_i32(t, 6, CONV_UTF8);
		tout_struct(t, 10);	/* LogicalType: STRING */
		tout_struct(t, 1);
		tout_end(t);
		tout_end(t);
	}
	tout_end(t);
}

static void schema(struct tout *t, const struct pqw *w)
{
	size_t n = (size_t)w->ncol + 1;

	for (int i = 0; i < w->ncol; i++)
		n += w->col[i].type == PQW_STRING_LIST ? 2 : 0;
	tout_list(t, 2, TH_STRUCT, n);
	tout_elem_struct(t);
	tout_str(t, 4, "schema");
	tout_i32(t, 5, w->ncol);
	tout_end(t);
	for (int i = 0; i < w->ncol; i++)
		schema_el(t, &w->col[i]);
}

static void chunk_meta(struct tout *t, const struct pqw *w, int col,
		       const struct pqw_group *g)
{
	const struct pqw_chunk *k = &g->c[col];

	tout_elem_struct(t);
	tout_i64(t, 2, k->off);
	tout_struct(t, 3);
	tout_i32(t, 1, phys_type[w->col[col].type]);
	tout_list(t, 2, TH_I32, 2);
	tout_elem_i32(t, PQ_PLAIN);
	tout_elem_i32(t, PQ_RLE);
	if (w->col[col].type == PQW_STRING_LIST) {
		tout_list(t, 3, TH_BINARY, 3);
		tout_elem_str(t, w->col[col].name);
		tout_elem_str(t, "list");
		tout_elem_str(t, "element");
	} else {
		tout_list(t, 3, TH_BINARY, 1);
		tout_elem_str(t, w->col[col].name);
	}
	tout_i32(t, 4, (int32_t)w->codec);
	tout_i64(t, 5, k->values);
	tout_i64(t, 6, k->usize);
	tout_i64(t, 7, k->csize);
	tout_i64(t, 9, k->off);
	tout_end(t);
	tout_end(t);
}

static void row_group(struct tout *t, const struct pqw *w,
		      const struct pqw_group *g)
{
	int64_t usize = 0, csize = 0;

	tout_elem_struct(t);
	tout_list(t, 1, TH_STRUCT, (size_t)w->ncol);
	for (int i = 0; i < w->ncol; i++) {
		chunk_meta(t, w, i, g);
		usize += g->c[i].usize;
		csize += g->c[i].csize;
	}
	tout_i64(t, 2, usize);
	tout_i64(t, 3, g->rows);
	tout_i64(t, 5, g->c[0].off);
	tout_i64(t, 6, csize);
	tout_end(t);
}

/* FileMetaData, its length and the closing magic. */
static void footer(struct pqw *w)
{
	struct tout t;
	uint8_t len[4];

	tout_init(&t);
	tout_i32(&t, 1, 1);
	schema(&t, w);
	tout_i64(&t, 3, w->total);
	tout_list(&t, 4, TH_STRUCT, w->ng);
	for (size_t i = 0; i < w->ng; i++)
		row_group(&t, w, &w->g[i]);
	tout_str(&t, 6, "nxtop " PACKAGE_VERSION);
	tout_end(&t);
	le_bytes(len, t.len, 4);
	put(w, t.p, t.len);
	put(w, len, 4);
	put(w, "PAR1", 4);
	tout_free(&t);
}

static void pqw_free(struct pqw *w)
{
	for (int i = 0; i < w->ncol; i++) {
		free(w->col[i].name);
		free(w->col[i].def);
		free(w->col[i].rep);
		tout_free(&w->col[i].vals);
	}
	for (size_t i = 0; i < w->ng; i++)
		free(w->g[i].c);
	free(w->g);
	free(w->col);
	tout_free(&w->page);
	tout_free(&w->comp);
	free(w);
}

int pqw_close(struct pqw *w)
{
	int rc;

	if (flush_group(w)) {
		pqw_abort(w);
		return -1;
	}
	footer(w);
	rc = file_out_commit(&w->out);
	pqw_free(w);
	return rc;
}

void pqw_abort(struct pqw *w)
{
	file_out_abort(&w->out);
	pqw_free(w);
}
