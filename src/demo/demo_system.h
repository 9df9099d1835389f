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

/* One trace event. Framework events have lnc -1, no id, parent or
 * worker. */
struct demo_sys_event {
	const char *name, *src, *inst;
	const char *extra;	/* more fields as JSON, each after ", "; may be NULL */
	int64_t ts, dur;	/* ns since the epoch, ns */
	uint64_t id, parent;
	int pid, tid, lnc, gid;
};

/* Where the generator hands the system profile's rows, table by table:
 * meta first, then table("device_profile_list") and its device rows,
 * "trace_event" and events, "cpu_util", "mem_usage" and
 * "device_mem_usage" and their samples; table may be NULL. */
struct demo_sys_sink {
	void (*meta)(void *ctx, int64_t first_ns, int64_t last_ns);
	void (*table)(void *ctx, const char *name);
	void (*device)(void *ctx, int nc, const char *name, const char *inst,
		       int pid, const char *model_id);
	void (*event)(void *ctx, const struct demo_sys_event *e);
	void (*cpu)(void *ctx, const char *cpu, const char *inst, int64_t ts,
		    double util);
	void (*mem)(void *ctx, const char *inst, int64_t ts, double percent,
		    int64_t used);
	void (*hbm)(void *ctx, const char *inst, int hbm, int64_t ts,
		    int64_t total);
	void *ctx;
};

/* Generates the system profile into s. An iteration lasts as long as
 * the longest execution and a little more. 0, or -1 with err_get() set
 * for a bad size. */
int demo_system_run(const struct demo_system *d,
		    const struct demo_sys_sink *s);

/* Writes the system profile JSON to f (write errors are the caller's to
 * check). 0 on success. */
int demo_write_system(FILE *f, const struct demo_system *d);

#endif
