#include "config.h"

#include "src/import/import.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "src/import/bundle.h"
#include "src/import/parquet/folder.h"
#include "src/json/jsonsplit.h"
#include "model/cache.h"
#include "model/file.h"
#include "model/text.h"
#include "model/util.h"
#include "src/cli/progress.h"
#include "src/import/sysfilter.h"

#define SNIFF_BYTES 65536

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcasecmp(s + n - m, suffix);
}

static size_t skip_blanks(const unsigned char *b, size_t i, size_t n)
{
	while (i < n && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' ||
			 b[i] == '\t'))
		i++;
	return i;
}

/* JSON that is a Chrome trace: a bare array, or an object with a
 * "traceEvents" key near the start. The byte after the opening bracket
 * must fit too, so that a Perfetto trace (whose first byte, 0x0a, is a
 * newline) is not taken for JSON. */
static enum input_format sniff_json(const unsigned char *b, size_t n)
{
	size_t i = 0, j;

	if (n >= 3 && !memcmp(b, "\xef\xbb\xbf", 3))
		i = 3;
	i = skip_blanks(b, i, n);
	if (i == n || (b[i] != '[' && b[i] != '{'))
		return FMT_UNKNOWN;
	j = skip_blanks(b, i + 1, n);
	if (j < n && !strchr(b[i] == '{' ? "\"}" : "{[]\"-0123456789tfn",
			     b[j]))
		return FMT_UNKNOWN;
	if (b[i] == '[')
		return FMT_CHROME_JSON;
	if (memmem(b, n, "\"traceEvents\"", 13))
		return FMT_CHROME_JSON;
	return FMT_NEURON_JSON;
}

/* What went wrong in gzip data, in words. */
static const char *gzip_why(int code, const char *msg)
{
	if (code == Z_BUF_ERROR)
		return "cut short";
	if (msg && strstr(msg, "incorrect data check"))
		return "bad checksum";
	if (msg && strstr(msg, "incorrect length check"))
		return "bad length";
	return "corrupt data";
}

/* The first bytes gzip data inflates to, in out (at most n). Returns
 * their count, or -1 with err_get() set ("byte N: gzip: bad checksum",
 * N in the file) when the data is damaged before out is full. */
static long gzip_head(int fd, unsigned char *out, size_t n)
{
	unsigned char in[16384];
	z_stream z;
	int rc = Z_OK;
	ssize_t got;

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
		err_set("gzip: cannot inflate");
		return -1;
	}
	z.next_out = out;
	z.avail_out = (uInt)n;
	while (rc == Z_OK && z.avail_out) {
		if (!z.avail_in) {
			got = read(fd, in, sizeof(in));
			if (got <= 0) {
				rc = got < 0 ? Z_ERRNO : Z_BUF_ERROR;
				break;
			}
			z.next_in = in;
			z.avail_in = (uInt)got;
		}
		rc = inflate(&z, Z_NO_FLUSH);
	}
	if (rc != Z_OK && rc != Z_STREAM_END)
		err_set("byte %lu: gzip: %s", (unsigned long)z.total_in,
			rc == Z_ERRNO ? strerror(errno) : gzip_why(rc, z.msg));
	inflateEnd(&z);
	return rc == Z_OK || rc == Z_STREAM_END ? (long)(n - z.avail_out) : -1;
}

static enum input_format sniff_gzip(int fd)
{
	unsigned char buf[SNIFF_BYTES];
	long n;

	if (lseek(fd, 0, SEEK_SET))
		return FMT_UNKNOWN;
	n = gzip_head(fd, buf, sizeof(buf));
	if (n < 0)
		return FMT_UNREADABLE;
	return n > 0 ? sniff_json(buf, (size_t)n) : FMT_UNKNOWN;
}

enum input_format import_detect(const char *path)
{
	unsigned char buf[SNIFF_BYTES];
	enum input_format f;
	struct stat sb;
	ssize_t n;
	int fd;

	if (has_suffix(path, ".ntff") || has_suffix(path, ".neff") ||
	    has_suffix(path, "ntrace.pb") || has_suffix(path, "trace_info.pb") ||
	    has_suffix(path, "cpu_util.pb") || has_suffix(path, "host_mem.pb"))
		return FMT_NEURON_BINARY;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		err_set("%s", strerror(errno));
		return FMT_UNREADABLE;
	}
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		close(fd);
		return FMT_UNKNOWN;
	}
	n = read(fd, buf, sizeof(buf));
	if (n < 0)
		err_set("%s", strerror(errno));
	if (n >= 2 && buf[0] == 0x1f && buf[1] == 0x8b) {
		f = sniff_gzip(fd);
		close(fd);
		return f;
	}
	close(fd);
	if (n <= 0)
		return n < 0 ? FMT_UNREADABLE : FMT_UNKNOWN;
	if (n >= 16 && !memcmp(buf, "SQLite format 3", 16))
		return FMT_CACHE;
	if (has_suffix(path, ".pftrace") || has_suffix(path, ".perfetto-trace"))
		return FMT_PFTRACE;
	f = sniff_json(buf, (size_t)n);
	if (f == FMT_UNKNOWN && buf[0] == 0x0a)
		return FMT_PFTRACE;
	return f;
}

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
	if (!im->progress)
		return;
	if (im->size)
		pct = (int)(offset * 100 / im->size);
	snprintf(what, sizeof(what), "importing %s", im->name);
	progress_update(im->progress, what, NX_MIN(pct, 99),
			writer_rows(im->w));
}

