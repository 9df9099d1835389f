/* Dependencies between a device profile's rows (FORMATS.md §1.3, §1.5,
 * §2): read from an instruction or DMA record, or a row of Neuron
 * Explorer's Flow table, and handed to the writer, which links them into
 * flows when the cache is finished (model/writer/deps.c). */
#ifndef NX_IMPORT_DEPS_H
#define NX_IMPORT_DEPS_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "src/import/base.h"

struct wdma;

/* An instruction's predecessors, the DMA start its trigger names
 * ("trigger", or Parquet's "dma_trigger_start_ts"), and the semaphores
 * its operands wait for and set. */
int deps_instruction(struct import *im, int64_t slice, const cJSON *o,
		     int64_t ts, int64_t dur, const char *opcode,
		     const char *operands);
/* A transfer's trigger and completion and the semaphore it sets; a
 * packet's transfer. */
int deps_dma(struct import *im, int64_t slice, const struct wdma *d,
	     int64_t ts, int64_t dur, const cJSON *o);
/* One row of the Flow table: out_id in out_table to in_id in in_table. */
int deps_flow_row(struct import *im, const cJSON *o);

#endif
