#include "config.h"

#include "src/demo/demo_int.h"
#include "src/demo/demo_pqinst.h"

#include <stdio.h>

/* The Instruction table: the demo's instruction[] records with the
 * Parquet names of FORMATS.md §1.5 (timestamp → start_ts, duration →
 * duration_ns, subgroup → engine, label → timeline_track, evt_wait_time
 * → evt_wait_time_ns, trigger → dma_trigger_start_ts, elements →
 * tensor_elements, instruction_type → tensor_instruction_type,
 * activation_fn → scalar_activation_fn). Fields the JSON record lacks
 * are null. */

enum {
	I_START, I_END, I_DUR, I_ENGINE, I_TRACK, I_OPCODE, I_OPERANDS,
	I_COPCODE, I_COPERANDS, I_ID, I_PC, I_CPC, I_PENGUIN, I_RAW_PENGUIN,
	I_BIR, I_RAW_BIR, I_BIR_NAME, I_CRC_IN, I_CRC_OUT, I_WAIT,
	I_HLO_ATTRS, I_HLO_NAME, I_RAW_HLO, I_RAW_FW, I_LAYER, I_TRIGGER,
	I_ITYPE, I_ELEMENTS, I_ACT, I_BYTES, I_N = I_BYTES + B_N
};

static const struct pqw_field inst_fields[I_N] = {
	{ "start_ts", PQW_INT64, 0 }, { "end_ts", PQW_INT64, 0 },
	{ "duration_ns", PQW_INT64, 0 }, { "engine", PQW_STRING, 0 },
	{ "timeline_track", PQW_STRING, 1 }, { "opcode", PQW_STRING, 0 },
	{ "operands", PQW_STRING, 0 }, { "compiler_opcode", PQW_STRING, 1 },
	{ "compiler_operands", PQW_STRING, 1 }, { "id", PQW_INT64, 0 },
	{ "pc", PQW_INT64, 0 }, { "compiler_pc", PQW_INT64, 1 },
	{ "penguin_id", PQW_STRING, 1 }, { "raw_penguin_id", PQW_INT64, 1 },
	{ "bir_id", PQW_STRING, 0 }, { "raw_bir_id", PQW_INT64, 1 },
	{ "bir_instruction_name", PQW_STRING, 1 },
	{ "crc_in", PQW_INT64, 1 }, { "crc_out", PQW_INT64, 1 },
	{ "evt_wait_time_ns", PQW_INT64, 1 },
	{ "hlo_attrs", PQW_STRING, 1 }, { "hlo_name", PQW_STRING, 1 },
	{ "raw_hlo_id", PQW_INT64, 1 }, { "raw_framework_id", PQW_INT64, 1 },
	{ "layer", PQW_STRING, 1 }, { "dma_trigger_start_ts", PQW_INT64, 1 },
	{ "tensor_instruction_type", PQW_STRING, 1 },
	{ "tensor_elements", PQW_INT64, 1 },
	{ "scalar_activation_fn", PQW_STRING, 1 },
	{ "hbm_read_bytes", PQW_INT64, 1 }, { "hbm_write_bytes", PQW_INT64, 1 },
	{ "sbuf_read_bytes", PQW_INT64, 1 }, { "sbuf_write_bytes", PQW_INT64, 1 },
	{ "psum_read_bytes", PQW_INT64, 1 }, { "psum_write_bytes", PQW_INT64, 1 },
	{ "psum_read_sbuf_write_bytes", PQW_INT64, 1 },
	{ "spill_save_bytes", PQW_INT64, 1 },
	{ "spill_reload_bytes", PQW_INT64, 1 },
	{ "weight_queue_bytes", PQW_INT64, 1 },
	{ "input_queue_bytes", PQW_INT64, 1 },
	{ "output_queue_bytes", PQW_INT64, 1 },
};

const struct pqw_field *demo_pq_inst_fields(int *n)
{
	*n = I_N;
	return inst_fields;
}

static const char *const itype_name[] = { "", "REGULAR", "TRANSPOSE" };

/* hlo_attrs are kept escaped for JSON; a Parquet string holds the text. */
static void unescape(char *out, size_t cap, const char *s)
{
	size_t n = 0;

	for (; *s && n + 1 < cap; s++) {
		if (*s == '\\' && s[1])
			s++;
		out[n++] = *s;
	}
	out[n] = 0;
}

static void put_engine(struct pqw *w, const struct demo_inst *in)
{
	const char *copc = demo_ops[in->op].compiler;
	char buf[DOUT_RECMAX];

	pqw_str(w, I_ENGINE, demo_eng_subgroup[demo_track_eng[in->track]]);
	pqw_str(w, I_TRACK, demo_track_label[in->track]);
	pqw_str(w, I_OPCODE, demo_ops[in->op].name);
	*demo_put_operands(buf, in) = 0;
	pqw_str(w, I_OPERANDS, buf);
	pqw_str(w, I_COPCODE, copc);
	if (copc) {
		*demo_put_compiler_operands(buf, in) = 0;
		pqw_str(w, I_COPERANDS, buf);
	}
	pqw_i64(w, I_PC, in->pc);
	if (in->layer >= 0)
		pqw_i64(w, I_CPC, in->cpc);
}

