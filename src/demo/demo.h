/* A synthetic but realistic Neuron device profile: the JSON that
 * `neuron-profile view --output-format json` writes, for `nxtop demo`
 * and the benchmarks.  Deterministic: the same options give the same
 * bytes. */
#ifndef NX_DEMO_H
#define NX_DEMO_H

#include <stdint.h>
#include <stdio.h>

struct demo_opts {
	uint64_t events;	/* approximate instruction + dma record count; default 200000 */
	uint64_t seed;		/* default 1 */
	int nc_idx;		/* NeuronCore index written into summary/model_info; default 0 */
	const char *model_name;	/* e.g. "bert-large"; used in neff/profile names and layer names */
};

void demo_opts_init(struct demo_opts *o);
/* Writes the whole device JSON to out, and *len_ns (unless NULL) gets the
 * profile's length (its last hardware timestamp, ns), which a system
 * profile's executions are made to match. 0 on success, -1 with err_set()
 * on a write error. */
int demo_write_device_len(FILE *out, const struct demo_opts *o,
			  int64_t *len_ns);

#endif
