#include "config.h"

#include "model/report/export.h"

#include <inttypes.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "model/dist.h"
#include "model/report/jout.h"
#include "model/table.h"
#include "model/text.h"
#include "model/timefmt.h"
#include "model/util.h"

static double pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

static void cell_dur(struct table *t, int64_t ns)
{
	char buf[48];

	report_dur(buf, sizeof(buf), ns);
	table_num(t, (double)ns, buf);
}

/* A shortest or longest duration; "-" when it was not measured. */
static void cell_extreme(struct table *t, int64_t ns)
{
	if (ns < 0)
		table_text(t, "-");
	else
		cell_dur(t, ns);
}

/* A point in time: more digits than a duration needs. */
static void cell_time(struct table *t, int64_t ns)
{
	char buf[48];

	timefmt_dur(buf, sizeof(buf), ns, 6, 0);
	table_num(t, (double)ns, buf);
}

static void cell_pct(struct table *t, double v)
{
	char buf[32];

	table_num(t, v, report_pct(buf, sizeof(buf), v));
}

static void header(FILE *f, const char *what, const struct mprofile *p)
{
	struct strbuf sb;

	sb_init(&sb);
	text_sanitize(&sb, p->name, 0);
	fprintf(f, "# nxtop %s\nProfile  %s (%s)\n", what, sb_cstr(&sb), p->kind);
	sb_free(&sb);
}

/* A row's name in a text heading: cleaned, and no wider than a table's
 * column. */
static void row_name(struct strbuf *out, const char *name)
{
	struct strbuf clean;

	sb_init(&clean);
	text_sanitize(&clean, name, 0);
	sb_reset(out);
	text_shorten(out, sb_cstr(&clean), TABLE_TEXT_COLS);
	sb_free(&clean);
}

static void range_line(FILE *f, const struct mprofile *p, int64_t t0, int64_t t1)
{
	char a[48], b[48], c[48];

	report_dur(a, sizeof(a), t0 - p->start);
	t1 = range_end(p, t1);
	report_dur(b, sizeof(b), t1 - p->start);
	report_dur(c, sizeof(c), t1 - t0);
	fprintf(f, "Range    %s .. %s (duration %s)\n", a, b, c);
}

/* A percentile; "-" when the distribution was not measured, "~" before
 * an estimate (its bucket's bound). */
static void cell_pctile(struct table *t, const struct dist *d, int64_t ns)
{
	char buf[48];

	if (!d->measured || !d->estimated) {
		cell_extreme(t, d->measured ? ns : -1);
		return;
	}
	buf[0] = '~';
	report_dur(buf + 1, sizeof(buf) - 1, ns);
	table_num(t, (double)ns, buf);
}

/* The per-value table of one field: Value, Count, Count %, Dur Sum,
 * Dur %, Dur Avg, Min, Max, P50, P90, P99 and the histogram. */
static struct table *field_table(const struct sel_group *g,
				 const struct sel_field *fl)
{
	struct table *t = table_new();

	table_col(t, "Value", 0);
	table_col(t, "Count", 1);
	table_col(t, "Count %", 1);
	table_col(t, "Dur Sum", 1);
	table_col(t, "Dur %", 1);
	table_col(t, "Dur Avg", 1);
	table_col(t, "Min", 1);
	table_col(t, "Max", 1);
	table_col(t, "P50", 1);
	table_col(t, "P90", 1);
	table_col(t, "P99", 1);
	table_col(t, "Histogram", 0);
	for (size_t r = 0; r < fl->nrows; r++) {
		const struct sel_value *v = &fl->rows[r];
		char h[DIST_GLYPHS_SIZE];

		table_row(t);
		table_text(t, v->value);
		table_int(t, v->n);
		cell_pct(t, pct(v->n, g->n));
		cell_dur(t, v->dur);
		cell_pct(t, pct(v->dur, g->dur));
		cell_dur(t, mean_round(v->dur, v->n));
		cell_extreme(t, v->dmin);
		cell_extreme(t, v->dmax);
		cell_pctile(t, &v->dist, v->dist.p50);
		cell_pctile(t, &v->dist, v->dist.p90);
		cell_pctile(t, &v->dist, v->dist.p99);
		table_text(t, dist_glyphs(&v->dist, 0, h));
	}
	return t;
}

