#include "config.h"

#include "model/writer/spill.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/util.h"

/* A row as it is kept in memory and written to a run: this header, then
 * sub's bytes, then each text with its NUL. */
struct rec {
	int64_t key, ts, seq, val;
	int32_t tag;
	uint32_t sublen;		/* NO_LEN: sub is NULL */
	uint32_t len[4];		/* NO_LEN: text is NULL; else with NUL */
};

#define NO_LEN UINT32_MAX

/* Rows are gathered up to this many bytes, then sorted and written to a
 * temporary file as one sorted run; the runs are merged when read. */
#define RUN_BYTES (48u << 20)
#define CHUNK_BYTES (1u << 20)
/* Read buffer per run while merging. */
#define READ_BYTES (1u << 16)

/* One run being merged: its place in the file and the row read last. */
struct run {
	long off, end;		/* next byte to read, end of the run */
	char *buf;		/* READ_BYTES */
	size_t pos, len;	/* buf[pos..len) not consumed yet */
	char *cur;		/* the current row (malloc'd), NULL when done */
	size_t cap;
};

struct spill {
	/* rows of the run being gathered, in chunks of CHUNK_BYTES (a
	 * larger row gets a chunk of its own) */
	char **chunks;
	size_t nchunks, used;	/* bytes used in the last chunk */
	size_t bytes;		/* bytes of rows gathered */
	char **rows;
	size_t nrows, caprows;
	FILE *tmp;		/* the runs; NULL while everything fits */
	struct run *runs;
	size_t nruns;
	int *heap;		/* runs with rows, by their current row */
	size_t nheap;
	size_t next;		/* in memory: the next row to return */
	int sorted, top;	/* top: the heap's top was returned */
	size_t run_bytes;	/* RUN_BYTES */
};

static int spill_fail(const char *what)
{
	err_set("temporary sort: %s: %s", what, strerror(errno));
	return -1;
}

static size_t rec_size(const struct rec *r)
{
	size_t n = sizeof(*r) + (r->sublen == NO_LEN ? 0 : r->sublen);

	for (int i = 0; i < 4; i++)
		n += r->len[i] == NO_LEN ? 0 : r->len[i];
	return n;
}

/* Order by key, sub (NULL first, then bytes, a prefix first), ts, seq:
 * SQLite's order for INTEGER, BLOB, INTEGER, INTEGER. */
static int rec_cmp(const char *pa, const char *pb)
{
	struct rec a, b;
	size_t la, lb;
	int c;

	memcpy(&a, pa, sizeof(a));
	memcpy(&b, pb, sizeof(b));
	if (a.key != b.key)
		return a.key < b.key ? -1 : 1;
	if (a.sublen == NO_LEN || b.sublen == NO_LEN) {
		if (a.sublen != b.sublen)
			return a.sublen == NO_LEN ? -1 : 1;
	} else {
		la = a.sublen;
		lb = b.sublen;
		c = memcmp(pa + sizeof(a), pb + sizeof(b), NX_MIN(la, lb));
		if (c || la != lb)
			return c ? c : la < lb ? -1 : 1;
	}
	if (a.ts != b.ts)
		return a.ts < b.ts ? -1 : 1;
	return a.seq < b.seq ? -1 : a.seq > b.seq;
}

static int cmp_rows(const void *a, const void *b)
{
	return rec_cmp(*(char *const *)a, *(char *const *)b);
}

/* NXTOP_TEST_SPILL_RUN (bytes), read only for tests, makes runs that
 * small, so that the merge runs on small inputs. */
struct spill *spill_open(void)
{
	struct spill *s = xcalloc(1, sizeof(*s));
	const char *run = getenv("NXTOP_TEST_SPILL_RUN");

	s->run_bytes = run && atol(run) > 0 ? (size_t)atol(run) : RUN_BYTES;
	return s;
}

static void free_rows(struct spill *s)
{
	for (size_t i = 0; i < s->nchunks; i++)
		free(s->chunks[i]);
	free(s->chunks);
	s->chunks = NULL;
	s->nchunks = s->used = s->bytes = s->nrows = 0;
}

