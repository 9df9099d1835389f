/* Flows: links from one slice to another (a trace's flow events, a
 * system profile's flow ids, a device profile's dependencies). A flow
 * whose partner never came is kept with one end, and counted. */
#ifndef NX_FLOW_H
#define NX_FLOW_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

struct mflow {
	int64_t id;		/* the flow's row in the cache */
	char *flow_id;		/* the profile's own id, as text ("" if none) */
	char *kind;		/* "flow", or a dependency's kind */
	int exact;		/* 0: inferred from times or semaphore values */
	struct mslice out, in;	/* id 0: that end is missing */
	char *out_row, *in_row;	/* their rows' names; "" when missing */
};

/* The flows a slice shows in its details and follows: leaving it, then
 * entering it, at most FLOW_LIST_MAX. */
#define FLOW_LIST_MAX 256
int flow_of_slice(struct model *m, int64_t slice, struct mflow **out,
		  size_t *n);
void flow_free(struct mflow *f, size_t n);

/* Every flow of a profile in the order they were stored; fn returning
 * non-zero stops. */
typedef int (*flow_fn)(void *ctx, const struct mflow *f);
int flow_each(struct model *m, int64_t profile, flow_fn fn, void *ctx);

struct flow_counts {
	int64_t paired;
	int64_t no_in;		/* a start whose end never came */
	int64_t no_out;		/* an end without a start */
};
int flow_count(struct model *m, int64_t profile, struct flow_counts *c);

/* The details pane's "Flows" fields of slice s: each flow leaving
 * ("to") and entering ("from") it with its other end's name, row and
 * start (from pstart, flags of timefmt_dur), at most FLOW_FIELDS_MAX. */
#define FLOW_FIELDS_MAX 16
int flow_fields(struct model *m, const struct mslice *s, int64_t pstart,
		int tf, mfield_fn fn, void *ctx);

/* The other end of f seen from slice id (NULL when missing) and its
 * row's name. */
const struct mslice *flow_other(const struct mflow *f, int64_t id,
				const char **row);

/* Where flows leave (FLOW_MARK_OUT, at a slice's last ns) and enter
 * (FLOW_MARK_IN, at its start) the slices of a track drawn on nlanes
 * lanes (depth d on lane d, the deeper ones on the last), over ncols
 * columns of colw ns from t0. A column reads at most FLOW_MARK_READS
 * ends, so a frame costs what its columns do, however many flows the
 * profile holds. */
#define FLOW_MARK_OUT 1
#define FLOW_MARK_IN 2
#define FLOW_MARK_READS 8
struct flow_marks;
struct flow_marks *flow_marks_open(struct model *m);
void flow_marks_close(struct flow_marks *fm);
/* out[k * ncols + c] gets the marks of lane k, column c; 0 or -1 with
 * err_set(). */
int flow_marks_read(struct flow_marks *fm, int64_t track, int nlanes,
		    int64_t t0, int64_t colw, int ncols, unsigned char *out);

#endif
