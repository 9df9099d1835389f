/* Search: each kind of term on a fixture with known answers, bad queries
 * rejected with a column, NeuronCore terms on system events that name it
 * in one field or both, name searches answered from the aggregates the
 * same as from the events, counts equal to brute force, stepping in time
 * order (and one event at a time), paging equal to the whole list. */
#include "config.h"

#include <inttypes.h>
#include <regex.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/lod.h"
#include "model/model.h"
#include "model/search.h"
#include "model/util.h"
#include "model/writer/writer.h"
#include "tests/testutil.h"

static char *fixture_cache;

static int setup(void **state)
{
	char *path = tu_fixture("device_small.json");

	(void)state;
	fixture_cache = tu_import(path);
	free(path);
	return fixture_cache ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(fixture_cache);
	return 0;
}

static int64_t count(struct model *m, const char *q)
{
	return tu_search_count(m, 1, q);
}

static void test_terms(void **state)
{
	struct model *m = model_open(fixture_cache);

	(void)state;
	assert_int_equal(count(m, "opcode=MATMUL"), 1);
	assert_int_equal(count(m, "opcode=matmul"), 1);
	assert_int_equal(count(m, "matmul"), 1);
	assert_int_equal(count(m, "dot"), 6);
	assert_int_equal(count(m, "layer~dot"), 5);
	assert_int_equal(count(m, "hlo_name=/dot\\.[0-9]+/"), 6);
	assert_int_equal(count(m, "hlo=/^%dot/"), 5);
	/* a backslash pair stays the regex's own, up to the closing '/' */
	assert_int_equal(count(m, "hlo=/p1\\)$/"), 5);
	assert_int_equal(count(m, "hlo=/\\\\/"), 0);
	assert_int_equal(count(m, "hlo=/\\/|%p2/"), 1);
	assert_int_equal(count(m, "dur>200ns"), 4);
	assert_int_equal(count(m, "dur>=1.5us"), 1);
	assert_int_equal(count(m, "engine=Vector"), 2);
	assert_int_equal(count(m, "engine=Scalar dur>1us"), 1);
	assert_int_equal(count(m, "engine=Tensor -opcode=MATMUL"), 1);
	assert_int_equal(count(m, "queue_type=software_dynamic"), 1);
	assert_int_equal(count(m, "queue=qSyncSpillReload0"), 2);
	assert_int_equal(count(m, "transfer_size>=32768"), 1);
	assert_int_equal(count(m, "variable=identity_40"), 2);
	assert_int_equal(count(m, "id=9223229769545287789"), 1);
	assert_int_equal(count(m, "id=18446744073709551000"), 1);
	assert_int_equal(count(m, "operands~\"acc_flags=3\""), 1);
	assert_int_equal(count(m, "start<1us"), 1);
	/* args.KEY reads a field whether the args or a typed column hold it
	 * (jq: one instruction has activation_fn COPY, two crc_in 0) */
	assert_int_equal(count(m, "args.activation_fn=COPY"), 1);
	assert_int_equal(count(m, "args.crc_in=0"), 2);
	assert_int_equal(count(m, "args.is_psum_read_sbuf_write=1"), 1);
	assert_int_equal(count(m, "nosuchthing"), 0);
	model_close(m);
}

/* "-TERM" is the complement of TERM among the fixture's 11 events (8
 * instructions, 3 DMA packets), also where events lack the field. */
static void test_negation(void **state)
{
	static const struct {
		const char *term;
		int64_t n;	/* matches of the term, counted by hand */
	} cases[] = {
		{ "dot", 6 }, { "TENSOR", 4 }, { "EVENT_SEMAPHORE", 1 },
		{ "/^q/", 2 }, { "q0", 1 }, { "opcode=MATMUL", 1 },
		{ "opcode!=MATMUL", 7 }, { "layer~dot", 5 },
		/* 3 instructions, and the 3 DMA packets that have no layer */
		{ "layer!~dot", 6 },
		{ "hlo=/^%dot/", 5 }, { "engine=Vector", 2 }, { "row=Q0", 1 },
		{ "queue=qSyncSpillReload0", 2 }, { "dur>200ns", 4 },
		{ "transfer_size>=32768", 1 }, { "id=9223229769545287789", 1 },
		{ "id!=9223229769545287789", 10 }, { "operands~\"acc_flags=3\"", 1 },
		{ "args.is_psum_read_sbuf_write=1", 1 }, { "nc=0", 0 },
	};
	struct model *m = model_open(fixture_cache);

	(void)state;
	for (size_t i = 0; i < NX_ARRAY_SIZE(cases); i++) {
		char *neg = xasprintf("-%s", cases[i].term);

		if (count(m, cases[i].term) != cases[i].n ||
		    count(m, neg) != 11 - cases[i].n)
			fail_msg("%s: %lld, %s: %lld, wanted %lld and %lld",
				 cases[i].term, (long long)count(m, cases[i].term),
				 neg, (long long)count(m, neg),
				 (long long)cases[i].n, (long long)(11 - cases[i].n));
		free(neg);
	}
	/* a negated word with another term: the Vector events without it */
	assert_int_equal(count(m, "engine=Vector -reduce"), 1);
	assert_int_equal(count(m, "engine=Vector -dot"), 1);
	model_close(m);
}

static void bad(struct model *m, const char *q, const char *msg)
{
	char *err = NULL;
	struct search *s = search_new(m, 1, q, &err);

	assert_null(s);
	assert_non_null(err);
	if (!strstr(err, msg))
		fail_msg("%s: error \"%s\" lacks \"%s\"", q, err, msg);
	free(err);
}