void spill_close(struct spill *s)
{
	if (!s)
		return;
	free_rows(s);
	free(s->rows);
	for (size_t i = 0; i < s->nruns; i++) {
		free(s->runs[i].buf);
		free(s->runs[i].cur);
	}
	free(s->runs);
	free(s->heap);
	if (s->tmp)
		fclose(s->tmp);
	free(s);
}

/* Room for n bytes of a row in the chunks. */
static char *room(struct spill *s, size_t n)
{
	size_t size = NX_MAX(n, (size_t)CHUNK_BYTES);

	if (!s->nchunks || s->used + n > CHUNK_BYTES) {
		s->chunks = xreallocarray(s->chunks, s->nchunks + 1,
					  sizeof(*s->chunks));
		s->chunks[s->nchunks++] = xmalloc(size);
		s->used = 0;
	}
	s->used += n;
	return s->chunks[s->nchunks - 1] + s->used - n;
}

/* A private file for the runs where SQLite would put its temporary
 * files, removed at once so that nothing is left behind. */
static FILE *temp_file(void)
{
	const char *env[2] = { getenv("SQLITE_TMPDIR"), getenv("TMPDIR") };
	const char *dirs[5] = { env[0], env[1], "/var/tmp", "/usr/tmp", "/tmp" };

	for (int i = 0; i < 5; i++) {
		char *path;
		int fd;
		FILE *f;

		if (!dirs[i] || !*dirs[i] || access(dirs[i], W_OK | X_OK))
			continue;
		path = xasprintf("%s/nxtop-sort-XXXXXX", dirs[i]);
		fd = mkstemp(path);
		if (fd >= 0)
			unlink(path);
		free(path);
		if (fd < 0)
			continue;
		f = fdopen(fd, "w+b");
		if (f)
			return f;
		close(fd);
	}
	spill_fail("no temporary directory to write to");
	return NULL;
}

/* Sorts the rows gathered and writes them to the file as one run. */
static int write_run(struct spill *s)
{
	struct run *r;

	if (!s->tmp && !(s->tmp = temp_file()))
		return -1;
	if (s->nrows > 1)
		qsort(s->rows, s->nrows, sizeof(*s->rows), cmp_rows);
	s->runs = xreallocarray(s->runs, s->nruns + 1, sizeof(*s->runs));
	r = &s->runs[s->nruns++];
	memset(r, 0, sizeof(*r));
	if (fseek(s->tmp, 0, SEEK_END))
		return spill_fail("write");
	r->off = ftell(s->tmp);
	for (size_t i = 0; i < s->nrows; i++) {
		struct rec h;

		memcpy(&h, s->rows[i], sizeof(h));
		if (fwrite(s->rows[i], rec_size(&h), 1, s->tmp) != 1)
			return spill_fail("write");
	}
	if (fflush(s->tmp))
		return spill_fail("write");
	r->end = ftell(s->tmp);
	free_rows(s);
	return 0;
}

int spill_add(struct spill *s, const struct spill_row *r)
{
	struct rec h = { r->key, r->ts, r->seq, r->val, r->tag,
			 r->sub ? (uint32_t)r->sublen : NO_LEN, { 0 } };
	size_t n;
	char *p;

	for (int i = 0; i < 4; i++)
		h.len[i] = r->text[i] ? (uint32_t)strlen(r->text[i]) + 1 : NO_LEN;
	n = rec_size(&h);
	if (s->bytes + n > s->run_bytes && s->nrows && write_run(s))
		return -1;
	p = room(s, n);
	memcpy(p, &h, sizeof(h));
	n = sizeof(h);
	if (r->sub) {
		memcpy(p + n, r->sub, r->sublen);
		n += r->sublen;
	}
	for (int i = 0; i < 4; i++) {
		if (r->text[i]) {
			memcpy(p + n, r->text[i], h.len[i]);
			n += h.len[i];
		}
	}
	s->rows = xgrow(s->rows, &s->caprows, s->nrows + 1, sizeof(*s->rows));
	s->rows[s->nrows++] = p;
	s->bytes += n;
	return 0;
}

