/* Flow queries. A flow's ends are read with their rows in one join;
 * a missing end reads as NULLs, which become slice id 0. */
#include "config.h"

#include "model/flow.h"

#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/cache/db.h"
#include "model/timefmt.h"
#include "model/util.h"

#define END_COLS(S, T) S ".id, " S ".track_id, " S ".ts, " S ".dur, " \
	S ".name, " S ".cat, " S ".depth, " S ".flags, " S ".parent_id, " \
	T ".name"
#define FLOW_SELECT "SELECT f.id, coalesce(f.flow_id, ''), coalesce(f.kind," \
	" ''), f.exact, " END_COLS("o", "ot") ", " END_COLS("i", "it") " FROM flow f" \
	" LEFT JOIN slice o ON o.id = f.slice_out" \
	" LEFT JOIN track ot ON ot.id = o.track_id" \
	" LEFT JOIN slice i ON i.id = f.slice_in" \
	" LEFT JOIN track it ON it.id = i.track_id"
#define END_NCOLS 10

static void end_read(sqlite3_stmt *st, int c, struct mslice *s, char **row)
{
	s->id = sqlite3_column_int64(st, c);
	s->track_id = sqlite3_column_int64(st, c + 1);
	s->ts = sqlite3_column_int64(st, c + 2);
	s->dur = sqlite3_column_int64(st, c + 3);
	s->name = sqlite3_column_int64(st, c + 4);
	s->cat = sqlite3_column_int64(st, c + 5);
	s->depth = sqlite3_column_int(st, c + 6);
	s->flags = (unsigned)sqlite3_column_int(st, c + 7);
	s->parent = sqlite3_column_int64(st, c + 8);
	*row = db_col_str(st, c + 9);
}

static void flow_read(sqlite3_stmt *st, struct mflow *f)
{
	f->id = sqlite3_column_int64(st, 0);
	f->flow_id = db_col_str(st, 1);
	f->kind = db_col_str(st, 2);
	f->exact = sqlite3_column_int(st, 3);
	end_read(st, 4, &f->out, &f->out_row);
	end_read(st, 4 + END_NCOLS, &f->in, &f->in_row);
}

static void flow_clear(struct mflow *f)
{
	free(f->flow_id);
	free(f->kind);
	free(f->out_row);
	free(f->in_row);
}

void flow_free(struct mflow *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		flow_clear(&f[i]);
	free(f);
}

int flow_of_slice(struct model *m, int64_t slice, struct mflow **out,
		  size_t *n)
{
	sqlite3_stmt *st;
	int rc;

	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(model_db(m), FLOW_SELECT " WHERE f.id IN"
			       " (SELECT id FROM flow WHERE slice_out = ?1 UNION"
			       " SELECT id FROM flow WHERE slice_in = ?1)"
			       " ORDER BY f.slice_out IS NOT ?1, f.id LIMIT ?2",
			       -1, &st, NULL) != SQLITE_OK)
		return model_fail(m, "flows");
	sqlite3_bind_int64(st, 1, slice);
	sqlite3_bind_int(st, 2, FLOW_LIST_MAX);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*out = xreallocarray(*out, *n + 1, sizeof(**out));
		flow_read(st, &(*out)[(*n)++]);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
	flow_free(*out, *n);
	*out = NULL;
	*n = 0;
	return model_fail(m, "flows");
}

int flow_each(struct model *m, int64_t profile, flow_fn fn, void *ctx)
{
	sqlite3_stmt *st;
	struct mflow f;
	int rc, stop = 0;

	if (sqlite3_prepare_v2(model_db(m), FLOW_SELECT " WHERE"
			       " coalesce(ot.profile_id, it.profile_id) = ?1"
			       " ORDER BY f.id", -1, &st, NULL) != SQLITE_OK)
		return model_fail(m, "flows");
	sqlite3_bind_int64(st, 1, profile);
	while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		flow_read(st, &f);
		stop = fn(ctx, &f);
		flow_clear(&f);
	}
	sqlite3_finalize(st);
	if (stop)
		return 0;
	return rc == SQLITE_DONE ? 0 : model_fail(m, "flows");
}

int flow_count(struct model *m, int64_t profile, struct flow_counts *c)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(model_db(m), "SELECT coalesce(sum(o.id IS NOT"
			       " NULL AND i.id IS NOT NULL), 0), coalesce(sum("
			       "i.id IS NULL), 0), coalesce(sum(o.id IS NULL), 0)"
			       " FROM flow f LEFT JOIN slice o ON o.id ="
			       " f.slice_out LEFT JOIN track ot ON ot.id ="
			       " o.track_id LEFT JOIN slice i ON i.id = f.slice_in"
			       " LEFT JOIN track it ON it.id = i.track_id WHERE"
			       " coalesce(ot.profile_id, it.profile_id) = ?1",
			       -1, &st, NULL) != SQLITE_OK)
		return model_fail(m, "flows");
	sqlite3_bind_int64(st, 1, profile);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		c->paired = sqlite3_column_int64(st, 0);
		c->no_in = sqlite3_column_int64(st, 1);
		c->no_out = sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : model_fail(m, "flows");
}

const struct mslice *flow_other(const struct mflow *f, int64_t id,
				const char **row)
{
	const struct mslice *s = f->out.id == id ? &f->in : &f->out;

	*row = s == &f->in ? f->in_row : f->out_row;
	return s->id ? s : NULL;
}

