/* One side of nxtop diff, read with the queries of the layer table, the
 * selection summary, the system summary and the execution rules. */
#include "config.h"

#include <math.h>
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

/* Text that is an integer: the digits of a number past int64 the JSON
 * reader kept as text, exact. 0 with *out set up to 2^64 - 1 either
 * way; 1 past that, *real set; -1 for other text. */
static int wide_digits(const char *t, struct diff_int *out, double *real)
{
	const char *p = t + (*t == '-');
	size_t n = strspn(p, "0123456789");

	if (!n || p[n])
		return -1;
	if (parse_u64(p, n, &out->mag)) {
		*real = strtod(t, NULL);
		return isfinite(*real) ? 1 : -1;
	}
	out->neg = *t == '-' && out->mag;
	return 0;
}

/* One value of the summary section as a figure; text other than an
 * integer is none. */
static void reported_figure(struct diff_sides *s, const char *name,
			    sqlite3_stmt *st)
{
	struct diff_int i;
	double real;

	/* the type first: reading the value as another converts it */
	switch (sqlite3_column_type(st, 1)) {
	case SQLITE_INTEGER:
		i = diff_int_of(sqlite3_column_int64(st, 1));
		diff_reported(s, name, &i, 0);
		break;
	case SQLITE_FLOAT:
		diff_reported(s, name, NULL, sqlite3_column_double(st, 1));
		break;
	default:
		switch (wide_digits((const char *)sqlite3_column_text(st, 1),
				    &i, &real)) {
		case 0:
			diff_reported(s, name, &i, 0);
			break;
		case 1:
			diff_reported(s, name, NULL, real);
			break;
		}
	}
}

/* The numbers of the profile's own summary section (MFU, FLOPs, bytes
 * its tools measured), integers exact whatever their size; of no unit
 * nxtop knows, whether the value happens to be an integer or not, so
 * that a figure has one unit in A and in B. */
static int reported_figures(struct diff_sides *s)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(model_db(s->m), "SELECT key, value FROM info"
			       " WHERE profile_id = ?1 AND section = 'summary'"
			       " AND idx = 0 AND typeof(value) IN ('integer',"
			       " 'real', 'text') ORDER BY key", -1, &st, NULL) !=
	    SQLITE_OK)
		return model_fail(s->m, "diff");
	sqlite3_bind_int64(st, 1, s->prof->id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char name[160];

		snprintf(name, sizeof(name), "profile: %s",
			 (const char *)sqlite3_column_text(st, 0));
		reported_figure(s, name, st);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : model_fail(s->m, "diff");
}

/* A row's table of one selection field, or NULL. */
static const struct sel_field *field_of(const struct sel_group *g,
					const char *name)
{
	for (size_t f = 0; f < g->nfields; f++)
		if (!strcmp(g->fields[f].name, name))
			return &g->fields[f];
	return NULL;
}

static int is_engine(const struct sel_group *g)
{
	return !strcmp(g->kind, "engine");
}

/* DMA packets ("dma") and transfers ("dma_xfer") rows. */
static int is_dma(const struct sel_group *g)
{
	return !strcmp(g->kind, "dma") || !strcmp(g->kind, "dma_xfer");
}

