#include "config.h"

#include "src/json/jkeys.h"

#include <stdint.h>
#include <string.h>

#include "model/util.h"

void jkeys_init(struct jkeys *k, unsigned char *buf, size_t cap, size_t n,
		jsplit_read_fn read, void *ctx)
{
	*k = (struct jkeys){ .buf = buf, .cap = cap, .len = n, .read = read,
			     .ctx = ctx };
	if (n >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		k->pos = 3;
}

/* 1 when a byte is waiting in buf, reading more when none is. */
static int fill(struct jkeys *k)
{
	long n;

	if (k->pos < k->len)
		return 1;
	if (k->done || !k->read) {
		k->done = 1;
		return 0;
	}
	n = k->read(k->ctx, k->buf, k->cap);
	if (n <= 0) {
		k->done = 1;
		return 0;
	}
	k->pos = 0;
	k->len = (size_t)n;
	return 1;
}

int jkeys_peek(struct jkeys *k)
{
	while (fill(k)) {
		unsigned char c = k->buf[k->pos];

		if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
			return c;
		k->pos++;
	}
	return -1;
}

void jkeys_take(struct jkeys *k)
{
	if (k->pos < k->len)
		k->pos++;
}

/* A string past its opening quote, up to and past its closing one. Its
 * raw bytes go to key (cap of them at most; key may be NULL) and *n is
 * their count, which passes cap when the string is longer. 0, or -1 if
 * the input ends first. */
static int string(struct jkeys *k, char *key, size_t cap, size_t *n)
{
	int escaped = 0;

	*n = 0;
	while (fill(k)) {
		const unsigned char *p = k->buf + k->pos, *end = k->buf + k->len;
		const unsigned char *q = p;

		if (escaped)
			q++;
		while (q < end && *q != '"' && *q != '\\')
			q++;
		escaped = 0;
		if (q < end && *q == '\\') {
			escaped = 1;
			q++;
		}
		if (key && *n < cap)
			memcpy(key + *n, p, NX_MIN((size_t)(q - p), cap - *n));
		if (q < end && *q == '"' && !escaped) {
			*n += (size_t)(q - p);
			k->pos = (size_t)(q - k->buf) + 1;
			return 0;
		}
		*n += (size_t)(q - p);
		k->pos = (size_t)(q - k->buf);
	}
	return -1;
}

/* Passes over one value; 0, or -1 if the input ends inside it or it
 * cannot start a value. Brackets are counted, not matched. */
static int skip_value(struct jkeys *k)
{
	uint64_t depth = 0;
	size_t n;
	int c = jkeys_peek(k);

	if (c < 0 || strchr(",:}]", c))
		return -1;
	if (c == '"') {
		jkeys_take(k);
		return string(k, NULL, 0, &n);
	}
	if (c != '{' && c != '[') {
		/* a number or a literal: up to what follows it */
		while (fill(k) && !memchr(",}] \t\r\n", k->buf[k->pos], 7))
			k->pos++;
		return 0;
	}
	while (fill(k)) {
		const unsigned char *p = k->buf + k->pos, *end = k->buf + k->len;

		while (p < end && *p != '"' && *p != '{' && *p != '[' &&
		       *p != '}' && *p != ']')
			p++;
		k->pos = (size_t)(p - k->buf);
		if (p == end)
			continue;
		k->pos++;
		if (*p == '"') {
			if (string(k, NULL, 0, &n))
				return -1;
		} else if (*p == '{' || *p == '[') {
			depth++;
		} else if (!--depth) {
			return 0;
		}
	}
	return -1;
}

int jkeys_walk(struct jkeys *k, jkeys_fn fn, void *arg)
{
	char key[JSPLIT_MAX_KEY];
	size_t n;
	int c, rc;

	if (jkeys_peek(k) == '}')
		return 0;
	for (;;) {
		if (jkeys_peek(k) != '"')
			return -1;
		jkeys_take(k);
		if (string(k, key, sizeof(key), &n) || jkeys_peek(k) != ':')
			return -1;
		jkeys_take(k);
		if (n <= sizeof(key) && (rc = fn(arg, key, n)))
			return rc;
		if (skip_value(k))
			return -1;
		c = jkeys_peek(k);
		if (c == '}')
			return 0;
		if (c != ',')
			return -1;
		jkeys_take(k);
	}
}
