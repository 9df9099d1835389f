#include "config.h"

#include "model/report/report.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "model/report/jout.h"
#include "model/text.h"
#include "model/timefmt.h"
#include "model/table.h"

/* Layers listed in the text summary; JSON has them all. */
#define TEXT_LAYERS 20

int out_format_parse(const char *s, enum out_format *f)
{
	if (!strcmp(s, "text"))
		*f = OUT_TEXT;
	else if (!strcmp(s, "json"))
		*f = OUT_JSON;
	else if (!strcmp(s, "csv"))
		*f = OUT_CSV;
	else
		return -1;
	return 0;
}

const char *report_dur(char *buf, size_t n, int64_t ns)
{
	timefmt_dur(buf, n, ns, 3, 0);
	return buf;
}

const char *report_pct(char *buf, size_t n, double pct)
{
	int decimals = 2;

	if (pct != 0 && fabs(pct) < 0.01)
		decimals = 1 - (int)floor(log10(fabs(pct)));
	/* past 9 decimals the digits would not fit a column: "2.2e-14%" */
	if (decimals > 9)
		snprintf(buf, n, "%.2g%%", pct);
	else
		snprintf(buf, n, "%.*f%%", decimals, pct);
	return buf;
}

const char *report_pct_change(char *buf, size_t n, double pct)
{
	char p[40];

	snprintf(buf, n, "%s%s", pct > 0 ? "+" : "",
		 report_pct(p, sizeof(p), pct));
	return buf;
}

static void pct(char *buf, size_t n, int64_t part, int64_t whole)
{
	if (whole > 0)
		report_pct(buf, n, 100.0 * (double)part / (double)whole);
	else
		snprintf(buf, n, "-");
}

static void bytes(char *buf, size_t n, int64_t b)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)b;
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, n, "%" PRId64 " B", b);
	else
		snprintf(buf, n, "%.2f %s", v, units[u]);
}

void report_line(FILE *f, const char *label, const char *value)
{
	struct strbuf sb;

	sb_init(&sb);
	text_sanitize(&sb, value, 0);
	fprintf(f, "%-12s %s\n", label, sb_cstr(&sb));
	sb_free(&sb);
}

/* The plural ending of a count. */
static const char *plural(int64_t n)
{
	return n == 1 ? "" : "s";
}

/* What the profile is made of, in its own words: a trace's slices on
 * threads, async rows and (when it has them) rows of process-wide or
 * global instants in processes, a Neuron profile's instructions and
 * DMA. */
static void events_line(const struct summary *s, char *buf, size_t n)
{
	char instant[64] = "";

	if (summary_is_trace(s)) {
		if (s->n_instant)
			snprintf(instant, sizeof(instant), " and %" PRId64
				 " instant row%s", s->n_instant,
				 plural(s->n_instant));
		snprintf(buf, n, "%" PRId64 " slice%s on %" PRId64 " thread%s"
			 "%s %" PRId64 " async row%s%s in %" PRId64 " process%s,"
			 " %" PRId64 " counter sample%s", s->n_slices,
			 plural(s->n_slices), s->n_threads, plural(s->n_threads),
			 s->n_instant ? "," : " and", s->n_async,
			 plural(s->n_async), instant, s->n_processes,
			 s->n_processes == 1 ? "" : "es", s->n_counter_samples,
			 plural(s->n_counter_samples));
		return;
	}
	snprintf(buf, n, "%" PRId64 " instruction%s, %" PRId64 " DMA packet%s,"
		 " %" PRId64 " DMA transfer%s, %" PRId64 " counter sample%s",
		 s->n_instructions, plural(s->n_instructions), s->n_packets,
		 plural(s->n_packets), s->n_transfers, plural(s->n_transfers),
		 s->n_counter_samples, plural(s->n_counter_samples));
}

void report_profile_text(const struct mprofile *p, FILE *f)
{
	char buf[256];

	report_line(f, "Profile", p->name);
	snprintf(buf, sizeof(buf), "%s (%s)", p->kind, p->format);
	report_line(f, "Kind", buf);
}

void report_profile_json(const struct mprofile *p, struct jout *j)
{
	jout_kstr(j, "name", p->name);
	jout_kstr(j, "kind", p->kind);
	jout_kstr(j, "format", p->format);
}

/* A JAX run: which one, and the others that --run opens. */
static void run_text(const struct summary *s, FILE *f)
{
	struct strbuf sb;

	sb_init(&sb);
	sb_adds(&sb, s->run);
	for (size_t i = 0; i < s->nother_runs; i++)
		sb_printf(&sb, "%s%s", i ? ", " : " (other runs: ",
			  s->other_runs[i]);
	if (s->nother_runs)
		sb_adds(&sb, ")");
	report_line(f, "Run", sb_cstr(&sb));
	sb_free(&sb);
}

