/* The profile summary behind `nxtop summary` and the Summary panel:
 * figures computed from the imported events, next to the figures the
 * profile reports about itself where it has them. */
#ifndef NX_SUMMARY_H
#define NX_SUMMARY_H

#include <stdint.h>

#include "model/model.h"

/* Engines as the profile's summary counts them: TensorMatrix rows are
 * part of the tensor engine. */
enum { ENG_TENSOR, ENG_VECTOR, ENG_SCALAR, ENG_GPSIMD, ENG_SYNC, ENG_COUNT };

extern const char *const summary_engine_names[ENG_COUNT];	/* "Tensor" ... */
extern const char *const summary_engine_keys[ENG_COUNT];	/* "tensor" ... */

struct sum_engine {
	int64_t count;		/* instructions */
	int64_t instr_ns;	/* sum of instruction durations */
	int64_t active_ns;	/* merged busy intervals (active_time), -1 if none */
	int64_t p_count;	/* profile's own figures; -1 if absent */
	double p_active_s;	/* < 0 if absent */
};

struct sum_track {
	char *name, *kind;
	char *label;	/* GROUP/ROW where another row of its kind has its
			 * name, else NULL: name tells it */
	int64_t n, busy_ns, dur_sum;
};

/* A counter row: its samples and values, as the selection export
 * computes them over the whole profile. */
struct sum_counter {
	char *name, *label, *unit;	/* label as sum_track's; unit or NULL */
	int64_t n;			/* samples */
	double vmin, vmax, mean;
};

struct sum_qtype {
	char *type;
	int64_t packets, packet_bytes;
	int64_t transfers, transfer_bytes;
};

struct sum_layer {
	char *name;
	int64_t start, dur;
	int64_t count[ENG_COUNT];
	int64_t flops;
	double mfu;		/* < 0 if absent */
};

struct sum_warning {
	char *origin, *category, *message;
};

/* Times the profile reports are float seconds it computed its own way;
 * they agree with the events within SUM_TOL_NS or SUM_TOL_PERMILLE
 * thousandths, whichever is larger. Counts and bytes agree exactly. */
#define SUM_TOL_NS 10
#define SUM_TOL_PERMILLE 1

enum sum_unit { SU_COUNT, SU_BYTES, SU_NS };

/* One figure the profile also reports, for the consistency section. */
struct sum_check {
	char *what;		/* "Tensor active time" */
	const char *method;	/* how ours is computed from the events */
	enum sum_unit unit;
	int64_t ours;
	double theirs;		/* the profile's figure in unit (ns rounded) */
	int64_t tol_abs;	/* in unit; 0 with tol_permille 0: exact */
	int tol_permille;
	int agree;
};

struct summary {
	struct mprofile prof;
	char *schema_version;		/* Parquet profile_schema_version, or NULL */
	char *run;			/* the JAX run opened, or NULL */
	char **other_runs;		/* the run folder's other runs, by name */
	size_t nother_runs;
	int64_t start, end;		/* ns */
	double p_total_time_s;		/* profile's total_time, < 0 if absent */
	int64_t n_instructions, n_packets, n_transfers, n_counter_samples;
	/* what a trace (not a Neuron profile) is made of */
	int64_t n_slices, n_threads, n_async, n_instant, n_processes;
	struct sum_engine eng[ENG_COUNT];
	struct sum_track *tracks;
	size_t ntracks;
	struct sum_counter *counters;	/* by row order */
	size_t ncounters;
	struct sum_qtype *qtypes;
	size_t nqtypes;
	struct sum_layer *layers;	/* by start time */
	size_t nlayers;
	struct sum_warning *warnings;
	size_t nwarnings;
	struct sum_check *checks;
	size_t nchecks;
};

/* A trace (Chrome JSON, Perfetto) rather than a Neuron profile: its
 * summary speaks of slices, threads and processes. */
int summary_is_trace(const struct summary *s);

/* Fills s for one profile. 0 on success. */
int summary_compute(struct model *m, int64_t profile, struct summary *s);
void summary_free(struct summary *s);
/* Fills only s->run and s->other_runs, from a JAX run's info
 * (src/import/jax.c); s zeroed first. 0 on success. */
int summary_runs(struct model *m, int64_t profile, struct summary *s);

#endif
