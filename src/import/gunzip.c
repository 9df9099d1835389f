#include "config.h"

#include "src/import/gunzip.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "model/util.h"

#define IN_BYTES (1u << 18)

struct gunzip {
	int fd;
	z_stream z;
	int eof;		/* read() said the file ends */
	int ended;		/* past the last member */
	uint64_t in;		/* bytes read from the file */
	uint64_t out;
	const char *why;
	char errbuf[128];
	unsigned char buf[IN_BYTES];
};

struct gunzip *gunzip_open(int fd)
{
	struct gunzip *g = xcalloc(1, sizeof(*g));

	g->fd = fd;
	/* 16: gzip members only, no zlib or raw deflate data */
	if (inflateInit2(&g->z, 16 + MAX_WBITS) != Z_OK) {
		g->why = "cannot inflate";
		g->ended = 1;
	}
	return g;
}

void gunzip_close(struct gunzip *g)
{
	if (!g)
		return;
	inflateEnd(&g->z);
	free(g);
}

const char *gunzip_why(const struct gunzip *g)
{
	return g->why ? g->why : "corrupt data";
}

uint64_t gunzip_in(const struct gunzip *g)
{
	return g->in - g->z.avail_in;
}

uint64_t gunzip_out(const struct gunzip *g)
{
	return g->out;
}

static int failed(struct gunzip *g, const char *why)
{
	g->why = why;
	g->ended = 1;
	return -1;
}

/* Reads more of the file behind the bytes not yet inflated, which move
 * to the front of buf: 1, 0 at the end of the file, -1 on a read
 * error. */
static int refill(struct gunzip *g)
{
	size_t keep = g->z.avail_in;
	ssize_t n;

	if (g->eof)
		return 0;
	if (keep)
		memmove(g->buf, g->z.next_in, keep);
	do
		n = read(g->fd, g->buf + keep, sizeof(g->buf) - keep);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		snprintf(g->errbuf, sizeof(g->errbuf), "%s", strerror(errno));
		return failed(g, g->errbuf);
	}
	g->eof = n == 0;
	g->in += (uint64_t)n;
	g->z.next_in = g->buf;
	g->z.avail_in = (uInt)(keep + (size_t)n);
	return n > 0;
}

/* What follows a member: another one (1), the end of the file (0), or
 * bytes that start none (-1): gzip(1) only warns of those, but they are
 * data nxtop would drop unread, such as a profile whose end was written
 * uncompressed. */
static int next_member(struct gunzip *g)
{
	while (g->z.avail_in < 2) {
		int rc = refill(g);

		if (rc < 0)
			return -1;
		if (!rc)
			break;
	}
	if (!g->z.avail_in) {
		g->ended = 1;
		return 0;
	}
	if (g->z.avail_in < 2 || g->z.next_in[0] != 0x1f ||
	    g->z.next_in[1] != 0x8b)
		return failed(g, "trailing garbage after the compressed data");
	inflateReset(&g->z);
	return 1;
}

/* The words for zlib's code rc and message. */
static const char *why(int rc, const char *msg)
{
	if (rc == Z_BUF_ERROR)
		return "cut short";
	if (msg && strstr(msg, "incorrect data check"))
		return "bad checksum";
	if (msg && strstr(msg, "incorrect length check"))
		return "bad length";
	return "corrupt data";
}

long gunzip_read(struct gunzip *g, void *buf, size_t len)
{
	z_stream *z = &g->z;

	if (g->why)
		return -1;
	z->next_out = buf;
	z->avail_out = (uInt)NX_MIN(len, (size_t)1 << 30);
	len = z->avail_out;
	while (z->avail_out && !g->ended) {
		int rc;

		if (!z->avail_in) {
			rc = refill(g);
			if (rc < 0)
				return -1;
			/* the file ends inside a member */
			if (!rc)
				return failed(g, why(Z_BUF_ERROR, NULL));
		}
		rc = inflate(z, Z_NO_FLUSH);
		if (rc == Z_STREAM_END) {
			if (next_member(g) < 0)
				return -1;
		} else if (rc != Z_OK && !(rc == Z_BUF_ERROR && !z->avail_in)) {
			return failed(g, why(rc, z->msg));
		}
	}
	g->out += len - z->avail_out;
	return (long)(len - z->avail_out);
}
