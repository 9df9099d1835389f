#include "config.h"

#include "src/demo/demo_int.h"

#include <math.h>
#include <stdlib.h>

#include "src/demo/demo_summary_keys.h"
#include "model/util.h"

/* summary[0] and its companions summary_groups, summary_group_order and
 * terminology.  Times are seconds and *_percent values are fractions
 * 0..1, as in real exports (FORMATS.md §0.5). */

enum skey {
#define X(k, g, d) SK_##k,
	DEMO_SUMMARY_KEYS(X)
#undef X
	SK_N
};

static const struct {
	const char *key, *group, *desc;
} skeys[SK_N] = {
#define X(k, g, d) { #k, #g, d },
	DEMO_SUMMARY_KEYS(X)
#undef X
};

static const char *const groups[] = {
	"overall_stats", "data_movement", "software_data_movement",
	"hardware_data_movement", "tensor_engine", "vector_engine",
	"scalar_engine", "sync_engine", "gpsimd_engine", "cc_engine",
	"system", "throttling_nc0", "throttling_nc1", "server_upload",
	"summary", "dma_queue",
};

/* DMA queue families described in terminology, as in real exports. */
static const char *const queue_terms[][2] = {
	{ "qsyncio*", "DMA queue where DMAs are triggered by Sync engine. Used for transferring inputs/outputs" },
	{ "qsyncpio0*", "DMA queue where DMAs are triggered by Sync engine. Used for transferring inputs/outputs" },
	{ "qscalarpio*", "DMA queue where DMAs are triggered by Scalar engine. Used for transferring inputs/outputs" },
	{ "qvectorpio*", "DMA queue where DMAs are triggered by Vector engine. Used for transferring inputs/outputs" },
	{ "qgpsimdpio*", "DMA queue where DMAs are triggered by GpSimd engine. Used for transferring inputs/outputs" },
	{ "q*ioparam*", "DMA queue where DMAs are triggered by Sync engine. Used for transferring weights" },
	{ "qsyncspillreload*", "DMA queue where DMAs are triggered by Sync engine. Used for State Buffer spilling and reloading" },
	{ "qscalarspillreload*", "DMA queue where DMAs are triggered by Scalar engine. Used for State Buffer spilling and reloading" },
	{ "qvectorspillreload*", "DMA queue where DMAs are triggered by Vector engine. Used for State Buffer spilling and reloading" },
	{ "qgpsimdspillreload*", "DMA queue where DMAs are triggered by GpSimd engine. Used for State Buffer spilling and reloading" },
};

enum { SV_NONE, SV_INT, SV_FLOAT, SV_STR };

struct sval {
	int kind;
	uint64_t u;
	double f;
	const char *s;
};

struct svals {
	struct sval v[SK_N];
	double t;		/* total_time, s */
};

static void set_u(struct svals *s, int k, uint64_t u)
{
	s->v[k].kind = SV_INT;
	s->v[k].u = u;
}

static void set_f(struct svals *s, int k, double f)
{
	s->v[k].kind = SV_FLOAT;
	s->v[k].f = f;
}

static void set_s(struct svals *s, int k, const char *str)
{
	s->v[k].kind = SV_STR;
	s->v[k].s = str;
}

static double frac(double a, double b)
{
	return b > 0 ? a / b : 0;
}

/* The first of each engine's four keys (active_time, its percent,
 * instruction_count, instruction_time). */
static const int engine_key[ENG_N] = {
	SK_tensor_engine_active_time, SK_vector_engine_active_time,
	SK_scalar_engine_active_time, SK_gpsimd_engine_active_time,
	SK_sync_engine_active_time,
};

static void sum_engines(struct svals *s, const struct demo_stats *st)
{
	for (int e = 0; e < ENG_N; e++) {
		int k = engine_key[e];
		double active = (double)st->sg.active[e] / 1e9;

		set_f(s, k, active);
		set_f(s, k + 1, frac(active, s->t));
		set_u(s, k + 2, st->sg.count[e]);
		set_f(s, k + 3, (double)st->sg.time[e] / 1e9);
	}
	set_f(s, SK_total_active_time, (double)st->busy.total / 1e9);
	set_f(s, SK_total_active_time_percent,
	      frac((double)st->busy.total / 1e9, s->t));
	set_u(s, SK_matmul_instruction_count, st->matmuls);
	set_u(s, SK_activate_instruction_count, st->activates);
	set_f(s, SK_activate_instruction_time, (double)st->activate_ns / 1e9);
}

