#include "config.h"

#include "model/model.h"

#include <inttypes.h>
#include <regex.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/cache/db.h"
#include "model/file.h"
#include "model/lod.h"
#include "model/query.h"
#include "model/cache/schema.h"
#include "model/util.h"

/* Strings looked up by id stay cached; the table is emptied when full. */
#define STRCACHE_SIZE 65536

struct strslot {
	int64_t id;
	char *s;
};

struct model {
	sqlite3 *db;
	char *path;
	struct stat file;	/* the cache as opened */
	int disposable;		/* nxtop made it: removed when damaged */
	int removed;
	sqlite3_stmt *q_string, *q_lod, *q_lane_lod, *q_raw, *q_before, *q_clod, *q_craw,
		*q_cbefore, *q_step_next, *q_step_prev, *q_slice, *q_max_depth;
	struct strslot *strs;
	size_t nstrs;
	struct devqueue *devq;	/* device profiles still being imported */
};

/* A damaged cache (a disk error, a stray write) is found by the query
 * that reads the damage, not when it is opened: checking every page
 * would make opening a large cache take seconds. A cache nxtop made is
 * removed then, unless a new one has taken its name, so that the next
 * open rebuilds it. */
static void damaged(struct model *m, const char *why)
{
	struct stat sb;

	if (m->disposable && !m->removed && !stat(m->path, &sb) &&
	    sb.st_ino == m->file.st_ino && sb.st_dev == m->file.st_dev)
		m->removed = !unlink(m->path);
	if (m->removed)
		file_unlink_sqlite_sides(m->path);
	err_set("%s is damaged (%s): %s", m->path, why,
		m->removed ? "it was removed; open the profile again to rebuild"
		" it" : "delete it, then open the profile again to rebuild it");
}

/* SQLite logs every corruption it meets, also where a query's caller
 * takes the failed step for the end of its rows. */
static atomic_int corruption_seen;

static void sqlite_log(void *ctx, int code, const char *msg)
{
	(void)ctx;
	(void)msg;
	if ((code & 0xff) == SQLITE_CORRUPT || (code & 0xff) == SQLITE_NOTADB)
		atomic_store(&corruption_seen, 1);
}

void model_init(void)
{
	/* memory statistics take a global lock on every allocation, which
	 * import threads share; nxtop never reads them */
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	sqlite3_config(SQLITE_CONFIG_LOG, sqlite_log, NULL);
}

int model_check(struct model *m)
{
	sqlite3_stmt *st;

	if (!atomic_load(&corruption_seen))
		return 0;
	/* it may have been another file's (the user data): look at ours */
	if (sqlite3_prepare_v2(m->db, "PRAGMA quick_check(1)", -1, &st,
			       NULL) == SQLITE_OK) {
		const char *r = sqlite3_step(st) == SQLITE_ROW ?
				(const char *)sqlite3_column_text(st, 0) : NULL;

		if (r && !strcmp(r, "ok")) {
			sqlite3_finalize(st);
			atomic_store(&corruption_seen, 0);
			return 0;
		}
		sqlite3_finalize(st);
	}
	damaged(m, "database disk image is malformed");
	return -1;
}

int model_fail(struct model *m, const char *what)
{
	int code = sqlite3_errcode(m->db);

	if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB) {
		damaged(m, sqlite3_errmsg(m->db));
		return -1;
	}
	err_set("%s: %s: %s", m->path, what, sqlite3_errmsg(m->db));
	return -1;
}

void model_set_disposable(struct model *m)
{
	m->disposable = 1;
}

static int prep(struct model *m, sqlite3_stmt **st, const char *sql)
{
	if (sqlite3_prepare_v3(m->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st,
			       NULL) != SQLITE_OK)
		return model_fail(m, "prepare");
	return 0;
}

static void regex_free(void *p)
{
	regfree(p);
	free(p);
}

/* regexp(pattern, text): POSIX extended, compiled once per statement. */
static void regexp_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	regex_t *re = sqlite3_get_auxdata(ctx, 0);
	const char *text = (const char *)sqlite3_value_text(argv[1]);
	const char *pat;
	int match;

	(void)argc;
	if (re) {
		sqlite3_result_int(ctx, text && !regexec(re, text, 0, NULL, 0));
		return;
	}
	pat = (const char *)sqlite3_value_text(argv[0]);
	re = xmalloc(sizeof(*re));
	/* parsed queries were checked; this guards any other caller */
	if (!pat || query_regex_check(pat) ||
	    regcomp(re, pat, REG_EXTENDED | REG_NOSUB)) {
		free(re);
		sqlite3_result_error(ctx, "invalid regex", -1);
		return;
	}
	match = text && !regexec(re, text, 0, NULL, 0);
	/* SQLite may free re at once; it is not used after this */
	sqlite3_set_auxdata(ctx, 0, re, regex_free);
	sqlite3_result_int(ctx, match);
}

static struct model *open_path(const char *path)
{
	struct model *m = xcalloc(1, sizeof(*m));

