/* Neuron system-profile JSON (neuron-profile / neuron-explorer view -d DIR
 * --output-format json): runtime, hardware and framework events of every
 * NeuronCore and instance on the Unix-epoch time axis, host CPU and
 * memory samples, device memory, and the list of device profiles.
 * FORMATS.md §1.4.
 *
 * Each event goes to the row of its (source, instance, process, thread,
 * logical NeuronCore, worker gid), an event lacking some of the last
 * three to its thread's row that agrees on the rest; rows sit in a
 * group per instance and process, and carry those keys as track args
 * so the model can regroup them at view time (model/sysrows.h).
 * Nesting (parent_id) is drawn as depth within a row, by time
 * containment: computed as the events come when a row's events come in
 * order, else by the writer's nesting pass when the cache is finished. */
#include "config.h"

#include "src/import/system.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/json/jsonsplit.h"
#include "src/json/jsonval.h"
#include "model/arena.h"
#include "model/hmap.h"
#include "model/util.h"
#include "src/import/sysfilter.h"

/* A hostile file with millions of distinct threads gets this many rows;
 * later keys share one overflow row. With their groups and counters
 * they stay within the writer's WRITER_MAX_TRACKS. */
#define MAX_ROWS 16384
#define MAX_COUNTERS 16384
#define MAX_DEVICES 65536
/* Flow ends kept at most, and bytes of their ids that are no number;
 * a hostile file may list millions. */
#define MAX_FLOW_ENDS (1u << 20)
#define MAX_FLOW_TEXT (64u << 20)
/* Rows of a thread an event lacking a NeuronCore field may join. */
#define SCAN_MAX 128

/* Sources in display order within a group. */
enum src { SRC_RT, SRC_HW, SRC_FW, SRC_OTHER };

static const char *const src_names[] = {
	"neuron_rt", "neuron_hw", "framework",
};
static const char *const src_kinds[] = {
	TK_NRT, TK_HW, TK_FRAMEWORK, TK_THREAD,
};

struct procgroup {
	int64_t track;
	char *instance, *process;	/* NULL: absent */
};

struct sysrow {
	int64_t track;
	int64_t source_sid, instance_sid, process_sid;
	size_t group;
	enum src src;
	int64_t thread, lnc, nc, gid;	/* -1: absent */
	size_t thread_idx;	/* in sysimp.threads */
	size_t next;		/* the thread's next row, SIZE_MAX: none */
	/* depth of in-order events, so the finishing pass rarely rewrites */
	int64_t last_ts, last_dur;
	int64_t *ends;
	size_t depth, cap;
	int disordered;
};

/* The rows of one thread (source, instance, process, thread_id), in the
 * order they were made. */
struct systhread {
	size_t first, last;	/* row indexes */
	size_t npartial;	/* rows still missing a NeuronCore field */
};

enum ctr_kind { CTR_CPU_AVG, CTR_MEM, CTR_MEM_PCT, CTR_HBM, CTR_CPU };

struct sysctr {
	int64_t track;
	size_t group;
	enum ctr_kind kind;
	int64_t a, b;		/* cpu id; device and hbm index; -1 absent */
};

/* An event on a flow (Parquet's flow_id list): a flow links the events
 * that share its id, in time order. An id that is no number is its
 * text, kept in sysimp.flow_text. */
struct sysflow {
	struct wid id;
	int64_t ts, slice;
};

struct sysimp {
	struct import *im;
	struct writer *w;
	struct sysfilter filter;
	struct strmap rowmap, groupmap, ctrmap, threadmap;
	struct sysrow *rows;
	size_t nrows;
	struct systhread *threads;
	size_t nthreads;
	struct procgroup *groups;
	size_t ngroups;
	struct sysctr *ctrs;
	size_t nctrs;
	struct strbuf key, tmp;
	struct arena arena;	/* trace events read without the reader */
	struct sysflow *flows;
	size_t nflows;
	struct arena flow_text;	/* the ids that are no number */
	size_t flow_text_bytes;
	uint64_t n_flows_dropped;
	int64_t src_sid[3];
	uint64_t n_events, n_filtered, n_clipped, n_overflow;
	int overflowed;		/* the last row_of() gave the overflow row */
	int have_span;
	int64_t min_ts, max_end;
	int have_meta_first, have_meta_last;
	int64_t meta_first, meta_last;
};

/* Key parts: strings end with a NUL, so parts cannot run together. */
static void key_str(struct strbuf *k, const char *s)
{
	if (s)
		sb_add(k, s, strlen(s));
	else
		sb_addc(k, '\x01');
	sb_addc(k, '\0');
}

static void key_int(struct strbuf *k, int64_t v)
{
	sb_add(k, &v, sizeof(v));
}

/* Appends "key":value to a JSON object text built by jv_fields(). */
static void args_add(struct strbuf *a, const char *key, const cJSON *v)
{
	if (a->len) {
		a->len--;	/* the closing brace */
		sb_addc(a, ',');
	} else {
		sb_addc(a, '{');
	}
	sb_printf(a, "\"%s\":", key);
	jv_write(a, v);
	sb_addc(a, '}');
}

static int64_t sid(struct sysimp *s, const char *str)
{
	return str ? writer_string(s->w, str) : 0;
}

static void span(struct sysimp *s, int64_t ts, int64_t end)
{
	if (!s->have_span || ts < s->min_ts)
		s->min_ts = ts;
	if (!s->have_span || end > s->max_end)
		s->max_end = end;
	s->have_span = 1;
}

/* The group of an instance and process, created on first use. */
static size_t group_of(struct sysimp *s, const char *instance,
		       const char *process)
{
	struct procgroup *g;
	size_t i;

	sb_reset(&s->key);
	key_str(&s->key, instance);
	key_str(&s->key, process);
	if (strmap_index(&s->groupmap, s->key.buf, s->key.len, &i))
		return i;
	sb_reset(&s->tmp);
	if (instance)
		sb_adds(&s->tmp, instance);
	if (process)
		sb_printf(&s->tmp, "%spid%s", instance ? "-" : "", process);
	if (!instance && !process)
		sb_adds(&s->tmp, "(no process)");
	s->groups = xreallocarray(s->groups, s->ngroups + 1, sizeof(*g));
	g = &s->groups[s->ngroups];
	g->instance = instance ? xstrdup(instance) : NULL;
	g->process = process ? xstrdup(process) : NULL;
	g->track = writer_track(s->w, s->im->profile, 0, TK_GROUP,
				sb_cstr(&s->tmp), 0);
	strmap_put_index(&s->groupmap, s->key.buf, s->key.len, s->ngroups);
	return s->ngroups++;
}

