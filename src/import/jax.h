/* JAX / XProf profile folders (FORMATS.md): LOG_DIR/plugins/profile/
 * holds one folder per run, named by its start time, and each run one
 * Chrome trace-event JSON file per host (HOST.trace.json.gz) and/or a
 * perfetto_trace.json.gz. A run opens as one profile, each file a group
 * of rows named by its host. */
#ifndef NX_IMPORT_JAX_H
#define NX_IMPORT_JAX_H

#include <stdint.h>

#include "src/import/base.h"

struct msource;

/* 1 if dir is LOG_DIR, LOG_DIR/plugins, LOG_DIR/plugins/profile or a
 * run folder of a JAX profile. */
int jax_is_folder(const char *dir);

/* Says, unless o->quiet, that dir's plugins or plugins/profile folder is
 * a link, which jax_is_folder() does not follow: dir is then no JAX
 * profile folder. */
void jax_warn_link(const char *dir, const struct import_opts *o);

/* 1 if a file of that name in a run folder is one of the run's trace
 * files, which its import reads. */
int jax_takes_name(const char *name);

/* The bytes of the files of the run dir opens (the one it is, else the
 * newest) and their newest modification time (Unix ns), for lists. */
void jax_size_when(const char *dir, int64_t *size, int64_t *when);

/* Adds to *v the sources import_jax records for dir (the run folders
 * and the run's trace files, model_sources' roles and paths), found
 * the way it finds them, before anything is read. Nothing when it
 * would fail. */
void jax_plan(const char *dir, const struct import_opts *o,
	      struct msource **v, size_t *n);

/* Imports the run of dir that o->run names, else the run dir is, else
 * the newest (runs sort by name: their names are timestamps). -1 with
 * err_get() set. */
int import_jax(struct writer *w, const char *dir, const struct import_opts *o);

#endif
