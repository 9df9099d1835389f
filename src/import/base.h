/* What every importer shares: the file being imported, error messages
 * that name the file and position, opening (gzip too), progress and
 * warnings. Formats call down into it; it calls no format. */
#ifndef NX_IMPORT_BASE_H
#define NX_IMPORT_BASE_H

#include <stdint.h>
#include <sys/stat.h>

#include "model/util.h"
#include "model/writer/writer.h"

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
	struct import_progress progress;
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
	int64_t nc_idx;		/* a device profile's own NeuronCore, or -1 */
	int is_system;		/* a system profile */
	struct devref *devices;	/* its device_profile_list */
	size_t ndevices;
};

void import_result_free(struct import_result *r);

/* One input file being imported. */
struct import {
	struct writer *w;
	const char *path;	/* file to open */
	const char *name;	/* file as named to the user */
	const struct import_opts *opts;
	int64_t profile;	/* profile being filled */
	int64_t parent;		/* owning system profile, or 0 */
	uint64_t size;		/* bytes in the file, 0 if unknown */
	uint64_t offset;	/* bytes read so far */
	struct import_result *res;
};

/* A profile's own warning. Dropped-event warnings get the category
 * WARN_DROPPED so that views can flag them. */
#define WARN_DROPPED "Dropped events"
void import_warning(struct import *im, const char *category,
		    const char *message);

/* Sets the error text: "<file>: byte N: <msg> in "key"[i]". Returns -1. */
int import_fail(struct import *im, const struct jrec *r, const char *fmt, ...)
	NX_PRINTF(3, 4);
/* Updates the progress line with bytes read so far. */
void import_progress(struct import *im, uint64_t offset);
/* Shows what on o's progress line unless quiet; what NULL clears it. */
void import_show(const struct import_opts *o, const char *what, int pct,
		 uint64_t events);

/* gzip input may expand this many times its compressed size, past its
 * first GZIP_FREE_BYTES: beyond, it is refused as a decompression bomb
 * (real profiles compress 5 to 50 times). */
#define GZIP_MAX_RATIO 256
#define GZIP_FREE_BYTES (64u << 20)

/* What went wrong in gzip data, in words, from zlib's code and message. */
const char *import_gzip_why(int code, const char *msg);

/* Opens the input for reading; -1 with err_get() set if it cannot be
 * opened or is not a regular file. */
int import_open(struct import *im);

/* Opens a JSON input, gzip-compressed or not, as a splitter. */
struct jsplit *import_open_json(struct import *im, int *fd);
void import_close_json(struct jsplit *s, int fd);

/* 1 if the file at path is no longer the one sb describes (its size,
 * time or inode changed): it changed while it was read. */
int import_changed(const char *path, const struct stat *sb);

#endif
