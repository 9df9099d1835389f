/* What the parts of the Parquet reader share: the Thrift compact
 * decoder, the file's metadata, page decoding and the codecs. */
#ifndef NX_PQ_INT_H
#define NX_PQ_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "model/arena.h"
#include "model/util.h"
#include "src/parquet/parquet.h"

#define PQ_MAX_SCHEMA 100000	/* schema elements of one file */
#define PQ_MAX_PATH 4096	/* bytes of a dotted column path */

/* Codecs, encodings and page types, numbered as in parquet.thrift. */
enum {
	PQ_UNCOMPRESSED, PQ_SNAPPY, PQ_GZIP, PQ_LZO, PQ_BROTLI, PQ_LZ4,
	PQ_ZSTD, PQ_LZ4_RAW
};
enum {
	PQ_PLAIN = 0, PQ_PLAIN_DICTIONARY = 2, PQ_RLE = 3, PQ_BIT_PACKED = 4,
	PQ_DELTA_BINARY_PACKED = 5, PQ_DELTA_LENGTH_BYTE_ARRAY = 6,
	PQ_DELTA_BYTE_ARRAY = 7, PQ_RLE_DICTIONARY = 8,
	PQ_BYTE_STREAM_SPLIT = 9
};
enum { PQ_DATA_PAGE = 0, PQ_DICTIONARY_PAGE = 2, PQ_DATA_PAGE_V2 = 3 };

/* Thrift compact protocol over one buffer. Every call fails once one
 * has failed; err then says why. */
enum {
	TH_STOP, TH_TRUE, TH_FALSE, TH_BYTE, TH_I16, TH_I32, TH_I64,
	TH_DOUBLE, TH_BINARY, TH_LIST, TH_SET, TH_MAP, TH_STRUCT
};
struct thrift {
	const uint8_t *p, *start, *end;
	int depth;
	const char *err;
};
void th_init(struct thrift *t, const void *buf, size_t n);
int th_fail(struct thrift *t, const char *why);
/* Enters a struct (depth limit); th_field then reads its fields. */
int th_begin(struct thrift *t);
void th_end(struct thrift *t);
/* The next field of the struct: 1 with its id and type, 0 at its end,
 * -1 on error. */
int th_field(struct thrift *t, int *last_id, int *id, int *type);
/* An integer field of any integer type into v, else skips the field. */
int th_int(struct thrift *t, int type, int64_t *v);
int th_binary(struct thrift *t, const uint8_t **p, size_t *n);
int th_list(struct thrift *t, int *etype, size_t *n);
int th_skip(struct thrift *t, int type);
/* Bytes consumed since th_init. */
size_t th_offset(const struct thrift *t);

/* One column chunk of a row group. */
struct pq_chunk {
	int codec;
	int type;
	int64_t num_values;
	int64_t compressed;	/* bytes of every page of the chunk */
	int64_t start;		/* file offset of its first page */
	int has_external;	/* its pages live in another file */
	char *path;		/* path_in_schema, dotted */
};

struct pq_rowgroup {
	int64_t num_rows;
	int nchunks;
	struct pq_chunk *chunks;
};

/* Levels of a leaf column beyond struct pq_column. */
struct pq_leaf {
	int rep_def;	/* def level of its innermost repeated field */
	int list_def;	/* lowest def level at which its list exists */
};

struct pq_file {
	int fd;
	char *name;		/* as given to pq_open */
	uint64_t size;
	int64_t num_rows;
	char *created_by;
	int ncols;
	struct pq_column *cols;
	struct pq_leaf *leaves;
	int nrg;
	struct pq_rowgroup *rgs;
	char err[1024];
	char io_err[128];	/* why the last pq_pread failed */
};

/* Sets f's message: "NAME: " followed by the formatted text. */
void pq_fail(struct pq_file *f, const char *fmt, ...) NX_PRINTF(2, 3);
/* Copies at most n bytes of untrusted s into out (size cap), every byte
 * outside printable ASCII as '?'. */
void pq_clean(char *out, size_t cap, const char *s, size_t n);
/* Reads n bytes at off; -1 with the reason in f->io_err. */
int pq_pread(struct pq_file *f, void *buf, size_t n, uint64_t off);

/* meta.c: the footer's FileMetaData into f. */
int pq_meta_parse(struct pq_file *f, const uint8_t *buf, size_t n);
void pq_meta_free(struct pq_file *f);
/* schema.c: flattens schema elements into f's leaf columns. */
struct pq_schema_el;
int pq_schema_build(struct pq_file *f, struct pq_schema_el *el, size_t n);
void pq_schema_free_els(struct pq_schema_el *el, size_t n);

struct pq_schema_el {
	char *name;
	int type;		/* -1 for a group */
	int type_length;
	int repetition;		/* 0 required, 1 optional, 2 repeated */
	int num_children;
	int converted;		/* -1 when absent */
	int scale, precision;
	enum pq_logical logical;
	int bit_width, is_signed, unit;
};

/* codec.c: src (n bytes, codec) into exactly out_n bytes at out. */
int pq_codec_supported(int codec);
const char *pq_codec_name(int codec);
int pq_decompress(int codec, const uint8_t *src, size_t n, uint8_t *out,
		  size_t out_n, const char **why);