static void test_bad_queries(void **state)
{
	struct model *m = model_open(fixture_cache);

	(void)state;
	bad(m, "opcdoe=MATMUL", "column 1: unknown field 'opcdoe'");
	bad(m, "engine=Vector dur>abc", "column 19: expected a time");
	bad(m, "hlo=/[/", "invalid regex");
	/* patterns whose compiled form would take gigabytes */
	bad(m, "name=/e++++++++++++++++++++++++++++++++++++++++/",
	    "column 6: regex too costly to compile");
	bad(m, "/((a{99}){99}){99}/", "regex too costly");
	bad(m, "/((((((((((((((((((((((a+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+/",
	    "regex too costly");
	bad(m, "engine=Vector /(a|b?){12000}c/",
	    "column 15: regex repeats a part more than 255 times");
	bad(m, "name=\"open", "unterminated quote");
	bad(m, "dur~5", "~ goes with text fields");
	bad(m, "layer>3", "'layer' is text");
	bad(m, "   ", "empty query");
	bad(m, "name=", "expected a value");
	bad(m, "id>5", "ids compare with = or !=");
	bad(m, "size>1.1B", "column 6: expected bytes like 65536");
	bad(m, "read_size<1e3", "expected bytes");
	model_close(m);
}

/* Byte counts in a term's value: units of 1024 (KiB) and of 1000 (kB),
 * fractions that come out whole, nothing that overflows. */
static void test_bytes(void **state)
{
	static const struct {
		const char *text;
		int ok;
		int64_t bytes;
	} cases[] = {
		{ "65536", 1, 65536 }, { "0", 1, 0 }, { "-1", 1, -1 },
		{ "64KiB", 1, 65536 }, { "64Ki", 1, 65536 }, { "2kB", 1, 2000 },
		{ "2K", 1, 2000 }, { "2k", 1, 2000 }, { "3MiB", 1, 3145728 },
		{ "3MB", 1, 3000000 }, { "1GiB", 1, 1073741824 },
		{ "1.5KiB", 1, 1536 }, { "2.25MB", 1, 2250000 }, { "7B", 1, 7 },
		{ "8589934591GiB", 1, INT64_C(9223372035781033984) },
		{ "8589934592GiB", 0, 0 }, { "1.1B", 0, 0 }, { "1.1", 0, 0 },
		{ "1.0001KiB", 0, 0 }, { "1e3", 0, 0 }, { "KiB", 0, 0 },
		{ "", 0, 0 }, { "1.KiB", 0, 0 }, { "1 KiB", 0, 0 },
		{ "1kib", 0, 0 }, { "1TB", 0, 0 },
	};

	(void)state;
	for (size_t i = 0; i < NX_ARRAY_SIZE(cases); i++) {
		int64_t v = 0;
		int rc = query_parse_bytes(cases[i].text, &v);

		if ((rc == 0) != cases[i].ok)
			fail_msg("'%s': %s", cases[i].text,
				 rc ? "refused" : "taken");
		if (cases[i].ok && v != cases[i].bytes)
			fail_msg("'%s': %" PRId64 ", not %" PRId64,
				 cases[i].text, v, cases[i].bytes);
	}
}

/* The regex analyser: ordinary patterns pass, brackets and escapes
 * included, and each accepted one compiles; costly ones are refused
 * before regcomp sees them. */
static void test_regex_check(void **state)
{
	static const char *const ok[] = {
		"dot\\.[0-9]+", "^%dot", "(matmul|transpose).*layer[0-9]{1,3}$",
		"[{(]{3}", "[]({]+", "[^](]*x", "[[:alpha:]{]{2,}", "[[.{.]]{4}",
		"[[=a=](]{9}", "a\\{999\\}", "\\((a)\\)", "a\\{1234",
		"a{,255}", "a{255}", "(a|b?){255}c", "(a?|b?|c?|d?){255}",
		"((a?){36}){36}", "a)", "(((((((((((((((((((((((((((((((("
		"a))))))))))))))))))))))))))))))))",
	};
	static const struct {
		const char *re, *why;
	} costly[] = {
		{ "(a|b?){12000}c", "more than 255 times" },
		{ "a{256}", "more than 255 times" },
		{ "a{,300}", "more than 255 times" },
		{ "a{1,99999999999999999999}", "more than 255 times" },
		{ "a{9223372036854775807,}", "more than 255 times" },
		{ "a{99999999999999999999,}", "more than 255 times" },
		{ "\\\\{999}", "more than 255 times" },
		{ "[]]{999}", "more than 255 times" },
		{ "[[:digit:]]{300}", "more than 255 times" },
		{ "((((((((((((((((((((((((((((((((("
		  "a)))))))))))))))))))))))))))))))))", "more than 32 deep" },
		{ "((a?){37}){37}", "too costly" },
		{ "(a?|b?|c?|d?){255}(a?|b?|c?|d?){255}", "too costly" },
		{ "((a{255}){255}){255}", "too costly" },
		{ "a+++++++++++++++++++++++++++++++++++++++++++++++++++++++++"
		  "+++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++"
		  "+++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++"
		  "+++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++"
		  "+++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++",
		  "too costly" },
	};
	(void)state;
	for (size_t i = 0; i < NX_ARRAY_SIZE(ok); i++) {
		const char *why = query_regex_check(ok[i]);
		regex_t r;

		if (why)
			fail_msg("/%s/ refused: %s", ok[i], why);
		if (regcomp(&r, ok[i], REG_EXTENDED | REG_NOSUB))
			fail_msg("/%s/ does not compile", ok[i]);
		regfree(&r);
	}
	for (size_t i = 0; i < NX_ARRAY_SIZE(costly); i++) {
		const char *why = query_regex_check(costly[i].re);

		if (!why || !strstr(why, costly[i].why))
			fail_msg("/%s/: %s, wanted \"%s\"", costly[i].re,
				 why ? why : "accepted", costly[i].why);
	}
}

