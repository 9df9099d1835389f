/* Chrome trace-event JSON ({"traceEvents": [...]} or a bare array, also
 * gzip-compressed), as Chrome, Perfetto, JAX, PyTorch and Node write it;
 * see FORMATS.md §2. Events are read one at a time, in any order; times
 * are µs with fractions, converted to ns exactly. Each process becomes a
 * group, each thread a row (src/import/trace_rows.h).
 *
 * B/E, async and flow events only mean something once paired, and the
 * file is not sorted: they go to an external sort (model/writer/spill.h) and are
 * matched afterwards, so memory stays bounded on files of several GB at
 * the cost of writing those events twice. Complete (X), instant and
 * counter events are written as they come. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "src/import/chrome/chrome.h"
#include "src/import/formats.h"
#include "model/arena.h"
#include "src/json/jscan.h"
#include "src/json/jsonpipe.h"
#include "src/json/jsonsplit.h"
#include "src/json/jsonval.h"

/* 2000-01-01T00:00:00Z in Unix ns: later timestamps are wall-clock. */
#define EPOCH_MIN_NS 946684800000000000LL

enum {
	F_ARGS, F_BIND_ID, F_BP, F_CAT, F_DUR, F_FLOW_IN, F_FLOW_OUT, F_ID,
	F_ID2, F_NAME, F_PH, F_PID, F_S, F_TID, F_TS, F_COUNT
};

/* Keys of an event that the importer reads: add one here and above. */
#define FIELD(s) { s, sizeof(s) - 1 }
static const struct field {
	const char *name;
	size_t len;
} fields[F_COUNT] = {
	FIELD("args"), FIELD("bind_id"), FIELD("bp"), FIELD("cat"),
	FIELD("dur"), FIELD("flow_in"), FIELD("flow_out"), FIELD("id"),
	FIELD("id2"), FIELD("name"), FIELD("ph"), FIELD("pid"), FIELD("s"),
	FIELD("tid"), FIELD("ts"),
};

/* The field a raw key names, or -1: by length and first byte before the
 * whole name, as this runs for every member of every event. */
static int field_of(const struct jspan *k)
{
	for (int i = 0; i < F_COUNT; i++) {
		if (k->n == fields[i].len && k->p[0] == fields[i].name[0] &&
		    !memcmp(k->p, fields[i].name, k->n))
			return i;
	}
	return -1;
}

/* An event as the reader thread scanned it: its members' raw spans,
 * with the times converted there too (the importer reports their
 * errors in file order). */
struct event {
	struct jspan f[F_COUNT];
	int have[F_COUNT];
	int scan_rc;		/* SCAN_* */
	int ts_rc, dur_rc;	/* jscan_scaled() of ts and dur */
	char ph;
	int64_t ts, dur;
};

enum { SCAN_OK, SCAN_NOT_OBJECT, SCAN_MALFORMED };

static const char *type_name(const struct jspan *v)
{
	static const char *const names[] = {
		[JT_STRING] = "a string", [JT_NUMBER] = "a number",
		[JT_OBJECT] = "an object", [JT_ARRAY] = "an array",
		[JT_BOOL] = "a boolean", [JT_NULL] = "null",
	};

	return names[v->type];
}

static int bad(struct chrome *c, int field, const struct jspan *v,
	       const char *want)
{
	return import_bad_field(c->im, fields[field].name, type_name(v), want);
}

static void scan_members(const struct jrec *r, struct event *e)
{
	struct jscan s;
	struct jspan k, v;
	int rc;

	memset(e->have, 0, sizeof(e->have));
	e->scan_rc = SCAN_OK;
	if (jscan_object(&s, r->text, r->len)) {
		e->scan_rc = SCAN_NOT_OBJECT;
		return;
	}
	while ((rc = jscan_member(&s, &k, &v)) == 1) {
		int i = field_of(&k);

		if (i >= 0) {
			e->f[i] = v;
			e->have[i] = v.type != JT_NULL;
		}
	}
	if (rc < 0)
		e->scan_rc = SCAN_MALFORMED;
}

/* Runs in the reader thread (src/json/jsonpipe.h) on each record: trace
 * events are scanned there, other records are left to the importer. */