/* "name on row at 1.25 ms", or the missing end; a dependency's kind
 * and whether the profile states it after it (plain flows are most,
 * and their ids are in the export). */
static void flow_line(struct model *m, const struct mflow *f, int64_t id,
		      int64_t pstart, int tf, struct strbuf *out)
{
	const char *row;
	const struct mslice *o = flow_other(f, id, &row);
	char when[48];

	sb_reset(out);
	if (o) {
		timefmt_dur(when, sizeof(when), o->ts - pstart, 6, tf);
		sb_printf(out, "%s on %s at %s", model_string(m, o->name), row,
			  when);
	} else {
		sb_adds(out, f->out.id == id ? "(no end: unpaired)" :
			"(no start: unpaired)");
	}
	if (strcmp(f->kind, "flow"))
		sb_printf(out, " (%s, %s)", f->kind,
			  f->exact ? "exact" : "inferred");
}

int flow_fields(struct model *m, const struct mslice *s, int64_t pstart,
		int tf, mfield_fn fn, void *ctx)
{
	struct mflow *f;
	struct strbuf v;
	char key[32];
	size_t n;

	if (flow_of_slice(m, s->id, &f, &n))
		return -1;
	sb_init(&v);
	for (size_t i = 0; i < n && i < FLOW_FIELDS_MAX; i++) {
		flow_line(m, &f[i], s->id, pstart, tf, &v);
		snprintf(key, sizeof(key), "%s %zu", f[i].out.id == s->id ?
			 "to" : "from", i + 1);
		fn(ctx, "Flows", key, sb_cstr(&v), NULL);
	}
	if (n > FLOW_FIELDS_MAX) {
		sb_reset(&v);
		sb_printf(&v, "%zu more%s (F lists them)", n - FLOW_FIELDS_MAX,
			  n == FLOW_LIST_MAX ? " or further" : "");
		fn(ctx, "Flows", "more", sb_cstr(&v), NULL);
	}
	sb_free(&v);
	flow_free(f, n);
	return 0;
}

struct flow_marks {
	struct model *m;
	sqlite3_stmt *st;
};

struct flow_marks *flow_marks_open(struct model *m)
{
	struct flow_marks *fm = xcalloc(1, sizeof(*fm));

	fm->m = m;
	if (sqlite3_prepare_v2(model_db(m), "SELECT ts, dir, depth FROM"
			       " flow_mark WHERE track_id=?1 AND ts>=?2 AND"
			       " ts<?3 ORDER BY ts", -1, &fm->st, NULL)
	    != SQLITE_OK) {
		model_fail(m, "flow marks");
		free(fm);
		return NULL;
	}
	return fm;
}

void flow_marks_close(struct flow_marks *fm)
{
	if (!fm)
		return;
	sqlite3_finalize(fm->st);
	free(fm);
}

/* Reads the ends from column c on until a column has had
 * FLOW_MARK_READS of them; the column to seek to next, or ncols at the
 * end. */
static int marks_run(sqlite3_stmt *st, int c, int nlanes, int64_t t0,
		     int64_t colw, int ncols, unsigned char *out, int *rc)
{
	int reads = 0;

	while ((*rc = sqlite3_step(st)) == SQLITE_ROW) {
		uint64_t off = (uint64_t)sqlite3_column_int64(st, 0) -
			       (uint64_t)t0;
		int cc = (int)NX_MIN(off / (uint64_t)colw, (uint64_t)ncols - 1);
		int lane = NX_MIN(NX_MAX(sqlite3_column_int(st, 2), 0),
				  nlanes - 1);

		if (cc > c) {
			c = cc;
			reads = 0;
		}
		out[(size_t)lane * (size_t)ncols + (size_t)cc] |=
			sqlite3_column_int(st, 1) ? FLOW_MARK_IN : FLOW_MARK_OUT;
		if (++reads >= FLOW_MARK_READS)
			return c + 1;
	}
	return ncols;
}

/* The start of column c, ns. */
static int64_t col_start(int64_t t0, int64_t colw, int c)
{
	return colw > INT64_MAX / NX_MAX(c, 1) ? INT64_MAX :
	       sat_add(t0, (int64_t)c * colw);
}

int flow_marks_read(struct flow_marks *fm, int64_t track, int nlanes,
		    int64_t t0, int64_t colw, int ncols, unsigned char *out)
{
	sqlite3 *db = model_db(fm->m);
	int rc = SQLITE_DONE, c = 0, own;

	if (ncols <= 0 || colw <= 0 || nlanes <= 0)
		return 0;
	memset(out, 0, (size_t)nlanes * (size_t)ncols);
	/* the seeks in one read transaction, as frame probes do */
	own = sqlite3_get_autocommit(db) &&
	      sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
	while (c < ncols && rc == SQLITE_DONE) {
		sqlite3_bind_int64(fm->st, 1, track);
		sqlite3_bind_int64(fm->st, 2, col_start(t0, colw, c));
		sqlite3_bind_int64(fm->st, 3, col_start(t0, colw, ncols));
		c = marks_run(fm->st, c, nlanes, t0, colw, ncols, out, &rc);
		sqlite3_reset(fm->st);
		if (rc == SQLITE_ROW)
			rc = SQLITE_DONE;
	}
	if (own)
		sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	return rc == SQLITE_DONE ? 0 : model_fail(fm->m, "flow marks");
}