/* Values a profile may hold, each written by query_format and read
 * back by query_parse as the same term, shown without a control byte. */
static const char *const hostile_values[] = {
	"EVIL\\", "a\\\\b", "\"", "\"quoted\" x", "two words", "a/b", "/re/",
	"-lead", "-", "=", "a=b", "x~y", "x!=y", ">5", "\x1b[31m", "tab\there",
	"nl\n", "\xc2\x9b", "\xe2\x80\xae", "\xff\xfe", "", "plain",
	"\xc3\xbc" "nic\xc3\xb6" "de", "\\x41", "\\\"", "%_", "\x7f", " ",
	"x /(a|b?){12000}c/ y", "\" row=\"x\" /(a|b?){12000}c/",
};

static void same_terms(const struct query *a, const struct query *b,
		       const char *text)
{
	if (a->n != b->n)
		fail_msg("%s: %zu terms read back, %zu built", text, b->n, a->n);
	for (size_t i = 0; i < a->n; i++) {
		const struct qterm *x = &a->terms[i], *y = &b->terms[i];

		if (x->field != y->field || x->op != y->op ||
		    x->negate != y->negate || strcmp(x->value, y->value) ||
		    x->num != y->num)
			fail_msg("%s: term %zu reads back as another", text, i);
	}
}

static void test_quote_round_trip(void **state)
{
	static const struct {
		enum qfield f;
		enum qop op;
		int negate;
	} forms[] = {
		{ F_NAME, Q_EQ, 0 }, { F_ROW, Q_EQ, 1 }, { F_LAYER, Q_HAS, 0 },
		{ F_OPERANDS, Q_NE, 1 }, { F_HLO, Q_HASNOT, 0 },
		{ F_WORD, Q_HAS, 0 }, { F_WORD, Q_HAS, 1 },
	};
	struct query all = { NULL, 0 };

	(void)state;
	for (size_t v = 0; v < NX_ARRAY_SIZE(hostile_values); v++) {
		const char *val = hostile_values[v];

		for (size_t k = 0; k < NX_ARRAY_SIZE(forms); k++) {
			struct query one = { NULL, 0 }, back;
			struct strbuf text;
			char *err = NULL;

			if (forms[k].f == F_WORD && !*val)
				continue;	/* an empty word is no term */
			if (query_add(&one, forms[k].f, forms[k].op,
				      forms[k].negate, val, &err))
				fail_msg("value %zu: %s", v, err);
			sb_init(&text);
			query_format(&one, &text);
			for (const char *c = sb_cstr(&text); *c; c++)
				if ((unsigned char)*c < 0x20 || *c == 0x7f)
					fail_msg("value %zu shown with a control", v);
			if (query_parse(sb_cstr(&text), &back, &err))
				fail_msg("%s: %s", sb_cstr(&text), err);
			same_terms(&one, &back, sb_cstr(&text));
			query_append(&all, &one);
			query_free(&one);
			query_free(&back);
			sb_free(&text);
		}
	}
	/* all of them in one query, too */
	{
		struct strbuf text;
		struct query back;
		char *err = NULL;

		sb_init(&text);
		query_format(&all, &text);
		assert_int_equal(query_parse(sb_cstr(&text), &back, &err), 0);
		same_terms(&all, &back, "all values");
		query_free(&back);
		sb_free(&text);
	}
	query_free(&all);
}

/* What query_add refuses, and that a built query runs as its terms say:
 * the row name of an injection stays one value. */
static void test_built_query(void **state)
{
	struct model *m = model_open(fixture_cache);
	struct query q = { NULL, 0 };
	struct search *s;
	struct strbuf text;
	char *err = NULL;

	(void)state;
	assert_int_equal(query_add(&q, F_WORD, Q_HAS, 0, "", &err), -1);
	free(err);
	assert_int_equal(query_add(&q, F_WORD, Q_EQ, 0, "x", &err), -1);
	free(err);
	assert_int_equal(query_add(&q, F_DUR, Q_GT, 0, "soon", &err), -1);
	assert_non_null(strstr(err, "expected a time"));
	free(err);
	assert_int_equal(query_add(&q, F_NAME, Q_RE, 0, "(a|b?){12000}c", &err), -1);
	assert_non_null(strstr(err, "more than 255 times"));
	free(err);
	assert_int_equal(query_add(&q, F_NAME, Q_RE, 0, "a\x01", &err), -1);
	free(err);
	assert_int_equal(query_add(&q, F_NAME, Q_RE, 0, "a\\/b", &err), -1);
	free(err);
	assert_int_equal(q.n, 0);

	assert_int_equal(query_add(&q, F_NAME, Q_EQ, 0, "EVIL\\", &err), 0);
	assert_int_equal(query_add(&q, F_ROW, Q_EQ, 0,
				   "x\" /(a|b?){12000}c/ \"", &err), 0);
	s = search_new_query(m, 1, &q, &err);
	assert_non_null(s);
	assert_int_equal(q.n, 0);
	assert_int_equal(search_query(s)->n, 2);
	sb_init(&text);
	sb_adds(&text, search_text(s));
	assert_string_equal(sb_cstr(&text),
			    "name=\"EVIL\\\\\" row=\"x\\\" /(a|b?){12000}c/ \\\"\"");
	search_free(s);
	sb_free(&text);

	/* the same terms as typed: the same matches */
	assert_int_equal(query_add(&q, F_OPCODE, Q_EQ, 0, "matmul", &err), 0);
	assert_int_equal(query_add(&q, F_ROW, Q_EQ, 0, "TensorMatrix", &err), 0);
	assert_int_equal(query_add(&q, F_LAYER, Q_HAS, 1, "add", &err), 0);
	s = search_new_query(m, 1, &q, &err);
	assert_non_null(s);
	assert_string_equal(search_text(s), "opcode=matmul row=TensorMatrix -layer~add");
	assert_int_equal(count(m, search_text(s)), 1);
	assert_int_equal(search_match(s, 1), 1);
	search_free(s);
	model_close(m);
}

