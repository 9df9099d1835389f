#include "config.h"

#include "src/demo/demo_system.h"

#include <inttypes.h>
#include <stdio.h>

/* The system profile as JSON (FORMATS.md §1.4): one top-level array per
 * table, the metadata object first, a record a line. */

struct json {
	FILE *f;
	int first;		/* no record written yet in this array */
	int open;		/* an array is open */
};

static void sep(struct json *j)
{
	fputs(j->first ? "\n  " : ",\n  ", j->f);
	j->first = 0;
}

static void close_array(struct json *j)
{
	if (j->open)
		fputs("\n ]", j->f);
	j->open = 0;
}

static void table(void *ctx, const char *key)
{
	struct json *j = ctx;

	close_array(j);
	fprintf(j->f, ",\n \"%s\": [", key);
	j->first = 1;
	j->open = 1;
}

static void meta(void *ctx, int64_t first_ns, int64_t last_ns)
{
	struct json *j = ctx;

	fprintf(j->f, "{\n \"system_profile_metadata\": [{\"first_ts_ns\":"
		" \"%" PRId64 "\", \"last_ts_ns\": \"%" PRId64 "\","
		" \"hbm_capacity_bytes\": 17179869184, \"ntff_version\": 5}]",
		first_ns, last_ns);
}

static void device(void *ctx, int nc, const char *name, const char *inst,
		   int pid, const char *model_id)
{
	struct json *j = ctx;

	sep(j);
	fprintf(j->f, "{\"nc_id\": %d, \"device_profile_name\": \"%s\","
		" \"instance_id\": \"%s\", \"process_id\": \"%d\","
		" \"model_id\": \"%s\"}", nc, name, inst, pid, model_id);
}

static void framework(struct json *j, const struct demo_sys_event *e)
{
	fprintf(j->f, "{\"name\": \"%s\", \"timestamp\": %" PRId64
		", \"duration\": %" PRId64 ", \"timestamp_unit\": \"ns\","
		" \"trace_event_source\": \"%s\","
		" \"instance_id\": \"%s\", \"process_id\": \"%d\","
		" \"thread_id\": %d, \"type\": 99999%s}", e->name, e->ts,
		e->dur, e->src, e->inst, e->pid, e->tid,
		e->extra ? e->extra : "");
}

static void event(void *ctx, const struct demo_sys_event *e)
{
	struct json *j = ctx;

	sep(j);
	if (e->lnc < 0) {
		framework(j, e);
		return;
	}
	fprintf(j->f, "{\"name\": \"%s\", \"timestamp\": %" PRId64
		", \"duration\": %" PRId64 ", \"timestamp_unit\": \"ns\","
		" \"id\": %" PRIu64 ", \"parent_id\": %" PRIu64
		", \"trace_event_source\": \"%s\", \"instance_id\": \"%s\","
		" \"process_id\": \"%d\", \"thread_id\": %d, \"lnc_idx\": %d,"
		" \"nc_idx\": %d, \"worker_gid\": %d%s}",
		e->name, e->ts, e->dur, e->id, e->parent, e->src, e->inst,
		e->pid, e->tid, e->lnc, e->lnc, e->gid,
		e->extra ? e->extra : "");
}

static void cpu(void *ctx, const char *cpu, const char *inst, int64_t ts,
		double util)
{
	struct json *j = ctx;

	sep(j);
	fprintf(j->f, "{\"cpu_id\": \"%s\", \"duration\": 1,"
		" \"instance_id\": \"%s\", \"timestamp\": %" PRId64
		", \"util\": %.4f}", cpu, inst, ts, util);
}

static void mem(void *ctx, const char *inst, int64_t ts, double percent,
		int64_t used)
{
	struct json *j = ctx;

	sep(j);
	fprintf(j->f, "{\"duration\": 1, \"instance_id\": \"%s\","
		" \"percent_usage\": %.4f, \"timestamp\": %" PRId64
		", \"usage\": %" PRId64 "}", inst, percent, ts, used);
}

static void hbm(void *ctx, const char *inst, int hbm, int64_t ts,
		int64_t total)
{
	struct json *j = ctx;

	sep(j);
	fprintf(j->f, "{\"timestamp\": %" PRId64 ","
		" \"instance_id\": \"%s\", \"device_idx\": 0,"
		" \"hbm_idx\": %d, \"total_bytes\": %" PRId64
		", \"dram_spill_bytes\": 0}", ts, inst, hbm, total);
}

int demo_write_system(FILE *f, const struct demo_system *d)
{
	struct json j = { .f = f };
	struct demo_sys_sink s = { meta, table, device, event, cpu, mem, hbm,
				   &j };

	if (demo_system_run(d, &s))
		return -1;
	close_array(&j);
	fputs(",\n \"warnings\": []\n}\n", f);
	return 0;
}