static void header_text(const struct summary *s, FILE *f)
{
	const struct mprofile *p = &s->prof;
	char a[48], b[48], c[48], buf[256];

	report_profile_text(p, f);
	if (s->schema_version)
		report_line(f, "Schema", s->schema_version);
	if (s->run)
		run_text(s, f);
	if (p->nc_idx >= 0) {
		snprintf(buf, sizeof(buf), "%" PRId64, p->nc_idx);
		report_line(f, "NeuronCore", buf);
	}
	if (p->instance_type)
		report_line(f, "Instance", p->instance_type);
	snprintf(buf, sizeof(buf), "%s (%s .. %s)",
		 report_dur(a, sizeof(a), s->end - s->start),
		 report_dur(b, sizeof(b), 0), report_dur(c, sizeof(c), s->end - s->start));
	report_line(f, "Duration", buf);
	events_line(s, buf, sizeof(buf));
	report_line(f, "Events", buf);
}

static void engines_text(const struct summary *s, FILE *f)
{
	struct table *t = table_new();
	int64_t total = s->end - s->start;
	char a[48], b[48], c[32];

	table_col(t, "Engine", 0);
	table_col(t, "Instructions", 1);
	table_col(t, "Instr time", 1);
	table_col(t, "Active time", 1);
	table_col(t, "Active %", 1);
	for (int e = 0; e < ENG_COUNT; e++) {
		const struct sum_engine *g = &s->eng[e];

		table_row(t);
		table_text(t, summary_engine_names[e]);
		table_int(t, g->count);
		table_text(t, report_dur(a, sizeof(a), g->instr_ns));
		if (g->active_ns >= 0) {
			table_text(t, report_dur(b, sizeof(b), g->active_ns));
			pct(c, sizeof(c), g->active_ns, total);
			table_text(t, c);
		} else {
			table_text(t, "-");
			table_text(t, "-");
		}
	}
	fputs("\nEngines\n", f);
	table_write_text(t, f, 2);
	table_free(t);
}

void report_row_cols(struct table *t)
{
	table_col(t, "Row", 0);
	table_col(t, "Kind", 0);
	table_col(t, "Events", 1);
	table_col(t, "Event time", 1);
	table_col(t, "Busy", 1);
	table_col(t, "Busy %", 1);
}

void report_row_cells(struct table *t, const char *name, const char *kind,
		      int64_t n, int64_t dur, int64_t busy, int64_t total)
{
	char a[48], b[48], c[32];

	table_text(t, name);
	table_text(t, kind);
	table_int(t, n);
	table_text(t, report_dur(a, sizeof(a), dur));
	table_text(t, report_dur(b, sizeof(b), busy));
	pct(c, sizeof(c), busy, total);
	table_text(t, c);
}

static void rows_text(const struct summary *s, FILE *f)
{
	struct table *t = table_new();

	report_row_cols(t);
	for (size_t i = 0; i < s->ntracks; i++) {
		const struct sum_track *r = &s->tracks[i];

		table_row(t);
		report_row_cells(t, r->label ? r->label : r->name, r->kind,
				 r->n, r->dur_sum, r->busy_ns, s->end - s->start);
	}
	fputs("\nRows\n", f);
	table_write_text(t, f, 2);
	table_free(t);
}

/* A counter's min, max or mean as the selection export prints it; "-"
 * without a sample. */
static void counter_cell(struct table *t, const struct sum_counter *c,
			 double v)
{
	if (c->n)
		table_printf(t, "%.6g", v);
	else
		table_text(t, "-");
}

static void counters_text(const struct summary *s, FILE *f)
{
	struct table *t;

	if (!s->ncounters)
		return;
	t = table_new();
	table_col(t, "Counter", 0);
	table_col(t, "Unit", 0);
	table_col(t, "Samples", 1);
	table_col(t, "Min", 1);
	table_col(t, "Max", 1);
	table_col(t, "Mean", 1);
	for (size_t i = 0; i < s->ncounters; i++) {
		const struct sum_counter *c = &s->counters[i];

		table_row(t);
		table_text(t, c->label ? c->label : c->name);
		table_text(t, c->unit ? c->unit : "-");
		table_int(t, c->n);
		counter_cell(t, c, c->vmin);
		counter_cell(t, c, c->vmax);
		counter_cell(t, c, c->mean);
	}
	fputs("\nCounters\n", f);
	table_write_text(t, f, 2);
	table_free(t);
}