/* System events naming their NeuronCore in nc_idx only (as old JSON
 * might), lnc_idx only (as Parquet does), both (differing), or neither
 * (a framework call); -1 is absent. */
static char *nc_cache(void)
{
	static const int64_t nc[][2] = { { 1, -1 }, { -1, 1 }, { 2, 3 },
					 { -1, -1 } };
	struct wprofile p = { .kind = "system", .format = "test", .name = "s",
			      .epoch = 1, .nc_idx = -1 };
	char *cache = xasprintf("%s/nc.nxdb", tu_dir());
	struct writer *w;
	int64_t tr;

	unlink(cache);
	w = writer_open(cache);
	writer_profile(w, &p);
	tr = writer_track(w, 1, 0, TK_NRT, "nrt", 1);
	for (size_t i = 0; i < NX_ARRAY_SIZE(nc); i++) {
		struct wsys_event e = {
			.thread_id = -1, .nc_idx = nc[i][0], .lnc_idx = nc[i][1],
			.worker_gid = -1, .device_core_idx = -1, .exec_id = -1,
		};

		wid_from_i64(&e.id, (int64_t)i + 1);
		writer_sys_event(w, writer_slice(w, tr, (int64_t)i * 10, 5,
						 writer_string(w, "nrt_execute"),
						 0, 0, 0), &e);
	}
	writer_profile_extent(w, 1, 0, 100);
	assert_int_equal(writer_finish(w), 0);
	return cache;
}

/* nc and lnc each read the other where an event has only one of them,
 * its own where it has both. */
static void test_neuroncore(void **state)
{
	char *cache = nc_cache();
	struct model *m = model_open(cache);

	(void)state;
	assert_non_null(m);
	assert_int_equal(count(m, "nc=1"), 2);
	assert_int_equal(count(m, "lnc=1"), 2);
	assert_int_equal(count(m, "nc=2"), 1);
	assert_int_equal(count(m, "nc=3"), 0);
	assert_int_equal(count(m, "lnc=3"), 1);
	assert_int_equal(count(m, "lnc=2"), 0);
	assert_int_equal(count(m, "nc_idx>=1"), 3);
	assert_int_equal(count(m, "-nc=1"), 2);
	assert_int_equal(count(m, "nc!=1"), 1);
	model_close(m);
	unlink(cache);
	free(cache);
}

/* A profile with many events and names, where name searches use the
 * aggregates: they must agree with the same search done on the events. */
static char *big_cache(void)
{
	struct wprofile p = { .kind = "device", .format = "test", .name = "b",
			      .nc_idx = -1 };
	char *cache = xasprintf("%s/search.nxdb", tu_dir());
	struct writer *w;
	int64_t tr[3], names[5], ts = 0;
	uint64_t r = 12345;

	unlink(cache);
	w = writer_open(cache);
	writer_profile(w, &p);
	tr[0] = writer_track(w, 1, 0, TK_ENGINE, "Vector", 1);
	tr[1] = writer_track(w, 1, 0, TK_ENGINE, "Scalar", 2);
	tr[2] = writer_track(w, 1, 0, TK_DMA, "qSyncIO0", 3);
	names[0] = writer_string(w, "MATMUL");
	names[1] = writer_string(w, "COPY");
	names[2] = writer_string(w, "ACTIVATE");
	names[3] = writer_string(w, "weights");
	names[4] = writer_string(w, "matmul_helper");
	for (int i = 0; i < 30000; i++) {
		r = r * 6364136223846793005ull + 1442695040888963407ull;
		ts += (int64_t)(r >> 60);
		writer_slice(w, tr[i % 3], ts, (int64_t)((r >> 40) % 50),
			     names[(r >> 33) % 5], 0, 0, 0);
	}
	assert_int_equal(writer_finish(w), 0);
	return cache;
}

