/* From what the user named (a profile file, a bundle folder or a cache)
 * to a fresh cache, importing when needed. */
#ifndef NX_OPEN_H
#define NX_OPEN_H

#include "src/import/import.h"

struct model;

/* Sets *cache to the path of a fresh cache for input (malloc'd).
 * Reports a rebuild on stderr unless quiet. 0 on success. */
int open_profile(const char *input, const struct import_opts *o, char **cache);

/* Like open_profile, but always imports into cache_out, which must not
 * be a file of the profile nor one it would read (open_output_check):
 * refused before the import where its files are known up front
 * (import_plan), else once it is done. */
int open_import_to(const char *input, const char *cache_out,
		   const struct import_opts *o);

/* 0 if a command reading the profile open as m (done: "exported",
 * "imported", as the message says) may write out: out is none of the
 * files the profile was read from or waits for (a device profile its
 * bundle lists), nor a name the profile's next import would read in one
 * of its folders. Else -1 with err_get() set. */
int open_output_check(struct model *m, const char *out, const char *done);

#endif
