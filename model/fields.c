/* Every field of one event, grouped the way the details pane and the
 * exports show them: Event, Timing, IDs, Instruction or DMA or System
 * fields, HLO and layer, Operands, then the remaining fields as stored.
 * The typed fields come from the column tables (model/cache/columns.h). */
#include "config.h"

#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/cache/columns.h"
#include "model/flow.h"
#include "model/model.h"
#include "model/nest.h"
#include "model/timefmt.h"
#include "model/util.h"

struct emit {
	struct model *m;
	mfield_fn fn;
	void *ctx;
	int tf;			/* timefmt flags of the times */
	const char *table;	/* typed table of the slice, or NULL */
	sqlite3_stmt *doc;	/* the profile's unit and description of a field */
};

/* A field whose docs are found by name (its column or arg key). */
static void named_field(struct emit *e, const char *group, const char *key,
			const char *name, const char *value)
{
	struct mfield_doc d = { NULL, NULL };
	char *k;

	if (!e->doc || !e->table) {
		e->fn(e->ctx, group, key, value, NULL);
		return;
	}
	k = xasprintf("%s.%s", e->table, name);
	sqlite3_bind_text(e->doc, 2, k, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(e->doc) == SQLITE_ROW) {
		d.unit = (const char *)sqlite3_column_text(e->doc, 0);
		d.description = (const char *)sqlite3_column_text(e->doc, 1);
	}
	e->fn(e->ctx, group, key, value, d.unit || d.description ? &d : NULL);
	sqlite3_reset(e->doc);
	free(k);
}

static void field(struct emit *e, const char *group, const char *key,
		  const char *value)
{
	named_field(e, group, key, key, value);
}

static void time_field(struct emit *e, const char *group, const char *key,
		       const char *name, int64_t ns)
{
	char d[48], buf[96];

	timefmt_dur(d, sizeof(d), ns, 6, e->tf);
	snprintf(buf, sizeof(buf), "%s (%" PRId64 " ns)", d, ns);
	named_field(e, group, key, name, buf);
}

/* Field docs come from a Parquet profile's SchemaFields (the importer
 * keys them "<typed table>.<column or arg key>"). */
static void docs_open(struct emit *e, int64_t profile)
{
	if (sqlite3_prepare_v2(model_db(e->m), "SELECT (SELECT value FROM info"
			       " WHERE profile_id = ?1 AND section = 'field_unit'"
			       " AND idx = 0 AND key = ?2), (SELECT value FROM info"
			       " WHERE profile_id = ?1 AND section ="
			       " 'field_description' AND idx = 0 AND key = ?2)",
			       -1, &e->doc, NULL) != SQLITE_OK) {
		e->doc = NULL;
		return;
	}
	sqlite3_bind_int64(e->doc, 1, profile);
}

/* The typed table holding the slice's row; NULL if none. */
static const char *typed_of(struct model *m, int64_t slice)
{
	const char *found = NULL;

	for (int t = 0; t < TT_COUNT && !found; t++) {
		sqlite3_stmt *st;
		char *sql = xasprintf("SELECT 1 FROM %s WHERE slice_id = ?",
				      typed_tables[t].name);

		if (sqlite3_prepare_v2(model_db(m), sql, -1, &st, NULL) ==
		    SQLITE_OK) {
			sqlite3_bind_int64(st, 1, slice);
			if (sqlite3_step(st) == SQLITE_ROW)
				found = typed_tables[t].name;
			sqlite3_finalize(st);
		}
		free(sql);
	}
	return found;
}

/* One column of a typed row: string ids by their text, times as
 * durations; NULL and empty values are left out. */
static void typed_value(struct emit *e, const struct column *c,
			sqlite3_stmt *st, int i)
{
	const char *v;

	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		return;
	if (c->kind == CK_TIME) {
		time_field(e, col_group_names[c->group], c->label, c->name,
			   sqlite3_column_int64(st, i));
		return;
	}
	v = c->kind == CK_STR ? model_string(e->m, sqlite3_column_int64(st, i)) :
		(const char *)sqlite3_column_text(st, i);
	if (v && *v)
		named_field(e, col_group_names[c->group], c->label, c->name, v);
}

/* Emits the non-NULL columns of the typed row for this slice, if any,
 * group by group. Returns 1 if the row exists. */