	m->path = xstrdup(path);
	if (stat(path, &m->file))
		memset(&m->file, 0, sizeof(m->file));
	/* one connection per thread: no need for SQLite's locking */
	if (db_open_read(path, SQLITE_OPEN_NOMUTEX, &m->db)) {
		err_set("%s: %s", path, err_get());
		model_close(m);
		return NULL;
	}
	sqlite3_exec(m->db, "PRAGMA cache_size=-16384; PRAGMA temp_store=MEMORY;",
		     NULL, NULL, NULL);
	sqlite3_create_function(m->db, "regexp", 2, SQLITE_UTF8 |
				SQLITE_DETERMINISTIC, NULL, regexp_fn, NULL, NULL);
	if (schema_depths(m->db)) {
		model_fail(m, "open");
		model_close(m);
		return NULL;
	}
	if (prep(m, &m->q_string, "SELECT str FROM string WHERE id=?") ||
	    prep(m, &m->q_lod, "SELECT bucket, n, busy, top_slice, top_name,"
		 " top_cat FROM lod WHERE track_id=? AND level=? AND bucket"
		 " BETWEEN ? AND ?") ||
	    prep(m, &m->q_lane_lod, "SELECT bucket, n, busy, top_slice,"
		 " top_name, top_cat FROM lane_lod WHERE track_id=? AND"
		 " level=? AND bucket BETWEEN ? AND ? AND depth=?") ||
	    prep(m, &m->q_raw, "SELECT id, ts, dur, name, cat, depth FROM slice"
		 " WHERE track_id=? AND depth=? AND ts>=? AND ts<?") ||
	    prep(m, &m->q_before, "SELECT id, ts, dur, name, cat, depth FROM"
		 " slice WHERE track_id=? AND depth=? AND ts<? ORDER BY ts DESC"
		 " LIMIT 1") ||
	    prep(m, &m->q_clod, "SELECT bucket, n, vmin, vmax, vlast FROM"
		 " counter_lod WHERE track_id=? AND level=? AND bucket BETWEEN"
		 " ? AND ? ORDER BY bucket") ||
	    prep(m, &m->q_craw, "SELECT ts, value FROM counter WHERE"
		 " track_id=? AND ts>=? AND ts<? ORDER BY ts") ||
	    prep(m, &m->q_cbefore, "SELECT value FROM counter WHERE track_id=?"
		 " AND ts<? ORDER BY ts DESC LIMIT 1") ||
	    prep(m, &m->q_step_next, "SELECT id, track_id, ts, dur, name, cat,"
		 " depth, flags, parent_id FROM slice WHERE track_id=? AND depth=? AND ts>?"
		 " ORDER BY ts LIMIT 1") ||
	    prep(m, &m->q_step_prev, "SELECT id, track_id, ts, dur, name, cat,"
		 " depth, flags, parent_id FROM slice WHERE track_id=? AND depth=? AND ts<?"
		 " ORDER BY ts DESC LIMIT 1") ||
	    prep(m, &m->q_max_depth, "SELECT max_depth FROM track WHERE id=?") ||
	    prep(m, &m->q_slice, "SELECT id, track_id, ts, dur, name, cat,"
		 " depth, flags, parent_id FROM slice WHERE id=?")) {
		model_close(m);
		return NULL;
	}
	m->nstrs = STRCACHE_SIZE;
	m->strs = xcalloc(m->nstrs, sizeof(*m->strs));
	return m;
}

struct model *model_open(const char *path)
{
	/* damage met before (the old cache this one replaces) is not this
	 * cache's: checking it would read every page of a new cache */
	atomic_store(&corruption_seen, 0);
	return open_path(path);
}

struct model *model_open_more(const struct model *m)
{
	return open_path(m->path);
}

static void strcache_clear(struct model *m)
{
	for (size_t i = 0; i < m->nstrs; i++) {
		free(m->strs[i].s);
		m->strs[i].s = NULL;
		m->strs[i].id = 0;
	}
}

void model_close(struct model *m)
{
	if (!m)
		return;
	sqlite3_stmt *all[] = { m->q_string, m->q_lod, m->q_lane_lod, m->q_raw, m->q_before,
				m->q_clod, m->q_craw, m->q_cbefore,
				m->q_step_next, m->q_step_prev, m->q_slice,
				m->q_max_depth };
	for (size_t i = 0; i < NX_ARRAY_SIZE(all); i++)
		sqlite3_finalize(all[i]);
	if (m->strs)
		strcache_clear(m);
	free(m->strs);
	sqlite3_close(m->db);
	free(m->path);
	free(m);
}

void model_set_devqueue(struct model *m, struct devqueue *q)
{
	m->devq = q;
}

struct devqueue *model_devqueue(struct model *m)
{
	return m->devq;
}

void model_refresh(struct model *m)
{
	sqlite3_stmt *st = NULL;

	/* a statement left mid-way holds the read transaction open, and
	 * with it the cache as it was then */
	while ((st = sqlite3_next_stmt(m->db, st)))
		if (sqlite3_stmt_busy(st))
			sqlite3_reset(st);
}

sqlite3 *model_db(struct model *m)
{
	return m->db;
}

void model_set_stop(struct model *m, int (*stop)(void *), void *ctx)
{
	/* about every 20000 steps of SQLite's machine: well under 1 ms */
	sqlite3_progress_handler(m->db, stop ? 20000 : 0, stop, ctx);
}

const char *model_path(const struct model *m)
{
	return m->path;
}

