/* Small helpers shared by every layer: allocation that aborts on
 * out-of-memory, a growable string buffer, thread-local error text. */
#ifndef NX_UTIL_H
#define NX_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define NX_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NX_MIN(a, b) ((a) < (b) ? (a) : (b))
#define NX_MAX(a, b) ((a) > (b) ? (a) : (b))

#if defined(__GNUC__)
#define NX_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define NX_UNUSED __attribute__((unused))
#else
#define NX_PRINTF(f, a)
#define NX_UNUSED
#endif

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
void *xreallocarray(void *p, size_t n, size_t size);
/* Room for need elements of size bytes in p, an array of *cap elements:
 * *cap doubles (from XGROW_MIN) until need fits. Returns the array,
 * moved or not; p itself when it is already large enough. */
#define XGROW_MIN 16
void *xgrow(void *p, size_t *cap, size_t need, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) NX_PRINTF(1, 2);
char *xvasprintf(const char *fmt, va_list ap) NX_PRINTF(1, 0);

/* Growable byte buffer; always NUL-terminated when len > 0 or after
 * sb_cstr(). */
struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
};

void sb_init(struct strbuf *sb);
void sb_free(struct strbuf *sb);
void sb_reset(struct strbuf *sb);
void sb_add(struct strbuf *sb, const void *p, size_t n);
void sb_addc(struct strbuf *sb, char c);
void sb_adds(struct strbuf *sb, const char *s);
void sb_printf(struct strbuf *sb, const char *fmt, ...) NX_PRINTF(2, 3);
void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap);
const char *sb_cstr(struct strbuf *sb);
char *sb_detach(struct strbuf *sb);

/* One error message per thread, set where the error is found and printed
 * once at the edge (main, a view's status line). */
void err_set(const char *fmt, ...) NX_PRINTF(1, 2);
void err_clear(void);
const char *err_get(void);
/* "nxtop: MESSAGE" and a newline on stderr, the message cleaned like
 * err_set()'s: notes quote paths and names from files. */
void err_note(const char *fmt, ...) NX_PRINTF(1, 2);
void err_vnote(const char *fmt, va_list ap);

/* a + b, clamped to the int64 range. */
static inline int64_t sat_add(int64_t a, int64_t b)
{
	if (b > 0 && a > INT64_MAX - b)
		return INT64_MAX;
	if (b < 0 && a < INT64_MIN - b)
		return INT64_MIN;
	return a + b;
}

/* a - b, clamped to the int64 range. */
static inline int64_t sat_sub(int64_t a, int64_t b)
{
	if (b < 0 && a > INT64_MAX + b)
		return INT64_MAX;
	if (b > 0 && a < INT64_MIN + b)
		return INT64_MIN;
	return a - b;
}

/* sum / n rounded to the nearest integer, halves away from zero (a
 * mean of whole nanoseconds: 1273 ns over 16 events is 80 ns); 0 for
 * no n. */
static inline int64_t mean_round(int64_t sum, int64_t n)
{
	int64_t q, r;

	if (n <= 0)
		return 0;
	q = sum / n;
	r = sum % n;
	if (r >= 0 ? r >= n - r : -r >= n + r)
		q += r >= 0 ? 1 : -1;
	return q;
}

/* Flushes f and says whether everything written to it got there (a
 * full disk, a file size limit): 0, or -1 with err_get() naming name
 * and the reason. */
int stream_check(FILE *f, const char *name);

/* Creates dir and its parents (mode 0700); 0 on success, else -1 with
 * err_get() set. */
int mkdirs(const char *dir);

/* Exact decimal parsing of 64-bit integers; 0 on success. */
int parse_i64(const char *s, size_t n, int64_t *out);
int parse_u64(const char *s, size_t n, uint64_t *out);
/* A threshold as people write one: digits with at most one '.', and at
 * least one digit (5, 2.5, .5, 10.); not hex, exponents, signs, inf or
 * nan, which strtod also takes. 0 on success. */
int parse_plain_real(const char *s, double *out);
/* The decimal text of v into buf (at least 21 bytes), NUL-terminated;
 * its length. What "%" PRId64 prints, without printf's cost. */
size_t fmt_i64(char *buf, int64_t v);

#endif
