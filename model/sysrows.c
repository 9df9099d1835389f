#include "config.h"

#include "model/sysrows.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/cache/db.h"

static const struct {
	const char *name;	/* as neuron-explorer names it */
	const char *alias[3];
	const char *prefix;	/* in row and group names */
} fields[SYSF_COUNT] = {
	[SYSF_INSTANCE] = { "instance_id", { "instance", NULL, NULL }, "" },
	[SYSF_PROCESS] = { "process_id", { "process", "pid", NULL }, "pid" },
	[SYSF_THREAD] = { "thread_id", { "thread", "tid", NULL }, "tid" },
	[SYSF_LNC] = { "lnc_idx", { "lnc", "nc", NULL }, "nc" },
	[SYSF_WORKER] = { "worker_gid", { "worker", "gid", NULL }, "gid" },
};

/* Sources in display order within a group. */
static const char *const sources[] = { "neuron_rt", "neuron_hw", "framework" };

void sysgroup_default(struct sysgroup *g)
{
	memset(g, 0, sizeof(*g));
	g->group[g->ngroup++] = SYSF_INSTANCE;
	g->group[g->ngroup++] = SYSF_PROCESS;
	g->row[g->nrow++] = SYSF_WORKER;
	g->row[g->nrow++] = SYSF_LNC;
	g->row[g->nrow++] = SYSF_THREAD;
}

static int field_of(const char *s, size_t n)
{
	for (int f = 0; f < SYSF_COUNT; f++) {
		if (strlen(fields[f].name) == n && !strncmp(s, fields[f].name, n))
			return f;
		for (int a = 0; a < 3 && fields[f].alias[a]; a++)
			if (strlen(fields[f].alias[a]) == n &&
			    !strncmp(s, fields[f].alias[a], n))
				return f;
	}
	return -1;
}

int sysgroup_parse(const char *list, const char *what, enum sysfield *out,
		   int *n)
{
	const char *p = list;

	*n = 0;
	while (*p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		int f = field_of(p, len);

		if (f < 0) {
			err_set("%s: unknown field '%.*s' (instance_id, process_id,"
				" thread_id, lnc_idx or worker_gid)", what,
				(int)NX_MIN(len, 64), p);
			return -1;
		}
		for (int i = 0; i < *n; i++) {
			if (out[i] == (enum sysfield)f) {
				err_set("%s: '%s' given twice", what,
					fields[f].name);
				return -1;
			}
		}
		out[(*n)++] = (enum sysfield)f;
		p += len + (end ? 1 : 0);
	}
	return 0;
}

void sysgroup_fields_text(const enum sysfield *f, int n, struct strbuf *out)
{
	sb_reset(out);
	for (int i = 0; i < n; i++)
		sb_printf(out, "%s%s", i ? "," : "", fields[f[i]].name);
	sb_cstr(out);
}

/* A track's keys, from its args. */
struct tkeys {
	int64_t id;
	char *v[SYSF_COUNT];	/* NULL: absent */
	char *source;		/* NULL for counters */
	int src;		/* position in sources[], or 3 */
};

static void tkeys_free(struct tkeys *k)
{
	for (int f = 0; f < SYSF_COUNT; f++)
		free(k->v[f]);
	free(k->source);
}

static int read_keys(struct model *m, int64_t profile, struct tkeys **out,
		     size_t *n)
{
	sqlite3_stmt *st;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(model_db(m),
			       "SELECT id, json_extract(a, '$.source'),"
			       " json_extract(a, '$.instance_id'),"
			       " json_extract(a, '$.process_id'),"
			       " json_extract(a, '$.thread_id'),"
			       " json_extract(a, '$.lnc_idx'),"
			       " json_extract(a, '$.worker_gid')"
			       " FROM (SELECT id, CASE WHEN json_valid(args) THEN"
			       " args END AS a FROM track WHERE profile_id=? AND"
			       " kind<>'group') ORDER BY id", -1, &st,
			       NULL) != SQLITE_OK)
		return model_fail(m, "rows");
	sqlite3_bind_int64(st, 1, profile);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct tkeys *k;
		static const int col[SYSF_COUNT] = {
			[SYSF_INSTANCE] = 2, [SYSF_PROCESS] = 3,
			[SYSF_THREAD] = 4, [SYSF_LNC] = 5, [SYSF_WORKER] = 6,
		};

		*out = xgrow(*out, &cap, *n + 1, sizeof(**out));
		k = &(*out)[(*n)++];
		memset(k, 0, sizeof(*k));
		k->id = sqlite3_column_int64(st, 0);
		k->source = db_col_dup(st, 1);
		for (int f = 0; f < SYSF_COUNT; f++)
			k->v[f] = db_col_dup(st, col[f]);
		k->src = 3;
		for (int s = 0; s < 3; s++)
			if (k->source && !strcmp(k->source, sources[s]))
				k->src = s;
	}
	sqlite3_finalize(st);
	return 0;
}

