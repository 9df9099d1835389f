/* Read side of the cache: everything views and exports ask for. The only
 * code besides the writer that speaks SQL. */
#ifndef NX_MODEL_H
#define NX_MODEL_H

#include <stddef.h>
#include <stdint.h>

struct model;
struct sqlite3;
struct strbuf;
struct sqlite3_stmt;

struct mprofile {
	int64_t id, parent_id;
	char *kind, *format, *name, *path, *state;
	int64_t start, end;		/* ns on the profile's axis */
	/* the last ns of the axis: end, or past it where a row has an event
	 * there (a counter sampled after the end); a range reaching the
	 * whole of it is [.., last + 1), so that an instant at last is in */
	int64_t last;
	int64_t first;	/* the first ns of the axis: start, or before it */
	int epoch;			/* times are Unix-epoch ns */
	int64_t nc_idx;			/* -1: unknown */
	char *instance_id, *instance_type, *process_id, *model;
	int64_t n_events;
};

struct mtrack {
	int64_t id, profile_id, parent_id;
	char *kind, *name, *unit;
	int64_t sort_key;
	int64_t n_events, max_dur, max_depth, min_ts, max_ts, busy_ns;
	int lod_level;			/* -1: no level of detail */
	unsigned agg_fields;		/* complete fields in agg (model/agg.h) */
	int agg_level;			/* finest level of name aggregates */
	int is_counter;
};

struct mslice {
	int64_t id, track_id, ts, dur, name, cat;
	int depth;
	unsigned flags;
	int64_t parent;		/* enclosing slice one depth up, 0 at depth 0 */
};

/* One terminal column of a track. */
struct mcell {
	int64_t n;		/* events starting in the column */
	int64_t busy;		/* ns covered by at least one event */
	int64_t top_slice;	/* the event covering most of the column */
	int64_t top_name, top_cat;
	int64_t top_dur;	/* that event's duration, 0 from LOD rows */
	int64_t top_ts;
	int max_depth;
};

/* One terminal column of a counter track. */
struct mccell {
	int64_t n;		/* samples in the column */
	double vmin, vmax, vlast;
	int have;		/* a value holds in this column */
};

/* Sets SQLite up for nxtop; call once, before anything else uses it. */
void model_init(void);
/* The device profiles of the cache being imported while it is read
 * (model/devqueue.h), or NULL: the cache is whole. The model does not
 * own it. */
struct devqueue;
void model_set_devqueue(struct model *m, struct devqueue *q);
struct devqueue *model_devqueue(struct model *m);
/* Lets the next query see what was merged into the cache since. */
void model_refresh(struct model *m);

struct model *model_open(const char *path);
/* Another connection to m's cache, for another thread (a connection
 * serves one thread); damage already seen stays seen. */
struct model *model_open_more(const struct model *m);
void model_close(struct model *m);
/* The cache is nxtop's own (not one the user named): when a query finds
 * it damaged it is removed, to be rebuilt on the next open. */
void model_set_disposable(struct model *m);
/* 0, or -1 with err_get() set if a query met damage in the cache since
 * the last call (then answers may be wrong or missing): call before
 * trusting what was computed. Cheap unless there was damage. */
int model_check(struct model *m);
struct sqlite3 *model_db(struct model *m);
/* For model/ queries: a slice from a row whose first columns are id,
 * track_id, ts, dur, name, cat, depth, flags and parent (0 for none). */
void model_slice_read(struct sqlite3_stmt *st, struct mslice *s);
const char *model_path(const struct model *m);

/* Interned string by id; "" for 0 or unknown. Valid until model_close. */
const char *model_string(struct model *m, int64_t id);
/* Ids of strings equal to s (several if interning was capped). */
int model_string_ids(struct model *m, const char *s, int64_t **ids, size_t *n);

int model_profiles(struct model *m, struct mprofile **out, size_t *n);
void model_profiles_free(struct mprofile *p, size_t n);
int model_profile(struct model *m, int64_t id, struct mprofile *out);
/* Where a range [t0, t1) of profile p ends as it is shown and
 * measured: t1, or p's last ns where t1 is past it (the ns after last
 * holds nothing: see struct mprofile). */
static inline int64_t range_end(const struct mprofile *p, int64_t t1)
{
	return t1 > p->last ? p->last : t1;
}
/* The same for the profile of that id. */
int64_t model_range_end(struct model *m, int64_t profile, int64_t t1);
void model_profile_clear(struct mprofile *p);

