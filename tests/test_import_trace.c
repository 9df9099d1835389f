/* Perfetto and Chrome trace-event JSON import: each fixture is imported
 * into a cache and its rows are compared with what the format means.
 * The Perfetto fixtures are written first by tests/mkpftrace (found
 * beside this program) into the scratch folder; the JSON ones are in
 * tests/fixtures. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "model/model.h"
#include "model/summary.h"
#include "model/text.h"
#include "model/util.h"
#include "src/import/import.h"
#include "tests/testutil.h"

static char *fixture(const char *name)
{
	if (strstr(name, ".pftrace"))
		return xasprintf("%s/%s", tu_dir(), name);
	return tu_fixture(name);
}

/* Imports a fixture into a fresh cache and opens it. */
static sqlite3 *import(const char *name, char **cache_out)
{
	struct import_opts o = { .quiet = 1, .force = 1 };
	char *in = fixture(name);
	char *cache = xasprintf("%s/%s.nxdb", tu_dir(), name);
	sqlite3 *db = NULL;

	unlink(cache);
	if (import_build(in, cache, &o))
		fail_msg("import of %s failed: %s", name, err_get());
	assert_int_equal(sqlite3_open_v2(cache, &db, SQLITE_OPEN_READONLY, NULL),
			 SQLITE_OK);
	free(in);
	if (cache_out)
		*cache_out = cache;
	else
		free(cache);
	return db;
}

/* Rows of a query as "a|b|c" lines. */
static char *rows(sqlite3 *db, const char *sql)
{
	struct strbuf sb;
	sqlite3_stmt *st;

	sb_init(&sb);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	while (sqlite3_step(st) == SQLITE_ROW) {
		for (int i = 0; i < sqlite3_column_count(st); i++) {
			const char *v = (const char *)sqlite3_column_text(st, i);

			sb_printf(&sb, "%s%s", i ? "|" : "", v ? v : "");
		}
		sb_addc(&sb, '\n');
	}
	sqlite3_finalize(st);
	return sb_detach(&sb);
}

static void expect(sqlite3 *db, const char *sql, const char *want)
{
	char *got = rows(db, sql);

	if (strcmp(got, want)) {
		print_error("query: %s\nwant:\n%sgot:\n%s", sql, want, got);
		free(got);
		fail();
	}
	free(got);
}

#define TRACKS "SELECT coalesce(p.name, ''), t.kind, t.name FROM track t" \
	" LEFT JOIN track p ON p.id = t.parent_id ORDER BY t.sort_key, t.id"
#define SLICES "SELECT t.name, s.ts, s.dur, n.str, coalesce(c.str, ''), s.depth," \
	" s.flags, coalesce(a.args, '') FROM slice s JOIN track t ON t.id = s.track_id" \
	" JOIN string n ON n.id = s.name LEFT JOIN string c ON c.id = s.cat" \
	" LEFT JOIN arg a ON a.slice_id = s.id ORDER BY t.sort_key, s.ts, s.id"
#define COUNTERS "SELECT t.name, c.ts, c.value FROM counter c JOIN track t" \
	" ON t.id = c.track_id ORDER BY t.sort_key, c.ts"
#define WARNINGS "SELECT message FROM warning ORDER BY id"
#define FLOWS "SELECT f.flow_id, a.str, o.ts, b.str, i.ts FROM flow f" \
	" JOIN slice o ON o.id = f.slice_out JOIN slice i ON i.id = f.slice_in" \
	" JOIN string a ON a.id = o.name JOIN string b ON b.id = i.name" \
	" ORDER BY f.id"
/* Unpaired ends: the flow id and the name of the end that came. */
#define UNPAIRED "SELECT f.flow_id, coalesce(a.str, '-'), coalesce(b.str, '-')" \
	" FROM flow f LEFT JOIN slice o ON o.id = f.slice_out" \
	" LEFT JOIN slice i ON i.id = f.slice_in LEFT JOIN string a ON a.id = o.name" \
	" LEFT JOIN string b ON b.id = i.name WHERE o.id IS NULL OR i.id IS NULL" \
	" ORDER BY f.id"
#define PROFILE "SELECT kind, format, name, start_ns, end_ns, epoch FROM profile"

/* Nested begin/end slices get their depths; an end without a begin is
 * ignored and reported; a begin without an end closes at the trace end,
 * flagged. */
