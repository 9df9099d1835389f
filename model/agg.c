#include "config.h"

#include "model/agg.h"

#include <stdlib.h>
#include <string.h>

#include "model/hmap.h"
#include "model/lod.h"
#include "model/cache/schema.h"
#include "model/util.h"

/* Rows held before they are written: a track's rows go in key order,
 * each at the end of the table, unless there are more than this many
 * (3 MB) and they are written in several runs, each run of a field and
 * level at the end of its rows so far. More held would not make the
 * table smaller, but the writing thread would wait while they are
 * gathered and the finishing pass while they are written. */
#define AGG_HOLD (1u << 16)

struct entry {
	int64_t value, n, dur, dmin, dmax;
};

/* Finished buckets of one field at one level, in key order. */
struct hrow {
	int64_t bucket;
	struct entry e;
};

struct held {
	struct hrow *v;
	size_t n, cap;
};

/* The open bucket of one field at one level: value -> totals. */
struct bucket {
	int64_t id;
	int open;
	struct entry *v;	/* in the order values came */
	size_t cap, count;
	struct u64map at;	/* value -> index in v + 1 */
};

struct agg_builder {
	struct agg_sink sink;
	int64_t track;
	int lo[AGG_NFIELDS], hi[AGG_NFIELDS];
	int dur_named;		/* AGG_DUR values hold names */
	unsigned ok;		/* fields still complete */
	struct bucket b[AGG_NFIELDS][LOD_MAX_LEVEL + 1];
	struct held held[AGG_NFIELDS][LOD_MAX_LEVEL + 1];
	size_t nheld;
};

struct agg_builder *agg_new(const struct agg_sink *sink)
{
	struct agg_builder *a = xcalloc(1, sizeof(*a));

	a->sink = *sink;
	return a;
}

void agg_free(struct agg_builder *a)
{
	if (!a)
		return;
	for (int f = 0; f < AGG_NFIELDS; f++) {
		for (int l = 0; l <= LOD_MAX_LEVEL; l++) {
			free(a->b[f][l].v);
			free(a->held[f][l].v);
			u64map_free(&a->b[f][l].at, NULL);
		}
	}
	free(a);
}

int64_t agg_dur_value(int64_t name, int64_t dur)
{
	int bits, bin;

	if (dur < 32) {
		bin = dur < 0 ? 0 : (int)dur;
	} else {
		bits = 64 - __builtin_clzll((unsigned long long)dur);
		bin = bits << 5 | (int)((dur >> (bits - 6)) & 31);
	}
	return (int64_t)((uint64_t)name << AGG_DUR_SHIFT) | bin;
}

/* Events a bucket holds at least on average; tests may ask for fewer
 * (NXTOP_TEST_AGG_PER_BUCKET), to build the buckets of a large profile
 * from a small one. */
static int64_t per_bucket(void)
{
	const char *v = getenv("NXTOP_TEST_AGG_PER_BUCKET");
	char *end;
	long long n;

	if (!v || !*v)
		return AGG_MIN_PER_BUCKET;
	n = strtoll(v, &end, 10);
	return *end || n < 1 || n > AGG_MIN_PER_BUCKET ? AGG_MIN_PER_BUCKET : n;
}

/* The finest level with at most AGG_MAX_BUCKETS buckets that hold
 * AGG_MIN_PER_BUCKET events each on average. */
static int span_level(int64_t span, int64_t n)
{
	int64_t buckets = NX_MAX(NX_MIN(n / per_bucket(), AGG_MAX_BUCKETS), 1);

	return lod_level_for(span / buckets + 1);
}

void agg_num_levels(enum agg_field f, int64_t span, int64_t n, int name_level,
		    int lmax, int *lo, int *hi, int *named)
{
	int sl = NX_MIN(span_level(span, n), lmax);

	*named = f == AGG_DUR && name_level <= sl;
	*lo = *named ? name_level : sl;
	*hi = *named ? sl : lmax;
}

int agg_field_level(int64_t span, int64_t n, int name_level)
{
	int l = span_level(span, n);

	return l > name_level ? l : name_level;
}

int agg_range_level(int lo, int hi, int64_t min_ts, int64_t max_ts,
		    int64_t t0, int64_t t1, int64_t *b0, int64_t *b1)
{
	/* unsigned: a hostile profile's times span all of int64 */
	uint64_t len = t1 > t0 ? (uint64_t)t1 - (uint64_t)t0 : 0;
	int level = lo;

	while (level < hi && (uint64_t)lod_width(level + 1) <= len / 16)
		level++;
	lod_whole_buckets(level, min_ts, max_ts, t0, t1, b0, b1);
	return level;
}

void agg_begin(struct agg_builder *a, int64_t track, int name_level,
	       int64_t span, int64_t n, int lmax)
{
	int field_level = agg_field_level(span, n, name_level), named;

	a->track = track;
	a->ok = (1u << AGG_NFIELDS) - 1;
	a->nheld = 0;
	for (int f = 0; f < AGG_NFIELDS; f++) {
		a->lo[f] = f == AGG_NAME ? name_level : field_level;
		a->hi[f] = lmax;
		if (f == AGG_DUR || f == AGG_SIZE)
			agg_num_levels(f, span, n, name_level, lmax, &a->lo[f],
				       &a->hi[f], f == AGG_DUR ? &a->dur_named :
				       &named);
		for (int l = 0; l <= LOD_MAX_LEVEL; l++) {
			a->b[f][l].open = 0;
			a->held[f][l].n = 0;
		}
	}
}

