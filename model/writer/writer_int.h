/* Writer internals shared by writer.c and the finishing passes. */
#ifndef NX_WRITER_INT_H
#define NX_WRITER_INT_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "model/writer/writer.h"

struct wtrack {
	int64_t profile;
	int64_t n;		/* slices or counter samples */
	int64_t max_dur;
	int64_t min_ts, max_end;
	unsigned flags;
	int is_counter;
	int typed;		/* instruction or DMA rows: aggregate their fields */
	int max_depth;
	uint64_t names;		/* one bit per name hash: how varied names are */
	/* parents found as the slices come (writer.c): nested slices wait
	 * here, innermost last, until their parent comes */
	struct wheld *held;
	size_t nheld, capheld;
	int parents_pass;	/* left to the parents pass (parents.c) */
	int stream_parents;	/* some parents were written as they came */
};

/* A slice waiting for its parent. */
struct wheld {
	int64_t id, ts, dur, name, cat;
	int depth;
	unsigned flags;
};

/* Depths of TF_NEST_BY_TIME tracks, before the indexes are built. */
int finish_depths(sqlite3 *db, struct wtrack *tracks, int64_t base,
		  int64_t ntracks);
/* Parent ids of the nested slices of tracks whose parents were not
 * found as their slices came (parents_pass, or nested by time), once
 * the depths are final (parents.c). */
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
