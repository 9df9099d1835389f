/* The summary computed from events agrees with the profile's own summary
 * section on a fixture: per-engine instruction counts and active times,
 * total time, DMA bytes by queue type and transfer counts. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/summary.h"
#include "model/util.h"
#include "testutil.h"

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
			fail_msg("%s: events %s, profile %s", s.checks[i].what,
				 s.checks[i].ours, s.checks[i].theirs);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_agrees_with_profile),
		cmocka_unit_test(test_disagreement_flagged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
