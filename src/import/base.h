/* What every importer shares: the file being imported, error messages
 * that name the file and position, opening (gzip too), progress and
 * warnings. Formats call down into it; it calls no format. */
#ifndef NX_IMPORT_BASE_H
#define NX_IMPORT_BASE_H

#include <stdint.h>
#include <sys/stat.h>

#include "model/util.h"
#include "model/writer/writer.h"

struct cJSON;
struct jrec;
struct jsplit;

/* Where imports report how far they are: fn(ctx, what, pct, events),
 * pct < 0 when unknown; what NULL clears the line. fn NULL: silent. */
struct import_progress {
	void (*fn)(void *ctx, const char *what, int pct, uint64_t events);
	void *ctx;
};

struct import_opts {
	int quiet;		/* no progress line, no notes */
	int force;		/* rebuild even if the cache is fresh */
	/* system-profile filters as typed (sysfilter.h); NULL: none */
	const char *filter_nc, *filter_event_type, *filter_instance;
	const char *run;	/* JAX run to open, NULL: the newest */
	/* a bundle's device profiles are left "queued" for the viewer to
	 * import in the background (bundle_import_queued) */
	int defer_devices;
	struct import_progress progress;
	/* asked of the finished cache before it takes its name (NULL: not
	 * asked): nonzero, with err_get() set, fails the import */
	int (*check)(const char *built, void *ctx);
	void *check_ctx;
};

/* One entry of a system profile's device_profile_list: the device
 * profile is the file <name>.json in the same folder. */
struct devref {
	char *name;
	char *instance_id, *process_id, *model_id, *session_id;	/* or NULL */
	int64_t nc_idx;		/* -1: unknown */
};

/* What importing one file produced. */
struct import_result {
	int64_t profile;
	int is_system;		/* a system profile */
	struct devref *devices;	/* its device_profile_list */
	size_t ndevices;
};

void import_result_free(struct import_result *r);

/* A field a file names otherwise (a Parquet column renamed into the
 * JSON record's field): the file's name and the record's; json NULL
 * drops it. */
struct pqrename {
	const char *column, *json;
};

/* One input file being imported. */
struct import {
	struct writer *w;
	const char *path;	/* file to open */
	const char *name;	/* file as named to the user */
	const struct import_opts *opts;
	int64_t profile;	/* profile being filled */
	int64_t parent;		/* owning system profile, or 0 */
	int64_t group;		/* track the rows go under (a JAX host), or 0 */
	int64_t sort_base;	/* the rows' first sort key (past other hosts) */
	uint64_t size;		/* bytes in the file, 0 if unknown */
	uint64_t offset;	/* bytes read so far */
	const struct jrec *rec;	/* the record being read, for messages */
	/* the table being read renames these columns (ending with { NULL,
	 * NULL }), or NULL: messages about a field name it as the file does */
	const struct pqrename *renames;
	struct import_result *res;
};

/* A profile's own warning. Dropped-event warnings get the category
 * WARN_DROPPED so that views can flag them. */
#define WARN_DROPPED "Dropped events"
void import_warning(struct import *im, const char *category,
		    const char *message);

/* jrec.offset of a record that is a row of a table (Parquet): errors
 * say "<file>: row N: <msg>". */
#define IMPORT_AT_ROW UINT64_MAX

/* Sets the error text: "<file>: byte N: <msg> in "key"[i]". Returns -1. */
int import_fail(struct import *im, const struct jrec *r, const char *fmt, ...)
	NX_PRINTF(3, 4);
/* Updates the progress line with bytes read so far. */
void import_progress(struct import *im, uint64_t offset);
/* Shows what on o's progress line unless quiet; what NULL clears it. */
void import_show(const struct import_opts *o, const char *what, int pct,
		 uint64_t events);

/* Field getters of JSON records, one way for every importer: a value of
 * another type fails with ""field" is a string, expected an integer" at
 * im->rec. Numbers that arrive as strings are read (src/json/jsonval.h). */
#define FIELD_NEG_ABSENT 1u	/* a negative integer counts as absent */
#define FIELD_EMPTY_ABSENT 2u	/* an empty string counts as absent */

/* A field as the file names it: the Parquet column that renames holds
 * for the record's field, else the field itself. */
const char *import_field_name(const struct pqrename *renames,
			      const char *field);

/* The message of a field whose value is of type (its description, "a
 * string") where want was expected. Returns -1. */
int import_bad_field(struct import *im, const char *field, const char *type,
		     const char *want);
/* A required integer; "missing "field"" when absent. */
int import_need_i64(struct import *im, const struct cJSON *v,
		    const char *field, int64_t *out);
/* An optional integer; -1 when absent. */
int import_opt_i64(struct import *im, const struct cJSON *v,
		   const char *field, unsigned opts, int64_t *out);
/* An optional string (numbers and booleans as their text, in buf); NULL
 * when absent. */
int import_opt_str(struct import *im, const struct cJSON *v,
		   const char *field, unsigned opts, const char **out,
		   char *buf, size_t len);
/* An optional string interned in im's writer; 0 when absent or empty. */
int import_opt_sid(struct import *im, const struct cJSON *v,
		   const char *field, int64_t *out);
/* An optional 64-bit id, signed or unsigned, number or string. */
int import_opt_id(struct import *im, const struct cJSON *v,
		  const char *field, struct wid *out);

/* An optional number: 0 read, 1 absent, -1 of another type. */
int import_opt_f64(struct import *im, const struct cJSON *v,
		   const char *field, double *out);

/* What the getters read, without failing (for a reader thread): JV_OK,
 * JV_ABSENT (*out -1 or NULL), or JV_BAD. */
int import_get_i64(const struct cJSON *v, unsigned opts, int64_t *out);
int import_get_str(const struct cJSON *v, unsigned opts, const char **out,
		   char *buf, size_t len);
/* The text of import_bad_field(), for messages made elsewhere. */
#define IMPORT_BAD_FIELD "\"%s\" is %s, expected %s"

/* gzip input may expand this many times its compressed size, past its
 * first GZIP_FREE_BYTES: beyond, it is refused as a decompression bomb
 * (real profiles compress 5 to 50 times). */
#define GZIP_MAX_RATIO 256
#define GZIP_FREE_BYTES (64u << 20)

/* An input's bytes, inflated when it is gzip data (known by its first
 * bytes, not its name), within the limits above. */
struct import_in;
/* Opens im's file; NULL with err_get() set if it cannot be opened or
 * is not a regular file. im->size is the file's size, or 0 for gzip
 * data (its inflated size is unknown). */
struct import_in *import_open_in(struct import *im);
/* Up to len bytes: the count (fewer is not yet the end), 0 at the end,
 * -1 with err_get() set. */
long import_read(struct import_in *in, void *buf, size_t len);
void import_close_in(struct import_in *in);

/* Opens a JSON input, gzip-compressed or not, as a splitter. */
struct jsplit *import_open_json(struct import *im, int *fd);
void import_close_json(struct jsplit *s, int fd);

/* What tells whether an input changed while it was read: a file's
 * size, time and inode; a folder's inode and its entries' names and
 * inodes (cache_dir_entries: not its time, which a cache made in it
 * changes; each table file checks its own content as it is read). */
struct import_mark {
	struct stat sb;
	int64_t entries;	/* a folder's */
};

/* 0, or -1 when path cannot be found. */
int import_mark(const char *path, struct import_mark *m);
/* 1 if the input at path is no longer the one m describes: it changed
 * while it was read. */
int import_changed(const char *path, const struct import_mark *m);

#endif
