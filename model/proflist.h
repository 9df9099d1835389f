/* The profiles the Profile Manager lists: those found in a folder
 * (Neuron Explorer's data path, or a folder of profiles the user named)
 * and those nxtop opened recently. Plain data: finding them on disk is
 * src/import/scan.h's work, drawing them tui/manager_view.c's. */
#ifndef NX_PROFLIST_H
#define NX_PROFLIST_H

#include <stddef.h>
#include <stdint.h>

struct userdata;

enum prof_kind {
	PK_DEVICE,		/* device profile JSON */
	PK_SYSTEM,		/* system profile JSON */
	PK_BUNDLE,		/* folder: a system profile and its devices */
	PK_TRACE,		/* Perfetto or Chrome trace */
	PK_PQ_DEVICE,		/* folder of Parquet tables: Instruction... */
	PK_PQ_SYSTEM,		/* folder of Parquet tables: SystemProfile... */
	PK_JAX,			/* JAX log folder, or one of its runs */
	PK_COUNT
};

enum prof_state {
	PS_IMPORT,		/* opening it imports it first */
	PS_READY,		/* its cache is ready */
	PS_MISSING,		/* recent, but the source is gone */
};

struct prof_entry {
	char *name;		/* the file or folder name: untrusted */
	char *path;		/* absolute */
	enum prof_kind kind;
	int64_t size;		/* bytes of the file, or the folder's files */
	int64_t when;		/* Unix ns: modified, or opened if later */
	enum prof_state state;
	int recent;		/* in the recent list */
};

struct proflist {
	struct prof_entry *v;
	size_t n;
};

/* "device", "system", "bundle", "trace", "parquet device", "parquet
 * system", "jax". */
const char *prof_kind_name(enum prof_kind k);
/* -1 for an unknown name. */
int prof_kind_parse(const char *s, enum prof_kind *k);
const char *prof_state_name(enum prof_state s);

/* A new entry (copies name and path), or the one already there for
 * path. */
struct prof_entry *proflist_add(struct proflist *pl, const char *name,
				const char *path, enum prof_kind kind);
/* Newest first; equal times by name. */
void proflist_sort(struct proflist *pl);
void proflist_free(struct proflist *pl);

/* "812 B", "12.4 KiB", "3.1 GiB". */
const char *prof_size_text(char *buf, size_t n, int64_t bytes);
/* Local time, "2026-11-25 06:18". */
const char *prof_when_text(char *buf, size_t n, int64_t when);

#endif
