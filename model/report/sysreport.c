/* Printing a system profile's summary as text or JSON. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "model/report/jout.h"
#include "model/report/report.h"
#include "model/table.h"
#include "model/text.h"
#include "model/timefmt.h"

/* Event names listed in the text summary; JSON has them all. */
#define TEXT_NAMES 30

/* "2024-10-25 20:32:50.999000000 UTC" */
static void epoch_text(char *buf, size_t n, int64_t ns)
{
	time_t sec = (time_t)(ns / 1000000000);
	int64_t rem = ns % 1000000000;
	struct tm tm;
	char day[32];

	if (rem < 0) {
		rem += 1000000000;
		sec--;
	}
	if (!gmtime_r(&sec, &tm) ||
	    !strftime(day, sizeof(day), "%Y-%m-%d %H:%M:%S", &tm)) {
		snprintf(buf, n, "%" PRId64 " ns", ns);
		return;
	}
	snprintf(buf, n, "%s.%09" PRId64 " UTC", day, rem);
}

static void header_text(const struct syssummary *s, FILE *f)
{
	const struct mprofile *p = &s->prof;
	char a[48], b[64], buf[256];

	report_line(f, "Profile", p->name);
	snprintf(buf, sizeof(buf), "%s (%s)", p->kind, p->format);
	report_line(f, "Kind", buf);
	epoch_text(b, sizeof(b), p->start);
	snprintf(buf, sizeof(buf), "%s (%" PRId64 " ns)", b, p->start);
	report_line(f, "Start", buf);
	report_line(f, "Duration", report_dur(a, sizeof(a), p->end - p->start));
	snprintf(buf, sizeof(buf), "%" PRId64 " trace event%s in %zu row%s, %"
		 PRId64 " counter sample%s, %zu device profile%s", s->n_events,
		 s->n_events == 1 ? "" : "s", s->nrows, s->nrows == 1 ? "" : "s",
		 s->n_samples, s->n_samples == 1 ? "" : "s", s->ndevices,
		 s->ndevices == 1 ? "" : "s");
	report_line(f, "Events", buf);
	snprintf(buf, sizeof(buf), "groups by %s, rows by %s",
		 *s->group_by ? s->group_by : "(nothing)",
		 *s->row_by ? s->row_by : "(nothing)");
	report_line(f, "Grouping", buf);
	if (s->dropped)
		report_line(f, "DROPPED", "the profile says events were dropped: the"
		     " timeline has gaps (see Warnings)");
}

static void rows_text(const struct syssummary *s, FILE *f)
{
	struct table *t = table_new();
	int64_t total = s->prof.end - s->prof.start;
	char a[48], b[48], c[32];

	table_col(t, "Group", 0);
	table_col(t, "Row", 0);
	table_col(t, "Kind", 0);
	table_col(t, "Events", 1);
	table_col(t, "Event time", 1);
	table_col(t, "Busy", 1);
	table_col(t, "Busy %", 1);
	for (size_t i = 0; i < s->nrows; i++) {
		const struct sys_row *r = &s->rows[i];

		table_row(t);
		table_text(t, r->group);
		table_text(t, r->name);
		table_text(t, r->kind);
		table_int(t, r->n);
		table_text(t, report_dur(a, sizeof(a), r->dur));
		table_text(t, report_dur(b, sizeof(b), r->busy));
		if (total > 0)
			report_pct(c, sizeof(c),
				   100.0 * (double)r->busy / (double)total);
		else
			snprintf(c, sizeof(c), "-");
		table_text(t, c);
	}
	fputs("\nRows\n", f);
	table_write_text(t, f, 2);
	table_free(t);
}

static void names_text(const struct syssummary *s, FILE *f)
{
	struct table *t = table_new();
	size_t shown = NX_MIN(s->nnames, (size_t)TEXT_NAMES);
	char a[48];

	if (!s->nnames) {
		table_free(t);
		return;
	}
	table_col(t, "Event", 0);
	table_col(t, "Count", 1);
	table_col(t, "Total", 1);
	table_col(t, "Mean", 1);
	table_col(t, "Shortest", 1);
	table_col(t, "Longest", 1);
	for (size_t i = 0; i < shown; i++) {
		const struct sys_name *n = &s->names[i];

		table_row(t);
		table_text(t, n->name);
		table_int(t, n->n);
		table_text(t, report_dur(a, sizeof(a), n->dur));
		table_text(t, report_dur(a, sizeof(a), n->n ? n->dur / n->n : 0));
		table_text(t, report_dur(a, sizeof(a), n->dmin));
		table_text(t, report_dur(a, sizeof(a), n->dmax));
	}
	fprintf(f, "\nEvents by name (%zu", s->nnames);
	if (shown < s->nnames)
		fprintf(f, ", first %zu shown; all with --format json", shown);
	fputs(")\n", f);
	table_write_text(t, f, 2);
	table_free(t);
}

