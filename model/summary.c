#include "config.h"

#include "model/summary.h"

#include <inttypes.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/cache/db.h"
#include "model/cache/schema.h"
#include "model/util.h"

const char *const summary_engine_names[ENG_COUNT] = {
	"Tensor", "Vector", "Scalar", "GpSimd", "Sync",
};
const char *const summary_engine_keys[ENG_COUNT] = {
	"tensor", "vector", "scalar", "gpsimd", "sync",
};

static int engine_of(const char *name)
{
	for (int e = 0; e < ENG_COUNT; e++)
		if (name && !strcasecmp(name, summary_engine_keys[e]))
			return e;
	if (name && !strcasecmp(name, "TensorMatrix"))
		return ENG_TENSOR;
	return -1;
}

static sqlite3_stmt *prep(struct model *m, const char *sql, int64_t profile)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(model_db(m), sql, -1, &st, NULL) != SQLITE_OK) {
		model_fail(m, "summary");
		return NULL;
	}
	sqlite3_bind_int64(st, 1, profile);
	return st;
}

/* An engine name of the ActiveTime rows and its rows' total. */
struct active_sum {
	char *engine;
	int64_t ns;
};

static int by_engine(const void *a, const void *b)
{
	return strcmp(((const struct active_sum *)a)->engine,
		      ((const struct active_sum *)b)->engine);
}

/* Each engine's active time: its ActiveTime rows' total, summed in one
 * pass (millions of rows; SQL's GROUP BY would sort them), an engine
 * that several names give taking the last name's in text order. */
static int active(struct model *m, int64_t p, struct summary *s)
{
	sqlite3_stmt *st = prep(m, "SELECT engine, end_ns - start_ns FROM"
				" active_time WHERE profile_id = ?1", p);
	struct active_sum *v = NULL;
	size_t n = 0, cap = 0, hit = 0;

	if (!st)
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *e = (const char *)sqlite3_column_text(st, 0);

		if (!e)
			continue;
		if (hit >= n || strcmp(v[hit].engine, e)) {
			for (hit = 0; hit < n && strcmp(v[hit].engine, e); hit++)
				;
			if (hit == n) {
				v = xgrow(v, &cap, n + 1, sizeof(*v));
				v[n++] = (struct active_sum){ xstrdup(e), 0 };
			}
		}
		v[hit].ns = sat_add(v[hit].ns, sqlite3_column_int64(st, 1));
	}
	sqlite3_finalize(st);
	if (n)
		qsort(v, n, sizeof(*v), by_engine);
	for (size_t i = 0; i < n; i++) {
		int e = engine_of(v[i].engine);

		if (e >= 0)
			s->eng[e].active_ns = v[i].ns;
		free(v[i].engine);
	}
	free(v);
	return 0;
}

/* Instructions per engine, by the instruction's subgroup (or its track
 * name when the subgroup is missing), from the rows' totals. */
static int engines(struct model *m, int64_t p, struct summary *s)
{
	sqlite3_stmt *st = prep(m,
		"SELECT coalesce(sg.str, t.name), sum(x.n), sum(x.total)"
		" FROM track_stat x JOIN track t ON t.id = x.track_id"
		" LEFT JOIN string sg ON sg.id = x.value"
		" WHERE t.profile_id = ?1 AND x.kind = ?2 GROUP BY 1", p);

	if (!st)
		return -1;
	sqlite3_bind_int(st, 2, STAT_INSTR);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int e = engine_of((const char *)sqlite3_column_text(st, 0));
		int64_t n = sqlite3_column_int64(st, 1);

		s->n_instructions += n;
		if (e < 0)
			continue;
		s->eng[e].count += n;
		s->eng[e].instr_ns += sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	return active(m, p, s);
}

/* Rows of one kind sharing a name (two hosts' "Thread 1") are told
 * apart as GROUP/ROW, the name --tracks takes: label[i] is set for
 * those, left NULL for the others. */
