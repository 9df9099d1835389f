/* nxtop export --what flows: every flow of the profile with both ends
 * (name, row, start in ns from the profile start), streamed from the
 * flow queries the viewer's details pane uses (model/flow.h), then the
 * totals: paired flows and unpaired ends. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "model/flow.h"
#include "model/report/export.h"
#include "model/report/jout.h"
#include "model/table.h"
#include "model/text.h"
#include "model/util.h"

struct fl_out {
	struct model *m;
	enum out_format fmt;
	FILE *f;
	struct jout j;
	int64_t pstart;
	struct strbuf a, b;	/* cleaned name and row */
};

static void clean(struct fl_out *o, const struct mslice *s, const char *row)
{
	sb_reset(&o->a);
	sb_reset(&o->b);
	if (!s->id)
		return;
	text_sanitize(&o->a, model_string(o->m, s->name), 0);
	text_sanitize(&o->b, row, 0);
}

static void json_end(struct fl_out *o, const char *key, const struct mslice *s,
		     const char *row)
{
	jout_key(&o->j, key);
	if (!s->id) {
		jout_null(&o->j);
		return;
	}
	jout_obj(&o->j);
	jout_kint(&o->j, "id", s->id);
	jout_kstr(&o->j, "name", model_string(o->m, s->name));
	jout_kstr(&o->j, "row", row);
	jout_kint(&o->j, "ts_ns", s->ts - o->pstart);
	jout_kint(&o->j, "dur_ns", s->dur);
	jout_end(&o->j);
}

static void csv_end(struct fl_out *o, const struct mslice *s, const char *row)
{
	clean(o, s, row);
	if (s->id)
		fprintf(o->f, ",%" PRId64 ",", s->id);
	else
		fputs(",,", o->f);
	table_csv_field(o->f, sb_cstr(&o->b), 0);
	if (s->id)
		fprintf(o->f, ",%" PRId64 ",", s->ts - o->pstart);
	else
		fputs(",,", o->f);
	table_csv_field(o->f, sb_cstr(&o->a), 0);
}

static void text_end(struct fl_out *o, const struct mslice *s, const char *row)
{
	clean(o, s, row);
	if (s->id)
		fprintf(o->f, "%14" PRId64 "  %s  %s", s->ts - o->pstart,
			sb_cstr(&o->b), sb_cstr(&o->a));
	else
		fprintf(o->f, "%14s  (missing)", "-");
}

static int put_flow(void *ctx, const struct mflow *fl)
{
	struct fl_out *o = ctx;

	if (o->fmt == OUT_JSON) {
		jout_obj(&o->j);
		jout_kstr(&o->j, "flow_id", fl->flow_id);
		jout_kstr(&o->j, "kind", fl->kind);
		jout_kbool(&o->j, "exact", fl->exact);
		json_end(o, "out", &fl->out, fl->out_row);
		json_end(o, "in", &fl->in, fl->in_row);
		jout_end(&o->j);
		return 0;
	}
	if (o->fmt == OUT_CSV) {
		sb_reset(&o->a);
		text_sanitize(&o->a, fl->flow_id, 0);
		table_csv_field(o->f, sb_cstr(&o->a), 0);
		fputc(',', o->f);
		table_csv_field(o->f, fl->kind, 0);
		fprintf(o->f, ",%d", fl->exact);
		csv_end(o, &fl->out, fl->out_row);
		csv_end(o, &fl->in, fl->in_row);
		fputs("\r\n", o->f);
		return 0;
	}
	sb_reset(&o->a);
	text_sanitize(&o->a, fl->flow_id, 0);
	fprintf(o->f, "%-20s %-16s %-8s ", sb_cstr(&o->a), fl->kind,
		fl->exact ? "exact" : "inferred");
	text_end(o, &fl->out, fl->out_row);
	fputs("  ->  ", o->f);
	text_end(o, &fl->in, fl->in_row);
	fputc('\n', o->f);
	return 0;
}

static void begin(struct fl_out *o, const struct mprofile *p)
{
	if (o->fmt == OUT_JSON) {
		jout_init(&o->j, o->f, 1);
		jout_obj(&o->j);
		jout_key(&o->j, "flows");
		jout_arr(&o->j);
	} else if (o->fmt == OUT_CSV) {
		fputs("flow_id,kind,exact,out_id,out_row,out_ts_ns,out_name,in_id,"
		      "in_row,in_ts_ns,in_name\r\n", o->f);
	} else {
		sb_reset(&o->a);
		text_sanitize(&o->a, p->name, 0);
		fprintf(o->f, "# nxtop flows\nProfile  %s (%s)\n\n%-20s %-16s"
			" %-8s %14s  %s  ->  %14s  %s\n", sb_cstr(&o->a),
			p->kind, "Flow id", "Kind", "Link", "Out start ns", "Out row, name",
			"In start ns", "In row, name");
	}
}

static void end(struct fl_out *o, const struct flow_counts *c)
{
	if (o->fmt == OUT_JSON) {
		jout_end(&o->j);
		jout_kint(&o->j, "paired", c->paired);
		jout_kint(&o->j, "unpaired_out", c->no_in);
		jout_kint(&o->j, "unpaired_in", c->no_out);
		jout_kint(&o->j, "count", c->paired + c->no_in + c->no_out);
		jout_end(&o->j);
		jout_done(&o->j);
	} else if (o->fmt == OUT_TEXT) {
		fprintf(o->f, "\nFlows    %" PRId64 " paired, %" PRId64
			" unpaired (%" PRId64 " without an end, %" PRId64
			" without a start)\n", c->paired, c->no_in + c->no_out,
			c->no_in, c->no_out);
	}
}

int export_flows(struct model *m, const struct mprofile *p,
		 enum out_format fmt, FILE *f)
{
	struct fl_out o = { .m = m, .fmt = fmt, .f = f, .pstart = p->start };
	struct flow_counts c;
	int rc;

	if (flow_count(m, p->id, &c))
		return -1;
	sb_init(&o.a);
	sb_init(&o.b);
	begin(&o, p);
	rc = flow_each(m, p->id, put_flow, &o);
	if (!rc)
		end(&o, &c);
	sb_free(&o.a);
	sb_free(&o.b);
	return rc;
}
