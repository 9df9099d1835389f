/* The external sort of out-of-order events (model/writer/spill.c): rows
 * come back in (key, sub, ts, seq) order, sub compared as SQLite compares
 * blobs (NULL first, bytes, a prefix first), with every field and text
 * as it went in; all in memory and merged from runs of a few rows. The
 * expected order is a sort of the same rows by the comparison written
 * out here. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/writer/spill.h"

#define NROWS 3000

struct row {
	int64_t key, ts, seq, val;
	int tag;
	char sub[8];
	int has_sub;
	size_t sublen;
	char text[4][24];
	int has_text[4];
};

static uint32_t rnd_state;

static uint32_t rnd(void)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return rnd_state >> 8;
}

/* Few keys, subs and times, so that every sort key decides somewhere;
 * subs of 0 to 3 bytes over "ab\0" (a prefix of another, a NUL inside). */
static void make(struct row *r, int64_t seq)
{
	memset(r, 0, sizeof(*r));
	r->key = (int64_t)(rnd() % 4) - 1;
	r->has_sub = rnd() % 5 != 0;
	r->sublen = r->has_sub ? rnd() % 4 : 0;
	for (size_t i = 0; i < r->sublen; i++)
		r->sub[i] = "ab"[rnd() % 3 % 2] * (rnd() % 4 != 0);
	r->ts = (int64_t)(rnd() % 7) * 1000 - 3000;
	r->seq = seq;
	r->val = (int64_t)rnd() << 20;
	r->tag = (int)(rnd() % 6);
	for (int i = 0; i < 4; i++) {
		r->has_text[i] = rnd() % 3 != 0;
		if (r->has_text[i])
			snprintf(r->text[i], sizeof(r->text[i]), "t%d-%u", i,
				 rnd() % 100000);
	}
}

static int want_cmp(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	size_t n;
	int c;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->has_sub != b->has_sub)
		return a->has_sub ? 1 : -1;
	n = a->sublen < b->sublen ? a->sublen : b->sublen;
	c = memcmp(a->sub, b->sub, n);
	if (c)
		return c;
	if (a->sublen != b->sublen)
		return a->sublen < b->sublen ? -1 : 1;
	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void check_sort(const char *run_bytes)
{
	static struct row rows[NROWS];
	struct spill *s;
	struct spill_row got;
	size_t n = 0;

	if (run_bytes)
		setenv("NXTOP_TEST_SPILL_RUN", run_bytes, 1);
	else
		unsetenv("NXTOP_TEST_SPILL_RUN");
	s = spill_open();
	assert_non_null(s);
	rnd_state = 7;
	/* seq in arrival order, rows arriving in no order */
	for (size_t i = 0; i < NROWS; i++) {
		struct spill_row in;

		make(&rows[i], (int64_t)i);
		in = (struct spill_row){ rows[i].key,
			rows[i].has_sub ? rows[i].sub : NULL, rows[i].sublen,
			rows[i].ts, rows[i].seq, rows[i].tag, rows[i].val,
			{ NULL, NULL, NULL, NULL } };
		for (int k = 0; k < 4; k++)
			in.text[k] = rows[i].has_text[k] ? rows[i].text[k] : NULL;
		assert_int_equal(spill_add(s, &in), 0);
	}
	qsort(rows, NROWS, sizeof(*rows), want_cmp);
	assert_int_equal(spill_sort(s), 0);
	while (spill_next(s, &got) == 1) {
		const struct row *w = &rows[n++];

		assert_true(n <= NROWS);
		assert_int_equal(got.key, w->key);
		assert_int_equal(got.sub != NULL, w->has_sub);
		assert_int_equal(got.sublen, w->sublen);
		if (w->sublen)
			assert_memory_equal(got.sub, w->sub, w->sublen);
		assert_int_equal(got.ts, w->ts);
		assert_int_equal(got.seq, w->seq);
		assert_int_equal(got.tag, w->tag);
		assert_int_equal(got.val, w->val);
		for (int k = 0; k < 4; k++) {
			assert_int_equal(got.text[k] != NULL, w->has_text[k]);
			if (w->has_text[k])
				assert_string_equal(got.text[k], w->text[k]);
		}
	}
	assert_int_equal(n, NROWS);
	assert_int_equal(spill_next(s, &got), 0);
	spill_close(s);
	unsetenv("NXTOP_TEST_SPILL_RUN");
}

static void test_in_memory(void **state)
{
	(void)state;
	check_sort(NULL);
}

/* About 3 rows a run: a thousand runs merged. */
static void test_runs(void **state)
{
	(void)state;
	check_sort("300");
}

/* Runs of one row: each row larger than the bound. */
static void test_one_row_runs(void **state)
{
	(void)state;
	check_sort("1");
}

static void test_empty(void **state)
{
	struct spill *s = spill_open();
	struct spill_row r;

	(void)state;
	assert_int_equal(spill_sort(s), 0);
	assert_int_equal(spill_next(s, &r), 0);
	spill_close(s);
	/* closed without sorting, with rows written to runs */
	setenv("NXTOP_TEST_SPILL_RUN", "1", 1);
	s = spill_open();
	for (int i = 0; i < 3; i++) {
		struct spill_row in = { i, NULL, 0, i, i, 0, 0,
					{ "x", NULL, NULL, NULL } };

		assert_int_equal(spill_add(s, &in), 0);
	}
	spill_close(s);
	unsetenv("NXTOP_TEST_SPILL_RUN");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_memory),
		cmocka_unit_test(test_runs),
		cmocka_unit_test(test_one_row_runs),
		cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
