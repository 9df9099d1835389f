/* Device-profile JSON import: every section lands in its table, ids stay
 * exact above 2^53 and 2^63, numbers may be strings, key order does not
 * matter, and bad input gives one clear error with nothing left behind;
 * the writer keeps to its time range and row limit; the tables of a
 * Parquet profile folder are found by their file names, and a bad value
 * in one is said with its column's name; a stream read
 * ahead in a thread gives every byte in order, then its end or error. */
#include "config.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include "model/util.h"
#include "model/writer/writer.h"
#include "model/writer/writer_int.h"
#include "src/import/import.h"
#include "src/import/parquet/folder.h"
#include "src/import/readahead.h"
#include "src/parquet/pqwrite.h"
#include "src/json/jsonsplit.h"
#include "src/json/jsonval.h"
#include "tests/testutil.h"

static char *fixture_cache;

static int setup(void **state)
{
	char *path = tu_fixture("device_small.json");

	(void)state;
	fixture_cache = tu_import(path);
	free(path);
	if (!fixture_cache)
		fail_msg("import: %s", err_get());
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(fixture_cache);
	return 0;
}

static int64_t q(const char *sql)
{
	return tu_query_int(fixture_cache, sql);
}

static void test_sections(void **state)
{
	(void)state;
	assert_int_equal(q("SELECT count(*) FROM instruction"), 8);
	assert_int_equal(q("SELECT count(*) FROM dma_packet"), 2);
	assert_int_equal(q("SELECT count(*) FROM dma_transfer"), 1);
	assert_int_equal(q("SELECT count(*) FROM layer"), 2);
	assert_int_equal(q("SELECT count(*) FROM semaphore_update"), 1);
	assert_int_equal(q("SELECT count(*) FROM active_time"), 6);
	assert_int_equal(q("SELECT count(*) FROM info WHERE section='neff_node'"
			   " AND key='variable_name'"), 2);
	assert_int_equal(q("SELECT count(*) FROM info WHERE section='annotation'"), 3);
	assert_int_equal(q("SELECT count(*) FROM warning WHERE origin='profile'"), 1);
	assert_int_equal(q("SELECT count(*) FROM warning WHERE origin='import'"), 0);
	assert_int_equal(q("SELECT end_ns FROM profile"), 1869395);
	assert_int_equal(q("SELECT nc_idx FROM profile"), 0);
}

static void test_tracks(void **state)
{
	static const char *const names[] = {
		"Engines", "TensorMatrix", "Tensor", "Vector", "Scalar", "GpSimd",
		"Sync", "DMA queues", "qSyncSpillReload0", "Q0", "DMA transfers",
		"qSyncSpillReload0", "Counters", "DMA throughput", "HBM throughput",
		"Pending DMA", "SBUF usage", "PSUM usage", "Throttling",
	};
	char sql[256];

	(void)state;
	for (size_t i = 0; i < NX_ARRAY_SIZE(names); i++) {
		snprintf(sql, sizeof(sql), "SELECT name FROM track ORDER BY"
			 " sort_key, id LIMIT 1 OFFSET %zu", i);
		char *n = tu_query_text(fixture_cache, sql);
		assert_non_null(n);
		assert_string_equal(n, names[i]);
		free(n);
	}
	assert_int_equal(q("SELECT count(*) FROM track"), NX_ARRAY_SIZE(names));
}

/* FORMATS.md §0.6: ids up to 9223229769545287789 and beyond 2^63. */
static void test_exact_ids(void **state)
{
	char *s;

	(void)state;
	assert_int_equal(q("SELECT count(*) FROM instruction WHERE"
			   " id = 9223229769545287789"), 1);
	assert_int_equal(q("SELECT count(*) FROM instruction WHERE"
			   " id = 1595281750187649674"), 1);
	s = tu_query_text(fixture_cache, "SELECT id FROM instruction WHERE"
			  " typeof(id) = 'text'");
	assert_string_equal(s, "18446744073709551000");
	free(s);
	s = tu_query_text(fixture_cache, "SELECT json_extract(args,"
			  " '$.predecessors[0].id') FROM arg JOIN instruction"
			  " USING (slice_id) WHERE id = 1595281750187649674");
	assert_string_equal(s, "4972225573064315140");
	free(s);
	assert_int_equal(q("SELECT packet_aggregation_id FROM dma_packet"
			   " WHERE packet_idx = 0 AND dma_engine = 0 AND"
			   " dma_queue = 1"), 4767622535416772230);
}

