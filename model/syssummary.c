#include "config.h"

#include "model/syssummary.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "model/cache/db.h"
#include "model/selection.h"
#include "model/util.h"

int64_t model_dropped_warnings(struct model *m, int64_t profile)
{
	sqlite3_stmt *st;
	int64_t n = 0;

	if (sqlite3_prepare_v2(model_db(m), "SELECT count(*) FROM warning"
			       " WHERE profile_id = ? AND category = 'Dropped events'",
			       -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_int64(st, 1, profile);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static const struct sel_group *sel_find(const struct selection *sel,
					int64_t track)
{
	for (size_t i = 0; i < sel->ngroups; i++)
		if (sel->groups[i].track == track)
			return &sel->groups[i];
	return NULL;
}

static void add_name(struct syssummary *s, const struct sel_value *v)
{
	struct sys_name *n;

	s->names = xreallocarray(s->names, s->nnames + 1, sizeof(*n));
	n = &s->names[s->nnames++];
	n->name = xstrdup(v->value);
	n->n = v->n;
	n->dur = v->dur;
	n->dmin = v->dmin;
	n->dmax = v->dmax;
}

static int cmp_by_name(const void *a, const void *b)
{
	return strcmp(((const struct sys_name *)a)->name,
		      ((const struct sys_name *)b)->name);
}

static int cmp_by_dur(const void *a, const void *b)
{
	const struct sys_name *x = a, *y = b;

	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* One entry per name over every row, longest total first. */
static void merge_names(struct syssummary *s)
{
	size_t k = 0;

	if (!s->nnames)
		return;
	qsort(s->names, s->nnames, sizeof(*s->names), cmp_by_name);
	for (size_t i = 0; i < s->nnames; i++) {
		struct sys_name *n = &s->names[i];

		if (k && !strcmp(s->names[k - 1].name, n->name)) {
			struct sys_name *o = &s->names[k - 1];

			o->n += n->n;
			o->dur = sat_add(o->dur, n->dur);
			o->dmin = NX_MIN(o->dmin, n->dmin);
			o->dmax = NX_MAX(o->dmax, n->dmax);
			free(n->name);
			continue;
		}
		s->names[k++] = *n;
	}
	s->nnames = k;
	qsort(s->names, s->nnames, sizeof(*s->names), cmp_by_dur);
}

static void add_counter(struct syssummary *s, const char *group,
			const struct mrow *r, const struct sel_group *g)
{
	struct sys_counter *c;

	s->counters = xreallocarray(s->counters, s->ncounters + 1, sizeof(*c));
	c = &s->counters[s->ncounters++];
	c->group = xstrdup(group);
	c->name = xstrdup(r->name);
	c->unit = xstrdup(r->tracks[0].unit ? r->tracks[0].unit : "");
	c->n = g ? g->counter.n : 0;
	c->vmin = g ? g->counter.vmin : 0;
	c->vmax = g ? g->counter.vmax : 0;
	c->mean = g ? g->counter.mean : 0;
	s->n_samples += c->n;
}

/* Rows as grouped, with their figures summed over their tracks. */
static void rows(struct syssummary *s, const struct mrow *r, size_t nr,
		 const struct selection *sel)
{
	for (size_t i = 0; i < nr; i++) {
		const char *group = r[i].group >= 0 ? r[r[i].group].name : "";
		struct sys_row *o;

		if (r[i].heading)
			continue;
		if (r[i].ntracks == 1 && r[i].tracks[0].is_counter) {
			add_counter(s, group, &r[i], sel_find(sel,
							     r[i].tracks[0].id));
			continue;
		}
		s->rows = xreallocarray(s->rows, s->nrows + 1, sizeof(*o));
		o = &s->rows[s->nrows++];
		memset(o, 0, sizeof(*o));
		o->group = xstrdup(group);
		o->name = xstrdup(r[i].name);
		o->kind = xstrdup(r[i].kind);
		for (size_t t = 0; t < r[i].ntracks; t++) {
			const struct sel_group *g = sel_find(sel, r[i].tracks[t].id);

			if (!g)
				continue;
			o->n += g->n;
			o->dur = sat_add(o->dur, g->dur);
			o->busy = sat_add(o->busy, g->active);
			for (size_t f = 0; f < g->nfields; f++)
				if (!strcmp(g->fields[f].name, "name"))
					for (size_t v = 0; v < g->fields[f].nrows; v++)
						add_name(s, &g->fields[f].rows[v]);
		}
		s->n_events += o->n;
	}
	merge_names(s);
}

static int warnings(struct model *m, int64_t p, struct syssummary *s)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(model_db(m),
			       "SELECT origin, coalesce(category, ''), message"
			       " FROM warning WHERE profile_id = ?1"
			       " ORDER BY category = 'Dropped events' DESC, id",
			       -1, &st, NULL) != SQLITE_OK)
		return model_fail(m, "summary");
	sqlite3_bind_int64(st, 1, p);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct sum_warning *w;

		s->warnings = xreallocarray(s->warnings, s->nwarnings + 1,
					    sizeof(*w));
		w = &s->warnings[s->nwarnings++];
		w->origin = db_col_str(st, 0);
		w->category = db_col_str(st, 1);
		w->message = db_col_str(st, 2);
		if (!strcmp(w->category, "Dropped events"))
			s->dropped++;
	}
	sqlite3_finalize(st);
	return 0;
}

/* The system profile's files and its device profiles'. */
static int sources(struct model *m, int64_t p, struct syssummary *s)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(model_db(m),
			       "SELECT path, role, size FROM source"
			       " WHERE profile_id = ?1 OR profile_id IN"
			       " (SELECT id FROM profile WHERE parent_id = ?1)"
			       " ORDER BY profile_id <> ?1, role <> 'system', path",
			       -1, &st,
			       NULL) != SQLITE_OK)
		return model_fail(m, "summary");
	sqlite3_bind_int64(st, 1, p);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct msource *f;

		s->sources = xreallocarray(s->sources, s->nsources + 1,
					   sizeof(*f));
		f = &s->sources[s->nsources++];
		f->path = db_col_str(st, 0);
		f->role = db_col_str(st, 1);
		f->missing = sqlite3_column_int64(st, 2) == -1;
	}
	sqlite3_finalize(st);
	return 0;
}