static void *scan_event(const struct jrec *r, struct arena *a)
{
	struct event *e;

	if (r->kind != JREC_ITEM || (r->key && strcmp(r->key, "traceEvents")))
		return NULL;
	e = arena_alloc(a, sizeof(*e));
	scan_members(r, e);
	if (e->scan_rc != SCAN_OK)
		return e;
	e->ph = e->have[F_PH] && e->f[F_PH].type == JT_STRING &&
		e->f[F_PH].n == 1 ? e->f[F_PH].p[0] : '?';
	e->ts = e->dur = 0;
	e->ts_rc = e->have[F_TS] ? jscan_scaled(&e->f[F_TS], 3, &e->ts) : 0;
	e->dur_rc = e->have[F_DUR] ?
		    jscan_scaled(&e->f[F_DUR], 3, &e->dur) : 0;
	return e;
}

/* Text of a string, number or boolean field; "" when absent. */
static int text_field(struct chrome *c, struct event *e, int f,
		      struct strbuf *out)
{
	sb_reset(out);
	if (!e->have[f]) {
		sb_cstr(out);
		return 0;
	}
	if (e->f[f].type == JT_OBJECT || e->f[f].type == JT_ARRAY)
		return bad(c, f, &e->f[f], "a string or a number");
	jscan_text(&e->f[f], out);
	return 0;
}

/* The error of a time field whose conversion (rc) failed: text that is
 * no number, or a number whose ns do not fit in int64. */
static int time_error(struct chrome *c, struct event *e, int f, int rc)
{
	if (!rc)
		return 0;
	if (rc == JSCAN_RANGE)
		return import_bad_field(c->im, fields[f].name,
					"a number out of range", "a number of µs"
					" from -9223372036854775.808 to"
					" 9223372036854775.807");
	if (e->f[f].type == JT_STRING)
		return import_bad_field(c->im, fields[f].name,
					"a string that is not a number",
					"a number of µs");
	return bad(c, f, &e->f[f], "a number of µs");
}

static void note_ts(struct chrome *c, int64_t ts, int64_t end)
{
	if (!c->have_ts) {
		c->min_ts = ts;
		c->max_ts = end;
		c->have_ts = 1;
		return;
	}
	if (ts < c->min_ts)
		c->min_ts = ts;
	if (end > c->max_ts)
		c->max_ts = end;
}

int64_t chrome_thread_row(struct chrome *c, const char *pid, size_t pidlen,
			  const char *tid, size_t tidlen)
{
	struct tproc *proc;
	struct trow *row;

	if (c->last_track && pidlen == c->last_pid.len &&
	    tidlen == c->last_tid.len && !memcmp(pid, c->last_pid.buf, pidlen) &&
	    !memcmp(tid, c->last_tid.buf, tidlen))
		return c->last_track;
	proc = trows_proc(c->rows, pid, pidlen);
	row = trows_thread(c->rows, proc, tid, tidlen);
	/* complete events arrive in any order and may overlap */
	trow_set_flags(c->rows, row, TF_NEST_BY_TIME);
	c->last_track = trow_track(c->rows, row);
	sb_reset(&c->last_pid);
	sb_add(&c->last_pid, pid, pidlen);
	sb_reset(&c->last_tid);
	sb_add(&c->last_tid, tid, tidlen);
	return c->last_track;
}

/* The thread row of the event (pid and tid already read). */
static int64_t thread_track(struct chrome *c)
{
	return chrome_thread_row(c, c->pid.buf, c->pid.len, c->tid.buf,
				 c->tid.len);
}

static int64_t named_row(struct chrome *c, struct tproc *proc,
			 const char *kind, const char *name)
{
	struct trow *row = trows_named(c->rows, proc, kind, name);

	if (strcmp(kind, TK_COUNTER))
		trow_set_flags(c->rows, row, TF_NEST_BY_TIME);
	return trow_track(c->rows, row);
}

int64_t chrome_async_row(struct chrome *c, const char *pid, const char *name)
{
	return named_row(c, trows_proc(c->rows, pid, strlen(pid)), TK_ASYNC,
			 *name ? name : "(unnamed)");
}