/* what: "selection summary" or "window summary" */
static void selection_text(const struct selection *s, const struct mprofile *p,
			   const char *what, FILE *f)
{
	char a[48], b[48], c[32];
	struct strbuf sb;

	header(f, what, p);
	range_line(f, p, s->t0, s->t1);
	report_dur(a, sizeof(a), s->dur);
	fprintf(f, "Events   %" PRId64 " (duration sum %s)\n", s->n, a);
	report_dur(b, sizeof(b), s->active);
	fprintf(f, "Active   %s%s (%s of the range)\n", s->active_exact ? "" : "~",
		b, report_pct(c, sizeof(c), pct(s->active, s->end - s->t0)));
	report_bounds_text(&s->bounds, f);
	sb_init(&sb);
	for (size_t i = 0; i < s->ngroups; i++) {
		const struct sel_group *g = &s->groups[i];

		row_name(&sb, g->name);
		if (!strcmp(g->kind, "counter")) {
			/* the unit is the file's too */
			sb_adds(&sb, " (counter");
			if (g->unit) {
				sb_adds(&sb, ", ");
				text_sanitize(&sb, g->unit, 0);
			}
			if (g->counter.n)
				fprintf(f, "\n== %s): %" PRId64 " sample%s, min"
					" %.6g, max %.6g, mean %.6g\n", sb_cstr(&sb),
					g->counter.n, g->counter.n == 1 ? "" : "s",
					g->counter.vmin, g->counter.vmax,
					g->counter.mean);
			else	/* listed, as in JSON and CSV */
				fprintf(f, "\n== %s): no samples\n", sb_cstr(&sb));
			continue;
		}
		report_dur(a, sizeof(a), g->dur);
		report_dur(b, sizeof(b), g->active);
		fprintf(f, "\n== %s (%s): %" PRId64 " event%s, duration sum %s,"
			" active %s (%s)\n", sb_cstr(&sb), g->kind, g->n,
			g->n == 1 ? "" : "s", a, b,
			report_pct(c, sizeof(c), pct(g->active, s->end - s->t0)));
		for (size_t k = 0; k < g->nfields; k++) {
			struct table *t;

			if (!g->fields[k].nrows)
				continue;
			t = field_table(g, &g->fields[k]);
			fprintf(f, "%s\n", g->fields[k].name);
			table_write_text(t, f, 2);
			table_free(t);
		}
	}
	sb_free(&sb);
}

/* Percentiles and the non-empty buckets; null when not measured. */
static void dist_json(struct jout *j, const struct dist *d)
{
	jout_kopt(j, "p50_ns", d->measured ? d->p50 : -1);
	jout_kopt(j, "p90_ns", d->measured ? d->p90 : -1);
	jout_kopt(j, "p99_ns", d->measured ? d->p99 : -1);
	jout_key(j, "percentiles_estimated");
	if (d->measured)
		jout_bool(j, d->estimated);
	else
		jout_null(j);
	jout_key(j, "percentiles_max_error");
	if (d->measured)
		jout_real(j, d->max_error);
	else
		jout_null(j);
	jout_key(j, "buckets");
	if (!d->measured) {
		jout_null(j);
		return;
	}
	jout_arr(j);
	for (int b = 0; b < DIST_BUCKETS; b++) {
		if (!d->hist[b])
			continue;
		jout_obj(j);
		jout_kint(j, "lo_ns", dist_lo(b));
		jout_kint(j, "hi_ns", dist_hi(b));
		jout_kint(j, "count", d->hist[b]);
		jout_end(j);
	}
	jout_end(j);
}

/* A counter's figure; null without a sample in the range. */
static void counter_json(struct jout *j, const char *key, int64_t samples,
			 double v)
{
	jout_key(j, key);
	if (samples)
		jout_real(j, v);
	else
		jout_null(j);
}

static void selection_json(const struct selection *s, const struct mprofile *p,
			   FILE *f)
{
	struct jout j;

	jout_init(&j, f, 1);
	jout_obj(&j);
	jout_kstr(&j, "profile", p->name);
	jout_kint(&j, "start_ns", s->t0 - p->start);
	jout_kint(&j, "end_ns", s->end - p->start);
	jout_kint(&j, "duration_ns", s->end - s->t0);
	jout_kint(&j, "events", s->n);
	jout_kint(&j, "duration_sum_ns", s->dur);
	jout_kint(&j, "active_ns", s->active);
	jout_kbool(&j, "active_exact", s->active_exact);
	report_bounds_json(&s->bounds, &j);
	jout_key(&j, "rows");
	jout_arr(&j);
	for (size_t i = 0; i < s->ngroups; i++) {
		const struct sel_group *g = &s->groups[i];

		jout_obj(&j);
		jout_kstr(&j, "row", g->name);
		jout_kstr(&j, "kind", g->kind);
		if (!strcmp(g->kind, "counter")) {
			jout_kint(&j, "samples", g->counter.n);
			counter_json(&j, "min", g->counter.n, g->counter.vmin);
			counter_json(&j, "max", g->counter.n, g->counter.vmax);
			counter_json(&j, "mean", g->counter.n, g->counter.mean);
			jout_end(&j);
			continue;
		}
		jout_kint(&j, "events", g->n);
		jout_kint(&j, "duration_sum_ns", g->dur);
		jout_kint(&j, "active_ns", g->active);
		jout_key(&j, "fields");
		jout_obj(&j);
		for (size_t k = 0; k < g->nfields; k++) {
			const struct sel_field *fl = &g->fields[k];

			jout_key(&j, fl->name);
			jout_arr(&j);
			for (size_t r = 0; r < fl->nrows; r++) {
				const struct sel_value *v = &fl->rows[r];

				jout_obj(&j);
				jout_key(&j, "value");
				if (v->none)
					jout_null(&j);
				else
					jout_str(&j, v->value);
				jout_kint(&j, "count", v->n);
				jout_kreal(&j, "count_pct", pct(v->n, g->n));
				jout_kint(&j, "dur_sum_ns", v->dur);
				jout_kreal(&j, "dur_pct", pct(v->dur, g->dur));
				jout_kint(&j, "dur_avg_ns", mean_round(v->dur, v->n));
				jout_kopt(&j, "min_ns", v->dmin);
				jout_kopt(&j, "max_ns", v->dmax);
				dist_json(&j, &v->dist);
				jout_end(&j);
			}
			jout_end(&j);
		}
		jout_end(&j);
		jout_end(&j);
	}
	jout_end(&j);
	jout_end(&j);
	jout_done(&j);
}

