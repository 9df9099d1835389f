/* One side of nxtop diff, read with the queries of the summaries, the
 * layer table, the selection summary and the execution rules. */
#include "config.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/analyze/execs.h"
#include "model/diff_int.h"
#include "model/layers.h"
#include "model/selection.h"
#include "model/summary.h"
#include "model/syssummary.h"
#include "model/util.h"

/* The numbers of the profile's own summary section (MFU, FLOPs, bytes
 * its tools measured), integers exact. */
static int reported_figures(struct diff_sides *s)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(model_db(s->m), "SELECT key, value FROM info"
			       " WHERE profile_id = ?1 AND section = 'summary'"
			       " AND idx = 0 AND typeof(value) IN ('integer',"
			       " 'real') ORDER BY key", -1, &st, NULL) !=
	    SQLITE_OK)
		return model_fail(s->m, "diff");
	sqlite3_bind_int64(st, 1, s->prof->id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char name[160];

		snprintf(name, sizeof(name), "profile: %s",
			 (const char *)sqlite3_column_text(st, 0));
		if (sqlite3_column_type(st, 1) == SQLITE_INTEGER) {
			diff_figure(s, name, DU_COUNT,
				    sqlite3_column_int64(st, 1))->both_only = 1;
		} else {
			diff_real(s, name, sqlite3_column_double(st, 1));
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : model_fail(s->m, "diff");
}

static void engine_figures(struct diff_sides *s, const struct summary *sm)
{
	char name[64];

	diff_figure(s, "Instructions", DU_COUNT, sm->n_instructions);
	for (int e = 0; e < ENG_COUNT; e++) {
		const struct sum_engine *g = &sm->eng[e];
		const char *en = summary_engine_names[e];

		if (!g->count && g->active_ns < 0)
			continue;
		snprintf(name, sizeof(name), "%s instructions", en);
		diff_figure(s, name, DU_COUNT, g->count);
		snprintf(name, sizeof(name), "%s instruction time", en);
		diff_figure(s, name, DU_NS, g->instr_ns);
		if (g->active_ns >= 0) {
			snprintf(name, sizeof(name), "%s active time", en);
			diff_figure(s, name, DU_NS, g->active_ns);
		}
	}
}

static void dma_figures(struct diff_sides *s, const struct summary *sm)
{
	diff_figure(s, "DMA packets", DU_COUNT, sm->n_packets);
	for (size_t i = 0; i < sm->nqtypes; i++) {
		const struct sum_qtype *q = &sm->qtypes[i];
		char *n = xasprintf("DMA packets %s", q->type);

		diff_figure(s, n, DU_COUNT, q->packets);
		free(n);
		n = xasprintf("DMA bytes %s", q->type);
		diff_figure(s, n, DU_BYTES, q->packet_bytes);
		free(n);
	}
	if (sm->n_transfers)
		diff_figure(s, "DMA transfers", DU_COUNT, sm->n_transfers);
}

static int overall_device(struct diff_sides *s, const struct summary *sm)
{
	diff_figure(s, "Total time", DU_NS, s->d->total[s->side]);
	if (summary_is_trace(sm)) {
		diff_figure(s, "Slices", DU_COUNT, sm->n_slices);
		diff_figure(s, "Threads", DU_COUNT, sm->n_threads);
	}
	engine_figures(s, sm);
	dma_figures(s, sm);
	if (sm->n_counter_samples)
		diff_figure(s, "Counter samples", DU_COUNT,
			    sm->n_counter_samples);
	return reported_figures(s);
}

static void engine_rows(struct diff_sides *s, const struct summary *sm)
{
	for (int e = 0; e < ENG_COUNT; e++) {
		const struct sum_engine *g = &sm->eng[e];
		int64_t v[DIFF_MAX_COLS] = { g->count, g->instr_ns,
					     NX_MAX(g->active_ns, 0) };

		if (g->count || g->active_ns > 0)
			diff_add(s, NULL, summary_engine_names[e], v);
	}
}

static void dma_rows(struct diff_sides *s, const struct summary *sm)
{
	for (size_t i = 0; i < sm->nqtypes; i++) {
		const struct sum_qtype *q = &sm->qtypes[i];
		int64_t v[DIFF_MAX_COLS] = { q->packets, q->packet_bytes,
					     q->transfers, q->transfer_bytes };

		diff_add(s, NULL, q->type, v);
	}
}

/* overall, engines and dma: from the profile summary. */
static int from_summary(struct diff_sides *s)
{
	struct summary sm;
	int rc = 0;

	if (summary_compute(s->m, s->prof->id, &sm))
		return -1;
	if (s->d->what == DW_OVERALL)
		rc = overall_device(s, &sm);
	else if (s->d->what == DW_ENGINES)
		engine_rows(s, &sm);
	else
		dma_rows(s, &sm);
	summary_free(&sm);
	return rc;
}

/* Layers by full name: instructions on every engine, and duration. */
static int from_layers(struct diff_sides *s)
{
	struct layer_table t;

	if (layers_load(s->m, s->prof->id, 0, NULL, &t))
		return -1;
	for (size_t i = 0; i < t.n; i++) {
		int64_t v[DIFF_MAX_COLS] = { 0, t.rows[i].dur };

		for (int e = 0; e < ENG_COUNT; e++)
			v[0] += t.rows[i].count[e];
		diff_add(s, NULL, t.rows[i].name, v);
	}
	layers_free(&t);
	return 0;
}

/* Opcodes per engine row, or HLO names over every row: the selection
 * summary of the whole profile. */
static int from_selection(struct diff_sides *s)
{
	const char *field = s->d->what == DW_OPCODES ? "opcode" : "hlo_name";
	struct selection sel;

	if (selection_compute(s->m, s->prof->id, s->prof->start,
			      sat_add(s->prof->end, 1), NULL, 0, &sel))
		return -1;
	for (size_t g = 0; g < sel.ngroups; g++) {
		const struct sel_group *sg = &sel.groups[g];

		for (size_t f = 0; f < sg->nfields; f++) {
			if (strcmp(sg->fields[f].name, field))
				continue;
			for (size_t r = 0; r < sg->fields[f].nrows; r++) {
				const struct sel_value *sv = &sg->fields[f].rows[r];
				int64_t v[DIFF_MAX_COLS] = { sv->n, sv->dur };

				diff_add(s, s->d->what == DW_OPCODES ?
					 sg->name : NULL, sv->value, v);
			}
		}
	}
	selection_free(&sel);
	return 0;
}

int diff_load_device(struct diff_sides *s)
{
	switch (s->d->what) {
	case DW_LAYERS:
		return from_layers(s);
	case DW_OPCODES:
	case DW_HLO:
		return from_selection(s);
	default:
		return from_summary(s);
	}
}

static int by_value(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Count, median (the rules' lower median), p90 (nearest rank) and max
 * of one group's durations. */
static void exec_row(struct diff_sides *s, const char *event,
		     const struct exec_group *g)
{
	int64_t *d = xmalloc(g->n * sizeof(*d));
	int64_t v[DIFF_MAX_COLS];
	char name[256];

	for (size_t i = 0; i < g->n; i++)
		d[i] = g->ex[i].end - g->ex[i].ts;
	qsort(d, g->n, sizeof(*d), by_value);
	v[0] = (int64_t)g->n;
	v[1] = g->median;
	v[2] = d[(g->n * 9 + 9) / 10 - 1];
	v[3] = d[g->n - 1];
	free(d);
	execs_name(g, name, sizeof(name));
	diff_add(s, event, name, v);
}

static int executions(struct diff_sides *s)
{
	static const char *const events[] = { "nrt_execute", "nc_exec_running" };
	struct an_ctx c = { .m = s->m, .profile = s->prof->id,
			    .t0 = INT64_MIN, .t1 = INT64_MAX };

	for (size_t e = 0; e < NX_ARRAY_SIZE(events); e++) {
		struct exec_group *g;
		size_t n;

		if (execs_load(&c, events[e], &g, &n))
			return -1;
		for (size_t i = 0; i < n; i++)
			exec_row(s, events[e], &g[i]);
		execs_free(g, n);
	}
	return 0;
}

/* Total time, events, and per event name its count and time. */
static int overall_system(struct diff_sides *s)
{
	struct syssummary sm;
	struct sysgroup g;

	sysgroup_default(&g);
	if (syssummary_compute(s->m, s->prof->id, &g, &sm))
		return -1;
	diff_figure(s, "Total time", DU_NS, s->d->total[s->side]);
	diff_figure(s, "Events", DU_COUNT, sm.n_events);
	diff_figure(s, "Dropped-event warnings", DU_COUNT, sm.dropped);
	for (size_t i = 0; i < sm.nnames; i++) {
		char *n = xasprintf("%s events", sm.names[i].name);

		diff_figure(s, n, DU_COUNT, sm.names[i].n);
		free(n);
		n = xasprintf("%s time", sm.names[i].name);
		diff_figure(s, n, DU_NS, sm.names[i].dur);
		free(n);
	}
	diff_figure(s, "Device profiles", DU_COUNT, (int64_t)sm.ndevices);
	syssummary_free(&sm);
	return 0;
}

int diff_load_system(struct diff_sides *s)
{
	return s->d->what == DW_EXECUTIONS ? executions(s) : overall_system(s);
}
