/* jscan: member spans of one JSON record, unescaping, exact decimal
 * scaling of Chrome's µs timestamps to ns (and of the integers the
 * Neuron readers take from decimal text), and counter values. jkeys:
 * the top-level keys of an object read as a stream, through buffers of
 * every size. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/util.h"

#include "src/json/jkeys.h"
#include "src/json/jscan.h"
#include "src/json/jsonsplit.h"

static int scaled(const char *text, enum jtype type, int scale, int64_t *out)
{
	struct jspan v = { text, strlen(text), type };

	return jscan_scaled(&v, scale, out);
}

/* µs with fractions become ns exactly, rounding beyond the ns to the
 * nearest (halves away from zero); exponents; numbers in strings. */
static void test_scaled(void **state)
{
	static const struct {
		const char *in;
		int64_t want;
	} ok[] = {
		{ "0", 0 }, { "1", 1000 }, { "-1", -1000 }, { "1.5", 1500 },
		{ "110.001", 110001 }, { "10.0005", 10001 }, { "10.0004999", 10000 },
		{ "-10.0005", -10001 }, { "0.0001", 0 }, { "0.0005", 1 },
		{ "1729888371056597.613", 1729888371056597613LL },
		{ "1.729888371056598e15", 1729888371056598000LL },
		{ "2.5e-3", 3 }, { "1E2", 100000 }, { "000123", 123000 },
		{ "9223372036854775.807", INT64_MAX },
	};
	int64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(scaled(ok[i].in, JT_NUMBER, 3, &v), 0);
		assert_int_equal(v, ok[i].want);
	}
	assert_int_equal(scaled("123.25", JT_STRING, 3, &v), 0);
	assert_int_equal(v, 123250);
	assert_int_equal(scaled("9223372036854775.808", JT_NUMBER, 3, &v),
			 JSCAN_RANGE);
	assert_int_equal(scaled("-9223372036854775.809", JT_NUMBER, 3, &v),
			 JSCAN_RANGE);
	assert_int_equal(scaled("1e400", JT_NUMBER, 3, &v), JSCAN_RANGE);
	assert_int_equal(scaled("1e30", JT_STRING, 3, &v), JSCAN_RANGE);
	assert_int_equal(scaled("abc", JT_STRING, 3, &v), -1);
	assert_int_equal(scaled("1.2.3", JT_NUMBER, 3, &v), -1);
	assert_int_equal(scaled("", JT_STRING, 3, &v), -1);
	assert_int_equal(scaled("true", JT_BOOL, 3, &v), -1);
}

/* Counter values: numbers and strings holding one; a number beyond a
 * double's range told from what is no number at all; one too small is
 * 0; literals as long as the splitter lets through. */
static void test_double(void **state)
{
	static const struct {
		const char *in;
		enum jtype type;
		int rc;
		double want;
	} cases[] = {
		{ "2", JT_NUMBER, 0, 2 }, { "-1.5e3", JT_NUMBER, 0, -1500 },
		{ "3.5", JT_STRING, 0, 3.5 }, { "1e308", JT_NUMBER, 0, 1e308 },
		{ "1e-999", JT_NUMBER, 0, 0 },
		{ "12345678901234567", JT_NUMBER, 0, 12345678901234567.0 },
		{ "1e999", JT_NUMBER, JSCAN_RANGE, 0 },
		{ "-1e999", JT_NUMBER, JSCAN_RANGE, 0 },
		{ "1e999", JT_STRING, JSCAN_RANGE, 0 },
		{ "abc", JT_STRING, -1, 0 }, { "", JT_STRING, -1, 0 },
		{ "nan", JT_STRING, -1, 0 }, { "inf", JT_STRING, -1, 0 },
		{ "1x", JT_STRING, -1, 0 }, { "null", JT_NULL, -1, 0 },
		{ "[1]", JT_ARRAY, -1, 0 }, { "true", JT_BOOL, -1, 0 },
		{ "{\"a\":1}", JT_OBJECT, -1, 0 },
	};
	char lit[401];
	double v;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct jspan s = { cases[i].in, strlen(cases[i].in),
				   cases[i].type };

		v = -7;
		assert_int_equal(jscan_double(&s, &v), cases[i].rc);
		if (!cases[i].rc)
			assert_true(v == cases[i].want);
	}
	memset(lit, '0', 400);
	memcpy(lit, "1.5", 3);
	lit[400] = '\0';
	{
		struct jspan s = { lit, 400, JT_NUMBER };

		assert_int_equal(jscan_double(&s, &v), 0);
		assert_true(v == 1.5);
	}
}

