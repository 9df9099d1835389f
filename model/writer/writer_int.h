/* Writer internals shared by writer.c and the finishing passes. */
#ifndef NX_WRITER_INT_H
#define NX_WRITER_INT_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "model/writer/writer.h"

/* Typed tables, as bits of struct wtrack's typed. */
enum { WT_INSTR = 1, WT_PACKET = 2, WT_XFER = 4, WT_ALL = 7 };

struct wtrack {
	int64_t profile;
	int64_t n;		/* slices or counter samples */
	int64_t max_dur;
	int64_t min_ts, max_end;
	unsigned flags;
	int is_counter;
	unsigned typed;		/* WT_* of the typed tables holding rows of its
				 * slices: their fields are aggregated */
	int max_depth;
	uint64_t names;		/* one bit per name hash: how varied names are */
};

/* Depths of TF_NEST_BY_TIME tracks, before the indexes are built. */
int finish_depths(sqlite3 *db, struct wtrack *tracks, int64_t base,
		  int64_t ntracks);
/* Parent ids of nested slices, once the depths are final (parents.c). */
int finish_parents(sqlite3 *db, const struct wtrack *tracks, int64_t base,
		   int64_t ntracks);
/* Finishing passes (finish.c): nesting depth, busy time and
 * level-of-detail rows for every track. */
int finish_tracks(sqlite3 *db, const struct wtrack *tracks, int64_t base,
		  int64_t ntracks,
		  void (*progress)(void *, const char *, int), void *ctx);

/* The table of pending dependencies (deps.c), made with the cache, and
 * their flows once every slice and typed row is written. */
int deps_create(sqlite3 *db);
int deps_resolve(sqlite3 *db);

#endif
