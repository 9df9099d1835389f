/* A system profile's executions (nrt_execute), grouped by model,
 * instance and NeuronCore, for the warm-up, outlier and idle rules and
 * nxtop diff. */
#ifndef NX_ANALYZE_EXECS_H
#define NX_ANALYZE_EXECS_H

#include "model/analyze/analyze.h"

struct exec_group {
	int64_t model_id, instance_id;	/* string ids; 0 if unknown */
	char *model;		/* "" if unknown */
	char *instance;		/* "" when the profile has one */
	int64_t nc;		/* the logical NeuronCore, -1 if unknown */
	struct an_range *ex;	/* by start; row: the track */
	size_t n;
	int64_t median;		/* duration, ns */
};

/* The events named event (nrt_execute, nc_exec_running) starting in the
 * range, grouped by model, instance and NeuronCore, each group by
 * start. -1 with
 * err_get() set. */
int execs_load(struct an_ctx *c, const char *event, struct exec_group **g,
	       size_t *n);
void execs_free(struct exec_group *g, size_t n);
/* Groups the executions starting in the range and calls fn on each (fn
 * counts what it found in *fired); with no group, notes that the rule
 * could not check. -1 on error, 0 when there was no group, 1 otherwise. */
int execs_each(struct an_ctx *c,
	       void (*fn)(struct an_ctx *c, const struct exec_group *g,
			  int *fired),
	       int *fired);
/* "model m.neff on NC 2", "... on NC 2 of i-0abc" when there are
 * several instances */
void execs_name(const struct exec_group *g, char *buf, size_t n);

#endif
