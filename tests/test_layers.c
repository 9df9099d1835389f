/* Layer table and info panels: grouping layer names by depth (the
 * profile's own group rows win over merged children), sorting, filtering,
 * matching instructions to a layer row, and counting them per column;
 * the Summary panel grouped and
 * ordered by summary_groups / summary_group_order with percentages. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/info.h"
#include "model/layers.h"
#include "model/model.h"
#include "model/util.h"
#include "model/writer/writer.h"
#include "tests/testutil.h"

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
	assert_int_equal(info_load(m, 1, "summary", 0, &t), 0);
	assert_int_equal(t.ncols, 4);
	assert_int_equal(t.nrows, 4);
	/* overall_stats (0), data_movement (1), tensor_engine (4) */
	assert_string_equal(t.cells[0 * 4 + 0], "overall_stats");
	assert_string_equal(t.cells[0 * 4 + 1], "instance_type");
	assert_string_equal(t.cells[1 * 4 + 1], "total_time");
	assert_string_equal(t.cells[1 * 4 + 2], "1 ms");
	assert_string_equal(t.cells[1 * 4 + 3], "Total duration, in seconds");
	assert_string_equal(t.cells[2 * 4 + 0], "data_movement");
	/* percentages as every view shows them */
	assert_string_equal(t.cells[3 * 4 + 2], "25.00%");
	info_free(&t);
	model_close(m);
}

/* The instructions of a layer row: its own name's layers and those under
 * it, counted per column from the aggregates or the events alike. */
static void test_row_frame(void **state)
{
	char *fx = tu_fixture("device_small.json");
	char *small = tu_import(fx);
	struct model *m = model_open(small);
	struct mtrack *t;
	size_t nt, n;
	int64_t *ids, total = 0, hits[64];

	(void)state;
	assert_int_equal(layers_row_ids(m, 1, "/sg00/_dot.3", &ids, &n), 0);
	assert_true(n >= 1);
	model_tracks(m, 1, &t, &nt);
	for (size_t i = 0; i < nt; i++) {
		assert_int_equal(layers_frame(m, &t[i], ids, n, 0, 28000, 64,
					      hits), 0);
		for (int c = 0; c < 64; c++)
			total += hits[c];
	}
	/* five engine instructions have layer _dot.3; four start after
	 * 64 columns of 28 us */
	assert_int_equal(total, 1);
	total = 0;
	for (size_t i = 0; i < nt; i++) {
		assert_int_equal(layers_frame(m, &t[i], ids, n, 0, 40000, 64,
					      hits), 0);
		for (int c = 0; c < 64; c++)
			total += hits[c];
	}
	assert_int_equal(total, 5);
	free(ids);
	/* the group holds the layer under it; an unknown row holds none */
	assert_int_equal(layers_row_ids(m, 1, "/sg00", &ids, &n), 0);
	assert_true(n >= 1);
	free(ids);
	assert_int_equal(layers_row_ids(m, 1, "/nope", &ids, &n), 0);
	assert_int_equal(n, 0);
	free(ids);
	model_tracks_free(t, nt);
	model_close(m);
	free(small);
	free(fx);
}

/* Many instructions in three layers: columns wide enough for the
 * aggregates count the same as the events do. */
static void test_frame_aggregates(void **state)
{
	struct wprofile p = { .kind = "device", .format = "test", .name = "l",
			      .nc_idx = -1 };
	char *big = xasprintf("%s/layers-big.nxdb", tu_dir());
	struct writer *w = writer_open(big);
	struct model *m;
	struct mtrack *t;
	int64_t tr, cats[3], name, ts = 0, ids[2];
	size_t nt;
	uint64_t r = 99;

	(void)state;
	writer_profile(w, &p);
	tr = writer_track(w, 1, 0, TK_ENGINE, "Vector", 1);
	name = writer_string(w, "TENSOR_TENSOR");
	cats[0] = writer_string(w, "a/b");
	cats[1] = writer_string(w, "a/c");
	cats[2] = writer_string(w, "d");
	for (int i = 0; i < 40000; i++) {
		r = r * 6364136223846793005ull + 1442695040888963407ull;
		ts += 1 + (int64_t)(r >> 61);
		writer_slice(w, tr, ts, 1, name, cats[(r >> 33) % 3], 0, 0);
	}
	assert_int_equal(writer_finish(w), 0);
	m = model_open(big);
	model_tracks(m, 1, &t, &nt);
	ids[0] = cats[0];
	ids[1] = cats[2];
	for (int64_t colw = 1024; colw <= 65536; colw *= 4) {
		int64_t a[40], b[40];

		/* from the events: columns finer than every aggregate */
		for (int c = 0; c < 40; c++) {
			int64_t h[64];

			assert_int_equal(layers_frame(m, &t[0], ids, 2,
						      c * colw, colw / 64, 64, h), 0);
			b[c] = 0;
			for (int k = 0; k < 64; k++)
				b[c] += h[k];
		}
		assert_int_equal(layers_frame(m, &t[0], ids, 2, 0, colw, 40, a), 0);
		assert_memory_equal(a, b, sizeof(a));
	}
	model_tracks_free(t, nt);
	model_close(m);
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grouping),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_summary_panel),
		cmocka_unit_test(test_row_frame),
		cmocka_unit_test(test_frame_aggregates),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