/* Args as a JSON object text in c->args; empty when there are none. */
static void args_text(struct chrome *c, struct event *e)
{
	const struct jspan *a = &e->f[F_ARGS];

	sb_reset(&c->args);
	if (!e->have[F_ARGS] || (a->type == JT_OBJECT && a->n <= 2))
		return;
	if (a->type != JT_OBJECT) {
		sb_adds(&c->args, "{\"args\":");
		if (a->type == JT_STRING)
			sb_addc(&c->args, '"');
		jscan_untag(a->p, a->n, &c->args);
		if (a->type == JT_STRING)
			sb_addc(&c->args, '"');
		sb_addc(&c->args, '}');
		return;
	}
	jscan_untag(a->p, a->n, &c->args);
}

static int64_t sid_or_zero(struct chrome *c, const struct strbuf *s)
{
	return s->len ? writer_stringn(c->w, s->buf, s->len) : 0;
}

static int64_t name_sid(struct chrome *c)
{
	return writer_stringn(c->w, c->name.buf ? c->name.buf : "",
			      c->name.len);
}

static void slice(struct chrome *c, int64_t track, int64_t ts, int64_t dur,
		  unsigned flags)
{
	int64_t id = writer_slice(c->w, track, ts, dur, name_sid(c),
				  sid_or_zero(c, &c->cat), 0, flags);

	if (c->args.len)
		writer_slice_args(c->w, id, sb_cstr(&c->args));
}

static int paired(struct chrome *c, struct event *e, int64_t key,
		  const char *sub, size_t sublen, int64_t val, const char *t0,
		  const char *t1, const char *t2, const char *t3)
{
	struct spill_row r = {
		.key = key, .sub = sub, .sublen = sublen, .ts = e->ts,
		.seq = c->seq, .tag = e->ph, .val = val,
		.text = { t0, t1, t2, t3 },
	};

	if (!c->spill) {
		c->spill = spill_open();
		if (!c->spill)
			return -1;
	}
	return spill_add(c->spill, &r);
}

/* A true or false field; absent is false. */
static int flag_field(struct chrome *c, struct event *e, int f, int *on)
{
	*on = 0;
	if (!e->have[f])
		return 0;
	if (e->f[f].type != JT_BOOL)
		return bad(c, f, &e->f[f], "true or false");
	*on = e->f[f].p[0] == 't';
	return 0;
}

/* Flow v2 (Perfetto): a slice with "bind_id" starts a flow with
 * flow_out, ends it with flow_in, is a step with both. Matched with the
 * s/t/f steps' code, in an id space of their own; each end binds to the
 * slice enclosing the slice's start on its thread. */
static int bound_flow(struct chrome *c, struct event *e)
{
	struct event step = *e;
	int in, out;

	if (!e->have[F_BIND_ID])
		return 0;
	if (flag_field(c, e, F_FLOW_IN, &in) ||
	    flag_field(c, e, F_FLOW_OUT, &out) ||
	    text_field(c, e, F_BIND_ID, &c->id))
		return -1;
	if (!in && !out)
		return 0;
	step.ph = in && out ? 't' : out ? 's' : 'f';
	return paired(c, &step, CHROME_KEY_BIND, c->id.buf, c->id.len,
		      thread_track(c), "e", sb_cstr(&c->id), NULL, NULL);
}

static const char *or_null(struct strbuf *s)
{
	return s->len ? sb_cstr(s) : NULL;
}

/* The thread's B/E key, "pid NUL tid", into c->sub. */
static void thread_key(struct chrome *c)
{
	sb_reset(&c->sub);
	sb_add(&c->sub, c->pid.buf, c->pid.len + 1);
	sb_add(&c->sub, c->tid.buf, c->tid.len);
}

/* An X or thread instant of a thread that has had B/E events: sorted and
 * written with them (match.c), so that the thread's slices reach the
 * writer in time order and its nesting needs no second pass. 1 when it
 * went that way. val: the duration. */
