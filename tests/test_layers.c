/* Layer table and info panels: grouping layer names by depth (the
 * profile's own group rows win over merged children), sorting, filtering,
 * matching instructions to a layer row; the Summary panel grouped and
 * ordered by summary_groups / summary_group_order with percentages. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/info.h"
#include "model/layers.h"
#include "model/model.h"
#include "model/util.h"
#include "testutil.h"

static const char doc[] =
	"{\"instruction\":[{\"timestamp\":0,\"duration\":1,\"label\":\"Sync\","
	"\"opcode\":\"NOP\"}],"
	"\"layer_summary\":["
	"{\"name\":\"/sg00\",\"start\":0,\"end\":1000,\"duration\":1000,"
	"\"tensor_engine_instruction_count\":9},"
	"{\"name\":\"m/l1/op1\",\"start\":0,\"end\":100,\"duration\":100,"
	"\"tensor_engine_instruction_count\":2,\"tensor_engine_mfu\":0.5,"
	"\"tensor_engine_flop_count\":10},"
	"{\"name\":\"m/l1/op2\",\"start\":100,\"end\":400,\"duration\":300,"
	"\"tensor_engine_instruction_count\":3,\"tensor_engine_mfu\":0.1,"
	"\"tensor_engine_flop_count\":20},"
	"{\"name\":\"m/l2\",\"start\":400,\"end\":900,\"duration\":500,"
	"\"vector_engine_instruction_count\":7},"
	"{\"name\":\"m/l2/op1\",\"start\":400,\"end\":500,\"duration\":100,"
	"\"vector_engine_instruction_count\":1}],"
	"\"summary\":[{\"total_time\":0.001,\"tensor_engine_active_time_percent\":0.25,"
	"\"instance_type\":\"trn1.2xlarge\",\"dma_queue_count\":4}],"
	"\"summary_groups\":[{\"total_time\":\"overall_stats\","
	"\"instance_type\":\"overall_stats\",\"tensor_engine_active_time_percent\":"
	"\"tensor_engine\",\"dma_queue_count\":\"data_movement\"}],"
	"\"summary_group_order\":[{\"overall_stats\":0,\"data_movement\":1,"
	"\"tensor_engine\":4}],"
	"\"terminology\":[{\"total_time\":\"Total duration, in seconds\"}]}";

static char *cache;

static int setup(void **state)
{
	(void)state;
	cache = tu_import(tu_write("layers.json", doc, strlen(doc)));
	return cache ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(cache);
	return 0;
}

static const struct layer_row *row(const struct layer_table *t, const char *n)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->rows[i].name, n))
			return &t->rows[i];
	fail_msg("no row %s", n);
	return NULL;
}

static void test_grouping(void **state)
{
	struct model *m = model_open(cache);
	struct layer_table t;
	const struct layer_row *r;

	(void)state;
	assert_int_equal(layers_load(m, 1, 0, NULL, &t), 0);
	assert_int_equal(t.n, 5);
	assert_int_equal(t.max_depth, 3);
	layers_free(&t);
	assert_int_equal(layers_load(m, 1, 2, NULL, &t), 0);
	assert_int_equal(t.n, 3);
	/* m/l1 had no row of its own: op1 and op2 merged */
	r = row(&t, "m/l1");
	assert_int_equal(r->merged, 2);
	assert_int_equal(r->count[ENG_TENSOR], 5);
	assert_int_equal(r->dur, 400);
	assert_int_equal(r->flops, 30);
	/* duration-weighted MFU: (0.5*100 + 0.1*300) / 400 */
	assert_true(r->mfu > 0.1999 && r->mfu < 0.2001);
	/* m/l2 had its own row: it wins, m/l2/op1 is inside it */
	r = row(&t, "m/l2");
	assert_int_equal(r->merged, 0);
	assert_int_equal(r->count[ENG_VECTOR], 7);
	layers_sort(&t, LC_DUR, 1);
	assert_string_equal(t.rows[0].name, "/sg00");
	assert_string_equal(t.rows[2].name, "m/l1");
	layers_sort(&t, LC_NAME, 0);
	assert_string_equal(t.rows[0].name, "/sg00");
	assert_string_equal(t.rows[1].name, "m/l1");
	layers_free(&t);
	assert_int_equal(layers_load(m, 1, 0, "OP1", &t), 0);
	assert_int_equal(t.n, 2);
	layers_free(&t);
	model_close(m);
}

static void test_match(void **state)
{
	struct layer_row r = { .name = "/sg00/_dot.3" };
	struct layer_row g = { .name = "bert/encoder" };

	(void)state;
	assert_true(layers_match(&r, "_dot.3"));
	assert_true(layers_match(&r, "/sg00/_dot.3"));
	assert_false(layers_match(&r, "dot.3"));
	assert_false(layers_match(&r, ""));
	assert_true(layers_match(&g, "bert/encoder/layer_0/attention"));
	assert_false(layers_match(&g, "bert/encoder2/x"));
	char *n = layers_group_name("/a/b/c", 2);
	assert_string_equal(n, "/a/b");
	free(n);
}

static void test_summary_panel(void **state)
{
	struct model *m = model_open(cache);
	struct info_table t;
	struct info_section *s;
	size_t n;

	(void)state;
	assert_int_equal(info_sections(m, 1, &s, &n), 0);
	assert_string_equal(s[0].key, "summary");
	assert_string_equal(s[0].title, "Summary");
	info_sections_free(s, n);
	assert_int_equal(info_load(m, 1, "summary", &t), 0);
	assert_int_equal(t.ncols, 4);
	assert_int_equal(t.nrows, 4);
	/* overall_stats (0), data_movement (1), tensor_engine (4) */
	assert_string_equal(t.cells[0 * 4 + 0], "overall_stats");
	assert_string_equal(t.cells[0 * 4 + 1], "instance_type");
	assert_string_equal(t.cells[1 * 4 + 1], "total_time");
	assert_string_equal(t.cells[1 * 4 + 2], "1 ms");
	assert_string_equal(t.cells[1 * 4 + 3], "Total duration, in seconds");
	assert_string_equal(t.cells[2 * 4 + 0], "data_movement");
	assert_string_equal(t.cells[3 * 4 + 2], "25%");
	info_free(&t);
	model_close(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grouping),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_summary_panel),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