static int shared_names(struct model *m, int64_t p, size_t n,
			const char *const *name, const char *const *kind,
			const int64_t *ids, char **label)
{
	struct mtrack *t = NULL;
	size_t nt = 0;

	for (size_t i = 0; i < n; i++) {
		struct strbuf sb;
		size_t k, j;

		for (j = 0; j < n; j++)
			if (j != i && !strcmp(kind[j], kind[i]) &&
			    !strcasecmp(name[j], name[i]))
				break;
		if (j == n)
			continue;
		if (!t && model_tracks(m, p, &t, &nt))
			return -1;
		for (k = 0; k < nt && t[k].id != ids[i]; k++)
			;
		if (k == nt)
			continue;
		sb_init(&sb);
		model_track_label(t, nt, k, &sb);
		free(label[i]);
		label[i] = sb_detach(&sb);
	}
	model_tracks_free(t, nt);
	return 0;
}

/* The labels of the rows (see shared_names). */
static int track_labels(struct model *m, int64_t p, struct summary *s,
			const int64_t *ids)
{
	const char **name = xreallocarray(NULL, s->ntracks + 1, sizeof(*name));
	const char **kind = xreallocarray(NULL, s->ntracks + 1, sizeof(*kind));
	char **label = xreallocarray(NULL, s->ntracks + 1, sizeof(*label));
	int rc;

	for (size_t i = 0; i < s->ntracks; i++) {
		name[i] = s->tracks[i].name;
		kind[i] = s->tracks[i].kind;
		label[i] = s->tracks[i].label;
	}
	rc = shared_names(m, p, s->ntracks, name, kind, ids, label);
	for (size_t i = 0; i < s->ntracks; i++)
		s->tracks[i].label = label[i];
	free(name);
	free(kind);
	free(label);
	return rc;
}

static int tracks(struct model *m, int64_t p, struct summary *s)
{
	sqlite3_stmt *st = prep(m,
		"SELECT t.name, t.kind, t.n_events, t.busy_ns,"
		" (SELECT coalesce(sum(total), 0) FROM track_stat WHERE"
		" track_id = t.id AND kind = ?2),"
		" t.id FROM track t WHERE t.profile_id = ?1 AND t.kind NOT IN"
		" ('group', 'counter') ORDER BY t.sort_key, t.id", p);
	size_t cap = 0, idcap = 0;
	int64_t *ids = NULL;
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int(st, 2, STAT_SLICES);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct sum_track *t;

		s->tracks = xgrow(s->tracks, &cap, s->ntracks + 1, sizeof(*t));
		ids = xgrow(ids, &idcap, s->ntracks + 1, sizeof(*ids));
		ids[s->ntracks] = sqlite3_column_int64(st, 5);
		t = &s->tracks[s->ntracks++];
		t->name = db_col_str(st, 0);
		t->label = NULL;
		t->kind = db_col_str(st, 1);
		t->n = sqlite3_column_int64(st, 2);
		t->busy_ns = sqlite3_column_int64(st, 3);
		t->dur_sum = sqlite3_column_int64(st, 4);
	}
	sqlite3_finalize(st);
	rc = track_labels(m, p, s, ids);
	free(ids);
	return rc;
}

/* The labels of the counter rows (see shared_names). */
static int counter_labels(struct model *m, int64_t p, struct summary *s,
			  const int64_t *ids)
{
	const char **name = xreallocarray(NULL, s->ncounters + 1, sizeof(*name));
	const char **kind = xreallocarray(NULL, s->ncounters + 1, sizeof(*kind));
	char **label = xreallocarray(NULL, s->ncounters + 1, sizeof(*label));
	int rc;

	for (size_t i = 0; i < s->ncounters; i++) {
		name[i] = s->counters[i].name;
		kind[i] = "counter";
		label[i] = s->counters[i].label;
	}
	rc = shared_names(m, p, s->ncounters, name, kind, ids, label);
	for (size_t i = 0; i < s->ncounters; i++)
		s->counters[i].label = label[i];
	free(name);
	free(kind);
	free(label);
	return rc;
}

