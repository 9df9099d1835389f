/* Nesting of slices on a row: parents, children, siblings, and every
 * event of a range with its depth and parent (for exports). */
#ifndef NX_NEST_H
#define NX_NEST_H

#include <stdint.h>

#include "model/model.h"

/* The first child of s by start; 0 found, 1 none. */
int nest_first_child(struct model *m, const struct mslice *s,
		     struct mslice *out);
/* The next (dir > 0) or previous sibling of s: the same parent, or the
 * same depth 0 on the row; 0 found, 1 none. */
int nest_sibling(struct model *m, const struct mslice *s, int dir,
		 struct mslice *out);

/* The details pane's "Nesting" fields of s: its share of its parent,
 * its ancestors (name, duration, share of their parent), its children
 * (how many, their total); nothing for a lone event at depth 0. */
int nest_fields(struct model *m, const struct mslice *s, mfield_fn fn,
		void *ctx);

/* Every slice of the track overlapping [t0, t1), by start then depth. */
typedef int (*nest_event_fn)(void *ctx, const struct mslice *s);
int nest_events(struct model *m, const struct mtrack *t, int64_t t0,
		int64_t t1, nest_event_fn fn, void *ctx);

#endif
