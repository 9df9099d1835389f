#include "config.h"

#include "src/demo/demo_out.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/util.h"

/* Two decimal digits per entry, for dput_u64(). */
const char demo_digits[] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"6869707172737475767778798081828384858687888990919293949596979899";

void dout_init(struct dout *o, FILE *f)
{
	o->f = f;
	o->buf = xmalloc(DOUT_BUFSZ);
	o->err = 0;
	o->nkeys = 0;
	o->nrec = 0;
	o->buf[0] = '{';
	o->len = 1;
}

void dout_flush(struct dout *o)
{
	if (!o->err && o->len && fwrite(o->buf, 1, o->len, o->f) != o->len)
		o->err = errno ? errno : EIO;
	o->len = 0;
}

/* Closes the top-level object; 0 on success, -1 with err_set(). */
int dout_finish(struct dout *o)
{
	o->buf[o->len++] = '}';
	dout_flush(o);
	if (!o->err && fflush(o->f))
		o->err = errno ? errno : EIO;
	free(o->buf);
	o->buf = NULL;
	if (o->err) {
		err_set("demo: write error: %s", strerror(o->err));
		return -1;
	}
	return 0;
}

void dout_array_begin(struct dout *o, const char *key)
{
	char *p;

	if (o->len + DOUT_RECMAX > DOUT_BUFSZ)
		dout_flush(o);
	p = o->buf + o->len;
	if (o->nkeys++)
		*p++ = ',';
	*p++ = '"';
	p = dput_str(p, key);
	p = DLIT(p, "\":[");
	o->len = (size_t)(p - o->buf);
	o->nrec = 0;
}

void dout_array_end(struct dout *o)
{
	o->buf[o->len++] = ']';
}

char *dput_hex(char *p, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[16], *t = tmp + sizeof(tmp);

	do {
		*--t = hex[v & 15];
		v >>= 4;
	} while (v);
	p = DLIT(p, "0x");
	return dput_mem(p, t, (size_t)(tmp + sizeof(tmp) - t));
}

/* The locale may use another decimal point (nxtop sets LC_ALL); JSON
 * wants '.'. */
static int fix_point(char *s, int n)
{
	const char *dp = localeconv()->decimal_point;
	size_t dl = strlen(dp);
	char *q;

	if (dl == 1 && dp[0] == '.')
		return n;
	q = strstr(s, dp);
	if (!q)
		return n;
	*q = '.';
	memmove(q + 1, q + dl, strlen(q + dl) + 1);
	return n - (int)dl + 1;
}

/* Shortest of %.15g and %.17g that reads back as the same double. */
char *dput_dbl(char *p, double v)
{
	char tmp[40];
	int n;

	if (!isfinite(v))
		v = 0;
	n = snprintf(tmp, sizeof(tmp), "%.15g", v);
	if (strtod(tmp, NULL) != v)
		n = snprintf(tmp, sizeof(tmp), "%.17g", v);
	n = fix_point(tmp, n);
	return dput_mem(p, tmp, (size_t)n);
}