static void test_nested(void **state)
{
	sqlite3 *db = import("nested.pftrace", NULL);

	(void)state;
	expect(db, TRACKS, "|group|Proc 100\nProc 100|thread|Main 101\n");
	expect(db, SLICES,
	       "Main 101|1000|500|outer||0|0|\n"
	       "Main 101|1100|300|middle||1|0|\n"
	       "Main 101|1200|100|inner||2|0|\n"
	       "Main 101|1250|0|tick||3|2|\n"
	       "Main 101|1700|300|open||0|1|\n"
	       "Main 101|2000|0|last||1|2|\n");
	expect(db, WARNINGS, "1 slice end(s) without a begin were ignored\n");
	sqlite3_close(db);
}

/* Interned names, categories and annotation names; a reset changes what
 * an iid means; after a lost packet, packets needing the state are
 * skipped until the next reset, self-contained ones kept (rather than
 * every packet of the sequence skipped); an event naming an iid never
 * defined gets a placeholder name and a warning. */
static void test_interned(void **state)
{
	sqlite3 *db = import("interned.pftrace", NULL);

	(void)state;
	expect(db, SLICES,
	       "T 201|1000|1000|alpha|cat.a|0|0|{\"key\":42}\n"
	       "T 201|3000|0|beta||0|2|\n"
	       "T 201|4200|0|whole||0|2|\n"
	       "T 201|5000|0|(unknown name iid 77)||0|2|\n");
	expect(db, WARNINGS, "2 packet(s) needing interned data that was lost"
	       " were skipped\n1 event(s) naming an interned name that was"
	       " never defined were named (unknown name iid N)\n");
	sqlite3_close(db);
}

/* An incremental µs clock of one sequence and BOOTTIME both land on the
 * trace clock (MONOTONIC) through snapshots; a time past INT64_MAX ns is
 * none, not a negative one. */
static void test_clocks(void **state)
{
	sqlite3 *db = import("clocks.pftrace", NULL);

	(void)state;
	expect(db, SLICES,
	       "T 301|2000|0|unrelated||0|2|\n"
	       "T 301|1010000|5000|delta||0|0|\n"
	       "T 301|1020000|0|boot||0|2|\n"
	       "T 301|1030000|0|after||0|2|\n");
	expect(db, WARNINGS, "2 track event(s) without a usable timestamp were"
	       " skipped\n1 timestamp(s) in a clock no snapshot relates to the"
	       " trace clock were used as they are\n");
	sqlite3_close(db);
}

/* Re-emitted descriptors make one row each; the last name wins. */
static void test_duplicates(void **state)
{
	sqlite3 *db = import("duplicates.pftrace", NULL);

	(void)state;
	expect(db, TRACKS, "|group|Dup 400\nDup 400|thread|Worker 401\n"
	       "Dup 400|async|Async\n");
	expect(db, "SELECT count(*) FROM slice", "3\n");
	sqlite3_close(db);
}

/* Counter values: int, double, a unit multiplier, incremental (a NaN
 * among them left out and said, not poisoning the sum), and extra
 * values riding on a slice (thread time skipped); units; counters of one
 * name on two threads; a state track. */
static void test_counters(void **state)
{
	sqlite3 *db = import("counters.pftrace", NULL);

	(void)state;
	expect(db, COUNTERS,
	       "mem|1000|3072.0\nratio|1000|0.25\n"
	       "total|1000|10.0\ntotal|2000|20.0\ntotal|3000|30.0\n"
	       "extra|2000|5.0\ncpu|4000|15.0\ncpu|4000|16.0\n");
	expect(db, WARNINGS, "1 counter value(s) that are no finite number"
	       " (NaN or infinity) were left out\n");
	expect(db, "SELECT t.name, s.ts, s.dur, n.str, s.flags FROM slice s"
	       " JOIN track t ON t.id = s.track_id JOIN string n ON n.id = s.name"
	       " WHERE t.name = 'power' ORDER BY s.ts",
	       "power|1000|500|idle|0\npower|1500|1000|busy|0\n"
	       "power|2500|1500|idle|1\n");
	expect(db, "SELECT count(*) FROM track WHERE name = 'thread_time'",
	       "0\n");
	expect(db, "SELECT name, coalesce(unit, '-') FROM track WHERE kind ="
	       " 'counter' ORDER BY sort_key", "mem|B\nratio|-\ntotal|count\n"
	       "extra|-\ncpu|-\ncpu|-\n");
	sqlite3_close(db);
}

/* Slices and instants with no track and on a process's own track go to
 * the rows "Global events" and "Process events", of kind instant as in
 * Chrome JSON: neither threads nor async rows. */