const char *model_string(struct model *m, int64_t id)
{
	size_t h = (size_t)((uint64_t)id * 0x9e3779b97f4a7c15ull >> 40) %
		   m->nstrs;
	struct strslot *sl = &m->strs[h];
	const unsigned char *s;

	if (id <= 0)
		return "";
	if (sl->id == id)
		return sl->s;
	sqlite3_bind_int64(m->q_string, 1, id);
	s = sqlite3_step(m->q_string) == SQLITE_ROW ?
		    sqlite3_column_text(m->q_string, 0) : NULL;
	free(sl->s);
	sl->s = xstrdup(s ? (const char *)s : "");
	sl->id = id;
	sqlite3_reset(m->q_string);
	return sl->s;
}

int model_string_ids(struct model *m, const char *s, int64_t **ids, size_t *n)
{
	sqlite3_stmt *st;
	size_t cap = 4;

	*ids = xmalloc(cap * sizeof(**ids));
	*n = 0;
	if (prep(m, &st, "SELECT id FROM string WHERE str=?"))
		return -1;
	sqlite3_bind_text(st, 1, s, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		*ids = xgrow(*ids, &cap, *n + 1, sizeof(**ids));
		(*ids)[(*n)++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	return 0;
}

static int64_t col_opt(sqlite3_stmt *st, int i, int64_t dflt)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ?
		       dflt : sqlite3_column_int64(st, i);
}

#define PROFILE_COLS \
	"id, coalesce(parent_id, 0), kind, format, name, path, state," \
	" start_ns, end_ns, epoch, nc_idx, instance_id, instance_type," \
	" process_id, model, n_events, (SELECT max(t.max_ts) FROM track t" \
	" WHERE t.profile_id = profile.id AND t.n_events > 0)," \
	" (SELECT min(t.min_ts) FROM track t WHERE t.profile_id = profile.id" \
	" AND t.n_events > 0)"

static void read_profile(sqlite3_stmt *st, struct mprofile *p)
{
	p->id = sqlite3_column_int64(st, 0);
	p->parent_id = sqlite3_column_int64(st, 1);
	p->kind = db_col_dup(st, 2);
	p->format = db_col_dup(st, 3);
	p->name = db_col_dup(st, 4);
	p->path = db_col_dup(st, 5);
	p->state = db_col_dup(st, 6);
	p->start = col_opt(st, 7, 0);
	p->end = col_opt(st, 8, 0);
	p->epoch = sqlite3_column_int(st, 9);
	p->nc_idx = col_opt(st, 10, -1);
	p->instance_id = db_col_dup(st, 11);
	p->instance_type = db_col_dup(st, 12);
	p->process_id = db_col_dup(st, 13);
	p->model = db_col_dup(st, 14);
	p->n_events = sqlite3_column_int64(st, 15);
	p->last = NX_MAX(p->end, col_opt(st, 16, p->end));
	p->first = NX_MIN(p->start, col_opt(st, 17, p->start));
}

void model_profile_clear(struct mprofile *p)
{
	char **strs[] = { &p->kind, &p->format, &p->name, &p->path, &p->state,
			  &p->instance_id, &p->instance_type, &p->process_id,
			  &p->model };
	for (size_t i = 0; i < NX_ARRAY_SIZE(strs); i++) {
		free(*strs[i]);
		*strs[i] = NULL;
	}
}

int model_profiles(struct model *m, struct mprofile **out, size_t *n)
{
	sqlite3_stmt *st;
	size_t cap = 4;

	*out = xcalloc(cap, sizeof(**out));
	*n = 0;
	if (prep(m, &st, "SELECT " PROFILE_COLS " FROM profile ORDER BY id"))
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		*out = xgrow(*out, &cap, *n + 1, sizeof(**out));
		memset(&(*out)[*n], 0, sizeof(**out));
		read_profile(st, &(*out)[(*n)++]);
	}
	sqlite3_finalize(st);
	return 0;
}

void model_profiles_free(struct mprofile *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		model_profile_clear(&p[i]);
	free(p);
}

int model_sources(struct model *m, struct msource **out, size_t *n)
{
	sqlite3_stmt *st;

	*out = NULL;
	*n = 0;
	if (prep(m, &st, "SELECT path, role, size FROM source ORDER BY id"))
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct msource *s;

		*out = xreallocarray(*out, *n + 1, sizeof(**out));
		s = &(*out)[(*n)++];
		s->path = db_col_str(st, 0);
		s->role = db_col_str(st, 1);
		s->missing = sqlite3_column_int64(st, 2) == -1;
	}
	sqlite3_finalize(st);
	return 0;
}

void model_sources_add(struct msource **v, size_t *n, const char *path,
		       const char *role)
{
	struct msource *s;

	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	s = &(*v)[(*n)++];
	s->path = xstrdup(path);
	s->role = xstrdup(role);
	s->missing = 0;
}

void model_sources_free(struct msource *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].path);
		free(v[i].role);
	}
	free(v);
}