/* Counter rows with their samples, min, max and mean (the selection
 * export's figures over the whole profile). */
static int counters(struct model *m, int64_t p, struct summary *s)
{
	sqlite3_stmt *st = prep(m,
		"SELECT t.name, t.unit, count(c.ts), min(c.value),"
		" max(c.value), avg(c.value), t.id FROM track t"
		" LEFT JOIN counter c ON c.track_id = t.id"
		" WHERE t.profile_id = ?1 AND t.kind = 'counter'"
		" GROUP BY t.id ORDER BY t.sort_key, t.id", p);
	size_t cap = 0, idcap = 0;
	int64_t *ids = NULL;
	int rc;

	if (!st)
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct sum_counter *c;

		s->counters = xgrow(s->counters, &cap, s->ncounters + 1,
				    sizeof(*c));
		ids = xgrow(ids, &idcap, s->ncounters + 1, sizeof(*ids));
		ids[s->ncounters] = sqlite3_column_int64(st, 6);
		c = &s->counters[s->ncounters++];
		c->name = db_col_str(st, 0);
		c->label = NULL;
		c->unit = sqlite3_column_type(st, 1) == SQLITE_NULL ? NULL :
			  db_col_str(st, 1);
		c->n = sqlite3_column_int64(st, 2);
		c->vmin = sqlite3_column_double(st, 3);
		c->vmax = sqlite3_column_double(st, 4);
		c->mean = sqlite3_column_double(st, 5);
	}
	sqlite3_finalize(st);
	rc = counter_labels(m, p, s, ids);
	free(ids);
	return rc;
}

static struct sum_qtype *qtype(struct summary *s, const char *type)
{
	for (size_t i = 0; i < s->nqtypes; i++)
		if (!strcmp(s->qtypes[i].type, type))
			return &s->qtypes[i];
	s->qtypes = xreallocarray(s->qtypes, s->nqtypes + 1, sizeof(*s->qtypes));
	memset(&s->qtypes[s->nqtypes], 0, sizeof(*s->qtypes));
	s->qtypes[s->nqtypes].type = xstrdup(type);
	return &s->qtypes[s->nqtypes++];
}

static int dma(struct model *m, int64_t p, struct summary *s)
{
	for (int k = 0; k < 2; k++) {
		sqlite3_stmt *st = prep(m,
			"SELECT coalesce(q.str, 'unknown'), sum(x.n),"
			" sum(x.total) FROM track_stat x"
			" JOIN track t ON t.id = x.track_id"
			" LEFT JOIN string q ON q.id = x.value"
			" WHERE t.profile_id = ?1 AND x.kind = ?2"
			" GROUP BY 1 ORDER BY 1", p);

		if (!st)
			return -1;
		sqlite3_bind_int(st, 2, k ? STAT_XFER : STAT_PACKET);
		while (sqlite3_step(st) == SQLITE_ROW) {
			struct sum_qtype *q = qtype(s,
				(const char *)sqlite3_column_text(st, 0));
			int64_t n = sqlite3_column_int64(st, 1);
			int64_t b = sqlite3_column_int64(st, 2);

			if (k == 0) {
				q->packets += n;
				q->packet_bytes += b;
				s->n_packets += n;
			} else {
				q->transfers += n;
				q->transfer_bytes += b;
				s->n_transfers += n;
			}
		}
		sqlite3_finalize(st);
	}
	return 0;
}