static void test_scopes(void **state)
{
	sqlite3 *db = import("scopes.pftrace", NULL);

	(void)state;
	expect(db, TRACKS, "|instant|Global events\n|group|Process 700\n"
	       "Process 700|thread|Main 701\nProcess 700|instant|Process events\n");
	expect(db, SLICES,
	       "Global events|2000|500|boot||0|0|\n"
	       "Global events|2100|0|ping||1|2|\n"
	       "Main 701|1000|200|work||0|0|\n"
	       "Process events|1100|400|load||0|0|\n"
	       "Process events|1300|0|mark||1|2|\n");
	sqlite3_close(db);
}

/* Events without a type: legacy phases on a legacy thread descriptor's
 * thread, and an explicit track 0 on the global row; tids are 64-bit,
 * so a thread whose tid has the same low 32 bits is another one. */
static void test_legacy(void **state)
{
	sqlite3 *db = import("legacy.pftrace", NULL);

	(void)state;
	expect(db, TRACKS, "|instant|Global events\n|group|Legacy 600\n"
	       "Legacy 600|thread|Old 601\n"
	       "Legacy 600|thread|Wide 4294967897\n");
	expect(db, SLICES,
	       "Global events|3600|0|sample||0|2|\n"
	       "Old 601|1000|1000|lb||0|0|\n"
	       "Old 601|3000|2000|lx||0|0|\n"
	       "Old 601|3500|0|mark||1|2|\n"
	       "Wide 4294967897|500|0|wide||0|2|\n");
	sqlite3_close(db);
}

/* Bytes that are not UTF-8, controls and NULs are kept, args stay valid
 * JSON, and what reaches the screen is clean. */
static void test_utf8(void **state)
{
	sqlite3 *db = import("utf8.pftrace", NULL);
	char *name = rows(db, "SELECT name FROM track WHERE kind = 'thread'");
	char *clean = text_clean(name);

	(void)state;
	assert_non_null(strchr(name, '\x1b'));
	assert_null(strchr(clean, '\x1b'));
	expect(db, "SELECT json_valid(args), args = '{\"blob\":\"ok\\u0000'"
	       " || char(65533, 65533) || '\\u0001zz\",\"k' || char(65533)"
	       " || '\":\"v\"}' FROM arg", "1|1\n");
	expect(db, "SELECT hex(str) FROM string WHERE str LIKE 'n%'",
	       "6EC32878\n");
	free(name);
	free(clean);
	sqlite3_close(db);
}

/* Packets inside a deflate bundle are read like the others. */
static void test_compressed(void **state)
{
	sqlite3 *db = import("compressed.pftrace", NULL);

	(void)state;
	expect(db, SLICES, "T 801|1000|1000|zipped||0|0|\n"
	       "T 801|3000|0|plain||0|2|\n");
	sqlite3_close(db);
}

/* A bundle inside a bundle is skipped, with a warning naming the
 * packet that held it; the rest of the outer bundle is read. */
static void test_bundle_in_bundle(void **state)
{
	sqlite3 *db = import("bundle_in_bundle.pftrace", NULL);

	(void)state;
	expect(db, SLICES, "T 801|1000|0|outer||0|2|\n"
	       "T 801|3000|0|plain||0|2|\n");
	expect(db, "SELECT origin, category, message FROM warning",
	       "import|Import|1 compressed packet bundle(s) inside another"
	       " compressed bundle were skipped, the first in \"packet\"[1]"
	       " at byte 19: nxtop reads bundles one level deep, as Perfetto"
	       " writes them\n");
	sqlite3_close(db);
}

/* Flow ids link slices across threads; 64-bit ids stay exact; an id
 * named once is kept as an unpaired end; legacy events' bind_id links
 * them by their flow direction, apart from the flow ids. */
static void test_flows(void **state)
{
	sqlite3 *db = import("flows.pftrace", NULL);

	(void)state;
	expect(db, FLOWS, "18369614221190020847|send|1000|recv|2000\n"
	       "18369614221190020847|lout|4000|lstep|4500\n"
	       "18369614221190020847|lstep|4500|lin|5000\n");
	expect(db, UNPAIRED, "9|-|late\n7|lonely|-\n");
	sqlite3_close(db);
}

/* Neuron device tracks become the JSON importer's engine, queue and
 * counter rows, with typed instruction and DMA fields. */
