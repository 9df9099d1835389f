#include "config.h"

#include "src/import/base.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/import/gunzip.h"
#include "src/import/readahead.h"
#include "src/json/jsonsplit.h"
#include "src/json/jsonval.h"
#include "model/cache/cache.h"
#include "model/util.h"
#include "model/text.h"

int import_fail(struct import *im, const struct jrec *r, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!r)
		err_set("%s: %s", im->name, msg);
	else if (r->offset == IMPORT_AT_ROW)
		err_set("%s: row %llu: %s", im->name,
			(unsigned long long)r->index, msg);
	else if (r->key && r->kind == JREC_ITEM)
		err_set("%s: byte %llu: %s in \"%s\"[%llu]", im->name,
			(unsigned long long)r->offset, msg, r->key,
			(unsigned long long)r->index);
	else if (r->key)
		err_set("%s: byte %llu: %s in \"%s\"", im->name,
			(unsigned long long)r->offset, msg, r->key);
	else
		err_set("%s: byte %llu: %s in [%llu]", im->name,
			(unsigned long long)r->offset, msg,
			(unsigned long long)r->index);
	return -1;
}

void import_progress(struct import *im, uint64_t offset)
{
	char what[256];
	int pct = -1;

	im->offset = offset;
	if (im->opts->quiet || !im->opts->progress.fn)
		return;
	if (im->size)
		pct = (int)(offset * 100 / im->size);
	snprintf(what, sizeof(what), "importing %s", im->name);
	import_show(im->opts, what, NX_MIN(pct, 99), writer_rows(im->w));
}

void import_show(const struct import_opts *o, const char *what, int pct,
		 uint64_t events)
{
	if (!o->quiet && o->progress.fn)
		o->progress.fn(o->progress.ctx, what, pct, events);
}

const char *import_field_name(const struct pqrename *renames,
			      const char *field)
{
	for (const struct pqrename *r = renames; r && r->column; r++)
		if (r->json && !strcmp(r->json, field))
			return r->column;
	return field;
}

int import_bad_field(struct import *im, const char *field, const char *type,
		     const char *want)
{
	return import_fail(im, im->rec, IMPORT_BAD_FIELD,
			   import_field_name(im->renames, field), type, want);
}

int import_get_i64(const cJSON *v, unsigned opts, int64_t *out)
{
	int rc = jv_i64(v, out);

	if (rc == JV_OK && (opts & FIELD_NEG_ABSENT) && *out < 0)
		rc = JV_ABSENT;
	if (rc == JV_ABSENT)
		*out = -1;
	return rc;
}

int import_get_str(const cJSON *v, unsigned opts, const char **out,
		   char *buf, size_t len)
{
	int rc = jv_str(v, out, buf, len);

	if (rc == JV_OK && (opts & FIELD_EMPTY_ABSENT) && !**out)
		rc = JV_ABSENT;
	if (rc == JV_ABSENT)
		*out = NULL;
	return rc;
}

int import_need_i64(struct import *im, const cJSON *v, const char *field,
		    int64_t *out)
{
	int rc = jv_i64(v, out);

	if (rc == JV_ABSENT)
		return import_fail(im, im->rec, "missing \"%s\"",
				   import_field_name(im->renames, field));
	if (rc == JV_BAD)
		return import_bad_field(im, field, jv_type_name(v),
					"an integer");
	return 0;
}

int import_opt_i64(struct import *im, const cJSON *v, const char *field,
		   unsigned opts, int64_t *out)
{
	if (import_get_i64(v, opts, out) == JV_BAD)
		return import_bad_field(im, field, jv_type_name(v),
					"an integer");
	return 0;
}

int import_opt_str(struct import *im, const cJSON *v, const char *field,
		   unsigned opts, const char **out, char *buf, size_t len)
{
	if (import_get_str(v, opts, out, buf, len) == JV_BAD)
		return import_bad_field(im, field, jv_type_name(v), "a string");
	return 0;
}

int import_opt_sid(struct import *im, const cJSON *v, const char *field,
		   int64_t *out)
{
	char buf[64];
	const char *s;

	*out = 0;
	if (import_opt_str(im, v, field, FIELD_EMPTY_ABSENT, &s, buf,
			   sizeof(buf)))
		return -1;
	if (s)
		*out = writer_string(im->w, s);
	return 0;
}

int import_opt_f64(struct import *im, const cJSON *v, const char *field,
		   double *out)
{
	int rc = jv_f64(v, out);

	if (rc == JV_BAD)
		return import_bad_field(im, field, jv_type_name(v), "a number");
	return rc == JV_ABSENT;
}

int import_opt_id(struct import *im, const cJSON *v, const char *field,
		  struct wid *out)
{
	if (jv_id(v, out) == JV_BAD)
		return import_bad_field(im, field, jv_type_name(v),
					"a 64-bit integer");
	return 0;
}

