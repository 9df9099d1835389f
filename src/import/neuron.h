/* Neuron device rows for importers of other formats: a device trace read
 * from Perfetto gets its engine, DMA-queue and counter rows from the same
 * code as the JSON export, so search, summaries and layers agree. */
#ifndef NX_IMPORT_NEURON_H
#define NX_IMPORT_NEURON_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "src/import/base.h"

struct jrec;
struct neuron;

/* What a top-level key of a Neuron profile JSON says the file is: a
 * device profile (a key of data only a device profile has:
 * "instruction", "dma", ...), a system profile ("trace_event",
 * "device_profile_list", ...), or nothing (keys either profile or a
 * Chrome trace may have: "metadata", "warnings", unknown keys). The
 * first key that says one settles the kind, for the dispatcher and the
 * importer alike; the importer refuses a key of the other kind after
 * it. */
enum neuron_kind { NK_NONE, NK_DEVICE, NK_SYSTEM };
enum neuron_kind neuron_key_kind(const char *key);

/* Adds rows to im's profile. */
struct neuron *neuron_new(struct import *im);
/* Writes warnings about what was clipped, then frees. */
void neuron_end(struct neuron *n);

/* One record of the top-level key r->key, shaped like the JSON's: the
 * entry point of importers that read the same tables in another form
 * (src/import/parquet/). */
int neuron_record(struct neuron *n, const struct jrec *r, const cJSON *o);
/* Names what a top-level key is in warnings ("key", "table"). */
void neuron_set_noun(struct neuron *n, const char *noun);
/* Names the table whose rows come next (valid until the next call; NULL
 * for none), which messages name instead of the key its rows have. */
void neuron_set_table(struct neuron *n, const char *table);
/* Names the profile, sets its extent (a system profile's rows are
 * finished too) and reports what was not recognised, then frees; -1 with err_get() set when no record was of
 * a known key. */
int neuron_finish(struct neuron *n);

/* One record shaped like an element of the JSON "instruction" or "dma"
 * arrays; where (may be NULL) places errors in the input. */
int neuron_instruction(struct neuron *n, const cJSON *o,
		       const struct jrec *where);
int neuron_dma(struct neuron *n, const cJSON *o, const struct jrec *where);

/* The member names of an "instruction" record that are its fields (*n
 * of them), for readers that match their columns once, not per row. */
const char *const *neuron_instruction_fields(size_t *n);
/* An instruction record by field, in the order of
 * neuron_instruction_fields(): f[k] its value (NULL: absent) or, where
 * has_int[k] (has_int may be NULL), the exact integer ints[k] a reader
 * took from a typed column; its other members as the JSON text
 * jv_fields() gives in args ("" when none); deps, an object holding at
 * least the members its dependencies are read from (deps_instruction():
 * trigger, dma_trigger_start_ts, predecessors). */
struct ninstr {
	const cJSON *const *f;
	const int64_t *ints;
	const unsigned char *has_int;
	const char *args;
	const cJSON *deps;
};

/* One instruction record of the key r->key. */
int neuron_instruction_row(struct neuron *n, const struct jrec *r,
			   const struct ninstr *row);

/* The counter behind a Neuron Perfetto counter track name ("DMA
 * Throughput", "Pending DMA Count", "Sb Usage", ...), or -1. */
int neuron_counter_named(const char *name);
void neuron_sample(struct neuron *n, int counter, int64_t ts, double v);

#endif