static int cmp_id(const void *key, const void *elem)
{
	int64_t a = *(const int64_t *)key, b = ((const struct tkeys *)elem)->id;

	return a < b ? -1 : a > b;
}

/* Values compare as numbers when both are; absent ones go last. */
static int cmp_val(const char *a, const char *b)
{
	int64_t x, y;

	if (!a || !b)
		return a == b ? 0 : a ? -1 : 1;
	if (!parse_i64(a, strlen(a), &x) && !parse_i64(b, strlen(b), &y))
		return x < y ? -1 : x > y;
	return strcmp(a, b);
}

/* One track placed in the list. */
struct place {
	size_t track;		/* index in the profile's tracks */
	const struct tkeys *k;
	int counter;
	int64_t sort_key;
};

static _Thread_local const struct sysgroup *sort_g;

static int cmp_fields(const struct tkeys *a, const struct tkeys *b,
		      const enum sysfield *f, int n)
{
	for (int i = 0; i < n; i++) {
		int c = cmp_val(a->v[f[i]], b->v[f[i]]);

		if (c)
			return c;
	}
	return 0;
}

/* Display order: by group fields, then counters after event rows, then
 * by row fields and source, then as imported. */
static int cmp_place(const void *pa, const void *pb)
{
	const struct place *a = pa, *b = pb;
	int c = cmp_fields(a->k, b->k, sort_g->group, sort_g->ngroup);

	if (c)
		return c;
	if (a->counter != b->counter)
		return a->counter ? 1 : -1;
	if (!a->counter) {
		if ((c = cmp_fields(a->k, b->k, sort_g->row, sort_g->nrow)))
			return c;
		if (a->k->src != b->k->src)
			return a->k->src < b->k->src ? -1 : 1;
		if (a->k->src == 3 && (c = cmp_val(a->k->source, b->k->source)))
			return c;
	}
	return a->sort_key < b->sort_key ? -1 : a->sort_key > b->sort_key;
}

static void name_of(struct strbuf *sb, const struct tkeys *k,
		    const enum sysfield *f, int n, const char *tail)
{
	sb_reset(sb);
	for (int i = 0; i < n; i++) {
		if (!k->v[f[i]])
			continue;
		sb_printf(sb, "%s%s%s", sb->len ? "-" : "", fields[f[i]].prefix,
			  k->v[f[i]]);
	}
	if (tail)
		sb_printf(sb, "%s%s", sb->len ? "-" : "", tail);
	if (!sb->len)
		sb_adds(sb, "(none)");
	sb_cstr(sb);
}

/* A counter's row name: its own, or GROUP/NAME (model_track_label) when
 * a counter of another source (an instance) shares it in its group. */
static void counter_name(struct strbuf *sb, const struct mtrack *t,
			 size_t nt, const struct place *pl, size_t np,
			 size_t i, const struct sysgroup *g)
{
	const char *name = t[pl[i].track].name ? t[pl[i].track].name : "";

	sb_reset(sb);
	for (size_t j = 0; j < np; j++) {
		const char *o = t[pl[j].track].name;

		if (j != i && pl[j].counter && o && !strcasecmp(o, name) &&
		    !cmp_fields(pl[j].k, pl[i].k, g->group, g->ngroup)) {
			model_track_label(t, nt, pl[i].track, sb);
			sb_cstr(sb);
			return;
		}
	}
	sb_adds(sb, name);
	sb_cstr(sb);
}

static void track_dup(struct mtrack *dst, const struct mtrack *src)
{
	*dst = *src;
	dst->kind = src->kind ? xstrdup(src->kind) : NULL;
	dst->name = src->name ? xstrdup(src->name) : NULL;
	dst->unit = src->unit ? xstrdup(src->unit) : NULL;
}

static struct mrow *new_row(struct mrow **rows, size_t *n, size_t *cap)
{
	struct mrow *r;

	*rows = xgrow(*rows, cap, *n + 1, sizeof(**rows));
	r = &(*rows)[(*n)++];
	memset(r, 0, sizeof(*r));
	r->group = -1;
	return r;
}

static void add_track(struct mrow *r, const struct mtrack *t)
{
	r->tracks = xreallocarray(r->tracks, r->ntracks + 1, sizeof(*r->tracks));
	track_dup(&r->tracks[r->ntracks++], t);
	r->n_events += t->n_events;
	r->busy_ns += t->busy_ns;
	if (t->max_depth > r->max_depth)
		r->max_depth = t->max_depth;
}

