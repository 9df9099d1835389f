/* Both summaries as CSV: one long table of section, record, column and
 * value (as export --what info), holding every value of the JSON. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "model/report/report.h"
#include "model/table.h"

/* The table being filled, and where its next values go: section is the
 * JSON's key of the object or array ("summary" for the top level's own
 * values), record the index within it. */
struct sumcsv {
	struct table *t;
	const char *section;
	int64_t record;
};

static void put(struct sumcsv *c, const char *column, const char *value,
		int is_num)
{
	table_row(c->t);
	table_text(c->t, c->section);
	table_int(c->t, c->record);
	table_text(c->t, column);
	if (is_num)
		table_num(c->t, 0, value);
	else
		table_text(c->t, value ? value : "");
}

static void put_int(struct sumcsv *c, const char *column, int64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	put(c, column, buf, 1);
}

/* A figure that may be absent (negative): empty, as JSON's null. */
static void put_opt(struct sumcsv *c, const char *column, int64_t v)
{
	if (v >= 0)
		put_int(c, column, v);
	else
		put(c, column, "", 0);
}

/* A real with every digit, as JSON writes it; empty unless known. */
static void put_real(struct sumcsv *c, const char *column, int known,
		     double v)
{
	char buf[32] = "";

	if (known && isfinite(v))
		snprintf(buf, sizeof(buf), "%.17g", v);
	put(c, column, buf, 1);
}

static void put_bool(struct sumcsv *c, const char *column, int v)
{
	put(c, column, v ? "1" : "0", 1);
}

static void section(struct sumcsv *c, const char *name)
{
	c->section = name;
	c->record = 0;
}

static void start(struct sumcsv *c)
{
	c->t = table_new();
	table_col(c->t, "section", 0);
	table_col(c->t, "record", 1);
	table_col(c->t, "column", 0);
	table_col(c->t, "value", 0);
}

static void finish(struct sumcsv *c, FILE *f)
{
	table_write_csv(c->t, f);
	table_free(c->t);
}

static void profile_csv(struct sumcsv *c, const struct mprofile *p)
{
	section(c, "profile");
	put(c, "name", p->name, 0);
	put(c, "kind", p->kind, 0);
	put(c, "format", p->format, 0);
}

static void warnings_csv(struct sumcsv *c, const struct sum_warning *w,
			 size_t n)
{
	section(c, "warnings");
	for (size_t i = 0; i < n; i++, c->record++) {
		put(c, "origin", w[i].origin, 0);
		put(c, "category", w[i].category, 0);
		put(c, "message", w[i].message, 0);
	}
}

static void row_csv(struct sumcsv *c, const char *name, const char *kind,
		    int64_t n, int64_t dur, int64_t busy)
{
	put(c, "name", name, 0);
	put(c, "kind", kind, 0);
	put_int(c, "events", n);
	put_int(c, "event_time_ns", dur);
	put_int(c, "busy_ns", busy);
}

static void head_csv(struct sumcsv *c, const struct summary *s)
{
	profile_csv(c, &s->prof);
	put_opt(c, "nc_idx", s->prof.nc_idx);
	put(c, "instance_type", s->prof.instance_type, 0);
	if (s->schema_version)
		put(c, "schema_version", s->schema_version, 0);
	if (!s->run)
		return;
	put(c, "run", s->run, 0);
	section(c, "profile.other_runs");
	for (size_t i = 0; i < s->nother_runs; i++, c->record++)
		put(c, "run", s->other_runs[i], 0);
}

static void totals_csv(struct sumcsv *c, const struct summary *s)
{
	section(c, "summary");
	put_int(c, "start_ns", s->start);
	put_int(c, "end_ns", s->end);
	put_int(c, "total_time_ns", s->end - s->start);
	put_int(c, "slices", s->n_slices);
	put_int(c, "counter_samples", s->n_counter_samples);
	if (summary_is_trace(s)) {
		put_int(c, "threads", s->n_threads);
		put_int(c, "async_rows", s->n_async);
		put_int(c, "instant_rows", s->n_instant);
		put_int(c, "processes", s->n_processes);
		return;
	}
	put_int(c, "instructions", s->n_instructions);
	put_int(c, "dma_packets", s->n_packets);
	put_int(c, "dma_transfers", s->n_transfers);
	section(c, "engines");
	for (int e = 0; e < ENG_COUNT; e++, c->record++) {
		put(c, "engine", summary_engine_keys[e], 0);
		put_int(c, "instruction_count", s->eng[e].count);
		put_int(c, "instruction_time_ns", s->eng[e].instr_ns);
		put_opt(c, "active_time_ns", s->eng[e].active_ns);
	}
}

static void counters_csv(struct sumcsv *c, const struct summary *s)
{
	section(c, "counters");
	for (size_t i = 0; i < s->ncounters; i++, c->record++) {
		const struct sum_counter *k = &s->counters[i];

		put(c, "name", k->label ? k->label : k->name, 0);
		put(c, "unit", k->unit, 0);
		put_int(c, "samples", k->n);
		put_real(c, "min", k->n > 0, k->vmin);
		put_real(c, "max", k->n > 0, k->vmax);
		put_real(c, "mean", k->n > 0, k->mean);
	}
}

static void dma_csv(struct sumcsv *c, const struct summary *s)
{
	section(c, "dma_by_queue_type");
	for (size_t i = 0; i < s->nqtypes; i++, c->record++) {
		const struct sum_qtype *q = &s->qtypes[i];

		put(c, "queue_type", q->type, 0);
		put_int(c, "packets", q->packets);
		put_int(c, "packet_bytes", q->packet_bytes);
		put_int(c, "transfers", q->transfers);
		put_int(c, "transfer_bytes", q->transfer_bytes);
	}
}