/* Track args: the keys a view regroups rows by. */
static void row_args(struct sysimp *s, const struct sysrow *r,
		     const char *source)
{
	const struct procgroup *g = &s->groups[r->group];
	cJSON *o = cJSON_CreateObject();
	char *text;

	cJSON_AddStringToObject(o, "source", source);
	if (g->instance)
		cJSON_AddStringToObject(o, "instance_id", g->instance);
	if (g->process)
		cJSON_AddStringToObject(o, "process_id", g->process);
	if (r->thread >= 0)
		cJSON_AddNumberToObject(o, "thread_id", (double)r->thread);
	if (r->lnc >= 0)
		cJSON_AddNumberToObject(o, "lnc_idx", (double)r->lnc);
	if (r->nc >= 0)
		cJSON_AddNumberToObject(o, "nc_idx", (double)r->nc);
	if (r->gid >= 0)
		cJSON_AddNumberToObject(o, "worker_gid", (double)r->gid);
	text = cJSON_PrintUnformatted(o);
	if (text)
		writer_track_set_args(s->w, r->track, text);
	cJSON_free(text);
	cJSON_Delete(o);
}

/* The default row name, as neuron-explorer's Perfetto export names rows
 * with --system-trace-secondary-group worker_gid,lnc_idx,thread_id:
 * "gid35-nc3-tid7-neuron_rt". */
static void row_name(struct strbuf *out, const struct sysrow *r,
		     const char *source)
{
	sb_reset(out);
	if (r->gid >= 0)
		sb_printf(out, "gid%" PRId64 "-", r->gid);
	if (r->lnc >= 0)
		sb_printf(out, "nc%" PRId64 "-", r->lnc);
	if (r->thread >= 0)
		sb_printf(out, "tid%" PRId64 "-", r->thread);
	sb_adds(out, source);
}

struct evkey {
	const char *source, *instance, *process;
	int64_t thread, lnc, nc, gid;
};

static void thread_key(struct strbuf *key, const struct evkey *k)
{
	sb_reset(key);
	key_str(key, k->source);
	key_str(key, k->instance);
	key_str(key, k->process);
	key_int(key, k->thread);
}

/* The thread's key followed by the NeuronCore fields. */
static void full_key(struct strbuf *key, const struct evkey *k, int64_t lnc,
		     int64_t nc, int64_t gid)
{
	thread_key(key, k);
	key_int(key, lnc);
	key_int(key, nc);
	key_int(key, gid);
}

static int is_partial(int64_t lnc, int64_t nc, int64_t gid)
{
	return lnc < 0 || nc < 0 || gid < 0;
}

/* A field absent on either side does not tell the rows apart. */
static int field_fits(int64_t row, int64_t ev)
{
	return row < 0 || ev < 0 || row == ev;
}

/* lnc_idx and nc_idx both name the logical NeuronCore (FORMATS.md
 * §1.5): an event with only one of them still has a core. */
static int64_t core_of(int64_t lnc, int64_t nc)
{
	return lnc >= 0 ? lnc : nc;
}

static int row_fits(const struct sysrow *r, const struct evkey *k)
{
	return field_fits(r->lnc, k->lnc) && field_fits(r->nc, k->nc) &&
	       field_fits(core_of(r->lnc, r->nc), core_of(k->lnc, k->nc)) &&
	       field_fits(r->gid, k->gid);
}

/* The row takes the fields it lacked from an event that has them. */
static void row_fill(struct sysimp *s, struct sysrow *r, const struct evkey *k)
{
	struct systhread *t = &s->threads[r->thread_idx];
	int filled = 0;

	if (r->lnc < 0 && k->lnc >= 0)
		r->lnc = k->lnc, filled = 1;
	if (r->nc < 0 && k->nc >= 0)
		r->nc = k->nc, filled = 1;
	if (r->gid < 0 && k->gid >= 0)
		r->gid = k->gid, filled = 1;
	if (!filled)
		return;
	row_name(&s->tmp, r, k->source);
	writer_track_set_name(s->w, r->track, sb_cstr(&s->tmp));
	row_args(s, r, k->source);
	if (!is_partial(r->lnc, r->nc, r->gid)) {
		t->npartial--;
		/* later events with every field find it directly */
		full_key(&s->key, k, r->lnc, r->nc, r->gid);
		strmap_put_index(&s->rowmap, s->key.buf, s->key.len,
				 (size_t)(r - s->rows));
	}
}

/* A row of the thread that an event missing some of worker_gid, lnc_idx
 * and nc_idx (or one whose row is missing them) belongs to: the first
 * that agrees on every field both have. Rows past SCAN_MAX are not
 * looked at, so a hostile thread with thousands of rows stays linear. */
static int thread_row(struct sysimp *s, const struct evkey *k, size_t *out)
{
	const struct systhread *t;
	size_t ti, ri, n = 0;

	thread_key(&s->key, k);
	if (!strmap_index(&s->threadmap, s->key.buf, s->key.len, &ti))
		return 0;
	t = &s->threads[ti];
	if (!t->npartial && !is_partial(k->lnc, k->nc, k->gid))
		return 0;
	for (ri = t->first; ri != SIZE_MAX && n < SCAN_MAX; n++) {
		struct sysrow *r = &s->rows[ri];

		if (row_fits(r, k)) {
			if (is_partial(r->lnc, r->nc, r->gid))
				row_fill(s, r, k);
			*out = ri;
			return 1;
		}
		ri = r->next;
	}
	return 0;
}

