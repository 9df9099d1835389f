/* Finding profiles on disk for the Profile Manager and `nxtop list`:
 * by names, first bytes and JSON top-level keys only, never importing. */
#ifndef NX_IMPORT_SCAN_H
#define NX_IMPORT_SCAN_H

#include "model/proflist.h"

struct userdata;

/* Neuron Explorer's folder of processed profiles: with data_path (its
 * --data-path) "DATA_PATH/profiles/global", else
 * $XDG_DATA_HOME/neuron-profile/profiles/global
 * (~/.local/share/neuron-profile/profiles/global). Malloc'd. */
char *scan_data_path(const char *data_path);

/* What path is: 0 and *kind for a profile nxtop can open (a profile
 * file, a bundle folder, a Parquet profile folder), else -1. */
int scan_kind(const char *path, enum prof_kind *kind);

/* Adds the profiles directly inside folder dir (one level down). A
 * missing dir adds nothing when quiet_missing, else it is an error:
 * -1 with err_get() set. */
int scan_folder(const char *dir, int quiet_missing, struct proflist *pl);

/* Adds the profiles of the recent list (merged with the same path
 * already in pl); a source that is gone stays, marked missing. */
void scan_recent(struct userdata *u, struct proflist *pl);

#endif
