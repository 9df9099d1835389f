/* System profiles (FORMATS.md §1.4): every section lands where it should,
 * numbers as strings, epoch-ns times exact, nesting from events in any
 * order, dropped-event warnings flagged; filters; bundles with a missing
 * device file and hostile device names (../, an absolute path, a link
 * out); flows from flow_id lists; view-time grouping; drilldown from a system event to its device
 * profile and the execution's place in system time. */
#include "config.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/cache/cache.h"
#include "model/drill.h"
#include "model/model.h"
#include "model/syssummary.h"
#include "model/sysrows.h"
#include "model/util.h"
#include "src/import/bundle.h"
#include "src/import/import.h"
#include "src/import/sysfilter.h"
#include "tests/testutil.h"

static char *cache;		/* system_small.json alone */
static char *bundle_dir, *bundle_cache;

/* T0: the fixture's times are this plus a few ms. */
#define T0 INT64_C(1729888371000000000)

static int64_t q(const char *db, const char *sql)
{
	return tu_query_int(db, sql);
}

static char *qs(const char *db, const char *sql)
{
	return tu_query_text(db, sql);
}

static void copy(const char *from, const char *to, const char *sed_from,
		 const char *sed_to)
{
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	struct strbuf sb;
	char buf[4096];
	size_t n;

	assert_non_null(in);
	assert_non_null(out);
	sb_init(&sb);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		sb_add(&sb, buf, n);
	sb_cstr(&sb);
	for (char *p = sb.buf; sed_from && (p = strstr(p, sed_from)); ) {
		fwrite(sb.buf, 1, (size_t)(p - sb.buf), out);
		fputs(sed_to, out);
		memmove(sb.buf, p + strlen(sed_from),
			strlen(p + strlen(sed_from)) + 1);
		p = sb.buf;
	}
	fputs(sb.buf, out);
	fclose(in);
	fclose(out);
	sb_free(&sb);
}

static void copy_fixture(const char *name, const char *to)
{
	char *from = tu_fixture(name);

	copy(from, to, NULL, NULL);
	free(from);
}

/* A bundle folder: the fixture as system_profile.json, one device file
 * by its listed name, one found by its name pattern (NeuronCore 1), one
 * listed file missing, and a link to a device profile outside. */
static void make_bundle(void)
{
	char *sys = tu_fixture("system_small.json");
	char *dev = tu_fixture("device_small.json");
	char *p;

	bundle_dir = xasprintf("%s/bundle", tu_dir());
	mkdir(bundle_dir, 0700);
	p = xasprintf("%s/system_profile.json", bundle_dir);
	copy(sys, p, NULL, NULL);
	free(p);
	p = xasprintf("%s/device_profile_model_1578576049.json", bundle_dir);
	copy(dev, p, NULL, NULL);
	free(p);
	p = xasprintf("%s/i-0f207fb2a99bd2d08_pid_1627711_nc_1_model_"
		      "446048307616134.json", bundle_dir);
	copy(dev, p, "\"nc_idx\":0", "\"nc_idx\":1");
	free(p);
	p = xasprintf("%s/outside.json", tu_dir());
	copy(dev, p, NULL, NULL);
	free(p);
	p = xasprintf("%s/linked_out.json", bundle_dir);
	assert_int_equal(symlink("../outside.json", p), 0);
	free(p);
	free(sys);
	free(dev);
}

static int setup(void **state)
{
	char *path = tu_fixture("system_small.json");
	struct import_opts o = { .quiet = 1 };

	(void)state;
	cache = tu_import(path);
	free(path);
	if (!cache)
		fail_msg("import: %s", err_get());
	make_bundle();
	bundle_cache = xasprintf("%s/bundle.nxdb", tu_dir());
	if (import_build(bundle_dir, bundle_cache, &o))
		fail_msg("bundle: %s", err_get());
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(cache);
	free(bundle_dir);
	free(bundle_cache);
	return 0;
}

static void test_profile(void **state)
{
	(void)state;
	assert_int_equal(q(cache, "SELECT count(*) FROM profile WHERE kind='system'"
			 " AND format='neuron-system-json' AND epoch=1 AND id=1"), 1);
	/* the extent from system_profile_metadata's string first/last_ts_ns */
	assert_int_equal(q(cache, "SELECT start_ns FROM profile WHERE id=1"),
			 INT64_C(1729888370999000000));
	assert_int_equal(q(cache, "SELECT end_ns FROM profile WHERE id=1"),
			 INT64_C(1729888371004000000));
	assert_int_equal(q(cache, "SELECT count(*) FROM slice s JOIN track t"
			 " ON t.id = s.track_id WHERE t.profile_id = 1"), 10);
	assert_int_equal(q(cache, "SELECT count(*) FROM info WHERE"
			 " section='system_profile_metadata' AND key='ntff_version'"
			 " AND value=5"), 1);
	assert_int_equal(q(cache, "SELECT count(*) FROM info WHERE"
			 " section='device_profile_list'"
			 " AND key='device_profile_name'"), 5);
}

