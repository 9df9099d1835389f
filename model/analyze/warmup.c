/* Rule warmup: a model's first execution on a NeuronCore much slower
 * than its median (loading, compiling caches, first-touch of memory). */
#include "config.h"

#include "model/analyze/execs.h"
#include "model/analyze/rules.h"

static void group(struct an_ctx *c, const struct exec_group *g, int *fired)
{
	int64_t first = g->ex[0].end - g->ex[0].ts;
	double x = g->median ? (double)first / (double)g->median : 0;
	struct an_finding *f;
	char name[256];

	if (g->n < 3 || !g->median || x <= c->param[0])
		return;
	execs_name(g, name, sizeof(name));
	f = an_add(c, "warm up (run a few executions) before profiling, or"
		   " leave the first one out of measurements",
		   "%s: the first execution took %lld ns, %.2fx the median %lld"
		   " ns of %zu (over %gx)", name, (long long)first, x,
		   (long long)g->median, g->n, c->param[0]);
	an_int(f, "first_ns", first);
	an_int(f, "median_ns", g->median);
	an_int(f, "executions", (int64_t)g->n);
	an_real(f, "ratio", x);
	an_range_add(f, g->ex[0].ts, g->ex[0].end, g->ex[0].row);
	(*fired)++;
}

int rule_warmup(struct an_ctx *c)
{
	int fired = 0, rc = execs_each(c, group, &fired);

	if (rc > 0 && !fired)
		an_note(c, "no finding: no first execution over %gx its median"
			" (of 3 or more)", c->param[0]);
	return rc < 0 ? -1 : 0;
}
