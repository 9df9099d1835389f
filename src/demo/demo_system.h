/* A made-up system profile in the shape of FORMATS.md §1.4, for `nxtop
 * demo` and the benchmarks: instances × NeuronCores running two models in
 * a training-like loop, with runtime, hardware and framework rows, host
 * CPU and memory samples, device memory, and a device_profile_list. */
#ifndef NX_DEMO_SYSTEM_H
#define NX_DEMO_SYSTEM_H

#include <stdint.h>
#include <stdio.h>

/* Events of one loop iteration on one NeuronCore. */
#define DEMO_SYS_EVENTS_PER_ITER 9

struct demo_model {
	const char *id;		/* model_id, e.g. "1578576049" */
	const char *neff;	/* model_name, a NEFF path */
	int profiled;		/* a device profile was captured on its first
				 * NeuronCore of the first instance, in the
				 * file demo_device_name() names */
	int64_t exec_ns;	/* one execution (its device profile's length) */
};

struct demo_system {
	int instances;		/* 1 .. 16 */
	int cores;		/* NeuronCores per instance, 1 .. 64 */
	int64_t events;		/* trace events per NeuronCore (about) */
	uint64_t seed;
	/* NeuronCore c of every instance runs models[c * nmodels / cores] */
	const struct demo_model *models;
	int nmodels;		/* 1 .. 8 */
};

/* The name the tools give model m's device profile (without ".json"):
 * i-<instance>_pid_<pid>_nc_<N>_model_<id>, of the first NeuronCore
 * that runs it; malloc'd. */
char *demo_device_name(const struct demo_system *d, int m);

/* Writes the system profile JSON to f (write errors are the caller's to
 * check). An iteration lasts as long as the longest execution and a
 * little more. 0 on success. */
int demo_write_system(FILE *f, const struct demo_system *d);

#endif
