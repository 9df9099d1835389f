#include "config.h"

#include "src/demo/demo_int.h"

/* One `instruction[]` record with the fields and types of real exports
 * (FORMATS.md §2.1).  Key order varies between records, as it does in
 * real files, by writing the field groups in one of three orders. */

static char *grp_time(char *p, const struct demo_model *m,
		      const struct demo_inst *in)
{
	(void)m;
	p = DKV_U64(p, "id", in->id);
	p = DKV_U64(p, "timestamp", in->ts);
	p = DKV_U64(p, "duration", in->dur);
	return DKV_U64(p, "evt_wait_time", in->wait);
}

static char *grp_engine(char *p, const struct demo_model *m,
			const struct demo_inst *in)
{
	const char *copc = demo_ops[in->op].compiler;

	(void)m;
	p = DKV_STR(p, "label", demo_track_label[in->track]);
	p = DKV_STR(p, "subgroup", demo_eng_subgroup[demo_track_eng[in->track]]);
	p = DKV_STR(p, "opcode", demo_ops[in->op].name);
	p = DKEY(p, "operands");
	*p++ = '"';
	p = demo_put_operands(p, in);
	p = DLIT(p, "\",");
	if (copc) {
		p = DKV_STR(p, "compiler_opcode", copc);
		p = DKEY(p, "compiler_operands");
		*p++ = '"';
		p = demo_put_compiler_operands(p, in);
		p = DLIT(p, "\",");
	}
	p = DKV_U64(p, "pc", in->pc);
	if (in->layer >= 0)
		p = DKV_U64(p, "compiler_pc", in->cpc);
	return p;
}

static char *put_birname(char *p, const struct demo_inst *in)
{
	p = DKEY(p, "bir_instruction_name");
	p = DLIT(p, "\"I-");
	p = dput_u64(p, in->penguin);
	*p++ = '-';
	p = dput_u64(p, in->tile & 3);
	if (in->op == OP_DMA_TRIGGER)
		p = DLIT(p, "-trig");
	else if (in->op == OP_ACTIVATE)
		p = DLIT(p, "-act");
	return DLIT(p, "\",");
}

static const char *const itype_name[] = { "", "REGULAR", "TRANSPOSE" };

/* Compiler and framework provenance; empty outside layers. */
static char *grp_origin(char *p, const struct demo_model *m,
			const struct demo_inst *in)
{
	uint64_t a = in->aux;

	p = DKV_RAW(p, "fully_qualified_subgraph", "\"/sg00\"");
	if (in->layer < 0) {
		p = DLIT(p, "\"bir_id\":\"\",\"raw_bir_id\":0,"
			    "\"penguin_id\":\"\",\"raw_penguin_id\":0,"
			    "\"bir_instruction_name\":\"\",\"hlo_name\":\"\","
			    "\"hlo_attrs\":\"\",\"layer\":\"\",");
	} else {
		const struct demo_layer *l = &m->layer[in->layer];
		const struct demo_hlo *h = &l->hlo[in->hlo];

		p = DLIT(p, "\"bir_id\":\"sg0000:");
		p = dput_u64(p, in->bir);
		p = DLIT(p, "\",");
		p = DKV_U64(p, "raw_bir_id", in->bir);
		p = DLIT(p, "\"penguin_id\":\"sg0000:");
		p = dput_u64(p, in->penguin);
		p = DLIT(p, "\",");
		p = DKV_U64(p, "raw_penguin_id", in->penguin);
		p = put_birname(p, in);
		p = DKV_STR(p, "hlo_name", h->text);
		p = DKV_U64(p, "raw_hlo_id", h->id);
		p = DKV_STR(p, "hlo_attrs", h->attrs);
		p = DKV_STR(p, "layer", l->name);
		p = DLIT(p, "\"raw_framework_id\":[");
		p = dput_u64(p, l->fw_id);
		p = DLIT(p, "],");
	}
	p = DKV_STR(p, "instruction_type", itype_name[in->itype]);
	p = DKV_STR(p, "activation_fn",
		    in->op == OP_ACTIVATE ? demo_act_name[in->act] : "");
	p = DKV_U64(p, "crc_in", a >> 62 ? 65535 : (a >> 16) & 0xffff);
	return DKV_U64(p, "crc_out", (a >> 58) & 3 ? 65535 : (a >> 32) & 0xffff);
}

static char *put_preds(char *p, const struct demo_inst *in)
{
	p = DLIT(p, "\"predecessors\":[");
	for (int i = 0; i < in->npred; i++) {
		if (i)
			*p++ = ',';
		p = DLIT(p, "{\"id\":");
		p = dput_u64(p, in->pred[i]);
		p = DLIT(p, ",\"type\":\"FLOW_DEPENDENCE\"}");
	}
	return DLIT(p, "],");
}

/* Optional fields: work counts, byte counters, DMA trigger, deps. */
static char *grp_extra(char *p, const struct demo_model *m,
		       const struct demo_inst *in)
{
	(void)m;
	if (in->op == OP_MATMUL)
		p = DKV_U64(p, "elements", 128ULL * in->k * in->n);
	if (in->has & (1u << B_PSUM_RSW))
		p = DKV_RAW(p, "is_psum_read_sbuf_write", "true");
	for (int b = 0; b < B_N; b++) {
		if (!(in->has & (1u << b)))
			continue;
		*p++ = '"';
		p = dput_str(p, demo_bytes_key[b]);
		p = DLIT(p, "\":");
		p = dput_u64(p, in->bytes[b]);
		*p++ = ',';
	}
	if (in->op == OP_DMA_TRIGGER)
		p = DKV_U64(p, "trigger", in->trigger);
	if (in->npred && in->layer >= 0)
		p = put_preds(p, in);
	return p;
}

typedef char *(*grp_fn)(char *, const struct demo_model *,
			const struct demo_inst *);

static const grp_fn layouts[4][4] = {
	{ grp_time, grp_engine, grp_origin, grp_extra },
	{ grp_origin, grp_time, grp_extra, grp_engine },
	{ grp_engine, grp_extra, grp_time, grp_origin },
	{ grp_time, grp_engine, grp_origin, grp_extra },
};

void demo_write_inst(struct dout *o, const struct demo_model *m,
		     const struct demo_inst *in)
{
	const grp_fn *g = layouts[(in->aux >> 54) & 3];
	char *p = dout_rec(o);

	for (int i = 0; i < 4; i++)
		p = g[i](p, m, in);
	dout_done(o, p);
}
