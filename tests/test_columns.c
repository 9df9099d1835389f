/* The column tables of the typed cache tables (model/cache/columns.h) and what
 * is made from them: the tables in a new cache have the columns, order
 * and types the man page documents; a row written through the writer
 * holds every member in its own column; every search field the tables
 * name exists, suits the column's kind and finds the row; names are
 * unique; the man page lists every search field and every table of a
 * new cache with its columns. */
#include "config.h"

#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "model/cache/columns.h"
#include "model/model.h"
#include "model/cache/schema.h"
#include "model/cache/validate.h"
#include "model/util.h"
#include "model/writer/writer.h"
#include "tests/testutil.h"

/* The SQL type the cache declares for each kind, as man/nxtop.1 and
 * FORMATS.md describe them: ids untyped (INTEGER or, above INT64_MAX,
 * TEXT), string ids and numbers INTEGER, text TEXT. */
static const char *kind_type(enum col_kind k)
{
	switch (k) {
	case CK_ID: return "";
	case CK_TEXT: return "TEXT";
	default: return "INTEGER";
	}
}

/* A new cache's typed tables: "table(slice_id, ...)" as in the man
 * page's CACHE SCHEMA, in the column tables' order and types. */
static void test_ddl(void **state)
{
	char *man = tu_read_man();
	sqlite3 *db;

	(void)state;
	assert_non_null(man);
	assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
	assert_int_equal(schema_create(db), 0);
	assert_int_equal(schema_complete_columns(db), 0);
	for (int t = 0; t < TT_COUNT; t++) {
		const struct typed_table *tt = &typed_tables[t];
		char *sql = xasprintf("PRAGMA table_info(%s)", tt->name);
		struct strbuf doc;
		sqlite3_stmt *st;
		size_t n = 0;

		sb_init(&doc);
		sb_printf(&doc, "\n.B %s(", tt->name);
		assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL),
				 SQLITE_OK);
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *name = (const char *)sqlite3_column_text(st, 1);
			const char *type = (const char *)sqlite3_column_text(st, 2);

			sb_printf(&doc, "%s%s", n ? ", " : "", name);
			if (!n) {
				assert_string_equal(name, "slice_id");
				assert_string_equal(type, "INTEGER");
				assert_int_equal(sqlite3_column_int(st, 5), 1);
			} else {
				assert_true(n <= tt->ncols);
				assert_string_equal(name, tt->cols[n - 1].name);
				assert_string_equal(type,
						    kind_type(tt->cols[n - 1].kind));
			}
			n++;
		}
		sqlite3_finalize(st);
		assert_int_equal(n, tt->ncols + 1);
		sb_adds(&doc, ")\n");
		if (!strstr(man, sb_cstr(&doc)))
			fail_msg("man/nxtop.1 CACHE SCHEMA lacks%s", sb_cstr(&doc));
		sb_free(&doc);
		free(sql);
	}
	sqlite3_close(db);
	free(man);
}

/* 1 if the man page's column list doc ("a, b, ..., z") names the
 * columns cols[0..n) in order, "..." standing for one or more. */
static int doc_matches(const char *doc, char **cols, size_t n)
{
	size_t i = 0;

	while (*doc) {
		size_t len = strcspn(doc, ",");

		if (len == 3 && !strncmp(doc, "...", 3)) {
			/* up to the column the next name names */
			const char *next = doc[len] ? doc + len + 2 : "";
			size_t nlen = strcspn(next, ",");

			if (i++ >= n)
				return 0;
			while (i < n && (strlen(cols[i]) != nlen ||
					 strncmp(cols[i], next, nlen)))
				i++;
		} else if (i >= n || strlen(cols[i]) != len ||
			   strncmp(cols[i], doc, len)) {
			return 0;
		} else {
			i++;
		}
		doc += len;
		if (*doc == ',')
			doc += 2;
	}
	return i == n;
}

/* Every table of a new cache, the core ones too, is in the man page's
 * CACHE SCHEMA as ".B table(column, ...)" with its columns in order. */
