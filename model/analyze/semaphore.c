/* Rule semaphore: engines that spend a large share of the time waiting
 * in EVENT_SEMAPHORE instructions for another engine or a DMA. */
#include "config.h"

#include "model/analyze/rules.h"

#include <sqlite3.h>
#include <stdlib.h>

#include "model/report/report.h"
#include "model/selection.h"
#include "model/util.h"

static const char waits_sql[] =
	"SELECT sl.ts, sl.ts + sl.dur FROM slice sl WHERE sl.track_id = ?1"
	" AND sl.ts >= ?2 AND sl.ts < ?3"
	" AND sl.name IN (SELECT id FROM string WHERE str = 'EVENT_SEMAPHORE')";

static int waits(struct an_ctx *c, struct an_finding *f, int64_t track)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(model_db(c->m), waits_sql, -1, &st, NULL) !=
	    SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, track);
	sqlite3_bind_int64(st, 2, c->t0);
	sqlite3_bind_int64(st, 3, c->t1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		an_range_add(f, sqlite3_column_int64(st, 0),
			     sqlite3_column_int64(st, 1), track);
	sqlite3_finalize(st);
	an_ranges_sort(f);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* A row's EVENT_SEMAPHORE instructions in the range. */
struct waiter {
	int64_t track, n, ns;
	const char *name;
};

/* The longest waits first, then by row id. */
static int by_wait(const void *a, const void *b)
{
	const struct waiter *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return (x->track > y->track) - (x->track < y->track);
}

/* One engine's waits; 1 if they are over the threshold. */
static int engine(struct an_ctx *c, const struct waiter *w, int *err)
{
	double share = 100.0 * (double)w->ns / (double)(c->end - c->t0);
	struct an_finding *f;
	char pct[40];

	if (share <= c->param[0])
		return 0;
	f = an_add(c, "the engine waits for a semaphore another engine or a"
		   " DMA sets: overlap that work with this engine's (prefetch"
		   " earlier, split into smaller tiles)",
		   "%s waits on semaphores %s of the range (over %g%%):"
		   " %lld EVENT_SEMAPHORE, %lld ns", w->name,
		   report_pct(pct, sizeof(pct), share), c->param[0],
		   (long long)w->n, (long long)w->ns);
	an_int(f, "waits", w->n);
	an_int(f, "wait_ns", w->ns);
	an_int(f, "range_ns", c->end - c->t0);
	an_real(f, "share_pct", share);
	*err = waits(c, f, w->track);
	return 1;
}

/* The string ids of EVENT_SEMAPHORE (more than one past the interning
 * cap). */
static int semaphore_names(struct an_ctx *c, int64_t **ids, size_t *n)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	*ids = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(model_db(c->m), "SELECT id FROM string WHERE"
			       " str = 'EVENT_SEMAPHORE'", -1, &st, NULL) !=
	    SQLITE_OK)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*ids = xgrow(*ids, &cap, *n + 1, sizeof(**ids));
		(*ids)[(*n)++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Each row's EVENT_SEMAPHORE instructions in the range, from the name
 * aggregates: the rows holding some, longest waits first. */
static int waiters(struct an_ctx *c, const struct mtrack *t, size_t nt,
		   const int64_t *ids, size_t nids, struct waiter **out,
		   size_t *nout)
{
	size_t cap = 0;

	for (size_t i = 0; i < nt; i++) {
		struct waiter w = { t[i].id, 0, 0, t[i].name };

		if (t[i].is_counter || !t[i].n_events)
			continue;
		for (size_t k = 0; k < nids; k++) {
			int64_t n, ns;

			if (selection_name_total(c->m, &t[i], c->t0, c->t1,
						 ids[k], &n, &ns))
				return -1;
			w.n += n;
			w.ns = sat_add(w.ns, ns);
		}
		if (!w.n)
			continue;
		*out = xgrow(*out, &cap, *nout + 1, sizeof(**out));
		(*out)[(*nout)++] = w;
	}
	if (*nout)
		qsort(*out, *nout, sizeof(**out), by_wait);
	return 0;
}

int rule_semaphore(struct an_ctx *c)
{
	struct mtrack *t = NULL;
	struct waiter *w = NULL;
	int64_t *ids = NULL;
	size_t nt = 0, nids = 0, nw = 0;
	int rc = an_has_rows(c, "engine", "engine rows"), n = 0, err = 0;

	if (rc <= 0)
		return rc;
	err = semaphore_names(c, &ids, &nids) ||
	      (nids && (model_tracks(c->m, c->profile, &t, &nt) ||
			waiters(c, t, nt, ids, nids, &w, &nw)));
	for (size_t i = 0; i < nw && !err; i++)
		n += engine(c, &w[i], &err);
	free(w);
	free(ids);
	model_tracks_free(t, nt);
	if (err)
		return model_fail(c->m, "analyze semaphore");
	if (!n)
		an_note(c, "no finding: no engine waits on semaphores over %g%%"
			" of the range", c->param[0]);
	return 0;
}