int model_profile(struct model *m, int64_t id, struct mprofile *out)
{
	sqlite3_stmt *st;
	int rc = 1;

	memset(out, 0, sizeof(*out));
	if (prep(m, &st, "SELECT " PROFILE_COLS " FROM profile WHERE id=?"))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		read_profile(st, out);
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

int64_t model_range_end(struct model *m, int64_t profile, int64_t t1)
{
	struct mprofile p;

	if (model_profile(m, profile, &p))
		return t1;
	t1 = range_end(&p, t1);
	model_profile_clear(&p);
	return t1;
}

int model_tracks(struct model *m, int64_t profile, struct mtrack **out,
		 size_t *n)
{
	sqlite3_stmt *st;
	size_t cap = 16;

	*out = xcalloc(cap, sizeof(**out));
	*n = 0;
	if (prep(m, &st, "SELECT id, profile_id, coalesce(parent_id, 0), kind,"
		 " name, unit, sort_key, n_events, max_dur, max_depth,"
		 " coalesce(min_ts, 0), coalesce(max_ts, 0), busy_ns,"
		 " coalesce(lod_level, -1), agg_fields, coalesce(agg_level, -1)"
		 " FROM track WHERE profile_id=?"
		 " ORDER BY sort_key, id"))
		return -1;
	sqlite3_bind_int64(st, 1, profile);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct mtrack *t;

		*out = xgrow(*out, &cap, *n + 1, sizeof(**out));
		memset(&(*out)[*n], 0, sizeof(**out));
		t = &(*out)[(*n)++];
		t->id = sqlite3_column_int64(st, 0);
		t->profile_id = sqlite3_column_int64(st, 1);
		t->parent_id = sqlite3_column_int64(st, 2);
		t->kind = db_col_dup(st, 3);
		t->name = db_col_dup(st, 4);
		t->unit = db_col_dup(st, 5);
		t->sort_key = sqlite3_column_int64(st, 6);
		t->n_events = sqlite3_column_int64(st, 7);
		t->max_dur = sqlite3_column_int64(st, 8);
		t->max_depth = sqlite3_column_int64(st, 9);
		t->min_ts = sqlite3_column_int64(st, 10);
		t->max_ts = sqlite3_column_int64(st, 11);
		t->busy_ns = sqlite3_column_int64(st, 12);
		t->lod_level = sqlite3_column_int(st, 13);
		t->agg_fields = (unsigned)sqlite3_column_int(st, 14);
		t->agg_level = sqlite3_column_int(st, 15);
		t->is_counter = t->kind && !strcmp(t->kind, "counter");
	}
	sqlite3_finalize(st);
	return 0;
}

void model_tracks_free(struct mtrack *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(t[i].kind);
		free(t[i].name);
		free(t[i].unit);
	}
	free(t);
}

/* The track of t's profile (before any other profile's in t) with id. */
static const struct mtrack *track_by_id(const struct mtrack *t, size_t n,
					int64_t profile, int64_t id)
{
	for (size_t j = 0; id && j < n; j++)
		if (t[j].id == id && t[j].profile_id == profile)
			return &t[j];
	return NULL;
}

int model_track_named(const struct mtrack *t, size_t n, size_t i,
		      const char *tok)
{
	const struct mtrack *p;
	size_t lp;

	if (!strcasecmp(t[i].name, tok))
		return 1;
	p = track_by_id(t, n, t[i].profile_id, t[i].parent_id);
	if (!p)
		return 0;
	lp = strlen(p->name);
	return !strncasecmp(tok, p->name, lp) && tok[lp] == '/' &&
	       !strcasecmp(tok + lp + 1, t[i].name);
}

void model_track_label(const struct mtrack *t, size_t n, size_t i,
		       struct strbuf *out)
{
	const struct mtrack *p =
		track_by_id(t, n, t[i].profile_id, t[i].parent_id);

	for (size_t j = 0; p && j < n; j++) {
		if (j != i && t[j].profile_id == t[i].profile_id &&
		    !strcasecmp(t[j].name, t[i].name)) {
			sb_printf(out, "%s/", p->name);
			break;
		}
	}
	sb_adds(out, t[i].name);
}

/* The level a frame with columns colw ns wide reads, or -1 for events. */
static int frame_level(const struct mtrack *t, int64_t colw)
{
	int lmax, l;

	if (t->lod_level < 0 || colw < lod_width(t->lod_level))
		return -1;
	lmax = lod_level_for(NX_MAX(t->max_ts - t->min_ts, 1));
	if (lmax < t->lod_level)
		lmax = t->lod_level;
	l = t->lod_level;
	while (l < lmax && lod_width(l + 1) <= colw)
		l++;
	return l;
}

struct frame {
	int64_t t0, colw, t1;
	int ncols;
	int64_t d0, d1;		/* the depths read from events */
	struct mcell *cells;
	int64_t covered;	/* union bookkeeping for busy time */
};

static int col_of(const struct frame *f, int64_t ts)
{
	if (ts < f->t0)
		return -1;
	int64_t c = (ts - f->t0) / f->colw;
	return c >= f->ncols ? f->ncols : (int)c;
}

/* Adds one event [ts, end) to the columns it overlaps. Events come in
 * start order, so busy time is the union of what they cover. */
static void frame_add(struct frame *f, int64_t id, int64_t ts, int64_t dur,
		      int64_t name, int64_t cat, int depth)
{
	int64_t end = sat_add(ts, dur);
	int c0 = NX_MAX(col_of(f, ts), 0);
	int c1 = end > ts ? col_of(f, end - 1) : c0;
	int64_t u0 = NX_MAX(ts, f->covered);

	if (c1 >= f->ncols)
		c1 = f->ncols - 1;
	if (ts >= f->t0 && ts < f->t1)
		f->cells[c0].n++;
	for (int c = c0; c <= c1; c++) {
		struct mcell *cell = &f->cells[c];
		int64_t lo = f->t0 + (int64_t)c * f->colw;
		int64_t hi = sat_add(lo, f->colw);
		int64_t amt = NX_MIN(end, hi) - NX_MAX(ts, lo);
		int64_t ulo = NX_MAX(u0, lo), uhi = NX_MIN(end, hi);

		if (uhi > ulo)
			cell->busy += uhi - ulo;
		if (amt < 0)
			continue;
		/* Prefer the longer overlap; on a tie, the deeper event. */
		if (!cell->top_slice || amt > cell->top_dur ||
		    (amt == cell->top_dur && depth > cell->max_depth)) {
			cell->top_slice = id;
			cell->top_name = name;
			cell->top_cat = cat;
			cell->top_dur = amt;
			cell->top_ts = ts;
		}
		if (depth > cell->max_depth)
			cell->max_depth = depth;
	}
	if (end > f->covered)
		f->covered = end;
}