static void test_tables_in_man(void **state)
{
	char *man = tu_read_man();
	sqlite3 *db;
	sqlite3_stmt *tables, *cols;
	size_t ntables = 0;

	(void)state;
	assert_non_null(man);
	assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
	assert_int_equal(schema_create(db), 0);
	assert_int_equal(schema_complete_columns(db), 0);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master"
					    " WHERE type = 'table' ORDER BY name",
					    -1, &tables, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT name FROM"
					    " pragma_table_info(?)", -1, &cols,
					    NULL), SQLITE_OK);
	while (sqlite3_step(tables) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(tables, 0);
		char *head = xasprintf("\n.B %s(", t), *at = strstr(man, head);
		char *names[256], *doc;
		size_t n = 0;

		if (!at)
			fail_msg("man/nxtop.1 CACHE SCHEMA lacks the table %s", t);
		at += strlen(head);
		doc = xstrndup(at, strcspn(at, ")\n"));
		sqlite3_bind_text(cols, 1, t, -1, SQLITE_STATIC);
		while (sqlite3_step(cols) == SQLITE_ROW && n < 256)
			names[n++] = xstrdup((const char *)
					     sqlite3_column_text(cols, 0));
		sqlite3_reset(cols);
		if (!doc_matches(doc, names, n))
			fail_msg("man/nxtop.1 CACHE SCHEMA: %s(%s) is not the "
				 "table's columns", t, doc);
		for (size_t i = 0; i < n; i++)
			free(names[i]);
		free(doc);
		free(head);
		ntables++;
	}
	assert_true(ntables >= 20);
	sqlite3_finalize(cols);
	sqlite3_finalize(tables);
	sqlite3_close(db);
	free(man);
}

/* The man page says which schema version a cache has. */
static void test_version_in_man(void **state)
{
	char *man = tu_read_man();
	char *want = xasprintf("set to the schema version (%d).", SCHEMA_VERSION);

	(void)state;
	if (!strstr(man, want))
		fail_msg("man/nxtop.1 CACHE SCHEMA lacks '%s'", want);
	free(want);
	free(man);
}

/* Expected values of one written row, by column: a string id is
 * compared by its text. */
struct want {
	const char *col, *value;
	int sid;
};

static const struct want want_instr[] = {
	{ "id", "101", 0 }, { "subgroup", "sg", 1 }, { "operands", "ops A", 0 },
	{ "pc", "1005", 0 }, { "compiler_pc", "1006", 0 },
	{ "evt_wait_time", "1007", 0 }, { "hlo_name", "hlo.1", 1 },
	{ "layer", "lay.1", 1 }, { "subgraph", "sub.1", 1 },
	{ "bir_id", "bir", 0 }, { "penguin_id", "peng", 0 },
	{ "bir_instruction_name", "birname", 0 },
	{ "instruction_type", "itype", 1 }, { "activation_fn", "act", 1 },
	{ "compiler_opcode", "cop", 1 }, { "compiler_operands", "cops", 0 },
	{ "pcore_idx", "-1", 0 }, { "raw_penguin_id", "1011", 0 },
	{ "raw_bir_id", "-9223372036854775808", 0 },
	{ "kernel_instruction_name", "kname", 0 }, { "crc_in", "1012", 0 },
	{ "crc_out", "1013", 0 }, { "dma_wait_time", "1014", 0 },
	{ "instruction_chain", "chain", 0 }, { "hlo_attrs", "attrs", 1 },
	{ "raw_hlo_id", "1015", 0 },
	{ "raw_framework_id", "9223372036854775807", 0 },
	{ "stack_frame_ids", "frames", 0 }, { "nki_source_location", "nki", 1 },
	{ "bir_debug_info_source_location", "birdbg", 1 },
	{ "hbm_read_bytes", "1021", 0 }, { "hbm_write_bytes", "1022", 0 },
	{ "sbuf_read_bytes", "1023", 0 }, { "sbuf_write_bytes", "1024", 0 },
	{ "spill_save_bytes", "1025", 0 }, { "spill_reload_bytes", "1026", 0 },
	{ "psum_read_bytes", "1027", 0 }, { "psum_write_bytes", "1028", 0 },
	{ "psum_read_sbuf_write_bytes", "1029", 0 },
	{ "input_queue_bytes", "1030", 0 }, { "output_queue_bytes", "1031", 0 },
	{ "weight_queue_bytes", "1032", 0 }, { "performance_mode", "2x", 1 },
	{ "tensor_instruction_type", "ttype", 1 },
	{ "tensor_elements", "1041", 0 }, { "raw_flops", "1042", 0 },
	{ "adjusted_flops", "1043", 0 },
	{ "tensor_elements_transpose", "1044", 0 },
	{ "flops_transpose", "1045", 0 },
	{ "adjusted_flops_transpose", "1046", 0 },
};