static void test_neuron_device(void **state)
{
	char *cache;
	sqlite3 *db = import("neuron_device.pftrace", &cache);
	struct summary s;
	struct model *m;

	(void)state;
	expect(db, TRACKS,
	       "|group|Engines\nEngines|engine|TensorMatrix\nEngines|engine|Tensor\n"
	       "|group|DMA queues\nDMA queues|dma|qSyncSpillReload0\n"
	       "DMA queues|dma|DMA Engine 64\n|group|Counters\n"
	       "Counters|counter|DMA throughput\nCounters|counter|Pending DMA\n");
	expect(db, "SELECT i.id, i.operands, h.str, l.str, i.pc FROM instruction i"
	       " LEFT JOIN string h ON h.id = i.hlo_name"
	       " LEFT JOIN string l ON l.id = i.layer ORDER BY i.slice_id",
	       "-7090796317168725471|S[5] (Tensor)++@complete 128*1|"
	       "%dot.3 = dot(%p0, %p1)|_dot.3|\n"
	       "10463205956802632105||||15013\n"
	       "||||\n");
	expect(db, "SELECT q.str, d.transfer_size FROM dma_packet d"
	       " JOIN string q ON q.id = d.queue ORDER BY d.slice_id",
	       "qSyncSpillReload0|2048\nDMA Engine 64|64\n");
	expect(db, PROFILE "", "device|pftrace|neuron_device.pftrace|1067|2398383|0\n");
	m = model_open(cache);
	assert_non_null(m);
	assert_int_equal(summary_compute(m, 1, &s), 0);
	assert_int_equal(s.eng[ENG_TENSOR].count, 3);
	assert_int_equal(s.n_packets, 2);
	summary_free(&s);
	model_close(m);
	free(cache);
	sqlite3_close(db);
}

/* Neuron system rows: runtime and hardware kinds, typed fields, the
 * device profile link, epoch time. */
static void test_neuron_system(void **state)
{
	sqlite3 *db = import("neuron_system.pftrace", NULL);

	(void)state;
	expect(db, TRACKS, "|group|i-0f207fb2a99bd2d08-pid200370\n"
	       "i-0f207fb2a99bd2d08-pid200370|nrt|gid33-nc1-tid3-neuron_rt\n"
	       "i-0f207fb2a99bd2d08-pid200370|hw|gid33-nc1-tid3-neuron_hw\n");
	expect(db, "SELECT e.id, src.str, inst.str, e.nc_idx, e.worker_gid,"
	       " dp.str FROM sys_event e JOIN string src ON src.id = e.source"
	       " LEFT JOIN string inst ON inst.id = e.instance_id"
	       " LEFT JOIN string dp ON dp.id = e.device_profile ORDER BY e.slice_id",
	       "3377699720529031|neuron_rt|i-0f207fb2a99bd2d08|3|35|"
	       "device_profile_model_1578576049.pftrace\n"
	       "|neuron_hw||||\n");
	expect(db, "SELECT kind, epoch FROM profile", "system|1\n");
	sqlite3_close(db);
}

/* The same trace as Perfetto and as Chrome JSON gives the same rows. */
static void test_same(void **state)
{
	sqlite3 *a = import("same.pftrace", NULL);
	sqlite3 *b = import("trace_same.json", NULL);
	const char *const queries[] = { TRACKS, SLICES, COUNTERS };

	(void)state;
	for (size_t i = 0; i < NX_ARRAY_SIZE(queries); i++) {
		char *x = rows(a, queries[i]), *y = rows(b, queries[i]);

		if (strcmp(x, y))
			fail_msg("pftrace:\n%sjson:\n%s", x, y);
		free(x);
		free(y);
	}
	expect(a, SLICES,
	       "Main 11|1000000|500000|A|cat1|0|0|\n"
	       "Main 11|1100500|99750|B|cat1|1|0|\n"
	       "Main 11|1250000|0|mark||1|2|\n"
	       "Main 11|1300000|100000|C||1|0|\n"
	       "IO 12|1050000|550000|D||0|0|{\"x\":1,\"s\":\"hi\"}\n"
	       "IO 12|1700000|0|open||0|1|\n");
	sqlite3_close(a);
	sqlite3_close(b);
}

/* Every phase of Chrome JSON, out of order: metadata names and order,
 * X, B/E with merged args, an unterminated B and a stray E (which makes
 * no row for its thread), instants of each scope,
 * counters with several series, async events by id, id2 and category,
 * flows with both bindings, skipped phases. */
