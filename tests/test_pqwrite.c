/* The Parquet writer (src/parquet/writer.c): tables of every supported
 * type with nulls (lists of strings: null, empty, with null elements), over several row groups, uncompressed and ZSTD, read
 * back through nxtop's reader and compared with the rows the test made.
 * With --write DIR it writes the same files and, beside each, the text
 * pqdump prints for those rows (NAME.expected), for tests/pqwrite.sh to
 * compare with what DuckDB reads. */
#include "config.h"

#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "model/util.h"
#include "src/parquet/parquet.h"
#include "src/parquet/pqwrite.h"
#include "tests/testutil.h"

#define ROWS 1000
#define GROUP 97

enum { C_B, C_I32, C_I64, C_D, C_S, C_L, C_N };

static const struct pqw_field fields[C_N] = {
	{ "b", PQW_BOOLEAN, 0 },
	{ "i32", PQW_INT32, 1 },
	{ "i64", PQW_INT64, 0 },
	{ "d", PQW_DOUBLE, 1 },
	{ "s", PQW_STRING, 1 },
	{ "l", PQW_STRING_LIST, 0 },
};

/* Row i of the table: each column has its own pattern of nulls. */
struct row {
	int b;
	int has_i32, has_d;
	int32_t i32;
	int64_t i64;
	double d;
	const char *s;		/* NULL: null */
	char sbuf[32];
	int nl;			/* list length, -1: null */
	const char *l[3];	/* NULL: a null element */
	char lbuf[3][32];
};

static void make_row(struct row *r, int i)
{
	r->b = i % 3 == 0;
	r->has_i32 = i % 7 != 0;
	r->i32 = i % 2 ? -31 * i : INT32_MAX - i;
	r->i64 = (int64_t)((uint64_t)i * 0x9e3779b97f4a7c15ULL);
	if (i == 1)
		r->i64 = INT64_MIN;
	r->has_d = i % 5 != 0;
	r->d = i * 0.25 - 3.1;
	if (i % 11 == 0)
		r->s = NULL;
	else if (i % 13 == 0)
		r->s = "";
	else {
		snprintf(r->sbuf, sizeof(r->sbuf), "r\xc3\xa9g-%d", i);
		r->s = r->sbuf;
	}
	r->nl = i % 6 == 0 ? -1 : i % 6 == 1 ? 0 : i % 4;
	for (int j = 0; j < r->nl; j++) {
		snprintf(r->lbuf[j], sizeof(r->lbuf[j]), "e%d.%d", i, j);
		r->l[j] = j == 1 && i % 5 == 0 ? NULL : r->lbuf[j];
	}
}

static int write_table(const char *path, enum pqw_codec codec, int rows)
{
	struct pqw *w = pqw_open(path, fields, C_N, codec, GROUP);
	struct row r;

	if (!w)
		return -1;
	for (int i = 0; i < rows; i++) {
		make_row(&r, i);
		/* columns in another order than the schema's */
		pqw_str(w, C_S, r.s);
		pqw_i64(w, C_I64, r.i64);
		pqw_bool(w, C_B, r.b);
		if (r.has_i32)
			pqw_i32(w, C_I32, r.i32);
		if (r.has_d)
			pqw_double(w, C_D, r.d);
		else
			pqw_null(w, C_D);
		pqw_strs(w, C_L, r.nl < 0 ? NULL : r.l,
			 r.nl < 0 ? 0 : (size_t)r.nl);
		if (pqw_row(w)) {
			pqw_abort(w);
			return -1;
		}
	}
	return pqw_close(w);
}

/* Row j of a list column's batch. */
static void check_list(const struct pq_batch *b, size_t j, const struct row *r)
{
	size_t first = b->offsets[j];

	assert_int_equal(b->row_valid[j], r->nl >= 0);
	if (r->nl < 0)
		return;
	assert_int_equal(b->offsets[j + 1] - first, r->nl);
	for (int k = 0; k < r->nl; k++) {
		assert_int_equal(b->valid[first + k], r->l[k] != NULL);
		if (!r->l[k])
			continue;
		assert_int_equal(b->bytes[first + k].len, strlen(r->l[k]));
		assert_memory_equal(b->bytes[first + k].ptr, r->l[k],
				    strlen(r->l[k]));
	}
}