static void dma_text(const struct summary *s, FILE *f)
{
	struct table *t;
	char a[32], b[32];

	if (!s->nqtypes)
		return;
	t = table_new();
	table_col(t, "Queue type", 0);
	table_col(t, "Packets", 1);
	table_col(t, "Packet bytes", 1);
	table_col(t, "Transfers", 1);
	table_col(t, "Transfer bytes", 1);
	for (size_t i = 0; i < s->nqtypes; i++) {
		const struct sum_qtype *q = &s->qtypes[i];

		table_row(t);
		table_text(t, q->type);
		table_int(t, q->packets);
		bytes(a, sizeof(a), q->packet_bytes);
		table_num(t, (double)q->packet_bytes, a);
		table_int(t, q->transfers);
		bytes(b, sizeof(b), q->transfer_bytes);
		table_num(t, (double)q->transfer_bytes, b);
	}
	fputs("\nDMA by queue type\n", f);
	table_write_text(t, f, 2);
	table_free(t);
}

static void layers_text(const struct summary *s, FILE *f)
{
	struct table *t;
	char a[48], b[48], c[32];
	size_t shown = NX_MIN(s->nlayers, (size_t)TEXT_LAYERS);

	if (!s->nlayers)
		return;
	t = table_new();
	table_col(t, "Layer", 0);
	table_col(t, "Start", 1);
	table_col(t, "Duration", 1);
	for (int e = 0; e < ENG_COUNT; e++)
		table_col(t, summary_engine_names[e], 1);
	table_col(t, "MFU", 1);
	for (size_t i = 0; i < shown; i++) {
		const struct sum_layer *l = &s->layers[i];

		table_row(t);
		table_text(t, l->name);
		table_text(t, report_dur(a, sizeof(a), l->start - s->start));
		table_text(t, report_dur(b, sizeof(b), l->dur));
		for (int e = 0; e < ENG_COUNT; e++)
			table_int(t, l->count[e]);
		if (l->mfu >= 0) {
			table_text(t, report_pct(c, sizeof(c), l->mfu * 100));
		} else {
			table_text(t, "-");
		}
	}
	fprintf(f, "\nLayers (%zu", s->nlayers);
	if (shown < s->nlayers)
		fprintf(f, ", first %zu shown; all with --format json", shown);
	fputs(")\n", f);
	table_write_text(t, f, 2);
	table_free(t);
}

/* A figure of a check in its unit: counts and bytes whole, times as
 * durations with every ns. */
static void check_value(char *buf, size_t n, enum sum_unit unit, double v)
{
	if (unit == SU_NS && fabs(v) < 9e18)
		timefmt_dur(buf, n, (int64_t)v, 6, 0);
	else
		snprintf(buf, n, "%.0f%s", v, unit == SU_NS ? " ns" : "");
}

static void check_tolerance(char *buf, size_t n, const struct sum_check *c)
{
	if (!c->tol_abs && !c->tol_permille)
		snprintf(buf, n, "exact");
	else
		snprintf(buf, n, "%" PRId64 "%s, %g%%", c->tol_abs,
			 c->unit == SU_NS ? " ns" : "", c->tol_permille / 10.0);
}

static void checks_text(const struct summary *s, FILE *f)
{
	struct table *t;
	char a[48], b[48], c[48];

	if (!s->nchecks)
		return;
	t = table_new();
	table_col(t, "Figure", 0);
	table_col(t, "Method", 0);
	table_col(t, "Events", 1);
	table_col(t, "Profile", 1);
	table_col(t, "Tolerance", 0);
	table_col(t, "", 0);
	for (size_t i = 0; i < s->nchecks; i++) {
		const struct sum_check *k = &s->checks[i];

		table_row(t);
		table_text(t, k->what);
		table_text(t, k->method);
		check_value(a, sizeof(a), k->unit, (double)k->ours);
		table_text(t, a);
		check_value(b, sizeof(b), k->unit, k->theirs);
		table_text(t, b);
		check_tolerance(c, sizeof(c), k);
		table_text(t, c);
		table_text(t, k->agree ? "ok" : "DIFFERS");
	}
	fputs("\nAgainst the profile's own summary\n", f);
	table_write_text(t, f, 2);
	table_free(t);
}

void report_warnings_text(const struct sum_warning *w, size_t n, FILE *f)
{
	struct strbuf sb;

	if (!n)
		return;
	sb_init(&sb);
	fprintf(f, "\nWarnings (%zu)\n", n);
	for (size_t i = 0; i < n; i++) {
		sb_reset(&sb);
		if (*w[i].category) {
			sb_addc(&sb, '[');
			text_sanitize(&sb, w[i].category, 0);
			sb_adds(&sb, "] ");
		}
		text_sanitize(&sb, w[i].message, 0);
		fprintf(f, "  %s\n", sb_cstr(&sb));
	}
	sb_free(&sb);
}