static int with_pairs(struct chrome *c, struct event *e, int64_t val)
{
	if (!c->be_threads.n)
		return 0;
	thread_key(c);
	if (!strmap_get(&c->be_threads, c->sub.buf, c->sub.len))
		return 0;
	return paired(c, e, CHROME_KEY_THREAD, c->sub.buf, c->sub.len, val,
		      sb_cstr(&c->name), or_null(&c->cat), or_null(&c->args),
		      NULL) ? -1 : 1;
}

static int complete(struct chrome *c, struct event *e)
{
	int64_t dur = 0, track;
	int rc;

	if ((e->have[F_DUR] && time_error(c, e, F_DUR, e->dur_rc)) ||
	    bound_flow(c, e))
		return -1;
	dur = e->dur;
	/* kept, with duration 0 and flagged clipped by the writer */
	if (dur < 0)
		c->n_negative++;
	args_text(c, e);
	note_ts(c, e->ts, dur > 0 && e->ts <= INT64_MAX - dur ? e->ts + dur :
		e->ts);
	track = thread_track(c);	/* rows are made in file order */
	if ((rc = with_pairs(c, e, dur)))
		return rc < 0 ? -1 : 0;
	slice(c, track, e->ts, dur, 0);
	return 0;
}

/* Instants: thread-scoped by default, or process ("p") or global ("g"). */
static int instant(struct chrome *c, struct event *e)
{
	int64_t track;
	int rc, thread = 0;

	if (text_field(c, e, F_S, &c->tmp))
		return -1;
	if (c->tmp.len && c->tmp.buf[0] == 'g')
		track = named_row(c, NULL, TK_INSTANT, "Global events");
	else if (c->tmp.len && c->tmp.buf[0] == 'p')
		track = named_row(c, trows_proc(c->rows, c->pid.buf, c->pid.len),
				  TK_INSTANT, "Process events");
	else
		track = thread_track(c), thread = 1;
	args_text(c, e);
	if (thread && (rc = with_pairs(c, e, 0)))
		return rc < 0 ? -1 : 0;
	slice(c, track, e->ts, 0, SF_INSTANT);
	return 0;
}

/* Counters: one row per args member, "<name>" for "value", else
 * "<name> <member>" (with " <id>" after the name when there is one). */
static int counter(struct chrome *c, struct event *e)
{
	struct tproc *proc = trows_proc(c->rows, c->pid.buf, c->pid.len);
	struct jscan s;
	struct jspan k, v;
	size_t base;
	int rc;

	if (!e->have[F_ARGS] || e->f[F_ARGS].type != JT_OBJECT) {
		c->n_no_args++;
		return 0;
	}
	sb_reset(&c->sub);
	sb_add(&c->sub, c->name.buf, c->name.len);
	if (e->have[F_ID]) {
		jscan_text(&e->f[F_ID], &c->tmp);
		sb_printf(&c->sub, " %s", sb_cstr(&c->tmp));
	}
	base = c->sub.len;
	jscan_object(&s, e->f[F_ARGS].p, e->f[F_ARGS].n);
	while ((rc = jscan_member(&s, &k, &v)) == 1) {
		double value;
		int vrc = jscan_double(&v, &value);

		jscan_text(&k, &c->tmp);
		/* a limit of the JSON nxtop reads, as for any number */
		if (vrc == JSCAN_RANGE)
			return import_fail(c->im, c->im->rec, "counter value"
					   " \"%s\" is a number out of range",
					   sb_cstr(&c->tmp));
		/* null, text, arrays: no sample, but said */
		if (vrc) {
			c->n_not_number++;
			continue;
		}
		c->sub.len = base;
		if (strcmp(sb_cstr(&c->tmp), "value"))
			sb_printf(&c->sub, " %s", c->tmp.buf);
		writer_counter(c->w, named_row(c, proc, TK_COUNTER,
					       sb_cstr(&c->sub)), e->ts, value);
	}
	return rc < 0 ? import_fail(c->im, c->im->rec, "malformed \"args\"") :
			0;
}

