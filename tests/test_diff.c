/* model/diff.c on small traces written here: the slowdown test at its
 * threshold and from an empty profile, percentages without a base,
 * rows only one side has, sorting by a column (and an unknown one), a
 * device profile against a system profile, and deltas at the int64
 * limits and of a profile's own numbers past them. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/diff.h"
#include "model/model.h"
#include "model/report/report.h"
#include "model/util.h"
#include "tests/testutil.h"

/* A trace of one thread: events "name ts dur" in µs. */
static struct model *trace(const char *file, const char *const *ev, int n)
{
	struct strbuf sb;
	struct model *m;
	char *cache;

	sb_init(&sb);
	sb_adds(&sb, "{\"traceEvents\": [");
	for (int i = 0; i < n; i++) {
		char name[32];
		int ts, dur;

		assert_int_equal(sscanf(ev[i], "%31s %d %d", name, &ts, &dur), 3);
		sb_printf(&sb, "%s{\"name\": \"%s\", \"ph\": \"X\", \"ts\": %d,"
			  " \"dur\": %d, \"pid\": 1, \"tid\": 1}", i ? "," : "",
			  name, ts, dur);
	}
	sb_adds(&sb, "]}");
	cache = tu_import(tu_write(file, sb_cstr(&sb), strlen(sb_cstr(&sb))));
	assert_non_null(cache);
	m = model_open(cache);
	assert_non_null(m);
	free(cache);
	sb_free(&sb);
	return m;
}

static const struct diff_row *row(const struct diff *d, const char *name)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->rows[i].name, name))
			return &d->rows[i];
	fail_msg("no row %s", name);
	return NULL;
}

/* B-A of column c, which int64 holds. */
static int64_t delta_i64(const struct diff_row *r, int c)
{
	struct diff_int x;
	int64_t v = 0;

	assert_int_equal(diff_cell_int(r, c, 2, &x), 0);
	assert_int_equal(diff_int_i64(x, &v), 0);
	return v;
}

/* B spans 1.1 ms, A 1 ms: slower by exactly 10%. */
static void test_slower_threshold(void **state)
{
	static const char *const a[] = { "k 0 400", "k 500 500" };
	static const char *const b[] = { "k 0 400", "k 500 600" };
	struct model *ma = trace("a.json", a, 2), *mb = trace("b.json", b, 2);
	struct diff d;
	double pct;

	(void)state;
	assert_int_equal(diff_compute(ma, mb, DW_OVERALL, &d), 0);
	assert_int_equal(d.total[0], 1000000);
	assert_int_equal(d.total[1], 1100000);
	assert_int_equal(diff_total_pct(&d, &pct), 0);
	assert_true(pct > 9.999999 && pct < 10.000001);
	assert_int_equal(diff_slower(&d, 10), 0);
	assert_int_equal(diff_slower(&d, 9.99), 1);
	assert_int_equal(diff_slower(&d, 0), 1);
	/* the event time grew by 100 µs of 900 */
	assert_int_equal(delta_i64(row(&d, "Event time"), 0), 100000);
	diff_free(&d);
	/* the other way round it is faster: never slower */
	assert_int_equal(diff_compute(mb, ma, DW_OVERALL, &d), 0);
	assert_int_equal(diff_slower(&d, 0), 0);
	diff_free(&d);
	model_close(ma);
	model_close(mb);
}

/* From an empty profile: no percentage, and any growth is slower. */
static void test_from_empty(void **state)
{
	static const char *const b[] = { "k 0 10" };
	struct model *ma = trace("empty.json", NULL, 0);
	struct model *mb = trace("one.json", b, 1);
	struct diff d;
	double pct;

	(void)state;
	assert_int_equal(diff_compute(ma, mb, DW_OVERALL, &d), 0);
	assert_int_equal(d.total[0], 0);
	assert_int_equal(diff_total_pct(&d, &pct), -1);
	assert_int_equal(diff_slower(&d, 1e9), 1);
	assert_int_equal(diff_pct(&d, row(&d, "Events"), 0, &pct), -1);
	diff_free(&d);
	model_close(ma);
	model_close(mb);
}

