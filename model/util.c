#include "config.h"

#include "model/util.h"

#include <errno.h>
#include <math.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/text.h"

static void oom(void)
{
	fputs("nxtop: out of memory\n", stderr);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		oom();
	return xrealloc(p, n * size);
}

void *xgrow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : XGROW_MIN;

	if (need <= *cap)
		return p;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			oom();
		c *= 2;
	}
	*cap = c;
	return xreallocarray(p, c, size);
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	struct strbuf sb;

	sb_init(&sb);
	sb_vprintf(&sb, fmt, ap);
	return sb_detach(&sb);
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

void sb_init(struct strbuf *sb)
{
	sb->buf = NULL;
	sb->len = 0;
	sb->cap = 0;
}

void sb_free(struct strbuf *sb)
{
	free(sb->buf);
	sb_init(sb);
}

void sb_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

static void sb_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (need < sb->len)
		oom();
	sb->buf = xgrow(sb->buf, &sb->cap, need, 1);
}

void sb_add(struct strbuf *sb, const void *p, size_t n)
{
	sb_grow(sb, n);
	memcpy(sb->buf + sb->len, p, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_addc(struct strbuf *sb, char c)
{
	sb_grow(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}

void sb_adds(struct strbuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	sb_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vprintf(sb, fmt, ap);
	va_end(ap);
}

const char *sb_cstr(struct strbuf *sb)
{
	if (!sb->buf)
		sb_grow(sb, 0);
	sb->buf[sb->len] = '\0';
	return sb->buf;
}

char *sb_detach(struct strbuf *sb)
{
	char *p;

	sb_cstr(sb);
	p = sb->buf;
	sb_init(sb);
	return p;
}

static _Thread_local char err_buf[1024];

/* Messages often quote a file's names and bytes; cleaned here, every
 * place that shows one (stderr, the status line) shows it safely. */
void err_set(const char *fmt, ...)
{
	char raw[sizeof(err_buf)];
	struct strbuf sb;
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	sb_init(&sb);
	text_sanitize(&sb, raw, 0);
	sb_cstr(&sb);
	/* cut on a character boundary */
	n = NX_MIN(sb.len, sizeof(err_buf) - 1);
	while (n < sb.len && n > 0 && ((unsigned char)sb.buf[n] & 0xc0) == 0x80)
		n--;
	memcpy(err_buf, sb.buf, n);
	err_buf[n] = '\0';
	sb_free(&sb);
}

void err_vnote(const char *fmt, va_list ap)
{
	struct strbuf raw, clean;

	sb_init(&raw);
	sb_init(&clean);
	sb_vprintf(&raw, fmt, ap);
	text_sanitize(&clean, sb_cstr(&raw), 0);
	fprintf(stderr, "nxtop: %s\n", sb_cstr(&clean));
	sb_free(&raw);
	sb_free(&clean);
}

void err_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vnote(fmt, ap);
	va_end(ap);
}

void err_clear(void)
{
	err_buf[0] = '\0';
}

const char *err_get(void)
{
	return err_buf[0] ? err_buf : "unknown error";
}

size_t fmt_i64(char *buf, int64_t v)
{
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	char tmp[20];
	size_t n = 0, k = 0;

	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		buf[k++] = '-';
	while (n)
		buf[k++] = tmp[--n];
	buf[k] = '\0';
	return k;
}

int parse_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;

	if (n && s[0] == '+')
		i++;
	if (i == n)
		return -1;
	for (; i < n; i++) {
		unsigned d = (unsigned char)s[i] - '0';

		if (d > 9)
			return -1;
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int parse_plain_real(const char *s, double *out)
{
	size_t digits = strspn(s, "0123456789"), more = 0;

	if (s[digits] == '.')
		more = strspn(s + digits + 1, "0123456789") + 1;
	if (!digits && more < 2)
		return -1;
	if (s[digits + more])
		return -1;
	*out = strtod(s, NULL);
	return isfinite(*out) ? 0 : -1;
}

int parse_i64(const char *s, size_t n, int64_t *out)
{
	uint64_t u;

	if (n && s[0] == '-') {
		if (parse_u64(s + 1, n - 1, &u) || (n > 1 && s[1] == '+'))
			return -1;
		if (u > (uint64_t)INT64_MAX + 1)
			return -1;
		*out = u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)u;
		return 0;
	}
	if (parse_u64(s, n, &u) || u > (uint64_t)INT64_MAX)
		return -1;
	*out = (int64_t)u;
	return 0;
}

int stream_check(FILE *f, const char *name)
{
	errno = 0;
	if (!fflush(f) && !ferror(f))
		return 0;
	/* a write that failed earlier left its reason, not fflush */
	err_set("%s: %s", name, errno ? strerror(errno) : "write error");
	return -1;
}

int mkdirs(const char *dir)
{
	char *p = xstrdup(dir);
	int rc = 0;

	for (char *s = p + 1; *s && !rc; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0700) && errno != EEXIST)
			rc = -1;
		*s = '/';
	}
	if (!rc && mkdir(p, 0700) && errno != EEXIST)
		rc = -1;
	if (rc)
		err_set("%s: %s", p, strerror(errno));
	free(p);
	return rc;
}