static void test_events(void **state)
{
	char *s;

	(void)state;
	/* epoch ns exact: a tagged big integer and a string */
	assert_int_equal(q(cache, "SELECT ts FROM slice s JOIN string n ON"
			 " n.id = s.name WHERE n.str = 'nrt_tensor_write'"),
			 T0 + 56597);
	/* "duration": "500000" and "timestamp": "1729888371000100000" */
	assert_int_equal(q(cache, "SELECT dur FROM slice s JOIN sys_event e ON"
			 " e.slice_id = s.id WHERE e.id = 10"), 500000);
	assert_int_equal(q(cache, "SELECT ts FROM slice s JOIN sys_event e ON"
			 " e.slice_id = s.id WHERE e.id = 10"), T0 + 100000);
	/* lnc_idx "0", process_id "1627711" */
	assert_int_equal(q(cache, "SELECT lnc_idx FROM sys_event WHERE id = 10"), 0);
	s = qs(cache, "SELECT p.str FROM sys_event e JOIN string p ON"
	       " p.id = e.process_id WHERE e.id = 10");
	assert_string_equal(s, "1627711");
	free(s);
	/* a 64-bit id above 2^53 */
	assert_int_equal(q(cache, "SELECT count(*) FROM sys_event WHERE"
			 " id = 3377699720529032 AND parent = 3377699720529031"),
			 1);
	s = qs(cache, "SELECT m.str FROM sys_event e JOIN string m ON"
	       " m.id = e.model_name WHERE e.id = 10");
	assert_string_equal(s, "/tmp/neuron/matmul.neff");
	free(s);
	/* fields without a column are kept as args */
	s = qs(cache, "SELECT json_extract(args, '$.tensor_name') FROM arg");
	assert_string_equal(s, "_unknown_");
	free(s);
	assert_int_equal(q(cache, "SELECT type FROM sys_event WHERE id = 1"), 11);
}

static void test_nesting(void **state)
{
	(void)state;
	/* kbl_exec_pre came before its nrt_execute and still nests in it */
	assert_int_equal(q(cache, "SELECT depth FROM slice s JOIN sys_event e"
			 " ON e.slice_id = s.id WHERE e.id = 11"), 1);
	assert_int_equal(q(cache, "SELECT depth FROM slice s JOIN sys_event e"
			 " ON e.slice_id = s.id WHERE e.id = 13"), 1);
	assert_int_equal(q(cache, "SELECT depth FROM slice s JOIN sys_event e"
			 " ON e.slice_id = s.id WHERE e.id = 10"), 0);
	/* nc_exec_running is on the hardware row, not nested under it */
	assert_int_equal(q(cache, "SELECT depth FROM slice s JOIN sys_event e"
			 " ON e.slice_id = s.id WHERE e.id = 12"), 0);
}

static void test_rows(void **state)
{
	char *s;

	(void)state;
	s = qs(cache, "SELECT t.kind || ' ' || t.name FROM track t JOIN slice s"
	       " ON s.track_id = t.id JOIN sys_event e ON e.slice_id = s.id"
	       " WHERE e.id = 12");
	assert_string_equal(s, "hw gid32-nc0-tid1627711-neuron_hw");
	free(s);
	/* no trace_event_source, "group": "framework-..." */
	s = qs(cache, "SELECT t.kind || ' ' || t.name FROM track t WHERE"
	       " t.kind = 'framework'");
	assert_string_equal(s, "framework tid80375131-framework");
	free(s);
	s = qs(cache, "SELECT name FROM track WHERE id = (SELECT parent_id FROM"
	       " track WHERE kind = 'framework')");
	assert_string_equal(s, "i-0f207fb2a99bd2d08-pid701");
	free(s);
	/* the keys a view regroups by */
	assert_int_equal(q(cache, "SELECT json_extract(args, '$.worker_gid')"
			 " FROM track WHERE name = 'gid33-nc1-tid1627712-neuron_rt'"),
			 33);
	/* counters per instance: CPU average, per CPU, memory, HBM */
	assert_int_equal(q(cache, "SELECT count(*) FROM track WHERE kind='counter'"
			 " AND name IN ('CPU average', 'CPU 3', 'CPU 47',"
			 " 'Host memory', 'Host memory %', 'Device memory nd0 hbm0')"),
			 6);
	assert_int_equal(q(cache, "SELECT value FROM counter c JOIN track t ON"
			 " t.id = c.track_id WHERE t.name = 'CPU 3'"), 45);
	assert_int_equal(q(cache, "SELECT max(value) FROM counter c JOIN track t ON"
			 " t.id = c.track_id WHERE t.name = 'Host memory'"),
			 52000000000);
}

