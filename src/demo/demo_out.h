/* Buffered writer for the demo profile: records are formatted straight
 * into a large buffer with hand-written number formatting, because the
 * demo must produce hundreds of MB/s of JSON. */
#ifndef NX_DEMO_OUT_H
#define NX_DEMO_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define DOUT_BUFSZ (4u << 20)
#define DOUT_RECMAX 65536	/* no record is longer than this */

struct dout {
	FILE *f;
	char *buf;
	size_t len;
	int err;		/* errno of the first failed write, 0 if none */
	int nkeys;		/* top-level keys written */
	uint64_t nrec;		/* records in the open array */
};

void dout_init(struct dout *o, FILE *f);
int dout_finish(struct dout *o);
void dout_flush(struct dout *o);
void dout_array_begin(struct dout *o, const char *key);
void dout_array_end(struct dout *o);

extern const char demo_digits[];

/* Room for one record; returns where to write it. */
static inline char *dout_rec(struct dout *o)
{
	char *p;

	if (o->len + DOUT_RECMAX > DOUT_BUFSZ)
		dout_flush(o);
	p = o->buf + o->len;
	if (o->nrec++)
		*p++ = ',';
	*p++ = '{';
	return p;
}

/* Ends a record written as "key":value, pairs: the last ',' becomes '}'. */
static inline void dout_done(struct dout *o, char *p)
{
	p[-1] = '}';
	o->len = (size_t)(p - o->buf);
}

static inline char *dput_mem(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

static inline char *dput_u64(char *p, uint64_t v)
{
	char tmp[20], *t = tmp + sizeof(tmp);

	while (v >= 100) {
		t -= 2;
		memcpy(t, demo_digits + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		t -= 2;
		memcpy(t, demo_digits + 2 * v, 2);
	} else {
		*--t = (char)('0' + v);
	}
	return dput_mem(p, t, (size_t)(tmp + sizeof(tmp) - t));
}

char *dput_hex(char *p, uint64_t v);
char *dput_dbl(char *p, double v);

static inline char *dput_str(char *p, const char *s)
{
	return dput_mem(p, s, strlen(s));
}

/* "key":value, writers; k must be a string literal. */
#define DLIT(p, lit) dput_mem((p), (lit), sizeof(lit) - 1)
#define DKEY(p, k) DLIT((p), "\"" k "\":")
#define DKV_U64(p, k, v) dkv_u64((p), "\"" k "\":", sizeof(k) + 2, (v))
#define DKV_DBL(p, k, v) dkv_dbl((p), "\"" k "\":", sizeof(k) + 2, (v))
#define DKV_STR(p, k, s) dkv_str((p), "\"" k "\":", sizeof(k) + 2, (s))
#define DKV_RAW(p, k, lit) DLIT((p), "\"" k "\":" lit ",")

static inline char *dkv_u64(char *p, const char *key, size_t n, uint64_t v)
{
	p = dput_u64(dput_mem(p, key, n), v);
	*p++ = ',';
	return p;
}

static inline char *dkv_dbl(char *p, const char *key, size_t n, double v)
{
	p = dput_dbl(dput_mem(p, key, n), v);
	*p++ = ',';
	return p;
}

static inline char *dkv_str(char *p, const char *key, size_t n,
			    const char *s)
{
	p = dput_mem(p, key, n);
	*p++ = '"';
	p = dput_str(p, s);
	*p++ = '"';
	*p++ = ',';
	return p;
}

#endif