/* Integers written as decimals are exact far past 2^53, and a digit
 * other than 0 rounded off is said (what jv_i64() refuses). */
static void test_decimal(void **state)
{
	static const struct {
		const char *in;
		int scale;
		int64_t want;
		int cut;
	} cases[] = {
		{ "9007199254740993.0", 0, 9007199254740993LL, 0 },
		{ "12345678901234567.000", 0, 12345678901234567LL, 0 },
		{ " 1.729888371056597613e18 ", 0, 1729888371056597613LL, 0 },
		{ "-9223372036854775808.0", 0, INT64_MIN, 0 },
		{ "1729888371.0565977", 9, 1729888371056597700LL, 0 },
		{ "1729888371056597.5", 3, 1729888371056597500LL, 0 },
		{ "0.000", 0, 0, 0 },
		{ "1.5", 0, 2, 1 },
		{ "-1.5", 0, -2, 1 },
		{ "10.0004999", 3, 10000, 1 },
		{ "1e-999", 0, 0, 1 },
		/* 70 significant digits, the last one past what is kept */
		{ "1000000000000000000000000000000000000000000000000000000000000"
		  "000000001e-69", 0, 1, 1 },
	};
	int64_t v;
	int cut;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *in = cases[i].in;

		assert_int_equal(jscan_decimal(in, strlen(in), cases[i].scale,
					       &v, &cut), 0);
		assert_int_equal(v, cases[i].want);
		assert_int_equal(cut, cases[i].cut);
	}
	assert_int_equal(jscan_decimal("9223372036854775808.0", 21, 0, &v,
				       &cut), JSCAN_RANGE);
	assert_int_equal(jscan_decimal("1.2.3", 5, 0, &v, &cut), -1);
}

/* Members come out as raw spans whatever they hold; nested values are
 * skipped whole, strings with escapes and brackets included. */
static void test_members(void **state)
{
	const char *rec = "{\"a\":1,\"b\":\"x\\\"}\",\"c\":{\"d\":[1,{\"e\":\"]\"}]},"
			  "\"f\":null,\"g\":true}";
	struct jscan s;
	struct jspan k, v;
	struct strbuf sb;
	int n = 0;

	(void)state;
	sb_init(&sb);
	assert_int_equal(jscan_object(&s, rec, strlen(rec)), 0);
	while (jscan_member(&s, &k, &v) == 1) {
		n++;
		if (jscan_key_is(&k, "b")) {
			jscan_text(&v, &sb);
			assert_string_equal(sb.buf, "x\"}");
		}
		if (jscan_key_is(&k, "c")) {
			assert_int_equal(v.type, JT_OBJECT);
			assert_int_equal(v.n, strlen("{\"d\":[1,{\"e\":\"]\"}]}"));
		}
		if (jscan_key_is(&k, "f"))
			assert_int_equal(v.type, JT_NULL);
	}
	assert_int_equal(n, 5);
	assert_int_equal(jscan_object(&s, "[1]", 3), -1);
	sb_free(&sb);
}

/* A number the splitter kept as tagged text is a number span of its
 * text alone. */
static void test_tagged(void **state)
{
	const char *rec = "{\"ts\":\"\x01" "12345678901234567.5\"}";
	struct jscan s;
	struct jspan k, v;
	int64_t i;

	(void)state;
	assert_int_equal(jscan_object(&s, rec, strlen(rec)), 0);
	assert_int_equal(jscan_member(&s, &k, &v), 1);
	assert_int_equal(v.type, JT_NUMBER);
	assert_int_equal(v.n, strlen("12345678901234567.5"));
	assert_int_equal(jscan_scaled(&v, 0, &i), 0);
	assert_int_equal(i, 12345678901234568LL);
}

/* Escapes, surrogate pairs, NUL made visible, tags removed. */
static void test_text(void **state)
{
	struct jspan v = { "a\\n\\u00e9\\ud83d\\ude00\\u0000z", 0, JT_STRING };
	const char *tagged = "{\"id\":\"\x01" "18446744073709551615\",\"s\":\"t\"}";
	struct strbuf sb;

	(void)state;
	sb_init(&sb);
	v.n = strlen(v.p);
	jscan_text(&v, &sb);
	assert_string_equal(sb.buf, "a\n\xc3\xa9\xf0\x9f\x98\x80\xef\xbf\xbdz");
	sb_reset(&sb);
	jscan_untag(tagged, strlen(tagged), &sb);
	assert_string_equal(sb.buf, "{\"id\":18446744073709551615,\"s\":\"t\"}");
	sb_free(&sb);
}