/* A figure that may not have been measured (-1): empty in CSV. */
static void csv_opt(struct table *t, int64_t v)
{
	if (v < 0)
		table_null(t);
	else
		table_int(t, v);
}

/* Percentiles, then the non-empty buckets as "lo-hi:count" pairs. */
static void dist_csv_figures(struct table *t, const struct dist *d)
{
	struct strbuf sb;

	csv_opt(t, d->measured ? d->p50 : -1);
	csv_opt(t, d->measured ? d->p90 : -1);
	csv_opt(t, d->measured ? d->p99 : -1);
	sb_init(&sb);
	for (int b = 0; b < DIST_BUCKETS; b++)
		if (d->hist[b])
			sb_printf(&sb, "%s%" PRId64 "-%" PRId64 ":%" PRId64,
				  sb.len ? " " : "", dist_lo(b), dist_hi(b),
				  d->hist[b]);
	table_text(t, sb_cstr(&sb));
	sb_free(&sb);
}

/* The figures and whether the percentiles are estimates. */
static void dist_csv(struct table *t, const struct dist *d)
{
	dist_csv_figures(t, d);
	csv_opt(t, d->measured ? d->estimated : -1);
}

/* The columns dist_csv fills. */
static void dist_csv_cols(struct table *t)
{
	table_col(t, "p50_ns", 1);
	table_col(t, "p90_ns", 1);
	table_col(t, "p99_ns", 1);
	table_col(t, "buckets", 0);
	table_col(t, "percentiles_estimated", 1);
}

/* A figure as a row of its own: the figure's key in field, its value in
 * value. */
static void figure_row(struct table *t, const char *row, const char *kind,
		       const char *key, const char *value)
{
	table_row(t);
	table_text(t, row);
	table_text(t, kind);
	table_text(t, key);
	table_text(t, value);
}

static void figure_int(struct table *t, const char *row, const char *kind,
		       const char *key, int64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	figure_row(t, row, kind, key, buf);
}

/* A number with every digit, as JSON writes it; empty when not known. */
static void figure_real(struct table *t, const char *row, const char *kind,
			const char *key, int known, double v)
{
	char buf[32] = "";

	if (known && isfinite(v))
		snprintf(buf, sizeof(buf), "%.17g", v);
	figure_row(t, row, kind, key, buf);
}

static void bounds_row(struct table *t, const char *key, const char *value)
{
	figure_row(t, "", "bounds", key, value);
}

/* The bounds as rows of kind "bounds": the figure's key in field, its
 * value in value, the keys of the JSON export. */
static void bounds_csv(const struct bounds *b, struct table *t)
{
	struct bound_fig figs[BOUND_MAX_FIGS];
	size_t n;
	char buf[64];

	if (!b->available) {
		bounds_row(t, "note", b->why_not);
		return;
	}
	n = bounds_figures(b, figs);
	for (size_t i = 0; i < n; i++)
		bounds_row(t, figs[i].key,
			   report_bound_value(&figs[i], buf, sizeof(buf)));
}

/* The totals of the JSON's top level, as rows of kind "selection". */
static void totals_csv(const struct selection *s, const struct mprofile *p,
		       struct table *t)
{
	figure_int(t, "", "selection", "start_ns", s->t0 - p->start);
	figure_int(t, "", "selection", "end_ns", s->end - p->start);
	figure_int(t, "", "selection", "duration_ns", s->end - s->t0);
	figure_int(t, "", "selection", "events", s->n);
	figure_int(t, "", "selection", "duration_sum_ns", s->dur);
	figure_int(t, "", "selection", "active_ns", s->active);
	figure_int(t, "", "selection", "active_exact", s->active_exact);
}