static const struct want want_packet[] = {
	{ "id", "201", 0 },
	{ "packet_aggregation_id", "18446744073709551615", 0 },
	{ "packet_idx", "2", 0 }, { "queue", "qP", 1 }, { "queue_type", "data", 1 },
	{ "variable", "varP", 1 }, { "transfer_size", "4096", 0 },
	{ "read_size", "4097", 0 }, { "write_size", "4098", 0 },
	{ "transfer_rate", "4099", 0 }, { "dma_engine", "12", 0 },
	{ "dma_queue", "13", 0 }, { "semaphore_id", "sem1", 0 },
	{ "op", "copy", 1 }, { "source", "srcP", 0 }, { "dest", "dstP", 0 },
	{ "block_id", "14", 0 },
};

static const struct want want_transfer[] = {
	{ "id", "301", 0 }, { "queue", "qT", 1 }, { "queue_type", "data", 1 },
	{ "variable", "varT", 1 }, { "transfer_size", "8192", 0 },
	{ "read_size", "8193", 0 }, { "write_size", "8194", 0 },
	{ "transfer_rate", "8195", 0 }, { "dma_engine", "22", 0 },
	{ "dma_queue", "23", 0 }, { "semaphore_id", "sem2", 0 },
	{ "op", "write", 1 }, { "source", "srcT", 0 }, { "dest", "dstT", 0 },
	{ "block_id", "24", 0 }, { "trigger_ts", "555", 0 },
};

static const struct want want_sys[] = {
	{ "id", "401", 0 }, { "parent", "400", 0 }, { "source", "neuron_rt", 1 },
	{ "grp", "nrt-nc-003", 1 }, { "type", "11", 0 },
	{ "instance_id", "i-1", 1 }, { "process_id", "77", 1 },
	{ "thread_id", "78", 0 }, { "nc_idx", "3", 0 }, { "lnc_idx", "4", 0 },
	{ "worker_gid", "5", 0 }, { "device_core_idx", "6", 0 },
	{ "exec_id", "7", 0 }, { "model_id", "mid", 0 },
	{ "model_name", "mname", 1 }, { "device_profile", "dev.json", 1 },
};

static char *cache;

static void write_instruction(struct writer *w, int64_t slice)
{
	struct winstruction in = {
		.subgroup = writer_string(w, "sg"), .operands = "ops A",
		.pc = 1005, .compiler_pc = 1006, .evt_wait_time = 1007,
		.hlo_name = writer_string(w, "hlo.1"),
		.layer = writer_string(w, "lay.1"),
		.subgraph = writer_string(w, "sub.1"), .bir_id = "bir",
		.penguin_id = "peng", .bir_instruction_name = "birname",
		.instruction_type = writer_string(w, "itype"),
		.activation_fn = writer_string(w, "act"),
		.compiler_opcode = writer_string(w, "cop"),
		.compiler_operands = "cops",
		.pcore_idx = { -1, 1 }, .raw_penguin_id = { 1011, 1 },
		.raw_bir_id = { INT64_MIN, 1 }, .kernel_instruction_name = "kname",
		.crc_in = { 1012, 1 }, .crc_out = { 1013, 1 },
		.dma_wait_time = 1014, .instruction_chain = "chain",
		.hlo_attrs = writer_string(w, "attrs"), .raw_hlo_id = { 1015, 1 },
		.raw_framework_id = { INT64_MAX, 1 }, .stack_frame_ids = "frames",
		.nki_source_location = writer_string(w, "nki"),
		.bir_debug_info_source_location = writer_string(w, "birdbg"),
		.hbm_read_bytes = { 1021, 1 }, .hbm_write_bytes = { 1022, 1 },
		.sbuf_read_bytes = { 1023, 1 }, .sbuf_write_bytes = { 1024, 1 },
		.spill_save_bytes = { 1025, 1 },
		.spill_reload_bytes = { 1026, 1 },
		.psum_read_bytes = { 1027, 1 }, .psum_write_bytes = { 1028, 1 },
		.psum_read_sbuf_write_bytes = { 1029, 1 },
		.input_queue_bytes = { 1030, 1 },
		.output_queue_bytes = { 1031, 1 },
		.weight_queue_bytes = { 1032, 1 },
		.performance_mode = writer_string(w, "2x"),
		.tensor_instruction_type = writer_string(w, "ttype"),
		.tensor_elements = { 1041, 1 }, .raw_flops = { 1042, 1 },
		.adjusted_flops = { 1043, 1 },
		.tensor_elements_transpose = { 1044, 1 },
		.flops_transpose = { 1045, 1 },
		.adjusted_flops_transpose = { 1046, 1 },
	};

	wid_from_i64(&in.id, 101);
	writer_instruction(w, slice, &in);
}