/* The rest of a text in memory, at most step bytes a read; a read past
 * fail bytes is an error. */
struct memin {
	const char *p;
	size_t n, step, fail;
};

static long mem_read(void *ctx, void *buf, size_t len)
{
	struct memin *m = ctx;
	size_t n = NX_MIN(NX_MIN(len, m->step), m->n);

	if (n && n >= m->fail)
		return -1;
	memcpy(buf, m->p, n);
	m->p += n;
	m->n -= n;
	m->fail -= n;
	return (long)n;
}

/* Keys joined by '|' until "stop" (when given). */
static int collect(void *arg, const char *key, size_t n)
{
	struct strbuf *sb = arg;

	if (n == 4 && !memcmp(key, "stop", 4))
		return 7;
	sb_printf(sb, "%s%.*s", sb->len ? "|" : "", (int)n, key);
	return 0;
}

/* Walks text with a buffer of cap bytes, the reads step bytes each: the
 * walk's result, the keys in *out. */
static int walk(const char *text, size_t cap, size_t step, size_t fail,
		struct strbuf *out)
{
	unsigned char buf[512];
	size_t len = strlen(text), first = NX_MIN(cap, len);
	struct memin m = { text + first, len - first, step, fail };
	struct jkeys k;

	assert_true(cap <= sizeof(buf));
	memcpy(buf, text, first);
	sb_reset(out);
	sb_cstr(out);
	jkeys_init(&k, buf, cap, first, mem_read, &m);
	if (jkeys_peek(&k) != '{')
		return -2;
	jkeys_take(&k);
	return jkeys_walk(&k, collect, out);
}

/* Keys wherever they come: after strings with escaped quotes and
 * brackets, nested values, numbers and literals, a key too long to be
 * one looked for, whitespace and a byte order mark; escapes and
 * brackets cut by the end of a buffer. Text that is not JSON ends the
 * walk, and so does a read error. */
static void test_keys(void **state)
{
	char text[1024], longkey[301];
	struct strbuf sb;

	(void)state;
	sb_init(&sb);
	memset(longkey, 'x', 300);
	longkey[300] = '\0';
	snprintf(text, sizeof(text), "\xef\xbb\xbf \n{ \"a\\\"b\" : \"x\\\\\\\"}]\" ,"
		 "\"n\":[1,{\"k\":\"]}\\\\\"},[ ]],\"num\":-1.5e3,\"lit\" :true,"
		 "\"o\":{},\"%s\":1,\"stop\":[],\"after\":null}", longkey);
	for (size_t cap = 1; cap <= 512; cap += cap < 40 ? 1 : 97) {
		for (size_t step = 1; step <= cap; step += step < 8 ? 1 : cap) {
			assert_int_equal(walk(text + 3, cap, step, SIZE_MAX, &sb), 7);
			assert_string_equal(sb.buf, "a\\\"b|n|num|lit|o");
		}
	}
	assert_int_equal(walk(text, 64, 64, SIZE_MAX, &sb), 7);
	assert_string_equal(sb.buf, "a\\\"b|n|num|lit|o");
	assert_int_equal(walk("{ }", 8, 8, SIZE_MAX, &sb), 0);
	assert_int_equal(walk("{\"a\":1,\"b\":{\"c\":2}}", 4, 4, SIZE_MAX, &sb), 0);
	assert_string_equal(sb.buf, "a|b");
	assert_int_equal(walk("{\"a\":1,\"stop\":2}", 4, 4, 10, &sb), -1);
	assert_string_equal(sb.buf, "a");
	assert_int_equal(walk("{\"a\" 1}", 4, 4, SIZE_MAX, &sb), -1);
	assert_int_equal(walk("{\"a\":1,}", 4, 4, SIZE_MAX, &sb), -1);
	assert_int_equal(walk("{\"a\":}", 4, 4, SIZE_MAX, &sb), -1);
	assert_int_equal(walk("{\"a\":1 \"b\":2}", 4, 4, SIZE_MAX, &sb), -1);
	assert_int_equal(walk("{\"a\":\"1}", 4, 4, SIZE_MAX, &sb), -1);
	assert_int_equal(walk("{\"a\":[1,{\"b\":2}", 4, 4, SIZE_MAX, &sb), -1);
	assert_int_equal(walk("[\"stop\"]", 4, 4, SIZE_MAX, &sb), -2);
	sb_free(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scaled),
		cmocka_unit_test(test_double),
		cmocka_unit_test(test_decimal),
		cmocka_unit_test(test_tagged),
		cmocka_unit_test(test_members),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