/* One DMA class: active time from its union, packets and bytes from
 * the per-queue-type sums. */
static void sum_dma_class(struct svals *s, int k, const struct demo_stats *st,
			  int dc, uint64_t pkts, uint64_t bytes)
{
	uint64_t all_pkts = 0, all_bytes = 0;
	double active = (double)st->dma[dc].total / 1e9;

	for (int q = 0; q < QT_N; q++) {
		all_pkts += st->pkt_count[q];
		all_bytes += st->pkt_bytes[q];
	}
	set_f(s, k, active);
	set_f(s, k + 1, frac(active, s->t));
	set_u(s, k + 2, pkts);
	set_f(s, k + 3, frac((double)pkts, (double)all_pkts));
	set_u(s, k + 4, bytes);
	set_f(s, k + 5, frac((double)bytes, (double)all_bytes));
}

static void sum_dma(struct svals *s, const struct demo_stats *st)
{
	uint64_t sp = 0, sb = 0;
	const uint64_t *pc = st->pkt_count, *pb = st->pkt_bytes;
	double active = (double)st->dma[DC_ALL].total / 1e9;

	for (int q = 0; q < QT_N; q++) {
		if (!demo_qtype_dynamic(q)) {
			sp += pc[q];
			sb += pb[q];
		}
	}
	sum_dma_class(s, SK_static_dma_active_time, st, DC_STATIC, sp, sb);
	sum_dma_class(s, SK_software_dynamic_dma_active_time, st, DC_SW,
		      pc[QT_SW_DYNAMIC], pb[QT_SW_DYNAMIC]);
	sum_dma_class(s, SK_hardware_dynamic_dma_active_time, st, DC_HW,
		      pc[QT_HW_DYNAMIC], pb[QT_HW_DYNAMIC]);
	set_f(s, SK_dynamic_dma_active_time_percent,
	      frac((double)st->dma[DC_DYN].total / 1e9, s->t));
	set_f(s, SK_dynamic_dma_packet_percent,
	      1 - s->v[SK_static_dma_packet_percent].f);
	set_f(s, SK_dynamic_dma_size_percent,
	      1 - s->v[SK_static_dma_size_percent].f);
	set_f(s, SK_dma_active_time, active);
	set_f(s, SK_dma_active_time_percent, frac(active, s->t));
	set_u(s, SK_dma_active_cycles, (uint64_t)llround(active * 1.4e9));
	set_f(s, SK_dma_packet_time, (double)st->pkt_ns / 1e9);
	set_u(s, SK_dma_queue_count, demo_stats_dma_queues(st));
	set_u(s, SK_dma_transfer_count, st->xfers);
	set_u(s, SK_dma_transfer_total_bytes, st->xfer_bytes);
	set_f(s, SK_dma_transfer_average_bytes,
	      frac((double)st->xfer_bytes, (double)st->xfers));
	set_f(s, SK_dma_transfer_time, (double)st->xfer_ns / 1e9);
}

static void sum_bytes(struct svals *s, const struct demo_stats *st,
		      const struct demo_totals *t)
{
	static const int bytes_key[B_N] = {
		SK_hbm_read_bytes, SK_hbm_write_bytes, SK_sbuf_read_bytes,
		SK_sbuf_write_bytes, SK_psum_read_bytes, SK_psum_write_bytes,
		SK_psum_read_sbuf_write_bytes, SK_spill_save_bytes,
		SK_spill_reload_bytes, SK_weight_queue_bytes,
		SK_input_queue_bytes, SK_output_queue_bytes,
	};

	for (int b = 0; b < B_N; b++)
		set_u(s, bytes_key[b], st->bytes[b]);
	set_u(s, SK_psum_read_sbuf_write_count, st->psum_rsw_count);
	set_u(s, SK_weight_size_bytes, t->weight_bytes);
	set_u(s, SK_inputs_and_weights_size_bytes,
	      t->weight_bytes + t->input_bytes);
	set_u(s, SK_inputs_outputs_weights_size_bytes,
	      t->weight_bytes + t->input_bytes + t->output_bytes);
}