/* Instructions that have few columns, before (id 100) and after (102)
 * the full one: the table gains a column when a row first has it. */
static void write_sparse(struct writer *w, int64_t slice, int later)
{
	struct winstruction in = { .pc = -1, .compiler_pc = -1,
				   .evt_wait_time = -1, .dma_wait_time = -1,
				   .crc_out = { 7, 1 } };

	wid_from_i64(&in.id, 100);
	if (later) {
		in.crc_out.has = 0;
		in.hbm_write_bytes = (struct wnum){ 0, 1 };
		in.dma_wait_time = 33;
		wid_from_i64(&in.id, 102);
	}
	writer_instruction(w, slice, &in);
}

static void write_dma(struct writer *w, int64_t packet, int64_t transfer)
{
	struct wdma p = {
		.packet_idx = 2, .queue = writer_string(w, "qP"),
		.queue_type = writer_string(w, "data"),
		.variable = writer_string(w, "varP"), .transfer_size = 4096,
		.read_size = 4097, .write_size = 4098, .transfer_rate = 4099,
		.dma_engine = 12, .dma_queue = 13, .semaphore_id = "sem1",
		.op = writer_string(w, "copy"), .source = "srcP",
		.dest = "dstP", .block_id = 14, .trigger_ts = 999,
	};
	struct wdma t = {
		.aggregated = 1, .packet_idx = 3, .queue = writer_string(w, "qT"),
		.queue_type = writer_string(w, "data"),
		.variable = writer_string(w, "varT"), .transfer_size = 8192,
		.read_size = 8193, .write_size = 8194, .transfer_rate = 8195,
		.dma_engine = 22, .dma_queue = 23, .semaphore_id = "sem2",
		.op = writer_string(w, "write"), .source = "srcT",
		.dest = "dstT", .block_id = 24, .trigger_ts = 555,
	};

	wid_from_i64(&p.id, 201);
	wid_from_u64(&p.packet_aggregation_id, UINT64_MAX);
	wid_from_i64(&t.id, 301);
	wid_from_i64(&t.packet_aggregation_id, 302);
	writer_dma(w, packet, &p);
	writer_dma(w, transfer, &t);
}

/* The second event has no type: its column stays NULL. */
static void write_sys(struct writer *w, int64_t slice, int64_t untyped)
{
	struct wsys_event e = {
		.source = writer_string(w, "neuron_rt"),
		.instance_id = writer_string(w, "i-1"),
		.process_id = writer_string(w, "77"),
		.model_name = writer_string(w, "mname"),
		.device_profile = writer_string(w, "dev.json"),
		.group = writer_string(w, "nrt-nc-003"), .thread_id = 78,
		.nc_idx = 3, .lnc_idx = 4, .worker_gid = 5,
		.device_core_idx = 6, .exec_id = 7, .type = 11, .has_type = 1,
		.model_id = "mid",
	};

	wid_from_i64(&e.id, 401);
	wid_from_i64(&e.parent, 400);
	writer_sys_event(w, slice, &e);
	wid_from_i64(&e.id, 402);
	e.type = 12;
	e.has_type = 0;
	writer_sys_event(w, untyped, &e);
}

