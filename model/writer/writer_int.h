/* Writer internals shared by writer.c and the finishing passes. */
#ifndef NX_WRITER_INT_H
#define NX_WRITER_INT_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "model/writer/writer.h"

/* The slices open at one point of a row: their ends and ids. */
struct open_slice {
	int64_t end, id;
};

struct nest_stack {
	struct open_slice *s;
	size_t n, cap;
};

/* A slice on its way to the writing thread. */
struct wpending {
	int64_t id, track, ts, dur, name, cat;
	int depth;
	unsigned flags;
	int sized;	/* a DMA slice: size is its transfer size */
	int64_t size;
};

/* A row's events of one kind and value (schema.h, track_stat). */
struct wstat {
	int kind;
	int64_t value, n, total;
};

/* Typed tables, as bits of struct wtrack's typed. */
enum { WT_INSTR = 1, WT_PACKET = 2, WT_XFER = 4, WT_ALL = 7 };

struct wtrack {
	int64_t profile;
	int64_t name_sid;	/* its name's string id if interned before it */
	int64_t n;		/* slices or counter samples */
	int64_t max_dur;
	int64_t min_ts, max_end;
	unsigned flags;
	int is_counter;
	unsigned typed;		/* WT_* of the typed tables holding rows of its
				 * slices: their fields are aggregated */
	int max_depth;
	int max_given;		/* of the depths the importer gave */
	int late;		/* nests by time, but the window could not order it */
	struct nest_stack open;	/* slices placed from the window so far */
	struct wpending last;	/* the last of them; id 0 before the first */
	uint64_t names;		/* one bit per name hash: how varied names are */
	/* runs of one name in the order the slices came, the last name:
	 * in start order, a bucket holds a name per run that reaches it */
	int64_t name_runs, last_name;
	/* rows whose importer gives depths as a stack (writer.c): nested
	 * slices wait here, innermost last, until their parent comes */
	struct wpending *held;
	size_t nheld, capheld;
	int parents_pass;	/* left to the parents pass (parents.c) */
	int64_t dur_sum;	/* of its slices */
	struct wstat *stats;	/* its typed events by kind and value */
	size_t nstats, capstats, stat_hit;
};

/* Counts an event of kind (STAT_*) and value, total its duration or
 * bytes, on t; -1 when t holds too many values to keep (stats.c). */
int stat_add(struct wtrack *t, int kind, int64_t value, int64_t total);
/* Writes the track_stat rows of tracks; lost: the typed kinds are
 * counted from the tables instead, for slices (base, last_slice]. */
int stats_write(sqlite3 *db, const struct wtrack *tracks, int64_t base,
		int64_t ntracks, int64_t last_slice, int lost);

/* Copies the rows of every table of the cache attached as "part" into
 * main's (merge.c). */
int writer_merge_tables(sqlite3 *db);

/* Slices whose depths and parents come from time containment. */
static inline int nests_by_time(const struct wtrack *t)
{
	return (t->flags & TF_NEST_BY_TIME) && !t->is_counter;
}

/* Depth of a slice from ts to end placed after those on st (which come
 * by start, the longer first); *parent is the enclosing slice's id, or 0
 * (window.c). */
int nest_place(struct nest_stack *st, int64_t id, int64_t ts, int64_t end,
	       int64_t *parent);

/* Slices of rows that nest by time, waiting to be placed in start order
 * (window.c). */
#define WINDOW_MAX (1 << 14)

struct window {
	struct wpending *heap;
	size_t n, cap;
};

/* a leaves before b: earlier start, then longer, then written first */
int window_before(const struct wpending *a, const struct wpending *b);
void window_push(struct window *win, const struct wpending *p);
/* The first slice out, in *out: 1, or 0 when the window is empty. */
int window_pop(struct window *win, struct wpending *out);

/* Depths and parents of the slices of TF_NEST_BY_TIME tracks that the
 * window could not order: too far out of order, or set to nest after
 * their first slices. */
int finish_depths(sqlite3 *db, struct wtrack *tracks, int64_t base,
		  int64_t ntracks);
/* Parent ids of nested slices of the other tracks, whose depths the
 * importer gave, where they were not found as the slices came
 * (parents.c). */
int finish_parents(sqlite3 *db, const struct wtrack *tracks, int64_t base,
		   int64_t ntracks);
/* The HLO names of instruction slices, kept as they are written so that
 * the level-of-detail pass reads them without a join to the instruction
 * table (a seek per slice): v[slice id - base - 1] is the string id -
 * base, 0 for none. Past max slices (SLICE_HLO_MAX: memory stays
 * bounded) it is dropped and the pass joins. */
#define SLICE_HLO_MAX ((size_t)1 << 24)

struct slice_hlo {
	uint32_t *v;
	size_t n, cap;
	size_t max;		/* 0 until the first slice: slice_hlo_max() */
	int dropped;
};

/* SLICE_HLO_MAX, or the lower cap NXTOP_TEST_HLO_CAP gives, so that the
 * tests run the pass that joins (tests/hlocap.sh). */
size_t slice_hlo_max(void);

/* Finishing passes (finish.c): nesting depth, busy time and
 * level-of-detail rows for every track, read from db and written
 * through q, whose statements are finish_write_sql[]. hlo: NULL to read
 * the HLO names from the instruction table. */
enum { FQ_TRACK, FQ_LOD, FQ_CLOD, FQ_LANE, FQ_AGG, FQ_N };
extern const char *const finish_write_sql[FQ_N];
struct wqueue;
int finish_tracks(sqlite3 *db, struct wqueue *q, const struct wtrack *tracks,
		  int64_t base, int64_t ntracks, const struct slice_hlo *hlo,
		  void (*progress)(void *, const char *, int), void *ctx);

/* The table of pending dependencies (deps.c), made with the cache, and
 * their flows once every slice and typed row is written; kinds has bit
 * WD_KIND(k) set for each enum wdep_kind k of the links pending. */
#define WD_KIND(k) (1u << (k))
int deps_create(sqlite3 *db);
int deps_resolve(sqlite3 *db, unsigned kinds);

#endif
