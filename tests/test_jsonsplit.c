/* The streaming JSON splitter: record boundaries, keys and indexes,
 * numbers a double may not hold kept as text, strings with brackets and
 * escapes, buffer boundaries, and one clear error for each kind of
 * malformed input. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "model/util.h"
#include "src/json/jsonsplit.h"
#include "tests/testutil.h"

struct got {
	int kind[32];
	char key[32][32];
	unsigned long long index[32];
	unsigned long long offset[32];
	char text[32][256];
	int n;
	int rc;
};

static void split(struct jsplit *s, struct got *g)
{
	struct jrec r;

	memset(g, 0, sizeof(*g));
	while ((g->rc = jsplit_next(s, &r)) == 1 && g->n < 32) {
		g->kind[g->n] = r.kind;
		snprintf(g->key[g->n], 32, "%s", r.key ? r.key : "");
		g->index[g->n] = r.index;
		g->offset[g->n] = r.offset;
		snprintf(g->text[g->n], 256, "%s", r.kind == JREC_ARRAY_END ? "" : r.text);
		g->n++;
	}
	jsplit_close(s);
}

static void split_mem(const char *text, struct got *g)
{
	split(jsplit_open_mem(text, strlen(text), "t.json"), g);
}

/* Feeds the splitter one byte per read, to cross every buffer edge. */
struct trickle {
	const char *p;
	size_t left;
};

static long trickle_read(void *ctx, void *buf, size_t len)
{
	struct trickle *t = ctx;

	(void)len;
	if (!t->left)
		return 0;
	*(char *)buf = *t->p++;
	t->left--;
	return 1;
}

static void split_trickle(const char *text, struct got *g)
{
	struct trickle t = { text, strlen(text) };

	split(jsplit_open_reader(trickle_read, &t, "t.json"), g);
}

static const char device_doc[] =
	"{\"instruction\": [ {\"id\": 1, \"s\": \"a]}\\\"b\"},\n"
	"  {\"id\": 2} ],\"metadata\":[{\"x\":[1,[2,{}]]}], \"empty\": [],"
	" \"scalar\": {\"k\": true} }";

static void check_device(const struct got *g)
{
	assert_int_equal(g->rc, 0);
	assert_int_equal(g->n, 7);
	assert_int_equal(g->kind[0], JREC_ITEM);
	assert_string_equal(g->key[0], "instruction");
	assert_string_equal(g->text[0], "{\"id\":1,\"s\":\"a]}\\\"b\"}");
	assert_int_equal(g->index[1], 1);
	assert_string_equal(g->text[1], "{\"id\":2}");
	assert_int_equal(g->kind[2], JREC_ARRAY_END);
	assert_int_equal(g->index[2], 2);
	assert_string_equal(g->key[3], "metadata");
	assert_string_equal(g->text[3], "{\"x\":[1,[2,{}]]}");
	assert_int_equal(g->kind[5], JREC_ARRAY_END);
	assert_string_equal(g->key[5], "empty");
	assert_int_equal(g->index[5], 0);
	/* an empty array's record is at its '[', as a value's is */
	assert_int_equal(g->offset[5],
			 strstr(device_doc, "\"empty\": []") - device_doc + 9);
	assert_int_equal(g->kind[6], JREC_VALUE);
	assert_string_equal(g->key[6], "scalar");
	assert_string_equal(g->text[6], "{\"k\":true}");
}

static void test_records(void **state)
{
	struct got g;

	(void)state;
	split_mem(device_doc, &g);
	check_device(&g);
	assert_int_equal(g.offset[0], 18);
}

static void test_buffer_edges(void **state)
{
	struct got g;

	(void)state;
	split_trickle(device_doc, &g);
	check_device(&g);
}

static void expect_error(const char *text, const char *msg)
{
	struct got g;

	split_mem(text, &g);
	assert_int_equal(g.rc, -1);
	if (!strstr(err_get(), msg))
		fail_msg("error \"%s\" lacks \"%s\"", err_get(), msg);
}

/* The error is msg exactly, whether the buffer holds the text whole or
 * cuts it at every byte. */
