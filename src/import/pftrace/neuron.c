/* Neuron's own Perfetto output (neuron-profile view --output-format
 * perfetto; FORMATS.md "Perfetto output"), mapped onto the rows the JSON
 * importers make: engine rows "TensorMatrix Engine - Row 0..N" become one
 * engine row per engine, DMA rows one row per queue, the named counters
 * the same counter rows, slice args the typed instruction and DMA fields.
 * System traces' "<...>-neuron_rt" rows become runtime rows with their
 * typed fields, "device_profile" included for drilldown. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "src/import/neuron.h"
#include "src/json/jsonval.h"
#include "src/pftrace/args.h"
#include "src/import/pftrace/pftrace.h"

static int ends_with(const char *s, size_t n, const char *suffix)
{
	size_t m = strlen(suffix);

	return n >= m && !memcmp(s + n - m, suffix, m);
}

static int all_digits(const char *s, size_t n)
{
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

/* Length of name without a trailing " - Row <n>", or 0 if none. */
static size_t row_prefix(const char *name, size_t n)
{
	const char *p = NULL;

	for (const char *q = name; (q = strstr(q, " - Row ")); q++)
		p = q;
	if (!p || !all_digits(p + 7, n - (size_t)(p + 7 - name)))
		return 0;
	return (size_t)(p - name);
}

/* "S[5] (Tensor)" */
static int is_semaphore(const char *name)
{
	const char *p = name + 2;

	if (strncmp(name, "S[", 2))
		return 0;
	while (*p >= '0' && *p <= '9')
		p++;
	return p > name + 2 && *p == ']';
}

static enum pfn_kind classify_row(const char *name, size_t n,
				  struct strbuf *label)
{
	sb_reset(label);
	if (n > 11 && !strncmp(name, "DMA Engine ", 11) &&
	    all_digits(name + 11, n - 11)) {
		sb_add(label, name, n);
		return PFN_DMA;
	}
	if (ends_with(name, n, " Engine") && n > 7) {
		sb_add(label, name, n - 7);
		return PFN_ENGINE;
	}
	if (n > 1 && name[0] == 'q' && name[1] >= 'A' && name[1] <= 'Z') {
		sb_add(label, name, n);
		return PFN_DMA;
	}
	return PFN_NONE;
}

enum pfn_kind pfn_classify(const char *name, struct strbuf *label,
			   int *counter)
{
	size_t n = strlen(name), row = row_prefix(name, n);

	*counter = -1;
	if (row)
		return classify_row(name, row, label);
	*counter = neuron_counter_named(name);
	if (*counter >= 0)
		return PFN_COUNTER;
	if (is_semaphore(name))
		return PFN_SEMAPHORE;
	if (ends_with(name, n, "-neuron_rt") || !strncmp(name, "nrt-nc-", 7))
		return PFN_NRT;
	if (ends_with(name, n, "-neuron_hw"))
		return PFN_HW;
	if (ends_with(name, n, "-framework") || !strncmp(name, "framework-", 10))
		return PFN_FRAMEWORK;
	return PFN_NONE;
}

static void set_item(cJSON *o, const char *key, cJSON *v)
{
	if (!cJSON_ReplaceItemInObjectCaseSensitive(o, key, v))
		cJSON_AddItemToObject(o, key, v);
}

/* Sets key unless it holds something already. */
static void set_default(cJSON *o, const char *key, const char *value)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (v && !(cJSON_IsString(v) && !*v->valuestring))
		return;
	set_item(o, key, cJSON_CreateString(value));
}

static void neuron_needed(struct pftrace *p)
{
	if (p->neuron)
		return;
	p->neuron = neuron_new(p->im);
	writer_profile_set(p->w, p->im->profile, "kind", "device");
}

int pfn_device_slice(struct pftrace *p, struct pf_track *t, int64_t ts,
		     int64_t dur, cJSON *fields)
{
	int rc;

	neuron_needed(p);
	if (!fields)
		fields = cJSON_CreateObject();
	set_item(fields, "timestamp", pfargs_int(ts));
	set_item(fields, "duration", pfargs_int(dur));
	if (t->nkind == PFN_ENGINE) {
		if (!cJSON_GetObjectItemCaseSensitive(fields, "subgroup"))
			set_default(fields, "label", t->nlabel);
		rc = neuron_instruction(p->neuron, fields, &p->where);
	} else {
		set_default(fields, "subgroup", t->nlabel);
		rc = neuron_dma(p->neuron, fields, &p->where);
	}
	cJSON_Delete(fields);
	return rc;
}

