/* nxtop export --what events: every event of the chosen rows with its
 * row, start, duration, depth and parent, streamed (a profile may hold
 * millions) from the nesting queries the viewer uses (model/nest.h). */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "model/nest.h"
#include "model/report/export.h"
#include "model/report/jout.h"
#include "model/table.h"
#include "model/text.h"
#include "model/util.h"

struct ev_out {
	struct model *m;
	enum out_format fmt;
	FILE *f;
	struct jout j;
	int64_t pstart, count;
	const char *row;	/* the current track's name, cleaned */
	int roww;		/* text: the Row column's width */
	struct strbuf name, line;
};

/* One event as a line of text: the Row column as wide as the widest row
 * and the name no wider than a table's column, both cut as a table cuts
 * its cells. */
static void put_text(struct ev_out *o, const struct mslice *s)
{
	struct strbuf *l = &o->line;

	sb_reset(l);
	sb_printf(l, "%10" PRId64 " ", s->id);
	if (s->parent)
		sb_printf(l, "%10" PRId64, s->parent);
	else
		sb_printf(l, "%10s", "-");
	sb_printf(l, " %5d %14" PRId64 " %12" PRId64 "  ", s->depth,
		  s->ts - o->pstart, s->dur);
	table_text_cell(l, o->row, o->roww, 0);
	sb_adds(l, "  ");
	text_shorten(l, sb_cstr(&o->name), TABLE_TEXT_COLS);
	sb_addc(l, '\n');
	fwrite(l->buf, 1, l->len, o->f);
}

static int put_event(void *ctx, const struct mslice *s)
{
	struct ev_out *o = ctx;
	const char *name = model_string(o->m, s->name);

	o->count++;
	if (o->fmt == OUT_JSON) {
		jout_obj(&o->j);
		jout_kint(&o->j, "id", s->id);
		jout_kstr(&o->j, "name", name);
		jout_kstr(&o->j, "row", o->row);
		jout_kint(&o->j, "ts_ns", s->ts - o->pstart);
		jout_kint(&o->j, "dur_ns", s->dur);
		jout_kint(&o->j, "depth", s->depth);
		jout_kopt(&o->j, "parent", s->parent ? s->parent : -1);
		jout_end(&o->j);
		return 0;
	}
	sb_reset(&o->name);
	text_sanitize(&o->name, name, 0);
	if (o->fmt == OUT_CSV) {
		fprintf(o->f, "%" PRId64 ",", s->id);
		table_csv_field(o->f, o->row, 0);
		fprintf(o->f, ",%" PRId64 ",%" PRId64 ",%d,", s->ts - o->pstart,
			s->dur, s->depth);
		if (s->parent)
			fprintf(o->f, "%" PRId64, s->parent);
		fputc(',', o->f);
		table_csv_field(o->f, sb_cstr(&o->name), 0);
		fputs("\r\n", o->f);
		return 0;
	}
	put_text(o, s);
	return 0;
}

static void begin(struct ev_out *o, const struct mprofile *p, int64_t t0,
		  int64_t t1)
{
	if (o->fmt == OUT_JSON) {
		jout_init(&o->j, o->f, 1);
		jout_obj(&o->j);
		jout_kint(&o->j, "start_ns", t0 - p->start);
		jout_kint(&o->j, "end_ns", range_end(p, t1) - p->start);
		jout_key(&o->j, "events");
		jout_arr(&o->j);
	} else if (o->fmt == OUT_CSV) {
		fputs("id,row,ts_ns,dur_ns,depth,parent,name\r\n", o->f);
	} else {
		struct strbuf sb;

		sb_init(&sb);
		text_sanitize(&sb, p->name, 0);
		fprintf(o->f, "# nxtop events\nProfile  %s (%s)\n", sb_cstr(&sb),
			p->kind);
		sb_free(&sb);
		fprintf(o->f, "Range    %" PRId64 " .. %" PRId64 " ns\n\n",
			t0 - p->start, range_end(p, t1) - p->start);
		sb_printf(&o->line, "%10s %10s %5s %14s %12s  ", "Id", "Parent",
			  "Depth", "Start ns", "Duration ns");
		table_text_cell(&o->line, "Row", o->roww, 0);
		sb_adds(&o->line, "  Name\n");
		fputs(sb_cstr(&o->line), o->f);
	}
}

static void end(struct ev_out *o)
{
	if (o->fmt == OUT_JSON) {
		jout_end(&o->j);
		jout_kint(&o->j, "count", o->count);
		jout_end(&o->j);
		jout_done(&o->j);
	} else if (o->fmt == OUT_TEXT) {
		fprintf(o->f, "\nEvents   %" PRId64 "\n", o->count);
	}
}

static int wanted(const int64_t *ids, size_t nids, int64_t id)
{
	for (size_t i = 0; i < nids; i++)
		if (ids[i] == id)
			return 1;
	return !nids;
}

/* Track i, or a group one or two levels above it (a JAX run's host
 * holds process groups), is among ids. */
static int wanted_row(const int64_t *ids, size_t nids,
		      const struct mtrack *t, size_t nt, size_t i)
{
	int64_t up = t[i].parent_id;

	if (wanted(ids, nids, t[i].id) || (up && wanted(ids, nids, up)))
		return 1;
	for (size_t k = 0; up && k < nt; k++)
		if (t[k].id == up)
			return t[k].parent_id && wanted(ids, nids, t[k].parent_id);
	return 0;
}

/* Track i's name as --tracks takes it (GROUP/ROW where rows share a
 * name), cleaned. */
static void row_label(const struct mtrack *t, size_t nt, size_t i,
		      struct strbuf *row)
{
	struct strbuf label;

	sb_init(&label);
	model_track_label(t, nt, i, &label);
	sb_reset(row);
	text_sanitize(row, sb_cstr(&label), 0);
	sb_free(&label);
}

/* The width of the widest row exported, at most a table's column's. */
static int row_width(const int64_t *ids, size_t nids,
		     const struct mtrack *t, size_t nt)
{
	struct strbuf row;
	int w = text_width("Row");

	sb_init(&row);
	for (size_t i = 0; i < nt; i++) {
		if (!wanted_row(ids, nids, t, nt, i))
			continue;
		row_label(t, nt, i, &row);
		w = NX_MAX(w, text_width(sb_cstr(&row)));
	}
	sb_free(&row);
	return NX_MIN(w, TABLE_TEXT_COLS);
}

int export_events(struct model *m, const struct mprofile *p, int64_t t0,
		  int64_t t1, const int64_t *ids, size_t nids,
		  enum out_format fmt, FILE *f)
{
	struct ev_out o = { .m = m, .fmt = fmt, .f = f, .pstart = p->start };
	struct mtrack *t;
	struct strbuf row;
	size_t nt;
	int rc = 0;

	if (model_tracks(m, p->id, &t, &nt))
		return -1;
	sb_init(&o.name);
	sb_init(&o.line);
	sb_init(&row);
	if (fmt == OUT_TEXT)
		o.roww = row_width(ids, nids, t, nt);
	begin(&o, p, t0, t1);
	for (size_t i = 0; i < nt && !rc; i++) {
		if (!wanted_row(ids, nids, t, nt, i))
			continue;
		row_label(t, nt, i, &row);
		o.row = sb_cstr(&row);
		rc = nest_events(m, &t[i], t0, t1, put_event, &o);
	}
	if (!rc)
		end(&o);
	sb_free(&row);
	sb_free(&o.line);
	sb_free(&o.name);
	model_tracks_free(t, nt);
	return rc;
}
