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
};

int db_exec(sqlite3 *db, const char *sql);
/* Sets the error text from the database's last error; returns -1. */
int db_fail(sqlite3 *db, const char *what);
/* The text db_fail() sets (a full disk names the cache). */
void db_describe(sqlite3 *db, const char *what, char *buf, size_t n);

/* Depths of TF_NEST_BY_TIME tracks, before the indexes are built. */
int lod_nest_depths(sqlite3 *db, struct wtrack *tracks, int64_t base,
		    int64_t ntracks);
/* Finishing passes (lod.c): nesting depth, busy time and level-of-detail
 * rows for every track. */
int lod_build_tracks(sqlite3 *db, const struct wtrack *tracks, int64_t base,
		     int64_t ntracks,
		     void (*progress)(void *, const char *, int), void *ctx);

#endif
