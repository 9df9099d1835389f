/* Flow queries. A flow's ends are read with their rows in one join;
 * a missing end reads as NULLs, which become slice id 0. */
#include "config.h"

#include "model/flow.h"

#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/timefmt.h"
#include "model/util.h"

#define END_COLS(S, T) S ".id, " S ".track_id, " S ".ts, " S ".dur, " \
	S ".name, " S ".cat, " S ".depth, " S ".flags, " S ".parent_id, " \
	T ".name"
#define FLOW_SELECT "SELECT f.id, coalesce(f.flow_id, ''), coalesce(f.kind," \
	" ''), " END_COLS("o", "ot") ", " END_COLS("i", "it") " FROM flow f" \
	" LEFT JOIN slice o ON o.id = f.slice_out" \
	" LEFT JOIN track ot ON ot.id = o.track_id" \
	" LEFT JOIN slice i ON i.id = f.slice_in" \
	" LEFT JOIN track it ON it.id = i.track_id"
#define END_NCOLS 10

static char *col_dup(sqlite3_stmt *st, int c)
{
	const unsigned char *s = sqlite3_column_text(st, c);

	return xstrdup(s ? (const char *)s : "");
}

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
	*row = col_dup(st, c + 9);
}

static void flow_read(sqlite3_stmt *st, struct mflow *f)
{
	f->id = sqlite3_column_int64(st, 0);
	f->flow_id = col_dup(st, 1);
	f->kind = col_dup(st, 2);
	end_read(st, 3, &f->out, &f->out_row);
	end_read(st, 3 + END_NCOLS, &f->in, &f->in_row);
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
 * after it (plain flows are most, and their ids are in the export). */
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
		sb_printf(out, " (%s)", f->kind);
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