/* Files a new row under its thread. */
static void thread_add(struct sysimp *s, const struct evkey *k, size_t ri)
{
	struct sysrow *r = &s->rows[ri];
	struct systhread *t;
	size_t ti;

	thread_key(&s->key, k);
	if (!strmap_index(&s->threadmap, s->key.buf, s->key.len, &ti)) {
		ti = s->nthreads++;
		s->threads = xreallocarray(s->threads, s->nthreads,
					   sizeof(*t));
		s->threads[ti].first = ri;
		s->threads[ti].npartial = 0;
		strmap_put_index(&s->threadmap, s->key.buf, s->key.len, ti);
	} else {
		s->rows[s->threads[ti].last].next = ri;
	}
	t = &s->threads[ti];
	t->last = ri;
	t->npartial += is_partial(r->lnc, r->nc, r->gid);
	r->thread_idx = ti;
}

static size_t row_new(struct sysimp *s, const struct evkey *k)
{
	struct sysrow *r;
	enum src src = SRC_OTHER;

	for (int j = 0; j < 3; j++)
		if (!strcmp(k->source, src_names[j]))
			src = (enum src)j;
	s->rows = xreallocarray(s->rows, s->nrows + 1, sizeof(*r));
	r = &s->rows[s->nrows];
	memset(r, 0, sizeof(*r));
	r->src = src;
	r->thread = k->thread;
	r->lnc = k->lnc;
	r->nc = k->nc;
	r->gid = k->gid;
	r->next = SIZE_MAX;
	r->last_ts = INT64_MIN;
	r->source_sid = src < SRC_OTHER ? s->src_sid[src] : sid(s, k->source);
	r->instance_sid = sid(s, k->instance);
	r->process_sid = sid(s, k->process);
	r->group = group_of(s, k->instance, k->process);
	row_name(&s->tmp, r, k->source);
	r->track = writer_track(s->w, s->im->profile,
				s->groups[r->group].track, src_kinds[src],
				sb_cstr(&s->tmp), 0);
	row_args(s, r, k->source);
	thread_add(s, k, s->nrows);
	return s->nrows++;
}

/* An event's row. A thread is one row even when some of its events lack
 * worker_gid or nc_idx: those join the thread's row that has them. */
static size_t row_of(struct sysimp *s, const struct evkey *k)
{
	size_t i;

	s->overflowed = 0;
	full_key(&s->key, k, k->lnc, k->nc, k->gid);
	if (strmap_index(&s->rowmap, s->key.buf, s->key.len, &i))
		return i;
	if (!thread_row(s, k, &i)) {
		if (s->nrows >= MAX_ROWS) {
			s->n_overflow++;
			s->overflowed = 1;
			return s->nrows - 1;
		}
		i = row_new(s, k);
	}
	/* the helpers above reuse the key buffer */
	full_key(&s->key, k, k->lnc, k->nc, k->gid);
	strmap_put_index(&s->rowmap, s->key.buf, s->key.len, i);
	return i;
}

/* An event's depth, by the rule of the writer's nesting pass
 * (model/writer/finish.c: start order, the longer first when two start
 * together). Exact while a row's events come in that order; a row whose
 * events do not is nested by the finishing pass (TF_NEST_BY_TIME), which
 * then sorts its events. */
static int guess_depth(struct sysrow *r, int64_t ts, int64_t end)
{
	if (r->disordered)
		return 0;
	if (ts < r->last_ts || (ts == r->last_ts && end - ts > r->last_dur)) {
		r->disordered = 1;
		free(r->ends);
		r->ends = NULL;
		return 0;
	}
	r->last_ts = ts;
	r->last_dur = end - ts;
	while (r->depth && r->ends[r->depth - 1] <= ts &&
	       !(r->ends[r->depth - 1] == ts && end == ts))
		r->depth--;
	/* deeper calls share the deepest level kept, as in the nesting
	 * pass, so the stack stays small however deep the nesting */
	if (r->depth > WRITER_MAX_DEPTH)
		r->depth = WRITER_MAX_DEPTH;
	r->ends = xgrow(r->ends, &r->cap, r->depth + 1, sizeof(*r->ends));
	r->ends[r->depth] = end;
	return (int)r->depth++;
}

/* Fields of a trace_event. */
enum {
	E_DEVICE_CORE_IDX, E_DEVICE_PROFILE, E_DURATION, E_EXEC_ID, E_FLOW_ID,
	E_GROUP,
	E_ID, E_INSTANCE_ID, E_LNC_IDX, E_MODEL_ID, E_MODEL_NAME, E_NAME,
	E_NC_IDX, E_PARENT_ID, E_PROCESS_ID, E_THREAD_ID, E_TIMESTAMP,
	E_TIMESTAMP_UNIT, E_TRACE_EVENT_SOURCE, E_TYPE, E_WORKER_GID, E_COUNT
};

static const char *const event_fields[E_COUNT] = {
	"device_core_idx", "device_profile", "duration", "exec_id", "flow_id",
	"group",
	"id", "instance_id", "lnc_idx", "model_id", "model_name", "name",
	"nc_idx", "parent_id", "process_id", "thread_id", "timestamp",
	"timestamp_unit", "trace_event_source", "type", "worker_gid",
};

/* Exports without trace_event_source (Profiler 2.0 beta) name the row
 * in "group": "nrt-nc-000", "framework-80375131". */
static const char *infer_source(const char *group, const char *name)
{
	if (group && !strncmp(group, "framework", 9))
		return "framework";
	if (name && (!strcmp(name, "nc_exec_running") ||
		     !strcmp(name, "hw_notify")))
		return "neuron_hw";
	return "neuron_rt";
}

/* ns per unit of "timestamp_unit" as a power of ten; -1 if unknown. */
static int unit_scale(const char *u)
{
	if (!u || !strcmp(u, "ns"))
		return 0;
	if (!strcmp(u, "us"))
		return 3;
	if (!strcmp(u, "ms"))
		return 6;
	if (!strcmp(u, "s"))
		return 9;
	return -1;
}

/* A trace_event read in the reader thread (sysimp_prep), in the batch's
 * arena; the importer's thread only files it into its row. */
struct sysev {
	const char *error;	/* the first bad field, said the importer's way */
	int error_in_keys;	/* ... among the fields the filters read */
	struct evkey k;
	const char *name, *group, *model_id, *model_name, *devprof;
	const char *args;	/* other fields as a JSON object, or NULL */
	int64_t ts, dur;
	int instant;
	struct wsys_event e;
};

