/* A system profile's executions (nrt_execute), grouped by model and
 * NeuronCore, for the warm-up, outlier and idle rules. */
#ifndef NX_ANALYZE_EXECS_H
#define NX_ANALYZE_EXECS_H

#include "model/analyze/analyze.h"

struct exec_group {
	const char *model;	/* "" if unknown */
	int64_t nc;		/* -1 if unknown */
	struct an_range *ex;	/* by start; row: the track */
	size_t n;
	int64_t median;		/* duration, ns */
};

/* The executions starting in the range; 0 groups is no error. */
int execs_load(struct an_ctx *c, struct exec_group **g, size_t *n);
void execs_free(struct exec_group *g, size_t n);
/* "model m.neff on NC 2" */
void execs_name(const struct exec_group *g, char *buf, size_t n);

#endif
