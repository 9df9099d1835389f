/* Opening a Parquet file: magic, footer, metadata; the column lookup
 * and the file's error message. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/parquet/pq_int.h"

void pq_clean(char *out, size_t cap, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n && i + 1 < cap; i++)
		out[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	if (cap)
		out[i] = 0;
}

void pq_fail(struct pq_file *f, const char *fmt, ...)
{
	char name[256];
	size_t n;
	va_list ap;

	pq_clean(name, sizeof(name), f->name, strlen(f->name));
	n = (size_t)snprintf(f->err, sizeof(f->err), "%s: ", name);
	va_start(ap, fmt);
	vsnprintf(f->err + n, sizeof(f->err) - n, fmt, ap);
	va_end(ap);
}

const char *pq_error(const struct pq_file *f)
{
	return f->err;
}

int pq_pread(struct pq_file *f, void *buf, size_t n, uint64_t off)
{
	size_t done = 0;

	while (done < n) {
		ssize_t r = pread(f->fd, (char *)buf + done, n - done,
				  (off_t)(off + done));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			snprintf(f->io_err, sizeof(f->io_err), "byte %llu: %s",
				 (unsigned long long)(off + done),
				 r ? strerror(errno) : "unexpected end of file");
			return -1;
		}
		done += (size_t)r;
	}
	return 0;
}

/* "PAR1" at both ends, and the footer length before the tail magic. */
static int read_footer(struct pq_file *f)
{
	uint8_t head[4], tail[8];
	uint32_t len;
	uint8_t *buf;
	int rc;

	if (f->size < 12) {
		pq_fail(f, "%llu bytes: too short for a Parquet file",
			(unsigned long long)f->size);
		return -1;
	}
	if (pq_pread(f, head, 4, 0) || pq_pread(f, tail, 8, f->size - 8)) {
		pq_fail(f, "%s", f->io_err);
		return -1;
	}
	if (!memcmp(tail + 4, "PARE", 4)) {
		pq_fail(f, "encrypted Parquet files are not supported");
		return -1;
	}
	if (memcmp(head, "PAR1", 4) || memcmp(tail + 4, "PAR1", 4)) {
		pq_fail(f, "not a Parquet file (no PAR1 at its %s)",
			memcmp(head, "PAR1", 4) ? "start" : "end");
		return -1;
	}
	len = (uint32_t)tail[0] | (uint32_t)tail[1] << 8 |
	      (uint32_t)tail[2] << 16 | (uint32_t)tail[3] << 24;
	if (len > f->size - 12 || len > PQ_MAX_FOOTER) {
		pq_fail(f, "footer of %u bytes does not fit in the file (%llu"
			" bytes)", len, (unsigned long long)f->size);
		return -1;
	}
	buf = xmalloc(len ? len : 1);
	rc = pq_pread(f, buf, len, f->size - 8 - len);
	if (rc)
		pq_fail(f, "%s", f->io_err);
	else
		rc = pq_meta_parse(f, buf, len);
	free(buf);
	return rc;
}

static void file_free(struct pq_file *f)
{
	pq_meta_free(f);
	for (int i = 0; i < f->ncols; i++) {
		free((char *)f->cols[i].path);
		free((char *)f->cols[i].name);
	}
	free(f->cols);
	free(f->leaves);
	if (f->fd >= 0)
		close(f->fd);
	free(f->name);
	free(f);
}

struct pq_file *pq_open(const char *path, char *err, size_t errlen)
{
	struct pq_file *f = xcalloc(1, sizeof(*f));
	struct stat sb;

	f->name = xstrdup(path);
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0 || fstat(f->fd, &sb)) {
		pq_fail(f, "%s", strerror(errno));
	} else if (!S_ISREG(sb.st_mode)) {
		pq_fail(f, "not a regular file");
	} else {
		f->size = (uint64_t)sb.st_size;
		if (!read_footer(f))
			return f;
	}
	snprintf(err, errlen, "%s", f->err);
	file_free(f);
	return NULL;
}

void pq_close(struct pq_file *f)
{
	if (f)
		file_free(f);
}

int64_t pq_num_rows(const struct pq_file *f)
{
	return f->num_rows;
}

int pq_num_row_groups(const struct pq_file *f)
{
	return f->nrg;
}

const char *pq_created_by(const struct pq_file *f)
{
	return f->created_by ? f->created_by : "";
}

int pq_num_columns(const struct pq_file *f)
{
	return f->ncols;
}

const struct pq_column *pq_column(const struct pq_file *f, int i)
{
	return i >= 0 && i < f->ncols ? &f->cols[i] : NULL;
}

int pq_find_column(const struct pq_file *f, const char *name)
{
	int found = -1;

	for (int i = 0; i < f->ncols; i++)
		if (!strcmp(f->cols[i].path, name))
			return i;
	for (int i = 0; i < f->ncols; i++) {
		if (strcmp(f->cols[i].name, name))
			continue;
		if (found >= 0)
			return -1;
		found = i;
	}
	return found;
}
