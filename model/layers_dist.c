#include "config.h"

#include "model/layers.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/util.h"

/* One instruction: its layer's string id and its duration. */
struct cat_dur {
	int64_t cat, dur;
};

static int cmp_cat_dur(const void *a, const void *b)
{
	const struct cat_dur *x = a, *y = b;

	if (x->cat != y->cat)
		return x->cat < y->cat ? -1 : 1;
	return x->dur < y->dur ? -1 : x->dur > y->dur;
}

/* The engine rows' instructions with a layer, by layer then duration;
 * none when there are more than LAYERS_DIST_MAX instructions. */
static int read_instructions(struct model *m, int64_t profile,
			     struct cat_dur **out, size_t *n)
{
	struct mtrack *all;
	size_t nall, cap = 0;
	int64_t total = 0;
	sqlite3_stmt *st;
	int rc = SQLITE_DONE;

	*out = NULL;
	*n = 0;
	if (model_tracks(m, profile, &all, &nall))
		return -1;
	for (size_t i = 0; i < nall; i++)
		if (!strcmp(all[i].kind, "engine"))
			total += all[i].n_events;
	if (total > LAYERS_DIST_MAX ||
	    sqlite3_prepare_v2(model_db(m), "SELECT cat, dur FROM slice WHERE"
			       " track_id = ? AND cat IS NOT NULL", -1, &st,
			       NULL) != SQLITE_OK) {
		model_tracks_free(all, nall);
		return total > LAYERS_DIST_MAX ? 0 : model_fail(m, "layers");
	}
	for (size_t i = 0; i < nall && rc == SQLITE_DONE; i++) {
		if (strcmp(all[i].kind, "engine"))
			continue;
		sqlite3_bind_int64(st, 1, all[i].id);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			*out = xgrow(*out, &cap, *n + 1, sizeof(**out));
			(*out)[*n].cat = sqlite3_column_int64(st, 0);
			(*out)[(*n)++].dur = sqlite3_column_int64(st, 1);
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	model_tracks_free(all, nall);
	if (rc != SQLITE_DONE)
		return model_fail(m, "layers");
	if (*n > 1)
		qsort(*out, *n, sizeof(**out), cmp_cat_dur);
	return 0;
}

/* A run of one layer's instructions in the sorted array, and the
 * layer_summary names that hold that layer ("/sg00/a/b" holds "a/b"). */
struct run {
	char *name;
	size_t at, n;
	char **owners;
	size_t nowners;
};

/* 1 if name is the row's or lies under it. */
static int under(const char *name, const char *row)
{
	size_t rl = strlen(row);

	return !strncmp(name, row, rl) && (!name[rl] || name[rl] == '/');
}

static int holds(const struct layer_row *r, const struct run *run)
{
	if (layers_match(r, run->name))
		return 1;
	for (size_t i = 0; i < run->nowners; i++)
		if (under(run->owners[i], r->name))
			return 1;
	return 0;
}

/* Each run's owners among the profile's layer_summary names. */
static int find_owners(struct model *m, int64_t profile, struct run *runs,
		       size_t nruns)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(model_db(m), "SELECT DISTINCT name FROM layer"
			       " WHERE profile_id = ? AND name IS NOT NULL", -1,
			       &st, NULL) != SQLITE_OK)
		return model_fail(m, "layers");
	sqlite3_bind_int64(st, 1, profile);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		size_t nl = strlen(name);

		for (size_t k = 0; k < nruns; k++) {
			struct run *rn = &runs[k];
			size_t l = strlen(rn->name);

			if (!*rn->name || (strcmp(name, rn->name) &&
			    (nl <= l || name[nl - l - 1] != '/' ||
			     strcmp(name + nl - l, rn->name))))
				continue;
			rn->owners = xreallocarray(rn->owners, rn->nowners + 1,
						   sizeof(*rn->owners));
			rn->owners[rn->nowners++] = xstrdup(name);
		}
	}
	sqlite3_finalize(st);
	return 0;
}

static void row_dist(struct layer_row *r, const struct cat_dur *cd,
		     const struct run *runs, size_t nruns)
{
	int64_t *durs = NULL;
	size_t n = 0, cap = 0;

	for (size_t k = 0; k < nruns; k++) {
		if (!holds(r, &runs[k]))
			continue;
		durs = xgrow(durs, &cap, n + runs[k].n, sizeof(*durs));
		for (size_t i = 0; i < runs[k].n; i++)
			durs[n++] = cd[runs[k].at + i].dur;
	}
	/* a layer without instructions has no distribution */
	if (n)
		dist_from_durations(durs, n, &r->dist);
	free(durs);
}

int layers_dists(struct model *m, int64_t profile, struct layer_table *t)
{
	struct cat_dur *cd;
	struct run *runs = NULL;
	size_t n, nruns = 0, cap = 0;
	int rc;

	if (read_instructions(m, profile, &cd, &n))
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (i && cd[i].cat == cd[i - 1].cat) {
			runs[nruns - 1].n++;
			continue;
		}
		runs = xgrow(runs, &cap, nruns + 1, sizeof(*runs));
		runs[nruns++] = (struct run){ xstrdup(model_string(m, cd[i].cat)),
						 i, 1, NULL, 0 };
	}
	rc = find_owners(m, profile, runs, nruns);
	for (size_t r = 0; !rc && r < t->n; r++)
		row_dist(&t->rows[r], cd, runs, nruns);
	for (size_t k = 0; k < nruns; k++) {
		for (size_t i = 0; i < runs[k].nowners; i++)
			free(runs[k].owners[i]);
		free(runs[k].owners);
		free(runs[k].name);
	}
	free(runs);
	free(cd);
	return rc;
}