int model_sysrows(struct model *m, int64_t profile, const struct sysgroup *g,
		  struct mrow **out, size_t *n)
{
	struct mtrack *t;
	struct tkeys *keys;
	struct place *pl;
	size_t nt, nk, np = 0, cap = 0;
	struct strbuf sb;
	int heading = -1;

	*out = NULL;
	*n = 0;
	if (model_tracks(m, profile, &t, &nt))
		return -1;
	if (read_keys(m, profile, &keys, &nk)) {
		model_tracks_free(t, nt);
		return -1;
	}
	pl = xcalloc(nt + 1, sizeof(*pl));
	for (size_t i = 0; i < nt; i++) {
		const struct tkeys *k = NULL;

		if (t[i].kind && !strcmp(t[i].kind, "group"))
			continue;
		k = bsearch(&t[i].id, keys, nk, sizeof(*keys), cmp_id);
		if (!k)
			continue;
		pl[np].track = i;
		pl[np].k = k;
		pl[np].counter = t[i].is_counter || !k->source;
		pl[np++].sort_key = t[i].sort_key;
	}
	sort_g = g;
	qsort(pl, np, sizeof(*pl), cmp_place);
	sort_g = NULL;
	sb_init(&sb);
	for (size_t i = 0; i < np; i++) {
		const struct place *p = &pl[i], *prev = i ? &pl[i - 1] : NULL;
		struct mrow *r;

		if (g->ngroup && (!prev || cmp_fields(prev->k, p->k, g->group,
						      g->ngroup))) {
			r = new_row(out, n, &cap);
			r->heading = 1;
			name_of(&sb, p->k, g->group, g->ngroup, NULL);
			r->name = xstrdup(sb.buf);
			r->kind = xstrdup("group");
			heading = (int)(*n - 1);
		}
		/* a row takes every track with the same row keys */
		if (prev && !p->counter && !prev->counter &&
		    !cmp_fields(prev->k, p->k, g->group, g->ngroup) &&
		    !cmp_fields(prev->k, p->k, g->row, g->nrow) &&
		    prev->k->src == p->k->src &&
		    !cmp_val(prev->k->source, p->k->source)) {
			add_track(&(*out)[*n - 1], &t[p->track]);
			continue;
		}
		r = new_row(out, n, &cap);
		r->group = heading;
		if (p->counter)
			counter_name(&sb, t, nt, pl, np, i, g);
		else
			name_of(&sb, p->k, g->row, g->nrow, p->k->source);
		r->name = xstrdup(sb.buf);
		r->kind = xstrdup(t[p->track].kind ? t[p->track].kind : "");
		add_track(r, &t[p->track]);
	}
	sb_free(&sb);
	free(pl);
	for (size_t i = 0; i < nk; i++)
		tkeys_free(&keys[i]);
	free(keys);
	model_tracks_free(t, nt);
	return 0;
}

void model_sysrows_free(struct mrow *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].name);
		free(rows[i].kind);
		model_tracks_free(rows[i].tracks, rows[i].ntracks);
	}
	free(rows);
}

int model_row_frame(struct model *m, const struct mrow *r, int64_t t0,
		    int64_t colw, int ncols, struct mcell *out)
{
	struct mcell *tmp;
	int64_t *best;		/* busy time of the track the top came from */

	if (r->ntracks == 1)
		return model_frame(m, &r->tracks[0], t0, colw, ncols, out);
	memset(out, 0, (size_t)NX_MAX(ncols, 0) * sizeof(*out));
	if (ncols <= 0 || !r->ntracks)
		return 0;
	tmp = xcalloc((size_t)ncols, sizeof(*tmp));
	best = xcalloc((size_t)ncols, sizeof(*best));
	for (size_t i = 0; i < r->ntracks; i++) {
		if (model_frame(m, &r->tracks[i], t0, colw, ncols, tmp)) {
			free(tmp);
			free(best);
			return -1;
		}
		for (int c = 0; c < ncols; c++) {
			struct mcell *o = &out[c];
			const struct mcell *x = &tmp[c];

			if (x->top_slice && (!o->top_slice || x->busy > best[c] ||
					     (x->busy == best[c] &&
					      x->top_dur > o->top_dur))) {
				o->top_slice = x->top_slice;
				o->top_name = x->top_name;
				o->top_cat = x->top_cat;
				o->top_dur = x->top_dur;
				o->top_ts = x->top_ts;
				best[c] = x->busy;
			}
			o->n += x->n;
			o->busy = NX_MIN(o->busy + x->busy, colw);
			if (x->max_depth > o->max_depth)
				o->max_depth = x->max_depth;
		}
	}
	free(tmp);
	free(best);
	return 0;
}