/* A row's own figures, the JSON's keys, before its values: events,
 * duration sum and active time, or a counter's samples, min, max and
 * mean. */
static void group_csv(const struct sel_group *g, struct table *t)
{
	if (!strcmp(g->kind, "counter")) {
		figure_int(t, g->name, g->kind, "samples", g->counter.n);
		figure_real(t, g->name, g->kind, "min", g->counter.n,
			    g->counter.vmin);
		figure_real(t, g->name, g->kind, "max", g->counter.n,
			    g->counter.vmax);
		figure_real(t, g->name, g->kind, "mean", g->counter.n,
			    g->counter.mean);
		return;
	}
	figure_int(t, g->name, g->kind, "events", g->n);
	figure_int(t, g->name, g->kind, "duration_sum_ns", g->dur);
	figure_int(t, g->name, g->kind, "active_ns", g->active);
}

static void selection_csv(const struct selection *s, const struct mprofile *p,
			  FILE *f)
{
	struct table *t = table_new();

	table_col(t, "row", 0);
	table_col(t, "kind", 0);
	table_col(t, "field", 0);
	table_col(t, "value", 0);
	table_col(t, "count", 1);
	table_col(t, "count_pct", 1);
	table_col(t, "dur_sum_ns", 1);
	table_col(t, "dur_pct", 1);
	table_col(t, "dur_avg_ns", 1);
	table_col(t, "min_ns", 1);
	table_col(t, "max_ns", 1);
	dist_csv_cols(t);
	totals_csv(s, p, t);
	for (size_t i = 0; i < s->ngroups; i++) {
		const struct sel_group *g = &s->groups[i];

		group_csv(g, t);
		for (size_t k = 0; k < g->nfields; k++) {
			for (size_t r = 0; r < g->fields[k].nrows; r++) {
				const struct sel_value *v = &g->fields[k].rows[r];

				table_row(t);
				table_text(t, g->name);
				table_text(t, g->kind);
				table_text(t, g->fields[k].name);
				table_text(t, v->value);
				table_int(t, v->n);
				table_printf(t, "%.4f", pct(v->n, g->n));
				table_int(t, v->dur);
				table_printf(t, "%.4f", pct(v->dur, g->dur));
				table_int(t, mean_round(v->dur, v->n));
				csv_opt(t, v->dmin);
				csv_opt(t, v->dmax);
				dist_csv(t, &v->dist);
			}
		}
	}
	bounds_csv(&s->bounds, t);
	table_write_csv(t, f);
	table_free(t);
}

static void summary(const struct selection *s, const struct mprofile *p,
		    const char *what, enum out_format fmt, FILE *f)
{
	if (fmt == OUT_JSON)
		selection_json(s, p, f);
	else if (fmt == OUT_CSV)
		selection_csv(s, p, f);
	else
		selection_text(s, p, what, f);
}

void export_selection(const struct selection *s, const struct mprofile *p,
		      enum out_format fmt, FILE *f)
{
	summary(s, p, "selection summary", fmt, f);
}

void export_window(const struct selection *s, const struct mprofile *p,
		   enum out_format fmt, FILE *f)
{
	summary(s, p, "window summary", fmt, f);
}

/* A layer's name, column c's export name. */
static const char *layer_key(int c)
{
	static const char *const keys[LC_COUNT] = {
		[LC_NAME] = "layer", [LC_START] = "start_ns",
		[LC_DUR] = "duration_ns", [LC_FLOPS] = "flops", [LC_MFU] = "mfu",
		[LC_P50] = "p50_ns", [LC_P90] = "p90_ns", [LC_P99] = "p99_ns",
		[LC_HIST] = "buckets",
	};

	return keys[c] ? keys[c] : layer_col_names[c];
}

static void layer_cells(struct table *t, const struct layer_row *r,
			const struct mprofile *p, enum out_format fmt)
{
	int text = fmt == OUT_TEXT;

	table_text(t, r->name);
	if (text) {
		cell_time(t, r->start - p->start);
		cell_dur(t, r->dur);
	} else {
		table_int(t, r->start - p->start);
		table_int(t, r->dur);
	}
	for (int e = 0; e < ENG_COUNT; e++)
		table_int(t, r->count[e]);
	for (int e = 0; e < ENG_COUNT; e++) {
		if (r->active[e] < 0)
			table_null(t);
		else if (text)
			cell_dur(t, r->active[e]);
		else
			table_int(t, r->active[e]);
	}
	if (r->flops >= 0)
		table_int(t, r->flops);
	else
		table_null(t);
	if (r->mfu < 0) {
		table_null(t);
	} else if (text) {
		cell_pct(t, r->mfu * 100);
	} else {
		char buf[32];

		/* a fraction, as JSON has it */
		snprintf(buf, sizeof(buf), "%.17g", r->mfu);
		table_num(t, r->mfu, buf);
	}
}