int syssummary_compute(struct model *m, int64_t profile,
		       const struct sysgroup *g, struct syssummary *s)
{
	struct selection sel;
	struct mrow *r;
	size_t nr;
	struct strbuf sb;
	int rc = -1;

	memset(s, 0, sizeof(*s));
	if (model_profile(m, profile, &s->prof)) {
		err_set("%s: no profile %lld", model_path(m), (long long)profile);
		return -1;
	}
	sb_init(&sb);
	sysgroup_fields_text(g->group, g->ngroup, &sb);
	s->group_by = xstrdup(sb.buf);
	sysgroup_fields_text(g->row, g->nrow, &sb);
	s->row_by = xstrdup(sb.buf);
	sb_free(&sb);
	if (model_sysrows(m, profile, g, &r, &nr))
		return -1;
	if (!selection_compute(m, profile, s->prof.start,
			       s->prof.last < INT64_MAX ? s->prof.last + 1 :
							  s->prof.last,
			       NULL, 0, &sel)) {
		rows(s, r, nr, &sel);
		selection_free(&sel);
		if (!model_devices(m, profile, &s->devices, &s->ndevices) &&
		    !warnings(m, profile, s) && !sources(m, profile, s))
			rc = 0;
	}
	model_sysrows_free(r, nr);
	return rc;
}

void syssummary_free(struct syssummary *s)
{
	model_profile_clear(&s->prof);
	free(s->group_by);
	free(s->row_by);
	for (size_t i = 0; i < s->nrows; i++) {
		free(s->rows[i].group);
		free(s->rows[i].name);
		free(s->rows[i].kind);
	}
	free(s->rows);
	for (size_t i = 0; i < s->nnames; i++)
		free(s->names[i].name);
	free(s->names);
	for (size_t i = 0; i < s->ncounters; i++) {
		free(s->counters[i].group);
		free(s->counters[i].name);
		free(s->counters[i].unit);
	}
	free(s->counters);
	model_devices_free(s->devices, s->ndevices);
	for (size_t i = 0; i < s->nwarnings; i++) {
		free(s->warnings[i].origin);
		free(s->warnings[i].category);
		free(s->warnings[i].message);
	}
	free(s->warnings);
	model_sources_free(s->sources, s->nsources);
	memset(s, 0, sizeof(*s));
}