static void layers_csv(struct sumcsv *c, const struct summary *s)
{
	char key[48];

	section(c, "layers");
	for (size_t i = 0; i < s->nlayers; i++, c->record++) {
		const struct sum_layer *l = &s->layers[i];

		put(c, "name", l->name, 0);
		put_int(c, "start_ns", l->start);
		put_int(c, "duration_ns", l->dur);
		for (int e = 0; e < ENG_COUNT; e++) {
			snprintf(key, sizeof(key), "%s_instruction_count",
				 summary_engine_keys[e]);
			put_int(c, key, l->count[e]);
		}
		put_real(c, "mfu", l->mfu >= 0, l->mfu);
	}
}

static void checks_csv(struct sumcsv *c, const struct summary *s)
{
	static const char *const units[] = { "count", "bytes", "ns" };

	section(c, "checks");
	for (size_t i = 0; i < s->nchecks; i++, c->record++) {
		const struct sum_check *k = &s->checks[i];

		put(c, "figure", k->what, 0);
		put(c, "method", k->method, 0);
		put(c, "unit", units[k->unit], 0);
		put_int(c, "events", k->ours);
		put_real(c, "profile", 1, k->theirs);
		put_real(c, "difference", 1, (double)k->ours - k->theirs);
		put_int(c, "tolerance_abs", k->tol_abs);
		put_real(c, "tolerance_rel", 1, k->tol_permille / 1000.0);
		put_bool(c, "agree", k->agree);
	}
}

void report_summary_csv(const struct summary *s, FILE *f)
{
	struct sumcsv c;

	start(&c);
	head_csv(&c, s);
	totals_csv(&c, s);
	section(&c, "rows");
	for (size_t i = 0; i < s->ntracks; i++, c.record++) {
		const struct sum_track *r = &s->tracks[i];

		row_csv(&c, r->label ? r->label : r->name, r->kind, r->n,
			r->dur_sum, r->busy_ns);
	}
	if (summary_is_trace(s)) {
		counters_csv(&c, s);
	} else {
		dma_csv(&c, s);
		layers_csv(&c, s);
		checks_csv(&c, s);
	}
	warnings_csv(&c, s->warnings, s->nwarnings);
	finish(&c, f);
}

static void sys_totals_csv(struct sumcsv *c, const struct syssummary *s)
{
	section(c, "summary");
	put_int(c, "start_epoch_ns", s->prof.start);
	put_int(c, "end_epoch_ns", s->prof.end);
	put_int(c, "total_time_ns", s->prof.end - s->prof.start);
	put_int(c, "events", s->n_events);
	put_int(c, "counter_samples", s->n_samples);
	put_bool(c, "dropped_events", s->dropped > 0);
	put(c, "group_by", s->group_by, 0);
	put(c, "row_by", s->row_by, 0);
}

static void sys_lists_csv(struct sumcsv *c, const struct syssummary *s)
{
	section(c, "event_names");
	for (size_t i = 0; i < s->nnames; i++, c->record++) {
		put(c, "name", s->names[i].name, 0);
		put_int(c, "count", s->names[i].n);
		put_int(c, "total_ns", s->names[i].dur);
		put_int(c, "min_ns", s->names[i].dmin);
		put_int(c, "max_ns", s->names[i].dmax);
	}
	section(c, "counters");
	for (size_t i = 0; i < s->ncounters; i++, c->record++) {
		const struct sys_counter *k = &s->counters[i];

		put(c, "group", k->group, 0);
		put(c, "name", k->name, 0);
		put(c, "unit", k->unit, 0);
		put_int(c, "samples", k->n);
		put_real(c, "min", 1, k->vmin);
		put_real(c, "mean", 1, k->mean);
		put_real(c, "max", 1, k->vmax);
	}
}

static void sys_devices_csv(struct sumcsv *c, const struct syssummary *s)
{
	section(c, "device_profiles");
	for (size_t i = 0; i < s->ndevices; i++, c->record++) {
		const struct mdevice *d = &s->devices[i];

		put_opt(c, "nc_idx", d->nc_idx);
		put(c, "model", d->model, 0);
		put(c, "name", d->name, 0);
		put(c, "instance_id", d->instance_id, 0);
		put(c, "process_id", d->process_id, 0);
		put(c, "file", d->path, 0);
		put_int(c, "events", d->n_events);
		put_int(c, "duration_ns", d->duration);
		put(c, "state", d->state, 0);
	}
}

void report_syssummary_csv(const struct syssummary *s, FILE *f)
{
	struct sumcsv c;

	start(&c);
	profile_csv(&c, &s->prof);
	sys_totals_csv(&c, s);
	section(&c, "rows");
	for (size_t i = 0; i < s->nrows; i++, c.record++) {
		put(&c, "group", s->rows[i].group, 0);
		row_csv(&c, s->rows[i].name, s->rows[i].kind, s->rows[i].n,
			s->rows[i].dur, s->rows[i].busy);
	}
	sys_lists_csv(&c, s);
	sys_devices_csv(&c, s);
	warnings_csv(&c, s->warnings, s->nwarnings);
	section(&c, "files");
	for (size_t i = 0; i < s->nsources; i++, c.record++) {
		put(&c, "role", s->sources[i].role, 0);
		put(&c, "path", s->sources[i].path, 0);
		put_bool(&c, "missing", s->sources[i].missing);
	}
	finish(&c, f);
}