/* JSON: the table's members, then each layer's distribution as the
 * summaries write it. */
static void layers_json(const struct layer_table *lt, const struct table *t,
			const struct mprofile *p, FILE *f)
{
	struct jout j;

	jout_init(&j, f, 1);
	jout_obj(&j);
	jout_kstr(&j, "profile", p->name);
	jout_kint(&j, "depth", lt->depth);
	jout_key(&j, "layers");
	jout_arr(&j);
	for (size_t i = 0; i < lt->n; i++) {
		jout_obj(&j);
		table_json_fields(t, i, &j);
		dist_json(&j, &lt->rows[i].dist);
		jout_end(&j);
	}
	jout_end(&j);
	jout_end(&j);
	jout_done(&j);
}

void export_layers(const struct layer_table *lt, const struct mprofile *p,
		   enum out_format fmt, FILE *f)
{
	struct table *t = table_new();
	int text = fmt == OUT_TEXT;
	/* JSON writes the distributions itself */
	int ncols = fmt == OUT_JSON ? LC_P50 : LC_COUNT;
	char line[64];

	for (int c = 0; c < ncols; c++)
		table_col(t, text ? layer_col_names[c] : layer_key(c),
			  c != LC_NAME && c != LC_HIST);
	for (size_t i = 0; i < lt->n; i++) {
		const struct layer_row *r = &lt->rows[i];
		char h[DIST_GLYPHS_SIZE];

		table_row(t);
		layer_cells(t, r, p, fmt);
		if (fmt == OUT_CSV) {
			dist_csv_figures(t, &r->dist);
		} else if (text) {
			cell_pctile(t, &r->dist, r->dist.p50);
			cell_pctile(t, &r->dist, r->dist.p90);
			cell_pctile(t, &r->dist, r->dist.p99);
			table_text(t, dist_glyphs(&r->dist, 0, h));
		}
	}
	snprintf(line, sizeof(line), "Layers   %zu%s", lt->n,
		 lt->depth ? " (grouped)" : "");
	if (fmt == OUT_JSON)
		layers_json(lt, t, p, f);
	else
		report_table(t, p, fmt, f, "layer summary", "layers", "depth",
			     lt->depth, line);
	table_free(t);
}

struct match_ctx {
	struct model *m;
	struct table *t;
	int64_t pstart;
	int text;
	/* the rows of the side gathered, named as model_track_label names
	 * them: GROUP/ROW where rows share a name (a DMA queue's packets
	 * and transfers), so that each row's count has a key of its own */
	int64_t *ids;
	char **labels;
	size_t nt;
	const char *side;	/* "A" or "B": a first column says whose */
	int csv;		/* the statistics' columns and line too */
};

static void labels_free(struct match_ctx *c)
{
	for (size_t i = 0; i < c->nt; i++)
		free(c->labels[i]);
	free(c->labels);
	free(c->ids);
	c->labels = NULL;
	c->ids = NULL;
	c->nt = 0;
}

static void labels_load(struct match_ctx *c, const struct mtrack *t,
			size_t nt)
{
	labels_free(c);
	c->ids = xcalloc(nt ? nt : 1, sizeof(*c->ids));
	c->labels = xcalloc(nt ? nt : 1, sizeof(*c->labels));
	for (size_t i = 0; i < nt; i++) {
		struct strbuf sb;

		sb_init(&sb);
		model_track_label(t, nt, i, &sb);
		c->ids[i] = t[i].id;
		c->labels[i] = sb_detach(&sb);
	}
	c->nt = nt;
}

static const char *track_name(const struct match_ctx *c, int64_t id)
{
	for (size_t i = 0; i < c->nt; i++)
		if (c->ids[i] == id)
			return c->labels[i];
	return "";
}

static void add_match(void *ctx, const struct mslice *ms)
{
	struct match_ctx *c = ctx;

	table_row(c->t);
	if (c->side)
		table_text(c->t, c->side);
	if (c->text) {
		cell_time(c->t, ms->ts - c->pstart);
		cell_dur(c->t, ms->dur);
	} else {
		table_int(c->t, ms->ts - c->pstart);
		table_int(c->t, ms->dur);
	}
	table_text(c->t, track_name(c, ms->track_id));
	table_text(c->t, model_string(c->m, ms->name));
	if (!c->text)
		table_int(c->t, ms->id);
}

/* The matches' durations in JSON: shortest, average, longest and their
 * distribution; null when not measured. */
static void search_dist_json(struct jout *j, const struct search_stats *st,
			     const struct search_dist *sd)
{
	jout_kopt(j, "min_ns", sd->dmin);
	jout_kint(j, "avg_ns", mean_round(st->dur, st->count));
	jout_kopt(j, "max_ns", sd->dmax);
	dist_json(j, &sd->dist);
}

/* In CSV each side's statistics come first, on a line of their own in
 * the summaries' columns after the match columns (left empty); the match
 * lines leave them empty. */