struct prep {
	struct arena *a;
	struct sysev *ev;
	const char *const *names;	/* field names for messages */
	const cJSON *const *f;
	/* the Parquet columns renamed into those fields, or NULL */
	const struct pqrename *renames;
};

NX_PRINTF(2, 3)
static int prep_fail(struct prep *p, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (p->ev->error)
		return -1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	p->ev->error = arena_copy(p->a, msg, strlen(msg));
	return -1;
}

static int prep_bad(struct prep *p, int i, const char *want)
{
	return prep_fail(p, IMPORT_BAD_FIELD,
			 import_field_name(p->renames, p->names[i]),
			 jv_type_name(p->f[i]), want);
}

/* Optional index or id; -1 when absent or negative. */
static int prep_i64(struct prep *p, int i, int64_t *out)
{
	if (import_get_i64(p->f[i], FIELD_NEG_ABSENT, out) == JV_BAD)
		return prep_bad(p, i, "an integer");
	return 0;
}

/* Optional text; numbers as their text; NULL when absent or empty. */
static int prep_str(struct prep *p, int i, const char **out)
{
	char buf[32];
	int rc = import_get_str(p->f[i], FIELD_EMPTY_ABSENT, out, buf,
				sizeof(buf));

	if (rc == JV_BAD)
		return prep_bad(p, i, "a string");
	if (*out == buf)
		*out = arena_copy(p->a, buf, strlen(buf));
	return 0;
}

static int prep_id(struct prep *p, int i, struct wid *out)
{
	if (jv_id(p->f[i], out) == JV_BAD)
		return prep_bad(p, i, "a 64-bit integer");
	return 0;
}

/* Time field i in ns, its unit 10^scale ns: JV_OK, JV_ABSENT, or -1
 * with the error noted. In ns a time is an integer; in a coarser unit
 * it may have a fraction, scaled from its decimal text exactly, with
 * what is left below 1 ns rounded as the Chrome reader rounds its µs
 * (the same code: halves away from zero). */
static int prep_time(struct prep *p, int i, int scale, int64_t *out)
{
	double d;
	int rc = scale ? jv_scaled(p->f[i], scale, out) :
			 jv_i64(p->f[i], out);

	if (rc != JV_BAD)
		return rc;
	if (scale && jv_f64(p->f[i], &d) == JV_OK)
		return prep_fail(p, "time out of range");
	return prep_bad(p, i, scale ? "a number" : "an integer");
}

/* "timestamp" and "duration", in the event's "timestamp_unit". */
static int prep_times(struct prep *p, struct sysev *ev, const char *unit)
{
	int scale = unit_scale(unit);
	int rc;

	if (scale < 0)
		return prep_fail(p, "unknown \"timestamp_unit\" \"%.32s\""
				 " (expected ns, us, ms or s)", unit);
	rc = prep_time(p, E_TIMESTAMP, scale, &ev->ts);
	if (rc == JV_ABSENT)
		return prep_fail(p, "missing \"%s\"",
				 import_field_name(p->renames, "timestamp"));
	if (rc < 0)
		return -1;
	rc = prep_time(p, E_DURATION, scale, &ev->dur);
	if (rc < 0)
		return -1;
	if (rc == JV_ABSENT || ev->dur < 0) {
		ev->instant = 1;
		ev->dur = 0;
	}
	return 0;
}

/* The fields the filters read, checked first. */
static int prep_keys(struct prep *p, struct sysev *ev)
{
	struct evkey *k = &ev->k;

	if (prep_str(p, E_NAME, &ev->name) ||
	    prep_str(p, E_INSTANCE_ID, &k->instance) ||
	    prep_str(p, E_PROCESS_ID, &k->process) ||
	    prep_str(p, E_TRACE_EVENT_SOURCE, &k->source) ||
	    prep_str(p, E_GROUP, &ev->group) ||
	    prep_i64(p, E_THREAD_ID, &k->thread) ||
	    prep_i64(p, E_LNC_IDX, &k->lnc) ||
	    prep_i64(p, E_NC_IDX, &k->nc) ||
	    prep_i64(p, E_WORKER_GID, &k->gid))
		return -1;
	if (!ev->name)
		ev->name = "unknown";
	if (!k->source)
		k->source = infer_source(ev->group, ev->name);
	return 0;
}

static int prep_rest(struct prep *p, struct sysev *ev, struct strbuf *args)
{
	struct wsys_event *e = &ev->e;
	const char *unit;

	if (prep_str(p, E_TIMESTAMP_UNIT, &unit) || prep_times(p, ev, unit) ||
	    prep_id(p, E_ID, &e->id) || prep_id(p, E_PARENT_ID, &e->parent) ||
	    prep_i64(p, E_DEVICE_CORE_IDX, &e->device_core_idx) ||
	    prep_i64(p, E_EXEC_ID, &e->exec_id) ||
	    prep_str(p, E_MODEL_ID, &ev->model_id) ||
	    prep_str(p, E_MODEL_NAME, &ev->model_name) ||
	    prep_str(p, E_DEVICE_PROFILE, &ev->devprof))
		return -1;
	/* "type" is a number in every export seen; anything else is kept
	 * as given */
	e->has_type = jv_i64(p->f[E_TYPE], &e->type) == JV_OK;
	if (!e->has_type && p->f[E_TYPE] && !cJSON_IsNull(p->f[E_TYPE]))
		args_add(args, "type", p->f[E_TYPE]);
	if (args->len)
		ev->args = arena_copy(p->a, args->buf, args->len);
	return 0;
}

/* Field lookup for trace events, shared by the reader threads. */
static struct jv_names event_names;
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

static void names_init(void)
{
	jv_names_init(&event_names, event_fields, E_COUNT);
}

/* An event read ahead of sysimp_add(); renames: the Parquet columns
 * its fields come from, for messages, or NULL. */