/* Compares row j of batch b with the row the test made. */
static void check_value(int col, const struct pq_batch *b, size_t j,
			const struct row *r)
{
	switch (col) {
	case C_B:
		assert_int_equal(b->valid[j], 1);
		assert_int_equal(b->i64[j], r->b);
		break;
	case C_I32:
		assert_int_equal(b->valid[j], r->has_i32);
		if (r->has_i32)
			assert_int_equal(b->i64[j], r->i32);
		break;
	case C_I64:
		assert_int_equal(b->valid[j], 1);
		assert_true(b->i64[j] == r->i64);
		break;
	case C_D:
		assert_int_equal(b->valid[j], r->has_d);
		if (r->has_d)
			assert_memory_equal(&b->f64[j], &r->d, sizeof(double));
		break;
	case C_S:
		assert_int_equal(b->valid[j], r->s != NULL);
		if (r->s) {
			assert_int_equal(b->bytes[j].len, strlen(r->s));
			assert_memory_equal(b->bytes[j].ptr, r->s, strlen(r->s));
		}
		break;
	default:
		check_list(b, j, r);
	}
}

static void check_column(struct pq_file *f, int col, int rows, unsigned codec)
{
	struct pq_cursor *c = pq_cursor_open(f, pq_find_column(f, fields[col].name));
	struct pq_batch b;
	struct pq_seen seen;
	struct row r;
	int i = 0, rc;

	assert_non_null(c);
	while ((rc = pq_cursor_next(c, 64, &b)) == 1) {
		for (size_t j = 0; j < b.rows; j++, i++) {
			make_row(&r, i);
			check_value(col, &b, j, &r);
		}
	}
	assert_int_equal(rc, 0);
	assert_int_equal(i, rows);
	pq_cursor_seen(c, &seen);
	if (rows)
		assert_int_equal(seen.codecs, 1u << codec);
	pq_cursor_close(c);
}

static void roundtrip(enum pqw_codec codec, int rows)
{
	char path[4096], err[256];
	struct pq_file *f;

	snprintf(path, sizeof(path), "%s/t%d-%d.parquet", tu_dir(), codec, rows);
	assert_int_equal(write_table(path, codec, rows), 0);
	f = pq_open(path, err, sizeof(err));
	if (!f)
		fail_msg("%s", err);
	assert_int_equal(pq_num_rows(f), rows);
	assert_int_equal(pq_num_row_groups(f), (rows + GROUP - 1) / GROUP);
	assert_string_equal(pq_created_by(f), "nxtop " PACKAGE_VERSION);
	assert_int_equal(pq_num_columns(f), C_N);
	for (int col = 0; col < C_N; col++) {
		const struct pq_column *pc = pq_column(f, col);

		assert_string_equal(pc->name, fields[col].name);
		assert_int_equal(pc->max_def, col == C_L ? 3 : fields[col].optional);
		assert_int_equal(pc->max_rep, col == C_L);
		check_column(f, col, rows, codec);
	}
	assert_int_equal(pq_column(f, C_S)->logical, PQ_L_STRING);
	assert_string_equal(pq_column(f, C_L)->path, "l.list.element");
	assert_int_equal(pq_column(f, C_L)->logical, PQ_L_STRING);
	pq_close(f);
}

static void test_uncompressed(void **state)
{
	(void)state;
	roundtrip(PQW_UNCOMPRESSED, ROWS);
}

static void test_zstd(void **state)
{
	(void)state;
	roundtrip(PQW_ZSTD, ROWS);
}

/* A whole number of row groups, one row, and no rows at all. */
static void test_edges(void **state)
{
	(void)state;
	roundtrip(PQW_ZSTD, GROUP * 2);
	roundtrip(PQW_UNCOMPRESSED, 1);
	roundtrip(PQW_UNCOMPRESSED, 0);
}

/* A required column left without a value fails the row; nothing is
 * left at the path. */
