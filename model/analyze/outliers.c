/* Rule outliers: executions of a model on a NeuronCore much slower than
 * its median, past the first (which the warmup rule judges). */
#include "config.h"

#include "model/analyze/execs.h"
#include "model/analyze/rules.h"

static void group(struct an_ctx *c, const struct exec_group *g, int *fired)
{
	struct an_finding *f = NULL;
	int64_t slow = 0;
	char name[256];

	if (g->n < 3 || !g->median)
		return;
	for (size_t i = 1; i < g->n; i++) {
		int64_t d = g->ex[i].end - g->ex[i].ts;

		if ((double)d <= c->param[0] * (double)g->median)
			continue;
		if (!f) {
			execs_name(g, name, sizeof(name));
			f = an_add(c, "see what else ran then: host CPU, other"
				   " models on the core, input copies",
				   "%s: executions over %gx the median %lld ns",
				   name, c->param[0], (long long)g->median);
		}
		an_range_add(f, g->ex[i].ts, g->ex[i].end, g->ex[i].row);
		slow += d;
	}
	if (!f)
		return;
	an_int(f, "outliers", (int64_t)f->nranges);
	an_int(f, "executions", (int64_t)g->n);
	an_int(f, "outlier_ns", slow);
	an_int(f, "median_ns", g->median);
	an_ranges_sort(f);
	(*fired)++;
}

int rule_outliers(struct an_ctx *c)
{
	int fired = 0, rc = execs_each(c, group, &fired);

	if (rc > 0 && !fired)
		an_note(c, "no finding: no execution past the first over %gx"
			" its median", c->param[0]);
	return rc < 0 ? -1 : 0;
}