static void counters_text(const struct syssummary *s, FILE *f)
{
	struct table *t = table_new();

	if (!s->ncounters) {
		table_free(t);
		return;
	}
	table_col(t, "Group", 0);
	table_col(t, "Counter", 0);
	table_col(t, "Unit", 0);
	table_col(t, "Samples", 1);
	table_col(t, "Min", 1);
	table_col(t, "Mean", 1);
	table_col(t, "Max", 1);
	for (size_t i = 0; i < s->ncounters; i++) {
		const struct sys_counter *c = &s->counters[i];

		table_row(t);
		table_text(t, c->group);
		table_text(t, c->name);
		table_text(t, c->unit);
		table_int(t, c->n);
		table_printf(t, "%.6g", c->vmin);
		table_printf(t, "%.6g", c->mean);
		table_printf(t, "%.6g", c->vmax);
	}
	fputs("\nCounters\n", f);
	table_write_text(t, f, 2);
	table_free(t);
}

static void devices_text(const struct syssummary *s, FILE *f)
{
	struct table *t = table_new();
	char a[48];

	if (!s->ndevices) {
		table_free(t);
		return;
	}
	table_col(t, "NC", 1);
	table_col(t, "Model", 0);
	table_col(t, "Name", 0);
	table_col(t, "Instance", 0);
	table_col(t, "Process", 1);
	table_col(t, "File", 0);
	table_col(t, "Events", 1);
	table_col(t, "Duration", 1);
	table_col(t, "State", 0);
	for (size_t i = 0; i < s->ndevices; i++) {
		const struct mdevice *d = &s->devices[i];

		table_row(t);
		if (d->nc_idx >= 0)
			table_int(t, d->nc_idx);
		else
			table_text(t, "-");
		table_text(t, d->model ? d->model : "-");
		table_text(t, d->name ? d->name : "");
		table_text(t, d->instance_id ? d->instance_id : "-");
		table_text(t, d->process_id ? d->process_id : "-");
		table_text(t, d->path ? d->path : "");
		table_int(t, d->n_events);
		table_text(t, report_dur(a, sizeof(a), d->duration));
		table_text(t, d->state ? d->state : "");
	}
	fprintf(f, "\nDevice profiles (%zu)\n", s->ndevices);
	table_write_text(t, f, 2);
	table_free(t);
}

static void sources_text(const struct syssummary *s, FILE *f)
{
	struct table *t = table_new();

	if (!s->nsources) {
		table_free(t);
		return;
	}
	table_col(t, "Role", 0);
	table_col(t, "File", 0);
	for (size_t i = 0; i < s->nsources; i++) {
		table_row(t);
		table_printf(t, "%s%s", s->sources[i].role,
			     s->sources[i].missing ? " (missing)" : "");
		table_text(t, s->sources[i].path);
	}
	fputs("\nFiles\n", f);
	table_write_text(t, f, 2);
	table_free(t);
}

void report_syssummary_text(const struct syssummary *s, FILE *f)
{
	header_text(s, f);
	rows_text(s, f);
	names_text(s, f);
	counters_text(s, f);
	devices_text(s, f);
	report_warnings_text(s->warnings, s->nwarnings, f);
	sources_text(s, f);
}

static void opt_str(struct jout *j, const char *key, const char *v)
{
	jout_key(j, key);
	if (v)
		jout_str(j, v);
	else
		jout_null(j);
}