/* Names on one side; --sort by a column, by name, and an unknown one. */
static void test_rows_and_sort(void **state)
{
	struct model *ma, *mb;
	char *fa = tu_fixture("device_small.json");
	char *fb = tu_fixture("device_screen.json");
	char *ca = tu_import(fa), *cb = tu_import(fb);
	const struct diff_row *r;
	struct diff d;
	double pct;

	(void)state;
	ma = model_open(ca);
	mb = model_open(cb);
	assert_non_null(ma);
	assert_non_null(mb);
	assert_int_equal(diff_compute(ma, mb, DW_OPCODES, &d), 0);
	r = row(&d, "IOTA");
	assert_string_equal(diff_status(r), "added");
	assert_string_equal(r->group, "GpSimd");
	assert_int_equal(delta_i64(r, 0), r->v[1][0]);
	assert_int_equal(diff_pct(&d, r, 1, &pct), -1);
	assert_string_equal(diff_status(row(&d, "MATMUL")), "both");
	/* by B's count, largest first; rows without B would come last */
	assert_int_equal(diff_sort(&d, "-count_b"), 0);
	for (size_t i = 1; i < d.n; i++)
		assert_true(d.rows[i - 1].v[1][0] >= d.rows[i].v[1][0]);
	assert_int_equal(diff_sort(&d, "opcode"), 0);
	for (size_t i = 1; i < d.n; i++)
		assert_true(strcmp(d.rows[i - 1].name, d.rows[i].name) <= 0);
	assert_int_equal(diff_sort(&d, "count_pct"), -1);
	assert_non_null(strstr(err_get(), "unknown column 'count_pct'"));
	diff_free(&d);
	/* A lacks a layer B has: removed the other way round */
	assert_int_equal(diff_compute(mb, ma, DW_LAYERS, &d), 0);
	assert_string_equal(diff_status(row(&d, "/sg00/_dot.3")), "added");
	diff_free(&d);
	model_close(ma);
	model_close(mb);
	free(ca);
	free(cb);
	free(fa);
	free(fb);
}

static void test_mixed_kinds(void **state)
{
	char *fa = tu_fixture("device_small.json");
	char *fb = tu_fixture("system_small.json");
	char *ca = tu_import(fa), *cb = tu_import(fb);
	struct model *ma = model_open(ca), *mb = model_open(cb);
	struct diff d;

	(void)state;
	assert_int_equal(diff_compute(ma, mb, DW_OVERALL, &d), -1);
	assert_non_null(strstr(err_get(), "both must be system profiles"));
	assert_int_equal(diff_compute(mb, mb, DW_LAYERS, &d), -1);
	assert_non_null(strstr(err_get(), "layers compares device profiles"));
	assert_int_equal(diff_compute(ma, ma, DW_EXECUTIONS, &d), -1);
	assert_int_equal(diff_compute(mb, mb, DW_EXECUTIONS, &d), 0);
	assert_true(d.n > 0);
	for (size_t i = 0; i < d.n; i++)
		assert_string_equal(diff_status(&d.rows[i]), "both");
	diff_free(&d);
	model_close(ma);
	model_close(mb);
	free(ca);
	free(cb);
	free(fa);
	free(fb);
}

/* B-A of two figures A and B, in digits; "past" when only the real
 * delta gives it. */
static const char *delta_text(int64_t a, int64_t b, char *buf, size_t n)
{
	struct diff_row r = { .has = { 1, 1 }, .v = { { a }, { b } } };
	struct diff_int x;

	if (diff_cell_int(&r, 0, 2, &x))
		return "past";
	return diff_int_text(buf, n, x, 1);
}

/* Every B-A of two int64 figures is exact, 2^64 - 1 at most either way
 * (worked out by hand: INT64_MAX - INT64_MIN = 2^63 - 1 + 2^63), and
 * int64 holds it or says it cannot. */
static void test_int64_limits(void **state)
{
	struct diff_row r = { .has = { 1, 1 },
			      .v = { { INT64_MIN }, { INT64_MAX } } };
	struct diff d = { .what = DW_ENGINES,
			  .lay = diff_layout_of(DW_ENGINES) };
	struct diff_int x;
	char b[32];
	int64_t v;
	double pct;

	(void)state;
	assert_string_equal(delta_text(INT64_MIN, INT64_MAX, b, sizeof(b)),
			    "+18446744073709551615");
	assert_string_equal(delta_text(INT64_MAX, INT64_MIN, b, sizeof(b)),
			    "-18446744073709551615");
	assert_string_equal(delta_text(-1, INT64_MAX, b, sizeof(b)),
			    "+9223372036854775808");
	assert_string_equal(delta_text(1, INT64_MIN, b, sizeof(b)),
			    "-9223372036854775809");
	assert_string_equal(delta_text(0, INT64_MIN, b, sizeof(b)),
			    "-9223372036854775808");
	assert_string_equal(delta_text(INT64_MIN, INT64_MIN, b, sizeof(b)),
			    "0");
	assert_string_equal(delta_text(INT64_MAX, INT64_MAX - 1, b, sizeof(b)),
			    "-1");
	/* int64 holds -2^63, not 2^63 */
	assert_int_equal(diff_int_i64((struct diff_int){ 1, 1ULL << 63 }, &v),
			 0);
	assert_true(v == INT64_MIN);
	assert_int_equal(diff_int_i64((struct diff_int){ 0, 1ULL << 63 }, &v),
			 -1);
	assert_int_equal(diff_cell_int(&r, 0, 2, &x), 0);
	assert_int_equal(diff_int_i64(x, &v), -1);
	/* (2^64 - 1) / -2^63: -200% but for 1.1e-17 */
	assert_int_equal(diff_pct(&d, &r, 0, &pct), 0);
	assert_true(pct == -200.0);
}

