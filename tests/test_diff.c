/* model/diff.c on small traces written here: the slowdown test at its
 * threshold and from an empty profile, percentages without a base,
 * rows only one side has, sorting by a column (and an unknown one), and
 * a device profile against a system profile. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/diff.h"
#include "model/model.h"
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
	assert_int_equal(diff_delta(row(&d, "Event time"), 0), 100000);
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
	assert_int_equal(diff_delta(r, 0), r->v[1][0]);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slower_threshold),
		cmocka_unit_test(test_from_empty),
		cmocka_unit_test(test_rows_and_sort),
		cmocka_unit_test(test_mixed_kinds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