int import_open(struct import *im)
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

/* gzip input, with the bytes it gave so far. */
struct gzin {
	gzFile gz;
	uint64_t out;
};

static long gz_read(void *ctx, void *buf, size_t len)
{
	struct gzin *g = ctx;
	int n = gzread(g->gz, buf, (unsigned)NX_MIN(len, 1u << 30));
	z_off64_t in;
	int e = Z_OK;
	const char *msg = n <= 0 ? gzerror(g->gz, &e) : NULL;

	/* 0 with Z_BUF_ERROR: the data ends before its stream does */
	if (n < 0 || (n == 0 && e == Z_BUF_ERROR)) {
		err_set("gzip: %s (near byte %lld of the file)",
			e == Z_ERRNO ? strerror(errno) : gzip_why(e, msg),
			(long long)gzoffset64(g->gz));
		return -1;
	}
	g->out += (uint64_t)n;
	in = gzoffset64(g->gz);
	if (g->out > GZIP_FREE_BYTES && in > 0 &&
	    g->out / GZIP_MAX_RATIO > (uint64_t)in) {
		err_set("gzip data expands more than %d times: refused as a"
			" decompression bomb", GZIP_MAX_RATIO);
		return -1;
	}
	return n;
}

struct jsplit *import_open_json(struct import *im, int *fd)
{
	unsigned char magic[2];
	struct gzin *g;
	struct stat sb;

