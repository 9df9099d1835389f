/* Per-value aggregates of a track's events per time bucket: how many
 * events of each name (and layer, HLO, transfer size) start in each
 * bucket, their total, shortest and longest duration. Searches for a
 * name and summaries of a selection read these instead of every event.
 *
 * Names are kept from the track's second LOD level up; the other fields
 * only from the level with at most AGG_MAX_BUCKETS buckets over the
 * track, which is all a selection summary needs (its two edge buckets are
 * read from the events). */
#ifndef NX_AGG_H
#define NX_AGG_H

#include <sqlite3.h>
#include <stdint.h>

enum agg_field {
	AGG_NAME,	/* slice.name */
	AGG_CAT,	/* slice.cat: layer, DMA queue type, trace category */
	AGG_HLO,	/* instruction.hlo_name */
	AGG_SIZE,	/* DMA transfer_size (bytes, not a string id) */
	AGG_NFIELDS
};

#define AGG_MAX_BUCKETS 1024
/* A field with more distinct values in one bucket is dropped for that
 * track (its bit is cleared in track.agg_fields). */
#define AGG_MAX_VALUES 2048

struct agg_builder;

/* ins: INSERT INTO agg(track_id, field, level, bucket, value, n, dur,
 * dmin, dmax) VALUES(?,?,?,?,?,?,?,?,?) */
struct agg_builder *agg_new(sqlite3 *db, sqlite3_stmt *ins);
void agg_free(struct agg_builder *a);

/* Levels: names from name_level, other fields from field_level, both up
 * to lmax. */
void agg_begin(struct agg_builder *a, int64_t track, int name_level,
	       int field_level, int lmax);
/* One event, in start order. has[f] says whether vals[f] is present. */
void agg_add(struct agg_builder *a, int64_t ts, int64_t dur,
	     const int64_t *vals, const int *has);
/* Flushes the track; *fields gets the bitmask of complete fields.
 * 0 on success. */
int agg_end(struct agg_builder *a, unsigned *fields);

/* The level a track's field aggregates start at, from its span. */
int agg_field_level(int64_t span, int name_level);

#endif