static int setup(void **state)
{
	struct wprofile p = { .kind = "device", .format = "neuron-json",
			      .name = "p", .nc_idx = -1 };
	struct writer *w;
	int64_t prof, te, td, tx, ts;

	(void)state;
	cache = xasprintf("%s/columns.nxdb", tu_dir());
	unlink(cache);
	w = writer_open(cache);
	if (!w)
		return -1;
	prof = writer_profile(w, &p);
	te = writer_track(w, prof, 0, TK_ENGINE, "E", 1);
	td = writer_track(w, prof, 0, TK_DMA, "D", 2);
	tx = writer_track(w, prof, 0, TK_DMA_XFER, "X", 3);
	ts = writer_track(w, prof, 0, TK_NRT, "N", 4);
	write_sparse(w, writer_slice(w, te, 4, 5, writer_string(w, "ACT"), 0, 0,
				     0), 0);
	write_instruction(w, writer_slice(w, te, 10, 5, writer_string(w, "MATMUL"),
					  0, 0, 0));
	write_sparse(w, writer_slice(w, te, 16, 2, writer_string(w, "ACT"), 0, 0,
				     0), 1);
	write_dma(w, writer_slice_sized(w, td, 20, 5, writer_string(w, "pk"),
					writer_string(w, "data"), 4096),
		  writer_slice_sized(w, tx, 30, 5, writer_string(w, "xf"),
				     writer_string(w, "data"), 8192));
	write_sys(w, writer_slice(w, ts, 40, 5, writer_string(w, "nrt_a"), 0, 0, 0),
		  writer_slice(w, ts, 50, 5, writer_string(w, "nrt_b"), 0, 0, 0));
	writer_profile_extent(w, prof, 0, 100);
	return writer_finish(w);
}

static int teardown(void **state)
{
	(void)state;
	free(cache);
	return 0;
}

static void check_row(const char *table, int64_t id, const struct want *want,
		      size_t n)
{
	char *sql = xasprintf("SELECT count(*) FROM pragma_table_info('%s')",
			      table);

	/* every column but slice_id is expected */
	assert_int_equal(tu_query_int(cache, sql), (int64_t)n + 1);
	free(sql);
	for (size_t i = 0; i < n; i++) {
		char *v;

		sql = want[i].sid ?
			xasprintf("SELECT s.str FROM %s t JOIN string s ON s.id ="
				  " t.%s WHERE t.id = %lld", table, want[i].col,
				  (long long)id) :
			xasprintf("SELECT %s FROM %s WHERE id = %lld", want[i].col,
				  table, (long long)id);
		v = tu_query_text(cache, sql);
		if (!v || strcmp(v, want[i].value))
			fail_msg("%s.%s: '%s', expected '%s'", table, want[i].col,
				 v ? v : "NULL", want[i].value);
		free(v);
		free(sql);
	}
}

/* Each member of a written row lands in its own column. */
static void test_writer_binds(void **state)
{
	(void)state;
	check_row("instruction", 101, want_instr, NX_ARRAY_SIZE(want_instr));
	check_row("dma_packet", 201, want_packet, NX_ARRAY_SIZE(want_packet));
	check_row("dma_transfer", 301, want_transfer,
		  NX_ARRAY_SIZE(want_transfer));
	check_row("sys_event", 401, want_sys, NX_ARRAY_SIZE(want_sys));
	assert_int_equal(tu_query_int(cache, "SELECT count(*) FROM sys_event"
				      " WHERE id = 402 AND type IS NULL"), 1);
}

/* The rows' totals: the DMA rows came after both their slices, so
 * their kinds were counted from the tables at the end. */
static void test_track_stats(void **state)
{
	(void)state;
	assert_int_equal(tu_query_int(cache, "SELECT count(*) FROM track_stat"
				      " x JOIN track t ON t.id = x.track_id"
				      " LEFT JOIN string q ON q.id = x.value WHERE"
				      " (t.name = 'E' AND x.kind = 1 AND x.value = 0"
				      " AND x.n = 2 AND x.total = 7) OR"
				      " (t.name = 'E' AND x.kind = 1 AND"
				      " q.str = 'sg' AND x.n = 1 AND x.total = 5) OR"
				      " (t.name = 'D' AND x.kind = 2 AND"
				      " q.str = 'data' AND x.n = 1 AND"
				      " x.total = 4096) OR (t.name = 'X' AND"
				      " x.kind = 3 AND q.str = 'data' AND"
				      " x.n = 1 AND x.total = 8192) OR"
				      " (t.name = 'N' AND x.kind = 0 AND x.n = 2"
				      " AND x.total = 10)"), 5);
	assert_int_equal(tu_query_int(cache, "SELECT count(*) FROM track_stat"),
			 8);
}

/* Rows end at the last column the profile had when they were written;
 * the others read as NULL, and the cache is valid. */