static int layers(struct model *m, int64_t p, struct summary *s)
{
	sqlite3_stmt *st = prep(m,
		"SELECT name, start_ns, dur, coalesce(tensor_count, 0),"
		" coalesce(vector_count, 0), coalesce(scalar_count, 0),"
		" coalesce(gpsimd_count, 0), coalesce(sync_count, 0),"
		" coalesce(flops, -1), coalesce(mfu, -1) FROM layer"
		" WHERE profile_id = ?1 ORDER BY start_ns, id", p);
	size_t cap = 0;

	if (!st)
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct sum_layer *l;

		s->layers = xgrow(s->layers, &cap, s->nlayers + 1, sizeof(*l));
		l = &s->layers[s->nlayers++];
		l->name = db_col_str(st, 0);
		l->start = sqlite3_column_int64(st, 1);
		l->dur = sqlite3_column_int64(st, 2);
		for (int e = 0; e < ENG_COUNT; e++)
			l->count[e] = sqlite3_column_int64(st, 3 + e);
		l->flops = sqlite3_column_int64(st, 8);
		l->mfu = sqlite3_column_double(st, 9);
	}
	sqlite3_finalize(st);
	return 0;
}

static int warnings(struct model *m, int64_t p, struct summary *s)
{
	sqlite3_stmt *st = prep(m,
		"SELECT origin, coalesce(category, ''), message FROM warning"
		" WHERE profile_id = ?1 OR profile_id IS NULL ORDER BY id", p);
	size_t cap = 0;

	if (!st)
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct sum_warning *w;

		s->warnings = xgrow(s->warnings, &cap, s->nwarnings + 1,
				    sizeof(*w));
		w = &s->warnings[s->nwarnings++];
		w->origin = db_col_str(st, 0);
		w->category = db_col_str(st, 1);
		w->message = db_col_str(st, 2);
	}
	sqlite3_finalize(st);
	return 0;
}

/* A number from the profile's own summary section. */
static int reported(struct model *m, int64_t p, const char *key, double *out)
{
	sqlite3_stmt *st = prep(m, "SELECT value FROM info WHERE profile_id = ?1"
				" AND section = 'summary' AND idx = 0 AND key = ?2",
				p);
	int rc = 1;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		int t = sqlite3_column_type(st, 0);

		if (t == SQLITE_INTEGER || t == SQLITE_FLOAT) {
			*out = sqlite3_column_double(st, 0);
			rc = 0;
		}
	}
	sqlite3_finalize(st);
	return rc;
}

/* Within tol_abs, or within tol_permille thousandths of the profile's
 * figure; exact when both are 0. */
static int within(int64_t ours, double theirs, int64_t tol_abs,
		  int tol_permille)
{
	double d = fabs((double)ours - theirs);

	return d <= (double)tol_abs ||
	       d * 1000 <= fabs(theirs) * tol_permille;
}

static void add_check(struct summary *s, const char *what, const char *method,
		      enum sum_unit unit, int64_t ours, double theirs)
{
	struct sum_check *c;

	s->checks = xreallocarray(s->checks, s->nchecks + 1, sizeof(*c));
	c = &s->checks[s->nchecks++];
	memset(c, 0, sizeof(*c));
	c->what = xstrdup(what);
	c->method = method;
	c->unit = unit;
	c->ours = ours;
	c->theirs = theirs;
	if (unit == SU_NS) {
		c->tol_abs = SUM_TOL_NS;
		c->tol_permille = SUM_TOL_PERMILLE;
	}
	c->agree = within(ours, theirs, c->tol_abs, c->tol_permille);
}

static void check_count(struct model *m, struct summary *s, const char *key,
			const char *what, const char *method,
			enum sum_unit unit, int64_t ours)
{
	double v;

	if (!reported(m, s->prof.id, key, &v))
		add_check(s, what, method, unit, ours, v);
}

/* Times: the profile gives float seconds; compared in whole ns. */
static void check_time(struct model *m, struct summary *s, const char *key,
		       const char *what, const char *method, int64_t ours_ns)
{
	double v;

	if (!reported(m, s->prof.id, key, &v))
		add_check(s, what, method, SU_NS, ours_ns, round(v * 1e9));
}

