#include "config.h"

#include "src/demo/demo_system.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/util.h"

/* 2024-10-25 20:32:51 UTC, in ns: the demo's first iteration. */
#define BASE_NS INT64_C(1729888371000000000)
#define ITER_MIN_NS INT64_C(2000000)	/* one loop iteration, at least */
#define SAMPLE_NS INT64_C(100000000)	/* CPU and memory sampling */
#define DEMO_CPUS 8			/* host CPUs shown per instance */

struct gen {
	const struct demo_sys_sink *s;
	const struct demo_system *d;
	uint64_t rng;
	int64_t iters, end_ns;
	int64_t iter_ns;	/* one loop iteration */
};

static uint64_t rnd(struct gen *g)
{
	/* xorshift64*: reproducible for a given seed */
	g->rng ^= g->rng >> 12;
	g->rng ^= g->rng << 25;
	g->rng ^= g->rng >> 27;
	return g->rng * 0x2545f4914f6cdd1dull;
}

/* Uniform in [lo, hi]. */
static int64_t between(struct gen *g, int64_t lo, int64_t hi)
{
	return lo + (int64_t)(rnd(g) % (uint64_t)(hi - lo + 1));
}

/* A table begins (for sinks that want to know). */
static void table(struct gen *g, const char *name)
{
	if (g->s->table)
		g->s->table(g->s->ctx, name);
}

static const char *instance(int i, char *buf, size_t n)
{
	snprintf(buf, n, "i-0a1b2c3d4e5f6a7b%x", i);
	return buf;
}

/* Instance i's process. */
static int process(int i)
{
	return 2000 + i * 100;
}

/* The first NeuronCore that runs model m. */
static int first_core(const struct demo_system *d, int m)
{
	return (m * d->cores + d->nmodels - 1) / d->nmodels;
}

char *demo_device_name(const struct demo_system *d, int m)
{
	char inst[32];

	return xasprintf("%s_pid_%d_nc_%d_model_%s",
			 instance(0, inst, sizeof(inst)), process(0),
			 first_core(d, m), d->models[m].id);
}

/* The fields every runtime and hardware event of a NeuronCore carries. */
struct core {
	char inst[32];
	int pid, tid, lnc, gid;
	const struct demo_model *m;
	char *device;		/* its device profile's name, or NULL */
	uint64_t next_id;
	int64_t free_at;	/* a thread runs one call at a time */
};

static void event(struct gen *g, const struct core *c, const char *src,
		  const char *name, int64_t ts, int64_t dur, uint64_t id,
		  uint64_t parent, const char *extra)
{
	struct demo_sys_event e = {
		.name = name, .src = src, .inst = c->inst, .extra = extra,
		.ts = ts, .dur = dur, .id = id, .parent = parent,
		.pid = c->pid, .tid = c->tid, .lnc = c->lnc, .gid = c->gid,
	};

	g->s->event(g->s->ctx, &e);
}

/* One iteration on one NeuronCore: copy inputs in, execute, copy
 * outputs out. Every 97th execution is slow, something to find. */
static void iteration(struct gen *g, struct core *c, int64_t it)
{
	int64_t t = NX_MAX(BASE_NS + it * g->iter_ns, c->free_at) +
		    between(g, 0, 40000);
	int64_t jitter = c->m->exec_ns / 20 + 1;
	int64_t exec = NX_MAX(c->m->exec_ns + between(g, -jitter, jitter), 1000);
	uint64_t id = c->next_id;
	char model[512];
	int64_t wr = between(g, 20000, 35000);

	c->next_id += DEMO_SYS_EVENTS_PER_ITER;
	if (it % 97 == 41)
		exec *= 3;
	event(g, c, "neuron_rt", "nrt_tensor_write", t, wr, id, 0,
	      ", \"size\": \"4194304\", \"tensor_name\": \"input0\"");
	event(g, c, "neuron_rt", "dmem_buf_copyin", t + 3000, wr - 6000,
	      id + 1, id, NULL);
	t += wr + between(g, 5000, 15000);
	snprintf(model, sizeof(model), ", \"model_name\": \"%s\","
		 " \"model_id\": \"%s\"%s%s%s", c->m->neff, c->m->id,
		 c->device ? ", \"device_profile\": \"" : "",
		 c->device ? c->device : "", c->device ? ".json\"" : "");
	event(g, c, "neuron_rt", "nrt_execute", t, exec + 150000, id + 2, 0,
	      model);
	event(g, c, "neuron_rt", "kbl_exec_pre", t + 5000, 40000, id + 3,
	      id + 2, NULL);
	event(g, c, "neuron_rt", "kbl_exec_wait", t + 60000, exec + 20000,
	      id + 4, id + 2, NULL);
	snprintf(model, sizeof(model), ", \"model_name\": \"%s\","
		 " \"exec_id\": %" PRId64 ", \"device_core_idx\": %d",
		 c->m->neff, it + 1, c->lnc);
	event(g, c, "neuron_hw", "nc_exec_running", t + 70000, exec, id + 5,
	      id + 2, model);
	event(g, c, "neuron_rt", "kbl_exec_post", t + exec + 110000, 30000,
	      id + 6, id + 2, NULL);
	t += exec + 150000 + between(g, 5000, 15000);
	event(g, c, "neuron_rt", "nrt_tensor_read", t, wr, id + 7, 0,
	      ", \"size\": \"1048576\", \"tensor_name\": \"output0\"");
	event(g, c, "neuron_rt", "dmem_buf_copyout", t + 3000, wr - 6000,
	      id + 8, id + 7, NULL);
	c->free_at = t + wr;
}