static void test_chrome_phases(void **state)
{
	sqlite3 *db = import("chrome_phases.json", NULL);

	(void)state;
	expect(db, TRACKS,
	       "|instant|Global events\n|group|GPU 2\nGPU 2|thread|Thread 9\n"
	       "GPU 2|async|Frame\n|group|Renderer 1\n"
	       "Renderer 1|thread|Compositor 5\n"
	       "Renderer 1|thread|Thread 4\nRenderer 1|instant|Process events\n"
	       "Renderer 1|counter|Heap used\nRenderer 1|counter|Heap free\n"
	       "Renderer 1|counter|Heap 7\nRenderer 1|async|Load\n"
	       "Renderer 1|async|Never\nRenderer 1|async|Frame\n");
	expect(db, SLICES,
	       "Global events|140000|0|global instant||0|2|\n"
	       "Thread 9|290000|20000|Draw||0|0|\n"
	       "Frame|50000|20000|Frame|gpu|0|0|\n"
	       "Compositor 5|10000|20000|Outer||0|0|{\"begin\":1,\"end\":true}\n"
	       "Compositor 5|20000|5000|Nested||1|0|\n"
	       "Compositor 5|200000|110000|Unterminated||0|1|\n"
	       "Thread 4|100000|50000|Task|toplevel|0|0|"
	       "{\"big\":12345678901234567890}\n"
	       "Thread 4|110001|10001|Inner||1|0|\n"
	       "Thread 4|120000|0|thread instant||2|2|\n"
	       "Process events|130000|0|process instant||0|2|\n"
	       "Load|100000|60000|Load|net|0|0|{\"status\":200}\n"
	       "Load|120000|0|progress|net|1|2|\n"
	       "Load|130000|10000|Parse|net|1|0|\n"
	       "Never|170000|140000|Never|x|0|1|\n"
	       "Frame|55000|255000|Frame|gpu|0|1|\n");
	expect(db, COUNTERS, "Heap used|100000|10.0\nHeap free|100000|20.0\n"
	       "Heap 7|150000|3.0\n");
	expect(db, FLOWS, "1|Task|100000|Unterminated|200000\n"
	       "1|Unterminated|200000|Draw|290000\n"
	       "2|Inner|110001|Draw|290000\n");
	expect(db, WARNINGS,
	       "2 event(s) of phase O, P skipped (not imported)\n"
	       "2 end event(s) without a begin were ignored\n"
	       "1 flow step(s) without a start were kept as unpaired ends\n");
	expect(db, UNPAIRED, "3|-|Inner\n");
	expect(db, "SELECT section, key, value FROM info ORDER BY 1, 2",
	       "metadata|clock-domain|LINUX_CLOCK_MONOTONIC\n"
	       "metadata|num-cpus|8\ntrace|displayTimeUnit|ns\n");
	sqlite3_close(db);
}

/* Chrome flow ids as the file gives them: numbers (negative, "010" in
 * decimal, "0x1f" in hex) stored as integers, any other text (an id,
 * an id2 member, a bind_id) kept as text, steps of the same text
 * linked as numbers are; only a step with no id leaves none. */
static void test_chrome_flow_ids(void **state)
{
	sqlite3 *db = import("chrome_flow_ids.json", NULL);

	(void)state;
	expect(db, "SELECT coalesce(f.flow_id, '-'), typeof(f.flow_id),"
	       " coalesce(a.str, '-'), coalesce(b.str, '-') FROM flow f"
	       " LEFT JOIN slice o ON o.id = f.slice_out"
	       " LEFT JOIN slice i ON i.id = f.slice_in"
	       " LEFT JOIN string a ON a.id = o.name"
	       " LEFT JOIN string b ON b.id = i.name ORDER BY f.id",
	       "-|null|send|-\n-5|integer|send|recv\n10|integer|send|recv\n"
	       "31|integer|send|recv\n0xZZ|text|send|-\nabc|text|send|recv\n"
	       "g:1|text|send|recv\njob 7|text|post|run\n");
	sqlite3_close(db);
}

/* Fractional µs become exact ns, also where a double would round; string
 * pids and tids; wall-clock times mark the profile as epoch. */
static void test_chrome_epoch(void **state)
{
	sqlite3 *db = import("chrome_epoch.json", NULL);

	(void)state;
	expect(db, SLICES,
	       "Thread worker 1|1729888371056597613|1|step||0|0|\n"
	       "Thread worker 1|1729888371056598000|3|sci||0|0|\n");
	expect(db, "SELECT epoch FROM profile", "1\n");
	sqlite3_close(db);
}