static void test_strings_as_numbers(void **state)
{
	(void)state;
	/* "timestamp": "5000", "duration": "120", "pc": "77" */
	assert_int_equal(q("SELECT s.ts FROM slice s JOIN instruction i ON"
			   " i.slice_id = s.id WHERE i.pc = 77"), 5000);
	assert_int_equal(q("SELECT s.dur FROM slice s JOIN instruction i ON"
			   " i.slice_id = s.id WHERE i.pc = 77"), 120);
	assert_int_equal(q("SELECT dma_engine FROM dma_transfer"), 15);
}

/* Integers written as decimals or with exponents are read from their
 * text, exact past 2^53: 9007199254740993 is 2^53 + 1, which a double
 * would make 2^53. */
static void test_whole_decimals(void **state)
{
	static const char doc[] =
		"{\"instruction\":["
		"{\"opcode\":\"A\",\"label\":\"Vector\","
		"\"timestamp\":9007199254740993.0,\"duration\":5.000,"
		"\"id\":9223229769545287789.0},"
		"{\"opcode\":\"B\",\"label\":\"Vector\","
		"\"timestamp\":12345678901234567.0,\"duration\":5e0},"
		"{\"opcode\":\"C\",\"label\":\"Vector\","
		"\"timestamp\":9.007199254740995e15,\"duration\":\"7.0\"}]}";
	char *c;

	(void)state;
	c = tu_import(tu_write("whole.json", doc, strlen(doc)));
	assert_non_null(c);
	assert_int_equal(tu_query_int(c, "SELECT ts FROM slice s JOIN string n"
				      " ON n.id = s.name WHERE n.str = 'A'"),
			 9007199254740993LL);
	assert_int_equal(tu_query_int(c, "SELECT i.id FROM instruction i JOIN"
				      " slice s ON s.id = i.slice_id JOIN string n"
				      " ON n.id = s.name WHERE n.str = 'A'"),
			 9223229769545287789LL);
	assert_int_equal(tu_query_int(c, "SELECT ts FROM slice s JOIN string n"
				      " ON n.id = s.name WHERE n.str = 'B'"),
			 12345678901234567LL);
	assert_int_equal(tu_query_int(c, "SELECT ts FROM slice s JOIN string n"
				      " ON n.id = s.name WHERE n.str = 'C'"),
			 9007199254740995LL);
	assert_int_equal(tu_query_int(c, "SELECT sum(dur) FROM slice"),
			 5 + 5 + 7);
	free(c);
}

static const char *const order_a =
	"{\"metadata\":[{\"first_hw_timestamp\":0,\"last_hw_timestamp\":900}],"
	"\"instruction\":[{\"timestamp\":10,\"duration\":5,\"label\":\"Vector\","
	"\"opcode\":\"COPY\",\"id\":9223229769545287789,\"layer\":\"l1\"},"
	"{\"timestamp\":100,\"duration\":800,\"label\":\"Sync\",\"opcode\":\"WRITE\","
	"\"id\":\"42\"}]}";
static const char *const order_b =
	"{ \"instruction\" : [ { \"layer\" : \"l1\", \"id\" : 9223229769545287789 ,"
	" \"opcode\" : \"COPY\", \"label\" : \"Vector\", \"duration\" : 5,"
	" \"timestamp\" : 10 },\n { \"id\" : 42, \"opcode\" : \"WRITE\","
	" \"label\" : \"Sync\", \"timestamp\" : \"100\", \"duration\" : 800 } ],\n"
	" \"metadata\" : [ { \"last_hw_timestamp\" : 900, \"first_hw_timestamp\" : 0 } ] }";

