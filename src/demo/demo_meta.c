#include "config.h"

#include "src/demo/demo_int.h"

#include <string.h>

#include "model/util.h"

/* The small descriptive sections: profile_info, neff_header, neff_node,
 * nc_mem_usage, warnings (FORMATS.md §1.2). */

#define PROFILER_VERSION "2.27.33.0%kaena-tools/2.27@5d9c0b9"

void demo_sec_profile_info(struct dout *o, const struct demo_model *m)
{
	char *p;

	dout_array_begin(o, "profile_info");
	p = dout_rec(o);
	p = DKV_RAW(p, "cc_only", "false");
	p = DKV_RAW(p, "profile_type", "\"normal\"");
	p = DKV_RAW(p, "profiler_version", "\"" PROFILER_VERSION "\"");
	p = DKV_RAW(p, "profiler_build_time", "\"2025-12-15T22:27:26Z\"");
	p = DKV_STR(p, "profile_name", m->neff);
	p = DKV_STR(p, "neff_name", m->neff);
	p = DKV_STR(p, "ntff_filename", m->ntff);
	dout_done(o, p);
	dout_array_end(o);
}

static uint64_t vars_size(const struct demo_model *m, int type)
{
	uint64_t n = 0;

	for (int i = 0; i < m->nvars; i++)
		if (m->var[i].type == type)
			n += m->var[i].size;
	return n;
}

/* Every value is a string here, numbers included. */
void demo_neff_header(const struct demo_model *m,
		      const char *kv[DEMO_NEFF_KEYS][2], char num[24])
{
	uint64_t data = vars_size(m, V_WEIGHT) + (1u << 20);
	const char *v[DEMO_NEFF_KEYS][2] = {
		{ "data_size", num },
		{ "number_of_logical_neuroncores", "1" },
		{ "number_of_neuroncores_per_lnc", "1" },
		{ "header_size", "1024" }, { "major_version", "2" },
		{ "hash", m->hash }, { "network_name", m->neff },
		{ "package_version", "2" }, { "minor_version", "0" },
		{ "build_version", "" }, { "uuid", m->uuid },
		{ "enabled_features", "dge, dge-cast" },
	};

	*dput_u64(num, data - data % 1024) = 0;
	memcpy(kv, v, sizeof(v));
}

void demo_sec_neff_header(struct dout *o, const struct demo_model *m)
{
	const char *kv[DEMO_NEFF_KEYS][2];
	char num[24], *p;

	demo_neff_header(m, kv, num);
	dout_array_begin(o, "neff_header");
	p = dout_rec(o);
	for (int i = 0; i < DEMO_NEFF_KEYS; i++) {
		*p++ = '"';
		p = dput_str(p, kv[i][0]);
		p = DLIT(p, "\":\"");
		p = dput_str(p, kv[i][1]);
		p = DLIT(p, "\",");
	}
	dout_done(o, p);
	dout_array_end(o);
}

const char *const demo_vtype_name[] = { "IN", "OUT", "WEIGHT", "" };
const char *const demo_vtype_format[] = { "NC", "NC", "CRSM", "" };

void demo_var_loads(const struct demo_var *v, uint64_t bytes,
		    uint64_t xfers, struct demo_loads *l)
{
	l->count = xfers;
	l->repeat = bytes ? NX_MAX(1, (bytes + v->size / 2) / v->size) : 0;
	l->total = bytes;
	l->avg = xfers ? bytes / xfers : 0;
}

/* How a weight was loaded into SBUF, from the DMA seen for it. */
static char *put_loads(char *p, const struct demo_var *v, uint64_t bytes,
		       uint64_t xfers)
{
	struct demo_loads l;

	demo_var_loads(v, bytes, xfers, &l);
	p = DKV_U64(p, "load_to_sbuf_dma_count", l.count);
	p = DKV_U64(p, "load_to_sbuf_repeat_factor", l.repeat);
	p = DKV_U64(p, "load_to_sbuf_total_size_bytes", l.total);
	return DKV_U64(p, "load_to_sbuf_avg_size_bytes", l.avg);
}