	*fd = import_open(im);
	if (*fd < 0)
		return NULL;
	if (fstat(*fd, &sb) == 0)
		im->size = (uint64_t)sb.st_size;
	if (pread(*fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
		gzFile gz = gzdopen(*fd, "rb");

		if (!gz) {
			err_set("%s: cannot read gzip data", im->name);
			close(*fd);
			return NULL;
		}
		gzbuffer(gz, 1 << 20);
		*fd = -1;
		/* progress counts compressed bytes: unknown here */
		im->size = 0;
		g = xcalloc(1, sizeof(*g));
		g->gz = gz;
		return jsplit_open_reader(gz_read, g, im->name);
	}
	return jsplit_open(*fd, im->name);
}

void import_close_json(struct jsplit *s, int fd)
{
	/* gzip input: the stream owns the file */
	if (s && fd < 0) {
		struct gzin *g = jsplit_reader_ctx(s);

		gzclose(g->gz);
		free(g);
	}
	jsplit_close(s);
	if (fd >= 0)
		close(fd);
}

static int64_t file_size(const char *path)
{
	struct stat sb;

	return stat(path, &sb) ? -1 : (int64_t)sb.st_size;
}

int import_changed(const char *path, const struct stat *sb)
{
	struct stat now;

	return stat(path, &now) || now.st_size != sb->st_size ||
	       stat_mtime_ns(&now) != stat_mtime_ns(sb) ||
	       now.st_ino != sb->st_ino || now.st_dev != sb->st_dev;
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

/* Case-insensitive substring test, for warning texts. */
static int mentions(const char *s, const char *word)
{
	size_t n = strlen(word);

	for (; s && *s; s++)
		if (!strncasecmp(s, word, n))
			return 1;
	return 0;
}

void import_warning(struct import *im, const char *category,
		    const char *message)
{
	char *msg = NULL;

	/* "System profile events were dropped due to full ring buffer":
	 * the timeline has holes, which the user must not miss. */
	if (mentions(message, "dropped") || mentions(category, "dropped")) {
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

int import_file(struct writer *w, const char *path, const char *name,
		const struct import_opts *o, int64_t parent,
		struct import_result *res)
{
	return import_file_as(w, path, name, o, parent, res,
			      import_detect(path));
}

int import_file_as(struct writer *w, const char *path, const char *name,
		   const struct import_opts *o, int64_t parent,
		   struct import_result *res, enum input_format f)
{
	struct import_result local;
	struct import im = {
		.w = w, .path = path, .name = name, .opts = o, .parent = parent,
		.res = res ? res : &local,
	};
	struct stat before;
	struct cache_stamp stamp;
	int rc, have = !stat(path, &before);

	/* what binds the cache to the file, taken before it is read */
	cache_stamp_of(path, &stamp);
	memset(im.res, 0, sizeof(*im.res));
	im.res->nc_idx = -1;
	im.progress = progress_new(!o->quiet);
	switch (f) {
	case FMT_NEURON_JSON:
		rc = import_neuron_json(&im);
		break;
	case FMT_PFTRACE:
		rc = import_pftrace(&im);
		break;
	case FMT_CHROME_JSON:
		rc = import_chrome_json(&im);
		break;
	case FMT_PARQUET_DEVICE:
		rc = import_parquet_device(&im);
		break;
	case FMT_NEURON_BINARY:
		rc = -1;
		err_set("%s: raw Neuron capture files cannot be read directly;"
			" export them first with: neuron-profile view"
			" --output-format json (or neuron-explorer view"
			" --output-format json)", name);
		break;
	case FMT_UNREADABLE:
		rc = -1;
		err_set("%s: %s", name, err_get());
		break;
	default:
		rc = -1;
		if (file_size(path) == 0)
			err_set("%s: empty file", name);
		else if (has_suffix(path, ".parquet"))
			err_set("%s: one table of a Parquet profile: open the"
				" folder that holds it", name);
		else
			err_set("%s: not a Neuron profile JSON, Perfetto trace or"
				" Chrome trace-event JSON file", name);
	}
	progress_free(im.progress);
	if (!rc && have && import_changed(path, &before)) {
		err_set("%s: the file changed while it was read (is it still being"
			" written?); nothing was kept", name);
		rc = -1;
	}
	if (!rc) {
		char real[4096];

		if (!realpath(path, real))
			snprintf(real, sizeof(real), "%s", path);
		/* as it was read: a change since makes the cache stale */
		writer_source_as(w, im.profile, real, im.res->is_system ?
				 "system" : parent ? "device" : "profile",
				 have && stamp.size >= 0 ? &stamp : NULL);
	}
	im.res->profile = im.profile;
	/* a full disk or a limit, said with the file being read */
	if (writer_failed(w)) {
		char *why = xstrdup(err_get());

		err_set("%s: %s", name, why);
		free(why);
		rc = -1;
	}
	if (rc || !res)
		import_result_free(im.res);
	return rc;
}

void import_remove_stale(const char *cache_path)
{
	char *dir = file_dir(cache_path);
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		if (!strncmp(e->d_name, FILE_TEMP_PREFIX,
			     strlen(FILE_TEMP_PREFIX)) &&
		    file_temp_abandoned(dirfd(d), e->d_name))
			unlinkat(dirfd(d), e->d_name, 0);
	}
	if (d)
		closedir(d);
	free(dir);
}

static void progress_cb(void *ctx, const char *what, int pct)
{
	progress_update(ctx, what, pct, 0);
}

int import_filter_key(const struct import_opts *o, struct strbuf *key)
{
	struct sysfilter f;

	sb_reset(key);
	if (sysfilter_parse(&f, o->filter_nc, o->filter_event_type,
			    o->filter_instance))
		return -1;
	sysfilter_key(&f, key);
	sysfilter_free(&f);
	return 0;
}

/* The profile in input: a file, or a bundle folder's system profile. */
static int import_input(struct writer *w, const char *input,
			const char *tmp, const struct import_opts *o)
{
	struct import_result res;
	struct stat sb;
	char *file = NULL, *name = NULL, *dir = NULL;
	int rc;

	if (!stat(input, &sb) && S_ISDIR(sb.st_mode) &&
	    pqfolder_is_device(input)) {
		rc = import_file_as(w, input, input, o, 0, NULL,
				    FMT_PARQUET_DEVICE);
		return rc;
	}
	if (!stat(input, &sb) && S_ISDIR(sb.st_mode)) {
		if (bundle_find_system(input, &file))
			return -1;
		dir = xstrdup(input);
		name = xasprintf("%s/%s", input, strrchr(file, '/') + 1);
	}
	rc = import_file(w, file ? file : input, name ? name : input, o, 0,
			 &res);
	if (!rc) {
		/* a system profile brings the device profiles beside it */
		if (res.is_system) {
			if (!dir)
				dir = file_dir(input);
			if (!o->quiet)
				err_note("%s: system profile %s", dir,
					 name ? name : input);
			rc = bundle_import_devices(w, dir, &res, o, tmp);
		}
		import_result_free(&res);
	}
	free(file);
	free(name);
	free(dir);
	return rc;
}

int import_build(const char *input, const char *cache_path,
		 const struct import_opts *o)
{
	char *tmp = NULL;
	char real[4096];
	struct progress *pg;
	struct strbuf key;
	struct writer *w;
	int rc = -1, fd = -1;

	sb_init(&key);
	import_remove_stale(cache_path);
	if (import_filter_key(o, &key))
		goto out;
	fd = cache_temp_create(cache_path, &tmp);
	if (fd < 0)
		goto out;
	w = writer_open(tmp);
	if (!w)
		goto out;
	if (!realpath(input, real))
		snprintf(real, sizeof(real), "%s", input);
	writer_meta(w, "nxtop_version", PACKAGE_VERSION);
	writer_meta(w, "input", real);
	writer_meta(w, "filter", sb_cstr(&key));
	if (import_input(w, input, tmp, o)) {
		writer_abort(w);
		goto out;
	}
	pg = progress_new(!o->quiet);
	writer_set_progress(w, progress_cb, pg);
	rc = writer_finish(w);
	progress_free(pg);
	if (!rc)
		rc = cache_commit(tmp, fd, cache_path);
out:
	if (rc && tmp)
		unlink(tmp);
	/* the lock on the temporary file goes last */
	if (fd >= 0)
		close(fd);
	free(tmp);
	sb_free(&key);
	return rc;
}