static void test_dropped(void **state)
{
	struct model *m = model_open(cache);

	(void)state;
	assert_non_null(m);
	assert_int_equal(model_dropped_warnings(m, 1), 1);
	model_close(m);
	assert_int_equal(q(cache, "SELECT count(*) FROM warning WHERE"
			 " category = 'Dropped events' AND message LIKE"
			 " '%dropped due to full ring buffer%'"), 1);
}

static char *import_text(const char *name, const char *json,
			 const struct import_opts *o)
{
	char *path = xstrdup(tu_write(name, json, strlen(json)));
	char *out = xasprintf("%s.nxdb", path);
	int rc = import_build(path, out, o);

	free(path);
	if (rc) {
		free(out);
		return NULL;
	}
	return out;
}

static void test_bad_input(void **state)
{
	struct import_opts o = { .quiet = 1 };
	char *c;

	(void)state;
	c = import_text("unit.json", "{\"trace_event\":[{\"name\":\"a\","
			"\"timestamp\":5,\"duration\":2,\"timestamp_unit\":\"us\"}]}",
			&o);
	assert_non_null(c);
	assert_int_equal(q(c, "SELECT ts FROM slice"), 5000);
	assert_int_equal(q(c, "SELECT dur FROM slice"), 2000);
	free(c);
	assert_null(import_text("badunit.json", "{\"trace_event\":[{\"name\":"
				"\"a\",\"timestamp\":5,\"timestamp_unit\":\"ps\"}]}",
				&o));
	assert_non_null(strstr(err_get(), "badunit.json: byte 16: unknown"
			       " \"timestamp_unit\" \"ps\""));
	assert_null(import_text("nots.json", "{\"trace_event\":[{\"name\":\"a\","
				"\"duration\":1}]}", &o));
	assert_non_null(strstr(err_get(), "missing \"timestamp\" in"
			       " \"trace_event\"[0]"));
	assert_null(import_text("tid.json", "{\"trace_event\":[{\"name\":\"a\","
				"\"timestamp\":1,\"thread_id\":[1]}]}", &o));
	assert_non_null(strstr(err_get(), "\"thread_id\" is an array, expected"
			       " an integer"));
	assert_null(import_text("cpu.json", "{\"cpu_util\":[{\"cpu_id\":\"x\","
				"\"timestamp\":1,\"util\":2}]}", &o));
	assert_non_null(strstr(err_get(), "\"cpu_id\" is a string, expected a"
			       " CPU number or \"average\""));
	/* the data of a system profile is arrays of records, as in a
	 * device profile: one object is not read as one event */
	assert_null(import_text("one.json", "{\"trace_event\":{\"name\":\"a\","
				"\"timestamp\":1,\"duration\":1}}", &o));
	assert_non_null(strstr(err_get(), "one.json: byte 15: expected an array"
			       " of records, found an object in"
			       " \"trace_event\""));
}

/* Epoch-ns times written as decimals are read from their text, exact:
 * a double holds 1729888371056597613 only to 256 ns. A fraction is not
 * a time in ns. */
static void test_whole_decimals(void **state)
{
	struct import_opts o = { .quiet = 1 };
	char *c;

	(void)state;
	c = import_text("whole.json", "{\"trace_event\":[{\"name\":\"a\","
			"\"timestamp\":1729888371056597613.0,"
			"\"duration\":1.5e3}]}", &o);
	assert_non_null(c);
	assert_int_equal(q(c, "SELECT ts FROM slice"),
			 INT64_C(1729888371056597613));
	assert_int_equal(q(c, "SELECT dur FROM slice"), 1500);
	free(c);
	assert_null(import_text("frac.json", "{\"trace_event\":[{\"name\":"
				"\"a\",\"timestamp\":1729888371056597613.5}]}",
				&o));
	assert_non_null(strstr(err_get(), "frac.json: byte 16: \"timestamp\""
			       " is a number, expected an integer in"
			       " \"trace_event\"[0]"));
}

/* A "timestamp_unit" of us, ms or s scales the decimal text of times
 * exactly, fractions included (numbers or strings): a double would put
 * 1729888371.0565977 s off by up to 128 ns. What is left below 1 ns
 * rounds to the nearest, halves away from zero, as Chrome µs do. */
