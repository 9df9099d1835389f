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

	report_profile_text(p, f);
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

	table_col(t, "Group", 0);
	report_row_cols(t);
	for (size_t i = 0; i < s->nrows; i++) {
		const struct sys_row *r = &s->rows[i];

		table_row(t);
		table_text(t, r->group);
		report_row_cells(t, r->name, r->kind, r->n, r->dur, r->busy,
				 s->prof.end - s->prof.start);
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

static void rows_json(const struct syssummary *s, struct jout *j)
{
	jout_arr(j);
	for (size_t i = 0; i < s->nrows; i++) {
		const struct sys_row *r = &s->rows[i];

		jout_obj(j);
		jout_kstr(j, "group", r->group);
		report_row_json(j, r->name, r->kind, r->n, r->dur, r->busy);
		jout_end(j);
	}
	jout_end(j);
}

static void names_json(const struct syssummary *s, struct jout *j)
{
	jout_arr(j);
	for (size_t i = 0; i < s->nnames; i++) {
		const struct sys_name *n = &s->names[i];

		jout_obj(j);
		jout_kstr(j, "name", n->name);
		jout_kint(j, "count", n->n);
		jout_kint(j, "total_ns", n->dur);
		jout_kint(j, "min_ns", n->dmin);
		jout_kint(j, "max_ns", n->dmax);
		jout_end(j);
	}
	jout_end(j);
}

static void counters_json(const struct syssummary *s, struct jout *j)
{
	jout_arr(j);
	for (size_t i = 0; i < s->ncounters; i++) {
		const struct sys_counter *c = &s->counters[i];

		jout_obj(j);
		jout_kstr(j, "group", c->group);
		jout_kstr(j, "name", c->name);
		jout_kstr(j, "unit", c->unit);
		jout_kint(j, "samples", c->n);
		jout_kreal(j, "min", c->vmin);
		jout_kreal(j, "mean", c->mean);
		jout_kreal(j, "max", c->vmax);
		jout_end(j);
	}
	jout_end(j);
}

static void devices_json(const struct syssummary *s, struct jout *j)
{
	jout_arr(j);
	for (size_t i = 0; i < s->ndevices; i++) {
		const struct mdevice *d = &s->devices[i];

		jout_obj(j);
		jout_kopt(j, "nc_idx", d->nc_idx);
		jout_kstr(j, "model", d->model);
		jout_kstr(j, "name", d->name);
		jout_kstr(j, "instance_id", d->instance_id);
		jout_kstr(j, "process_id", d->process_id);
		jout_kstr(j, "file", d->path);
		jout_kint(j, "events", d->n_events);
		jout_kint(j, "duration_ns", d->duration);
		jout_kstr(j, "state", d->state);
		jout_end(j);
	}
	jout_end(j);
}

static void sources_json(const struct syssummary *s, struct jout *j)
{
	jout_arr(j);
	for (size_t i = 0; i < s->nsources; i++) {
		jout_obj(j);
		jout_kstr(j, "role", s->sources[i].role);
		jout_kstr(j, "path", s->sources[i].path);
		jout_kbool(j, "missing", s->sources[i].missing);
		jout_end(j);
	}
	jout_end(j);
}

void report_syssummary_json(const struct syssummary *s, FILE *f)
{
	struct jout j;

	jout_init(&j, f, 1);
	jout_obj(&j);
	jout_key(&j, "profile");
	jout_obj(&j);
	report_profile_json(&s->prof, &j);
	jout_end(&j);
	jout_kint(&j, "start_epoch_ns", s->prof.start);
	jout_kint(&j, "end_epoch_ns", s->prof.end);
	jout_kint(&j, "total_time_ns", s->prof.end - s->prof.start);
	jout_kint(&j, "events", s->n_events);
	jout_kint(&j, "counter_samples", s->n_samples);
	jout_kbool(&j, "dropped_events", s->dropped > 0);
	jout_kstr(&j, "group_by", s->group_by);
	jout_kstr(&j, "row_by", s->row_by);
	jout_key(&j, "rows");
	rows_json(s, &j);
	jout_key(&j, "event_names");
	names_json(s, &j);
	jout_key(&j, "counters");
	counters_json(s, &j);
	jout_key(&j, "device_profiles");
	devices_json(s, &j);
	jout_key(&j, "warnings");
	report_warnings_json(s->warnings, s->nwarnings, &j);
	jout_key(&j, "files");
	sources_json(s, &j);
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
