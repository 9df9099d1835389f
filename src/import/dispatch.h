/* Which format a file is, and importing one file with the importer of
 * its format. */
#ifndef NX_IMPORT_DISPATCH_H
#define NX_IMPORT_DISPATCH_H

#include <stdint.h>

#include "src/import/base.h"

enum input_format {
	FMT_UNKNOWN,
	FMT_NEURON_JSON,	/* device or system profile JSON */
	FMT_CHROME_JSON,	/* Chrome trace-event JSON (maybe gzip) */
	FMT_PFTRACE,		/* Perfetto protobuf trace */
	FMT_CACHE,		/* an nxtop cache */
	FMT_PARQUET_DEVICE,	/* a folder of Neuron Explorer device tables */
	FMT_PARQUET_SYSTEM,	/* a folder of Neuron Explorer system tables */
	FMT_NEURON_BINARY,	/* .ntff/.neff/.pb: needs exporting first */
	FMT_UNREADABLE,		/* cannot be read (err_get() says why:
				 * "Permission denied", "byte N: gzip: bad
				 * checksum") */
};

/* Looks at a file's name and first bytes, or a folder's table files. */
enum input_format import_detect(const char *path);
/* The same, and *system set to 1 when the file is a Neuron profile JSON
 * that imports as a system profile (import_is_system_json()), from one
 * read of the file. */
enum input_format import_detect_system(const char *path, int *system);

/* 1 if the file name in the folder dirfd (AT_FDCWD: here), opened with
 * flags added to O_RDONLY, is a Neuron profile JSON that imports as a
 * system profile: of its top-level keys, the first that says a kind
 * (neuron_key_kind()) is a system profile's (trace_event,
 * device_profile_list, ...), not a device profile's (instruction,
 * dma, ...). Keys are read as import_detect() reads them, up to that
 * one; their values are passed over, not kept. */
int import_is_system_json(int dirfd, const char *name, int flags);

/* Imports one file into the writer as a new profile; res (may be NULL)
 * receives what it was. */
int import_file(struct writer *w, const char *path, const char *name,
		const struct import_opts *o, int64_t parent,
		struct import_result *res);
/* The same for a file whose format is known (the fuzz harnesses). */
int import_file_as(struct writer *w, const char *path, const char *name,
		   const struct import_opts *o, int64_t parent,
		   struct import_result *res, enum input_format f);
/* One Chrome trace-event JSON file of a JAX run into profile, its rows
 * under the group track (the file's host), sorted from sort_base on. */
int import_file_into(struct writer *w, const char *path, const char *name,
		     const struct import_opts *o, int64_t profile,
		     int64_t group, int64_t sort_base);

#endif