static void test_sparse_rows(void **state)
{
	sqlite3 *db;
	char *why = NULL;

	(void)state;
	/* the first row had id and crc_out: the table's first columns */
	assert_int_equal(tu_query_int(cache, "SELECT count(*) FROM"
				      " pragma_table_info('instruction') WHERE"
				      " (cid = 1 AND name = 'id') OR (cid = 2 AND"
				      " name = 'crc_out')"), 2);
	assert_int_equal(tu_query_int(cache, "SELECT count(*) FROM instruction"
				      " WHERE id = 100 AND crc_out = 7 AND"
				      " coalesce(pc, hbm_write_bytes, dma_wait_time,"
				      " hlo_name, operands, adjusted_flops_transpose)"
				      " IS NULL"), 1);
	assert_int_equal(tu_query_int(cache, "SELECT count(*) FROM instruction"
				      " WHERE id = 102 AND crc_out IS NULL AND"
				      " hbm_write_bytes = 0 AND dma_wait_time = 33"
				      " AND coalesce(pc, crc_in, operands) IS NULL"),
			 1);
	assert_int_equal(sqlite3_open_v2(cache, &db, SQLITE_OPEN_READONLY, NULL),
			 SQLITE_OK);
	if (cache_validate(db, VALIDATE_FULL, &why))
		fail_msg("not valid: %s", why);
	sqlite3_close(db);
}

/* The kind of search field that reads a column of each kind. */
static enum qkind field_kind(enum col_kind k)
{
	switch (k) {
	case CK_ID: return QF_ID;
	case CK_STR: return QF_STRING;
	case CK_TEXT: return QF_TEXT;
	case CK_TIME: return QF_TIME;
	default: return QF_INT;
	}
}

/* Fields of the slice itself or of its row: no typed column. */
static int slice_field(enum qfield f)
{
	return f == F_WORD || f == F_NAME || f == F_OPCODE || f == F_ENGINE ||
	       f == F_ROW || f == F_CATEGORY || f == F_DUR || f == F_START ||
	       f == F_END || f == F_ARG;
}

static void test_tables(void **state)
{
	int read[F_COUNT] = { 0 };

	(void)state;
	for (int t = 0; t < TT_COUNT; t++) {
		const struct typed_table *tt = &typed_tables[t];

		for (int u = 0; u < t; u++)
			assert_string_not_equal(tt->alias, typed_tables[u].alias);
		for (size_t i = 0; i < tt->ncols; i++) {
			const struct column *c = &tt->cols[i];

			assert_true(c->group < CG_COUNT);
			assert_non_null(col_group_names[c->group]);
			assert_true(*c->label);
			for (size_t k = 0; k < i; k++) {
				assert_string_not_equal(c->name, tt->cols[k].name);
				assert_string_not_equal(c->label, tt->cols[k].label);
			}
			if (c->field == F_NONE)
				continue;
			assert_true(c->field < F_COUNT);
			assert_false(slice_field(c->field));
			/* an integer column may hold bytes, which take units */
			if (query_fields[c->field].kind != QF_BYTES ||
			    field_kind(c->kind) != QF_INT)
				assert_int_equal(query_fields[c->field].kind,
						 field_kind(c->kind));
			read[c->field]++;
		}
	}
	for (int f = 0; f < F_COUNT; f++)
		if (!slice_field((enum qfield)f) && !read[f])
			fail_msg("no column holds search field %s",
				 query_fields[f].name);
}

static int same_name(const char *a, const char *b)
{
	return a && b && !strcasecmp(a, b);
}

/* A field's name as the man page sets it: ".B name", ".BR name ," or
 * ".RB ( name ...". */
static int in_man(const char *text, const char *name)
{
	static const char *const forms[] = { ".B %s\n", ".BR %s ,", ".RB ( %s " };
	int found = 0;

	for (size_t i = 0; i < NX_ARRAY_SIZE(forms) && !found; i++) {
		char *s = xasprintf(forms[i], name);

		found = strstr(text, s) != NULL;
		free(s);
	}
	return found;
}

/* Names and aliases of search fields are unique, and each is in the
 * man page's list of fields. */
