/* The dispatcher: which format a file is, and the importer that reads
 * it. Formats call the base (base.h), never back into this file. */
#include "config.h"

#include "src/import/dispatch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/cache/cache.h"
#include "model/util.h"
#include "src/import/formats.h"
#include "src/import/gunzip.h"
#include "src/import/neuron.h"
#include "src/import/parquet/folder.h"
#include "src/json/jkeys.h"
#include "src/json/jtext.h"

#define SNIFF_BYTES 65536

/* Whether the first n bytes of s end with suffix. */
static int ends_with(const char *s, size_t n, const char *suffix)
{
	size_t m = strlen(suffix);

	return n >= m && !strncasecmp(s + n - m, suffix, m);
}

static int has_suffix(const char *s, const char *suffix)
{
	return ends_with(s, strlen(s), suffix);
}

/* A Perfetto trace's name, followed by suffix ("", ".gz"). */
static int pftrace_name(const char *path, const char *suffix)
{
	size_t n = strlen(path);

	if (!ends_with(path, n, suffix))
		return 0;
	n -= strlen(suffix);
	return ends_with(path, n, ".pftrace") ||
	       ends_with(path, n, ".perfetto-trace");
}

/* Where the key walk stops: at the key that settles what a JSON object
 * is. */
enum { KEY_CHROME = 1, KEY_DEVICE, KEY_SYSTEM };

/* The walk over a JSON object's keys stops at the first key that settles
 * it, wherever it comes: Chrome's event array makes a Chrome trace; a
 * key of a Neuron profile's data makes a Neuron profile, a device or a
 * system profile by the kind the key says (neuron_key_kind(), the rule
 * the Neuron importer follows). Keys both may have ("metadata") and
 * keys of neither settle nothing. Keys are read with their escapes
 * decoded, as the importers read them. */
static int settling_key(void *arg, const char *key, size_t n)
{
	struct strbuf name;
	enum neuron_kind kind;
	int rc;

	(void)arg;
	sb_init(&name);
	jt_unescape(key, n, &name);
	kind = neuron_key_kind(name.buf);
	rc = !strcmp(name.buf, "traceEvents") ? KEY_CHROME :
	     kind == NK_DEVICE ? KEY_DEVICE : kind == NK_SYSTEM ? KEY_SYSTEM : 0;
	sb_free(&name);
	return rc;
}

/* JSON that is a Chrome trace: a bare array, or an object with a
 * "traceEvents" key before any Neuron profile's key, however much comes
 * before it (keys are in no set order: json.dumps(sort_keys=True) puts
 * "stackFrames" first).
 * Other objects, and text that turns out not to be JSON, go to the
 * Neuron importer, which says what it found. The byte after the opening
 * bracket must fit too, so that a Perfetto trace (whose first byte,
 * 0x0a, is a newline) is not taken for JSON. With system set, *system
 * says whether a Neuron profile JSON is a system profile. */
static enum input_format sniff_json(struct jkeys *k, int *system)
{
	int open = jkeys_peek(k), next;

	if (open != '[' && open != '{')
		return FMT_UNKNOWN;
	jkeys_take(k);
	next = jkeys_peek(k);
	if (next >= 0 && !strchr(open == '{' ? "\"}" : "{[]\"-0123456789tfn",
				 next))
		return FMT_UNKNOWN;
	if (open == '[')
		return FMT_CHROME_JSON;
	next = jkeys_walk(k, settling_key, NULL);
	if (system)
		*system = next == KEY_SYSTEM;
	return next == KEY_CHROME ? FMT_CHROME_JSON : FMT_NEURON_JSON;
}

/* A file's bytes after its first ones, for the key walk: as they are, or
 * inflated from the gzip data the first ones came from. */
struct sniff_in {
	int fd;
	struct gunzip *gz;
};

/* Inflates into out until it is full or the data ends. Returns the
 * count, or -1 with err_get() set ("byte N: gzip: bad checksum", N in
 * the file) when the data is damaged before out is full. */
static long gz_inflate(struct sniff_in *s, unsigned char *out, size_t n)
{
	long got = gunzip_read(s->gz, out, n);

	if (got < 0)
		err_set("byte %llu: gzip: %s",
			(unsigned long long)gunzip_in(s->gz), gunzip_why(s->gz));
	return got;
}