static int64_t qtype_bytes(const struct summary *s, int dynamic_kind)
{
	int64_t sum = 0;

	for (size_t i = 0; i < s->nqtypes; i++) {
		const char *t = s->qtypes[i].type;
		int kind = !strcmp(t, "software_dynamic") ? 1 :
			   !strcmp(t, "hardware_dynamic") ? 2 : 0;

		if (kind == dynamic_kind)
			sum += s->qtypes[i].packet_bytes;
	}
	return sum;
}

static void checks(struct model *m, struct summary *s)
{
	double v;
	int64_t xfer_bytes = 0;
	int active = 0;

	/* where the profile records active time, an engine it records none
	 * for was active 0 ns: the figure it reports is checked against
	 * that (a profile without such records is not checked) */
	for (int e = 0; e < ENG_COUNT; e++)
		active |= s->eng[e].active_ns >= 0;

	if (!reported(m, s->prof.id, "total_time", &v))
		s->p_total_time_s = v;
	for (int e = 0; e < ENG_COUNT; e++) {
		char key[64], what[64];

		snprintf(key, sizeof(key), "%s_engine_instruction_count",
			 summary_engine_keys[e]);
		snprintf(what, sizeof(what), "%s instructions",
			 summary_engine_names[e]);
		if (!reported(m, s->prof.id, key, &v))
			s->eng[e].p_count = (int64_t)v;
		check_count(m, s, key, what, "count", SU_COUNT, s->eng[e].count);
		snprintf(key, sizeof(key), "%s_engine_active_time",
			 summary_engine_keys[e]);
		if (!reported(m, s->prof.id, key, &v))
			s->eng[e].p_active_s = v;
		if (active) {
			snprintf(what, sizeof(what), "%s active time",
				 summary_engine_names[e]);
			check_time(m, s, key, what, "sum of end-start",
				   NX_MAX(s->eng[e].active_ns, 0));
		}
	}
	check_time(m, s, "total_time", "Total time", "last end-profile start",
		   s->end - s->start);
	check_count(m, s, "static_dma_size", "Static DMA bytes",
		    "sum of sizes", SU_BYTES, qtype_bytes(s, 0));
	check_count(m, s, "software_dynamic_dma_size",
		    "Software dynamic DMA bytes", "sum of sizes",
		    SU_BYTES, qtype_bytes(s, 1));
	check_count(m, s, "hardware_dynamic_dma_size",
		    "Hardware dynamic DMA bytes", "sum of sizes",
		    SU_BYTES, qtype_bytes(s, 2));
	check_count(m, s, "dma_transfer_count", "DMA transfers", "count",
		    SU_COUNT, s->n_transfers);
	for (size_t i = 0; i < s->nqtypes; i++)
		xfer_bytes += s->qtypes[i].transfer_bytes;
	check_count(m, s, "dma_transfer_total_bytes", "DMA transfer bytes",
		    "sum of sizes", SU_BYTES, xfer_bytes);
}

/* Slices, and rows by kind: threads, async rows, rows of process-wide
 * or global instants, processes (groups of rows; a JAX run's hosts are
 * groups of groups). */
static int trace_counts(struct model *m, int64_t p, struct summary *s)
{
	sqlite3_stmt *st = prep(m,
		"SELECT coalesce(sum(CASE WHEN kind NOT IN ('group', 'counter')"
		" THEN n_events END), 0), count(CASE kind WHEN 'thread' THEN 1"
		" END), count(CASE kind WHEN 'async' THEN 1 END),"
		" count(CASE kind WHEN 'instant' THEN 1 END),"
		" count(CASE WHEN kind = 'group' AND NOT EXISTS (SELECT 1"
		" FROM track c WHERE c.parent_id = track.id AND c.kind ="
		" 'group') THEN 1 END)"
		" FROM track WHERE profile_id = ?1", p);

	if (!st)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW) {
		s->n_slices = sqlite3_column_int64(st, 0);
		s->n_threads = sqlite3_column_int64(st, 1);
		s->n_async = sqlite3_column_int64(st, 2);
		s->n_instant = sqlite3_column_int64(st, 3);
		s->n_processes = sqlite3_column_int64(st, 4);
	}
	sqlite3_finalize(st);
	return 0;
}