static struct sysev *prep_event(const struct jrec *r, const cJSON *o,
				struct arena *a,
				const struct pqrename *renames)
{
	const cJSON *f[E_COUNT];
	struct sysev *ev;
	struct strbuf args;
	struct prep p = { a, NULL, event_fields, f, renames };

	if (!r->key || strcmp(r->key, "trace_event") || !cJSON_IsObject(o))
		return NULL;
	ev = arena_alloc(a, sizeof(*ev));
	memset(ev, 0, sizeof(*ev));
	p.ev = ev;
	sb_init(&args);
	pthread_once(&names_once, names_init);
	jv_fields(o, &event_names, f, &args);
	if (prep_keys(&p, ev))
		ev->error_in_keys = 1;
	else
		prep_rest(&p, ev, &args);
	sb_free(&args);
	return ev;
}

void *sysimp_prep(const struct jrec *r, const cJSON *o, struct arena *a)
{
	return prep_event(r, o, a, NULL);
}

/* The id of a flow_id entry: a 64-bit integer, signed or not, given as
 * a number or as its text ("7", as Parquet gives them all), or else the
 * entry's own text, copied to last until the flows are linked. 0; 1
 * when the end is past the limits; -1 when v is no id at all. */
static int flow_id(struct sysimp *s, const cJSON *v, struct wid *id)
{
	size_t n;

	if (jv_id(v, id) != JV_OK && !jv_is_text(v))
		return -1;
	if (s->nflows >= MAX_FLOW_ENDS)
		return 1;
	if (id->set)
		return 0;
	n = strlen(v->valuestring);
	if (n > MAX_FLOW_TEXT - s->flow_text_bytes)
		return 1;
	s->flow_text_bytes += n;
	wid_from_text(id, arena_copy(&s->flow_text, v->valuestring, n));
	return 0;
}

/* The ids of the event's flow_id list, for sysimp_finish() to link. */
static int flow_ends(struct sysimp *s, const cJSON *o, int64_t slice,
		     int64_t ts)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(o, "flow_id");
	const cJSON *v;

	if (!list || cJSON_IsNull(list) || !slice)
		return 0;
	if (!cJSON_IsArray(list))
		return import_bad_field(s->im, "flow_id", jv_type_name(list),
					"a list of flow ids");
	cJSON_ArrayForEach(v, list) {
		struct wid id;
		int rc = flow_id(s, v, &id);

		if (rc < 0)
			return import_bad_field(s->im, "flow_id[]",
						jv_type_name(v), "a flow id");
		if (rc) {
			s->n_flows_dropped++;
			continue;
		}
		s->flows = xreallocarray(s->flows, s->nflows + 1,
					 sizeof(*s->flows));
		s->flows[s->nflows++] = (struct sysflow){ id, ts, slice };
	}
	return 0;
}

static int trace_event(struct sysimp *s, const cJSON *o, void *prepared)
{
	struct sysev *ev = prepared;
	struct wsys_event e;
	struct sysrow *r;
	int64_t nc, ts, dur;
	size_t ri;
	int depth;

	if (!ev) {
		/* not prepared in the reader (no pipe): read it here */
		arena_reset(&s->arena);
		ev = prep_event(s->im->rec, o, &s->arena, s->im->renames);
	}
	if (ev->error && ev->error_in_keys)
		return import_fail(s->im, s->im->rec, "%s", ev->error);
	nc = ev->k.lnc >= 0 ? ev->k.lnc : ev->k.nc;
	if (!sysfilter_type(&s->filter, ev->name) ||
	    !sysfilter_instance(&s->filter, ev->k.instance) ||
	    !sysfilter_nc(&s->filter, nc)) {
		s->n_filtered++;
		return 0;
	}
	if (ev->error)
		return import_fail(s->im, s->im->rec, "%s", ev->error);
	ts = ev->ts;
	dur = ev->dur;
	ri = row_of(s, &ev->k);	/* may move s->rows */
	r = &s->rows[ri];
	if (ts > INT64_MAX - dur) {
		dur = INT64_MAX - ts;
		s->n_clipped++;
	}
	depth = guess_depth(r, ts, ts + dur);
	span(s, ts, ts + dur);
	e = ev->e;
	/* the row's keys are the event's, but in the overflow row */
	e.source = r->source_sid;
	e.instance_id = r->instance_sid;
	e.process_id = r->process_sid;
	if (s->overflowed) {
		e.source = sid(s, ev->k.source);
		e.instance_id = sid(s, ev->k.instance);
		e.process_id = sid(s, ev->k.process);
	}
	e.model_id = ev->model_id;
	e.model_name = sid(s, ev->model_name);
	e.device_profile = sid(s, ev->devprof);
	e.group = sid(s, ev->group);
	e.thread_id = ev->k.thread;
	e.nc_idx = ev->k.nc;
	e.lnc_idx = ev->k.lnc;
	e.worker_gid = ev->k.gid;
	int64_t slice = writer_slice(s->w, r->track, ts, dur,
				     writer_string(s->w, ev->name), e.source,
				     depth, ev->instant ? SF_INSTANT : 0);
	writer_sys_event(s->w, slice, &e);
	if (ev->args)
		writer_slice_args(s->w, slice, ev->args);
	s->n_events++;
	return flow_ends(s, o, slice, ts);
}

/* Counter tracks of an instance sit in the instance's own group. */
static int64_t counter(struct sysimp *s, const char *instance,
		       enum ctr_kind kind, int64_t a, int64_t b)
{
	static const char *const units[] = { "%", "B", "%", "B", "%" };
	struct sysctr *c;
	size_t i;

