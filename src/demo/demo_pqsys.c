#include "config.h"

#include "src/demo/demo_pq.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/util.h"
#include "src/demo/demo_pqtab.h"
#include "src/demo/demo_system.h"

/* The system profile of the Parquet demo: the JSON's tables under the
 * names of FORMATS.md §1.4-1.5 (trace_event → SystemProfileEvents,
 * device_profile_list → DeviceProfileList, cpu_util → CpuUsage,
 * mem_usage → HostMemUsage, device_mem_usage → SystemProfileHbmUsage,
 * system_profile_metadata → SystemProfileMetadata). The JSON's event
 * fields without a column (parent_id, sizes, model and tensor names,
 * the framework's type and step) go to extra_attributes_json. The LIST
 * column flow_id links an nrt_execute call and the nc_exec_running it
 * started (the JSON's parent_id) by the call's id; other events have
 * none. */

enum { T_DEV, T_EV, T_CPU, T_MEM, T_HBM, T_N };

static const struct pqw_field dev_fields[] = {
	{ "nc_id", PQW_INT64, 0 }, { "device_profile_name", PQW_STRING, 0 },
	{ "instance_id", PQW_STRING, 0 }, { "process_id", PQW_INT64, 0 },
	{ "model_id", PQW_STRING, 1 },
};

enum {
	E_ID, E_NAME, E_START, E_END, E_DUR, E_SRC, E_INST, E_PID, E_TID,
	E_NC, E_GID, E_FLOW, E_EXTRA, E_N
};

static const struct pqw_field ev_fields[E_N] = {
	{ "id", PQW_INT64, 0 }, { "name", PQW_STRING, 0 },
	{ "start_ts", PQW_INT64, 0 }, { "end_ts", PQW_INT64, 0 },
	{ "duration_ns", PQW_INT64, 0 },
	{ "trace_event_source", PQW_STRING, 0 },
	{ "instance_id", PQW_STRING, 0 }, { "process_id", PQW_INT64, 0 },
	{ "thread_id", PQW_INT64, 0 }, { "nc_idx", PQW_INT64, 1 },
	{ "worker_gid", PQW_INT64, 1 },
	{ "flow_id", PQW_STRING_LIST, 1 },
	{ "extra_attributes_json", PQW_STRING, 1 },
};

static const struct pqw_field cpu_fields[] = {
	{ "timestamp", PQW_INT64, 0 }, { "util_percent", PQW_DOUBLE, 0 },
	{ "cpu_id", PQW_STRING, 0 }, { "instance_id", PQW_STRING, 0 },
};

static const struct pqw_field mem_fields[] = {
	{ "timestamp", PQW_INT64, 0 }, { "used_bytes", PQW_INT64, 0 },
	{ "used_percent", PQW_DOUBLE, 0 }, { "instance_id", PQW_STRING, 0 },
};

static const struct pqw_field hbm_fields[] = {
	{ "timestamp", PQW_INT64, 0 }, { "total_bytes", PQW_INT64, 0 },
	{ "dram_spill_bytes", PQW_INT64, 0 }, { "device_idx", PQW_INT64, 0 },
	{ "hbm_idx", PQW_INT64, 0 }, { "instance_id", PQW_STRING, 0 },
};

static const struct {
	const char *name;
	const struct pqw_field *f;
	int n;
} tables[T_N] = {
	{ "DeviceProfileList", dev_fields, (int)NX_ARRAY_SIZE(dev_fields) },
	{ "SystemProfileEvents", ev_fields, E_N },
	{ "CpuUsage", cpu_fields, (int)NX_ARRAY_SIZE(cpu_fields) },
	{ "HostMemUsage", mem_fields, (int)NX_ARRAY_SIZE(mem_fields) },
	{ "SystemProfileHbmUsage", hbm_fields, (int)NX_ARRAY_SIZE(hbm_fields) },
};

struct sys {
	struct pqtab t[T_N];
	int64_t first_ns, last_ns;
};

/* The JSON prints these with 4 decimals; the table holds that value. */
static double four_places(double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.4f", v);
	return strtod(buf, NULL);
}

static void meta(void *ctx, int64_t first_ns, int64_t last_ns)
{
	struct sys *s = ctx;

	s->first_ns = first_ns;
	s->last_ns = last_ns;
}

static void device(void *ctx, int nc, const char *name, const char *inst,
		   int pid, const char *model_id)
{
	struct pqtab *t = &((struct sys *)ctx)->t[T_DEV];

	if (t->err)
		return;
	pqw_i64(t->w, 0, nc);
	pqw_str(t->w, 1, name);
	pqw_str(t->w, 2, inst);
	pqw_i64(t->w, 3, pid);
	pqw_str(t->w, 4, model_id);
	pqtab_row(t);
}

/* {"parent_id": N, <the JSON's extra fields>}, or the framework's. */
static void extra_json(struct pqw *w, const struct demo_sys_event *e)
{
	const char *x = e->extra ? e->extra : "";
	char *json;

	if (e->lnc < 0)
		json = xasprintf("{\"type\": 99999%s}", x);
	else
		json = xasprintf("{\"parent_id\": %" PRIu64 "%s}", e->parent, x);
	pqw_str(w, E_EXTRA, json);
	free(json);
}

