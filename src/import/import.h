/* Importing input files into a new cache: the entry point. Under it, the
 * dispatcher (dispatch.h) picks each file's importer, bundles (bundle.h)
 * bring a system profile's device profiles, and every importer shares
 * the base (base.h). */
#ifndef NX_IMPORT_H
#define NX_IMPORT_H

#include "model/util.h"
#include "src/import/base.h"
#include "src/import/dispatch.h"

struct msource;

/* The canonical text of the filters in o ("" for none), which is part
 * of a cache's identity. -1 with err_get() set if they are bad. */
int import_filter_key(const struct import_opts *o, struct strbuf *key);

/* Builds the cache for input (a file, or a bundle folder) at
 * cache_path. 0 on success; on failure err_get() has one line and
 * nothing is left at cache_path. */
int import_build(const char *input, const char *cache_path,
		 const struct import_opts *o);

/* The sources (struct msource, model/model.h) import_build will record
 * for input, as far as they are known before anything is read: a
 * Parquet folder's tables (a system folder's with those of the device
 * folders its DeviceProfileList names), a JAX run's folders and trace
 * files, a bundle's system profile. What a system profile JSON lists,
 * and so which names beside it are its own, is known once it is read:
 * it is given as a plain "profile". Nothing for an
 * input the import would refuse. */
void import_plan(const char *input, const struct import_opts *o,
		 struct msource **v, size_t *n);

/* Removes the temporary files in cache_path's folder that imports of
 * this user left when they died: only nxtop's names, only files of this
 * user that no running import holds (model/file.h). */
void import_remove_stale(const char *cache_path);

#endif
