/* A folder of Parquet tables as Neuron Explorer writes it: one file per
 * table, NAME.parquet, or a large table split into NAME_0.parquet,
 * NAME_1.parquet, ... (FORMATS.md §1.5a). DmaPacket_0.parquet is a part
 * of DmaPacket; DmaPacketAggregated.parquet is a table of its own. The
 * device importer and a system importer share this discovery. */
#ifndef NX_PQ_FOLDER_H
#define NX_PQ_FOLDER_H

#include <stddef.h>
#include <stdint.h>

struct import;
struct writer;

struct cache_stamp;

struct pqtable {
	char *name;		/* "DmaPacket" */
	char **files;		/* paths of its parts, in part order */
	size_t nfiles;
	struct cache_stamp *stamps;	/* each part's, by pqfolder_sources */
};

struct pqfolder {
	char *dir;
	struct pqtable *tables;	/* sorted by name */
	size_t n;
	struct pqtable skipped;	/* files named as tables but not read */
};

/* Lists the tables of dir: regular files only; a link, folder or FIFO
 * named as a table goes to skipped. 0 on success; -1 with err_get()
 * set. */
int pqfolder_scan(const char *dir, struct pqfolder *out);
/* The table of that name, or NULL. */
const struct pqtable *pqfolder_find(const struct pqfolder *f,
				    const char *name);
void pqfolder_free(struct pqfolder *f);

/* 1 if a file of that name is a table file (NAME.parquet,
 * NAME_<N>.parquet): one a Parquet profile folder's import reads. */
int pqfolder_takes_name(const char *name);

/* A part of table that was skipped fails im saying why (-1); else 0. */
int pqfolder_check_needed(const struct pqfolder *f, struct import *im,
			  const char *table);
/* Each skipped file as an import warning of im's profile. */
void pqfolder_warn_skipped(const struct pqfolder *f, struct import *im);

/* 1 if dir holds an Instruction table (a file of that name, read or
 * skipped): a device profile folder. */
int pqfolder_is_device(const char *dir);
/* 1 if dir holds a SystemProfileEvents table (the same): a system
 * profile folder. */
int pqfolder_is_system(const char *dir);
/* The one system profile folder among dir's subfolders (Neuron
 * Explorer's profiles/global/): 0 and *sys (malloc'd) when there is
 * exactly one; 1 when there is none; -1 with err_get() set when there
 * are several. */
int pqfolder_find_system(const char *dir, char **sys);

/* The device profile names (device_profile_name) the DeviceProfileList
 * of the system folder sys lists, read before its import plans it
 * (import_plan): none where it cannot be read. *names is malloc'd, as
 * each name; free them with pqfolder_names_free. */
void pqfolder_listed_devices(const char *sys, char ***names, size_t *n);
void pqfolder_names_free(char **names, size_t n);

/* Every table file binds the profile's cache: a change to any makes it
 * stale. Their stamps are kept for pqfolder_changed. */
void pqfolder_sources(struct pqfolder *f, struct writer *w, int64_t profile);
/* A table file that changed since pqfolder_sources (rewritten in place
 * while it was read: the rows may mix both) fails im (-1); else 0. */
int pqfolder_changed(const struct pqfolder *f, struct import *im);

/* The file name of a path, for messages. */
const char *pqfolder_base(const char *path);

#endif