static void flow(struct pqw *w, const struct demo_sys_event *e)
{
	char id[24];
	const char *v[1] = { id };

	if (!strcmp(e->name, "nrt_execute"))
		snprintf(id, sizeof(id), "%" PRIu64, e->id);
	else if (!strcmp(e->name, "nc_exec_running"))
		snprintf(id, sizeof(id), "%" PRIu64, e->parent);
	else
		return;
	pqw_strs(w, E_FLOW, v, 1);
}

static void event(void *ctx, const struct demo_sys_event *e)
{
	struct pqtab *t = &((struct sys *)ctx)->t[T_EV];

	if (t->err)
		return;
	flow(t->w, e);
	pqw_i64(t->w, E_ID, (int64_t)e->id);
	pqw_str(t->w, E_NAME, e->name);
	pqw_i64(t->w, E_START, e->ts);
	pqw_i64(t->w, E_END, e->ts + e->dur);
	pqw_i64(t->w, E_DUR, e->dur);
	pqw_str(t->w, E_SRC, e->src);
	pqw_str(t->w, E_INST, e->inst);
	pqw_i64(t->w, E_PID, e->pid);
	pqw_i64(t->w, E_TID, e->tid);
	if (e->lnc >= 0) {
		pqw_i64(t->w, E_NC, e->lnc);
		pqw_i64(t->w, E_GID, e->gid);
	}
	extra_json(t->w, e);
	pqtab_row(t);
}

static void cpu(void *ctx, const char *cpu, const char *inst, int64_t ts,
		double util)
{
	struct pqtab *t = &((struct sys *)ctx)->t[T_CPU];

	if (t->err)
		return;
	pqw_i64(t->w, 0, ts);
	pqw_double(t->w, 1, four_places(util));
	pqw_str(t->w, 2, cpu);
	pqw_str(t->w, 3, inst);
	pqtab_row(t);
}

static void mem(void *ctx, const char *inst, int64_t ts, double percent,
		int64_t used)
{
	struct pqtab *t = &((struct sys *)ctx)->t[T_MEM];

	if (t->err)
		return;
	pqw_i64(t->w, 0, ts);
	pqw_i64(t->w, 1, used);
	pqw_double(t->w, 2, four_places(percent));
	pqw_str(t->w, 3, inst);
	pqtab_row(t);
}

static void hbm(void *ctx, const char *inst, int hbm, int64_t ts,
		int64_t total)
{
	struct pqtab *t = &((struct sys *)ctx)->t[T_HBM];

	if (t->err)
		return;
	pqw_i64(t->w, 0, ts);
	pqw_i64(t->w, 1, total);
	pqw_i64(t->w, 2, 0);
	pqw_i64(t->w, 3, 0);
	pqw_i64(t->w, 4, hbm);
	pqw_str(t->w, 5, inst);
	pqtab_row(t);
}

static const struct pqw_field meta_fields[] = {
	{ "first_ts", PQW_STRING, 0 }, { "last_ts", PQW_STRING, 0 },
	{ "first_ts_ns", PQW_STRING, 0 }, { "last_ts_ns", PQW_STRING, 0 },
	{ "ntff_version", PQW_INT64, 0 },
	{ "hbm_capacity_bytes", PQW_INT64, 0 },
};

/* "2025-12-18 15:35:56.592459482 +0000 UTC", as Explorer writes it. */
static void human_ts(char *buf, size_t n, int64_t ns)
{
	time_t s = (time_t)(ns / 1000000000);
	struct tm tm;
	char day[32];

	gmtime_r(&s, &tm);
	strftime(day, sizeof(day), "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(buf, n, "%s.%09d +0000 UTC", day, (int)(ns % 1000000000));
}

/* Written last: its file marks a whole system folder. */
static int metadata(struct demo_pq *pq, const char *dir, const struct sys *s)
{
	struct pqtab t;
	char buf[64];

	if (pqtab_open(&t, pq, dir, "SystemProfileMetadata", meta_fields,
		       (int)NX_ARRAY_SIZE(meta_fields), 1))
		return -1;
	human_ts(buf, sizeof(buf), s->first_ns);
	pqw_str(t.w, 0, buf);
	human_ts(buf, sizeof(buf), s->last_ns);
	pqw_str(t.w, 1, buf);
	snprintf(buf, sizeof(buf), "%" PRId64, s->first_ns);
	pqw_str(t.w, 2, buf);
	snprintf(buf, sizeof(buf), "%" PRId64, s->last_ns);
	pqw_str(t.w, 3, buf);
	pqw_i64(t.w, 4, 5);
	pqw_i64(t.w, 5, INT64_C(17179869184));
	pqtab_row(&t);
	return pqtab_close(&t);
}

static int close_all(struct sys *s, int n, int rc)
{
	for (int i = 0; i < n; i++) {
		if (rc)
			s->t[i].err = 1;
		if (pqtab_close(&s->t[i]))
			rc = -1;
	}
	return rc;
}

int demo_pq_system(struct demo_pq *pq, const char *dir,
		   const struct demo_system *d)
{
	struct sys *s = xcalloc(1, sizeof(*s));
	struct demo_sys_sink sink = { meta, NULL, device, event, cpu, mem,
				      hbm, s };
	int rc = mkdirs(dir), n = 0;

	while (!rc && n < T_N) {
		rc = pqtab_open(&s->t[n], pq, dir, tables[n].name, tables[n].f,
				tables[n].n, 0);
		if (!rc)
			n++;
	}
	if (!rc)
		rc = demo_system_run(d, &sink);
	rc = close_all(s, n, rc);
	if (!rc)
		rc = metadata(pq, dir, s);
	free(s);
	return rc;
}
