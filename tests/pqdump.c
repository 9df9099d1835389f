/* pqdump: prints a Parquet file through nxtop's reader in a canonical
 * text form, for tests that compare it with another reader:
 *   pqdump [-s] [-m] [-n] [-b ROWS] [-c COL,COL...] FILE
 * -s the schema (one leaf column a line), -m the codecs, encodings and
 * page types the pages used, -n a checksum of every column instead of
 * its values (for benchmarks), -b the rows of a batch (1000). Values:
 * one row a line, columns separated by tabs; null, integers, doubles
 * in %e form with their shortest round-trip digits (nan, inf, -inf),
 * booleans as true/false, bytes quoted with
 * every byte outside printable ASCII, '"' and '\' as \xHH, lists in
 * [a, b]. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/parquet/parquet.h"

struct opts {
	int schema, meta, sum;
	size_t batch;
	char *cols;
};

static const char *type_name(enum pq_type t)
{
	static const char *const n[] = {
		"BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE",
		"BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"
	};

	return n[t];
}

static const char *logical_name(enum pq_logical l)
{
	static const char *const n[] = {
		"-", "STRING", "INT", "TIMESTAMP", "DECIMAL", "DATE", "TIME",
		"JSON", "ENUM", "UUID", "OTHER"
	};

	return n[l];
}

/* Untrusted bytes, every one outside printable ASCII (and '"', '\\') as
 * \xHH. */
static void put_escaped(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch < 0x20 || ch > 0x7e || ch == '"' || ch == '\\')
			printf("\\x%02x", ch);
		else
			putchar(ch);
	}
}

static void put_bytes(const struct pq_bytes *b)
{
	putchar('"');
	put_escaped(b->ptr, b->len);
	putchar('"');
}

static void put_path(const struct pq_column *c)
{
	put_escaped(c->path, strlen(c->path));
}