/* Reads n bytes of a run into out. */
static int run_read(struct spill *s, struct run *r, char *out, size_t n)
{
	while (n) {
		size_t k;

		if (r->pos == r->len) {
			size_t want = (size_t)NX_MIN((long)READ_BYTES, r->end - r->off);

			errno = 0;
			if (!want || fseek(s->tmp, r->off, SEEK_SET) ||
			    fread(r->buf, 1, want, s->tmp) != want) {
				if (!errno)
					errno = EIO;
				return spill_fail("read");
			}
			r->off += (long)want;
			r->pos = 0;
			r->len = want;
		}
		k = NX_MIN(n, r->len - r->pos);
		memcpy(out, r->buf + r->pos, k);
		r->pos += k;
		out += k;
		n -= k;
	}
	return 0;
}

/* The run's next row into r->cur; r->cur NULL at its end. */
static int run_next(struct spill *s, struct run *r)
{
	struct rec h;
	size_t n;

	if (r->off == r->end && r->pos == r->len) {
		free(r->cur);
		r->cur = NULL;
		return 0;
	}
	if (run_read(s, r, (char *)&h, sizeof(h)))
		return -1;
	n = rec_size(&h);
	if (n > r->cap) {
		free(r->cur);
		r->cap = n;
		r->cur = xmalloc(n);
	}
	memcpy(r->cur, &h, sizeof(h));
	return run_read(s, r, r->cur + sizeof(h), n - sizeof(h));
}

static int heap_less(const struct spill *s, size_t a, size_t b)
{
	return rec_cmp(s->runs[s->heap[a]].cur, s->runs[s->heap[b]].cur) < 0;
}

static void heap_down(struct spill *s, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		int t;

		if (l < s->nheap && heap_less(s, l, m))
			m = l;
		if (l + 1 < s->nheap && heap_less(s, l + 1, m))
			m = l + 1;
		if (m == i)
			return;
		t = s->heap[i];
		s->heap[i] = s->heap[m];
		s->heap[m] = t;
		i = m;
	}
}

int spill_sort(struct spill *s)
{
	s->sorted = 1;
	if (!s->tmp) {
		if (s->nrows > 1)
			qsort(s->rows, s->nrows, sizeof(*s->rows), cmp_rows);
		return 0;
	}
	if (s->nrows && write_run(s))
		return -1;
	free(s->rows);
	s->rows = NULL;
	s->heap = xreallocarray(NULL, s->nruns + 1, sizeof(*s->heap));
	for (size_t i = 0; i < s->nruns; i++) {
		struct run *r = &s->runs[i];

		r->buf = xmalloc(READ_BYTES);
		if (run_next(s, r))
			return -1;
		if (r->cur)
			s->heap[s->nheap++] = (int)i;
	}
	for (size_t i = s->nheap / 2; i-- > 0;)
		heap_down(s, i);
	return 0;
}

/* A row's fields into r, pointing into p. */
static void unpack(const char *p, struct spill_row *r)
{
	struct rec h;
	size_t n = sizeof(h);

	memcpy(&h, p, sizeof(h));
	r->key = h.key;
	r->ts = h.ts;
	r->seq = h.seq;
	r->val = h.val;
	r->tag = h.tag;
	r->sub = h.sublen == NO_LEN ? NULL : p + n;
	r->sublen = h.sublen == NO_LEN ? 0 : h.sublen;
	n += r->sublen;
	for (int i = 0; i < 4; i++) {
		r->text[i] = h.len[i] == NO_LEN ? NULL : p + n;
		n += h.len[i] == NO_LEN ? 0 : h.len[i];
	}
}

int spill_next(struct spill *s, struct spill_row *r)
{
	if (!s->sorted)
		return 0;
	if (!s->tmp) {
		if (s->next == s->nrows)
			return 0;
		unpack(s->rows[s->next++], r);
		return 1;
	}
	/* the row returned last stays valid until now: advance its run */
	if (s->top && s->nheap) {
		if (run_next(s, &s->runs[s->heap[0]]))
			return -1;
		if (!s->runs[s->heap[0]].cur)
			s->heap[0] = s->heap[--s->nheap];
		heap_down(s, 0);
	}
	s->top = 1;
	if (!s->nheap)
		return 0;
	unpack(s->runs[s->heap[0]].cur, r);
	return 1;
}