static void expect_exact(const char *text, const char *msg)
{
	struct got g;

	split_mem(text, &g);
	assert_int_equal(g.rc, -1);
	assert_string_equal(err_get(), msg);
	split_trickle(text, &g);
	assert_int_equal(g.rc, -1);
	assert_string_equal(err_get(), msg);
}

/* Numbers a double may not hold (integers of more than 15 digits, and
 * decimals) reach cJSON as tagged text, whether the buffer holds them
 * whole or cuts them; others go as written. */
static const char numbers_doc[] =
	"[{\"a\":9223229769545287789,\"b\":18446744073709551615,"
	"\"c\":-7090796317168725471,\"d\":123456789012345,"
	"\"e\":1.5e300,\"f\":12345678901234567890.5,\"g\":9007199254740993.0,"
	"\"h\":-0.5E-3,\"i\":0,\"j\":-0,\"k\":1E+2}]";

static void check_numbers(const struct got *g)
{
	assert_int_equal(g->rc, 0);
	assert_string_equal(g->text[0],
		"{\"a\":\"\x01" "9223229769545287789\","
		"\"b\":\"\x01" "18446744073709551615\","
		"\"c\":\"\x01-7090796317168725471\",\"d\":123456789012345,"
		"\"e\":\"\x01" "1.5e300\",\"f\":\"\x01" "12345678901234567890.5\","
		"\"g\":\"\x01" "9007199254740993.0\",\"h\":\"\x01-0.5E-3\","
		"\"i\":0,\"j\":-0,\"k\":\"\x01" "1E+2\"}");
}

static void test_number_text(void **state)
{
	struct got g;

	(void)state;
	split_mem(numbers_doc, &g);
	check_numbers(&g);
	split_trickle(numbers_doc, &g);
	check_numbers(&g);
}

/* Numbers that are not JSON are refused at the byte where they go
 * wrong, whole or cut by the buffer: leading zeros, a '.' or an
 * exponent without digits, a sign alone, a second sign or '.'. A '+' or
 * a '.' cannot start a value. */
static void test_bad_numbers(void **state)
{
	(void)state;
	expect_exact("[01]", "t.json: byte 2: malformed number \"01\": expected"
		     " no digit after a leading 0, found '1' in [0]");
	expect_exact("{\"a\":[{\"b\":-00.5}]}", "t.json: byte 13: malformed"
		     " number \"-00.5\": expected no digit after a leading 0,"
		     " found '0' in \"a\"[0]");
	expect_exact("[1.]", "t.json: byte 3: malformed number \"1.\": expected"
		     " a digit after '.' in [0]");
	expect_exact("[1.e5]", "t.json: byte 3: malformed number \"1.e5\":"
		     " expected a digit after '.', found 'e' in [0]");
	expect_exact("[1e]", "t.json: byte 3: malformed number \"1e\": expected"
		     " a digit in the exponent in [0]");
	expect_exact("[2E-]", "t.json: byte 4: malformed number \"2E-\":"
		     " expected a digit in the exponent in [0]");
	expect_exact("{\"a\":-}", "t.json: byte 6: malformed number \"-\":"
		     " expected a digit after '-' in \"a\"");
	expect_exact("[1.5.5]", "t.json: byte 4: malformed number \"1.5.5\":"
		     " expected the number to end, found '.' in [0]");
	expect_exact("[1-2345678901234567]", "t.json: byte 2: malformed number"
		     " \"1-2345678901234567\": expected the number to end, found"
		     " '-' in [0]");
	expect_exact("[+1]", "t.json: byte 1: expected a JSON value, found '+'"
		     " in [0]");
	expect_exact("[.5]", "t.json: byte 1: expected a JSON value, found '.'"
		     " in [0]");
}