static void put_double(double d)
{
	char buf[64];

	if (isnan(d)) {
		fputs("nan", stdout);
		return;
	}
	if (isinf(d)) {
		fputs(d < 0 ? "-inf" : "inf", stdout);
		return;
	}
	for (int p = 0; p <= 16; p++) {
		snprintf(buf, sizeof(buf), "%.*e", p, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	fputs(buf, stdout);
}

static void put_value(const struct pq_column *c, const struct pq_batch *b,
		      size_t s)
{
	if (!b->valid[s]) {
		fputs("null", stdout);
	} else if (c->kind == PQ_K_BYTES) {
		put_bytes(&b->bytes[s]);
	} else if (c->kind == PQ_K_I64) {
		if (c->type == PQ_BOOLEAN)
			fputs(b->i64[s] ? "true" : "false", stdout);
		else
			printf("%" PRId64, b->i64[s]);
	} else {
		put_double(b->f64[s]);
	}
}

static void put_cell(const struct pq_column *c, const struct pq_batch *b,
		     size_t r)
{
	if (!c->max_rep) {
		put_value(c, b, r);
		return;
	}
	if (!b->row_valid[r]) {
		fputs("null", stdout);
		return;
	}
	putchar('[');
	for (size_t s = b->offsets[r]; s < b->offsets[r + 1]; s++) {
		if (s > b->offsets[r])
			fputs(", ", stdout);
		put_value(c, b, s);
	}
	putchar(']');
}

/* A cheap checksum of the batch's values (a string counts by its length
 * and last byte), so that nothing is optimised away while the reader,
 * not the checksum, takes the time. */
static uint64_t sum_batch(const struct pq_column *c, const struct pq_batch *b,
			  uint64_t h)
{
	for (size_t s = 0; s < b->slots; s++) {
		uint64_t v = b->valid[s];

		if (b->valid[s] && c->kind == PQ_K_I64)
			v = (uint64_t)b->i64[s];
		else if (b->valid[s] && c->kind == PQ_K_F64)
			memcpy(&v, &b->f64[s], 8);
		else if (b->valid[s] && b->bytes[s].len)
			v = b->bytes[s].len << 8 |
			    (unsigned char)b->bytes[s].ptr[b->bytes[s].len - 1];
		h = h * 31 + v;
	}
	return h;
}

static void print_schema(struct pq_file *f)
{
	printf("rows %" PRId64 ", row groups %d, columns %d\n", pq_num_rows(f),
	       pq_num_row_groups(f), pq_num_columns(f));
	for (int i = 0; i < pq_num_columns(f); i++) {
		const struct pq_column *c = pq_column(f, i);

		fputs("column ", stdout);
		put_path(c);
		printf(" %s", type_name(c->type));
		if (c->type == PQ_FIXED_LEN_BYTE_ARRAY)
			printf("(%d)", c->type_length);
		printf(" %s def %d rep %d\n", logical_name(c->logical),
		       c->max_def, c->max_rep);
	}
}

/* The columns named in -c, else every column. */
static int pick(struct pq_file *f, const char *list, int *idx, int cap)
{
	int n = 0;
	char *dup, *tok, *save = NULL;

	if (!list) {
		for (int i = 0; i < pq_num_columns(f); i++)
			idx[n++] = i;
		return n;
	}
	dup = strdup(list);
	for (tok = strtok_r(dup, ",", &save); tok && n < cap;
	     tok = strtok_r(NULL, ",", &save)) {
		if ((idx[n] = pq_find_column(f, tok)) < 0) {
			fprintf(stderr, "pqdump: no column '%s'\n", tok);
			free(dup);
			return -1;
		}
		n++;
	}
	free(dup);
	return n;
}

static void print_seen(struct pq_cursor **cur, int n)
{
	static const char *const enc[] = {
		"PLAIN", "GROUP_VAR_INT", "PLAIN_DICTIONARY", "RLE",
		"BIT_PACKED", "DELTA_BINARY_PACKED", "DELTA_LENGTH_BYTE_ARRAY",
		"DELTA_BYTE_ARRAY", "RLE_DICTIONARY", "BYTE_STREAM_SPLIT"
	};
	static const char *const codec[] = {
		"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4",
		"ZSTD", "LZ4_RAW"
	};
	static const char *const page[] = {
		"DATA_PAGE", "INDEX_PAGE", "DICTIONARY_PAGE", "DATA_PAGE_V2"
	};
	struct pq_seen all = { 0, 0, 0 }, s;

	for (int i = 0; i < n; i++) {
		pq_cursor_seen(cur[i], &s);
		all.encodings |= s.encodings;
		all.codecs |= s.codecs;
		all.pages |= s.pages;
	}
	fputs("codecs", stdout);
	for (int i = 0; i < 8; i++)
		if (all.codecs >> i & 1)
			printf(" %s", codec[i]);
	fputs("\nencodings", stdout);
	for (int i = 0; i < 10; i++)
		if (all.encodings >> i & 1)
			printf(" %s", enc[i]);
	fputs("\npages", stdout);
	for (int i = 0; i < 4; i++)
		if (all.pages >> i & 1)
			printf(" %s", page[i]);
	putchar('\n');
}

/* One batch of every cursor; they must agree on the rows. */
static int next_batches(struct pq_file *f, struct pq_cursor **cur, int n,
			size_t rows, struct pq_batch *b)
{
	int first = -2;

	for (int i = 0; i < n; i++) {
		int rc = pq_cursor_next(cur[i], rows, &b[i]);

		if (rc < 0) {
			fprintf(stderr, "pqdump: %s\n", pq_error(f));
			return -1;
		}
		if ((first != -2 && rc != first) || (i && b[i].rows != b[0].rows)) {
			fprintf(stderr, "pqdump: columns disagree on rows\n");
			return -1;
		}
		first = rc;
	}
	return first;
}

static int dump_rows(struct pq_file *f, struct pq_cursor **cur, int *idx,
		     int n, const struct opts *o)
{
	struct pq_batch *b = calloc((size_t)n + 1, sizeof(*b));
	uint64_t *h = calloc((size_t)n + 1, sizeof(*h));
	int rc;

	for (int i = 0; !o->sum && i < n; i++) {
		if (i)
			putchar('\t');
		put_path(pq_column(f, idx[i]));
	}
	if (!o->sum)
		putchar('\n');
	while ((rc = next_batches(f, cur, n, o->batch, b)) > 0) {
		for (int i = 0; o->sum && i < n; i++)
			h[i] = sum_batch(pq_column(f, idx[i]), &b[i], h[i]);
		for (size_t r = 0; !o->sum && r < b[0].rows; r++)
			for (int i = 0; i < n; i++) {
				put_cell(pq_column(f, idx[i]), &b[i], r);
				putchar(i + 1 < n ? '\t' : '\n');
			}
	}
	for (int i = 0; o->sum && !rc && i < n; i++) {
		put_path(pq_column(f, idx[i]));
		printf(" %016" PRIx64 "\n", h[i]);
	}
	free(b);
	free(h);
	return rc;
}

static int dump(const char *path, const struct opts *o)
{
	char err[1024];
	struct pq_file *f = pq_open(path, err, sizeof(err));
	struct pq_cursor **cur;
	int *idx, n, rc = -1;

	if (!f) {
		fprintf(stderr, "pqdump: %s\n", err);
		return -1;
	}
	if (o->schema)
		print_schema(f);
	idx = calloc((size_t)pq_num_columns(f) + 64, sizeof(*idx));
	cur = calloc((size_t)pq_num_columns(f) + 64, sizeof(*cur));
	n = pick(f, o->cols, idx, pq_num_columns(f) + 64);
	for (int i = 0; i < n; i++)
		if (!(cur[i] = pq_cursor_open(f, idx[i])))
			n = -1;
	if (n >= 0)
		rc = dump_rows(f, cur, idx, n, o);
	if (!rc && o->meta)
		print_seen(cur, n);
	for (int i = 0; i < pq_num_columns(f) + 64; i++)
		pq_cursor_close(cur[i]);
	free(cur);
	free(idx);
	pq_close(f);
	return rc;
}

int main(int argc, char **argv)
{
	struct opts o = { 0, 0, 0, 1000, NULL };
	int ch;

	while ((ch = getopt(argc, argv, "smnb:c:")) != -1) {
		switch (ch) {
		case 's': o.schema = 1; break;
		case 'm': o.meta = 1; break;
		case 'n': o.sum = 1; break;
		case 'b': o.batch = (size_t)strtoul(optarg, NULL, 10); break;
		case 'c': o.cols = optarg; break;
		default: goto usage;
		}
	}
	if (optind + 1 != argc)
		goto usage;
	return dump(argv[optind], &o) ? 1 : 0;
usage:
	fprintf(stderr, "usage: pqdump [-s] [-m] [-n] [-b ROWS] [-c COL,...] FILE\n");
	return 2;
}
