/* The summary computed from events agrees with the profile's own summary
 * section on a fixture: per-engine instruction counts and active times,
 * total time, DMA bytes by queue type and transfer counts. Times agree
 * within 10 ns or 0.1%, at the edges of both. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/summary.h"
#include "model/util.h"
#include "tests/testutil.h"

static void test_agrees_with_profile(void **state)
{
	char *path = tu_fixture("device_small.json");
	char *cache = tu_import(path);
	struct model *m;
	struct summary s;

	(void)state;
	assert_non_null(cache);
	m = model_open(cache);
	assert_non_null(m);
	assert_int_equal(summary_compute(m, 1, &s), 0);
	assert_int_equal(s.eng[ENG_TENSOR].count, 2);
	assert_int_equal(s.eng[ENG_VECTOR].count, 2);
	assert_int_equal(s.eng[ENG_SCALAR].count, 2);
	assert_int_equal(s.eng[ENG_GPSIMD].count, 1);
	assert_int_equal(s.eng[ENG_SYNC].count, 1);
	assert_int_equal(s.eng[ENG_TENSOR].active_ns, 207);
	assert_int_equal(s.end - s.start, 1869395);
	assert_int_equal(s.n_packets, 2);
	assert_int_equal(s.n_transfers, 1);
	/* every figure the profile reports was compared, and agrees */
	assert_true(s.nchecks >= 13);
	for (size_t i = 0; i < s.nchecks; i++)
		if (!s.checks[i].agree)
			fail_msg("%s: events %" PRId64 ", profile %.0f",
				 s.checks[i].what, s.checks[i].ours,
				 s.checks[i].theirs);
	assert_int_equal(s.nlayers, 2);
	assert_string_equal(s.layers[1].name, "/sg00/_dot.3");
	assert_int_equal(s.nwarnings, 1);
	summary_free(&s);
	model_close(m);
	free(cache);
	free(path);
}

/* A profile whose summary disagrees with its events is flagged. */
static void test_disagreement_flagged(void **state)
{
	static const char doc[] =
		"{\"summary\":[{\"vector_engine_instruction_count\":5,"
		"\"total_time\":0.000001}],\"instruction\":[{\"timestamp\":0,"
		"\"duration\":1000,\"label\":\"Vector\",\"subgroup\":\"Vector\","
		"\"opcode\":\"COPY\"}]}";
	char *cache = tu_import(tu_write("dis.json", doc, strlen(doc)));
	struct model *m = model_open(cache);
	struct summary s;
	int found = 0;

	(void)state;
	assert_int_equal(summary_compute(m, 1, &s), 0);
	for (size_t i = 0; i < s.nchecks; i++) {
		if (!strcmp(s.checks[i].what, "Vector instructions")) {
			assert_false(s.checks[i].agree);
			found++;
		}
		if (!strcmp(s.checks[i].what, "Total time")) {
			assert_true(s.checks[i].agree);
			found++;
		}
	}
	assert_int_equal(found, 2);
	summary_free(&s);
	model_close(m);
	free(cache);
}

static const struct sum_check *find_check(const struct summary *s,
					  const char *what)
{
	for (size_t i = 0; i < s->nchecks; i++)
		if (!strcmp(s->checks[i].what, what))
			return &s->checks[i];
	fail_msg("no check '%s'", what);
	return NULL;
}

/* Active times: the events' figure is the sum of the active_time
 * records' end - start (worked out by hand next to each record), the
 * profile's its own float seconds. A few ns apart is no disagreement;
 * 11 ns on a short time, or more than 0.1% of a long one, is. */
static void test_time_tolerance(void **state)
{
	static const char doc[] =
		"{\"summary\":[{"
		"\"tensor_engine_active_time\":5.16e-07,"
		"\"vector_engine_active_time\":5.2e-07,"
		"\"scalar_engine_active_time\":5.2e-07,"
		"\"gpsimd_engine_active_time\":0.001,"
		"\"sync_engine_active_time\":0.001,"
		"\"static_dma_size\":0}],"
		"\"active_time\":["
		/* tensor: 300 + 218 = 518 ns, 2 ns over 516 */
		"{\"start_ts\":0,\"end_ts\":300,\"engine\":\"tensor\"},"
		"{\"start_ts\":400,\"end_ts\":618,\"engine\":\"tensor\"},"
		/* vector: 530 ns, 10 ns over 520: the edge, agrees */
		"{\"start_ts\":0,\"end_ts\":530,\"engine\":\"vector\"},"
		/* scalar: 531 ns, 11 ns over 520 (2.1%): differs */
		"{\"start_ts\":0,\"end_ts\":531,\"engine\":\"scalar\"},"
		/* gpsimd: 1001000 ns, 1000 ns = 0.1% over 1 ms: agrees */
		"{\"start_ts\":0,\"end_ts\":1001000,\"engine\":\"gpsimd\"},"
		/* sync: 1001001 ns, 1001 ns over 1 ms: differs */
		"{\"start_ts\":0,\"end_ts\":1001001,\"engine\":\"sync\"}],"
		"\"dma\":[{\"timestamp\":0,\"duration\":1,\"transfer_size\":1,"
		"\"queue_type\":\"data\",\"subgroup\":\"q0\"}]}";
	static const struct {
		const char *what;
		int64_t ours;
		double theirs;
		int agree;
	} want[] = {
		{ "Tensor active time", 518, 516, 1 },
		{ "Vector active time", 530, 520, 1 },
		{ "Scalar active time", 531, 520, 0 },
		{ "GpSimd active time", 1001000, 1000000, 1 },
		{ "Sync active time", 1001001, 1000000, 0 },
		/* counts and bytes agree exactly: 1 byte is not 0 */
		{ "Static DMA bytes", 1, 0, 0 },
	};
	char *cache = tu_import(tu_write("tol.json", doc, strlen(doc)));
	struct model *m = model_open(cache);
	struct summary s;

	(void)state;
	assert_non_null(m);
	assert_int_equal(summary_compute(m, 1, &s), 0);
	for (size_t i = 0; i < NX_ARRAY_SIZE(want); i++) {
		const struct sum_check *c = find_check(&s, want[i].what);

		assert_true(c->ours == want[i].ours);
		assert_true(c->theirs == want[i].theirs);
		if (c->agree != want[i].agree)
			fail_msg("%s: events %" PRId64 ", profile %.0f: agree %d",
				 c->what, c->ours, c->theirs, c->agree);
	}
	assert_int_equal(find_check(&s, "Tensor active time")->tol_abs,
			 SUM_TOL_NS);
	assert_int_equal(find_check(&s, "Static DMA bytes")->tol_abs, 0);
	summary_free(&s);
	model_close(m);
	free(cache);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_agrees_with_profile),
		cmocka_unit_test(test_disagreement_flagged),
		cmocka_unit_test(test_time_tolerance),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