	sb_reset(&s->key);
	key_str(&s->key, instance);
	key_int(&s->key, kind);
	key_int(&s->key, a);
	key_int(&s->key, b);
	if (strmap_index(&s->ctrmap, s->key.buf, s->key.len, &i))
		return s->ctrs[i].track;
	if (s->nctrs >= MAX_COUNTERS)
		return 0;
	strmap_put_index(&s->ctrmap, s->key.buf, s->key.len, s->nctrs);
	s->ctrs = xreallocarray(s->ctrs, s->nctrs + 1, sizeof(*c));
	c = &s->ctrs[s->nctrs];
	c->kind = kind;
	c->a = a;
	c->b = b;
	c->group = group_of(s, instance, NULL);
	sb_reset(&s->tmp);
	switch (kind) {
	case CTR_CPU_AVG:
		sb_adds(&s->tmp, "CPU average");
		break;
	case CTR_CPU:
		sb_printf(&s->tmp, "CPU %" PRId64, a);
		break;
	case CTR_MEM:
		sb_adds(&s->tmp, "Host memory");
		break;
	case CTR_MEM_PCT:
		sb_adds(&s->tmp, "Host memory %");
		break;
	case CTR_HBM:
		sb_adds(&s->tmp, "Device memory");
		if (a >= 0)
			sb_printf(&s->tmp, " nd%" PRId64, a);
		if (b >= 0)
			sb_printf(&s->tmp, " hbm%" PRId64, b);
		break;
	}
	c->track = writer_track(s->w, s->im->profile, s->groups[c->group].track,
				TK_COUNTER, sb_cstr(&s->tmp), 0);
	writer_track_set_unit(s->w, c->track, units[kind]);
	{
		static const char *const what[] = { "cpu", "memory",
						    "memory_percent",
						    "device_memory", "cpu" };
		cJSON *o = cJSON_CreateObject();
		char *text;

		cJSON_AddStringToObject(o, "counter", what[kind]);
		if (instance)
			cJSON_AddStringToObject(o, "instance_id", instance);
		if (kind == CTR_CPU)
			cJSON_AddNumberToObject(o, "cpu_id", (double)a);
		if (kind == CTR_HBM && a >= 0)
			cJSON_AddNumberToObject(o, "device_idx", (double)a);
		if (kind == CTR_HBM && b >= 0)
			cJSON_AddNumberToObject(o, "hbm_idx", (double)b);
		text = cJSON_PrintUnformatted(o);
		if (text)
			writer_track_set_args(s->w, c->track, text);
		cJSON_free(text);
		cJSON_Delete(o);
	}
	s->nctrs++;
	return c->track;
}

/* One sample of field; absent values are skipped. track 0: no room for
 * its counter. */
static int sample(struct sysimp *s, const cJSON *o, const char *field,
		  int64_t track_ts, int64_t track)
{
	double d;
	int rc;

	if (!track)
		return writer_failed(s->w) ? -1 :
		       import_fail(s->im, s->im->rec, "more than %d counters",
				   MAX_COUNTERS);
	rc = import_opt_f64(s->im, cJSON_GetObjectItemCaseSensitive(o, field),
			    field, &d);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		writer_counter(s->w, track, track_ts, d);
		span(s, track_ts, track_ts);
	}
	return 0;
}

/* Common head of a sample record: its time and instance, and whether
 * the instance filter keeps it. */
static int sample_head(struct sysimp *s, const cJSON *o, int64_t *ts,
		       const char **instance, char *buf, size_t n, int *keep)
{
	if (import_need_i64(s->im,
			    cJSON_GetObjectItemCaseSensitive(o, "timestamp"),
			    "timestamp", ts) ||
	    import_opt_str(s->im,
			   cJSON_GetObjectItemCaseSensitive(o, "instance_id"),
			   "instance_id", FIELD_EMPTY_ABSENT, instance, buf, n))
		return -1;
	*keep = sysfilter_instance(&s->filter, *instance);
	return 0;
}

static int mem_usage(struct sysimp *s, const cJSON *o,
			void *prepared NX_UNUSED)
{
	const char *inst;
	char buf[32];
	int64_t ts;
	int keep;

	if (sample_head(s, o, &ts, &inst, buf, sizeof(buf), &keep))
		return -1;
	if (!keep)
		return 0;
	if (cJSON_GetObjectItemCaseSensitive(o, "usage") &&
	    sample(s, o, "usage", ts, counter(s, inst, CTR_MEM, -1, -1)))
		return -1;
	if (cJSON_GetObjectItemCaseSensitive(o, "percent_usage") &&
	    sample(s, o, "percent_usage", ts,
		   counter(s, inst, CTR_MEM_PCT, -1, -1)))
		return -1;
	return 0;
}

static int cpu_util(struct sysimp *s, const cJSON *o,
			void *prepared NX_UNUSED)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "cpu_id");
	const char *inst, *cpu;
	char buf[32], cbuf[32];
	int64_t ts, id = -1;
	int keep;

	if (sample_head(s, o, &ts, &inst, buf, sizeof(buf), &keep) ||
	    import_opt_str(s->im, v, "cpu_id", FIELD_EMPTY_ABSENT, &cpu, cbuf,
			   sizeof(cbuf)))
		return -1;
	if (!keep)
		return 0;
	if (cpu && strcmp(cpu, "average") && jv_i64(v, &id) != JV_OK)
		return import_bad_field(s->im, "cpu_id", jv_type_name(v),
					"a CPU number or \"average\"");
	return sample(s, o, "util", ts,
		      counter(s, inst, id < 0 ? CTR_CPU_AVG : CTR_CPU, id, -1));
}

static int device_mem_usage(struct sysimp *s, const cJSON *o,
			void *prepared NX_UNUSED)
{
	const char *inst;
	char buf[32];
	int64_t ts, dev, hbm;
	int keep;

	if (sample_head(s, o, &ts, &inst, buf, sizeof(buf), &keep) ||
	    import_opt_i64(s->im,
			   cJSON_GetObjectItemCaseSensitive(o, "device_idx"),
			   "device_idx", FIELD_NEG_ABSENT, &dev) ||
	    import_opt_i64(s->im,
			   cJSON_GetObjectItemCaseSensitive(o, "hbm_idx"),
			   "hbm_idx", FIELD_NEG_ABSENT, &hbm))
		return -1;
	if (!keep)
		return 0;
	return sample(s, o, "total_bytes", ts,
		      counter(s, inst, CTR_HBM, dev, hbm));
}

/* Records kept field by field in the info table. */
static void info(struct sysimp *s, const char *section, const cJSON *o)
{
	struct wvalue v;

	for (const cJSON *c = o->child; c; c = c->next) {
		jv_to_wvalue(c, &v, &s->tmp);
		writer_info(s->w, s->im->profile, section,
			    (int64_t)s->im->rec->index,
			    c->string ? c->string : "", &v);
	}
}