static void test_missing_value(void **state)
{
	char path[4096];
	struct pqw *w;

	(void)state;
	snprintf(path, sizeof(path), "%s/missing.parquet", tu_dir());
	w = pqw_open(path, fields, C_N, PQW_UNCOMPRESSED, GROUP);
	assert_non_null(w);
	pqw_bool(w, C_B, 1);
	assert_int_equal(pqw_row(w), -1);
	assert_non_null(strstr(err_get(), "column i64: no value in row 0"));
	pqw_abort(w);
	assert_int_equal(access(path, F_OK), -1);
}

/* A column given two values in one row fails the row too. */
static void test_two_values(void **state)
{
	char path[4096];
	struct pqw *w;

	(void)state;
	snprintf(path, sizeof(path), "%s/twice.parquet", tu_dir());
	w = pqw_open(path, fields, C_N, PQW_UNCOMPRESSED, GROUP);
	assert_non_null(w);
	pqw_bool(w, C_B, 1);
	pqw_i64(w, C_I64, 1);
	pqw_null(w, C_S);
	pqw_str(w, C_S, "x");
	assert_int_equal(pqw_row(w), -1);
	assert_non_null(strstr(err_get(), "column s: two values in row 0"));
	pqw_abort(w);
	assert_int_equal(access(path, F_OK), -1);
	assert_null(pqw_open(path, fields, 0, PQW_ZSTD, GROUP));
	assert_non_null(strstr(err_get(), "a table needs a column"));
}

static void test_unwritable(void **state)
{
	(void)state;
	assert_null(pqw_open("/nonexistent/dir/t.parquet", fields, C_N,
			     PQW_ZSTD, GROUP));
	assert_non_null(strstr(err_get(), "/nonexistent/dir"));
}

/* pqdump's form of a double: the fewest %e digits that read back. */
static void put_double(FILE *f, double d)
{
	char buf[64];

	for (int p = 0; p < 17; p++) {
		snprintf(buf, sizeof(buf), "%.*e", p, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	fputs(buf, f);
}

static void put_bytes(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p > 0x7e || *p == '"' || *p == '\\')
			fprintf(f, "\\x%02x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void put_row(FILE *f, const struct row *r)
{
	fprintf(f, "%s\t", r->b ? "true" : "false");
	if (r->has_i32)
		fprintf(f, "%" PRId32 "\t", r->i32);
	else
		fputs("null\t", f);
	fprintf(f, "%" PRId64 "\t", r->i64);
	if (r->has_d)
		put_double(f, r->d);
	else
		fputs("null", f);
	fputc('\t', f);
	if (r->s)
		put_bytes(f, r->s);
	else
		fputs("null", f);
	fputc('\t', f);
	if (r->nl < 0)
		fputs("null", f);
	else
		fputc('[', f);
	for (int k = 0; k < r->nl; k++) {
		if (k)
			fputs(", ", f);
		if (r->l[k])
			put_bytes(f, r->l[k]);
		else
			fputs("null", f);
	}
	if (r->nl >= 0)
		fputc(']', f);
	fputc('\n', f);
}

static int write_expected(const char *dir, const char *name,
			  enum pqw_codec codec)
{
	char *path = xasprintf("%s/%s.parquet", dir, name);
	char *exp = xasprintf("%s/%s.expected", dir, name);
	FILE *f;
	struct row r;
	int rc = write_table(path, codec, ROWS);

	if (!rc && (f = fopen(exp, "w"))) {
		fputs("b\ti32\ti64\td\ts\tl.list.element\n", f);
		for (int i = 0; i < ROWS; i++) {
			make_row(&r, i);
			put_row(f, &r);
		}
		rc = fclose(f);
	}
	free(path);
	free(exp);
	return rc;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uncompressed),
		cmocka_unit_test(test_zstd),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_missing_value),
		cmocka_unit_test(test_two_values),
		cmocka_unit_test(test_unwritable),
	};

	if (argc == 3 && !strcmp(argv[1], "--write"))
		return write_expected(argv[2], "plain", PQW_UNCOMPRESSED) ||
		       write_expected(argv[2], "zstd", PQW_ZSTD);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