static int import_open(struct import *im)
{
	/* non-blocking: a FIFO put in place of the file must not hang the
	 * open; regular files read the same either way */
	int fd = open(im->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat sb;

	if (fd < 0) {
		err_set("%s: %s", im->name, strerror(errno));
		return -1;
	}
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		err_set("%s: not a regular file", im->name);
		close(fd);
		return -1;
	}
	return fd;
}

/* An input's bytes: the file's, or inflated from its gzip data; the
 * file is the stream's. */
struct import_in {
	int fd;
	struct gunzip *gz;	/* NULL: the file as it is */
};

static long gz_read(struct gunzip *gz, void *buf, size_t len)
{
	long n = gunzip_read(gz, buf, len);
	uint64_t in = gunzip_in(gz), out = gunzip_out(gz);

	if (n < 0) {
		err_set("gzip: %s (near byte %llu of the file)",
			gunzip_why(gz), (unsigned long long)in);
		return -1;
	}
	if (out > GZIP_FREE_BYTES && in > 0 && out / GZIP_MAX_RATIO > in) {
		err_set("gzip data expands more than %d times: refused as a"
			" decompression bomb", GZIP_MAX_RATIO);
		return -1;
	}
	return n;
}

long import_read(struct import_in *in, void *buf, size_t len)
{
	ssize_t n;

	if (in->gz)
		return gz_read(in->gz, buf, len);
	do
		n = read(in->fd, buf, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		err_set("%s", strerror(errno));
	return (long)n;
}

static long in_read(void *ctx, void *buf, size_t len)
{
	return import_read(ctx, buf, len);
}

struct import_in *import_open_in(struct import *im)
{
	unsigned char magic[2];
	struct import_in *in;
	struct stat sb;
	int fd = import_open(im);

	if (fd < 0)
		return NULL;
	in = xcalloc(1, sizeof(*in));
	in->fd = fd;
	if (fstat(fd, &sb) == 0)
		im->size = (uint64_t)sb.st_size;
	if (pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
		in->gz = gunzip_open(fd);
		/* progress counts compressed bytes: unknown here */
		im->size = 0;
	}
	return in;
}

void import_close_in(struct import_in *in)
{
	if (!in)
		return;
	gunzip_close(in->gz);
	close(in->fd);
	free(in);
}

struct jsplit *import_open_json(struct import *im, int *fd)
{
	struct import_in *in = import_open_in(im);

	*fd = -1;
	if (!in)
		return NULL;
	if (!in->gz) {
		*fd = in->fd;
		free(in);
		return jsplit_open(*fd, im->name);
	}
	/* inflating overlaps with splitting */
	return jsplit_open_reader(readahead_read, readahead_start(in_read, in),
				  im->name);
}

void import_close_json(struct jsplit *s, int fd)
{
	/* gzip input: the stream owns the file */
	if (s && fd < 0)
		import_close_in(readahead_stop(jsplit_reader_ctx(s)));
	jsplit_close(s);
	if (fd >= 0)
		close(fd);
}

int import_mark(const char *path, struct import_mark *m)
{
	if (stat(path, &m->sb))
		return -1;
	m->entries = S_ISDIR(m->sb.st_mode) ? cache_dir_entries(path) : 0;
	return 0;
}

int import_changed(const char *path, const struct import_mark *m)
{
	struct stat now;

	if (stat(path, &now) || now.st_ino != m->sb.st_ino ||
	    now.st_dev != m->sb.st_dev)
		return 1;
	if (S_ISDIR(m->sb.st_mode))
		return !S_ISDIR(now.st_mode) ||
		       cache_dir_entries(path) != m->entries;
	return now.st_size != m->sb.st_size ||
	       stat_mtime_ns(&now) != stat_mtime_ns(&m->sb);
}

void import_result_free(struct import_result *r)
{
	for (size_t i = 0; i < r->ndevices; i++) {
		struct devref *d = &r->devices[i];

		free(d->name);
		free(d->instance_id);
		free(d->process_id);
		free(d->model_id);
		free(d->session_id);
	}
	free(r->devices);
	memset(r, 0, sizeof(*r));
}

void import_warning(struct import *im, const char *category,
		    const char *message)
{
	char *msg = NULL;

	/* "System profile events were dropped due to full ring buffer":
	 * the timeline has holes, which the user must not miss. */
	if (text_mentions(message, "dropped") ||
	    text_mentions(category, "dropped")) {
		if (category && *category && strcmp(category, WARN_DROPPED))
			msg = xasprintf("%s (%s)", message ? message : "",
					category);
		writer_warning(im->w, im->profile, "profile", WARN_DROPPED,
			       msg ? msg : message ? message : "");
		free(msg);
		return;
	}
	writer_warning(im->w, im->profile, "profile", category,
		       message ? message : "");
}