void report_table(const struct table *t, const struct mprofile *p,
		  enum out_format fmt, FILE *f, const char *what,
		  const char *key, const char *extra_key, int64_t extra,
		  const char *line)
{
	struct jout j;
	struct strbuf sb;

	if (fmt == OUT_JSON) {
		jout_init(&j, f, 1);
		jout_obj(&j);
		jout_kstr(&j, "profile", p->name);
		if (extra_key) {
			jout_kint(&j, extra_key, extra);
		}
		jout_key(&j, key);
		table_write_json(t, &j);
		jout_end(&j);
		jout_done(&j);
		return;
	}
	if (fmt == OUT_CSV) {
		table_write_csv(t, f);
		return;
	}
	sb_init(&sb);
	text_sanitize(&sb, p->name, 0);
	fprintf(f, "# nxtop %s\nProfile  %s (%s)\n%s%s\n", what, sb_cstr(&sb),
		p->kind, line ? line : "", line ? "\n" : "");
	sb_free(&sb);
	table_write_text(t, f, 0);
}

void report_summary_text(const struct summary *s, FILE *f)
{
	header_text(s, f);
	if (s->n_instructions)
		engines_text(s, f);
	rows_text(s, f);
	if (summary_is_trace(s))
		counters_text(s, f);
	dma_text(s, f);
	layers_text(s, f);
	checks_text(s, f);
	report_warnings_text(s->warnings, s->nwarnings, f);
}

static void checks_json(const struct summary *s, struct jout *j)
{
	static const char *const units[] = { "count", "bytes", "ns" };

	jout_arr(j);
	for (size_t i = 0; i < s->nchecks; i++) {
		const struct sum_check *c = &s->checks[i];

		jout_obj(j);
		jout_kstr(j, "figure", c->what);
		jout_kstr(j, "method", c->method);
		jout_kstr(j, "unit", units[c->unit]);
		jout_kint(j, "events", c->ours);
		jout_kreal(j, "profile", c->theirs);
		jout_kreal(j, "difference", (double)c->ours - c->theirs);
		jout_kint(j, "tolerance_abs", c->tol_abs);
		jout_kreal(j, "tolerance_rel", c->tol_permille / 1000.0);
		jout_kbool(j, "agree", c->agree);
		jout_end(j);
	}
	jout_end(j);
}

static void profile_json(const struct summary *s, struct jout *j)
{
	jout_obj(j);
	report_profile_json(&s->prof, j);
	jout_kopt(j, "nc_idx", s->prof.nc_idx);
	jout_kstr(j, "instance_type", s->prof.instance_type);
	if (s->schema_version)
		jout_kstr(j, "schema_version", s->schema_version);
	if (s->run) {
		jout_kstr(j, "run", s->run);
		jout_key(j, "other_runs");
		jout_arr(j);
		for (size_t i = 0; i < s->nother_runs; i++)
			jout_str(j, s->other_runs[i]);
		jout_end(j);
	}
	jout_end(j);
}

static void engines_json(const struct summary *s, struct jout *j)
{
	jout_obj(j);
	for (int e = 0; e < ENG_COUNT; e++) {
		jout_key(j, summary_engine_keys[e]);
		jout_obj(j);
		jout_kint(j, "instruction_count", s->eng[e].count);
		jout_kint(j, "instruction_time_ns", s->eng[e].instr_ns);
		jout_kopt(j, "active_time_ns", s->eng[e].active_ns);
		jout_end(j);
	}
	jout_end(j);
}

static void rows_json(const struct summary *s, struct jout *j)
{
	jout_arr(j);
	for (size_t i = 0; i < s->ntracks; i++) {
		const struct sum_track *r = &s->tracks[i];

		jout_obj(j);
		report_row_json(j, r->label ? r->label : r->name, r->kind, r->n,
				r->dur_sum, r->busy_ns);
		jout_end(j);
	}
	jout_end(j);
}

/* A counter's figure; null without a sample, as the selection export. */
static void counter_json(struct jout *j, const char *key,
			 const struct sum_counter *c, double v)
{
	jout_key(j, key);
	if (c->n)
		jout_real(j, v);
	else
		jout_null(j);
}