/* A member of the metadata event's args, as text. */
static int meta_arg(const struct event *e, const char *key, struct strbuf *out)
{
	struct jscan s;
	struct jspan k, v;

	if (!e->have[F_ARGS] || jscan_object(&s, e->f[F_ARGS].p, e->f[F_ARGS].n))
		return 0;
	while (jscan_member(&s, &k, &v) == 1) {
		if (jscan_key_is(&k, key) && v.type != JT_OBJECT &&
		    v.type != JT_ARRAY && v.type != JT_NULL) {
			jscan_text(&v, out);
			return 1;
		}
	}
	return 0;
}

static int64_t sort_index(struct chrome *c, const struct event *e, int *ok)
{
	struct jspan v;
	int64_t i = 0;

	*ok = meta_arg(e, "sort_index", &c->tmp);
	v = (struct jspan){ c->tmp.buf, c->tmp.len, JT_NUMBER };
	if (*ok && jscan_scaled(&v, 0, &i))
		*ok = 0;
	return i;
}

/* M events: process and thread names and sort order. */
static int metadata(struct chrome *c, struct event *e)
{
	struct tproc *proc = trows_proc(c->rows, c->pid.buf, c->pid.len);
	const char *what = sb_cstr(&c->name);
	int64_t idx;
	int ok;

	if (!strcmp(what, "process_name") && meta_arg(e, "name", &c->tmp)) {
		tproc_set_name(proc, c->tmp.buf);
	} else if (!strcmp(what, "thread_name") && meta_arg(e, "name", &c->tmp)) {
		trow_set_name(trows_thread(c->rows, proc, c->tid.buf, c->tid.len),
			      c->tmp.buf);
	} else if (!strcmp(what, "process_sort_index")) {
		idx = sort_index(c, e, &ok);
		if (ok)
			tproc_set_sort(proc, idx);
	} else if (!strcmp(what, "thread_sort_index")) {
		idx = sort_index(c, e, &ok);
		if (ok)
			trow_set_sort(trows_thread(c->rows, proc, c->tid.buf,
						   c->tid.len), idx);
	}
	return 0;
}

/* B/E pair up on their thread; the row is made for the first slice, so
 * a thread with only stray ends gets none. */
static int begin_end(struct chrome *c, struct event *e)
{
	args_text(c, e);
	thread_key(c);
	if (!strmap_get(&c->be_threads, c->sub.buf, c->sub.len))
		strmap_put(&c->be_threads, c->sub.buf, c->sub.len, c);
	return paired(c, e, CHROME_KEY_THREAD, c->sub.buf, c->sub.len, 0,
		      sb_cstr(&c->name), or_null(&c->cat), or_null(&c->args),
		      NULL);
}

/* The id of an async or flow event in c->id: "id", or "id2" with its
 * "local" or "global" member. *local is set for process-scoped ids. */
static int event_id(struct chrome *c, struct event *e, int *local)
{
	struct jscan s;
	struct jspan k, v;

	*local = 0;
	sb_reset(&c->id);
	if (e->have[F_ID])
		return text_field(c, e, F_ID, &c->id);
	if (!e->have[F_ID2])
		return 0;
	if (jscan_object(&s, e->f[F_ID2].p, e->f[F_ID2].n))
		return bad(c, F_ID2, &e->f[F_ID2], "an object");
	while (jscan_member(&s, &k, &v) == 1) {
		if (jscan_key_is(&k, "local") || jscan_key_is(&k, "global")) {
			*local = jscan_key_is(&k, "local");
			jscan_text(&v, &c->id);
			return 0;
		}
	}
	return 0;
}

/* Async events pair up by id and category; local ids within a process. */
static int async(struct chrome *c, struct event *e)
{
	int local;

	if (event_id(c, e, &local))
		return -1;
	sb_reset(&c->sub);
	sb_addc(&c->sub, local ? 'L' : 'G');
	if (local)
		sb_add(&c->sub, c->pid.buf, c->pid.len + 1);
	sb_add(&c->sub, c->cat.buf ? c->cat.buf : "", c->cat.len + 1);
	sb_add(&c->sub, c->id.buf ? c->id.buf : "", c->id.len);
	args_text(c, e);
	return paired(c, e, CHROME_KEY_ASYNC, c->sub.buf, c->sub.len, 0,
		      sb_cstr(&c->name), or_null(&c->cat), or_null(&c->args),
		      sb_cstr(&c->pid));
}