static void test_units(void **state)
{
	struct import_opts o = { .quiet = 1 };
	char *c;

	(void)state;
	c = import_text("units.json", "{\"trace_event\":["
			"{\"name\":\"s\",\"timestamp\":1729888371.0565977,"
			"\"duration\":0.000001,\"timestamp_unit\":\"s\"},"
			"{\"name\":\"str\",\"timestamp\":\"1729888371.0565977\","
			"\"duration\":\"0.000001\",\"timestamp_unit\":\"s\"},"
			"{\"name\":\"ms\",\"timestamp\":1729888371056.597613,"
			"\"duration\":2.5e-3,\"timestamp_unit\":\"ms\"},"
			"{\"name\":\"us\",\"timestamp\":1729888371056597.5,"
			"\"duration\":0.0015,\"timestamp_unit\":\"us\"},"
			"{\"name\":\"down\",\"timestamp\":1729888371056597.6134,"
			"\"duration\":-1.5,\"timestamp_unit\":\"us\"}]}", &o);
	assert_non_null(c);
	assert_int_equal(q(c, "SELECT count(*) FROM slice s JOIN string n ON"
			 " n.id = s.name WHERE n.str IN ('s', 'str') AND"
			 " s.ts = 1729888371056597700 AND s.dur = 1000"), 2);
	assert_int_equal(q(c, "SELECT s.ts FROM slice s JOIN string n ON"
			 " n.id = s.name WHERE n.str = 'ms'"),
			 INT64_C(1729888371056597613));
	assert_int_equal(q(c, "SELECT s.dur FROM slice s JOIN string n ON"
			 " n.id = s.name WHERE n.str = 'ms'"), 2500);
	assert_int_equal(q(c, "SELECT s.ts FROM slice s JOIN string n ON"
			 " n.id = s.name WHERE n.str = 'us'"),
			 INT64_C(1729888371056597500));
	/* 1.5 ns */
	assert_int_equal(q(c, "SELECT s.dur FROM slice s JOIN string n ON"
			 " n.id = s.name WHERE n.str = 'us'"), 2);
	/* .6134 µs is 613.4 ns; a negative duration is an instant */
	assert_int_equal(q(c, "SELECT s.ts FROM slice s JOIN string n ON"
			 " n.id = s.name WHERE n.str = 'down'"),
			 INT64_C(1729888371056597613));
	assert_int_equal(q(c, "SELECT s.dur FROM slice s JOIN string n ON"
			 " n.id = s.name WHERE n.str = 'down'"), 0);
	free(c);
	assert_null(import_text("far.json", "{\"trace_event\":[{\"name\":\"a\","
				"\"timestamp\":9223372036854775.808,"
				"\"timestamp_unit\":\"us\"}]}", &o));
	assert_non_null(strstr(err_get(), "far.json: byte 16: time out of"
			       " range in \"trace_event\"[0]"));
	assert_null(import_text("text.json", "{\"trace_event\":[{\"name\":\"a\","
				"\"timestamp\":\"soon\",\"timestamp_unit\":\"s\"}]}",
				&o));
	assert_non_null(strstr(err_get(), "\"timestamp\" is a string, expected"
			       " a number in \"trace_event\"[0]"));
}

/* flow_id lists (Parquet's SystemProfileEvents, and JSON alike): a flow
 * links the events that share an id, each to the next in time,
 * whatever order they come in; an id that is not a number still links,
 * and is stored as its text. */
static void test_flows(void **state)
{
	struct import_opts o = { .quiet = 1 };
	char *c, *links;

	(void)state;
	c = import_text("flows.json", "{\"trace_event\":["
			"{\"name\":\"c\",\"timestamp\":30,\"duration\":1,\"id\":3,"
			"\"flow_id\":[\"7\",\"x\"]},"
			"{\"name\":\"a\",\"timestamp\":10,\"duration\":1,\"id\":1,"
			"\"flow_id\":[\"7\"]},"
			"{\"name\":\"b\",\"timestamp\":20,\"duration\":1,\"id\":2,"
			"\"flow_id\":[7,\"x\"]},"
			"{\"name\":\"d\",\"timestamp\":40,\"duration\":1,\"id\":4,"
			"\"flow_id\":[]}]}", &o);
	assert_non_null(c);
	links = qs(c, "SELECT group_concat(l, ',') FROM (SELECT a.id || '>' ||"
		   " b.id AS l FROM flow f JOIN sys_event a ON a.slice_id ="
		   " f.slice_out JOIN sys_event b ON b.slice_id = f.slice_in"
		   " ORDER BY a.id, b.id)");
	assert_string_equal(links, "1>2,2>3,2>3");
	assert_int_equal(q(c, "SELECT count(*) FROM flow WHERE flow_id = 7"), 2);
	assert_int_equal(q(c, "SELECT count(*) FROM flow WHERE flow_id = 'x'"),
			 1);
	assert_int_equal(q(c, "SELECT count(DISTINCT flow_id) FROM flow"), 2);
	free(links);
	free(c);
	assert_null(import_text("badflow.json", "{\"trace_event\":[{\"name\":"
				"\"a\",\"timestamp\":1,\"flow_id\":5}]}", &o));
	assert_non_null(strstr(err_get(), "\"flow_id\" is a number, expected a"
			       " list of flow ids"));
	assert_null(import_text("badflow2.json", "{\"trace_event\":[{\"name\":"
				"\"a\",\"timestamp\":1,\"flow_id\":[[1]]}]}", &o));
	assert_non_null(strstr(err_get(), "\"flow_id[]\" is an array, expected"
			       " a flow id"));
}