void report_syssummary_json(const struct syssummary *s, FILE *f)
{
	struct jout j;

	jout_init(&j, f, 1);
	jout_obj(&j);
	jout_key(&j, "profile");
	jout_obj(&j);
	opt_str(&j, "name", s->prof.name);
	opt_str(&j, "kind", s->prof.kind);
	opt_str(&j, "format", s->prof.format);
	jout_end(&j);
	jout_key(&j, "start_epoch_ns");
	jout_int(&j, s->prof.start);
	jout_key(&j, "end_epoch_ns");
	jout_int(&j, s->prof.end);
	jout_key(&j, "total_time_ns");
	jout_int(&j, s->prof.end - s->prof.start);
	jout_key(&j, "events");
	jout_int(&j, s->n_events);
	jout_key(&j, "counter_samples");
	jout_int(&j, s->n_samples);
	jout_key(&j, "dropped_events");
	jout_bool(&j, s->dropped > 0);
	jout_key(&j, "group_by");
	jout_str(&j, s->group_by);
	jout_key(&j, "row_by");
	jout_str(&j, s->row_by);
	jout_key(&j, "rows");
	jout_arr(&j);
	for (size_t i = 0; i < s->nrows; i++) {
		const struct sys_row *r = &s->rows[i];

		jout_obj(&j);
		opt_str(&j, "group", r->group);
		opt_str(&j, "name", r->name);
		opt_str(&j, "kind", r->kind);
		jout_key(&j, "events");
		jout_int(&j, r->n);
		jout_key(&j, "event_time_ns");
		jout_int(&j, r->dur);
		jout_key(&j, "busy_ns");
		jout_int(&j, r->busy);
		jout_end(&j);
	}
	jout_end(&j);
	jout_key(&j, "event_names");
	jout_arr(&j);
	for (size_t i = 0; i < s->nnames; i++) {
		const struct sys_name *n = &s->names[i];

		jout_obj(&j);
		opt_str(&j, "name", n->name);
		jout_key(&j, "count");
		jout_int(&j, n->n);
		jout_key(&j, "total_ns");
		jout_int(&j, n->dur);
		jout_key(&j, "min_ns");
		jout_int(&j, n->dmin);
		jout_key(&j, "max_ns");
		jout_int(&j, n->dmax);
		jout_end(&j);
	}
	jout_end(&j);
	jout_key(&j, "counters");
	jout_arr(&j);
	for (size_t i = 0; i < s->ncounters; i++) {
		const struct sys_counter *c = &s->counters[i];

		jout_obj(&j);
		opt_str(&j, "group", c->group);
		opt_str(&j, "name", c->name);
		opt_str(&j, "unit", c->unit);
		jout_key(&j, "samples");
		jout_int(&j, c->n);
		jout_key(&j, "min");
		jout_real(&j, c->vmin);
		jout_key(&j, "mean");
		jout_real(&j, c->mean);
		jout_key(&j, "max");
		jout_real(&j, c->vmax);
		jout_end(&j);
	}
	jout_end(&j);
	jout_key(&j, "device_profiles");
	jout_arr(&j);
	for (size_t i = 0; i < s->ndevices; i++) {
		const struct mdevice *d = &s->devices[i];

		jout_obj(&j);
		jout_key(&j, "nc_idx");
		if (d->nc_idx >= 0)
			jout_int(&j, d->nc_idx);
		else
			jout_null(&j);
		opt_str(&j, "model", d->model);
		opt_str(&j, "name", d->name);
		opt_str(&j, "instance_id", d->instance_id);
		opt_str(&j, "process_id", d->process_id);
		opt_str(&j, "file", d->path);
		jout_key(&j, "events");
		jout_int(&j, d->n_events);
		jout_key(&j, "duration_ns");
		jout_int(&j, d->duration);
		opt_str(&j, "state", d->state);
		jout_end(&j);
	}
	jout_end(&j);
	jout_key(&j, "warnings");
	jout_arr(&j);
	for (size_t i = 0; i < s->nwarnings; i++) {
		jout_obj(&j);
		opt_str(&j, "origin", s->warnings[i].origin);
		opt_str(&j, "category", s->warnings[i].category);
		opt_str(&j, "message", s->warnings[i].message);
		jout_end(&j);
	}
	jout_end(&j);
	jout_key(&j, "files");
	jout_arr(&j);
	for (size_t i = 0; i < s->nsources; i++) {
		jout_obj(&j);
		opt_str(&j, "role", s->sources[i].role);
		opt_str(&j, "path", s->sources[i].path);
		jout_key(&j, "missing");
		jout_bool(&j, s->sources[i].missing);
		jout_end(&j);
	}
	jout_end(&j);
	jout_end(&j);
	jout_done(&j);
}

void export_devices(const struct mdevice *d, size_t n, const struct mprofile *p,
		    enum out_format fmt, FILE *f)
{
	struct table *t = table_new();
	int text = fmt == OUT_TEXT;
	char a[48];

	table_col(t, text ? "NC" : "nc_idx", 1);
	table_col(t, text ? "Model" : "model", 0);
	table_col(t, text ? "Name" : "name", 0);
	table_col(t, text ? "Instance" : "instance_id", 0);
	table_col(t, text ? "Process" : "process_id", 0);
	table_col(t, text ? "File" : "file", 0);
	table_col(t, text ? "Events" : "events", 1);
	table_col(t, text ? "Duration" : "duration_ns", 1);
	table_col(t, text ? "State" : "state", 0);
	table_col(t, text ? "Profile" : "profile_id", 1);
	for (size_t i = 0; i < n; i++) {
		table_row(t);
		if (d[i].nc_idx >= 0)
			table_int(t, d[i].nc_idx);
		else
			table_text(t, text ? "-" : "");
		table_text(t, d[i].model ? d[i].model : "");
		table_text(t, d[i].name ? d[i].name : "");
		table_text(t, d[i].instance_id ? d[i].instance_id : "");
		table_text(t, d[i].process_id ? d[i].process_id : "");
		table_text(t, d[i].path ? d[i].path : "");
		table_int(t, d[i].n_events);
		if (text)
			table_text(t, report_dur(a, sizeof(a), d[i].duration));
		else
			table_int(t, d[i].duration);
		table_text(t, d[i].state ? d[i].state : "");
		table_int(t, d[i].profile);
	}
	{
		char line[48];

		snprintf(line, sizeof(line), "Devices  %zu", n);
		report_table(t, p, fmt, f, "device profiles", "device_profiles",
			     NULL, 0, line);
	}
	table_free(t);
}