static void put_origin(struct pqw *w, const struct demo_model *m,
		       const struct demo_inst *in)
{
	const struct demo_layer *l = &m->layer[in->layer];
	const struct demo_hlo *h = &l->hlo[in->hlo];
	char buf[256];

	snprintf(buf, sizeof(buf), "sg0000:%u", in->bir);
	pqw_str(w, I_BIR, buf);
	pqw_i64(w, I_RAW_BIR, in->bir);
	snprintf(buf, sizeof(buf), "sg0000:%u", in->penguin);
	pqw_str(w, I_PENGUIN, buf);
	pqw_i64(w, I_RAW_PENGUIN, in->penguin);
	snprintf(buf, sizeof(buf), "I-%u-%u%s", in->penguin, in->tile & 3,
		 in->op == OP_DMA_TRIGGER ? "-trig" :
		 in->op == OP_ACTIVATE ? "-act" : "");
	pqw_str(w, I_BIR_NAME, buf);
	pqw_str(w, I_HLO_NAME, h->text);
	pqw_i64(w, I_RAW_HLO, h->id);
	unescape(buf, sizeof(buf), h->attrs);
	pqw_str(w, I_HLO_ATTRS, buf);
	pqw_str(w, I_LAYER, l->name);
	pqw_i64(w, I_RAW_FW, l->fw_id);
}

/* Outside layers the JSON record has empty names and zero ids. */
static void put_no_origin(struct pqw *w)
{
	pqw_str(w, I_BIR, "");
	pqw_i64(w, I_RAW_BIR, 0);
	pqw_str(w, I_PENGUIN, "");
	pqw_i64(w, I_RAW_PENGUIN, 0);
	pqw_str(w, I_BIR_NAME, "");
	pqw_str(w, I_HLO_NAME, "");
	pqw_str(w, I_HLO_ATTRS, "");
	pqw_str(w, I_LAYER, "");
}

void demo_pq_inst(struct pqw *w, const struct demo_model *m,
		  const struct demo_inst *in)
{
	uint64_t a = in->aux;

	pqw_i64(w, I_ID, (int64_t)in->id);
	pqw_i64(w, I_START, (int64_t)in->ts);
	pqw_i64(w, I_END, (int64_t)(in->ts + in->dur));
	pqw_i64(w, I_DUR, in->dur);
	pqw_i64(w, I_WAIT, in->wait);
	put_engine(w, in);
	if (in->layer >= 0)
		put_origin(w, m, in);
	else
		put_no_origin(w);
	pqw_str(w, I_ITYPE, itype_name[in->itype]);
	pqw_str(w, I_ACT, in->op == OP_ACTIVATE ? demo_act_name[in->act] : "");
	pqw_i64(w, I_CRC_IN, a >> 62 ? 65535 : (a >> 16) & 0xffff);
	pqw_i64(w, I_CRC_OUT, (a >> 58) & 3 ? 65535 : (a >> 32) & 0xffff);
	if (in->op == OP_MATMUL)
		pqw_i64(w, I_ELEMENTS, 128LL * in->k * in->n);
	for (int b = 0; b < B_N; b++)
		if (in->has & (1u << b))
			pqw_i64(w, I_BYTES + b, in->bytes[b]);
	if (in->op == OP_DMA_TRIGGER)
		pqw_i64(w, I_TRIGGER, (int64_t)in->trigger);
}

/* Flow: the JSON's predecessors, an edge from each predecessor (out) to
 * the instruction that waits for it (in). */
static const struct pqw_field flow_fields[] = {
	{ "in_id", PQW_INT64, 0 }, { "out_id", PQW_INT64, 0 },
	{ "in_table", PQW_STRING, 0 }, { "out_table", PQW_STRING, 0 },
	{ "dependency_type", PQW_STRING, 1 },
};

const struct pqw_field *demo_pq_flow_fields(int *n)
{
	*n = (int)(sizeof(flow_fields) / sizeof(flow_fields[0]));
	return flow_fields;
}

/* As many rows as the JSON record has predecessors (none outside layers). */
int demo_pq_flows(const struct demo_inst *in)
{
	return in->layer >= 0 ? in->npred : 0;
}

void demo_pq_flow(struct pqw *w, const struct demo_inst *in, int i)
{
	pqw_i64(w, 0, (int64_t)in->id);
	pqw_i64(w, 1, (int64_t)in->pred[i]);
	pqw_str(w, 2, "Instruction");
	pqw_str(w, 3, "Instruction");
	pqw_str(w, 4, "FLOW_DEPENDENCE");
}