/* 0, or -1 when the bucket already holds AGG_MAX_VALUES values. */
static int bucket_add(struct bucket *b, const struct entry *e)
{
	void *at = u64map_get(&b->at, (uint64_t)e->value);
	struct entry *x;

	if (at) {
		x = &b->v[(uintptr_t)at - 1];
		x->n += e->n;
		x->dur = sat_add(x->dur, e->dur);
		x->dmin = NX_MIN(x->dmin, e->dmin);
		x->dmax = NX_MAX(x->dmax, e->dmax);
		return 0;
	}
	if (b->count >= AGG_MAX_VALUES)
		return -1;
	b->v = xgrow(b->v, &b->cap, b->count + 1, sizeof(*b->v));
	b->v[b->count++] = *e;
	u64map_put(&b->at, (uint64_t)e->value, (void *)(uintptr_t)b->count);
	return 0;
}

static void bucket_clear(struct bucket *b)
{
	for (size_t k = 0; k < b->count; k++)
		u64map_del(&b->at, (uint64_t)b->v[k].value);
	b->count = 0;
}

static void write_row(struct agg_builder *a, int f, int level,
		      const struct hrow *h)
{
	const int64_t row[AGG_COLS] = { a->track, f, level, h->bucket,
					h->e.value, h->e.n, h->e.dur,
					h->e.dmin, h->e.dmax };

	a->sink.put(a->sink.ctx, row);
}

/* Writes the held rows in key order; a dropped field's are left out. */
static void write_held(struct agg_builder *a)
{
	for (int f = 0; f < AGG_NFIELDS; f++) {
		for (int l = 0; l <= LOD_MAX_LEVEL; l++) {
			struct held *h = &a->held[f][l];

			for (size_t k = 0; k < h->n && (a->ok & (1u << f)); k++)
				write_row(a, f, l, &h->v[k]);
			h->n = 0;
		}
	}
	a->nheld = 0;
}

static int by_value(const void *x, const void *y)
{
	const struct entry *a = x, *b = y;

	return (a->value > b->value) - (a->value < b->value);
}

/* Keeps a finished bucket's rows, by value, until they are written. */
static void hold_rows(struct agg_builder *a, int f, int level,
		      struct bucket *b)
{
	struct held *h = &a->held[f][level];

	if (b->count > 1)
		qsort(b->v, b->count, sizeof(*b->v), by_value);
	h->v = xgrow(h->v, &h->cap, h->n + b->count, sizeof(*h->v));
	for (size_t k = 0; k < b->count; k++)
		h->v[h->n++] = (struct hrow){ b->id, b->v[k] };
	a->nheld += b->count;
	if (a->nheld >= AGG_HOLD)
		write_held(a);
}

static void add_at(struct agg_builder *a, int f, int level, int64_t bucket,
		   const struct entry *e);

/* Whether a finished bucket of a field's first level tells less than its
 * events: hlo_name values that change from one instruction to the next
 * make about a row per event, which cost more to write than reading the
 * events costs later. */
static int no_gain(const struct agg_builder *a, int f, int level,
		   const struct bucket *b)
{
	int64_t events = 0;

	if (f != AGG_HLO || level != a->lo[f] || b->count < AGG_GAIN_MIN)
		return 0;
	for (size_t k = 0; k < b->count; k++)
		events += b->v[k].n;
	return (int64_t)b->count * 2 > events;
}

/* Keeps a finished bucket and folds it into the next level. */
static void flush(struct agg_builder *a, int f, int level)
{
	struct bucket *b = &a->b[f][level];

	if (!b->open)
		return;
	if (no_gain(a, f, level, b)) {
		a->ok &= ~(1u << f);
		bucket_clear(b);
		b->open = 0;
		return;
	}
	hold_rows(a, f, level, b);
	if (level < a->hi[f]) {
		int64_t up = lod_floor_shift(b->id, 2);

		for (size_t k = 0; k < b->count; k++)
			add_at(a, f, level + 1, up, &b->v[k]);
	}
	bucket_clear(b);
	b->open = 0;
}

static void add_at(struct agg_builder *a, int f, int level, int64_t bucket,
		   const struct entry *e)
{
	struct bucket *b = &a->b[f][level];

	if (!(a->ok & (1u << f)))
		return;
	if (b->open && b->id != bucket)
		flush(a, f, level);
	if (!b->open) {
		b->open = 1;
		b->id = bucket;
	}
	if (bucket_add(b, e))
		a->ok &= ~(1u << f);
}

void agg_add(struct agg_builder *a, int64_t ts, int64_t dur,
	     const int64_t *vals, const int *has)
{
	for (int f = 0; f < AGG_NFIELDS; f++) {
		struct entry e = { 0, 1, dur, dur, dur };

		if (f == AGG_DUR)
			e.value = agg_dur_value(a->dur_named ? vals[AGG_NAME] : 0, dur);
		else if (has[f])
			e.value = vals[f];
		else
			continue;
		if (a->lo[f] > a->hi[f])
			continue;
		add_at(a, f, a->lo[f], lod_floor_shift(ts, 2 * a->lo[f]), &e);
	}
}

void agg_end(struct agg_builder *a, unsigned *fields)
{
	for (int f = 0; f < AGG_NFIELDS; f++) {
		for (int l = a->lo[f]; l <= a->hi[f]; l++) {
			if (a->ok & (1u << f))
				flush(a, f, l);
			else
				bucket_clear(&a->b[f][l]), a->b[f][l].open = 0;
		}
	}
	write_held(a);
	for (int f = 0; f < AGG_NFIELDS; f++) {
		/* rows of earlier runs */
		if (!(a->ok & (1u << f)))
			a->sink.drop(a->sink.ctx, a->track, f);
	}
	*fields = a->ok;
}