static void test_aggregates_match_events(void **state)
{
	char *cache = big_cache();
	struct model *m = model_open(cache);
	struct mtrack *t;
	size_t n;
	char *err;
	/* "dur>=0" forces the event path for the same matches */
	struct search *fast = search_new(m, 1, "opcode=MATMUL", &err);
	struct search *slow = search_new(m, 1, "opcode=MATMUL dur>=0", &err);
	struct search *word = search_new(m, 1, "name~matmul", &err);
	int64_t a[64], b[64];

	(void)state;
	assert_non_null(fast);
	assert_non_null(slow);
	model_tracks(m, 1, &t, &n);
	for (size_t i = 0; i < n; i++) {
		for (int level = 0; level < 9; level++) {
			int64_t colw = lod_width(level) * 3;

			/* buckets never straddle columns here: exact */
			assert_int_equal(search_frame(fast, &t[i], 0, colw, 64, a), 0);
			assert_int_equal(search_frame(slow, &t[i], 0, colw, 64, b), 0);
			for (int c = 0; c < 64; c++)
				if (a[c] != b[c])
					fail_msg("track %zu level %d col %d: %lld != %lld",
						 i, level, c, (long long)a[c],
						 (long long)b[c]);
		}
	}
	/* counts over arbitrary ranges: aggregates plus edges = events */
	for (int k = 0; k < 20; k++) {
		struct search_stats x, y, z;
		int64_t t0 = 1000 * k * k, t1 = t0 + 7919 * (k + 1) * 13;

		search_stats(fast, t, n, t0, t1, &x);
		search_stats(slow, t, n, t0, t1, &y);
		search_stats(word, t, n, t0, t1, &z);
		assert_int_equal(x.count, y.count);
		assert_int_equal(x.dur, y.dur);
		assert_true(z.count >= x.count);
		search_stats_free(&x);
		search_stats_free(&y);
		search_stats_free(&z);
	}
	model_tracks_free(t, n);
	search_free(fast);
	search_free(slow);
	search_free(word);
	model_close(m);
	free(cache);
}