/* A gzip-compressed bare array, numbers and strings for ids alike. */
static void test_chrome_gzip(void **state)
{
	sqlite3 *db = import("chrome_array.json.gz", NULL);

	(void)state;
	expect(db, SLICES, "Thread 1|1000|2000|gz||0|0|\n"
	       "Thread 1|1500|1000|b||1|0|\n");
	sqlite3_close(db);
}

/* Slices of equal start and end nest in file order: the one begun
 * first is the parent, though it ends last. B/E on a thread (two, three
 * and zero-length ones, two with an instant between their ends), begins
 * never ended, async slices ended together and one closed by its
 * parent's end; X before B, B before X, X and B in turn, X after X; an
 * async instant after a begin ended at once. */
static void test_chrome_ties(void **state)
{
	sqlite3 *db = import("chrome_ties.json", NULL);

	(void)state;
	expect(db, "SELECT t.name, n.str, s.ts, s.dur, s.depth,"
	       " coalesce(pn.str, ''), s.flags FROM slice s"
	       " JOIN track t ON t.id = s.track_id JOIN string n ON n.id = s.name"
	       " LEFT JOIN slice p ON p.id = s.parent_id"
	       " LEFT JOIN string pn ON pn.id = p.name"
	       " ORDER BY t.sort_key, s.ts, s.depth",
	       "Thread 7|x|10000|10000|0||0\n"
	       "Thread 7|b|10000|10000|1|x|0\n"
	       "Thread 9|b9|10000|10000|0||0\n"
	       "Thread 9|x9|10000|10000|1|b9|0\n"
	       "Thread 9|c9|10000|10000|2|x9|0\n"
	       "Thread 9|y9|10000|10000|3|c9|0\n"
	       "Thread 10|p10|10000|10000|0||0\n"
	       "Thread 10|q10|10000|10000|1|p10|0\n"
	       "Thread 10|r10|10000|10000|2|q10|0\n"
	       "Thread 11|m11|10000|10000|0||0\n"
	       "Thread 11|n11|10000|10000|1|m11|0\n"
	       "Thread 12|v1|10000|10000|0||0\n"
	       "Thread 12|v2|10000|10000|1|v1|0\n"
	       "Thread 12|vi|20000|0|2|v2|2\n"
	       "Thread 8|tail|100000|10000|0||0\n"
	       "Thread 3|r1|10000|10000|0||0\n"
	       "Thread 3|r2|10000|10000|1|r1|0\n"
	       "Thread 4|a1|10000|20000|0||0\n"
	       "Thread 4|a2|10000|20000|1|a1|0\n"
	       "Thread 4|a3|10000|20000|2|a2|0\n"
	       "Thread 5|z1|5000|0|0||0\n"
	       "Thread 5|z2|5000|0|1|z1|0\n"
	       "Thread 6|u1|40000|70000|0||1\n"
	       "Thread 6|u2|40000|70000|1|u1|1\n"
	       "s1|s1|50000|10000|0||0\n"
	       "s1|s2|50000|10000|1|s1|0\n"
	       "o1|o1|70000|10000|0||0\n"
	       "o1|o2|70000|10000|1|o1|1\n"
	       "k1|k1|90000|0|0||0\n"
	       "k1|kn|90000|0|1|k1|2\n");
	sqlite3_close(db);
}

/* Runs the fixture writer that sits beside this program. */
static int write_fixtures(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');
	char *cmd = xasprintf("'%.*s%smkpftrace' '%s'",
			      slash ? (int)(slash - argv0) : 1,
			      slash ? argv0 : ".", "/", tu_dir());
	int rc = system(cmd);

	free(cmd);
	return rc;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nested),
		cmocka_unit_test(test_interned),
		cmocka_unit_test(test_clocks),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_scopes),
		cmocka_unit_test(test_legacy),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_bundle_in_bundle),
		cmocka_unit_test(test_flows),
		cmocka_unit_test(test_neuron_device),
		cmocka_unit_test(test_neuron_system),
		cmocka_unit_test(test_same),
		cmocka_unit_test(test_chrome_phases),
		cmocka_unit_test(test_chrome_flow_ids),
		cmocka_unit_test(test_chrome_epoch),
		cmocka_unit_test(test_chrome_gzip),
		cmocka_unit_test(test_chrome_ties),
	};

	(void)argc;
	if (write_fixtures(argv[0])) {
		fprintf(stderr, "test_import_trace: tests/mkpftrace failed\n");
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
