/* Per-value aggregates of a track's events per time bucket: how many
 * events of each name (and layer, HLO, transfer size) start in each
 * bucket, their total, shortest and longest duration. Searches for a
 * name and summaries of a selection read these instead of every event.
 *
 * Names are kept from the track's second LOD level up; names by
 * duration bin from there up to the level with at most AGG_MAX_BUCKETS
 * buckets over the track; the other fields only from that level up, which is all a selection summary needs (its two edge buckets are
 * read from the events). */
#ifndef NX_AGG_H
#define NX_AGG_H

#include <stdint.h>

enum agg_field {
	AGG_NAME,	/* slice.name */
	AGG_CAT,	/* slice.cat: layer, DMA queue type, trace category */
	AGG_HLO,	/* instruction.hlo_name */
	AGG_SIZE,	/* DMA transfer_size (bytes, not a string id) */
	AGG_DUR,	/* name and duration bin (AGG_DUR_SHIFT) */
	AGG_NFIELDS
};

#define AGG_MAX_BUCKETS 1024
/* ... and hold this many events each on average: a sparser track's
 * buckets would hold about a row per event, which costs more to write
 * than its events cost to read. */
#define AGG_MIN_PER_BUCKET 128

/* Durations are binned by power of two, each octave in 32 bins: a bin
 * is the duration itself below 32 ns, else its bit length and its 5 bits
 * below the top one. A value of the AGG_DUR field is name <<
 * AGG_DUR_SHIFT | bin (name 0 on tracks whose names are too varied);
 * with the bin's count, shortest and longest duration, a comparison
 * counts whole bins and reads the events of the few buckets whose bin
 * straddles its bound. */
#define AGG_DUR_SHIFT 11

/* The AGG_DUR value of an event: name << AGG_DUR_SHIFT | its bin. */
int64_t agg_dur_value(int64_t name, int64_t dur);

/* The levels [*lo, *hi] of the AGG_DUR or AGG_SIZE rows of a track of n
 * events over span ns, and whether its AGG_DUR values hold names:
 * durations by name from the name level up to the level with at most
 * AGG_MAX_BUCKETS buckets of at least AGG_MIN_PER_BUCKET events, or,
 * when names start coarser, durations alone and sizes from that level
 * up. */
void agg_num_levels(enum agg_field f, int64_t span, int64_t n, int name_level,
		    int lmax, int *lo, int *hi, int *named);
/* A field with more distinct values in one bucket is dropped for that
 * track (its bit is cleared in track.agg_fields). */
#define AGG_MAX_VALUES 2048
/* So is AGG_HLO when a bucket of its first level holding at least this
 * many values holds more than half as many values as events. */
#define AGG_GAIN_MIN 64

struct agg_builder;

/* Where a builder's rows go: put() gets one row of the agg table,
 * row[AGG_COLS] = track_id, field, level, bucket, value, n, dur, dmin,
 * dmax, each track's in key order when they fit in memory; drop()
 * removes the rows of a field of a track put so far. */
#define AGG_COLS 9
struct agg_sink {
	void (*put)(void *ctx, const int64_t *row);
	void (*drop)(void *ctx, int64_t track, int field);
	void *ctx;
};

struct agg_builder *agg_new(const struct agg_sink *sink);
void agg_free(struct agg_builder *a);

/* Levels: names from name_level, durations and sizes as
 * agg_num_levels says, other fields from agg_field_level, all up to lmax;
 * span is the track's, in ns, n its events. */
void agg_begin(struct agg_builder *a, int64_t track, int name_level,
	       int64_t span, int64_t n, int lmax);
/* One event, in start order. has[f] says whether vals[f] is present;
 * AGG_DUR's value comes from the name and dur. */
void agg_add(struct agg_builder *a, int64_t ts, int64_t dur,
	     const int64_t *vals, const int *has);
/* Flushes the track; *fields gets the bitmask of complete fields. */
void agg_end(struct agg_builder *a, unsigned *fields);

/* The level a track's field aggregates start at, from its span and
 * event count. */
int agg_field_level(int64_t span, int64_t n, int name_level);

/* The level of [lo, hi] to read a range [t0, t1) of a track whose
 * events start in [min_ts, max_ts] at: the coarsest whose buckets are
 * at most a 16th of the range, so that few rows are read; [*b0, *b1) its
 * buckets whole inside the range (lod_whole_buckets). */
int agg_range_level(int lo, int hi, int64_t min_ts, int64_t max_ts,
		    int64_t t0, int64_t t1, int64_t *b0, int64_t *b1);

#endif