static void core_init(struct gen *g, struct core *c, int inst, int nc)
{
	const struct demo_system *d = g->d;

	int m = nc * d->nmodels / d->cores;

	instance(inst, c->inst, sizeof(c->inst));
	c->pid = process(inst);
	c->tid = c->pid + 7 + nc;
	c->lnc = nc;
	c->gid = 32 + inst * d->cores + nc;
	c->m = &d->models[m];
	/* one NeuronCore per model was profiled; the others run unseen */
	if (c->m->profiled && !inst && nc == first_core(d, m))
		c->device = demo_device_name(d, m);
	c->next_id = ((uint64_t)(inst * d->cores + nc) + 1) << 40;
}

static void trace_events(struct gen *g)
{
	const struct demo_system *d = g->d;
	int ncores = d->instances * d->cores;
	struct core *cores = xcalloc((size_t)ncores, sizeof(*cores));

	table(g, "trace_event");
	for (int i = 0; i < ncores; i++)
		core_init(g, &cores[i], i / d->cores, i % d->cores);
	for (int64_t it = 0; it < g->iters; it++) {
		for (int i = 0; i < d->instances; i++) {
			const struct core *c = &cores[i * d->cores];
			char extra[64];
			/* the framework step that drives the iteration */
			struct demo_sys_event e = {
				.name = "PjitFunction(train_step)",
				.src = "framework", .inst = c->inst,
				.extra = extra,
				.ts = BASE_NS + it * g->iter_ns - 20000,
				.dur = g->iter_ns - 10000,
				.pid = c->pid, .tid = c->pid + 1, .lnc = -1,
			};

			snprintf(extra, sizeof(extra), ", \"step\": %" PRId64, it);
			g->s->event(g->s->ctx, &e);
		}
		for (int i = 0; i < ncores; i++)
			iteration(g, &cores[i], it);
	}
	for (int i = 0; i < ncores; i++)
		free(cores[i].device);
	free(cores);
}

static void samples(struct gen *g)
{
	const struct demo_system *d = g->d;
	char inst[32], cpu[16];

	table(g, "cpu_util");
	for (int64_t t = BASE_NS; t <= g->end_ns; t += SAMPLE_NS) {
		for (int i = 0; i < d->instances; i++) {
			double sum = 0;

			instance(i, inst, sizeof(inst));
			for (int c = 0; c < DEMO_CPUS; c++) {
				double u = (double)between(g, 50, 950) / 10 *
					   (c < 2 ? 1 : 0.3);

				sum += u;
				snprintf(cpu, sizeof(cpu), "%d", c);
				g->s->cpu(g->s->ctx, cpu, inst, t, u);
			}
			g->s->cpu(g->s->ctx, "average", inst, t, sum / DEMO_CPUS);
		}
	}
	table(g, "mem_usage");
	for (int64_t t = BASE_NS; t <= g->end_ns; t += SAMPLE_NS) {
		for (int i = 0; i < d->instances; i++) {
			int64_t used = INT64_C(51805806592) +
				       between(g, 0, 1 << 28);

			instance(i, inst, sizeof(inst));
			g->s->mem(g->s->ctx, inst, t,
				  100.0 * (double)used / 532575944704.0, used);
		}
	}
	table(g, "device_mem_usage");
	for (int64_t t = BASE_NS; t <= g->end_ns; t += SAMPLE_NS) {
		for (int i = 0; i < d->instances; i++) {
			instance(i, inst, sizeof(inst));
			for (int h = 0; h < 2; h++)
				g->s->hbm(g->s->ctx, inst, h, t,
					  INT64_C(3221225472) +
					  between(g, 0, 1 << 24));
		}
	}
}

static void device_list(struct gen *g)
{
	const struct demo_system *d = g->d;
	char inst[32];

	table(g, "device_profile_list");
	for (int m = 0; m < d->nmodels; m++) {
		char *name;

		if (!d->models[m].profiled)
			continue;
		name = demo_device_name(d, m);
		g->s->device(g->s->ctx, first_core(d, m), name,
			     instance(0, inst, sizeof(inst)), process(0),
			     d->models[m].id);
		free(name);
	}
}

int demo_system_run(const struct demo_system *d,
		    const struct demo_sys_sink *s)
{
	struct gen g = { .s = s, .d = d, .rng = d->seed | 1 };

	if (d->instances < 1 || d->instances > 16 || d->cores < 1 ||
	    d->cores > 64 || d->nmodels < 1 || d->nmodels > 8 ||
	    d->events < 1) {
		err_set("demo: bad system profile size");
		return -1;
	}
	g.iters = (d->events + DEMO_SYS_EVENTS_PER_ITER - 1) /
		  DEMO_SYS_EVENTS_PER_ITER;
	g.iter_ns = ITER_MIN_NS;
	for (int m = 0; m < d->nmodels; m++)
		g.iter_ns = NX_MAX(g.iter_ns, d->models[m].exec_ns * 5 / 4 +
					      300000);
	g.end_ns = BASE_NS + g.iters * g.iter_ns;
	s->meta(s->ctx, BASE_NS - 100000, g.end_ns + 100000);
	device_list(&g);
	trace_events(&g);
	samples(&g);
	return 0;
}
