/* Loading a system profile's executions (or its events of another name),
 * grouped, with their median. */
#include "config.h"

#include "model/analyze/execs.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/util.h"

/* From the system events (CROSS JOIN keeps that order): a device
 * profile has none, and its slices are not read. A NeuronCore is the
 * runtime's, the logical one (lnc_idx; the JSON's nc_idx where that is
 * missing: Parquet gives only the logical one), on its instance: the
 * same number on two instances is two NeuronCores. */
static const char execs_sql[] =
	"SELECT coalesce(se.model_name, 0),"
	" coalesce(se.lnc_idx, se.nc_idx, -1), sl.ts, sl.dur, sl.track_id,"
	" coalesce(se.instance_id, 0) FROM sys_event se CROSS JOIN slice sl"
	" ON sl.id = se.slice_id CROSS JOIN track t ON t.id = sl.track_id"
	" WHERE t.profile_id = ?1 AND sl.ts >= ?2 AND sl.ts < ?3"
	" AND sl.name IN (SELECT id FROM string WHERE str = ?4)"
	" ORDER BY 1, 6, 2, 3";

static int by_dur(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The lower median of the durations. */
static int64_t median(const struct exec_group *g)
{
	int64_t *d = xmalloc(g->n * sizeof(*d)), m;

	for (size_t i = 0; i < g->n; i++)
		d[i] = g->ex[i].end - g->ex[i].ts;
	qsort(d, g->n, sizeof(*d), by_dur);
	m = d[(g->n - 1) / 2];
	free(d);
	return m;
}

static struct exec_group *group_for(sqlite3_stmt *st, struct exec_group **g,
				    size_t *n, size_t *cap)
{
	int64_t model = sqlite3_column_int64(st, 0);
	int64_t nc = sqlite3_column_int64(st, 1);
	int64_t instance = sqlite3_column_int64(st, 5);
	struct exec_group *last = *n ? &(*g)[*n - 1] : NULL;

	if (last && last->nc == nc && last->model_id == model &&
	    last->instance_id == instance)
		return last;
	*g = xgrow(*g, cap, *n + 1, sizeof(**g));
	last = &(*g)[(*n)++];
	memset(last, 0, sizeof(*last));
	last->model_id = model;
	last->instance_id = instance;
	last->nc = nc;
	return last;
}

/* The groups' model names, and their instances' where there are
 * several (model_string's strings change as it reads others: copied). */
static void names(struct an_ctx *c, struct exec_group *g, size_t n)
{
	int several = 0;

	for (size_t i = 1; i < n; i++)
		several |= g[i].instance_id != g[0].instance_id;
	for (size_t i = 0; i < n; i++) {
		g[i].model = xstrdup(g[i].model_id ?
				     model_string(c->m, g[i].model_id) : "");
		g[i].instance = xstrdup(several && g[i].instance_id ?
					model_string(c->m, g[i].instance_id) :
					"");
	}
}

void execs_free(struct exec_group *g, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(g[i].ex);
		free(g[i].model);
		free(g[i].instance);
	}
	free(g);
}

int execs_load(struct an_ctx *c, const char *event, struct exec_group **g,
	       size_t *n)
{
	sqlite3_stmt *st;
	size_t cap = 0, ecap = 0;
	struct exec_group *cur = NULL;
	int rc;

	*g = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(model_db(c->m), execs_sql, -1, &st, NULL) !=
	    SQLITE_OK)
		return model_fail(c->m, "analyze executions");
	sqlite3_bind_int64(st, 1, c->profile);
	sqlite3_bind_int64(st, 2, c->t0);
	sqlite3_bind_int64(st, 3, c->t1);
	sqlite3_bind_text(st, 4, event, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct exec_group *e = group_for(st, g, n, &cap);
		int64_t ts = sqlite3_column_int64(st, 2);

		if (e != cur)
			ecap = 0;
		cur = e;
		e->ex = xgrow(e->ex, &ecap, e->n + 1, sizeof(*e->ex));
		e->ex[e->n++] = (struct an_range){ ts,
			sat_add(ts, sqlite3_column_int64(st, 3)),
			sqlite3_column_int64(st, 4) };
	}
	sqlite3_finalize(st);
	names(c, *g, *n);
	for (size_t i = 0; i < *n; i++)
		(*g)[i].median = median(&(*g)[i]);
	if (rc != SQLITE_DONE) {
		execs_free(*g, *n);
		*g = NULL;
		*n = 0;
		return model_fail(c->m, "analyze executions");
	}
	return 0;
}

int execs_each(struct an_ctx *c,
	       void (*fn)(struct an_ctx *c, const struct exec_group *g,
			  int *fired),
	       int *fired)
{
	struct exec_group *g;
	size_t n;

	if (execs_load(c, "nrt_execute", &g, &n))
		return -1;
	for (size_t i = 0; i < n; i++)
		fn(c, &g[i], fired);
	execs_free(g, n);
	if (!n)
		an_note(c, "not checked: no nrt_execute events in the range");
	return n > 0;
}

void execs_name(const struct exec_group *g, char *buf, size_t n)
{
	const char *m = *g->model ? g->model : "(unknown model)";

	if (g->nc >= 0)
		snprintf(buf, n, "%s on NC %lld%s%s", m, (long long)g->nc,
			 *g->instance ? " of " : "", g->instance);
	else
		snprintf(buf, n, "%s%s%s", m, *g->instance ? " on " : "",
			 g->instance);
}
