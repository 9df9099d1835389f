#include "config.h"

#include "src/demo/demo_int.h"

#include <math.h>

/* metadata, model_info and layer_summary: written after the instruction
 * section, from the figures gathered while it streamed out. */

/* "1970-01-01T00:00:00.00187386Z" for 1873860 ns since the epoch. */
static char *put_iso(char *p, uint64_t ns)
{
	uint64_t s = ns / 1000000000, frac = ns % 1000000000;
	char digits[10];
	int n = 9;

	p = DLIT(p, "\"1970-01-01T");
	*p++ = (char)('0' + s / 36000 % 10);
	*p++ = (char)('0' + s / 3600 % 10);
	*p++ = ':';
	*p++ = (char)('0' + s / 600 % 6);
	*p++ = (char)('0' + s / 60 % 10);
	*p++ = ':';
	*p++ = (char)('0' + s / 10 % 6);
	*p++ = (char)('0' + s % 10);
	if (frac) {
		for (int i = 8; i >= 0; i--, frac /= 10)
			digits[i] = (char)('0' + frac % 10);
		while (digits[n - 1] == '0')
			n--;
		*p++ = '.';
		p = dput_mem(p, digits, (size_t)n);
	}
	return DLIT(p, "Z\",");
}

void demo_sec_metadata(struct dout *o, const struct demo_totals *t)
{
	char *p;

	dout_array_begin(o, "metadata");
	p = dout_rec(o);
	p = DLIT(p, "\"pe_num_rows\":128,\"pe_clock_freq\":2.8,"
		    "\"dma_ddr_bandwidth\":435000000000,"
		    "\"num_physical_cores\":1,\"data_version\":8,"
		    "\"ntff_version\":5,");
	p = DKV_U64(p, "total_point_count", t->trace_count);
	p = DLIT(p, "\"pe_num_cols\":128,\"first_hw_timestamp\":0,"
		    "\"is_ext\":true,\"vnc_enabled\":false,"
		    "\"pe_clock_others\":1.4,"
		    "\"hbm_ddr_bandwidth\":410000000000,");
	p = DKV_U64(p, "last_hw_timestamp", t->last_hw);
	p = DLIT(p, "\"is_simulation\":false,\"ticks_per_nanosec\":1000,");
	p = DKEY(p, "last_ts");
	p = put_iso(p, t->last_hw);
	p = DLIT(p, "\"num_subgraphs\":1,\"first_ts\":\"1970-01-01T00:00:00Z\",");
	dout_done(o, p);
	dout_array_end(o);
}

void demo_sec_model_info(struct dout *o, const struct demo_model *m,
			 const struct demo_stats *st,
			 const struct demo_totals *t)
{
	const uint64_t *n = st->sg.count;
	char *p;

	dout_array_begin(o, "model_info");
	p = dout_rec(o);
	p = DKV_RAW(p, "nd_idx", "0");
	p = DKV_U64(p, "trace_count", t->trace_count);
	p = DKV_U64(p, "gpsimd_engine_instruction_count", n[ENG_GPSIMD]);
	p = DKV_U64(p, "nc_idx", (uint64_t)m->nc_idx);
	p = DKV_U64(p, "vector_engine_instruction_count", n[ENG_VECTOR]);
	p = DKV_U64(p, "sync_engine_instruction_count", n[ENG_SYNC]);
	p = DKV_U64(p, "dma_queue_count", demo_stats_dma_queues(st));
	p = DKV_U64(p, "tensor_engine_instruction_count", n[ENG_TENSOR]);
	p = DKV_U64(p, "scalar_engine_instruction_count", n[ENG_SCALAR]);
	p = DKV_RAW(p, "sg_name", "\"sg00\"");
	/* Cycles of the 1.4 GHz engine clock over the trace. */
	p = DKV_U64(p, "neuroncore_cycle_count",
		    (uint64_t)llround((double)t->last_hw * 1.4));
	p = DKV_U64(p, "event_count", t->event_count);
	dout_done(o, p);
	dout_array_end(o);
}

/* "<e>_engine_<what>" for every engine, in the real files' spelling. */
static char *put_engine(char *p, const struct demo_lstat *l, int e,
			double dur)
{
	static const char *const what[] = {
		"_engine_instruction_count\":", "_engine_instruction_time\":",
		"_engine_active_time\":", "_engine_active_percent\":",
	};
	uint64_t v[3] = { l->count[e], l->time[e], l->active[e] };

	for (int i = 0; i < 4; i++) {
		*p++ = '"';
		p = dput_str(p, demo_eng_lower[e]);
		p = dput_str(p, what[i]);
		p = i < 3 ? dput_u64(p, v[i])
			  : dput_dbl(p, dur > 0 ? (double)l->active[e] / dur : 0);
		*p++ = ',';
	}
	return p;
}

static void layer_row(struct dout *o, const char *name,
		      const struct demo_lstat *l)
{
	uint64_t dur = l->end - l->start;
	double peak_ops = (double)dur * 1e-9 * DEMO_PEAK_FLOPS;
	char *p = dout_rec(o);

	p = DLIT(p, "\"name\":\"/sg00");
	if (name) {
		*p++ = '/';
		p = dput_str(p, name);
	}
	p = DLIT(p, "\",");
	for (int e = 0; e < ENG_N; e++)
		p = put_engine(p, l, (e + 2) % ENG_N, (double)dur);
	p = DKV_U64(p, "end", l->end);
	p = DKV_RAW(p, "fully_qualified_subgraph", "\"/sg00\"");
	p = DKV_U64(p, "start", l->start);
	p = DKV_U64(p, "tensor_engine_flop_count", l->flops);
	p = DKV_U64(p, "duration", dur);
	p = DKV_U64(p, "tensor_engine_model_flop_count", l->model_flops);
	p = DKV_DBL(p, "tensor_engine_mfu",
		    peak_ops > 0 ? (double)l->model_flops / peak_ops : 0);
	p = DKV_DBL(p, "tensor_engine_hfu",
		    peak_ops > 0 ? (double)l->flops / peak_ops : 0);
	dout_done(o, p);
}

/* The whole subgraph first, then one row per layer. */
void demo_sec_layer_summary(struct dout *o, const struct demo_model *m,
			    const struct demo_stats *st)
{
	dout_array_begin(o, "layer_summary");
	layer_row(o, NULL, &st->sg);
	for (int i = 0; i < m->nlayers; i++)
		if (st->layer[i].end)
			layer_row(o, m->layer[i].name, &st->layer[i]);
	dout_array_end(o);
}