static char *slices_of(const char *cache)
{
	return tu_query_text(cache, "SELECT group_concat(t.name || ':' || s.ts"
			     " || ':' || s.dur || ':' || n.str || ':' || i.id, ',')"
			     " FROM slice s JOIN track t ON t.id = s.track_id"
			     " JOIN string n ON n.id = s.name JOIN instruction i"
			     " ON i.slice_id = s.id ORDER BY s.ts");
}

/* NXTOP_TEST_HLO_CAP lowers the cap of the HLO names kept in memory
 * (tests/hlocap.sh runs the join past it); anything else keeps 16M. */
static void test_hlo_cap(void **state)
{
	static const char *const ignored[] = { "", "0", "12x", "-3",
					       "16777217", "99999999999999" };

	(void)state;
	assert_int_equal(SLICE_HLO_MAX, 16777216);
	unsetenv("NXTOP_TEST_HLO_CAP");
	assert_int_equal(slice_hlo_max(), 16777216);
	setenv("NXTOP_TEST_HLO_CAP", "7", 1);
	assert_int_equal(slice_hlo_max(), 7);
	setenv("NXTOP_TEST_HLO_CAP", "16777216", 1);
	assert_int_equal(slice_hlo_max(), 16777216);
	for (size_t i = 0; i < sizeof(ignored) / sizeof(*ignored); i++) {
		setenv("NXTOP_TEST_HLO_CAP", ignored[i], 1);
		assert_int_equal(slice_hlo_max(), 16777216);
	}
	unsetenv("NXTOP_TEST_HLO_CAP");
}

static void test_key_order(void **state)
{
	char *a, *b, *ca, *cb;

	(void)state;
	ca = tu_import(tu_write("a.json", order_a, strlen(order_a)));
	assert_non_null(ca);
	cb = tu_import(tu_write("b.json", order_b, strlen(order_b)));
	assert_non_null(cb);
	a = slices_of(ca);
	b = slices_of(cb);
	assert_string_equal(a, "Vector:10:5:COPY:9223229769545287789,"
			    "Sync:100:800:WRITE:42");
	assert_string_equal(a, b);
	free(a);
	free(b);
	free(ca);
	free(cb);
}

static int temp_files_left(void)
{
	DIR *d = opendir(tu_dir());
	struct dirent *e;
	int n = 0;

	while ((e = readdir(d)))
		if (strstr(e->d_name, ".nxdb"))
			n++;
	closedir(d);
	return n;
}

/* Each bad input: import fails with the expected message and leaves no
 * cache and no temporary file. */
static void expect_bad(const char *name, const char *text, const char *msg)
{
	char *cache;
	int before = temp_files_left();
	char *path = xstrdup(tu_write(name, text, strlen(text)));

	cache = tu_import(path);
	if (cache)
		fail_msg("%s imported", name);
	if (!strstr(err_get(), msg))
		fail_msg("%s: error \"%s\" lacks \"%s\"", name, err_get(), msg);
	if (strncmp(err_get(), path, strlen(path)))
		fail_msg("%s: error \"%s\" does not start with the file", name,
			 err_get());
	assert_int_equal(temp_files_left(), before);
	free(path);
}