static void counters_json(const struct summary *s, struct jout *j)
{
	jout_arr(j);
	for (size_t i = 0; i < s->ncounters; i++) {
		const struct sum_counter *c = &s->counters[i];

		jout_obj(j);
		jout_kstr(j, "name", c->label ? c->label : c->name);
		jout_key(j, "unit");
		if (c->unit)
			jout_str(j, c->unit);
		else
			jout_null(j);
		jout_kint(j, "samples", c->n);
		counter_json(j, "min", c, c->vmin);
		counter_json(j, "max", c, c->vmax);
		counter_json(j, "mean", c, c->mean);
		jout_end(j);
	}
	jout_end(j);
}

static void dma_json(const struct summary *s, struct jout *j)
{
	jout_obj(j);
	for (size_t i = 0; i < s->nqtypes; i++) {
		jout_key(j, s->qtypes[i].type);
		jout_obj(j);
		jout_kint(j, "packets", s->qtypes[i].packets);
		jout_kint(j, "packet_bytes", s->qtypes[i].packet_bytes);
		jout_kint(j, "transfers", s->qtypes[i].transfers);
		jout_kint(j, "transfer_bytes", s->qtypes[i].transfer_bytes);
		jout_end(j);
	}
	jout_end(j);
}

static void layers_json(const struct summary *s, struct jout *j)
{
	jout_arr(j);
	for (size_t i = 0; i < s->nlayers; i++) {
		const struct sum_layer *l = &s->layers[i];

		jout_obj(j);
		jout_kstr(j, "name", l->name);
		jout_kint(j, "start_ns", l->start);
		jout_kint(j, "duration_ns", l->dur);
		for (int e = 0; e < ENG_COUNT; e++) {
			char key[48];

			snprintf(key, sizeof(key), "%s_instruction_count",
				 summary_engine_keys[e]);
			jout_kint(j, key, l->count[e]);
		}
		jout_key(j, "mfu");
		if (l->mfu >= 0)
			jout_real(j, l->mfu);
		else
			jout_null(j);
		jout_end(j);
	}
	jout_end(j);
}

void report_row_json(struct jout *j, const char *name, const char *kind,
		     int64_t n, int64_t dur, int64_t busy)
{
	jout_kstr(j, "name", name);
	jout_kstr(j, "kind", kind);
	jout_kint(j, "events", n);
	jout_kint(j, "event_time_ns", dur);
	jout_kint(j, "busy_ns", busy);
}

void report_warnings_json(const struct sum_warning *w, size_t n, struct jout *j)
{
	jout_arr(j);
	for (size_t i = 0; i < n; i++) {
		jout_obj(j);
		jout_kstr(j, "origin", w[i].origin);
		jout_kstr(j, "category", w[i].category);
		jout_kstr(j, "message", w[i].message);
		jout_end(j);
	}
	jout_end(j);
}

/* A Neuron profile's counts: instructions, DMA, per engine. */
static void neuron_json(const struct summary *s, struct jout *j)
{
	jout_kint(j, "instructions", s->n_instructions);
	jout_kint(j, "dma_packets", s->n_packets);
	jout_kint(j, "dma_transfers", s->n_transfers);
	jout_key(j, "engines");
	engines_json(s, j);
}

/* A trace's: slices on threads, async rows and instant rows in
 * processes. */
static void trace_json(const struct summary *s, struct jout *j)
{
	jout_kint(j, "threads", s->n_threads);
	jout_kint(j, "async_rows", s->n_async);
	jout_kint(j, "instant_rows", s->n_instant);
	jout_kint(j, "processes", s->n_processes);
}

void report_summary_json(const struct summary *s, FILE *f)
{
	int trace = summary_is_trace(s);
	struct jout j;

	jout_init(&j, f, 1);
	jout_obj(&j);
	jout_key(&j, "profile");
	profile_json(s, &j);
	jout_kint(&j, "start_ns", s->start);
	jout_kint(&j, "end_ns", s->end);
	jout_kint(&j, "total_time_ns", s->end - s->start);
	jout_kint(&j, "slices", s->n_slices);
	jout_kint(&j, "counter_samples", s->n_counter_samples);
	if (trace)
		trace_json(s, &j);
	else
		neuron_json(s, &j);
	jout_key(&j, "rows");
	rows_json(s, &j);
	if (trace) {
		jout_key(&j, "counters");
		counters_json(s, &j);
	} else {
		jout_key(&j, "dma_by_queue_type");
		dma_json(s, &j);
		jout_key(&j, "layers");
		layers_json(s, &j);
		jout_key(&j, "checks");
		checks_json(s, &j);
	}
	jout_key(&j, "warnings");
	report_warnings_json(s->warnings, s->nwarnings, &j);
	jout_end(&j);
	jout_done(&j);
}