static long sniff_read(void *ctx, void *buf, size_t len)
{
	struct sniff_in *s = ctx;
	uint64_t out;

	if (!s->gz)
		return (long)read(s->fd, buf, len);
	/* a bomb is the importer's to refuse, with its own words */
	out = gunzip_out(s->gz);
	if (out > GZIP_FREE_BYTES && out / GZIP_MAX_RATIO > gunzip_in(s->gz))
		return -1;
	return gz_inflate(s, buf, len);
}

/* The first n bytes of a file, or of its gzip data inflated, in buf: a
 * Perfetto trace when named so, else JSON by its keys, else a Perfetto
 * trace by its first byte (a packet's tag). */
static enum input_format sniff_bytes(int pftrace_named, struct sniff_in *s,
				     unsigned char *buf, size_t cap, size_t n,
				     int *system)
{
	/* the key walk may read over buf */
	unsigned char first = buf[0];
	enum input_format f;
	struct jkeys k;

	if (pftrace_named)
		return FMT_PFTRACE;
	jkeys_init(&k, buf, cap, n, sniff_read, s);
	f = sniff_json(&k, system);
	return f == FMT_UNKNOWN && first == 0x0a ? FMT_PFTRACE : f;
}

/* Damage in the first cap bytes inflated is said now, with where it is
 * in the file; damage further on is left to the importer. Every member
 * of the file is read, so that a key in the second is found too. The
 * inflated bytes are told as a file's own are (sniff_bytes), by its name
 * without ".gz". */
static enum input_format sniff_gzip(const char *path, struct sniff_in *s,
				    unsigned char *buf, size_t cap,
				    int *system)
{
	enum input_format f = FMT_UNKNOWN;
	long n;

	if (lseek(s->fd, 0, SEEK_SET))
		return FMT_UNKNOWN;
	s->gz = gunzip_open(s->fd);
	n = gz_inflate(s, buf, cap);
	if (n < 0)
		f = FMT_UNREADABLE;
	else if (n > 0)
		f = sniff_bytes(pftrace_name(path, ".gz"), s, buf, cap,
				(size_t)n, system);
	gunzip_close(s->gz);
	s->gz = NULL;
	return f;
}

/* A regular file by its first bytes (n of them in buf), and its JSON
 * further on when it starts like JSON; with system set, *system says
 * whether that JSON is a system profile (sniff_json). */
static enum input_format sniff_file(const char *path, struct sniff_in *s,
				    unsigned char *buf, size_t cap, ssize_t n,
				    int *system)
{
	if (n >= 2 && buf[0] == 0x1f && buf[1] == 0x8b)
		return sniff_gzip(path, s, buf, cap, system);
	if (n <= 0)
		return n < 0 ? FMT_UNREADABLE : FMT_UNKNOWN;
	if (n >= 16 && !memcmp(buf, "SQLite format 3", 16))
		return FMT_CACHE;
	return sniff_bytes(pftrace_name(path, ""), s, buf, cap, (size_t)n,
			   system);
}

/* Raw Neuron capture files, known by their names. */
static int binary_name(const char *path)
{
	return has_suffix(path, ".ntff") || has_suffix(path, ".neff") ||
	       has_suffix(path, "ntrace.pb") ||
	       has_suffix(path, "trace_info.pb") ||
	       has_suffix(path, "cpu_util.pb") || has_suffix(path, "host_mem.pb");
}

/* The regular file open as fd (named path); see sniff_file(). */
static enum input_format sniff_fd(int fd, const char *path, int *system)
{
	unsigned char buf[SNIFF_BYTES];
	struct sniff_in in = { .fd = fd };
	struct stat sb;
	ssize_t n;

	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode))
		return FMT_UNKNOWN;
	n = read(fd, buf, sizeof(buf));
	if (n < 0)
		err_set("%s", strerror(errno));
	return sniff_file(path, &in, buf, sizeof(buf), n, system);
}

enum input_format import_detect(const char *path)
{
	return import_detect_system(path, NULL);
}