/* Flow steps pair up by id and category; each end is a place on its
 * thread, bound to a slice when the cache is finished. */
static int flow(struct chrome *c, struct event *e)
{
	int local;

	if (event_id(c, e, &local) || text_field(c, e, F_BP, &c->tmp))
		return -1;
	sb_reset(&c->sub);
	sb_add(&c->sub, c->cat.buf ? c->cat.buf : "", c->cat.len + 1);
	sb_add(&c->sub, c->id.buf ? c->id.buf : "", c->id.len);
	return paired(c, e, CHROME_KEY_FLOW, c->sub.buf, c->sub.len,
		      thread_track(c), or_null(&c->tmp), sb_cstr(&c->id), NULL,
		      NULL);
}

static int dispatch(struct chrome *c, struct event *e)
{
	switch (e->ph) {
	case 'X':
		return complete(c, e);
	case 'B':
	case 'E':
		note_ts(c, e->ts, e->ts);
		return (e->ph == 'B' && bound_flow(c, e)) ? -1 : begin_end(c, e);
	case 'i':
	case 'I':
	case 'R':
		note_ts(c, e->ts, e->ts);
		return instant(c, e);
	case 'C':
		note_ts(c, e->ts, e->ts);
		return counter(c, e);
	case 'b':
	case 'e':
	case 'n':
	case 'S':
	case 'F':
	case 'T':
	case 'p':
		note_ts(c, e->ts, e->ts);
		return async(c, e);
	case 's':
	case 't':
	case 'f':
		note_ts(c, e->ts, e->ts);
		return flow(c, e);
	default:
		c->skipped[(unsigned char)e->ph & 0x7f]++;
		return 0;
	}
}

static int event(struct chrome *c, const struct jrec *r, struct event *e)
{
	c->im->rec = r;
	c->seq++;
	if (e->scan_rc != SCAN_OK)
		return import_fail(c->im, r, e->scan_rc == SCAN_NOT_OBJECT ?
				   "expected an event object" :
				   "malformed event object");
	if (!e->have[F_PH])
		return import_fail(c->im, r, "missing \"ph\"");
	if (e->f[F_PH].type != JT_STRING)
		return bad(c, F_PH, &e->f[F_PH], "a phase letter");
	if (text_field(c, e, F_PID, &c->pid) ||
	    text_field(c, e, F_TID, &c->tid) ||
	    text_field(c, e, F_NAME, &c->name) ||
	    text_field(c, e, F_CAT, &c->cat))
		return -1;
	if (e->ph == 'M')
		return metadata(c, e);
	if (!e->have[F_TS]) {
		if (!strchr("XBEiIRCbenSFTpstf", e->ph))
			return dispatch(c, e);
		return import_fail(c->im, r, "missing \"ts\"");
	}
	if (time_error(c, e, F_TS, e->ts_rc) || dispatch(c, e))
		return -1;
	if (trows_count(c->rows) > TROWS_MAX)
		return import_fail(c->im, r, "more than %zu processes, threads and"
				   " rows", TROWS_MAX);
	return 0;
}

/* Top-level members other than the events: small objects and values
 * become info tables; anything else is skipped. "traceEvents" that is
 * not an array is no trace: refused, not read as one without events. */
static int other(struct chrome *c, const struct jrec *r)
{
	struct wvalue v;
	cJSON *o;
	int rc = 0;

	if (r->kind != JREC_VALUE)
		return 0;
	o = cJSON_ParseWithLength(r->text, r->len);
	if (!o)
		return import_fail(c->im, r, "invalid JSON");
	if (r->key && !strcmp(r->key, "traceEvents")) {
		rc = import_fail(c->im, r, "expected an array of events, found"
				 " %s", jv_type_name(o));
	} else if (cJSON_IsObject(o)) {
		for (const cJSON *m = o->child; m; m = m->next) {
			jv_to_wvalue(m, &v, &c->tmp);
			writer_info(c->w, c->im->profile, r->key, 0,
				    m->string ? m->string : "", &v);
		}
	} else if (!cJSON_IsArray(o)) {
		jv_to_wvalue(o, &v, &c->tmp);
		writer_info(c->w, c->im->profile, "trace", 0, r->key, &v);
	}
	cJSON_Delete(o);
	return rc;
}