/* Adds the rows of st (bucket, n, busy, top_slice, top_name, top_cat)
 * of one level, from events at the given depth (0 for a whole track's
 * rows); busy time only when with_busy. On a tie the deeper top wins,
 * as with events. */
static int frame_lod_rows(struct model *m, sqlite3_stmt *st,
			  const struct mtrack *t, int level, struct frame *f,
			  int depth, int with_busy)
{
	int sh = 2 * level;
	int64_t w = lod_width(level);
	int rc;

	sqlite3_bind_int64(st, 1, t->id);
	sqlite3_bind_int(st, 2, level);
	sqlite3_bind_int64(st, 3, lod_floor_shift(f->t0, sh));
	sqlite3_bind_int64(st, 4, lod_floor_shift(f->t1 - 1, sh));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t lo = sqlite3_column_int64(st, 0) * w;
		int64_t hi = sat_add(lo, w);
		int64_t busy = with_busy ? sqlite3_column_int64(st, 2) : 0;
		int c0 = NX_MAX(col_of(f, lo), 0);
		int c1 = NX_MIN(col_of(f, hi - 1), f->ncols - 1);

		if (lo >= f->t0 && c0 < f->ncols)
			f->cells[c0].n += sqlite3_column_int64(st, 1);
		for (int c = c0; c <= c1; c++) {
			struct mcell *cell = &f->cells[c];
			int64_t clo = f->t0 + (int64_t)c * f->colw;
			int64_t chi = sat_add(clo, f->colw);
			int64_t part = NX_MIN(hi, chi) - NX_MAX(lo, clo);

			/* spread busy time by the share of the bucket */
			cell->busy += (int64_t)((double)busy * (double)part /
						(double)w);
			if (!cell->top_slice || part > cell->top_dur ||
			    (part == cell->top_dur && depth > cell->max_depth)) {
				cell->top_slice = sqlite3_column_int64(st, 3);
				cell->top_name = sqlite3_column_int64(st, 4);
				cell->top_cat = sqlite3_column_int64(st, 5);
				cell->top_dur = part;
			}
			cell->max_depth = NX_MAX(cell->max_depth, depth);
		}
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : model_fail(m, "frame");
}

static void frame_lod_done(struct frame *f)
{
	for (int c = 0; c < f->ncols; c++)
		f->cells[c].top_dur = 0;
}

static int frame_lod(struct model *m, const struct mtrack *t, int level,
		     struct frame *f)
{
	int rc = frame_lod_rows(m, m->q_lod, t, level, f, 0, 1);

	frame_lod_done(f);
	return rc;
}

/* A lane from the per-depth rows of its depths: busy time is depth
 * d0's, whose events hold the deeper ones; counts and tops are of all. */
static int frame_lane_lod(struct model *m, const struct mtrack *t, int level,
			  struct frame *f)
{
	sqlite3_stmt *st = m->q_lane_lod;
	int rc = 0;

	for (int d = f->d0; d <= f->d1 && !rc; d++) {
		sqlite3_bind_int(st, 5, d);
		rc = frame_lod_rows(m, st, t, level, f, d, d == f->d0);
	}
	frame_lod_done(f);
	return rc;
}

/* Events of a frame, gathered from every depth, added in start order. */
struct evlist {
	struct mslice *v;
	size_t n, cap;
};

static void ev_push(struct evlist *l, sqlite3_stmt *st)
{
	struct mslice *s;

	l->v = xgrow(l->v, &l->cap, l->n + 1, sizeof(*l->v));
	s = &l->v[l->n++];
	s->id = sqlite3_column_int64(st, 0);
	s->ts = sqlite3_column_int64(st, 1);
	s->dur = sqlite3_column_int64(st, 2);
	s->name = sqlite3_column_int64(st, 3);
	s->cat = sqlite3_column_int64(st, 4);
	s->depth = sqlite3_column_int(st, 5);
}

static int cmp_start(const void *a, const void *b)
{
	const struct mslice *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->depth - y->depth;
}

static void ev_add_all(struct evlist *l, struct frame *f)
{
	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), cmp_start);
	for (size_t i = 0; i < l->n; i++)
		frame_add(f, l->v[i].id, l->v[i].ts, l->v[i].dur, l->v[i].name,
			  l->v[i].cat, l->v[i].depth);
	free(l->v);
}

/* Events starting before the frame that may reach into it: the last one
 * at each depth (properly nested tracks have at most one per depth). */