/* RLE/bit-packed hybrid runs of width-bit values (levels, dictionary
 * indices, booleans); width is at most 32. */
struct pq_rle {
	const uint8_t *p, *end;
	int width;
	uint64_t run;		/* values left in the current run */
	int packed;		/* the run is bit-packed */
	uint32_t value;		/* of an RLE run */
	const uint8_t *bits;	/* of a bit-packed run */
	uint64_t bitpos;
};
void pq_rle_init(struct pq_rle *r, const uint8_t *p, size_t n, int width);
/* Up to n values into out; returns how many, or -1 on bad data. */
int64_t pq_rle_get(struct pq_rle *r, uint32_t *out, size_t n);

/* DELTA_BINARY_PACKED. */
struct pq_delta {
	const uint8_t *p, *end;
	uint64_t block_size, minis, per_mini;
	uint64_t total, left;	/* values in the stream, still to read */
	uint64_t last;		/* previous value, wrapping */
	uint64_t min_delta;
	const uint8_t *widths;	/* of the current block's miniblocks */
	uint64_t mini;		/* current miniblock */
	uint64_t in_mini;	/* values read from it */
	const uint8_t *bits;
	int first;		/* the first value is still to be returned */
	int is32;
};
int pq_delta_init(struct pq_delta *d, const uint8_t *p, size_t n, int is32);
int64_t pq_delta_get(struct pq_delta *d, int64_t *out, size_t n);
/* End of the stream (where data after it starts), or NULL if bad. */
const uint8_t *pq_delta_end(const struct pq_delta *d);

/* Loads up to 8 bytes little-endian; pages carry PQ_PAD zero bytes
 * after their end so that bit unpacking may read past a run. */
#define PQ_PAD 16
static inline uint64_t pq_load64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

/* A width-bit value (width <= 64) at bit position pos of p. */
static inline uint64_t pq_unpack(const uint8_t *p, uint64_t pos, int width)
{
	const uint8_t *q = p + (pos >> 3);
	unsigned sh = pos & 7;
	uint64_t v = pq_load64(q) >> sh;

	if (width + sh > 64)
		v |= (uint64_t)q[8] << (64 - sh);
	return width == 64 ? v : v & ((UINT64_C(1) << width) - 1);
}

int pq_varint(const uint8_t **p, const uint8_t *end, uint64_t *v);

#endif


/* Where decoded values go: one of the three, by the column's kind. */
struct pq_out {
	int64_t *i64;
	double *f64;
	struct pq_bytes *bytes;
};

/* A page's values, in one encoding. */
struct pq_values {
	int enc, type, width;	/* width: bytes of a fixed-size value */
	const uint8_t *p, *end;
	struct pq_rle rle;		/* dictionary indices, RLE booleans */
	uint64_t bitpos;		/* PLAIN booleans */
	struct pq_delta lens, pre;	/* lengths; DELTA_BYTE_ARRAY prefixes */
	size_t count, next;		/* BYTE_STREAM_SPLIT */
	const struct pq_dict *dict;
	uint8_t *prev;			/* DELTA_BYTE_ARRAY: the last value */
	size_t prev_len, prev_cap;
	uint32_t *idx;			/* dictionary indices of one call */
	size_t idx_cap;
};

/* A row group's dictionary; byte views point into data. */
struct pq_dict {
	size_t n;
	int64_t *i64;
	double *f64;
	struct pq_bytes *bytes;
	uint8_t *data;
};
void pq_dict_free(struct pq_dict *d);

/* values.c. Sets up v for n bytes at p (padded) of a page; NULL, or
 * what is wrong. */
const char *pq_values_init(struct pq_values *v, const struct pq_column *c,
			   int enc, const uint8_t *p, size_t n,
			   const struct pq_dict *dict);
/* Exactly n values into o (byte views copied into a when a is not
 * NULL); NULL, or what is wrong. */
const char *pq_values_get(struct pq_values *v, const struct pq_out *o,
			  size_t n, struct arena *a);
void pq_values_free(struct pq_values *v);

/* A data page being read: its levels and its values. */
struct pq_page {
	int64_t left;		/* level entries not yet read */
	int64_t num_values;
	struct pq_rle rep, def;
	struct pq_values vals;
};

/* The pages of one column chunk, read in order through a window of the
 * file, decompressed one at a time. */
struct pq_chunkrd {
	struct pq_file *f;
	const struct pq_column *col;
	int codec;
	uint64_t pos, end;	/* next page header; end of the chunk */
	uint64_t page_at;	/* file offset of the current page */
	uint8_t *buf;		/* the window: file bytes from off */
	size_t cap, len;
	uint64_t off;
	uint8_t *out;		/* a decompressed page */
	size_t out_cap;
	int64_t values_left;	/* level entries the chunk still owes */
	int data_seen;
	struct pq_dict dict;
	int has_dict;
	struct pq_page page;
	struct pq_seen seen;
	char why[256];
};
void pq_chunk_init(struct pq_chunkrd *r, struct pq_file *f, int col);
/* Starts reading column chunk col of row group rg. */
void pq_chunk_start(struct pq_chunkrd *r, int rg);
/* The next data page into r->page: 1, 0 at the end of the chunk, -1
 * with r->why. */
int pq_chunk_next(struct pq_chunkrd *r);
void pq_chunk_free(struct pq_chunkrd *r);
