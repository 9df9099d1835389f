/* span: the union lengths of tagged intervals that arrive nearly in
 * start order (a Parquet layer's active time per engine). Expected
 * lengths are counted by hand in each test. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "src/import/parquet/span.h"

/* Pushes n intervals [start, end) tagged tag[i], merging what leaves
 * the window, then flushes it. */
static void feed(struct span *u, const int64_t (*iv)[3], size_t n)
{
	struct span_window w = { .n = 0 };
	struct span_iv out;

	for (size_t i = 0; i < n; i++) {
		struct span_iv x = { iv[i][0], iv[i][1], (size_t)iv[i][2] };

		if (span_push(&w, x, &out))
			span_merge(&u[out.tag], out.start, out.end);
	}
	while (span_pop(&w, &out))
		span_merge(&u[out.tag], out.start, out.end);
}

/* Overlaps count once, gaps not at all, tags apart; shuffled within the
 * window, the same. */
static void test_union(void **state)
{
	static const int64_t iv[][3] = {
		{ 30, 50, 0 }, { 0, 10, 0 }, { 5, 20, 0 }, { 40, 45, 0 },
		{ 0, 100, 1 }, { 60, 70, 0 }, { 10, 20, 1 }, { 65, 80, 0 },
	};
	struct span u[3] = { { 0 } };

	(void)state;
	feed(u, iv, sizeof(iv) / sizeof(iv[0]));
	/* tag 0: [0,20) 20 + [30,50) 20 + [60,80) 20 */
	assert_int_equal(span_len(&u[0]), 60);
	assert_int_equal(span_len(&u[1]), 100);
	assert_int_equal(span_len(&u[2]), 0);
}

/* An interval that comes after more than a window of later ones of its
 * tag leaves that union unknown, not wrong; other tags keep theirs. */
static void test_unordered(void **state)
{
	int64_t iv[SPAN_WINDOW + 3][3];
	struct span u[2] = { { 0 } };
	size_t n = 0;

	(void)state;
	for (int64_t i = 0; i <= SPAN_WINDOW; i++, n++) {
		iv[n][0] = 100 + 10 * i;
		iv[n][1] = 105 + 10 * i;
		iv[n][2] = 0;
	}
	iv[n][0] = 0, iv[n][1] = 5, iv[n++][2] = 0;
	iv[n][0] = 1000, iv[n][1] = 1001, iv[n++][2] = 1;
	feed(u, (const int64_t (*)[3])iv, n);
	assert_int_equal(span_len(&u[0]), -1);
	assert_int_equal(span_len(&u[1]), 1);
}

/* Hostile times: the length saturates instead of overflowing. */
static void test_saturates(void **state)
{
	static const int64_t iv[][3] = {
		{ INT64_MIN, INT64_MAX, 0 }, { INT64_MIN + 1, INT64_MAX, 1 },
		{ INT64_MAX - 1, INT64_MAX, 1 },
	};
	struct span u[2] = { { 0 } };

	(void)state;
	feed(u, iv, sizeof(iv) / sizeof(iv[0]));
	assert_int_equal(span_len(&u[0]), INT64_MAX);
	assert_int_equal(span_len(&u[1]), INT64_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_union),
		cmocka_unit_test(test_unordered),
		cmocka_unit_test(test_saturates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