static void search_dist_csv_cols(struct table *t)
{
	table_col(t, "count", 1);
	table_col(t, "dur_sum_ns", 1);
	table_col(t, "dur_avg_ns", 1);
	table_col(t, "min_ns", 1);
	table_col(t, "max_ns", 1);
	dist_csv_cols(t);
	table_col(t, "note", 0);
}

/* Why a search that found nothing may not say what its user meant
 * (search_hint), or NULL. */
static const char *search_note(const struct search *s,
			       const struct search_stats *st)
{
	return st->count ? NULL : search_hint(s);
}

static void search_dist_csv_row(struct match_ctx *c,
				const struct search_stats *st,
				const struct search_dist *sd, const char *note)
{
	struct table *t = c->t;

	table_row(t);
	if (c->side)
		table_text(t, c->side);
	for (int i = 0; i < 5; i++)	/* start_ns .. slice_id */
		table_text(t, "");
	table_int(t, st->count);
	table_int(t, st->dur);
	table_int(t, mean_round(st->dur, st->count));
	csv_opt(t, sd->dmin);
	csv_opt(t, sd->dmax);
	dist_csv(t, &sd->dist);
	if (note)
		table_text(t, note);
	else
		table_null(t);
}

/* "Durations min 1 ns, avg 2 ns, max 3 ns; p50 ..., p90 ..., p99 ...  ▁█" */
static void search_dist_text(FILE *f, const struct search_stats *st,
			     const struct search_dist *sd)
{
	char a[48], b[48], c[48], h[DIST_GLYPHS_SIZE];
	const char *est;

	if (!st->count || !sd->dist.measured)
		return;
	report_dur(b, sizeof(b), mean_round(st->dur, st->count));
	report_dur(a, sizeof(a), sd->dmin);
	report_dur(c, sizeof(c), sd->dmax);
	fprintf(f, "Durations min %s, avg %s, max %s; ", a, b, c);
	/* an estimate is its bin's longest duration */
	est = sd->dist.estimated ? "~" : "";
	report_dur(a, sizeof(a), sd->dist.p50);
	report_dur(b, sizeof(b), sd->dist.p90);
	report_dur(c, sizeof(c), sd->dist.p99);
	fprintf(f, "p50 %s%s, p90 %s%s, p99 %s%s  %s\n", est, a, est, b, est,
		c, dist_glyphs(&sd->dist, 0, h));
}

static void match_cols(struct match_ctx *c)
{
	if (c->side)
		table_col(c->t, c->text ? "Side" : "side", 0);
	table_col(c->t, c->text ? "Start" : "start_ns", 1);
	table_col(c->t, c->text ? "Duration" : "duration_ns", 1);
	table_col(c->t, c->text ? "Row" : "row", 0);
	table_col(c->t, c->text ? "Name" : "name", 0);
	if (!c->text)
		table_col(c->t, "slice_id", 1);
	if (c->csv)
		search_dist_csv_cols(c->t);
}

/* One profile's matches in [t0, t1) added to c's table, with their
 * totals; c keeps the names of its rows (search_done() frees them). */
static int search_gather(struct match_ctx *c, const struct export_side *x,
			 struct search_stats *st, struct search_dist *sd)
{
	struct mtrack *tracks;
	size_t nt;
	int rc = -1;

	c->m = x->m;
	c->pstart = x->p.start;
	if (model_tracks(x->m, x->p.id, &tracks, &nt))
		return -1;
	if (search_stats(x->s, tracks, nt, x->t0, x->t1, st))
		goto out;
	if (search_dist(x->s, x->t0, x->t1, st->count, sd))
		goto out_stats;
	if (c->csv)
		search_dist_csv_row(c, st, sd, search_note(x->s, st));
	labels_load(c, tracks, nt);
	if (!search_list(x->s, x->t0, x->t1, 0, INT64_MAX, add_match, c)) {
		rc = 0;
		goto out;
	}
	labels_free(c);
out_stats:
	search_stats_free(st);
out:
	model_tracks_free(tracks, nt);
	return rc;
}

static void search_done(struct match_ctx *c, struct search_stats *st)
{
	labels_free(c);
	search_stats_free(st);
}

static void search_json(struct jout *j, struct match_ctx *c,
			const struct export_side *x,
			const struct search_stats *st,
			const struct search_dist *sd)
{
	const char *note = search_note(x->s, st);

	jout_obj(j);
	jout_kstr(j, "query", search_text(x->s));
	jout_kint(j, "start_ns", x->t0 - x->p.start);
	jout_kint(j, "end_ns", range_end(&x->p, x->t1) - x->p.start);
	jout_kint(j, "matches", st->count);
	jout_kint(j, "duration_sum_ns", st->dur);
	jout_key(j, "note");
	if (note)
		jout_str(j, note);
	else
		jout_null(j);
	search_dist_json(j, st, sd);
	jout_key(j, "rows");
	jout_obj(j);
	for (size_t i = 0; i < st->nrows; i++)
		jout_kint(j, track_name(c, st->rows[i].track), st->rows[i].n);
	jout_end(j);
	jout_key(j, "events");
	table_write_json(c->t, j);
	jout_end(j);
}