static void test_bare_array(void **state)
{
	struct got g;

	(void)state;
	split_mem("\xef\xbb\xbf [ 1, \"x\", {\"a\": null} ]\n", &g);
	assert_int_equal(g.rc, 0);
	assert_int_equal(g.n, 4);
	assert_string_equal(g.text[0], "1");
	assert_string_equal(g.text[1], "\"x\"");
	assert_string_equal(g.text[2], "{\"a\":null}");
	assert_string_equal(g.key[0], "");
	split_mem("[]", &g);
	assert_int_equal(g.rc, 0);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.kind[0], JREC_ARRAY_END);
	split_mem("{}", &g);
	assert_int_equal(g.rc, 0);
	assert_int_equal(g.n, 0);
}

/* Strings are JSON as RFC 8259 has it: each escape it defines passes as
 * written, whole or cut by the buffer. Any other escape, a \u without
 * four hex digits and a raw control byte (which JSON requires escaped)
 * are refused at that byte, in values and in keys, at the top level and
 * in records, never read as something the file does not say. */
static void test_strings(void **state)
{
	static const char ok[] =
		"{\"k\\t\\\"\":[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\uD83D\\uDE00\","
		"{\"\\u0041\":\"\\u001b\"}]}";
	struct got g;

	(void)state;
	split_mem(ok, &g);
	assert_int_equal(g.rc, 0);
	assert_string_equal(g.text[0],
		"\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\uD83D\\uDE00\"");
	assert_string_equal(g.text[1], "{\"\\u0041\":\"\\u001b\"}");
	split_trickle(ok, &g);
	assert_int_equal(g.rc, 0);
	assert_string_equal(g.text[1], "{\"\\u0041\":\"\\u001b\"}");
	expect_exact("[\"a\\x\"]", "t.json: byte 4: expected one of \" \\ / b"
		     " f n r t u after \\ in a string, found 'x' in [0]");
	expect_exact("[\"\\U0041\"]", "t.json: byte 3: expected one of \" \\ /"
		     " b f n r t u after \\ in a string, found 'U' in [0]");
	expect_exact("[\"\\u12\"]", "t.json: byte 6: expected 4 hex digits"
		     " after \\u in a string, found '\"' in [0]");
	expect_exact("{\"a\":[{\"b\":\"\\u12zz\"}]}", "t.json: byte 16:"
		     " expected 4 hex digits after \\u in a string, found 'z'"
		     " in \"a\"[0]");
	expect_exact("[\"a\tb\"]", "t.json: byte 3: raw control byte 0x09 in"
		     " a string, expected it escaped as \\u0009 in [0]");
	expect_exact("{\"a\":[{\"b\n\":1}]}", "t.json: byte 9: raw control"
		     " byte 0x0a in a string, expected it escaped as \\u000a in"
		     " \"a\"[0]");
	expect_exact("{\"a\x1f\":[]}", "t.json: byte 3: raw control byte 0x1f"
		     " in a string, expected it escaped as \\u001f");
	expect_exact("{\"a\\q\":[]}", "t.json: byte 4: expected one of \" \\ /"
		     " b f n r t u after \\ in a string, found 'q'");
}

/* Records follow JSON's grammar, checked as they are cut: a token
 * where the grammar has none is refused at that byte (blanks are
 * dropped as records are copied, so [1 2] would otherwise become [12]),
 * whether the buffer holds the record whole or cuts it anywhere. */
static void test_grammar(void **state)
{
	(void)state;
	expect_exact("[[1 2]]", "t.json: byte 4: expected ',' or ']', found"
		     " '2' in [0]");
	expect_exact("[[\"a\" \"b\"]]", "t.json: byte 6: expected ',' or ']',"
		     " found '\"' in [0]");
	expect_exact("[[true false]]", "t.json: byte 7: expected ',' or ']',"
		     " found 'f' in [0]");
	expect_exact("[{\"a\" 1}]", "t.json: byte 6: expected ':', found '1'"
		     " in [0]");
	expect_exact("[{\"a\"}]", "t.json: byte 5: expected ':', found '}'"
		     " in [0]");
	expect_exact("[{\"a\":}]", "t.json: byte 6: expected a JSON value,"
		     " found '}' in [0]");
	expect_exact("[{\"a\":1 \"b\":2}]", "t.json: byte 8: expected ',' or"
		     " '}', found '\"' in [0]");
	expect_exact("[{\"a\":1:2}]", "t.json: byte 7: expected ',' or '}',"
		     " found ':' in [0]");
	expect_exact("[{\"a\":1,}]", "t.json: byte 8: expected a quoted key,"
		     " found '}' in [0]");
	expect_exact("[[1,]]", "t.json: byte 4: expected a JSON value, found"
		     " ']' in [0]");
	expect_exact("[{1:2}]", "t.json: byte 2: expected a quoted key or"
		     " '}', found '1' in [0]");
	expect_exact("[[1:2]]", "t.json: byte 3: expected ',' or ']', found"
		     " ':' in [0]");
	expect_exact("[{\"a\":[1}]", "t.json: byte 8: expected ',' or ']',"
		     " found '}' in [0]");
	expect_exact("{\"a\":{\"b\":1 2}}", "t.json: byte 12: expected ',' or"
		     " '}', found '2' in \"a\"");
	expect_exact("[{\"a\":1", "t.json: byte 7: unexpected end of file,"
		     " expected ',' or '}' in [0]");
}