static void test_filters(void **state)
{
	char *path = tu_fixture("system_small.json");
	struct import_opts o = { .quiet = 1, .filter_nc = "0",
				 .filter_event_type = "nrt_execute,nc_exec_running" };
	char *out = xasprintf("%s/filtered.nxdb", tu_dir());
	struct sysfilter f;
	struct strbuf key;

	(void)state;
	assert_int_equal(import_build(path, out, &o), 0);
	assert_int_equal(q(out, "SELECT count(*) FROM slice s JOIN track t ON"
			 " t.id = s.track_id WHERE t.profile_id = 1"), 2);
	assert_int_equal(q(out, "SELECT count(*) FROM warning WHERE"
			 " category = 'Filter' AND message LIKE '%8 event(s)%'"), 1);
	free(out);
	o.filter_nc = NULL;
	o.filter_event_type = NULL;
	o.filter_instance = "i-other";
	out = xasprintf("%s/filtered2.nxdb", tu_dir());
	assert_int_equal(import_build(path, out, &o), 0);
	assert_int_equal(q(out, "SELECT count(*) FROM slice"), 0);
	assert_int_equal(q(out, "SELECT count(*) FROM counter"), 0);
	free(out);
	free(path);
	/* option text and canonical keys */
	sb_init(&key);
	assert_int_equal(sysfilter_parse(&f, "3,0-1,2", "b,a,b", NULL), 0);
	sysfilter_key(&f, &key);
	assert_string_equal(key.buf, "nc=0-3;type=a,b");
	assert_true(sysfilter_nc(&f, 2) && !sysfilter_nc(&f, 4) &&
		    sysfilter_nc(&f, -1));
	sysfilter_free(&f);
	assert_int_equal(sysfilter_parse(&f, "1-x", NULL, NULL), -1);
	assert_non_null(strstr(err_get(), "--filter-nc: '1-x'"));
	assert_int_equal(sysfilter_parse(&f, "3-1", NULL, NULL), -1);
	assert_int_equal(sysfilter_parse(&f, NULL, ",", NULL), -1);
	sb_free(&key);
}

static void test_bundle(void **state)
{
	const char *b = bundle_cache;
	char *s;

	(void)state;
	assert_int_equal(q(b, "SELECT count(*) FROM profile WHERE parent_id = 1"
			 " AND kind = 'device' AND state = 'ready'"), 2);
	s = qs(b, "SELECT path FROM profile WHERE state = 'missing'");
	assert_string_equal(s, "device_profile_model_2222.json");
	free(s);
	/* metadata from the list and from the file name */
	assert_int_equal(q(b, "SELECT nc_idx FROM profile WHERE model ="
			 " '446048307616134'"), 1);
	s = qs(b, "SELECT instance_id FROM profile WHERE path LIKE 'i-%'");
	assert_string_equal(s, "i-0f207fb2a99bd2d08");
	free(s);
	/* hostile names: warned about, never read */
	assert_int_equal(q(b, "SELECT count(*) FROM warning WHERE message LIKE"
			 " '%\"../outside\" ignored: not a file name%'"), 1);
	assert_int_equal(q(b, "SELECT count(*) FROM warning WHERE message LIKE"
			 " '%\"/etc/passwd\" ignored%'"), 1);
	assert_int_equal(q(b, "SELECT count(*) FROM warning WHERE message LIKE"
			 " '%\"linked_out\" ignored: a link to outside%'"), 1);
	assert_int_equal(q(b, "SELECT count(*) FROM source WHERE path LIKE"
			 " '%outside%' OR path LIKE '%passwd%'"), 0);
	assert_int_equal(q(b, "SELECT count(*) FROM warning WHERE category ="
			 " 'Missing device profile'"), 1);
	/* each device profile's rows are its own */
	assert_int_equal(q(b, "SELECT count(DISTINCT profile_id) FROM track"), 3);
	assert_int_equal(q(b, "SELECT count(*) FROM instruction"), 16);
	assert_int_equal(q(b, "SELECT count(*) FROM lod l JOIN track t ON"
			 " t.id = l.track_id WHERE t.profile_id <> 1") >= 0, 1);
}