/* One integer from the cache file; sql names its parameters ?1, ?2. */
static int64_t cache_int(sqlite3 *db, const char *sql, int64_t a, int64_t b)
{
	sqlite3_stmt *st;
	int64_t v;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_int64(st, 1, a);
	sqlite3_bind_int64(st, 2, b);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* The name aggregates are written in multi-row batches: at every level,
 * each (bucket, name) of the events has its row (the count of rows is
 * not a multiple of the batch), and the rows add up to the events. */
static void test_aggregate_rows(void **state)
{
	char *cache = big_cache();
	sqlite3 *db;
	int64_t tracks;

	(void)state;
	assert_int_equal(sqlite3_open_v2(cache, &db, SQLITE_OPEN_READONLY,
					 NULL), SQLITE_OK);
	tracks = cache_int(db, "SELECT count(*) FROM track WHERE agg_level"
			   " IS NOT NULL AND n_events > 0", 0, 0);
	assert_int_equal(tracks, 3);
	for (int64_t t = 1; t <= 3; t++) {
		int64_t lo = cache_int(db, "SELECT agg_level FROM track WHERE"
				       " id = ?1", t, 0);
		int64_t events = cache_int(db, "SELECT count(*) FROM slice"
					   " WHERE track_id = ?1", t, 0);

		for (int64_t l = lo; l <= lo + 3; l++) {
			assert_int_equal(cache_int(db, "SELECT count(*) FROM agg"
				" WHERE track_id = ?1 AND field = 0 AND"
				" level = ?2", t, l),
				cache_int(db, "SELECT count(*) FROM (SELECT"
				" DISTINCT ts >> (2 * ?2), name FROM slice"
				" WHERE track_id = ?1)", t, l));
			assert_int_equal(cache_int(db, "SELECT sum(n) FROM agg"
				" WHERE track_id = ?1 AND field = 0 AND"
				" level = ?2", t, l), events);
		}
	}
	sqlite3_close(db);
	free(cache);
}

/* A track with over 800,000 aggregate rows, written in several runs:
 * its layer field (2048 values) is complete at every level. Another
 * track's layer field (a layer per event) is dropped: none of its rows
 * is left. */
static void test_aggregate_runs(void **state)
{
	struct wprofile p = { .kind = "device", .format = "test", .name = "r",
			      .nc_idx = -1 };
	char *cache = xasprintf("%s/runs.nxdb", tu_dir());
	struct writer *w;
	sqlite3 *db;
	int64_t tr[2], lo, levels, n = 600000;

	(void)state;
	unlink(cache);
	w = writer_open(cache);
	writer_profile(w, &p);
	tr[0] = writer_track(w, 1, 0, TK_ENGINE, "Vector", 1);
	tr[1] = writer_track(w, 1, 0, TK_ENGINE, "Scalar", 2);
	for (int64_t i = 0; i < n; i++)
		writer_slice(w, tr[0], i * 10, 5, i % 3 + 1, i % 2048 + 1, 0, 0);
	for (int64_t i = 0; i < 20000; i++)
		writer_slice(w, tr[1], i * 10, 5, 1, i + 1, 0, 0);
	assert_int_equal(writer_finish(w), 0);
	assert_int_equal(sqlite3_open_v2(cache, &db, SQLITE_OPEN_READONLY,
					 NULL), SQLITE_OK);
	assert_int_equal(cache_int(db, "SELECT agg_fields & 3 FROM track"
				   " WHERE id = ?1", tr[0], 0), 3);
	assert_int_equal(cache_int(db, "SELECT agg_fields & 3 FROM track"
				   " WHERE id = ?1", tr[1], 0), 1);
	assert_int_equal(cache_int(db, "SELECT count(*) FROM agg WHERE"
				   " track_id = ?1 AND field = 1", tr[1], 0), 0);
	assert_true(cache_int(db, "SELECT count(*) FROM agg WHERE track_id"
			      " = ?1", tr[0], 0) > 800000);
	lo = cache_int(db, "SELECT min(level) FROM agg WHERE field = 1", 0, 0);
	levels = cache_int(db, "SELECT count(DISTINCT level) FROM agg WHERE"
			   " field = 1", 0, 0);
	assert_true(levels >= 4);
	for (int64_t l = lo; l < lo + levels; l++) {
		assert_int_equal(cache_int(db, "SELECT count(*) FROM agg WHERE"
			" track_id = ?1 AND field = 1 AND level = ?2", tr[0], l),
			cache_int(db, "SELECT count(*) FROM (SELECT DISTINCT"
			" ts >> (2 * ?2), cat FROM slice WHERE track_id = ?1)",
			tr[0], l));
		assert_int_equal(cache_int(db, "SELECT sum(n) FROM agg WHERE"
			" track_id = ?1 AND field = 1 AND level = ?2", tr[0], l),
			n);
	}
	sqlite3_close(db);
	unlink(cache);
	free(cache);
}

struct collect {
	struct mslice *v;
	size_t n;
};

static void collect(void *ctx, const struct mslice *s)
{
	struct collect *c = ctx;

	c->v = xreallocarray(c->v, c->n + 1, sizeof(*c->v));
	c->v[c->n++] = *s;
}

/* Rows of instructions whose names and layers hold "matmul" in four
 * ways: every name (Tensor), no name (Vector), some names and some
 * layers in every stretch (Scalar), every layer (GpSimd). Layers come
 * in runs, as a model's layers do. */
static char *word_cache(void)
{
	struct wprofile p = { .kind = "device", .format = "test", .name = "w",
			      .nc_idx = -1 };
	static const char *const rows[] = { "Tensor", "Vector", "Scalar",
					     "GpSimd" };
	char *cache = xasprintf("%s/words.nxdb", tu_dir());
	struct writer *w;
	int64_t tr[4], nm[3], ly[2], ts = 0;
	uint64_t r = 777;

	unlink(cache);
	w = writer_open(cache);
	writer_profile(w, &p);
	for (int k = 0; k < 4; k++)
		tr[k] = writer_track(w, 1, 0, TK_ENGINE, rows[k], k + 1);
	nm[0] = writer_string(w, "MATMUL");
	nm[1] = writer_string(w, "COPY");
	nm[2] = writer_string(w, "ACTIVATE");
	ly[0] = writer_string(w, "enc/MatMul");
	ly[1] = writer_string(w, "enc/add");
	for (int i = 0; i < 80000; i++) {
		struct winstruction in = { .pc = i % 50, .compiler_pc = -1,
					   .evt_wait_time = -1,
					   .dma_wait_time = -1 };
		int k = i % 4, run = (i / 2000) % 2;
		int64_t name = nm[(r >> 40) % 3], layer = ly[run];

		r = r * 6364136223846793005ull + 1442695040888963407ull;
		ts += 1 + (int64_t)(r >> 58);
		if (k == 0)
			name = nm[0];
		else if (k == 1)
			name = nm[1 + (r >> 40) % 2];
		else if (k == 2)
			layer = ly[(r >> 50) % 2];
		else
			layer = ly[0];
		in.layer = layer;
		wid_from_i64(&in.id, i + 1);
		writer_instruction(w, writer_slice(w, tr[k], ts,
						   (int64_t)((r >> 20) % 50),
						   name, layer, 0, 0), &in);
	}
	assert_int_equal(writer_finish(w), 0);
	return cache;
}

/* The events of a track meeting SQL condition match (on slice s and
 * its instruction i) starting in each of ncols columns of colw ns from
 * t0, counted in the cache by sqlite3. */
static void brute_cols(sqlite3 *db, const char *match, int64_t track,
		       int64_t t0, int64_t colw, int ncols, int64_t *hits)
{
	char *sql = xasprintf("SELECT (s.ts - ?2) / ?3, count(*) FROM slice s"
			      " LEFT JOIN instruction i ON i.slice_id = s.id"
			      " WHERE s.track_id = ?1 AND s.ts >= ?2 AND s.ts <"
			      " ?2 + ?3 * ?4 AND (%s) GROUP BY 1", match);
	sqlite3_stmt *st;

	memset(hits, 0, (size_t)ncols * sizeof(*hits));
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	free(sql);
	sqlite3_bind_int64(st, 1, track);
	sqlite3_bind_int64(st, 2, t0);
	sqlite3_bind_int64(st, 3, colw);
	sqlite3_bind_int64(st, 4, ncols);
	while (sqlite3_step(st) == SQLITE_ROW)
		hits[sqlite3_column_int64(st, 0)] = sqlite3_column_int64(st, 1);
	sqlite3_finalize(st);
}

/* A search's frame of 64 columns on a track is brute_cols' with match. */
static void frame_is_brute(struct search *s, sqlite3 *db, const char *match,
			   const struct mtrack *t, int64_t t0, int64_t colw)
{
	int64_t a[64], b[64];

	assert_int_equal(search_frame(s, t, t0, colw, 64, a), 0);
	brute_cols(db, match, t->id, t0, colw, 64, b);
	for (int c = 0; c < 64; c++)
		if (a[c] != b[c])
			fail_msg("%s from %lld by %lld, column %d: %lld, sqlite3"
				 " %lld", t->name, (long long)t0,
				 (long long)colw, c, (long long)a[c],
				 (long long)b[c]);
}

/* The condition of the free word matmul: its name or its layer. */
#define WORD_MATCH "s.name IN (SELECT id FROM string WHERE str LIKE" \
	" '%matmul%') OR s.cat IN (SELECT id FROM string WHERE str LIKE" \
	" '%matmul%')"

/* A free word that names and layers hold: each row's frames and counts
 * are those of its events, whether a row's name or category aggregates
 * answer or its events are read; the rows where one kind of aggregate
 * tells are answered from it (their answers stay when the events are
 * changed behind the aggregates), the mixed row from its events. */
static void test_word_aggregates(void **state)
{
	char *cache = word_cache();
	struct model *m = model_open(cache);
	struct search *s;
	struct mtrack *t;
	sqlite3 *db;
	size_t n;
	char *err;
	int64_t a[64], before[4][64];
	int64_t colw = lod_width(9);

	(void)state;
	assert_non_null(m);
	assert_int_equal(sqlite3_open(cache, &db), SQLITE_OK);
	s = search_new(m, 1, "matmul", &err);
	assert_non_null(s);
	model_tracks(m, 1, &t, &n);
	assert_int_equal(n, 4);
	for (size_t i = 0; i < n; i++) {
		for (int level = 0; level < 11; level++) {
			int64_t w = lod_width(level) * 3;

			frame_is_brute(s, db, WORD_MATCH, &t[i], 0, w);
		}
	}
	for (int k = 0; k < 20; k++) {
		struct search_stats x;
		int64_t t0 = 1000 * k * k, t1 = t0 + 79193 * (k + 1) * 13;

		assert_int_equal(search_stats(s, t, n, t0, t1, &x), 0);
		assert_int_equal(x.count, cache_int(db, "SELECT count(*) FROM"
			" slice WHERE ts >= ?1 AND ts < ?2 AND (name IN (SELECT id"
			" FROM string WHERE str LIKE '%matmul%') OR cat IN (SELECT"
			" id FROM string WHERE str LIKE '%matmul%'))", t0, t1));
		assert_int_equal(x.dur, cache_int(db, "SELECT coalesce(sum(dur),"
			" 0) FROM slice WHERE ts >= ?1 AND ts < ?2 AND (name IN"
			" (SELECT id FROM string WHERE str LIKE '%matmul%') OR cat"
			" IN (SELECT id FROM string WHERE str LIKE '%matmul%'))",
			t0, t1));
		search_stats_free(&x);
	}
	/* n and N from points across the profile: the nearest match */
	for (int k = 0; k < 200; k++) {
		int64_t ts = t[0].max_ts / 200 * k + k % 7, id = k * 397;
		struct mslice x;

		x.id = 0;
		assert_true(search_step(s, ts, id, 1, &x) >= 0);
		assert_int_equal(x.id, cache_int(db, "SELECT coalesce((SELECT id"
			" FROM slice WHERE (ts > ?1 OR (ts = ?1 AND id > ?2)) AND"
			" (name IN (SELECT id FROM string WHERE str LIKE"
			" '%matmul%') OR cat IN (SELECT id FROM string WHERE str"
			" LIKE '%matmul%')) ORDER BY ts, id LIMIT 1), 0)", ts, id));
		x.id = 0;
		assert_true(search_step(s, ts, id, -1, &x) >= 0);
		assert_int_equal(x.id, cache_int(db, "SELECT coalesce((SELECT id"
			" FROM slice WHERE (ts < ?1 OR (ts = ?1 AND id < ?2)) AND"
			" (name IN (SELECT id FROM string WHERE str LIKE"
			" '%matmul%') OR cat IN (SELECT id FROM string WHERE str"
			" LIKE '%matmul%')) ORDER BY ts DESC, id DESC LIMIT 1), 0)",
			ts, id));
	}
	/* a page of matches, forward and back, is the list's */
	for (int dir = -1; dir <= 1; dir += 2) {
		struct collect pg = { NULL, 0 }, all = { NULL, 0 };
		int64_t t0 = 100000, t1 = 400000;

		assert_int_equal(search_list(s, t0, t1, 0, INT64_MAX, collect,
					     &all), 0);
		assert_true(all.n > 500);
		assert_int_equal(search_page(s, t0, t1, dir > 0 ? INT64_MIN :
					     INT64_MAX, dir > 0 ? INT64_MIN :
					     INT64_MAX, dir, 500, collect, &pg), 0);
		assert_int_equal(pg.n, 500);
		for (size_t i = 0; i < pg.n; i++)
			assert_int_equal(pg.v[i].id, all.v[dir > 0 ? i :
							   all.n - 1 - i].id);
		free(pg.v);
		free(all.v);
	}
	for (size_t i = 0; i < n; i++)
		assert_int_equal(search_frame(s, &t[i], 0, colw, 64,
					      before[i]), 0);
	search_free(s);
	model_tracks_free(t, n);
	model_close(m);

	/* no event holds the word any more; the aggregates still say so */
	assert_int_equal(sqlite3_exec(db, "UPDATE slice SET name = (SELECT id"
		" FROM string WHERE str = 'COPY'), cat = (SELECT id FROM string"
		" WHERE str = 'enc/add')", NULL, NULL, NULL), SQLITE_OK);
	m = model_open(cache);
	s = search_new(m, 1, "matmul", &err);
	model_tracks(m, 1, &t, &n);
	for (size_t i = 0; i < n; i++) {
		int64_t sum = 0;

		assert_int_equal(search_frame(s, &t[i], 0, colw, 64, a), 0);
		for (int c = 0; c < 64; c++)
			sum += a[c];
		if (!strcmp(t[i].name, "Scalar"))
			assert_int_equal(sum, 0);
		else if (memcmp(a, before[i], sizeof(a)))
			fail_msg("%s: read from its events", t[i].name);
	}
	search_free(s);
	model_tracks_free(t, n);
	model_close(m);
	sqlite3_close(db);
	unlink(cache);
	free(cache);
}

/* A term on an instruction column alone: a frame or count over a wide
 * range reads every row's matches in one pass from the instructions,
 * a narrow one the row's events; both are sqlite3's, and so are counts
 * whose range ends inside a frame's last column. */
static void test_instruction_pass(void **state)
{
	char *cache = word_cache();
	struct model *m = model_open(cache);
	struct search *s;
	struct mtrack *t;
	sqlite3 *db;
	size_t n;
	char *err;

	(void)state;
	assert_non_null(m);
	assert_int_equal(sqlite3_open(cache, &db), SQLITE_OK);
	s = search_new(m, 1, "pc>30", &err);
	assert_non_null(s);
	model_tracks(m, 1, &t, &n);
	for (int k = 0; k < 12; k++) {
		int64_t span = t[0].max_ts + 1, t0 = k % 3 * 1000;
		int64_t colw = (span >> (k / 3 * 2)) / 64 + 1;
		struct search_stats x;
		int64_t t1 = t0 + colw * 64 - colw / 3;

		for (size_t i = 0; i < n; i++) {
			frame_is_brute(s, db, "i.pc > 30", &t[i], t0, colw);
		}
		/* after the frame: its columns, and the last part read */
		assert_int_equal(search_stats(s, t, n, t0, t1, &x), 0);
		assert_int_equal(x.count, cache_int(db, "SELECT count(*) FROM"
			" slice s JOIN instruction i ON i.slice_id = s.id WHERE"
			" i.pc > 30 AND s.ts >= ?1 AND s.ts < ?2", t0, t1));
		assert_int_equal(x.dur, cache_int(db, "SELECT coalesce(sum(s.dur),"
			" 0) FROM slice s JOIN instruction i ON i.slice_id = s.id"
			" WHERE i.pc > 30 AND s.ts >= ?1 AND s.ts < ?2", t0, t1));
		search_stats_free(&x);
		/* a range of its own */
		assert_int_equal(search_stats(s, t, n, t0 + 7, t1 / 2, &x), 0);
		assert_int_equal(x.count, cache_int(db, "SELECT count(*) FROM"
			" slice s JOIN instruction i ON i.slice_id = s.id WHERE"
			" i.pc > 30 AND s.ts >= ?1 AND s.ts < ?2", t0 + 7, t1 / 2));
		search_stats_free(&x);
	}
	search_free(s);
	model_tracks_free(t, n);
	model_close(m);
	sqlite3_close(db);
	unlink(cache);
	free(cache);
}

static void test_step(void **state)
{
	struct model *m = model_open(fixture_cache);
	char *err;
	struct search *s = search_new(m, 1, "layer~dot", &err);
	struct mslice x;
	int64_t prev = -1, n = 0;

	(void)state;
	x.ts = INT64_MIN;
	x.id = 0;
	while (search_step(s, x.ts, x.id, 1, &x) == 0) {
		assert_true(x.ts >= prev);
		prev = x.ts;
		n++;
	}
	assert_int_equal(n, 5);
	assert_int_equal(search_step(s, INT64_MAX, 0, -1, &x), 0);
	assert_int_equal(x.ts, 1869147);
	/* the same five, one event at a time */
	n = 0;
	for (int64_t id = 1; id <= 64; id++)
		n += search_match(s, id);
	assert_int_equal(n, 5);
	search_free(s);
	model_close(m);
}

/* Paging forward and backward by (ts, id) gives the list search_list
 * gives, for a name search and for one read from the events. */
static void test_page(void **state)
{
	char *cache = big_cache();
	struct model *m = model_open(cache);
	static const char *const queries[] = { "opcode=MATMUL", "dur>20" };
	int64_t t0 = 5000, t1 = 90000;

	(void)state;
	for (size_t q = 0; q < NX_ARRAY_SIZE(queries); q++) {
		char *err;
		struct search *s = search_new(m, 1, queries[q], &err);
		struct collect all = { 0 }, fwd = { 0 }, back = { 0 };
		size_t before;

		assert_non_null(s);
		assert_int_equal(search_list(s, t0, t1, 0, INT64_MAX, collect,
					     &all), 0);
		assert_true(all.n > 20);
		do {
			before = fwd.n;
			assert_int_equal(search_page(s, t0, t1,
				fwd.n ? fwd.v[fwd.n - 1].ts : INT64_MIN,
				fwd.n ? fwd.v[fwd.n - 1].id : INT64_MIN, 1, 7,
				collect, &fwd), 0);
		} while (fwd.n > before);
		do {
			before = back.n;
			assert_int_equal(search_page(s, t0, t1,
				back.n ? back.v[back.n - 1].ts : INT64_MAX,
				back.n ? back.v[back.n - 1].id : INT64_MAX, -1, 5,
				collect, &back), 0);
		} while (back.n > before);
		assert_int_equal(fwd.n, all.n);
		assert_int_equal(back.n, all.n);
		for (size_t i = 0; i < all.n; i++) {
			assert_int_equal(fwd.v[i].id, all.v[i].id);
			assert_int_equal(back.v[all.n - 1 - i].id, all.v[i].id);
		}
		free(all.v);
		free(fwd.v);
		free(back.v);
		search_free(s);
	}
	model_close(m);
	free(cache);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_terms),
		cmocka_unit_test(test_negation),
		cmocka_unit_test(test_bad_queries),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_regex_check),
		cmocka_unit_test(test_quote_round_trip),
		cmocka_unit_test(test_built_query),
		cmocka_unit_test(test_neuroncore),
		cmocka_unit_test(test_aggregates_match_events),
		cmocka_unit_test(test_aggregate_rows),
		cmocka_unit_test(test_aggregate_runs),
		cmocka_unit_test(test_word_aggregates),
		cmocka_unit_test(test_instruction_pass),
		cmocka_unit_test(test_step),
		cmocka_unit_test(test_page),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
