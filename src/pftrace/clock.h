/* Perfetto clocks: packet timestamps come in several clock domains
 * (builtin clocks like BOOTTIME and MONOTONIC, and clocks 64..127 scoped
 * to one packet sequence, possibly incremental and in other units). Clock
 * snapshots relate them; this puts every timestamp on one ns timeline,
 * that of the trace clock (primary_trace_clock, BOOTTIME by default). */
#ifndef NX_PF_CLOCK_H
#define NX_PF_CLOCK_H

#include <stdint.h>

#include "proto/nxpf_trace.pb-c.h"

#define PF_CLOCK_BOOTTIME 6

struct pf_clocks;

struct pf_clocks *pfclk_new(void);
void pfclk_free(struct pf_clocks *c);

/* A snapshot seen on sequence seq. */
void pfclk_snapshot(struct pf_clocks *c, uint32_t seq,
		    const Nxpf__ClockSnapshot *s);

/* A packet timestamp in clock_id on sequence seq as ns on the trace
 * timeline. Incremental clocks advance by ts. 0 on success; -1 if the
 * value overflows int64 ns. When no snapshot relates the clock to the
 * trace clock the value is used as it is, and counted. */
int pfclk_convert(struct pf_clocks *c, uint32_t seq, uint32_t clock_id,
		  uint64_t ts, int64_t *out);

/* Timestamps used as they are because no snapshot related their clock. */
uint64_t pfclk_unconverted(const struct pf_clocks *c);

#endif
