/* Inside nxtop diff: filling one side's rows (diff_load.c) into the
 * comparison (diff.c). */
#ifndef NX_DIFF_INT_H
#define NX_DIFF_INT_H

#include "model/diff.h"
#include "model/hmap.h"

struct diff_sides {
	struct diff *d;
	struct model *m;
	const struct mprofile *prof;
	int side;			/* 0: A, 1: B */
	struct strmap index;		/* group and name -> row */
};

/* Adds v (one value per layout column) to the row of (group, name). */
void diff_add(struct diff_sides *s, const char *group, const char *name,
	      const int64_t *v);
/* Adds v to an overall figure; a figure the profile reports itself
 * (diff_reported, or both_only set) is kept only when both sides have
 * it. */
struct diff_row *diff_figure(struct diff_sides *s, const char *name,
			     enum diff_unit u, int64_t v);
/* A number of the profile's own (DU_REAL): the integer *i exactly, or
 * without one (NULL) the real v. */
void diff_reported(struct diff_sides *s, const char *name,
		   const struct diff_int *i, double v);

/* One side's rows of s->d->what; -1 with err_get() set. */
int diff_load_device(struct diff_sides *s);
int diff_load_system(struct diff_sides *s);
struct selection;
/* One side's figures of a selection (diff_selections). */
void diff_load_selection(struct diff_sides *s, const struct selection *sel);

#endif