/* A file the cache was built from, or waits for: its path as the import
 * found it (links resolved), its role ("profile", "system", "device",
 * "table", "folder") and whether it was missing (a device profile the
 * bundle lists that is not there). */
struct msource {
	char *path, *role;
	int missing;
};

/* The sources of every profile in the cache. */
int model_sources(struct model *m, struct msource **out, size_t *n);
/* Adds a source to a list of them (an import's plan, import_plan). */
void model_sources_add(struct msource **v, size_t *n, const char *path,
		       const char *role);
void model_sources_free(struct msource *v, size_t n);

/* While stop (NULL: none) returns nonzero, the statement running on the
 * model fails (SQLITE_INTERRUPT): a long search stopped by a key. */
void model_set_stop(struct model *m, int (*stop)(void *), void *ctx);

/* Tracks of a profile in display order (groups before their children). */
int model_tracks(struct model *m, int64_t profile, struct mtrack **out,
		 size_t *n);
void model_tracks_free(struct mtrack *t, size_t n);
/* Whether tok names track i of t (model_tracks' list, or several such
 * lists one after the other): its name, or its group's name, '/' and its
 * name, which picks one of the rows sharing a name (DMA
 * transfers/qSyncIO0); case is ignored. */
int model_track_named(const struct mtrack *t, size_t n, size_t i,
		      const char *tok);
/* Appends the name model_track_named reads as track i alone where it
 * can: GROUP/NAME when another track of its profile has its name. */
void model_track_label(const struct mtrack *t, size_t n, size_t i,
		       struct strbuf *out);

/* Fills ncols cells for [t0, t0 + ncols * colw). Reads level-of-detail
 * rows when a column is wider than the track's finest level, else the
 * events themselves. */
int model_frame(struct model *m, const struct mtrack *t, int64_t t0,
		int64_t colw, int ncols, struct mcell *out);
/* The same, always from the events (exact, for short ranges). */
int model_frame_events(struct model *m, const struct mtrack *t, int64_t t0,
		       int64_t colw, int ncols, struct mcell *out);
/* The cells of one lane of a nested track: its events at depths d0..d1
 * (a track's last lane takes every deeper one). Where the lane would
 * hold more than LANE_EVENTS_PER_COL events a column, it reads the
 * per-depth level-of-detail rows of depths d0..d1 (busy time of depth
 * d0, counts and top events of all), or where a column is narrower than
 * the finest level, per run of columns the depth-d0 event there, read
 * by index; so a frame costs O(columns) whatever the event count. */
#define LANE_EVENTS_PER_COL 8
int model_lane_frame(struct model *m, const struct mtrack *t, int d0, int d1,
		     int64_t t0, int64_t colw, int ncols, struct mcell *out);
int model_counter_frame(struct model *m, const struct mtrack *t, int64_t t0,
			int64_t colw, int ncols, struct mccell *out);
/* Largest and smallest sample of a counter track. */
int model_counter_range(struct model *m, int64_t track, double *vmin,
			double *vmax);

int model_slice(struct model *m, int64_t id, struct mslice *out);
/* The deepest slice covering ts on the track; 0 found, 1 none. */
int model_slice_at(struct model *m, const struct mtrack *t, int64_t ts,
		   struct mslice *out);
/* The first slice starting after ts (dir > 0) or before ts (dir < 0). */
int model_slice_step(struct model *m, int64_t track, int64_t ts, int dir,
		     struct mslice *out);

/* The start or end of an event of the track nearest to ts, at most
 * maxdist ns away; 0 found (*edge set), 1 none. */
int model_edge_near(struct model *m, const struct mtrack *t, int64_t ts,
		    int64_t maxdist, int64_t *edge);

/* A field's unit and description, from a Parquet profile's
 * SchemaFields; either may be NULL. */
struct mfield_doc {
	const char *unit, *description;
};

/* Every field of a slice, grouped; fn is called once per field in
 * display order, with its doc or NULL. Values are plain text, not yet
 * sanitised; times in ASCII units ("us") when ascii is set. */
typedef void (*mfield_fn)(void *ctx, const char *group, const char *key,
			  const char *value, const struct mfield_doc *doc);
int model_slice_fields(struct model *m, int64_t id, int ascii, mfield_fn fn,
		       void *ctx);

/* Runs a query and reports the first SQLite error through err_set(). */
int model_fail(struct model *m, const char *what);

#endif
