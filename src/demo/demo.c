#include "config.h"

#include "src/demo/demo.h"

#include "src/demo/demo_int.h"

void demo_opts_init(struct demo_opts *o)
{
	o->events = 200000;
	o->seed = 1;
	o->nc_idx = 0;
	o->model_name = "bert-large";
}

/* The instruction section is the first replay: records go out while
 * the statistics behind summary, layer_summary and model_info come in. */
struct first_pass {
	struct dout *o;
	const struct demo_model *m;
	struct demo_stats *st;
};

static void first_inst(void *ctx, const struct demo_inst *in)
{
	struct first_pass *c = ctx;

	demo_write_inst(c->o, c->m, in);
	demo_stats_inst(c->st, in);
}

static void first_xfer(void *ctx, const struct demo_xfer *x)
{
	struct first_pass *c = ctx;

	demo_stats_xfer(c->st, x);
}

static void first_sem(void *ctx, int sem, uint32_t value, uint64_t ts)
{
	struct first_pass *c = ctx;

	(void)sem;
	(void)value;
	(void)ts;
	c->st->sem_rows++;
}

static void first_seg_end(void *ctx)
{
	struct first_pass *c = ctx;

	demo_stats_seg_end(c->st);
}

static void sec_instruction(struct dout *o, const struct demo_model *m,
			    struct demo_stats *st)
{
	struct first_pass c = { o, m, st };
	struct demo_sink s = { first_inst, first_xfer, first_sem,
			       first_seg_end, &c };

	dout_array_begin(o, "instruction");
	demo_gen_run(m, &s);
	dout_array_end(o);
	demo_stats_finish(st);
}

struct dma_pass {
	struct dout *o;
	const struct demo_model *m;
};

static void dma_xfer(void *ctx, const struct demo_xfer *x)
{
	struct dma_pass *c = ctx;

	demo_write_xfer(c->o, c->m, x);
}

static void sec_dma(struct dout *o, const struct demo_model *m)
{
	struct dma_pass c = { o, m };
	struct demo_sink s = { .xfer = dma_xfer, .ctx = &c };

	dout_array_begin(o, "dma");
	demo_gen_run(m, &s);
	dout_array_end(o);
}

/* Sections that replay the timeline once more; skipped after a write
 * error. */
static void sec_replays(struct dout *o, const struct demo_model *m,
			const struct demo_stats *st,
			const struct demo_totals *t)
{
	struct demo_counters *c;

	sec_dma(o, m);
	demo_sec_summary(o, m, st, t);
	if (o->err)
		return;
	demo_sec_active_time(o, m);
	demo_sec_semaphore_update(o, m);
	demo_sec_model_info(o, m, st, t);
	c = demo_counters_run(m, t->last_hw);
	demo_sec_dma_throughput(o, c);
	demo_sec_nc_mem_usage(o, m);
	demo_sec_pending_dma(o, c);
	demo_sec_instruction_usage(o, c);
	demo_counters_free(c);
}

/* Keys are deliberately not in the natural order: real files keep
 * none, and the summaries come after the events they sum up. */
int demo_write_device_len(FILE *out, const struct demo_opts *opts,
			  int64_t *len_ns)
{
	struct demo_model m;
	struct demo_stats st;
	struct demo_totals t;
	struct dout o;

	demo_model_build(&m, opts);
	demo_stats_init(&st, &m);
	dout_init(&o, out);
	demo_sec_profile_info(&o, &m);
	demo_sec_neff_header(&o, &m);
	demo_sec_warnings(&o);
	demo_sec_dma_queues_info(&o);
	sec_instruction(&o, &m, &st);
	demo_totals(&t, &m, &st);
	demo_sec_metadata(&o, &t);
	demo_sec_layer_summary(&o, &m, &st);
	demo_sec_neff_node(&o, &m, &st);
	if (!o.err)
		sec_replays(&o, &m, &st, &t);
	demo_sec_terminology(&o);
	demo_sec_summary_groups(&o);
	demo_sec_summary_group_order(&o);
	demo_sec_ham(&o, &m, t.last_hw);
	if (len_ns)
		*len_ns = (int64_t)t.last_hw;
	demo_stats_free(&st);
	demo_model_free(&m);
	return dout_finish(&o);
}