static void test_bad_input(void **state)
{
	(void)state;
	expect_bad("trunc.json", "{\"instruction\":[{\"timestamp\":1,\"dur",
		   "unexpected end of file");
	expect_bad("type.json", "{\"instruction\":[{\"timestamp\":\"abc\","
		   "\"duration\":1}]}", "\"timestamp\" is a string, expected an"
		   " integer in \"instruction\"[0]");
	expect_bad("missing.json", "{\"instruction\":[{\"duration\":1},"
		   "{\"duration\":1}]}", "missing \"timestamp\" in \"instruction\"[0]");
	expect_bad("overflow.json", "{\"instruction\":[{\"timestamp\":"
		   "99999999999999999999,\"duration\":1}]}",
		   "expected an integer");
	expect_bad("float.json", "{\"dma\":[{\"timestamp\":1.5,\"duration\":1}]}",
		   "\"timestamp\" is a number, expected an integer in \"dma\"[0]");
	expect_bad("fraction.json", "{\"instruction\":[{\"timestamp\":"
		   "12345678901234567.5,\"duration\":1}]}",
		   "\"timestamp\" is a number, expected an integer in"
		   " \"instruction\"[0]");
	expect_bad("tiny.json", "{\"instruction\":[{\"timestamp\":1,"
		   "\"duration\":5.0000000000000000001}]}",
		   "\"duration\" is a number, expected an integer in"
		   " \"instruction\"[0]");
	expect_bad("notobj.json", "{\"instruction\":[1]}",
		   "expected an object, found a number in \"instruction\"[0]");
	expect_bad("value.json", "{\"instruction\":{\"timestamp\":1}}",
		   "expected an array of records, found an object in"
		   " \"instruction\"");
	expect_bad("unknown.json", "{\"foo\":[{\"a\":1}],\"bar\":[]}",
		   "no Neuron profile data found (top-level keys: \"foo\", \"bar\")");
	expect_bad("empty.json", "", "empty file");
	expect_bad("bool.json", "{\"dma\":[{\"timestamp\":1,\"duration\":1,"
		   "\"aggregated\":\"maybe\"}]}", "\"aggregated\" is a string");
}

/* Device and system records (and Chrome events) word the same problem
 * the same way: the field getters are shared. */
static void test_same_words(void **state)
{
	(void)state;
	expect_bad("devtype.json",
		   "{\"semaphore_update\":[{\"timestamp\":{}}]}",
		   "\"timestamp\" is an object, expected an integer in"
		   " \"semaphore_update\"[0]");
	expect_bad("systype.json", "{\"cpu_util\":[{\"timestamp\":{}}]}",
		   "\"timestamp\" is an object, expected an integer in"
		   " \"cpu_util\"[0]");
	expect_bad("devmiss.json", "{\"active_time\":[{\"end_ts\":1}]}",
		   "missing \"start_ts\" in \"active_time\"[0]");
	expect_bad("sysmiss.json", "{\"mem_usage\":[{\"usage\":1}]}",
		   "missing \"timestamp\" in \"mem_usage\"[0]");
	expect_bad("devnum.json", "{\"dma_throughput\":[{\"timestamp\":1,"
		   "\"transfer_rate\":[]}]}", "\"transfer_rate\" is an array,"
		   " expected a number in \"dma_throughput\"[0]");
	expect_bad("sysnum.json", "{\"mem_usage\":[{\"timestamp\":1,"
		   "\"usage\":[]}]}", "\"usage\" is an array, expected a number"
		   " in \"mem_usage\"[0]");
	expect_bad("chrtype.json", "{\"traceEvents\":[{\"ph\":{},\"ts\":1}]}",
		   "\"ph\" is an object, expected a phase letter in"
		   " \"traceEvents\"[0]");
}

/* The getters one by one: what absent means with and without the
 * options, and the message at the record being read. */