static void test_bundle_fresh(void **state)
{
	char *why = NULL, *p;

	(void)state;
	assert_int_equal(cache_check(bundle_cache, bundle_dir, &why), CACHE_FRESH);
	/* the missing file arrives: the cache is stale */
	p = xasprintf("%s/device_profile_model_2222.json", bundle_dir);
	copy_fixture("device_small.json", p);
	assert_int_equal(cache_check(bundle_cache, bundle_dir, &why), CACHE_STALE);
	assert_non_null(strstr(why, "appeared"));
	free(why);
	unlink(p);
	free(p);
	assert_int_equal(cache_check(bundle_cache, bundle_dir, &why), CACHE_FRESH);
}

static void test_find_system(void **state)
{
	char *dir = xasprintf("%s/find", tu_dir()), *p, *path;

	(void)state;
	mkdir(dir, 0700);
	assert_int_equal(bundle_find_system(dir, &path), -1);
	assert_non_null(strstr(err_get(), "a folder with nothing nxtop reads"));
	p = xasprintf("%s/run1.json", dir);
	copy_fixture("system_small.json", p);
	free(p);
	assert_int_equal(bundle_find_system(dir, &path), 0);
	assert_non_null(strstr(path, "/run1.json"));
	free(path);
	p = xasprintf("%s/run2.json", dir);
	copy_fixture("system_small.json", p);
	free(p);
	assert_int_equal(bundle_find_system(dir, &path), -1);
	assert_non_null(strstr(err_get(), "several system profiles (run1.json,"
			       " run2.json)"));
	p = xasprintf("%s/system_profile.json", dir);
	copy_fixture("system_small.json", p);
	assert_int_equal(bundle_find_system(dir, &path), 0);
	assert_non_null(strstr(path, "/system_profile.json"));
	free(path);
	free(p);
	free(dir);
}

static const struct mrow *row_named(const struct mrow *r, size_t n,
				    const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(r[i].name, name))
			return &r[i];
	return NULL;
}

static void test_grouping(void **state)
{
	struct model *m = model_open(cache);
	struct sysgroup g;
	struct mrow *r;
	const struct mrow *x;
	size_t n;
	struct mcell cells[4];

	(void)state;
	assert_non_null(m);
	sysgroup_default(&g);
	assert_int_equal(model_sysrows(m, 1, &g, &r, &n), 0);
	assert_true(r[0].heading);
	assert_string_equal(r[0].name, "i-0f207fb2a99bd2d08-pid701");
	assert_string_equal(r[1].name, "tid80375131-framework");
	x = row_named(r, n, "gid32-nc0-tid1627711-neuron_hw");
	assert_non_null(x);
	assert_string_equal(r[x->group].name, "i-0f207fb2a99bd2d08-pid1627711");
	/* nrt_tensor_write lacks worker_gid and nc_idx: same thread, one row */
	x = row_named(r, n, "gid32-nc0-tid1627711-neuron_rt");
	assert_non_null(x);
	assert_int_equal(x->n_events, 5);
	assert_null(row_named(r, n, "nc0-tid1627711-neuron_rt"));
	assert_non_null(row_named(r, n, "CPU 47"));
	model_sysrows_free(r, n);

	/* by instance, one row per NeuronCore and source */
	assert_int_equal(sysgroup_parse("instance", "--group", g.group,
					&g.ngroup), 0);
	assert_int_equal(sysgroup_parse("nc", "--row", g.row, &g.nrow), 0);
	assert_int_equal(model_sysrows(m, 1, &g, &r, &n), 0);
	x = row_named(r, n, "nc0-neuron_rt");
	assert_non_null(x);
	assert_int_equal(x->ntracks, 1);	/* with and without worker_gid */
	assert_int_equal(x->n_events, 5);
	assert_non_null(row_named(r, n, "framework"));
	assert_int_equal(model_row_frame(m, x, T0, 1000000, 4, cells), 0);
	assert_int_equal(cells[0].n, 4);	/* starting in the first ms */
	assert_true(cells[0].top_slice > 0);
	model_sysrows_free(r, n);

	/* no grouping at all: one row per source */
	g.ngroup = g.nrow = 0;
	assert_int_equal(model_sysrows(m, 1, &g, &r, &n), 0);
	assert_false(r[0].heading);
	assert_string_equal(r[0].name, "neuron_rt");
	assert_int_equal(r[0].n_events, 7);
	model_sysrows_free(r, n);

	assert_int_equal(sysgroup_parse("instance,bogus", "--group", g.group,
					&g.ngroup), -1);
	assert_non_null(strstr(err_get(), "--group: unknown field 'bogus'"));
	assert_int_equal(sysgroup_parse("tid,thread", "--row", g.row, &g.nrow),
			 -1);
	model_close(m);
}