void demo_sec_neff_node(struct dout *o, const struct demo_model *m,
			const struct demo_stats *st)
{
	dout_array_begin(o, "neff_node");
	for (int i = 0; i < m->nvars; i++) {
		const struct demo_var *v = &m->var[i];
		char *p = dout_rec(o);

		if (v->type == V_WEIGHT)
			p = put_loads(p, v, st->var_bytes[i], st->var_xfers[i]);
		p = DKV_STR(p, "variable_name", v->name);
		p = DKV_STR(p, "type", demo_vtype_name[v->type]);
		p = DKV_STR(p, "format", demo_vtype_format[v->type]);
		p = DLIT(p, "\"shape\":\"[");
		p = dput_u64(p, v->rows);
		*p++ = ' ';
		p = dput_u64(p, v->cols);
		p = DLIT(p, "]\",\"size\":\"");
		p = dput_u64(p, v->size);
		p = DLIT(p, "\",");
		p = DKV_STR(p, "sg_name", v->type == V_SPILL ? "sg00" : "");
		if (v->type == V_SPILL)
			p = DKV_STR(p, "node", m->layer[v->layer].name);
		dout_done(o, p);
	}
	dout_array_end(o);
}

struct mem_rows {
	struct dout *o;
	const struct demo_model *m;
};

static void mem_row(void *ctx, const char *type, uint64_t bytes)
{
	struct mem_rows *r = ctx;
	char *p = dout_rec(r->o);

	p = DKV_RAW(p, "nd", "0");
	p = DKV_U64(p, "nc", (uint64_t)r->m->nc_idx);
	p = DKV_STR(p, "usage_type", type);
	p = DKV_U64(p, "amount_bytes", bytes);
	dout_done(r->o, p);
}

/* Device memory by use; instruction streams are 64 B per instruction
 * of the program (one loop body per layer). */
void demo_mem_each(const struct demo_model *m, demo_mem_fn fn, void *ctx)
{
	static const char *const eng_type[ENG_N] = {
		"Tensor Instructions", "Vector Instructions",
		"Scalar Instructions", "GpSimd Instructions",
		"Sync Instructions",
	};
	static const struct { const char *type; uint64_t bytes; } fixed[] = {
		{ "Generic", 4096 }, { "Profiler Buffers", 33554432 },
		{ "Scalar Table", 262144 }, { "Shared Scratchpad", 0 },
		{ "Tensors", 0 }, { "Ucode lib", 1048576 },
		{ "GpSimd STDIO", 65536 }, { "Collectives", 0 },
		{ "Scratchpad", 16777216 }, { "XT CC (unused)", 0 },
		{ "DMA Rings Runtime", 131072 }, { "DMA Rings Spill", 65536 },
		{ "DMA Rings IO", 65536 }, { "DMA Rings Collectives", 0 },
	};
	uint64_t total = 0, prog = (uint64_t)m->nlayers * 24 * 64;
	uint64_t io = vars_size(m, V_IN) + vars_size(m, V_OUT);

	for (int e = 0; e < ENG_N; e++) {
		fn(ctx, eng_type[e], prog / (e == ENG_TENSOR ? 1 : 2));
		total += prog / (e == ENG_TENSOR ? 1 : 2);
	}
	fn(ctx, "IO", io);
	fn(ctx, "DRAM Spill", vars_size(m, V_SPILL));
	fn(ctx, "Weights", vars_size(m, V_WEIGHT));
	total += io + vars_size(m, V_SPILL) + vars_size(m, V_WEIGHT);
	for (size_t i = 0; i < NX_ARRAY_SIZE(fixed); i++) {
		fn(ctx, fixed[i].type, fixed[i].bytes);
		total += fixed[i].bytes;
	}
	fn(ctx, "Total", total);
}

void demo_sec_nc_mem_usage(struct dout *o, const struct demo_model *m)
{
	struct mem_rows r = { o, m };

	dout_array_begin(o, "nc_mem_usage");
	demo_mem_each(m, mem_row, &r);
	dout_array_end(o);
}

/* The run's warnings: category, message. */
const char *const demo_warnings[2][2] = {
	{ "Missing Data",
	  "Missing additional dynamic DMA metadata, reported DMA values "
	  "may be inaccurate. Try capturing the profile with "
	  "--enable-dge-notifs or NEURON_RT_ENABLE_DGE_NOTIFICATIONS=1 "
	  "env flag." },
	{ "Performance",
	  "Hardware throttling was active during the execution; "
	  "engine timings include throttled periods. See the "
	  "Throttling track for details." },
};

void demo_sec_warnings(struct dout *o)
{
	dout_array_begin(o, "warnings");
	for (size_t i = 0; i < NX_ARRAY_SIZE(demo_warnings); i++) {
		char *p = dout_rec(o);

		p = DKV_STR(p, "category", demo_warnings[i][0]);
		p = DKV_STR(p, "message", demo_warnings[i][1]);
		dout_done(o, p);
	}
	dout_array_end(o);
}