/* A DMA row's bytes: each transfer size times its count. */
static int64_t queue_bytes(const struct sel_group *g)
{
	const struct sel_field *f = field_of(g, "transfer_size");
	int64_t sum = 0;

	for (size_t i = 0; f && i < f->nrows; i++)
		if (!f->rows[i].none)
			sum = sat_add(sum, strtoll(f->rows[i].value, NULL, 10) *
				      f->rows[i].n);
	return sum;
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A DMA row's queue types by name, joined by ',' when it has several. */
static char *queue_types(const struct sel_group *g)
{
	const struct sel_field *f = field_of(g, "queue_type");
	const char **v;
	struct strbuf sb;

	if (!f || !f->nrows)
		return xstrdup("unknown");
	v = xmalloc(f->nrows * sizeof(*v));
	for (size_t i = 0; i < f->nrows; i++)
		v[i] = f->rows[i].value;
	qsort(v, f->nrows, sizeof(*v), by_str);
	sb_init(&sb);
	for (size_t i = 0; i < f->nrows; i++)
		sb_printf(&sb, "%s%s", i ? "," : "", v[i]);
	free(v);
	return sb_detach(&sb);
}

static void figure(struct diff_sides *s, enum diff_unit u, int64_t v,
		   const char *fmt, const char *arg)
{
	char *name = xasprintf(fmt, arg);

	diff_figure(s, name, u, v);
	free(name);
}

static void engine_figures(struct diff_sides *s, const struct sel_group *g)
{
	diff_figure(s, "Instructions", DU_COUNT, g->n);
	figure(s, DU_COUNT, g->n, "%s instructions", g->name);
	figure(s, DU_NS, g->dur, "%s instruction time", g->name);
	figure(s, DU_NS, g->active, "%s busy time", g->name);
}

/* Packets (transfers) by queue type; bytes by the row's queue types. */
static void dma_figures(struct diff_sides *s, const struct sel_group *g)
{
	const struct sel_field *f = field_of(g, "queue_type");
	int xfer = !strcmp(g->kind, "dma_xfer");
	char *types = queue_types(g);

	for (size_t i = 0; f && i < f->nrows; i++)
		figure(s, DU_COUNT, f->rows[i].n, xfer ? "DMA transfers %s" :
		       "DMA packets %s", f->rows[i].value);
	figure(s, DU_BYTES, queue_bytes(g), xfer ? "DMA transfer bytes %s" :
	       "DMA bytes %s", types);
	free(types);
}

/* Events and their time, then per engine row and per DMA row. */
static void selection_figures(struct diff_sides *s,
			      const struct selection *sel)
{
	diff_figure(s, "Events", DU_COUNT, sel->n);
	diff_figure(s, "Event time", DU_NS, sel->dur);
	for (size_t i = 0; i < sel->ngroups; i++)
		if (is_engine(&sel->groups[i]))
			engine_figures(s, &sel->groups[i]);
	for (size_t i = 0; i < sel->ngroups; i++)
		if (is_dma(&sel->groups[i]))
			dma_figures(s, &sel->groups[i]);
}

static int overall_device(struct diff_sides *s, const struct selection *sel)
{
	diff_figure(s, "Total time", DU_NS, s->d->total[s->side]);
	selection_figures(s, sel);
	return reported_figures(s);
}

void diff_load_selection(struct diff_sides *s, const struct selection *sel)
{
	diff_figure(s, "Range", DU_NS, sel->end - sel->t0);
	diff_figure(s, "Active time", DU_NS, sel->active);
	selection_figures(s, sel);
	for (size_t i = 0; i < sel->ngroups; i++) {
		const struct sel_group *g = &sel->groups[i];

		if (is_engine(g) || is_dma(g) || !g->n)
			continue;
		figure(s, DU_COUNT, g->n, "%s events", g->name);
		figure(s, DU_NS, g->dur, "%s time", g->name);
	}
}

static void engine_row(struct diff_sides *s, const struct sel_group *g)
{
	int64_t v[DIFF_MAX_COLS] = { g->n, g->dur, g->active };

	diff_add(s, NULL, g->name, v);
}

static void dma_row(struct diff_sides *s, const struct sel_group *g)
{
	int64_t v[DIFF_MAX_COLS] = { g->n, queue_bytes(g), g->dur };
	char *types = queue_types(g);
	char *name = xasprintf("%s%s", g->name, !strcmp(g->kind, "dma_xfer") ?
			       " transfers" : "");

	diff_add(s, types, name, v);
	free(name);
	free(types);
}

/* Opcodes per engine row, or HLO names over every engine row. */
static void value_rows(struct diff_sides *s, const struct sel_group *g)
{
	int op = s->d->what == DW_OPCODES;
	const struct sel_field *f = field_of(g, op ? "opcode" : "hlo_name");

	for (size_t r = 0; f && r < f->nrows; r++) {
		int64_t v[DIFF_MAX_COLS] = { f->rows[r].n, f->rows[r].dur };

		diff_add(s, op ? g->name : NULL, f->rows[r].value, v);
	}
}

static void group_rows(struct diff_sides *s, const struct sel_group *g)
{
	if (s->d->what == DW_ENGINES && is_engine(g))
		engine_row(s, g);
	else if (s->d->what == DW_DMA && is_dma(g))
		dma_row(s, g);
	else if ((s->d->what == DW_OPCODES || s->d->what == DW_HLO) &&
		 is_engine(g))
		value_rows(s, g);
}

/* Everything but layers: the selection summary of the whole profile,
 * read from the per-bucket aggregates (a summary would read every
 * event). */
static int from_selection(struct diff_sides *s)
{
	struct selection sel;
	int rc = 0;

	if (selection_compute(s->m, s->prof->id, s->prof->start,
			      sat_add(s->prof->end, 1), NULL, 0, &sel))
		return -1;
	if (s->d->what == DW_OVERALL)
		rc = overall_device(s, &sel);
	for (size_t i = 0; i < sel.ngroups; i++)
		group_rows(s, &sel.groups[i]);
	selection_free(&sel);
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

int diff_load_device(struct diff_sides *s)
{
	return s->d->what == DW_LAYERS ? from_layers(s) : from_selection(s);
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
