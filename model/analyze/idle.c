/* Rule idle: a NeuronCore idle between a model's executions for a large
 * share of their span: the host does not feed it fast enough. */
#include "config.h"

#include "model/analyze/execs.h"
#include "model/analyze/rules.h"
#include "model/report/report.h"

static void group(struct an_ctx *c, const struct exec_group *g, int *fired)
{
	struct an_finding *f;
	int64_t end = g->ex[0].end, idle = 0, span;
	double share;
	char name[256], pct[40];

	for (size_t i = 1; i < g->n; i++) {
		if (g->ex[i].ts > end)
			idle += g->ex[i].ts - end;
		if (g->ex[i].end > end)
			end = g->ex[i].end;
	}
	span = end - g->ex[0].ts;
	share = span > 0 ? 100.0 * (double)idle / (double)span : 0;
	if (g->n < 2 || share <= c->param[0])
		return;
	execs_name(g, name, sizeof(name));
	f = an_add(c, "queue the next execution before this one ends (more"
		   " threads or asynchronous inputs, larger batches)",
		   "%s: idle %s of the span of %zu executions (over %g%%):"
		   " %lld of %lld ns", name, report_pct(pct, sizeof(pct), share),
		   g->n, c->param[0], (long long)idle, (long long)span);
	an_int(f, "idle_ns", idle);
	an_int(f, "span_ns", span);
	an_int(f, "executions", (int64_t)g->n);
	an_real(f, "share_pct", share);
	end = g->ex[0].end;
	for (size_t i = 1; i < g->n; i++) {
		if (g->ex[i].ts > end)
			an_range_add(f, end, g->ex[i].ts, g->ex[i].row);
		if (g->ex[i].end > end)
			end = g->ex[i].end;
	}
	an_ranges_sort(f);
	(*fired)++;
}

int rule_idle(struct an_ctx *c)
{
	int fired = 0, rc = execs_each(c, group, &fired);

	if (rc > 0 && !fired)
		an_note(c, "no finding: no NeuronCore idle over %g%% between"
			" executions", c->param[0]);
	return rc < 0 ? -1 : 0;
}