static void frame_before(struct model *m, const struct mtrack *t,
			 struct frame *f, struct evlist *l)
{
	for (int64_t d = f->d0; d <= f->d1; d++) {
		sqlite3_stmt *st = m->q_before;

		sqlite3_bind_int64(st, 1, t->id);
		sqlite3_bind_int64(st, 2, d);
		sqlite3_bind_int64(st, 3, f->t0);
		if (sqlite3_step(st) == SQLITE_ROW &&
		    sat_add(sqlite3_column_int64(st, 1),
			    sqlite3_column_int64(st, 2)) > f->t0)
			ev_push(l, st);
		sqlite3_reset(st);
	}
}

static int frame_raw(struct model *m, const struct mtrack *t, struct frame *f)
{
	sqlite3_stmt *st = m->q_raw;
	struct evlist l = { 0 };
	int64_t lo = f->t0;
	int rc = SQLITE_DONE;

	/* Short events: read back by the longest duration. Long ones
	 * exist: find the ones reaching in per depth instead. */
	if (t->max_dur / 16 <= f->t1 - f->t0)
		lo = sat_add(f->t0, -t->max_dur);
	else
		frame_before(m, t, f, &l);
	for (int64_t d = f->d0; d <= f->d1 && rc == SQLITE_DONE; d++) {
		sqlite3_bind_int64(st, 1, t->id);
		sqlite3_bind_int64(st, 2, d);
		sqlite3_bind_int64(st, 3, lo);
		sqlite3_bind_int64(st, 4, f->t1);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			ev_push(&l, st);
		sqlite3_reset(st);
	}
	ev_add_all(&l, f);
	return rc == SQLITE_DONE ? 0 : model_fail(m, "frame");
}

/* Clears out[] and sets up f for depths d0..d1 of t over ncols columns
 * of colw ns from t0; 0 when nothing of t can show there. */
static int frame_init(struct frame *f, const struct mtrack *t, int64_t t0,
		      int64_t colw, int ncols, struct mcell *out, int d0,
		      int d1)
{
	memset(out, 0, (size_t)NX_MAX(ncols, 0) * sizeof(*out));
	if (ncols <= 0 || colw <= 0 || t->is_counter || !t->n_events)
		return 0;
	f->t0 = t0;
	f->colw = colw;
	f->ncols = ncols;
	f->t1 = sat_add(t0, colw > INT64_MAX / ncols ? INT64_MAX :
			colw * ncols);
	f->cells = out;
	f->covered = INT64_MIN;
	f->d0 = d0;
	f->d1 = d1;
	return f->t1 > t->min_ts && t0 <= t->max_ts && d0 <= d1;
}

static int frame(struct model *m, const struct mtrack *t, int64_t t0,
		 int64_t colw, int ncols, struct mcell *out, int events)
{
	struct frame f;
	int level;

	if (!frame_init(&f, t, t0, colw, ncols, out, 0, t->max_depth))
		return 0;
	level = events ? -1 : frame_level(t, colw);
	return level >= 0 ? frame_lod(m, t, level, &f) : frame_raw(m, t, &f);
}

int model_frame(struct model *m, const struct mtrack *t, int64_t t0,
		int64_t colw, int ncols, struct mcell *out)
{
	return frame(m, t, t0, colw, ncols, out, 0);
}

int model_frame_events(struct model *m, const struct mtrack *t, int64_t t0,
		       int64_t colw, int ncols, struct mcell *out)
{
	return frame(m, t, t0, colw, ncols, out, 1);
}

/* Zoomed out, a lane reads one event per run of columns: the one at
 * depth d0 that starts last before the column ends (deeper events lie
 * inside those), so the reads are bounded by the columns, not by the
 * events. Counts are then of the events shown. */
static int frame_probe(struct model *m, const struct mtrack *t,
		       struct frame *f)
{
	sqlite3_stmt *st = m->q_before;
	int64_t last = 0;
	int rc = SQLITE_DONE;

	for (int c = 0; c < f->ncols; c++) {
		int64_t lo = sat_add(f->t0, (int64_t)c * f->colw);
		int64_t id, ts, end;

		sqlite3_bind_int64(st, 1, t->id);
		sqlite3_bind_int64(st, 2, f->d0);
		sqlite3_bind_int64(st, 3, sat_add(lo, f->colw));
		rc = sqlite3_step(st);
		if (rc != SQLITE_ROW) {
			sqlite3_reset(st);
			if (rc != SQLITE_DONE)
				break;
			continue;
		}
		id = sqlite3_column_int64(st, 0);
		ts = sqlite3_column_int64(st, 1);
		end = sat_add(ts, sqlite3_column_int64(st, 2));
		if (id != last && (end > lo || ts >= lo)) {
			frame_add(f, id, ts, end - ts, sqlite3_column_int64(st, 3),
				  sqlite3_column_int64(st, 4),
				  sqlite3_column_int(st, 5));
			last = id;
			c = NX_MAX(c, col_of(f, end > ts ? end - 1 : ts) - 1);
		}
		sqlite3_reset(st);
		rc = SQLITE_DONE;
	}
	return rc == SQLITE_DONE ? 0 : model_fail(m, "frame");
}

/* A zoomed-out lane from the per-depth LOD rows of the level, or
 * without them (level -1) from probes, in one read transaction: each
 * statement on its own would take and drop the file's lock, which costs
 * more than the read. */
