/* The lengths of unions of intervals that arrive nearly in start order
 * (the instructions of one engine, each tagged with its layer): a window
 * of the last SPAN_WINDOW intervals puts them in order as they come, and
 * each one that leaves it is merged into its tag's union in constant
 * memory. */
#ifndef NX_IMPORT_PARQUET_SPAN_H
#define NX_IMPORT_PARQUET_SPAN_H

#include <stddef.h>
#include <stdint.h>

#define SPAN_WINDOW 64

/* One union as it grows. */
struct span {
	int64_t last_start;	/* of the interval merged last */
	int64_t end;		/* end of what is merged so far */
	int64_t len;		/* ns covered by what is merged so far */
	int merged;		/* an interval was merged */
	int unordered;		/* one came later than the window allows */
};

/* [start, end) of the union tagged tag. */
struct span_iv {
	int64_t start, end;
	size_t tag;
};

/* A min-heap by start. */
struct span_window {
	struct span_iv win[SPAN_WINDOW];
	size_t n;
};

/* Adds iv to the window; when that pushes the earliest interval out,
 * returns 1 with it in *out, to be merged with span_merge(). */
int span_push(struct span_window *w, struct span_iv iv, struct span_iv *out);
/* Takes the earliest interval out of the window: 0 when it is empty. */
int span_pop(struct span_window *w, struct span_iv *out);
void span_merge(struct span *s, int64_t start, int64_t end);
/* The union's length in ns: 0 if nothing was merged, -1 if intervals
 * came too far out of order to know it. */
int64_t span_len(const struct span *s);

#endif