static int64_t slice_of(struct model *m, int64_t id)
{
	sqlite3_stmt *st;
	int64_t s = 0;

	sqlite3_prepare_v2(model_db(m), "SELECT slice_id FROM sys_event WHERE"
			   " id = ?", -1, &st, NULL);
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW)
		s = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return s;
}

static int64_t device_by_path(struct model *m, const char *prefix)
{
	struct mdevice *d;
	size_t n;
	int64_t id = 0;

	assert_int_equal(model_devices(m, 1, &d, &n), 0);
	for (size_t i = 0; i < n; i++)
		if (d[i].path && !strncmp(d[i].path, prefix, strlen(prefix)))
			id = d[i].profile;
	model_devices_free(d, n);
	return id;
}

static void test_drilldown(void **state)
{
	struct model *m = model_open(bundle_cache);
	int64_t dev0, dev1, missing, d;
	struct mdevice *list;
	struct malign al;
	size_t n;

	(void)state;
	assert_non_null(m);
	dev0 = device_by_path(m, "device_profile_model_1578576049");
	dev1 = device_by_path(m, "i-0f207fb2a99bd2d08_pid");
	missing = device_by_path(m, "device_profile_model_2222");
	assert_true(dev0 && dev1 && missing);
	/* the device list: by NeuronCore */
	assert_int_equal(model_devices(m, 1, &list, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(list[0].nc_idx, 0);
	assert_int_equal(list[0].duration, 1869395);
	assert_string_equal(list[2].state, "missing");
	model_devices_free(list, n);
	/* nrt_execute on NeuronCore 0, model 1578576049 */
	assert_int_equal(model_device_for_slice(m, slice_of(m, 10), &d), 0);
	assert_int_equal(d, dev0);
	/* its kbl_exec_pre and nc_exec_running name no model: the
	 * nrt_execute they run in does */
	assert_int_equal(model_device_for_slice(m, slice_of(m, 11), &d), 0);
	assert_int_equal(d, dev0);
	assert_int_equal(model_device_for_slice(m, slice_of(m, 12), &d), 0);
	assert_int_equal(d, dev0);
	/* device_profile names the .pftrace of the same device profile */
	assert_int_equal(model_device_for_slice(m, slice_of(m,
				3377699720529031), &d), 0);
	assert_int_equal(d, dev1);
	assert_int_equal(model_device_for_slice(m, slice_of(m,
				3377699720529032), &d), 0);
	assert_int_equal(d, dev1);
	/* a model whose device file is missing */
	assert_int_equal(model_device_for_slice(m, slice_of(m, 21), &d), 0);
	assert_int_equal(d, missing);
	/* a tensor copy names no model: it is about no device profile */
	assert_int_equal(model_device_for_slice(m, slice_of(m, 1), &d), 1);
	/* a framework event is about no device profile */
	{
		sqlite3_stmt *st;
		int64_t fw = 0;

		sqlite3_prepare_v2(model_db(m), "SELECT s.id FROM slice s JOIN"
				   " track t ON t.id = s.track_id WHERE"
				   " t.kind = 'framework'", -1, &st, NULL);
		if (sqlite3_step(st) == SQLITE_ROW)
			fw = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
		assert_int_equal(model_device_for_slice(m, fw, &d), 1);
	}
	/* :align from the nrt_execute: its nc_exec_running */
	assert_int_equal(model_device_align(m, dev0, slice_of(m, 10), &al), 0);
	assert_int_equal(al.exec_slice, slice_of(m, 12));
	assert_int_equal(al.exec_ts, T0 + 160000);
	assert_int_equal(al.offset, T0 + 160000);
	/* from a call inside the nrt_execute: the same execution */
	assert_int_equal(model_device_align(m, dev0, slice_of(m, 11), &al), 0);
	assert_int_equal(al.exec_slice, slice_of(m, 12));
	/* without a slice: the first execution of that device */
	assert_int_equal(model_device_align(m, dev1, 0, &al), 0);
	assert_int_equal(al.exec_slice, slice_of(m, 3377699720529032));
	assert_int_equal(al.exec_dur, 600000);
	model_close(m);
}

/* One model on several NeuronCores (tests/fixtures/system_ncs.json):
 * every device file says NeuronCore 0 inside, as real exports do; the
 * bundle's list and the files' names say which is which. */
static void test_drill_by_core(void **state)
{
	static const char *const files[] = {
		"pid_100_nc_0", "pid_100_nc_1", "pid_100_nc_2", "pid_200_nc_2",
	};
	/* the fixture's execution k: nrt_execute id k*10+1, its
	 * nc_exec_running k*10+2, and the file it ran ("" : missing) */
	static const char *const ran[] = {
		"pid_100_nc_0", "pid_100_nc_1", "pid_100_nc_2", "pid_200_nc_2",
		"pid_100_nc_3",
	};
	static const int64_t want_nc[] = { 0, 1, 2, 2, 3 };
	char *dir = xasprintf("%s/ncs", tu_dir()), *db, *p;
	struct import_opts o = { .quiet = 1 };
	struct mdevice *list;
	struct malign al;
	struct model *m;
	int64_t d;
	size_t n;

	(void)state;
	mkdir(dir, 0700);
	p = xasprintf("%s/system_profile.json", dir);
	copy_fixture("system_ncs.json", p);
	free(p);
	for (size_t i = 0; i < NX_ARRAY_SIZE(files); i++) {
		p = xasprintf("%s/i-0c0ffee000000abcd_%s_model_777.json", dir,
			      files[i]);
		copy_fixture("device_small.json", p);
		free(p);
	}
	db = xasprintf("%s/ncs.nxdb", tu_dir());
	if (import_build(dir, db, &o))
		fail_msg("bundle: %s", err_get());
	m = model_open(db);
	assert_non_null(m);
	assert_int_equal(model_devices(m, 1, &list, &n), 0);
	assert_int_equal(n, 5);
	for (size_t i = 0; i < n; i++) {
		/* "..._nc_N_model_777.json": N is the list's NeuronCore */
		const char *nc = strstr(list[i].path, "_nc_");

		assert_non_null(nc);
		assert_int_equal(list[i].nc_idx, nc[4] - '0');
	}
	model_devices_free(list, n);
	for (int64_t k = 0; k < 5; k++) {
		for (int64_t id = k * 10 + 1; id <= k * 10 + 2; id++) {
			struct mprofile dev;

			assert_int_equal(model_device_for_slice(m, slice_of(m, id),
								&d), 0);
			assert_int_equal(model_profile(m, d, &dev), 0);
			assert_non_null(strstr(dev.path, ran[k]));
			assert_int_equal(dev.nc_idx, want_nc[k]);
			model_profile_clear(&dev);
		}
	}
	/* :align on process 200's NeuronCore 2 from the list (no slice):
	 * its own nc_exec_running, 3.15 ms into the fixture, 400 us long */
	d = device_by_path(m, "i-0c0ffee000000abcd_pid_200_nc_2");
	assert_int_equal(model_device_align(m, d, 0, &al), 0);
	assert_int_equal(al.exec_slice, slice_of(m, 32));
	assert_int_equal(al.exec_ts, T0 + 3150000);
	assert_int_equal(al.exec_dur, 400000);
	model_close(m);
	free(db);
	free(dir);
}

static void test_summary(void **state)
{
	struct model *m = model_open(bundle_cache);
	struct syssummary s;
	struct sysgroup g;

	(void)state;
	assert_non_null(m);
	sysgroup_default(&g);
	assert_int_equal(syssummary_compute(m, 1, &g, &s), 0);
	assert_int_equal(s.n_events, 10);
	assert_int_equal(s.nrows, 6);
	assert_int_equal(s.ndevices, 3);
	assert_int_equal(s.dropped, 1);
	assert_string_equal(s.warnings[0].category, "Dropped events");
	assert_string_equal(s.names[0].name, "PjitFunction(matmul_allgather)");
	assert_string_equal(s.names[1].name, "nrt_execute");
	assert_int_equal(s.names[1].n, 3);
	assert_string_equal(s.sources[0].role, "system");
	assert_int_equal(s.sources[1].missing, 1);
	assert_string_equal(s.group_by, "instance_id,process_id");
	syssummary_free(&s);
	model_close(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile),
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_nesting),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_dropped),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_whole_decimals),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_flows),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_bundle),
		cmocka_unit_test(test_bundle_fresh),
		cmocka_unit_test(test_find_system),
		cmocka_unit_test(test_grouping),
		cmocka_unit_test(test_drilldown),
		cmocka_unit_test(test_drill_by_core),
		cmocka_unit_test(test_summary),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