static void search_text_out(FILE *f, const char *what, struct match_ctx *c,
			    const struct export_side *x,
			    const struct search_stats *st,
			    const struct search_dist *sd)
{
	char a[48];
	const char *hint = search_note(x->s, st);
	struct strbuf q;

	sb_init(&q);
	text_sanitize(&q, search_text(x->s), 0);
	header(f, what, &x->p);
	fprintf(f, "Query    %s\n", sb_cstr(&q));
	sb_free(&q);
	range_line(f, &x->p, x->t0, x->t1);
	report_dur(a, sizeof(a), st->dur);
	fprintf(f, "Matches  %" PRId64 " (duration sum %s)\n", st->count, a);
	if (hint)
		fprintf(f, "Note     %s\n", hint);
	search_dist_text(f, st, sd);
	for (size_t i = 0; i < st->nrows; i++) {
		struct strbuf n;

		sb_init(&n);
		row_name(&n, track_name(c, st->rows[i].track));
		fprintf(f, "  %-20s %" PRId64 "\n", sb_cstr(&n), st->rows[i].n);
		sb_free(&n);
	}
	fputc('\n', f);
	table_write_text(c->t, f, 0);
}

/* One side written in fmt (CSV: its rows alone). */
static int search_side(const struct export_side *x, const char *side,
		       const char *what, enum out_format fmt, struct jout *j,
		       FILE *f)
{
	struct match_ctx c = { .t = table_new(), .text = fmt == OUT_TEXT,
			       .side = side, .csv = fmt == OUT_CSV };
	struct search_stats st;
	struct search_dist sd;
	int rc = -1;

	match_cols(&c);
	if (search_gather(&c, x, &st, &sd))
		goto out;
	if (fmt == OUT_JSON)
		search_json(j, &c, x, &st, &sd);
	else if (fmt == OUT_CSV)
		table_write_csv(c.t, f);
	else
		search_text_out(f, what, &c, x, &st, &sd);
	search_done(&c, &st);
	rc = 0;
out:
	table_free(c.t);
	return rc;
}

int export_search(struct model *m, struct search *s, const struct mprofile *p,
		  int64_t t0, int64_t t1, enum out_format fmt, FILE *f)
{
	const struct export_side x = { m, s, *p, t0, t1 };
	struct jout j;
	int rc;

	if (fmt != OUT_JSON)
		return search_side(&x, NULL, "search", fmt, NULL, f);
	jout_init(&j, f, 1);
	rc = search_side(&x, NULL, "search", fmt, &j, f);
	jout_done(&j);
	return rc;
}

/* Both sides' matches in one table, a first column saying whose. */
static int search_sides_csv(const struct export_side x[2], FILE *f)
{
	struct match_ctx c = { .t = table_new(), .text = 0, .csv = 1 };
	struct search_stats st;
	struct search_dist sd;
	int rc = 0;

	for (int k = 0; k < 2 && !rc; k++) {
		c.side = k ? "B" : "A";
		if (k == 0)
			match_cols(&c);
		if (!x[k].s)
			continue;
		rc = search_gather(&c, &x[k], &st, &sd);
		if (!rc)
			search_done(&c, &st);
	}
	if (!rc)
		table_write_csv(c.t, f);
	table_free(c.t);
	return rc;
}

int export_search_sides(const struct export_side x[2], enum out_format fmt,
			FILE *f)
{
	struct jout j;
	int rc = 0;

	if (fmt == OUT_CSV)
		return search_sides_csv(x, f);
	if (fmt == OUT_JSON) {
		jout_init(&j, f, 1);
		jout_obj(&j);
	}
	for (int k = 0; k < 2 && !rc; k++) {
		if (fmt == OUT_JSON)
			jout_key(&j, k ? "B" : "A");
		if (!x[k].s) {
			if (fmt == OUT_JSON)
				jout_null(&j);
			continue;
		}
		if (k && fmt == OUT_TEXT)
			fputc('\n', f);
		rc = search_side(&x[k], NULL, k ? "search, profile B" :
				 "search, profile A", fmt, &j, f);
	}
	if (fmt == OUT_JSON) {
		jout_end(&j);
		jout_done(&j);
	}
	return rc;
}

long export_marker_base(const struct marker *mk, size_t n, size_t i)
{
	if (mk[i].ref) {
		for (size_t k = 0; k < n; k++)
			if (mk[k].id == mk[i].ref)
				return (long)k;
	}
	return i ? (long)i - 1 : -1;
}