static int lane_in_transaction(struct model *m, const struct mtrack *t,
			       struct frame *f, int level)
{
	int own = sqlite3_get_autocommit(m->db) &&
		  sqlite3_exec(m->db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
	int rc = level >= 0 ? frame_lane_lod(m, t, level, f) :
			      frame_probe(m, t, f);

	if (own)
		sqlite3_exec(m->db, "COMMIT", NULL, NULL, NULL);
	return rc;
}

int model_lane_frame(struct model *m, const struct mtrack *t, int d0, int d1,
		     int64_t t0, int64_t colw, int ncols, struct mcell *out)
{
	struct frame f;
	double span = (double)NX_MAX(t->max_ts - t->min_ts, 1);

	if (!frame_init(&f, t, t0, colw, ncols, out, d0,
			NX_MIN(d1, t->max_depth)))
		return 0;
	if ((double)t->n_events * (double)(f.t1 - f.t0) / span <=
	    (double)ncols * LANE_EVENTS_PER_COL)
		return frame_raw(m, t, &f);
	return lane_in_transaction(m, t, &f, frame_level(t, colw));
}

static void ccell_add(struct mccell *c, double v, int64_t n)
{
	if (!c->n || v < c->vmin)
		c->vmin = v;
	if (!c->n || v > c->vmax)
		c->vmax = v;
	c->n += n;
}

int model_counter_frame(struct model *m, const struct mtrack *t, int64_t t0,
			int64_t colw, int ncols, struct mccell *out)
{
	struct frame f = { .t0 = t0, .colw = colw, .ncols = ncols };
	int level, rc, have = 0;
	double last = 0;
	sqlite3_stmt *st;

	memset(out, 0, (size_t)ncols * sizeof(*out));
	if (ncols <= 0 || colw <= 0 || !t->is_counter || !t->n_events)
		return 0;
	f.t1 = sat_add(t0, colw > INT64_MAX / ncols ? INT64_MAX : colw * ncols);
	sqlite3_bind_int64(m->q_cbefore, 1, t->id);
	sqlite3_bind_int64(m->q_cbefore, 2, t0);
	if (sqlite3_step(m->q_cbefore) == SQLITE_ROW) {
		last = sqlite3_column_double(m->q_cbefore, 0);
		have = 1;
	}
	sqlite3_reset(m->q_cbefore);
	level = frame_level(t, colw);
	st = level >= 0 ? m->q_clod : m->q_craw;
	sqlite3_bind_int64(st, 1, t->id);
	if (level >= 0) {
		sqlite3_bind_int(st, 2, level);
		sqlite3_bind_int64(st, 3, lod_floor_shift(t0, 2 * level));
		sqlite3_bind_int64(st, 4, lod_floor_shift(f.t1 - 1, 2 * level));
	} else {
		sqlite3_bind_int64(st, 2, t0);
		sqlite3_bind_int64(st, 3, f.t1);
	}
	int cur = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t ts = level >= 0 ? sqlite3_column_int64(st, 0) *
					 lod_width(level) :
				 sqlite3_column_int64(st, 0);
		int c = NX_MAX(col_of(&f, ts), 0);

		if (c >= ncols)
			break;
		/* the held value fills columns without samples */
		for (; cur < c; cur++) {
			if (have && !out[cur].n) {
				out[cur].vmin = out[cur].vmax = last;
				out[cur].have = 1;
			}
			out[cur].vlast = last;
		}
		if (level >= 0) {
			ccell_add(&out[c], sqlite3_column_double(st, 2),
				  sqlite3_column_int64(st, 1));
			ccell_add(&out[c], sqlite3_column_double(st, 3), 0);
			last = sqlite3_column_double(st, 4);
		} else {
			last = sqlite3_column_double(st, 1);
			ccell_add(&out[c], last, 1);
		}
		have = 1;
		out[c].have = 1;
		out[c].vlast = last;
	}
	sqlite3_reset(st);
	int endc = t->max_ts < f.t1 ? col_of(&f, t->max_ts) + 1 : ncols;
	for (; cur < NX_MIN(endc, ncols); cur++) {
		if (have && !out[cur].n) {
			out[cur].vmin = out[cur].vmax = last;
			out[cur].have = 1;
		}
		if (!out[cur].n)
			out[cur].vlast = last;
	}
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 :
							  model_fail(m, "counter frame");
}