int summary_is_trace(const struct summary *s)
{
	return s->prof.kind && !strcmp(s->prof.kind, "trace");
}

int summary_runs(struct model *m, int64_t profile, struct summary *s)
{
	sqlite3_stmt *st = prep(m, "SELECT key, value FROM info WHERE"
				" profile_id = ?1 AND section = 'jax'"
				" ORDER BY idx", profile);
	const char *key, *v;

	if (!st)
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		key = (const char *)sqlite3_column_text(st, 0);
		v = (const char *)sqlite3_column_text(st, 1);
		if (!key || !v)
			continue;
		if (!strcmp(key, "run") && !s->run) {
			s->run = xstrdup(v);
		} else if (!strcmp(key, "other_run")) {
			s->other_runs = xreallocarray(s->other_runs,
						      s->nother_runs + 1,
						      sizeof(*s->other_runs));
			s->other_runs[s->nother_runs++] = xstrdup(v);
		}
	}
	sqlite3_finalize(st);
	return 0;
}

int summary_compute(struct model *m, int64_t profile, struct summary *s)
{
	sqlite3_stmt *st;

	memset(s, 0, sizeof(*s));
	s->p_total_time_s = -1;
	for (int e = 0; e < ENG_COUNT; e++) {
		s->eng[e].active_ns = -1;
		s->eng[e].p_count = -1;
		s->eng[e].p_active_s = -1;
	}
	if (model_profile(m, profile, &s->prof)) {
		err_set("%s: no profile %" PRId64, model_path(m), profile);
		return -1;
	}
	s->start = s->prof.start;
	s->end = s->prof.end;
	/* the version of the table schema a Parquet profile was written in */
	st = prep(m, "SELECT value FROM info WHERE profile_id = ?1 AND"
		  " section = 'metadata' AND key = 'profile_schema_version'"
		  " ORDER BY idx LIMIT 1", profile);
	if (!st)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		s->schema_version = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (summary_runs(m, profile, s))
		return -1;
	st = prep(m, "SELECT count(*) FROM counter c JOIN track t"
		  " ON t.id = c.track_id WHERE t.profile_id = ?1", profile);
	if (!st)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		s->n_counter_samples = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (engines(m, profile, s) || tracks(m, profile, s) ||
	    counters(m, profile, s) || dma(m, profile, s) || layers(m, profile, s) ||
	    warnings(m, profile, s) || trace_counts(m, profile, s))
		return -1;
	checks(m, s);
	return 0;
}

void summary_free(struct summary *s)
{
	model_profile_clear(&s->prof);
	free(s->schema_version);
	free(s->run);
	for (size_t i = 0; i < s->nother_runs; i++)
		free(s->other_runs[i]);
	free(s->other_runs);
	for (size_t i = 0; i < s->ntracks; i++) {
		free(s->tracks[i].name);
		free(s->tracks[i].label);
		free(s->tracks[i].kind);
	}
	free(s->tracks);
	for (size_t i = 0; i < s->ncounters; i++) {
		free(s->counters[i].name);
		free(s->counters[i].label);
		free(s->counters[i].unit);
	}
	free(s->counters);
	for (size_t i = 0; i < s->nqtypes; i++)
		free(s->qtypes[i].type);
	free(s->qtypes);
	for (size_t i = 0; i < s->nlayers; i++)
		free(s->layers[i].name);
	free(s->layers);
	for (size_t i = 0; i < s->nwarnings; i++) {
		free(s->warnings[i].origin);
		free(s->warnings[i].category);
		free(s->warnings[i].message);
	}
	free(s->warnings);
	for (size_t i = 0; i < s->nchecks; i++)
		free(s->checks[i].what);
	free(s->checks);
	memset(s, 0, sizeof(*s));
}