/* A copy of device_small.json whose summary starts with the figures
 * keys ("\"k\": 1, "), imported and opened. */
static struct model *with_summary(const char *file, const char *keys)
{
	char *fx = tu_fixture("device_small.json");
	char *text = tu_read_file(fx), *at, *cache;
	const char *tag = "\"summary\":[{";
	struct strbuf sb;
	struct model *m;

	assert_non_null(text);
	at = strstr(text, tag);
	assert_non_null(at);
	at += strlen(tag);
	sb_init(&sb);
	sb_printf(&sb, "%.*s%s%s", (int)(at - text), text, keys, at);
	cache = tu_import(tu_write(file, sb_cstr(&sb), sb.len));
	assert_non_null(cache);
	m = model_open(cache);
	assert_non_null(m);
	free(cache);
	sb_free(&sb);
	free(text);
	free(fx);
	return m;
}

/* The overall table in CSV (lines end in CRLF), whole. */
static char *overall_csv(struct model *a, struct model *b)
{
	struct diff d;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(diff_compute(a, b, DW_OVERALL, &d), 0);
	report_diff(&d, OUT_CSV, f);
	diff_free(&d);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void expect_line(const char *csv, const char *line)
{
	char *want = xasprintf("\n%s\r\n", line);

	if (!strstr(csv, want))
		fail_msg("no line '%s' in:\n%s", line, csv);
	free(want);
}

/* The profile's own numbers at the int64 limits and past them (its
 * summary keeps those digits as text): each compared, the delta exact
 * where 2^64 - 1 holds it (worked out by hand), else real. */
static void test_reported_limits(void **state)
{
	struct model *a = with_summary("lim_a.json",
		"\"lim\": -9223372036854775808, "
		"\"lim_r\": 9223372036854775807, "
		"\"u64\": 18446744073709551615, "
		"\"mix\": 9223372036854775807, "
		"\"neg\": -18446744073709551615, "
		"\"wrap\": 18446744073709551615, "
		"\"zero\": 0, "
		"\"huge\": 18446744073709551616, ");
	struct model *b = with_summary("lim_b.json",
		"\"lim\": 9223372036854775807, "
		"\"lim_r\": -9223372036854775808, "
		"\"u64\": 18446744073709551614, "
		"\"mix\": 9223372036854775808, "
		"\"neg\": -1, "
		"\"wrap\": -1, "
		"\"zero\": -9223372036854775808, "
		"\"huge\": -36893488147419103232, ");
	char *csv = overall_csv(a, b);

	(void)state;
	/* 2^63 - 1 + 2^63 = 2^64 - 1; of -2^63, -200% but for 1.1e-17 */
	expect_line(csv, "profile: lim,,-9223372036854775808,"
		    "9223372036854775807,18446744073709551615,-200,both");
	expect_line(csv, "profile: lim_r,,9223372036854775807,"
		    "-9223372036854775808,-18446744073709551615,-200,both");
	/* 1 of 2^64 - 1: 5.42e-18 % */
	expect_line(csv, "profile: u64,,18446744073709551615,"
		    "18446744073709551614,-1,-5.4210108624275222e-18,both");
	expect_line(csv, "profile: mix,,9223372036854775807,"
		    "9223372036854775808,1,1.0842021724855044e-17,both");
	/* -1 - -(2^64 - 1) = 2^64 - 2; of -(2^64 - 1), -100% but for
	 * 5.4e-18 */
	expect_line(csv, "profile: neg,,-18446744073709551615,-1,"
		    "18446744073709551614,-100,both");
	/* -1 - (2^64 - 1) = -2^64: past 64 bits, the real delta */
	expect_line(csv, "profile: wrap,,18446744073709551615,-1,"
		    "-1.8446744073709552e+19,-100,both");
	/* past 2^64 - 1, as reals: 2^64 and -2^65, B-A -3 * 2^64, -300% */
	expect_line(csv, "profile: huge,,1.8446744073709552e+19,"
		    "-3.6893488147419103e+19,-5.5340232221128655e+19,-300,"
		    "both");
	/* no percentage of 0 */
	expect_line(csv, "profile: zero,,0,-9223372036854775808,"
		    "-9223372036854775808,,both");
	free(csv);
	model_close(a);
	model_close(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slower_threshold),
		cmocka_unit_test(test_from_empty),
		cmocka_unit_test(test_rows_and_sort),
		cmocka_unit_test(test_mixed_kinds),
		cmocka_unit_test(test_int64_limits),
		cmocka_unit_test(test_reported_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