/* The slice name fills in the opcode of an instruction and the variable
 * of a DMA, as the JSON export has them. */
void pfn_begin_fields(struct pf_track *t, cJSON *fields, const char *name)
{
	if (!name || !*name)
		return;
	if (t->nkind == PFN_ENGINE)
		set_default(fields, "opcode", name);
	else if (t->nkind == PFN_DMA)
		set_default(fields, "variable", name);
}

/* Fields of system events that have their own columns. */
static const char *const sys_keys[] = {
	"device_core_idx", "device_profile", "duration", "exec_id", "id",
	"instance_id", "lnc_idx", "model_id", "model_name", "name", "nc_idx",
	"parent_id", "process_id", "thread_id", "timestamp", "timestamp_unit",
	"trace_event_source", "worker_gid",
};

static int64_t sys_int(const cJSON *o, const char *key)
{
	int64_t v;

	return import_get_i64(cJSON_GetObjectItemCaseSensitive(o, key),
			      FIELD_NEG_ABSENT, &v) == JV_OK ? v : -1;
}

static int64_t sys_sid(struct pftrace *p, const cJSON *o, const char *key)
{
	char buf[64];
	const char *s;

	if (import_get_str(cJSON_GetObjectItemCaseSensitive(o, key),
			   FIELD_EMPTY_ABSENT, &s, buf, sizeof(buf)) != JV_OK)
		return 0;
	return writer_string(p->w, s);
}

static const char *const source_of[] = {
	[PFN_NRT] = "neuron_rt", [PFN_HW] = "neuron_hw",
	[PFN_FRAMEWORK] = "framework",
};

static void sys_event(struct pftrace *p, struct pf_track *t, int64_t slice,
		      const cJSON *o)
{
	struct wsys_event e;
	char buf[64];
	const char *model_id = NULL;

	memset(&e, 0, sizeof(e));
	jv_id(cJSON_GetObjectItemCaseSensitive(o, "id"), &e.id);
	jv_id(cJSON_GetObjectItemCaseSensitive(o, "parent_id"), &e.parent);
	e.source = sys_sid(p, o, "trace_event_source");
	if (!e.source)
		e.source = writer_string(p->w, source_of[t->nkind]);
	e.instance_id = sys_sid(p, o, "instance_id");
	e.process_id = sys_sid(p, o, "process_id");
	e.model_name = sys_sid(p, o, "model_name");
	e.device_profile = sys_sid(p, o, "device_profile");
	e.thread_id = sys_int(o, "thread_id");
	e.nc_idx = sys_int(o, "nc_idx");
	e.lnc_idx = sys_int(o, "lnc_idx");
	e.worker_gid = sys_int(o, "worker_gid");
	e.device_core_idx = sys_int(o, "device_core_idx");
	e.exec_id = sys_int(o, "exec_id");
	if (jv_str(cJSON_GetObjectItemCaseSensitive(o, "model_id"), &model_id,
		   buf, sizeof(buf)) != JV_OK)
		model_id = NULL;
	e.model_id = model_id;
	writer_sys_event(p->w, slice, &e);
}

int64_t pfn_system_slice(struct pftrace *p, struct pf_track *t, int64_t ts,
			 int64_t dur, int64_t name, int64_t cat, int depth,
			 unsigned flags, cJSON *fields)
{
	int64_t slice;

	if (!p->system) {
		p->system = 1;
		writer_profile_set(p->w, p->im->profile, "kind", "system");
	}
	slice = writer_slice(p->w, trow_track(p->rows, t->row), ts, dur, name,
			     cat, depth, flags);
	if (!fields)
		fields = cJSON_CreateObject();
	sys_event(p, t, slice, fields);
	for (size_t i = 0; i < NX_ARRAY_SIZE(sys_keys); i++)
		cJSON_DeleteItemFromObjectCaseSensitive(fields, sys_keys[i]);
	if (fields->child) {
		sb_reset(&p->tmp);
		jv_write(&p->tmp, fields);
		writer_slice_args(p->w, slice, sb_cstr(&p->tmp));
	}
	cJSON_Delete(fields);
	return slice;
}

void pfn_counter(struct pftrace *p, struct pf_track *t, int64_t ts, double v)
{
	neuron_needed(p);
	if (t->nkind == PFN_COUNTER) {
		neuron_sample(p->neuron, t->ncounter, ts, v);
	} else {
		writer_semaphore(p->w, p->im->profile, ts, t->name ? t->name : "",
				 (int64_t)v);
	}
}
