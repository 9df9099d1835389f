/* Shared state of the Perfetto importer: pftrace.c reads packets,
 * events.c turns descriptors and track events into rows, neuron.c
 * maps Neuron's own Perfetto output onto Neuron rows. */
#ifndef NX_PFTRACE_H
#define NX_PFTRACE_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "model/hmap.h"
#include "src/import/base.h"
#include "src/json/jsonsplit.h"
#include "src/pftrace/clock.h"
#include "src/pftrace/intern.h"
#include "proto/nxpf_trace.pb-c.h"
#include "src/import/trace_rows.h"

/* Open slices deeper than this on one track are dropped (and counted). */
#define PF_MAX_DEPTH 1024
/* Track descriptors and packet sequences kept at most; more is an
 * error. */
#define PF_MAX_TRACKS (1u << 20)
#define PF_MAX_SEQUENCES (1u << 20)
/* Flows waiting for their next end; new ones beyond are dropped. */
#define PF_MAX_OPEN_FLOWS (1u << 22)
/* Flow links gathered before those whose slices are written go out. */
#define PF_LINK_BATCH 65536

/* What a track is in Neuron's own output (see neuron.c). */
enum pfn_kind {
	PFN_NONE,
	PFN_ENGINE,		/* "TensorMatrix Engine - Row 0" */
	PFN_DMA,		/* "qSyncSpillReload0 - Row 0", "DMA Engine 64 - Row 0" */
	PFN_COUNTER,		/* "DMA Throughput", "Sb Usage", ... */
	PFN_SEMAPHORE,		/* "S[5] (Tensor)" */
	PFN_NRT,		/* "gid33-nc1-tid3-neuron_rt" */
	PFN_HW,			/* "...-neuron_hw" */
	PFN_FRAMEWORK,		/* "framework-..." */
};

struct pf_flowref {
	uint64_t id;
	int terminating;
	int legacy;		/* a LegacyEvent's bind_id: ids of their own */
};

struct pf_open {
	int64_t ts, name, cat;
	struct strbuf args;	/* JSON object text, or empty */
	cJSON *fields;		/* Neuron tracks: the annotations */
	uint64_t serial;	/* names the slice in flow links until written */
	int flowed;		/* carries a flow end */
};

/* A flow between two slices named by their serials (0: no end). */
struct pf_link {
	uint64_t id, out, in;
};

struct pf_track {
	uint64_t uuid;
	int described;
	int has_parent;
	uint64_t parent;
	char *name;
	int is_process, is_thread, is_counter;
	int32_t pid;
	int64_t tid;
	int counter_builtin;	/* thread time or instruction count */
	int64_t unit_mult;
	char *unit;		/* counter unit, NULL if none */
	int incremental;
	double acc;		/* incremental counter value */
	/* set on the first event */
	int resolved;
	enum pfn_kind nkind;
	int ncounter;		/* Neuron counter index */
	char *nlabel;		/* engine label or DMA queue */
	struct trow *row;
	int64_t track;
	struct pf_open *stack;
	size_t depth, cap;
	uint64_t overflow;	/* begins beyond PF_MAX_DEPTH still open */
};

struct pftrace {
	struct import *im;
	struct writer *w;
	struct trows *rows;
	struct pf_clocks *clocks;
	struct u64map seqs;	/* sequence id -> pf_seq */
	size_t interned;	/* bytes interned by all sequences */
	struct u64map tracks;	/* uuid -> pf_track */
	struct u64map flows;	/* flow id -> pf_flowend */
	struct u64map legacy_flows;	/* LegacyEvent bind_id -> pf_flowend */
	uint64_t serials;	/* slices begun */
	struct u64map flow_slices;	/* serial of a slice with flows -> id */
	struct pf_link *links;	/* written once both their slices are */
	size_t nlinks, caplinks, flush_at;
	/* threads known by pid and tid (legacy); the tid is 64-bit */
	struct strmap thread_ix;	/* pid and tid bytes -> index */
	struct pf_track **threads;
	size_t nthreads;
	struct pf_track global;	/* events without a track */
	struct neuron *neuron;	/* Neuron device rows, once needed */
	struct pf_open inst;	/* scratch for instants and complete events */
	int64_t empty_name;	/* string id of "" */
	char unknown_name[48];	/* placeholder of an undefined name iid */
	int system;		/* Neuron system rows seen */
	struct jrec where;	/* the packet being read, for errors */
	int64_t min_ts, max_ts;
	int have_ts;
	struct strbuf tmp, name;
	/* counted and reported as import warnings */
	uint64_t n_skipped_state, n_unmatched_end, n_no_ts, n_overflow;
	uint64_t n_flows_dropped, n_zstd, n_bad_clock, n_nonfinite;
	uint64_t n_unknown_name;
	/* compressed bundles inside a bundle, and the packet of the first */
	uint64_t n_nested_bundles;
	struct jrec first_nested;
};

void pfev_init(struct pftrace *p);
/* A packet with its sequence state applied; 0 or -1 (err_set). */
int pfev_packet(struct pftrace *p, const Nxpf__TracePacket *pk,
		struct pf_seq *q);
/* Closes what is still open and writes names, order and warnings. */
int pfev_finish(struct pftrace *p);
void pfev_free(struct pftrace *p);

/* Neuron's own output (neuron.c). */
enum pfn_kind pfn_classify(const char *name, struct strbuf *label,
			   int *counter);
/* Completes a Neuron track's fields from the slice name at its begin. */
void pfn_begin_fields(struct pf_track *t, cJSON *fields, const char *name);
/* A slice of a Neuron device track; fields (the annotations) are
 * consumed. */
int pfn_device_slice(struct pftrace *p, struct pf_track *t, int64_t ts,
		     int64_t dur, cJSON *fields);
/* A slice of a Neuron system row (fields consumed); returns its id. */
int64_t pfn_system_slice(struct pftrace *p, struct pf_track *t, int64_t ts,
			 int64_t dur, int64_t name, int64_t cat, int depth,
			 unsigned flags, cJSON *fields);
void pfn_counter(struct pftrace *p, struct pf_track *t, int64_t ts, double v);

/* Sets the error "<file>: byte N: <msg> in packet [i]"; returns -1. */
int pf_fail(struct pftrace *p, const char *fmt, ...) NX_PRINTF(2, 3);

#endif
