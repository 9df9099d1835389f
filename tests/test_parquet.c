/* The Parquet reader on hand-made files: a small Thrift compact writer
 * builds footers and page headers, so that each test can tell one lie
 * (sizes, counts, offsets, nesting, widths, codecs) and check that the
 * reader answers with one message naming the file, never a crash, a
 * hang or an allocation the file does not pay for. Tests that read
 * real writers' files are in tests/parquet.sh. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include "src/parquet/parquet.h"
#include "tests/testutil.h"

/* Thrift compact writer. */
struct tw {
	uint8_t b[1 << 16];
	size_t n;
	int last[80];
	int depth;
};

static void tw_byte(struct tw *t, uint8_t v)
{
	assert_true(t->n < sizeof(t->b));
	t->b[t->n++] = v;
}

static void tw_varint(struct tw *t, uint64_t v)
{
	while (v >= 0x80) {
		tw_byte(t, (uint8_t)(v | 0x80));
		v >>= 7;
	}
	tw_byte(t, (uint8_t)v);
}

static uint64_t zz(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static void tw_field(struct tw *t, int id, int type)
{
	int delta = id - t->last[t->depth];

	if (delta > 0 && delta <= 15) {
		tw_byte(t, (uint8_t)(delta << 4 | type));
	} else {
		tw_byte(t, (uint8_t)type);
		tw_varint(t, zz(id));
	}
	t->last[t->depth] = id;
}

static void tw_i64(struct tw *t, int id, int64_t v)
{
	tw_field(t, id, 6);
	tw_varint(t, zz(v));
}

static void tw_i32(struct tw *t, int id, int32_t v)
{
	tw_field(t, id, 5);
	tw_varint(t, zz(v));
}

static void tw_bin(struct tw *t, int id, const char *s)
{
	tw_field(t, id, 8);
	tw_varint(t, strlen(s));
	for (size_t i = 0; s[i]; i++)
		tw_byte(t, (uint8_t)s[i]);
}

/* A struct field (id > 0) or a struct list element (id 0). */
static void tw_begin(struct tw *t, int id)
{
	if (id)
		tw_field(t, id, 12);
	t->last[++t->depth] = 0;
}

static void tw_end(struct tw *t)
{
	tw_byte(t, 0);
	t->depth--;
}

static void tw_list(struct tw *t, int id, int etype, uint64_t n)
{
	tw_field(t, id, 9);
	if (n < 15) {
		tw_byte(t, (uint8_t)(n << 4 | (unsigned)etype));
	} else {
		tw_byte(t, (uint8_t)(0xf0 | etype));
		tw_varint(t, n);
	}
}

/* One leaf column "v" and one row group; -1 means "the true value". */
struct spec {
	int type, repetition, codec;
	int64_t rows, values, offset, total;
	int unknown_fields;	/* fields no reader knows, to be skipped */
};

static const struct spec base = { 2, 0, 0, 3, 3, -1, -1, 0 };

static void unknown_fields(struct tw *t)
{
	tw_field(t, 40, 7);			/* a double */
	for (int i = 0; i < 8; i++)
		tw_byte(t, 0);
	tw_field(t, 41, 11);			/* a map<i32, string> */
	tw_varint(t, 1);
	tw_byte(t, 5 << 4 | 8);
	tw_varint(t, zz(7));
	tw_varint(t, 1);
	tw_byte(t, 'x');
	tw_list(t, 42, 1, 2);			/* a list of booleans */
	tw_byte(t, 1);
	tw_byte(t, 2);
	tw_field(t, 43, 1);			/* a boolean */
}

static void footer_chunk(struct tw *t, const struct spec *s, size_t pages)
{
	tw_list(t, 1, 12, 1);
	tw_begin(t, 0);				/* ColumnChunk */
	tw_i64(t, 2, 4);
	tw_begin(t, 3);				/* ColumnMetaData */
	tw_i32(t, 1, s->type);
	tw_list(t, 2, 5, 1);
	tw_varint(t, zz(0));
	tw_list(t, 3, 8, 1);
	tw_varint(t, 1);
	tw_byte(t, 'v');
	tw_i32(t, 4, s->codec);
	tw_i64(t, 5, s->values);
	tw_i64(t, 6, (int64_t)pages);
	tw_i64(t, 7, s->total >= 0 || s->total < -1 ? s->total : (int64_t)pages);
	tw_i64(t, 9, s->offset >= 0 ? s->offset : 4);
	if (s->unknown_fields)
		unknown_fields(t);
	tw_end(t);
	tw_end(t);
}

static void footer(struct tw *t, const struct spec *s, size_t pages)
{
	tw_begin(t, 0);				/* FileMetaData */
	tw_i32(t, 1, 1);
	tw_list(t, 2, 12, 2);
	tw_begin(t, 0);
	tw_bin(t, 4, "schema");
	tw_i32(t, 5, 1);
	tw_end(t);
	tw_begin(t, 0);
	tw_i32(t, 1, s->type);
	tw_i32(t, 3, s->repetition);
	tw_bin(t, 4, "v");
	tw_end(t);
	tw_i64(t, 3, s->rows);
	tw_list(t, 4, 12, 1);
	tw_begin(t, 0);				/* RowGroup */
	footer_chunk(t, s, pages);
	tw_i64(t, 2, 100);
	tw_i64(t, 3, s->rows);
	tw_end(t);
	if (s->unknown_fields)
		unknown_fields(t);
	tw_end(t);
}

/* PAR1, the pages, the footer, its length, PAR1: a file in the scratch
 * folder (static path). */
static char *write_raw(const uint8_t *pages, size_t n, const uint8_t *foot,
		       size_t fn)
{
	static uint8_t buf[1 << 17];
	size_t len = 0;

	assert_true(n + fn + 12 <= sizeof(buf));
	memcpy(buf, "PAR1", 4);
	if (n)
		memcpy(buf + 4, pages, n);
	memcpy(buf + 4 + n, foot, fn);
	len = 4 + n + fn;
	for (int i = 0; i < 4; i++)
		buf[len++] = (uint8_t)(fn >> (8 * i));
	memcpy(buf + len, "PAR1", 4);
	return tu_write("t.parquet", (const char *)buf, len + 4);
}

static char *write_file(const struct tw *pages, const struct spec *s)
{
	static struct tw f;

	memset(&f, 0, sizeof(f));
	footer(&f, s, pages->n);
	return write_raw(pages->b, pages->n, f.b, f.n);
}

static void page_v1(struct tw *t, int raw, int comp, int values, int enc)
{
	tw_begin(t, 0);
	tw_i32(t, 1, 0);
	tw_i32(t, 2, raw);
	tw_i32(t, 3, comp);
	tw_begin(t, 5);
	tw_i32(t, 1, values);
	tw_i32(t, 2, enc);
	tw_i32(t, 3, 3);
	tw_i32(t, 4, 3);
	tw_end(t);
	tw_end(t);
}

static void page_dict(struct tw *t, int raw, int values)
{
	tw_begin(t, 0);
	tw_i32(t, 1, 2);
	tw_i32(t, 2, raw);
	tw_i32(t, 3, raw);
	tw_begin(t, 7);
	tw_i32(t, 1, values);
	tw_i32(t, 2, 0);
	tw_end(t);
	tw_end(t);
}

static void put_raw(struct tw *t, const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		tw_byte(t, ((const uint8_t *)p)[i]);
}

static void put_i64s(struct tw *t, const int64_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (int b = 0; b < 8; b++)
			tw_byte(t, (uint8_t)((uint64_t)v[i] >> (8 * b)));
}

/* Reads every row of column 0 in batches of two: 0 and the values in
 * got (up to cap), or -1 with the message in err. */
static int read_all(const char *path, int64_t *got, size_t cap, size_t *n,
		    char *err, size_t errlen)
{
	struct pq_file *f = pq_open(path, err, errlen);
	struct pq_cursor *c;
	struct pq_batch b;
	int rc;

	*n = 0;
	if (!f)
		return -1;
	c = pq_cursor_open(f, 0);
	assert_non_null(c);
	while ((rc = pq_cursor_next(c, 2, &b)) > 0)
		for (size_t i = 0; i < b.slots; i++)
			if (*n < cap)
				got[(*n)++] = b.valid[i] ? b.i64[i] : -999;
	if (rc < 0)
		snprintf(err, errlen, "%s", pq_error(f));
	pq_cursor_close(c);
	pq_close(f);
	return rc;
}

/* The file fails with a message naming it and saying want. */
static void expect_error(const char *path, const char *want)
{
	char err[1024];
	int64_t got[16];
	size_t n;

	assert_int_equal(read_all(path, got, 16, &n, err, sizeof(err)), -1);
	if (!strstr(err, "t.parquet") || !strstr(err, want))
		fail_msg("wanted '%s' in: %s", want, err);
}

static const int64_t three[] = { 1, -2, INT64_MAX };

/* The good file the lies start from: three INT64 values, PLAIN. */
static void good_pages(struct tw *p)
{
	memset(p, 0, sizeof(*p));
	page_v1(p, 24, 24, 3, 0);
	put_i64s(p, three, 3);
}

static void check_three(const char *path)
{
	char err[1024];
	int64_t got[16];
	size_t n;

	if (read_all(path, got, 16, &n, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(n, 3);
	assert_memory_equal(got, three, sizeof(three));
}

/* The test writer itself, and fields no reader knows (skipped by type). */
static void test_good(void **state)
{
	struct tw p;
	struct spec s = base;

	(void)state;
	good_pages(&p);
	check_three(write_file(&p, &s));
	s.unknown_fields = 1;
	check_three(write_file(&p, &s));
}

/* Index pages and page types from the future are skipped. */
static void test_unknown_pages(void **state)
{
	struct tw p = { .n = 0 };
	struct spec s = base;

	(void)state;
	for (int type = 1; type <= 7; type += 6) {
		tw_begin(&p, 0);
		tw_i32(&p, 1, type);
		tw_i32(&p, 2, 4);
		tw_i32(&p, 3, 4);
		tw_end(&p);
		put_raw(&p, "skip", 4);
	}
	page_v1(&p, 24, 24, 3, 0);
	put_i64s(&p, three, 3);
	check_three(write_file(&p, &s));
}

/* The bytes of the good file. */
static size_t good_bytes(uint8_t *buf, size_t cap)
{
	struct tw p;
	FILE *f;
	size_t n;

	good_pages(&p);
	f = fopen(write_file(&p, &base), "rb");
	assert_non_null(f);
	n = fread(buf, 1, cap, f);
	fclose(f);
	return n;
}

static void expect_open_error(const uint8_t *buf, size_t n, const char *want)
{
	char err[1024];
	char *path = tu_write("t.parquet", (const char *)buf, n);

	assert_null(pq_open(path, err, sizeof(err)));
	if (!strstr(err, "t.parquet") || !strstr(err, want))
		fail_msg("wanted '%s' in: %s", want, err);
}

static void test_truncated(void **state)
{
	static uint8_t buf[1 << 16];
	size_t n = good_bytes(buf, sizeof(buf));

	(void)state;
	expect_open_error(buf, 0, "too short");
	expect_open_error(buf, 11, "too short");
	expect_open_error(buf, 40, "no PAR1 at its end");
	expect_open_error(buf, n - 1, "no PAR1 at its end");
}

static void test_magic(void **state)
{
	static uint8_t buf[1 << 16];
	size_t n = good_bytes(buf, sizeof(buf));

	(void)state;
	buf[0] = 'X';
	expect_open_error(buf, n, "no PAR1 at its start");
	buf[0] = 'P';
	buf[n - 1] = 'X';
	expect_open_error(buf, n, "no PAR1 at its end");
	buf[n - 1] = '1';
	/* a footer longer than the file */
	buf[n - 7] = 0xff;
	expect_open_error(buf, n, "does not fit in the file");
	buf[n - 7] = 0;
	/* a footer cut short: its structures end early */
	buf[n - 8] -= 10;
	expect_open_error(buf, n, "footer: byte");
}

/* A footer made by fill, after no pages. */
static void expect_footer_error(void (*fill)(struct tw *), const char *want)
{
	static struct tw f;
	char err[1024];
	char *path;

	memset(&f, 0, sizeof(f));
	fill(&f);
	path = write_raw(NULL, 0, f.b, f.n);
	assert_null(pq_open(path, err, sizeof(err)));
	if (!strstr(err, "t.parquet") || !strstr(err, want))
		fail_msg("wanted '%s' in: %s", want, err);
}

static void deep_structs(struct tw *t)
{
	tw_begin(t, 0);
	for (int i = 0; i < 70; i++)
		tw_begin(t, 99);
	for (int i = 0; i < 70; i++)
		tw_end(t);
	tw_end(t);
}

static void lying_list(struct tw *t)
{
	tw_begin(t, 0);
	tw_list(t, 2, 12, 1000000);
	tw_end(t);
	tw_end(t);
}

static void lying_string(struct tw *t)
{
	tw_begin(t, 0);
	tw_field(t, 6, 8);
	tw_varint(t, 1u << 30);
	tw_byte(t, 'x');
	tw_end(t);
}

/* A schema of n groups, one inside the other, around one leaf. */
static void schema_nested(struct tw *t, int n, int root_children)
{
	tw_begin(t, 0);
	tw_list(t, 2, 12, (uint64_t)n + 2);
	tw_begin(t, 0);
	tw_bin(t, 4, "schema");
	tw_i32(t, 5, root_children);
	tw_end(t);
	for (int i = 0; i < n; i++) {
		tw_begin(t, 0);
		tw_bin(t, 4, "g");
		tw_i32(t, 5, 1);
		tw_end(t);
	}
	tw_begin(t, 0);
	tw_i32(t, 1, 2);
	tw_bin(t, 4, "v");
	tw_end(t);
	tw_i64(t, 3, 0);
	tw_list(t, 4, 12, 0);
	tw_end(t);
}

static void deep_schema(struct tw *t)
{
	schema_nested(t, 70, 1);
}

static void lying_children(struct tw *t)
{
	schema_nested(t, 0, 5);
}

static void test_footer_lies(void **state)
{
	static struct tw f;
	struct pq_file *pf;
	char err[1024];

	(void)state;
	expect_footer_error(deep_structs, "nested too deep");
	expect_footer_error(lying_list, "list longer than its structure");
	expect_footer_error(lying_string, "string longer than its structure");
	expect_footer_error(deep_schema, "nested deeper than 64");
	expect_footer_error(lying_children, "a group has 5 children");
	/* 60 levels are fine */
	memset(&f, 0, sizeof(f));
	schema_nested(&f, 60, 1);
	pf = pq_open(write_raw(NULL, 0, f.b, f.n), err, sizeof(err));
	assert_non_null(pf);
	assert_int_equal(pq_column(pf, 0)->max_def, 0);
	pq_close(pf);
}

/* Sizes and counts of the metadata and the pages that lie. */
static void test_count_lies(void **state)
{
	struct tw p;
	struct spec s;

	(void)state;
	good_pages(&p);
	s = base;
	s.rows = s.values = 5;
	expect_error(write_file(&p, &s), "pages end before the row group's row count");
	s = base;
	s.rows = 2;
	expect_error(write_file(&p, &s), "pages hold more rows than the row group says");
	s = base;
	s.values = 2;
	expect_error(write_file(&p, &s), "page of 3 values, the column chunk has 2 left");
	s = base;
	s.values = 4;
	expect_error(write_file(&p, &s), "pages hold fewer values than the column chunk says");
	/* a page that says 3 values and holds 2 */
	memset(&p, 0, sizeof(p));
	page_v1(&p, 16, 16, 3, 0);
	put_i64s(&p, three, 2);
	expect_error(write_file(&p, &base), "page ends before its values");
}

static void test_size_lies(void **state)
{
	struct tw p = { .n = 0 }, f = { .n = 0 };
	struct spec s = base;

	(void)state;
	page_v1(&p, 24, 1000, 3, 0);
	put_i64s(&p, three, 3);
	expect_error(write_file(&p, &s), "page of 1000 bytes runs past its column chunk");
	memset(&p, 0, sizeof(p));
	page_v1(&p, -5, 24, 3, 0);
	put_i64s(&p, three, 3);
	expect_error(write_file(&p, &s), "negative or above the limit");
	memset(&p, 0, sizeof(p));
	page_v1(&p, 24, 20, 3, 0);
	put_i64s(&p, three, 3);
	expect_error(write_file(&p, &s), "uncompressed page of 20 bytes says 24");
	/* column chunks outside the file, or where offsets overflow */
	good_pages(&p);
	s.total = -2;
	footer(&f, &s, p.n);
	expect_error(write_raw(p.b, p.n, f.b, f.n), "lie outside the data");
	s = base;
	s.offset = INT64_MAX - 2;
	memset(&f, 0, sizeof(f));
	footer(&f, &s, p.n);
	expect_error(write_raw(p.b, p.n, f.b, f.n), "lie outside the data");
	s = base;
	s.total = 1000;
	memset(&f, 0, sizeof(f));
	footer(&f, &s, p.n);
	expect_error(write_raw(p.b, p.n, f.b, f.n), "lie outside the data");
}

/* A compressed page of the three values, announcing raw bytes. */
static void compressed_page(struct tw *p, const uint8_t *data, size_t n, int raw)
{
	memset(p, 0, sizeof(*p));
	page_v1(p, raw, (int)n, 3, 0);
	put_raw(p, data, n);
}

static void test_codec_lies(void **state)
{
	static uint8_t plain[1 << 20], packed[1 << 20];
	struct tw p;
	struct spec s = base;
	size_t n = sizeof(packed);
	uLongf zn = sizeof(packed);

	(void)state;
	memset(&p, 0, sizeof(p));
	put_i64s(&p, three, 3);
	memcpy(plain, p.b, 24);
	/* SNAPPY, honest, then announcing 100 bytes */
	s.codec = 1;
	assert_int_equal(snappy_compress((char *)plain, 24, (char *)packed, &n), SNAPPY_OK);
	compressed_page(&p, packed, n, 24);
	check_three(write_file(&p, &s));
	compressed_page(&p, packed, n, 100);
	expect_error(write_file(&p, &s), "SNAPPY data announce another size");
	/* ZSTD: a frame of 1 MiB of zeros in a page of 24 bytes (a bomb) */
	s.codec = 6;
	n = ZSTD_compress(packed, sizeof(packed), plain + 64, 1 << 19, 3);
	assert_false(ZSTD_isError(n));
	compressed_page(&p, packed, n, 24);
	expect_error(write_file(&p, &s), "ZSTD data announce more than the page holds");
	/* GZIP: the same bomb, whose size no header tells */
	s.codec = 2;
	assert_int_equal(compress2(packed, &zn, plain + 64, 1 << 19, 9), Z_OK);
	compressed_page(&p, packed, zn, 24);
	expect_error(write_file(&p, &s), "another size than the page");
	/* a page bigger than the limit is refused before any allocation */
	compressed_page(&p, packed, zn, (int)PQ_MAX_PAGE + 1);
	expect_error(write_file(&p, &s), "above the limit");
	/* LZO, and codecs that do not exist */
	s.codec = 3;
	compressed_page(&p, plain, 24, 24);
	expect_error(write_file(&p, &s), "codec LZO (3) is not supported");
	s.codec = 99;
	expect_error(write_file(&p, &s), "codec unknown (99) is not supported");
}

/* A dictionary of {10, 20} and a data page of indices (width, runs). */
static char *dict_file(const uint8_t *idx, size_t n)
{
	static const int64_t dict[] = { 10, 20 };
	struct tw p = { .n = 0 };

	page_dict(&p, 16, 2);
	put_i64s(&p, dict, 2);
	page_v1(&p, (int)n, (int)n, 3, 8);
	put_raw(&p, idx, n);
	return write_file(&p, &base);
}

static void test_dictionary(void **state)
{
	/* width 1; an RLE run of 2 (header 2 << 1) of 1, a bit-packed group
	 * (header 1 << 1 | 1) holding 0 */
	static const uint8_t good[] = { 1, 4, 1, 3, 0 };
	static const uint8_t out_of_range[] = { 2, 6, 3 };
	static const uint8_t too_wide[] = { 33, 6, 0, 0, 0, 0, 0 };
	static const uint8_t short_runs[] = { 1, 4, 1 };
	char err[1024];
	int64_t got[16];
	size_t n;

	(void)state;
	if (read_all(dict_file(good, sizeof(good)), got, 16, &n, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(n, 3);
	assert_int_equal(got[0], 20);
	assert_int_equal(got[1], 20);
	assert_int_equal(got[2], 10);
	expect_error(dict_file(out_of_range, sizeof(out_of_range)),
		     "dictionary index out of range");
	expect_error(dict_file(too_wide, sizeof(too_wide)),
		     "dictionary index width above 32 bits");
	expect_error(dict_file(short_runs, sizeof(short_runs)),
		     "bad or short dictionary indices");
}

static void test_dictionary_count(void **state)
{
	struct tw p = { .n = 0 };

	(void)state;
	page_dict(&p, 16, 1000);
	put_i64s(&p, three, 2);
	page_v1(&p, 24, 24, 3, 0);
	put_i64s(&p, three, 3);
	expect_error(write_file(&p, &base), "dictionary of 1000 values cannot fit");
}

/* DELTA_BINARY_PACKED of INT64_MAX, INT64_MIN, 0: the deltas wrap, and
 * need all 64 bits. Block of 128 in 4 miniblocks of 32. */
static char *delta_file(int width)
{
	struct tw p = { .n = 0 }, d = { .n = 0 };
	const uint64_t first = UINT64_C(1) << 63 | 1;	/* 1 - INT64_MIN */

	tw_varint(&d, 128);
	tw_varint(&d, 4);
	tw_varint(&d, 3);
	tw_varint(&d, zz(INT64_MAX));
	tw_varint(&d, zz(INT64_MIN));	/* the smallest delta */
	tw_byte(&d, (uint8_t)width);
	tw_byte(&d, 0);
	tw_byte(&d, 0);
	tw_byte(&d, 0);
	for (int b = 0; b < 8; b++)
		tw_byte(&d, (uint8_t)(first >> (8 * b)));
	for (int b = 8; b < 32 * 8; b++)
		tw_byte(&d, 0);
	page_v1(&p, (int)d.n, (int)d.n, 3, 5);
	put_raw(&p, d.b, d.n);
	return write_file(&p, &base);
}

static void test_delta(void **state)
{
	char err[1024];
	int64_t got[16];
	size_t n;

	(void)state;
	if (read_all(delta_file(64), got, 16, &n, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(n, 3);
	assert_true(got[0] == INT64_MAX && got[1] == INT64_MIN && got[2] == 0);
	expect_error(delta_file(65), "bad or short delta-encoded values");
}

/* An optional column: V1 levels with a length, V2 levels without, the
 * values of V2 left uncompressed under a codec (is_compressed false). */
static void test_levels(void **state)
{
	static const int64_t vals[] = { 1, 3 };
	/* width 1, one bit-packed group: 1, 0, 1 */
	static const uint8_t def[] = { 3, 5 };
	struct tw p = { .n = 0 };
	struct spec s = base;
	char err[1024];
	int64_t got[16];
	size_t n;

	(void)state;
	s.repetition = 1;
	page_v1(&p, 22, 22, 3, 0);
	put_raw(&p, "\x02\x00\x00\x00", 4);
	put_raw(&p, def, 2);
	put_i64s(&p, vals, 2);
	if (read_all(write_file(&p, &s), got, 16, &n, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(n, 3);
	assert_true(got[0] == 1 && got[1] == -999 && got[2] == 3);
	memset(&p, 0, sizeof(p));
	tw_begin(&p, 0);
	tw_i32(&p, 1, 3);
	tw_i32(&p, 2, 18);
	tw_i32(&p, 3, 18);
	tw_begin(&p, 8);
	tw_i32(&p, 1, 3);
	tw_i32(&p, 2, 1);
	tw_i32(&p, 3, 3);
	tw_i32(&p, 4, 0);
	tw_i32(&p, 5, 2);
	tw_i32(&p, 6, 0);
	tw_field(&p, 7, 2);		/* is_compressed: false */
	tw_end(&p);
	tw_end(&p);
	put_raw(&p, def, 2);
	put_i64s(&p, vals, 2);
	s.codec = 6;
	if (read_all(write_file(&p, &s), got, 16, &n, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(n, 3);
	assert_true(got[0] == 1 && got[1] == -999 && got[2] == 3);
	/* levels longer than their page */
	s.codec = 0;
	memset(&p, 0, sizeof(p));
	page_v1(&p, 22, 22, 3, 0);
	put_raw(&p, "\x40\x00\x00\x00", 4);
	put_raw(&p, def, 2);
	put_i64s(&p, vals, 2);
	expect_error(write_file(&p, &s), "levels of 64 bytes run past their page");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_unknown_pages),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_magic),
		cmocka_unit_test(test_footer_lies),
		cmocka_unit_test(test_count_lies),
		cmocka_unit_test(test_size_lies),
		cmocka_unit_test(test_codec_lies),
		cmocka_unit_test(test_dictionary),
		cmocka_unit_test(test_dictionary_count),
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_levels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