static void warn(struct chrome *c, uint64_t n, const char *what)
{
	char *msg;

	if (!n)
		return;
	msg = xasprintf("%" PRIu64 " %s", n, what);
	writer_warning(c->w, c->im->profile, "import", "Import", msg);
	free(msg);
}

static void warnings(struct chrome *c)
{
	uint64_t n = 0;

	sb_reset(&c->tmp);
	for (int i = 0; i < 128; i++) {
		if (!c->skipped[i])
			continue;
		n += c->skipped[i];
		sb_printf(&c->tmp, "%s%c", c->tmp.len ? ", " : "",
			  i >= 0x20 && i < 0x7f ? i : '?');
	}
	if (n) {
		char *what = xasprintf("event(s) of phase %s skipped (not"
				       " imported)", sb_cstr(&c->tmp));

		warn(c, n, what);
		free(what);
	}
	warn(c, c->n_unmatched, "end event(s) without a begin were ignored");
	warn(c, c->n_overflow, "slice(s) nested deeper than 1024 levels were"
	     " dropped");
	warn(c, c->n_bad_flow, "flow step(s) without a start were kept as"
	     " unpaired ends");
	warn(c, c->n_negative, "event(s) with a negative duration were stored"
	     " with duration 0");
	warn(c, c->n_not_number, "counter value(s) that are not numbers were"
	     " dropped");
	warn(c, c->n_no_args, "counter event(s) without an \"args\" object"
	     " were dropped");
}

static void chrome_free(struct chrome *c)
{
	struct strbuf *bufs[] = { &c->pid, &c->tid, &c->name, &c->cat,
				  &c->args, &c->id, &c->sub, &c->tmp,
				  &c->last_pid, &c->last_tid };

	for (size_t i = 0; i < NX_ARRAY_SIZE(bufs); i++)
		sb_free(bufs[i]);
	spill_close(c->spill);
	strmap_free(&c->be_threads, NULL);
	trows_free(c->rows);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

/* Splitting and scanning run a batch ahead in a thread of their own. */
static int read_events(struct chrome *c, struct jsplit *s)
{
	struct jpipe *pipe = jpipe_open_raw(s, 1, scan_event);
	struct jrec r;
	const cJSON *none;
	void *e;
	uint64_t count = 0;
	int rc;

	while ((rc = jpipe_next(pipe, &r, &none, &e)) == 1) {
		if (r.kind == JREC_ARRAY_END)
			continue;
		rc = e ? event(c, &r, e) : other(c, &r);
		if (rc || writer_failed(c->w)) {
			rc = -1;
			break;
		}
		if (++count % 4096 == 0)
			import_progress(c->im, jpipe_offset(pipe));
	}
	jpipe_close(pipe);
	return rc;
}

int import_chrome_json(struct import *im)
{
	struct wprofile p = { .kind = "trace", .format = "chrome-json",
			      .name = base_name(im->name),
			      .parent_id = im->parent, .nc_idx = -1 };
	struct chrome c;
	struct jsplit *s;
	int fd, rc;

	memset(&c, 0, sizeof(c));
	strmap_init(&c.be_threads);
	c.im = im;
	c.w = im->w;
	s = import_open_json(im, &fd);
	if (!s)
		return -1;
	/* a JAX run's host files share one profile */
	if (!im->profile)
		im->profile = writer_profile(im->w, &p);
	c.rows = trows_new(im->w, im->profile);
	trows_set_parent(c.rows, im->group, im->sort_base);
	rc = read_events(&c, s);
	import_close_json(s, fd);
	if (!rc && c.spill)
		rc = chrome_match(&c);
	if (!rc) {
		warnings(&c);
		if (c.have_ts && c.min_ts >= EPOCH_MIN_NS)
			writer_profile_set(c.w, im->profile, "epoch", "1");
		trows_finish(c.rows);
		c.rows = NULL;
	}
	chrome_free(&c);
	return rc;
}