enum input_format import_detect_system(const char *path, int *system)
{
	enum input_format f;
	struct stat sb;
	int fd;

	if (system)
		*system = 0;

	if (binary_name(path))
		return FMT_NEURON_BINARY;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		err_set("%s", strerror(errno));
		return FMT_UNREADABLE;
	}
	if (!fstat(fd, &sb) && S_ISDIR(sb.st_mode)) {
		close(fd);
		return pqfolder_is_system(path) ? FMT_PARQUET_SYSTEM :
		       pqfolder_is_device(path) ? FMT_PARQUET_DEVICE : FMT_UNKNOWN;
	}
	f = sniff_fd(fd, path, system);
	close(fd);
	if (system && f != FMT_NEURON_JSON)
		*system = 0;
	return f;
}

int import_is_system_json(int dirfd, const char *name, int flags)
{
	int fd, system = 0;
	enum input_format f;

	if (binary_name(name))
		return 0;
	fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC | flags);
	if (fd < 0)
		return 0;
	f = sniff_fd(fd, name, &system);
	close(fd);
	return f == FMT_NEURON_JSON && system;
}

static int64_t file_size(const char *path)
{
	struct stat sb;

	return stat(path, &sb) ? -1 : (int64_t)sb.st_size;
}

int import_file(struct writer *w, const char *path, const char *name,
		const struct import_opts *o, int64_t parent,
		struct import_result *res)
{
	return import_file_as(w, path, name, o, parent, res,
			      import_detect(path));
}

/* Reads im's file as format f; keep: the caller takes im->res. */
static int run_import(struct import *im, enum input_format f, int keep)
{
	const char *path = im->path, *name = im->name;
	const struct import_opts *o = im->opts;
	struct writer *w = im->w;
	struct import_mark before;
	struct cache_stamp stamp;
	int rc, have = !import_mark(path, &before);

	/* what binds the cache to the file, taken before it is read */
	cache_stamp_of(path, &stamp);
	memset(im->res, 0, sizeof(*im->res));
	switch (f) {
	case FMT_NEURON_JSON:
		rc = import_neuron_json(im);
		break;
	case FMT_PFTRACE:
		rc = import_pftrace(im);
		break;
	case FMT_CHROME_JSON:
		rc = import_chrome_json(im);
		break;
	case FMT_PARQUET_DEVICE:
		rc = import_parquet_device(im);
		break;
	case FMT_PARQUET_SYSTEM:
		rc = import_parquet_system(im);
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
	import_show(o, NULL, -1, 0);
	/* also when it failed: a file cut short while it was read ends
	 * where no record may, which is not what is wrong with it */
	if (have && import_changed(path, &before)) {
		err_set("%s: the file changed while it was read (is it still being"
			" written?); nothing was kept", name);
		rc = -1;
	}
	if (!rc) {
		char real[4096];

		if (!realpath(path, real))
			snprintf(real, sizeof(real), "%s", path);
		/* as it was read: a change since makes the cache stale */
		writer_source_as(w, im->profile, real, im->res->is_system ?
				 "system" : im->parent ? "device" : "profile",
				 have && stamp.size >= 0 ? &stamp : NULL);
	}
	im->res->profile = im->profile;
	/* a full disk or a limit, said with the file being read */
	if (writer_failed(w)) {
		char *why = xstrdup(err_get());

		err_set("%s: %s", name, why);
		free(why);
		rc = -1;
	}
	if (rc || !keep)
		import_result_free(im->res);
	return rc;
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

	return run_import(&im, f, res != NULL);
}

int import_file_into(struct writer *w, const char *path, const char *name,
		     const struct import_opts *o, int64_t profile,
		     int64_t group, int64_t sort_base)
{
	struct import_result local;
	struct import im = {
		.w = w, .path = path, .name = name, .opts = o,
		.profile = profile, .group = group, .sort_base = sort_base,
		.res = &local,
	};
	enum input_format f = import_detect(path);

	if (f != FMT_CHROME_JSON && f != FMT_UNREADABLE) {
		err_set("%s: not a Chrome trace-event JSON file", name);
		return -1;
	}
	return run_import(&im, f, 0);
}
