/* From what the user named (a profile file, a bundle folder or a cache)
 * to a fresh cache, importing when needed. */
#ifndef NX_OPEN_H
#define NX_OPEN_H

#include "src/import/import.h"

/* Sets *cache to the path of a fresh cache for input (malloc'd).
 * Reports a rebuild on stderr unless quiet. 0 on success. */
int open_profile(const char *input, const struct import_opts *o, char **cache);

/* Like open_profile, but always imports into cache_out. */
int open_import_to(const char *input, const char *cache_out,
		   const struct import_opts *o);

#endif
