/* Rows of the Parquet demo's device tables, from the generator's events. */
#ifndef NX_DEMO_PQINST_H
#define NX_DEMO_PQINST_H

#include "src/demo/demo_int.h"
#include "src/parquet/pqwrite.h"

const struct pqw_field *demo_pq_inst_fields(int *n);
void demo_pq_inst(struct pqw *w, const struct demo_model *m,
		  const struct demo_inst *in);
const struct pqw_field *demo_pq_flow_fields(int *n);
int demo_pq_flows(const struct demo_inst *in);
void demo_pq_flow(struct pqw *w, const struct demo_inst *in, int i);
const struct pqw_field *demo_pq_pkt_fields(int *n);
const struct pqw_field *demo_pq_agg_fields(int *n);
void demo_pq_packet(struct pqw *w, const struct demo_model *m,
		    const struct demo_xfer *x, const struct demo_pkt *pk);
void demo_pq_aggregated(struct pqw *w, const struct demo_model *m,
			const struct demo_xfer *x);

#endif
