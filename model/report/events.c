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
	struct strbuf name;
};

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
	fprintf(o->f, "%10" PRId64 " ", s->id);
	if (s->parent)
		fprintf(o->f, "%10" PRId64, s->parent);
	else
		fprintf(o->f, "%10s", "-");
	fprintf(o->f, " %5d %14" PRId64 " %12" PRId64 "  %s  %s\n", s->depth,
		s->ts - o->pstart, s->dur, o->row, sb_cstr(&o->name));
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
		fprintf(o->f, "Range    %" PRId64 " .. %" PRId64 " ns\n\n%10s %10s"
			" %5s %14s %12s  %s  %s\n", t0 - p->start,
			range_end(p, t1) - p->start,
			"Id", "Parent", "Depth", "Start ns", "Duration ns", "Row",
			"Name");
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

int export_events(struct model *m, const struct mprofile *p, int64_t t0,
		  int64_t t1, const int64_t *ids, size_t nids,
		  enum out_format fmt, FILE *f)
{
	struct ev_out o = { .m = m, .fmt = fmt, .f = f, .pstart = p->start };
	struct mtrack *t;
	size_t nt;
	int rc = 0;

	if (model_tracks(m, p->id, &t, &nt))
		return -1;
	sb_init(&o.name);
	begin(&o, p, t0, t1);
	for (size_t i = 0; i < nt && !rc; i++) {
		struct strbuf row, label;

		if (!wanted_row(ids, nids, t, nt, i))
			continue;
		/* GROUP/ROW where rows share a name, as --tracks takes it */
		sb_init(&label);
		model_track_label(t, nt, i, &label);
		sb_init(&row);
		text_sanitize(&row, sb_cstr(&label), 0);
		sb_free(&label);
		o.row = sb_cstr(&row);
		rc = nest_events(m, &t[i], t0, t1, put_event, &o);
		sb_free(&row);
	}
	if (!rc)
		end(&o);
	sb_free(&o.name);
	model_tracks_free(t, nt);
	return rc;
}