static void test_field_names(void **state)
{
	char *man = tu_read_man(), *b, *e;

	(void)state;
	assert_non_null(man);
	b = strstr(man, "\nFields:\n");
	assert_non_null(b);
	e = strstr(b, "\n.PP\n");
	assert_non_null(e);
	*e = '\0';
	for (int f = 1; f < F_COUNT; f++) {
		const struct qfield_info *fi = &query_fields[f];
		const char *names[2] = { fi->name, fi->alias };

		for (int g = 1; g < f; g++) {
			const struct qfield_info *gi = &query_fields[g];

			assert_false(same_name(fi->name, gi->name) ||
				     same_name(fi->name, gi->alias) ||
				     same_name(fi->alias, gi->name) ||
				     same_name(fi->alias, gi->alias));
		}
		for (int k = 0; k < 2 && f != F_ARG; k++)
			if (names[k] && !in_man(b, names[k]))
				fail_msg("man/nxtop.1 Fields: no %s", names[k]);
	}
	free(man);
}

/* Every search field a column holds finds the written rows by it. */
static void test_search(void **state)
{
	static const struct {
		const char *q;
		int64_t n;
	} cases[] = {
		{ "id=101", 1 }, { "id=201", 1 }, { "id=301", 1 },
		{ "id=401", 1 }, { "id=400", 0 }, { "pc=1005", 1 },
		{ "pc=1006", 0 }, { "wait=1007ns", 1 }, { "layer=lay.1", 1 },
		{ "hlo=hlo.1", 1 }, { "operands~ops", 1 }, { "operands~cops", 0 },
		{ "queue=qP", 1 }, { "queue=qT", 1 }, { "queue_type=data", 2 },
		{ "variable=varT", 1 }, { "size=4096", 1 }, { "size>4096", 1 },
		{ "read_size=8193", 1 }, { "write_size=4098", 1 },
		{ "nc=3", 2 }, { "lnc=4", 2 }, { "instance=i-1", 2 },
		{ "process=77", 2 }, { "thread=78", 2 }, { "model=mname", 2 },
		{ "source=neuron_rt", 2 }, { "source=srcP", 0 },
		/* free words: a queue its row is not named by, a layer, an
		 * HLO name, names */
		{ "qp", 1 }, { "QT", 1 }, { "lay.1", 1 }, { "hlo.", 1 },
		{ "nrt_", 2 }, { "-nrt_", 5 }, { "nosuch", 0 },
	};
	struct model *m = model_open(cache);
	int asked[F_COUNT] = { 0 };

	(void)state;
	assert_non_null(m);
	for (size_t i = 0; i < NX_ARRAY_SIZE(cases); i++) {
		struct query q;
		char *err = NULL;

		if (tu_search_count(m, 1, cases[i].q) != cases[i].n)
			fail_msg("%s: %lld events, expected %lld", cases[i].q,
				 (long long)tu_search_count(m, 1, cases[i].q),
				 (long long)cases[i].n);
		assert_int_equal(query_parse(cases[i].q, &q, &err), 0);
		asked[q.terms[0].field] = 1;
		query_free(&q);
	}
	for (int t = 0; t < TT_COUNT; t++)
		for (size_t i = 0; i < typed_tables[t].ncols; i++) {
			enum qfield f = typed_tables[t].cols[i].field;

			if (f != F_NONE && !asked[f])
				fail_msg("no case for field %s",
					 query_fields[f].name);
		}
	model_close(m);
}

/* string_use: each string the columns hold, with the bits of those
 * columns, as written in setup (a DMA queue apart from its row's name,
 * a category of DMA events). */
static void test_string_use(void **state)
{
	char *got = tu_query_text(cache, "SELECT group_concat(v, ' ') FROM"
				  " (SELECT s.str || ':' || u.columns v FROM"
				  " string_use u JOIN string s ON s.id = u.str"
				  " ORDER BY s.str)");

	(void)state;
	assert_string_equal(got, "ACT:8 MATMUL:8 data:16 hlo.1:1 lay.1:2"
			    " nrt_a:8 nrt_b:8 pk:8 qP:4 qT:4 xf:8");
	free(got);
	/* the full instruction's layer is not its slice's category (0) */
	assert_int_equal(tu_query_int(cache, "SELECT columns FROM string_use"
				      " WHERE str = -1"), 16);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ddl),
		cmocka_unit_test(test_tables_in_man),
		cmocka_unit_test(test_version_in_man),
		cmocka_unit_test(test_writer_binds),
		cmocka_unit_test(test_sparse_rows),
		cmocka_unit_test(test_track_stats),
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_field_names),
		cmocka_unit_test(test_search),
		cmocka_unit_test(test_string_use),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