int model_counter_range(struct model *m, int64_t track, double *vmin,
			double *vmax)
{
	sqlite3_stmt *st;
	int rc = 1;

	/* The coarsest level-of-detail rows hold the same extremes as the
	 * samples in a handful of rows; tracks without them are short. */
	if (prep(m, &st, "SELECT min(vmin), max(vmax) FROM counter_lod"
		 " WHERE track_id=?1 AND level=(SELECT max(level) FROM"
		 " counter_lod WHERE track_id=?1)"))
		return -1;
	sqlite3_bind_int64(st, 1, track);
	if (sqlite3_step(st) != SQLITE_ROW ||
	    sqlite3_column_type(st, 0) == SQLITE_NULL) {
		sqlite3_finalize(st);
		if (prep(m, &st, "SELECT min(value), max(value) FROM counter"
			 " WHERE track_id=?"))
			return -1;
		sqlite3_bind_int64(st, 1, track);
		sqlite3_step(st);
	}
	if (sqlite3_column_type(st, 0) != SQLITE_NULL) {
		*vmin = sqlite3_column_double(st, 0);
		*vmax = sqlite3_column_double(st, 1);
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

void model_slice_read(sqlite3_stmt *st, struct mslice *s)
{
	s->id = sqlite3_column_int64(st, 0);
	s->track_id = sqlite3_column_int64(st, 1);
	s->ts = sqlite3_column_int64(st, 2);
	s->dur = sqlite3_column_int64(st, 3);
	s->name = sqlite3_column_int64(st, 4);
	s->cat = sqlite3_column_int64(st, 5);
	s->depth = sqlite3_column_int(st, 6);
	s->flags = (unsigned)sqlite3_column_int(st, 7);
	s->parent = sqlite3_column_int64(st, 8);
}

static int one_slice(struct model *m, sqlite3_stmt *st, struct mslice *out)
{
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW)
		model_slice_read(st, out);
	sqlite3_reset(st);
	if (rc == SQLITE_ROW)
		return 0;
	return rc == SQLITE_DONE ? 1 : model_fail(m, "slice");
}

int model_slice(struct model *m, int64_t id, struct mslice *out)
{
	sqlite3_bind_int64(m->q_slice, 1, id);
	return one_slice(m, m->q_slice, out);
}

int model_slice_at(struct model *m, const struct mtrack *t, int64_t ts,
		   struct mslice *out)
{
	for (int64_t d = t->max_depth; d >= 0; d--) {
		sqlite3_stmt *st = m->q_before;
		int64_t id = 0;

		sqlite3_bind_int64(st, 1, t->id);
		sqlite3_bind_int64(st, 2, d);
		sqlite3_bind_int64(st, 3, sat_add(ts, 1));
		if (sqlite3_step(st) == SQLITE_ROW) {
			int64_t s = sqlite3_column_int64(st, 1);
			int64_t e = sat_add(s, sqlite3_column_int64(st, 2));

			if (e > ts || s == ts)
				id = sqlite3_column_int64(st, 0);
		}
		sqlite3_reset(st);
		if (id)
			return model_slice(m, id, out);
	}
	return 1;
}

int model_slice_step(struct model *m, int64_t track, int64_t ts, int dir,
		     struct mslice *out)
{
	sqlite3_stmt *st = dir > 0 ? m->q_step_next : m->q_step_prev;
	int64_t max_depth = 0;
	struct mslice cur;
	int found = 0, rc;

	sqlite3_bind_int64(m->q_max_depth, 1, track);
	if (sqlite3_step(m->q_max_depth) == SQLITE_ROW)
		max_depth = sqlite3_column_int64(m->q_max_depth, 0);
	sqlite3_reset(m->q_max_depth);
	/* the nearest start over every depth */
	for (int64_t d = 0; d <= max_depth; d++) {
		sqlite3_bind_int64(st, 1, track);
		sqlite3_bind_int64(st, 2, d);
		sqlite3_bind_int64(st, 3, ts);
		rc = one_slice(m, st, &cur);
		if (rc < 0)
			return -1;
		if (rc == 0 && (!found || (dir > 0 ? cur.ts < out->ts :
					   cur.ts > out->ts))) {
			*out = cur;
			found = 1;
		}
	}
	return found ? 0 : 1;
}

/* Ends are looked for among this many events starting before ts + maxdist,
 * latest first: enough for any real track, bounded for odd ones. */
#define NX_EDGE_SCAN_MAX_STR "100000"

static void edge_pick(sqlite3_stmt *st, int64_t ts, int64_t *best,
		      int64_t *bestd)
{
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t e = sqlite3_column_int64(st, 0);
		int64_t d = e > ts ? e - ts : ts - e;

		if (d < *bestd) {
			*best = e;
			*bestd = d;
		}
	}
	sqlite3_reset(st);
}

int model_edge_near(struct model *m, const struct mtrack *t, int64_t ts,
		    int64_t maxdist, int64_t *edge)
{
	/* per depth: the index is (track_id, depth, ts) */
	static const char *const sql[] = {
		"SELECT ts FROM slice WHERE track_id=?1 AND depth=?6 AND ts>=?2"
		" ORDER BY ts LIMIT 1",
		"SELECT ts FROM slice WHERE track_id=?1 AND depth=?6 AND ts<=?2"
		" ORDER BY ts DESC LIMIT 1",
		"SELECT e FROM (SELECT ts+dur AS e FROM slice WHERE track_id=?1"
		" AND depth=?6 AND ts>=?3 AND ts<=?4 ORDER BY ts DESC LIMIT "
		NX_EDGE_SCAN_MAX_STR ") WHERE e>=?5 AND e<=?4",
	};
	int64_t best = 0, bestd = INT64_MAX;

	if (t->is_counter || !t->n_events || maxdist < 0)
		return 1;
	for (size_t i = 0; i < NX_ARRAY_SIZE(sql); i++) {
		sqlite3_stmt *st;

		if (sqlite3_prepare_v2(m->db, sql[i], -1, &st, NULL) != SQLITE_OK)
			return model_fail(m, "edge");
		sqlite3_bind_int64(st, 1, t->id);
		sqlite3_bind_int64(st, 2, ts);
		sqlite3_bind_int64(st, 3, sat_add(ts, -sat_add(maxdist, t->max_dur)));
		sqlite3_bind_int64(st, 4, sat_add(ts, maxdist));
		sqlite3_bind_int64(st, 5, sat_add(ts, -maxdist));
		for (int64_t d = 0; d <= t->max_depth; d++) {
			sqlite3_bind_int64(st, 6, d);
			edge_pick(st, ts, &best, &bestd);
		}
		sqlite3_finalize(st);
	}
	if (bestd > maxdist)
		return 1;
	*edge = best;
	return 0;
}
