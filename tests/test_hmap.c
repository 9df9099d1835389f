/* hmap: 64-bit and string keys, growth, and deletion that keeps every
 * other key findable. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "model/hmap.h"

#define N 20000

static void test_u64(void **state)
{
	static int vals[N];
	struct u64map m;

	(void)state;
	u64map_init(&m);
	for (uint64_t i = 0; i < N; i++)
		assert_null(u64map_put(&m, i * 7919, &vals[i]));
	assert_int_equal(m.n, N);
	/* delete every third key; the rest must stay reachable */
	for (uint64_t i = 0; i < N; i += 3)
		assert_ptr_equal(u64map_del(&m, i * 7919), &vals[i]);
	for (uint64_t i = 0; i < N; i++) {
		if (i % 3)
			assert_ptr_equal(u64map_get(&m, i * 7919), &vals[i]);
		else
			assert_null(u64map_get(&m, i * 7919));
	}
	assert_null(u64map_del(&m, 5));
	assert_ptr_equal(u64map_put(&m, 7919, &vals[0]), &vals[1]);
	u64map_free(&m, NULL);
}

static void test_str(void **state)
{
	static int vals[N];
	struct strmap m;
	char key[32];

	(void)state;
	strmap_init(&m);
	for (int i = 0; i < N; i++) {
		int n = snprintf(key, sizeof(key), "k%d", i);

		assert_null(strmap_put(&m, key, (size_t)n, &vals[i]));
	}
	for (int i = 0; i < N; i++) {
		int n = snprintf(key, sizeof(key), "k%d", i);

		assert_ptr_equal(strmap_get(&m, key, (size_t)n), &vals[i]);
	}
	/* keys are bytes: an embedded NUL is part of the key */
	assert_null(strmap_put(&m, "a\0b", 3, &vals[0]));
	assert_null(strmap_get(&m, "a", 1));
	assert_ptr_equal(strmap_get(&m, "a\0b", 3), &vals[0]);
	strmap_free(&m, NULL);
}

/* Index values: 0 is an index like any other, absent keys say so. */
static void test_index(void **state)
{
	struct strmap m;
	char key[16];
	size_t i;

	(void)state;
	strmap_init(&m);
	assert_int_equal(strmap_index(&m, "a", 1, &i), 0);
	for (size_t k = 0; k < 1000; k++) {
		snprintf(key, sizeof(key), "k%zu", k);
		strmap_put_index(&m, key, strlen(key), k);
	}
	for (size_t k = 0; k < 1000; k++) {
		snprintf(key, sizeof(key), "k%zu", k);
		assert_int_equal(strmap_index(&m, key, strlen(key), &i), 1);
		assert_int_equal(i, k);
	}
	assert_int_equal(strmap_index(&m, "k1000", 5, &i), 0);
	strmap_put_index(&m, "k7", 2, 99);
	assert_int_equal(strmap_index(&m, "k7", 2, &i), 1);
	assert_int_equal(i, 7);
	strmap_free(&m, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_u64),
		cmocka_unit_test(test_str),
		cmocka_unit_test(test_index),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