static void test_field_getters(void **state)
{
	cJSON *o = cJSON_Parse("{\"neg\":-3,\"num\":\"42\",\"empty\":\"\","
			       "\"obj\":{},\"real\":2.5}");
	struct jrec r = { .kind = JREC_ITEM, .key = "dma", .index = 7,
			  .offset = 1234 };
	struct import im = { .name = "f.json", .rec = &r };
	const char *s;
	char buf[32];
	int64_t v;
	double d;

	(void)state;
	assert_non_null(o);
	assert_int_equal(import_opt_i64(&im, cJSON_GetObjectItem(o, "neg"),
					"neg", 0, &v), 0);
	assert_int_equal(v, -3);
	assert_int_equal(import_opt_i64(&im, cJSON_GetObjectItem(o, "neg"),
					"neg", FIELD_NEG_ABSENT, &v), 0);
	assert_int_equal(v, -1);
	assert_int_equal(import_opt_i64(&im, cJSON_GetObjectItem(o, "num"),
					"num", FIELD_NEG_ABSENT, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(import_opt_i64(&im, NULL, "none", 0, &v), 0);
	assert_int_equal(v, -1);
	assert_int_equal(import_get_i64(cJSON_GetObjectItem(o, "neg"),
					FIELD_NEG_ABSENT, &v), JV_ABSENT);
	assert_int_equal(import_get_i64(cJSON_GetObjectItem(o, "obj"), 0, &v),
			 JV_BAD);

	assert_int_equal(import_opt_str(&im, cJSON_GetObjectItem(o, "empty"),
					"empty", 0, &s, buf, sizeof(buf)), 0);
	assert_string_equal(s, "");
	assert_int_equal(import_opt_str(&im, cJSON_GetObjectItem(o, "empty"),
					"empty", FIELD_EMPTY_ABSENT, &s, buf,
					sizeof(buf)), 0);
	assert_null(s);
	assert_int_equal(import_opt_str(&im, cJSON_GetObjectItem(o, "num"),
					"num", FIELD_EMPTY_ABSENT, &s, buf,
					sizeof(buf)), 0);
	assert_string_equal(s, "42");

	assert_int_equal(import_opt_f64(&im, cJSON_GetObjectItem(o, "real"),
					"real", &d), 0);
	assert_true(d == 2.5);
	assert_int_equal(import_opt_f64(&im, NULL, "none", &d), 1);

	assert_int_equal(import_opt_i64(&im, cJSON_GetObjectItem(o, "obj"),
					"obj", 0, &v), -1);
	assert_string_equal(err_get(), "f.json: byte 1234: \"obj\" is an"
			    " object, expected an integer in \"dma\"[7]");
	assert_int_equal(import_need_i64(&im, NULL, "timestamp", &v), -1);
	assert_string_equal(err_get(), "f.json: byte 1234: missing"
			    " \"timestamp\" in \"dma\"[7]");
	assert_int_equal(import_opt_f64(&im, cJSON_GetObjectItem(o, "empty"),
					"empty", &d), -1);
	assert_string_equal(err_get(), "f.json: byte 1234: \"empty\" is a"
			    " string, expected a number in \"dma\"[7]");
	cJSON_Delete(o);
}

/* Empty arrays and negative durations import; the latter are clamped to
 * zero, flagged, and reported once. */
static void test_awkward_ok(void **state)
{
	static const char doc[] =
		"{\"instruction\":[{\"timestamp\":10,\"duration\":-5,"
		"\"label\":\"Vector\",\"opcode\":\"X\"}],\"dma\":[],\"layer_summary\":[]}";
	char *c;

	(void)state;
	c = tu_import(tu_write("neg.json", doc, strlen(doc)));
	assert_non_null(c);
	assert_int_equal(tu_query_int(c, "SELECT dur FROM slice"), 0);
	assert_int_equal(tu_query_int(c, "SELECT flags FROM slice"), 4);
	assert_int_equal(tu_query_int(c, "SELECT count(*) FROM warning WHERE"
				      " message LIKE '%negative duration%'"), 1);
	free(c);
}

static void test_neuron_binary(void **state)
{
	char *path = xstrdup(tu_write("profile.ntff", "\x05\x8a\x5c", 3));

	(void)state;
	assert_null(tu_import(path));
	assert_non_null(strstr(err_get(), "export them first with: neuron-profile"
			       " view --output-format json"));
	free(path);
}

/* The writer keeps times within its range (others are left out and
 * counted in one warning) and stops at WRITER_MAX_TRACKS rows. */
static void test_writer_limits(void **state)
{
	char *cache = xasprintf("%s/limits.nxdb", tu_dir());
	struct wprofile p = { .kind = "device", .format = "neuron-json",
			      .name = "p", .nc_idx = -1 };
	struct writer *w;
	int64_t prof, t;

	(void)state;
	unlink(cache);
	w = writer_open(cache);
	assert_non_null(w);
	prof = writer_profile(w, &p);
	t = writer_track(w, prof, 0, TK_ENGINE, "E", 1);
	assert_int_not_equal(writer_slice(w, t, 5, 10, writer_string(w, "a"), 0,
					  0, 0), 0);
	assert_int_equal(writer_slice(w, t, WRITER_TIME_MAX + 1, 1,
				      writer_string(w, "b"), 0, 0, 0), 0);
	assert_int_equal(writer_slice(w, t, WRITER_TIME_MIN - 1, 1,
				      writer_string(w, "b"), 0, 0, 0), 0);
	/* an end past the range is cut there */
	assert_int_not_equal(writer_slice(w, t, WRITER_TIME_MAX - 5, INT64_MAX,
					  writer_string(w, "c"), 0, 0, 0), 0);
	writer_counter(w, t, WRITER_TIME_MAX + 1, 1.0);
	assert_int_equal(writer_failed(w), 0);
	assert_int_equal(writer_finish(w), 0);
	assert_int_equal(tu_query_int(cache, "SELECT count(*) FROM slice"), 2);
	assert_int_equal(tu_query_int(cache, "SELECT max(ts + dur) FROM slice"),
			 WRITER_TIME_MAX);
	assert_int_equal(tu_query_int(cache, "SELECT flags FROM slice WHERE"
				      " dur = 5"), SF_CLIPPED);
	assert_int_equal(tu_query_int(cache, "SELECT count(*) FROM warning"
				      " WHERE message = '3 event(s) with times"
				      " more than 109 years after or 18 years"
				      " before the time axis'' zero were left"
				      " out'"), 1);
	unlink(cache);
	w = writer_open(cache);
	assert_non_null(w);
	prof = writer_profile(w, &p);
	for (int i = 1; i <= WRITER_MAX_TRACKS; i++)
		assert_int_not_equal(writer_track(w, prof, 0, TK_ENGINE, "E", i), 0);
	assert_int_equal(writer_failed(w), 0);
	assert_int_equal(writer_track(w, prof, 0, TK_ENGINE, "E", 0), 0);
	assert_int_equal(writer_failed(w), 1);
	assert_string_equal(err_get(), "more than 65536 rows in one profile"
			    " (nxtop's limit)");
	writer_abort(w);
	unlink(cache);
	free(cache);
}

static void touch(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fclose(f);
	free(path);
}

/* NAME.parquet and NAME_<digits>.parquet are parts of NAME, in the
 * order of their numbers; DmaPacketAggregated is a table of its own;
 * links, folders, hidden and other files are not tables. */
static void test_parquet_folder(void **state)
{
	char *dir = xasprintf("%s/pqnames", tu_dir());
	char *sub = xasprintf("%s/Sub.parquet", dir);
	char *link = xasprintf("%s/Warning.parquet", dir);
	static const char *const files[] = {
		"Instruction_10.parquet", "Instruction_2.parquet",
		"Instruction.parquet", "DmaPacket_0.parquet",
		"DmaPacketAggregated.parquet", ".Hidden.parquet", "notes.txt",
		"Odd_.parquet", "Summary.parquet.bak",
	};
	struct pqfolder f;
	const struct pqtable *t;

	(void)state;
	assert_int_equal(mkdir(dir, 0700), 0);
	for (size_t i = 0; i < NX_ARRAY_SIZE(files); i++)
		touch(dir, files[i]);
	assert_int_equal(mkdir(sub, 0700), 0);
	assert_int_equal(symlink("/etc/passwd", link), 0);
	assert_int_equal(pqfolder_scan(dir, &f), 0);
	assert_int_equal(f.n, 4);
	t = pqfolder_find(&f, "Instruction");
	assert_non_null(t);
	assert_int_equal(t->nfiles, 3);
	assert_string_equal(pqfolder_base(t->files[0]), "Instruction.parquet");
	assert_string_equal(pqfolder_base(t->files[1]), "Instruction_2.parquet");
	assert_string_equal(pqfolder_base(t->files[2]), "Instruction_10.parquet");
	t = pqfolder_find(&f, "DmaPacket");
	assert_non_null(t);
	assert_int_equal(t->nfiles, 1);
	assert_string_equal(pqfolder_base(t->files[0]), "DmaPacket_0.parquet");
	assert_non_null(pqfolder_find(&f, "DmaPacketAggregated"));
	assert_non_null(pqfolder_find(&f, "Odd_"));
	assert_null(pqfolder_find(&f, "Warning"));
	assert_null(pqfolder_find(&f, "Sub"));
	assert_true(pqfolder_is_device(dir));
	pqfolder_free(&f);
	free(dir);
	free(sub);
	free(link);
}

/* A Parquet table of one row: start_ts as text ts (NULL: an integer),
 * duration_ns dur (-1: null). */
static void write_table(const char *dir, const char *name, const char *ts,
			int64_t dur)
{
	const struct pqw_field fields[] = {
		{ "start_ts", ts ? PQW_STRING : PQW_INT64, 0 },
		{ "duration_ns", PQW_INT64, 1 },
		{ "engine", PQW_STRING, 0 }, { "queue_name", PQW_STRING, 0 },
	};
	char *path = xasprintf("%s/%s.parquet", dir, name);
	struct pqw *w = pqw_open(path, fields, 4, PQW_UNCOMPRESSED, 16);

	assert_non_null(w);
	if (ts)
		pqw_str(w, 0, ts);
	else
		pqw_i64(w, 0, 100);
	if (dur < 0)
		pqw_null(w, 1);
	else
		pqw_i64(w, 1, dur);
	pqw_str(w, 2, "Tensor");
	pqw_str(w, 3, "qSyncIO0");
	assert_int_equal(pqw_row(w), 0);
	assert_int_equal(pqw_close(w), 0);
	free(path);
}

/* A bad value in a Parquet table is said with the table's column, not
 * the JSON export's field it is read as (start_ts, not timestamp). */
static void test_parquet_column_names(void **state)
{
	char *dir = xasprintf("%s/pqcolumns", tu_dir()), *cache, *msg;

	(void)state;
	assert_int_equal(mkdir(dir, 0700), 0);
	write_table(dir, "Instruction", NULL, 5);
	write_table(dir, "DmaPacket", "soon", 5);
	write_table(dir, "DmaPacketAggregated", NULL, -1);
	cache = tu_import(dir);
	assert_non_null(cache);
	msg = tu_query_text(cache, "SELECT group_concat(message, '|') FROM"
			    " (SELECT message FROM warning WHERE origin ="
			    " 'import' AND message LIKE '%left out%'"
			    " ORDER BY message)");
	assert_non_null(msg);
	assert_non_null(strstr(msg, "/DmaPacket.parquet: row 0: \"start_ts\""
			       " is a string, expected an integer (the"
			       " DmaPacket table is left out)"));
	assert_non_null(strstr(msg, "/DmaPacketAggregated.parquet: row 0:"
			       " missing \"duration_ns\" (the"
			       " DmaPacketAggregated table is left out)"));
	free(msg);
	free(cache);
	free(dir);
}

/* A system folder's events: one row whose start_ts is text ts, or null
 * (NULL). */
static char *write_events(const char *name, const char *ts)
{
	const struct pqw_field fields[] = {
		{ "start_ts", ts ? PQW_STRING : PQW_INT64, 1 },
		{ "duration_ns", PQW_INT64, 0 }, { "name", PQW_STRING, 0 },
	};
	char *dir = xasprintf("%s/%s", tu_dir(), name);
	char *path = xasprintf("%s/SystemProfileEvents.parquet", dir);
	struct pqw *w;

	assert_int_equal(mkdir(dir, 0700), 0);
	w = pqw_open(path, fields, 3, PQW_UNCOMPRESSED, 16);
	assert_non_null(w);
	if (ts)
		pqw_str(w, 0, ts);
	else
		pqw_null(w, 0);
	pqw_i64(w, 1, 5);
	pqw_str(w, 2, "nrt_execute");
	assert_int_equal(pqw_row(w), 0);
	assert_int_equal(pqw_close(w), 0);
	free(path);
	return dir;
}

/* So is a bad value of a system folder's events, which stops its
 * import. */
static void test_parquet_event_names(void **state)
{
	char *dir;

	(void)state;
	dir = write_events("pqevents", "soon");
	assert_null(tu_import(dir));
	if (!strstr(err_get(), "\"start_ts\" is a string, expected an"))
		fail_msg("%s", err_get());
	free(dir);
	dir = write_events("pqevents_null", NULL);
	assert_null(tu_import(dir));
	if (!strstr(err_get(), "missing \"start_ts\""))
		fail_msg("%s", err_get());
	free(dir);
}

/* A source of total bytes, byte i being i * 7 mod 251, in reads of
 * uneven sizes; then an error or the end. */
struct source {
	size_t total, pos, reads;
	int fail;
};

static long source_read(void *ctx, void *buf, size_t len)
{
	struct source *s = ctx;
	size_t n = NX_MIN(len, s->total - s->pos);

	n = NX_MIN(n, 1 + (s->reads++ * 7919) % 300000);
	if (!n && s->fail) {
		err_set("source failed at %zu", s->pos);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		((unsigned char *)buf)[i] = (unsigned char)((s->pos + i) * 7 % 251);
	s->pos += n;
	return (long)n;
}

/* Reads the stream in pieces of uneven sizes; returns the last result. */
static long drain(struct readahead *ra, size_t total)
{
	unsigned char buf[5000];
	size_t got = 0, k = 0;
	long n;

	while ((n = readahead_read(ra, buf, 1 + (k++ * 131) % sizeof(buf))) > 0) {
		for (long i = 0; i < n; i++)
			assert_int_equal(buf[i], (got + (size_t)i) * 7 % 251);
		got += (size_t)n;
	}
	assert_int_equal(got, total);
	/* the end or the error stays */
	assert_int_equal(readahead_read(ra, buf, sizeof(buf)), n);
	return n;
}

static void test_readahead(void **state)
{
	struct source ok = { .total = 9u << 20 }, bad = { .total = 3333333,
							  .fail = 1 };
	struct source early = { .total = 50u << 20 };
	struct readahead *ra;
	char one;

	(void)state;
	ra = readahead_start(source_read, &ok);
	assert_int_equal(drain(ra, ok.total), 0);
	assert_ptr_equal(readahead_stop(ra), &ok);
	ra = readahead_start(source_read, &bad);
	assert_int_equal(drain(ra, bad.total), -1);
	assert_string_equal(err_get(), "source failed at 3333333");
	readahead_stop(ra);
	/* stopped before the end: the thread does not wait on the reader */
	ra = readahead_start(source_read, &early);
	assert_int_equal(readahead_read(ra, &one, 1), 1);
	readahead_stop(ra);
	assert_true(early.pos < early.total);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_tracks),
		cmocka_unit_test(test_exact_ids),
		cmocka_unit_test(test_strings_as_numbers),
		cmocka_unit_test(test_whole_decimals),
		cmocka_unit_test(test_key_order),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_same_words),
		cmocka_unit_test(test_field_getters),
		cmocka_unit_test(test_awkward_ok),
		cmocka_unit_test(test_neuron_binary),
		cmocka_unit_test(test_writer_limits),
		cmocka_unit_test(test_parquet_folder),
		cmocka_unit_test(test_parquet_column_names),
		cmocka_unit_test(test_parquet_event_names),
		cmocka_unit_test(test_readahead),
		cmocka_unit_test(test_hlo_cap),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
