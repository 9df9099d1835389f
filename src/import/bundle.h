/* A profile bundle: a folder of exported JSON holding one system profile
 * and the device profiles it lists (device_profile_list ->
 * <device_profile_name>.json), plus device files named the way the tools
 * name them (device_profile_model_<id>.json,
 * i-<instance>_pid_<pid>_nc_<N>_<...>.json). Names are resolved only
 * inside the folder: no '/', no "..", no links that lead out. */
#ifndef NX_BUNDLE_H
#define NX_BUNDLE_H

#include "src/import/dispatch.h"

/* The system profile file in folder dir: system_profile.json, else
 * profile.json, else the one JSON file that imports as a system profile
 * (import_is_system_json) of those not named like a device profile.
 * *path is malloc'd. 0 on success; -1 with err_get() set. */
int bundle_find_system(const char *dir, char **path);

/* 1 if the import of a bundle folder reads a file of that name there by
 * its name alone: a system profile name it looks for, or a device
 * profile named the way the tools name them. The files a system profile
 * lists are known once it is read (the cache's sources). */
int bundle_takes_name(const char *name);

/* The real path of the Parquet device profile folder <name>@latest/
 * that a system profile folder in dir lists as name, resolved as its
 * import resolves it; NULL when there is none or it is refused. */
char *bundle_device_folder(const char *dir, const char *name);

/* Imports the device profiles of the system profile sys (just imported
 * from folder dir into w) as its children: files <name>.json, or with
 * folders set Parquet folders <name>@latest/ (the system profile is a
 * folder of dir too). Each file is imported in a
 * worker thread into a part cache beside the cache's temporary file tmp
 * (named after it, model/file.h) and merged; a file
 * that is missing or fails becomes a warning and a profile row in state
 * "missing" or "failed", not a failure of the bundle. Says on stderr
 * which files it used unless quiet. 0 on success. */
int bundle_import_devices(struct writer *w, const char *dir,
			  const struct import_result *sys,
			  const struct import_opts *o, const char *tmp,
			  int folders);

/* Imports a device profile the viewer queued (import_opts.defer_devices
 * left it in state "queued") into a part beside cache and merges it in
 * one commit; one that fails becomes state "failed" with its warning.
 * With *stop set meanwhile it gives up and stays queued. 0 on success,
 * 1 stopped, -1 failed (err_get() says why). */
int bundle_import_queued(const char *cache, const struct wqueued *q,
			 const struct import_opts *o, const int *stop);

#endif