/* FLOPs against the 91.75 TFLOP/s peak and HBM bytes against 410 GB/s. */
static void sum_flops(struct svals *s, const struct demo_stats *st)
{
	double model = (double)st->sg.model_flops, hw = (double)st->sg.flops;
	double peak = s->t * DEMO_PEAK_FLOPS;
	double hbm = (double)(st->bytes[B_HBM_READ] + st->bytes[B_HBM_WRITE]);
	double ridge = DEMO_PEAK_FLOPS / DEMO_HBM_BW;
	double ai = frac(model, hbm);
	double roof = NX_MIN(1.0, ai / ridge);

	set_u(s, SK_model_flops, st->sg.model_flops);
	set_u(s, SK_hardware_flops, st->sg.flops);
	set_u(s, SK_transpose_flops, st->transpose_flops);
	set_f(s, SK_mfu_estimated_percent, frac(model, peak));
	set_f(s, SK_hfu_estimated_percent, frac(hw, peak));
	set_f(s, SK_mfu_hlo_estimated_percent, frac(model, peak));
	set_f(s, SK_mfu_inst_estimated_percent, frac(model, peak));
	set_f(s, SK_mfu_max_achievable_estimated_percent, roof);
	set_f(s, SK_mfu_hlo_max_achievable_estimated_percent, roof);
	set_f(s, SK_mfu_inst_max_achievable_estimated_percent, roof);
	set_f(s, SK_mbu_estimated_percent, frac(hbm, s->t * DEMO_HBM_BW));
	set_f(s, SK_mbu_min_read_util_percent,
	      frac((double)st->bytes[B_HBM_READ], s->t * DEMO_HBM_BW));
	set_f(s, SK_mm_arithmetic_intensity, ai);
	set_f(s, SK_peak_flops_bandwidth_ratio, ridge);
}

static void sum_system(struct svals *s, const struct demo_model *m)
{
	set_s(s, SK_instance_type, "trn1.32xlarge");
	set_s(s, SK_profiler_version, "2.27.33.0%kaena-tools/2.27@5d9c0b9");
	set_s(s, SK_runtime_version, "2.29.40 (f954c)");
	set_s(s, SK_compiler_version, "2.22.12471.0+b4a00d10");
	set_s(s, SK_driver_version, "2.25.4.0");
	set_s(s, SK_collectives_version, "2.29.41.0-681fef5f5");
	set_u(s, SK_nc_idx, (uint64_t)m->nc_idx);
	set_u(s, SK_nd_idx, 0);
	/* No collectives in a single-core model. */
	for (int k = SK_cc_op_count;
	     k <= SK_cc_cores_instruction_active_time_percent; k++)
		set_u(s, k, 0);
}

/* Throttling figures from the same samples the ham section writes. */
static void sum_throttle(struct svals *s, const struct demo_model *m,
			 uint64_t last_hw)
{
	struct demo_ham h;
	struct demo_ham_row r;
	double dur[2] = { 0, 0 }, lim[2] = { 0, 0 };

	demo_ham_init(&h, m, last_hw);
	while (demo_ham_next(&h, &r)) {
		int u = r.type != 0;

		dur[u] += (double)r.dur;
		lim[u] += (double)r.dur * r.k / r.n;
	}
	set_u(s, SK_throttle_active_nc0_time_ns, (uint64_t)(dur[0] + dur[1]));
	set_f(s, SK_throttle_avg_util_limit_nc0_percent,
	      frac(lim[0] + lim[1], dur[0] + dur[1]));
	set_f(s, SK_throttle_activity_0_active_time_nc0_percent,
	      frac(dur[0], s->t * 1e9));
	set_f(s, SK_throttle_activity_0_avg_util_limit_nc0_percent,
	      frac(lim[0], dur[0]));
	set_f(s, SK_throttle_unknown_active_time_nc0_percent,
	      frac(dur[1], s->t * 1e9));
	set_f(s, SK_throttle_unknown_avg_util_limit_nc0_percent,
	      frac(lim[1], dur[1]));
}

static char *put_sval(char *p, const struct sval *v)
{
	switch (v->kind) {
	case SV_INT:
		return dput_u64(p, v->u);
	case SV_FLOAT:
		return dput_dbl(p, v->f);
	default:
		*p++ = '"';
		p = dput_str(p, v->s);
		*p++ = '"';
		return p;
	}
}