static int typed(struct emit *e, const struct typed_table *tt, int64_t slice)
{
	struct strbuf sql;
	sqlite3_stmt *st;
	int found = 0;

	sb_init(&sql);
	sb_adds(&sql, "SELECT ");
	for (size_t i = 0; i < tt->ncols; i++)
		sb_printf(&sql, "%s%s", i ? ", " : "", tt->cols[i].name);
	sb_printf(&sql, " FROM %s WHERE slice_id=?", tt->name);
	if (sqlite3_prepare_v2(model_db(e->m), sb_cstr(&sql), -1, &st, NULL) !=
	    SQLITE_OK) {
		sb_free(&sql);
		return 0;
	}
	sqlite3_bind_int64(st, 1, slice);
	if (sqlite3_step(st) == SQLITE_ROW) {
		found = 1;
		for (int g = 0; g < CG_COUNT; g++)
			for (size_t i = 0; i < tt->ncols; i++)
				if (tt->cols[i].group == (enum col_group)g)
					typed_value(e, &tt->cols[i], st, (int)i);
	}
	sqlite3_finalize(st);
	sb_free(&sql);
	return found;
}

static void args(struct emit *e, int64_t slice)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(model_db(e->m),
			       "SELECT key, CASE WHEN type IN ('object','array')"
			       " THEN json(value) ELSE value END FROM json_each("
			       "(SELECT args FROM arg WHERE slice_id=?))", -1, &st,
			       NULL) != SQLITE_OK)
		return;
	sqlite3_bind_int64(st, 1, slice);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(st, 0);
		const char *v = (const char *)sqlite3_column_text(st, 1);

		named_field(e, "Other fields", k ? k : "", k ? k : "",
			    v ? v : "null");
	}
	sqlite3_finalize(st);
}

/* The Event and Timing fields: name, row, start, duration, notes.
 * Returns the profile's start (0 if unknown). */
static int64_t event_fields(struct emit *e, const struct mslice *s,
			    sqlite3_stmt *track)
{
	const char *tn = (const char *)sqlite3_column_text(track, 0);
	const char *tk = (const char *)sqlite3_column_text(track, 1);
	char buf[256];
	struct mprofile p;
	int64_t pstart = 0;

	field(e, "Event", "name", model_string(e->m, s->name));
	snprintf(buf, sizeof(buf), "%s (%s)", tn ? tn : "", tk ? tk : "");
	field(e, "Event", "row", buf);
	memset(&p, 0, sizeof(p));
	if (!model_profile(e->m, sqlite3_column_int64(track, 2), &p)) {
		if (p.epoch) {
			snprintf(buf, sizeof(buf), "%" PRId64, s->ts);
			field(e, "Timing", "timestamp (epoch ns)", buf);
		}
		time_field(e, "Timing", "start", "start", s->ts - p.start);
		pstart = p.start;
		model_profile_clear(&p);
	}
	return pstart;
}

static void slice_fields(struct emit *e, const struct mslice *s, int64_t id)
{
	time_field(e, "Timing", "duration", "duration", s->dur);
	if (s->flags & 1)
		field(e, "Timing", "note", "no end event: closed at the end of the trace");
	if (s->flags & 4)
		field(e, "Timing", "note", "duration was negative or overflowing; clamped");
	if (s->cat)
		field(e, "Event", "category", model_string(e->m, s->cat));
	if (s->depth) {
		char d[16];

		snprintf(d, sizeof(d), "%d", s->depth);
		field(e, "Event", "depth", d);
	}
	/* an event has at most one typed row */
	for (int t = 0; t < TT_COUNT && !typed(e, &typed_tables[t], id); t++)
		;
	args(e, id);
}

int model_slice_fields(struct model *m, int64_t id, int ascii, mfield_fn fn,
		       void *ctx)
{
	struct emit e = { m, fn, ctx, ascii ? TF_ASCII : 0, NULL, NULL };
	struct mslice s;
	sqlite3_stmt *st;
	int64_t pstart = 0;
	int rc = model_slice(m, id, &s);

	if (rc)
		return rc;
	if (sqlite3_prepare_v2(model_db(m), "SELECT t.name, t.kind, t.profile_id"
			       " FROM track t WHERE t.id=?", -1, &st, NULL) !=
	    SQLITE_OK)
		return model_fail(m, "track");
	sqlite3_bind_int64(st, 1, s.track_id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		e.table = typed_of(m, id);
		docs_open(&e, sqlite3_column_int64(st, 2));
		pstart = event_fields(&e, &s, st);
	} else {
		field(&e, "Event", "name", model_string(m, s.name));
	}
	sqlite3_finalize(st);
	slice_fields(&e, &s, id);
	sqlite3_finalize(e.doc);
	return nest_fields(m, &s, fn, ctx) ||
	       flow_fields(m, &s, pstart, e.tf, fn, ctx) ? -1 : 0;
}