static void marker_time(struct table *t, int64_t ns, const char *unit, int text)
{
	char buf[48];

	if (!text) {
		table_int(t, ns);
		return;
	}
	if (unit)
		timefmt_exact(buf, sizeof(buf), ns, unit);
	else
		timefmt_dur(buf, sizeof(buf), ns, 6, 0);
	table_num(t, (double)ns, buf);
}

void export_markers(const struct marker *mk, size_t n, const struct mprofile *p,
		    const char *unit, enum out_format fmt, FILE *f)
{
	struct table *t = table_new();
	int text = fmt == OUT_TEXT;
	char head[32];

	table_col(t, text ? "Marker" : "marker", 0);
	snprintf(head, sizeof(head), "Time%s%s", unit ? " " : "", unit ? unit : "");
	table_col(t, text ? head : "time_ns", 1);
	table_col(t, text ? "Diff vs" : "diff_vs", 0);
	snprintf(head, sizeof(head), "Diff%s%s", unit ? " " : "", unit ? unit : "");
	table_col(t, text ? head : "diff_ns", 1);
	for (size_t i = 0; i < n; i++) {
		long b = export_marker_base(mk, n, i);

		table_row(t);
		table_text(t, mk[i].name);
		marker_time(t, mk[i].ts - p->start, unit, text);
		if (b < 0) {
			table_null(t);
			table_null(t);
		} else if (text && !mk[i].ref) {
			/* as the Markers view says it: no base was chosen */
			char *vs = xasprintf("%s (previous)", mk[b].name);

			table_text(t, vs);
			free(vs);
			marker_time(t, mk[i].ts - mk[b].ts, unit, text);
		} else {
			table_text(t, mk[b].name);
			marker_time(t, mk[i].ts - mk[b].ts, unit, text);
		}
	}
	report_table(t, p, fmt, f, "markers", "markers", NULL, 0, NULL);
	table_free(t);
}

static struct table *info_to_table(const struct info_table *it)
{
	struct table *t = table_new();

	for (size_t c = 0; c < it->ncols; c++)
		table_col(t, it->cols[c], 0);
	for (size_t r = 0; r < it->nrows; r++) {
		table_row(t);
		for (size_t c = 0; c < it->ncols; c++)
			table_text(t, it->cells[r * it->ncols + c]);
	}
	return t;
}

void export_info(struct model *m, const struct mprofile *p,
		 const char *section, enum out_format fmt, FILE *f)
{
	struct info_section *secs;
	struct table *csv = NULL;
	int64_t profile = p->id;
	size_t ns;
	struct jout j;

	if (info_sections(m, profile, &secs, &ns))
		return;
	if (fmt == OUT_TEXT) {
		header(f, "info", p);
		fputc('\n', f);
	} else if (fmt == OUT_JSON) {
		jout_init(&j, f, 1);
		jout_obj(&j);
	} else if (fmt == OUT_CSV) {
		/* one long table: section, record, column, value */
		csv = table_new();
		table_col(csv, "section", 0);
		table_col(csv, "record", 1);
		table_col(csv, "column", 0);
		table_col(csv, "value", 0);
	}
	for (size_t i = 0, shown = 0; i < ns; i++) {
		struct info_table it;
		struct table *t;

		if (section && strcmp(section, secs[i].key))
			continue;
		if (info_load(m, profile, secs[i].key, 0, &it))
			continue;
		if (csv) {
			for (size_t r = 0; r < it.nrows; r++) {
				for (size_t c = 0; c < it.ncols; c++) {
					table_row(csv);
					table_text(csv, secs[i].key);
					table_int(csv, (int64_t)r);
					table_text(csv, it.cols[c]);
					table_text(csv, it.cells[r * it.ncols + c]);
				}
			}
			info_free(&it);
			continue;
		}
		t = info_to_table(&it);
		if (fmt == OUT_JSON && it.ncols == 2 &&
		    !strcmp(it.cols[0], "Key") && !strcmp(it.cols[1], "Value")) {
			/* one record: an object of its fields */
			jout_key(&j, secs[i].key);
			jout_obj(&j);
			for (size_t r = 0; r < it.nrows; r++) {
				jout_kstr(&j, it.cells[r * 2], it.cells[r * 2 + 1]);
			}
			jout_end(&j);
		} else if (fmt == OUT_JSON) {
			jout_key(&j, secs[i].key);
			table_write_json(t, &j);
		} else {
			char *title = text_clean(it.title);

			fprintf(f, "%s== %s\n", shown++ ? "\n" : "", title);
			free(title);
			table_write_text(t, f, 2);
		}
		table_free(t);
		info_free(&it);
	}
	if (fmt == OUT_JSON) {
		jout_end(&j);
		jout_done(&j);
	} else if (csv) {
		table_write_csv(csv, f);
		table_free(csv);
	}
	info_sections_free(secs, ns);
}