/* Key order is shuffled per seed, as real exports do not keep one. */
static void write_summary(struct dout *o, const struct svals *s,
			  uint64_t seed)
{
	int order[SK_N];
	struct demo_rng r;
	char *p;

	for (int i = 0; i < SK_N; i++)
		order[i] = i;
	demo_rng_seed(&r, seed ^ 0x73756d6dULL);
	for (int i = SK_N - 1; i > 0; i--) {
		int j = (int)demo_rng_range(&r, 0, (uint32_t)i), tmp = order[i];

		order[i] = order[j];
		order[j] = tmp;
	}
	dout_array_begin(o, "summary");
	p = dout_rec(o);
	for (int i = 0; i < SK_N; i++) {
		*p++ = '"';
		p = dput_str(p, skeys[order[i]].key);
		p = DLIT(p, "\":");
		p = put_sval(p, &s->v[order[i]]);
		*p++ = ',';
	}
	dout_done(o, p);
	dout_array_end(o);
}

static struct svals *summary_values(const struct demo_model *m,
				    const struct demo_stats *st,
				    const struct demo_totals *t)
{
	struct svals *s = xcalloc(1, sizeof(*s));

	s->t = t->total_s;
	set_f(s, SK_total_time, t->total_s);
	set_u(s, SK_event_count, t->event_count);
	set_u(s, SK_trace_count, t->trace_count);
	set_u(s, SK_neuroncore_cycle_count,
	      (uint64_t)llround(t->total_s * 1.4e9));
	sum_engines(s, st);
	sum_dma(s, st);
	sum_bytes(s, st, t);
	sum_flops(s, st);
	sum_system(s, m);
	sum_throttle(s, m, t->last_hw);
	return s;
}

void demo_sec_summary(struct dout *o, const struct demo_model *m,
		      const struct demo_stats *st,
		      const struct demo_totals *t)
{
	struct svals *s = summary_values(m, st, t);

	write_summary(o, s, m->seed);
	free(s);
}

void demo_summary_each(const struct demo_model *m,
		       const struct demo_stats *st,
		       const struct demo_totals *t, demo_sval_fn fn,
		       void *ctx)
{
	struct svals *s = summary_values(m, st, t);

	for (int i = 0; i < SK_N; i++) {
		const struct sval *v = &s->v[i];
		struct demo_sval out = { skeys[i].key, skeys[i].desc,
					 v->kind == SV_INT ? 'i' :
					 v->kind == SV_FLOAT ? 'f' : 's',
					 v->u, v->f, v->s };

		fn(ctx, &out);
	}
	free(s);
}

void demo_sec_summary_groups(struct dout *o)
{
	char *p;

	dout_array_begin(o, "summary_groups");
	p = dout_rec(o);
	for (int i = 0; i < SK_N; i++) {
		*p++ = '"';
		p = dput_str(p, skeys[i].key);
		p = DLIT(p, "\":\"");
		p = dput_str(p, skeys[i].group);
		p = DLIT(p, "\",");
	}
	dout_done(o, p);
	dout_array_end(o);
}

void demo_sec_summary_group_order(struct dout *o)
{
	char *p;

	dout_array_begin(o, "summary_group_order");
	p = dout_rec(o);
	for (size_t i = 0; i < NX_ARRAY_SIZE(groups); i++) {
		*p++ = '"';
		p = dput_str(p, groups[i]);
		p = DLIT(p, "\":");
		p = dput_u64(p, i);
		*p++ = ',';
	}
	dout_done(o, p);
	dout_array_end(o);
}

void demo_sec_terminology(struct dout *o)
{
	char *p;

	dout_array_begin(o, "terminology");
	p = dout_rec(o);
	for (int i = 0; i < SK_N; i++) {
		*p++ = '"';
		p = dput_str(p, skeys[i].key);
		p = DLIT(p, "\":\"");
		p = dput_str(p, skeys[i].desc);
		p = DLIT(p, "\",");
	}
	for (size_t i = 0; i < NX_ARRAY_SIZE(queue_terms); i++) {
		*p++ = '"';
		p = dput_str(p, queue_terms[i][0]);
		p = DLIT(p, "\":\"");
		p = dput_str(p, queue_terms[i][1]);
		p = DLIT(p, "\",");
	}
	dout_done(o, p);
	dout_array_end(o);
}
