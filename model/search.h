/* Running a search query (model/query.h) over a profile: matches per
 * terminal column for highlighting, a density strip for the whole
 * profile, counts for a time range, stepping from match to match, and
 * the list of matches. Name-only queries are answered from the per-name
 * aggregates when the columns are wide, engine and row terms and dur or
 * size comparisons beside them from the duration and size aggregates
 * (model/agg.h; whole DMA rows for queue_type terms), reading only the
 * events of buckets the aggregates cannot tell; everything else from the
 * events in the range asked for. */
#ifndef NX_SEARCH_H
#define NX_SEARCH_H

#include <stdint.h>

#include "model/model.h"
#include "model/query.h"

struct search;

/* NULL with *err (malloc'd) on a bad query. */
struct search *search_new(struct model *m, int64_t profile, const char *text,
			  char **err);
/* The same for a query built term by term; takes its terms (q is left
 * empty). Its text is query_format's. */
struct search *search_new_query(struct model *m, int64_t profile,
				struct query *q, char **err);
void search_free(struct search *s);
/* The query as typed, or as query_format writes a built one: parsing it
 * gives the same terms. */
const char *search_text(const struct search *s);
/* For a search that found nothing: query_hint() of its query. */
const char *search_hint(const struct search *s);
const struct query *search_query(const struct search *s);

/* Whether frames and counts read the events of the view one by one
 * (the query is not one the aggregates answer): slow on long views. */
int search_reads_events(const struct search *s);

/* 1 if event id matches, 0 if not, -1 on error. */
int search_match(struct search *s, int64_t id);

/* Matches starting in each column of one track. */
int search_frame(struct search *s, const struct mtrack *t, int64_t t0,
		 int64_t colw, int ncols, int64_t *hits);

struct search_row {
	int64_t track;
	int64_t n, dur;
};

struct search_stats {
	int64_t count, dur;
	struct search_row *rows;	/* per track with matches */
	size_t nrows;
};

/* Matches starting in [t0, t1). */
int search_stats(struct search *s, const struct mtrack *tracks,
		 size_t ntracks, int64_t t0, int64_t t1,
		 struct search_stats *out);
void search_stats_free(struct search_stats *st);

/* The durations of the matches starting in [t0, t1), in no order: dur
 * is called with each. With bin set, name-only queries and dur
 * comparisons read the whole buckets of the range from the duration
 * aggregates (model/agg.h, AGG_DUR) instead: bin is called per duration bin with the key
 * agg_dur_value(0, d) of its durations, how many, the shortest and the
 * longest; the events of the edge buckets, and of rows whose aggregates
 * cannot tell, still go to dur. */
struct search_durs {
	void (*dur)(void *ctx, int64_t dur);
	void (*bin)(void *ctx, int bin, int64_t n, int64_t dmin, int64_t dmax);
	void *ctx;
};

int search_durations(struct search *s, int64_t t0, int64_t t1,
		     const struct search_durs *cb);

/* The next match after (ts, id) in time order (dir > 0), or the one
 * before (dir < 0), on any track; 0 found, 1 none. */
int search_step(struct search *s, int64_t ts, int64_t id, int dir,
		struct mslice *out);

/* Matches starting in [t0, t1) in time order, from offset, at most
 * limit; fn is called for each. */
int search_list(struct search *s, int64_t t0, int64_t t1, int64_t offset,
		int64_t limit, void (*fn)(void *, const struct mslice *),
		void *ctx);

/* Up to limit matches starting in [t0, t1) that come after (ts, id) in
 * time order (dir > 0, earliest first), or before it (dir < 0, latest
 * first); fn is called for each. For paging through long lists: one
 * index seek per track instead of an OFFSET that counts every earlier
 * match. ts = INT64_MIN or INT64_MAX starts at an end. */
int search_page(struct search *s, int64_t t0, int64_t t1, int64_t ts,
		int64_t id, int dir, int64_t limit,
		void (*fn)(void *, const struct mslice *), void *ctx);

#endif
