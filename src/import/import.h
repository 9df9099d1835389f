/* Importing input files into a new cache. One importer per format; this
 * file holds what they share: the cache build, format detection, error
 * messages that name the file and position, and the progress line. */
#ifndef NX_IMPORT_H
#define NX_IMPORT_H

#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#include "model/util.h"
#include "model/writer/writer.h"

struct jrec;
struct cJSON;
struct jv_arena;

struct import_opts {
	int quiet;		/* no progress line */
	int force;		/* rebuild even if the cache is fresh */
	/* system-profile filters as typed (sysfilter.h); NULL: none */
	const char *filter_nc, *filter_event_type, *filter_instance;
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
	struct progress *progress;
	struct import_result *res;
};

enum input_format {
	FMT_UNKNOWN,
	FMT_NEURON_JSON,	/* device or system profile JSON */
	FMT_CHROME_JSON,	/* Chrome trace-event JSON (maybe gzip) */
	FMT_PFTRACE,		/* Perfetto protobuf trace */
	FMT_CACHE,		/* an nxtop cache */
	FMT_PARQUET_DEVICE,	/* a folder of Neuron Explorer device tables */
	FMT_NEURON_BINARY,	/* .ntff/.neff/.pb: needs exporting first */
	FMT_UNREADABLE,		/* cannot be read (err_get() says why:
				 * "Permission denied", "byte N: gzip: bad
				 * checksum") */
};

/* Looks at a file's name and first bytes. */
enum input_format import_detect(const char *path);

/* The canonical text of the filters in o ("" for none), which is part
 * of a cache's identity. -1 with err_get() set if they are bad. */
int import_filter_key(const struct import_opts *o, struct strbuf *key);

/* Builds the cache for input (a file, or a bundle folder) at
 * cache_path. 0 on success; on failure err_get() has one line and
 * nothing is left at cache_path. */
int import_build(const char *input, const char *cache_path,
		 const struct import_opts *o);

/* Removes the temporary files in cache_path's folder that imports of
 * this user left when they died: only nxtop's names, only files of this
 * user that no running import holds (model/file.h). */
void import_remove_stale(const char *cache_path);

/* Imports one file into the writer as a new profile; res (may be NULL)
 * receives what it was. */
int import_file(struct writer *w, const char *path, const char *name,
		const struct import_opts *o, int64_t parent,
		struct import_result *res);
/* The same for a file whose format is known (the fuzz harnesses). */
int import_file_as(struct writer *w, const char *path, const char *name,
		   const struct import_opts *o, int64_t parent,
		   struct import_result *res, enum input_format f);

/* 1 if the file at path is no longer the one sb describes (its size,
 * time or inode changed): it changed while it was read. */
int import_changed(const char *path, const struct stat *sb);

/* The per-format entry points. */
int import_neuron_json(struct import *im);
int import_pftrace(struct import *im);
int import_chrome_json(struct import *im);
int import_parquet_device(struct import *im);

/* System-profile records met inside a Neuron JSON file
 * (system.c). The file becomes a system profile at the first. */
struct sysimp;

int sysimp_is_key(const char *key);
/* NULL with err_get() set when the filter options are bad. */
struct sysimp *sysimp_new(struct import *im);
int sysimp_record(struct sysimp *s, const struct jrec *r,
		  const struct cJSON *o, void *prepared);
/* Reads a trace_event record ahead, in the reader thread of a pipe
 * (src/json/jsonpipe.h); NULL for other records. */
void *sysimp_prep(const struct jrec *r, const struct cJSON *o,
		  struct jv_arena *a);
int sysimp_finish(struct sysimp *s);
void sysimp_free(struct sysimp *s);

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

/* gzip input may expand this many times its compressed size, past its
 * first GZIP_FREE_BYTES: beyond, it is refused as a decompression bomb
 * (real profiles compress 5 to 50 times). */
#define GZIP_MAX_RATIO 256
#define GZIP_FREE_BYTES (64u << 20)

/* Opens the input for reading; -1 with err_get() set if it cannot be
 * opened or is not a regular file. */
int import_open(struct import *im);

/* Opens a JSON input, gzip-compressed or not, as a splitter. */
struct jsplit *import_open_json(struct import *im, int *fd);
void import_close_json(struct jsplit *s, int fd);

#endif