static int metadata(struct sysimp *s, const cJSON *o,
			void *prepared NX_UNUSED)
{
	int64_t v;

	info(s, "system_profile_metadata", o);
	if (jv_i64(cJSON_GetObjectItemCaseSensitive(o, "first_ts_ns"), &v) ==
	    JV_OK) {
		s->meta_first = v;
		s->have_meta_first = 1;
	}
	if (jv_i64(cJSON_GetObjectItemCaseSensitive(o, "last_ts_ns"), &v) ==
	    JV_OK) {
		s->meta_last = v;
		s->have_meta_last = 1;
	}
	return 0;
}

static char *opt_dup(struct sysimp *s, const cJSON *o, const char *field,
		     int *bad)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, field);
	const char *str;
	char buf[32];

	if (import_opt_str(s->im, v, field, FIELD_EMPTY_ABSENT, &str, buf,
			   sizeof(buf))) {
		*bad = 1;
		return NULL;
	}
	return str ? xstrdup(str) : NULL;
}

static int device_profile_list(struct sysimp *s, const cJSON *o,
			void *prepared NX_UNUSED)
{
	struct import_result *res = s->im->res;
	struct devref d;
	int bad = 0;

	info(s, "device_profile_list", o);
	memset(&d, 0, sizeof(d));
	d.name = opt_dup(s, o, "device_profile_name", &bad);
	d.instance_id = opt_dup(s, o, "instance_id", &bad);
	d.process_id = opt_dup(s, o, "process_id", &bad);
	d.model_id = opt_dup(s, o, "model_id", &bad);
	d.session_id = opt_dup(s, o, "session_id", &bad);
	if (!bad && import_opt_i64(s->im,
				   cJSON_GetObjectItemCaseSensitive(o, "nc_id"),
				   "nc_id", FIELD_NEG_ABSENT, &d.nc_idx))
		bad = 1;
	if (bad || !d.name || res->ndevices >= MAX_DEVICES ||
	    !sysfilter_instance(&s->filter, d.instance_id) ||
	    !sysfilter_nc(&s->filter, d.nc_idx)) {
		free(d.name);
		free(d.instance_id);
		free(d.process_id);
		free(d.model_id);
		free(d.session_id);
		return bad ? -1 : 0;
	}
	res->devices = xreallocarray(res->devices, res->ndevices + 1,
				     sizeof(d));
	res->devices[res->ndevices++] = d;
	return 0;
}

struct handler {
	const char *key;
	int (*fn)(struct sysimp *s, const cJSON *o, void *prepared);
};

static const struct handler handlers[] = {
	{ "cpu_util", cpu_util },
	{ "device_mem_usage", device_mem_usage },
	{ "device_profile_list", device_profile_list },
	{ "mem_usage", mem_usage },
	{ "system_profile_metadata", metadata },
	{ "trace_event", trace_event },
};

int sysimp_is_key(const char *key)
{
	for (size_t i = 0; i < NX_ARRAY_SIZE(handlers); i++)
		if (!strcmp(key, handlers[i].key))
			return 1;
	return 0;
}

struct sysimp *sysimp_new(struct import *im)
{
	struct sysimp *s = xcalloc(1, sizeof(*s));
	const struct import_opts *o = im->opts;

	if (sysfilter_parse(&s->filter, o->filter_nc, o->filter_event_type,
			    o->filter_instance)) {
		free(s);
		return NULL;
	}
	s->im = im;
	s->w = im->w;
	arena_init(&s->flow_text);
	for (int i = 0; i < 3; i++)
		s->src_sid[i] = writer_string(s->w, src_names[i]);
	writer_profile_set(s->w, im->profile, "kind", "system");
	writer_profile_set(s->w, im->profile, "format", "neuron-system-json");
	writer_profile_set(s->w, im->profile, "epoch", "1");
	im->res->is_system = 1;
	return s;
}

int sysimp_record(struct sysimp *s, const struct jrec *r, const cJSON *o,
		  void *prepared)
{
	s->im->rec = r;
	if (prepared)
		return trace_event(s, o, prepared);	/* most records */
	if (!cJSON_IsObject(o))
		return import_fail(s->im, r, "expected an object, found %s",
				   jv_type_name(o));
	for (size_t i = 0; i < NX_ARRAY_SIZE(handlers); i++)
		if (!strcmp(r->key, handlers[i].key))
			return handlers[i].fn(s, o, prepared);
	return 0;
}

/* Compares possibly absent values: absent sorts last. */
static int cmp_opt(int64_t a, int64_t b)
{
	if (a == b)
		return 0;
	if (a < 0 || b < 0)
		return a < 0 ? 1 : -1;
	return a < b ? -1 : 1;
}

/* Numeric text (pids) compares by value, then as text. */
static int cmp_text(const char *a, const char *b)
{
	int64_t x, y;

	if (!a || !b)
		return a == b ? 0 : a ? -1 : 1;
	if (!parse_i64(a, strlen(a), &x) && !parse_i64(b, strlen(b), &y) &&
	    x != y)
		return x < y ? -1 : 1;
	return strcmp(a, b);
}

/* Groups by index into arg's (the importer's) groups. */
static int cmp_group(const void *pa, const void *pb, void *arg)
{
	const struct sysimp *s = arg;
	const struct procgroup *a = &s->groups[*(const size_t *)pa];
	const struct procgroup *b = &s->groups[*(const size_t *)pb];
	int c = cmp_text(a->instance, b->instance);

	return c ? c : cmp_text(a->process, b->process);
}

/* Tracks of one group: rows by worker, core, thread and source, then
 * counters. Entries are row indexes, or counter indexes + nrows. */
static int cmp_member(const void *pa, const void *pb, void *arg)
{
	const struct sysimp *s = arg;
	size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
	size_t nr = s->nrows;
	int c;

	if ((ia >= nr) != (ib >= nr))
		return ia >= nr ? 1 : -1;
	if (ia >= nr) {
		const struct sysctr *a = &s->ctrs[ia - nr];
		const struct sysctr *b = &s->ctrs[ib - nr];

		if (a->kind != b->kind)
			return a->kind < b->kind ? -1 : 1;
		return (c = cmp_opt(a->a, b->a)) ? c : cmp_opt(a->b, b->b);
	}
	const struct sysrow *a = &s->rows[ia], *b = &s->rows[ib];

	if ((c = cmp_opt(a->gid, b->gid)) || (c = cmp_opt(a->lnc, b->lnc)) ||
	    (c = cmp_opt(a->nc, b->nc)) || (c = cmp_opt(a->thread, b->thread)))
		return c;
	if (a->src != b->src)
		return a->src < b->src ? -1 : 1;
	return ia < ib ? -1 : 1;
}