/* Top-level keys are given decoded, as JSON means them, and cleaned of
 * what a terminal would act on: an escaped control character is U+FFFD
 * (EF BF BD), so errors quote the key as the file writes it, never raw
 * and never with its escapes half read. */
static void test_keys(void **state)
{
	static const char doc[] =
		"{\"ab\\u001bcd\":[1],\"a\\\"b\\\\c\\/d\\u00e9\\ud83d\\ude00\":2,"
		"\"trace\\u0045vents\":[]}";
	struct got g;

	(void)state;
	for (int cut = 0; cut < 2; cut++) {
		if (cut)
			split_trickle(doc, &g);
		else
			split_mem(doc, &g);
		assert_int_equal(g.rc, 0);
		assert_int_equal(g.n, 4);
		assert_string_equal(g.key[0], "ab\xef\xbf\xbd" "cd");
		assert_string_equal(g.key[2], "a\"b\\c/d\xc3\xa9\xf0\x9f\x98\x80");
		assert_string_equal(g.key[3], "traceEvents");
	}
	expect_exact("{\"ab\\u001bcd\":[1 2]}", "t.json: byte 17: expected ','"
		     " or ']', found '2' in \"ab\xef\xbf\xbd" "cd\"[0]");
	expect_exact("{\"\\t\\u0000\":{\"a\":", "t.json: byte 17: unexpected"
		     " end of file, expected a JSON value in \" \xef\xbf\xbd\"");
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("", "t.json: byte 0: empty file");
	expect_error("{\"instruction\": [{\"id\": 1}, {\"id\"",
		     "unexpected end of file");
	expect_error("{\"instruction\": [{\"id\": 1}, {\"id\"",
		     "in \"instruction\"[1]");
	expect_error("{\"a\": [1] \"b\": [2]}", "byte 10: expected ',' or '}'");
	expect_error("{\"a\": [1 2]}", "expected ',' or ']'");
	expect_error("{\"a\": [NaN]}", "expected a JSON value, found 'N'");
	expect_error("{\"a\": [1]} x", "expected end of file");
	expect_error("{\"a\": [{]}]}", "expected a quoted key or '}', found ']'");
	expect_error("{\"a\": [1],}", "expected a quoted key");
	expect_error("nope", "expected '{' or '['");
	expect_error("{\"a\": [\"unterminated]}", "unexpected end of file");
	expect_error("{\"a\": [-]}", "malformed number");
}

static void test_depth_limit(void **state)
{
	struct strbuf sb;
	struct got g;

	(void)state;
	sb_init(&sb);
	sb_adds(&sb, "[");
	for (int i = 0; i < JSPLIT_MAX_DEPTH + 1; i++)
		sb_addc(&sb, '[');
	split_mem(sb_cstr(&sb), &g);
	assert_int_equal(g.rc, -1);
	assert_non_null(strstr(err_get(), "nesting deeper than 512"));
	sb_free(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_buffer_edges),
		cmocka_unit_test(test_number_text),
		cmocka_unit_test(test_bad_numbers),
		cmocka_unit_test(test_bare_array),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_grammar),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_depth_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