static size_t member_group(const struct sysimp *s, size_t m)
{
	return m < s->nrows ? s->rows[m].group : s->ctrs[m - s->nrows].group;
}

/* Display order: groups by instance and process, each followed by its
 * rows. Known only once every track exists. */
static void assign_order(struct sysimp *s)
{
	size_t *g = xcalloc(s->ngroups + 1, sizeof(*g));
	size_t nm = s->nrows + s->nctrs;
	size_t *mem = xcalloc(nm + 1, sizeof(*mem));
	/* members of group i are mem[at[i]] .. mem[at[i + 1] - 1] */
	size_t *at = xcalloc(s->ngroups + 2, sizeof(*at));
	int64_t key = 1;

	for (size_t m = 0; m < nm; m++)
		at[member_group(s, m) + 2]++;
	for (size_t i = 2; i < s->ngroups + 2; i++)
		at[i] += at[i - 1];
	for (size_t m = 0; m < nm; m++)
		mem[at[member_group(s, m) + 1]++] = m;
	for (size_t i = 0; i < s->ngroups; i++)
		g[i] = i;
	qsort_r(g, s->ngroups, sizeof(*g), cmp_group, s);
	for (size_t i = 0; i < s->ngroups; i++) {
		size_t *first = mem + at[g[i]], n = at[g[i] + 1] - at[g[i]];

		writer_track_set_sort(s->w, s->groups[g[i]].track, key++);
		qsort_r(first, n, sizeof(*first), cmp_member, s);
		for (size_t j = 0; j < n; j++)
			writer_track_set_sort(s->w, first[j] < s->nrows ?
					      s->rows[first[j]].track :
					      s->ctrs[first[j] - s->nrows].track,
					      key++);
	}
	free(at);
	free(mem);
	free(g);
}

/* Ids in int64, then those past it, then text: equal ids side by side. */
static int cmp_id(const struct wid *a, const struct wid *b)
{
	int ka = a->str ? 2 : a->big, kb = b->str ? 2 : b->big;

	if (ka != kb)
		return ka < kb ? -1 : 1;
	if (a->str)
		return strcmp(a->str, b->str);
	if (a->big)
		return strcmp(a->text, b->text);
	return (a->v > b->v) - (a->v < b->v);
}

static int cmp_flow(const void *pa, const void *pb)
{
	const struct sysflow *a = pa, *b = pb;
	int c = cmp_id(&a->id, &b->id);

	if (c)
		return c;
	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return (a->slice > b->slice) - (a->slice < b->slice);
}

/* Each flow goes from one of its events to the next in time; an id
 * on one event only is kept as an unpaired end. */
static void link_flows(struct sysimp *s)
{
	if (s->nflows)
		qsort(s->flows, s->nflows, sizeof(*s->flows), cmp_flow);
	for (size_t i = 0; i < s->nflows; i++) {
		const struct sysflow *a = &s->flows[i];
		int first = !i || cmp_id(&s->flows[i - 1].id, &a->id);
		int last = i + 1 == s->nflows || cmp_id(&a->id, &s->flows[i + 1].id);

		if (first && last)
			writer_flow(s->w, &a->id, a->slice, 0, "flow");
		else if (!last && a->slice != s->flows[i + 1].slice)
			writer_flow(s->w, &a->id, a->slice, s->flows[i + 1].slice,
				    "flow");
	}
}

static void note(struct sysimp *s, const char *fmt, uint64_t n)
{
	char *msg;

	if (!n)
		return;
	msg = xasprintf(fmt, n);
	writer_warning(s->w, s->im->profile, "import", "Import", msg);
	free(msg);
}

int sysimp_finish(struct sysimp *s)
{
	struct strbuf key;

	for (size_t i = 0; i < s->nrows; i++)
		if (s->rows[i].disordered)
			writer_track_set_flags(s->w, s->rows[i].track,
					       TF_NEST_BY_TIME);
	assign_order(s);
	link_flows(s);
	if (s->have_meta_first)
		span(s, s->meta_first, s->have_meta_last ? s->meta_last :
							    s->meta_first);
	if (s->have_meta_last)
		span(s, s->meta_last, s->meta_last);
	if (s->have_span)
		writer_profile_extent(s->w, s->im->profile, s->min_ts,
				      s->max_end);
	sb_init(&key);
	sysfilter_key(&s->filter, &key);
	if (key.len) {
		char *msg = xasprintf("filtered at import (%s): %" PRIu64
				      " event(s) left out", sb_cstr(&key),
				      s->n_filtered);

		writer_warning(s->w, s->im->profile, "import", "Filter", msg);
		free(msg);
	}
	sb_free(&key);
	note(s, "%" PRIu64 " event(s) ran past the end of time and were"
	     " shortened", s->n_clipped);
	note(s, "%" PRIu64 " event(s) of threads past the row limit were put"
	     " in the last row", s->n_overflow);
	note(s, "%" PRIu64 " flow end(s) past the limit were left out",
	     s->n_flows_dropped);
	return writer_failed(s->w) ? -1 : 0;
}

void sysimp_free(struct sysimp *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nrows; i++)
		free(s->rows[i].ends);
	for (size_t i = 0; i < s->ngroups; i++) {
		free(s->groups[i].instance);
		free(s->groups[i].process);
	}
	free(s->rows);
	free(s->threads);
	free(s->groups);
	free(s->ctrs);
	free(s->flows);
	arena_free(&s->flow_text);
	strmap_free(&s->rowmap, NULL);
	strmap_free(&s->groupmap, NULL);
	strmap_free(&s->ctrmap, NULL);
	strmap_free(&s->threadmap, NULL);
	sb_free(&s->key);
	sb_free(&s->tmp);
	sysfilter_free(&s->filter);
	arena_free(&s->arena);
	free(s);
}
