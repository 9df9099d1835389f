/* Writes the Perfetto fixtures of the trace-import tests with protobuf-c:
 * mkpftrace DIR creates DIR/<name>.pftrace for every case below. Each
 * case covers one awkward part of the format (FORMATS.md "Perfetto
 * protobuf traces"); tests/test_import_trace.c says what it expects. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "proto/nxpf_trace.pb-c.h"

/* Every allocation of a fixture, freed when it is written. */
static void **allocs;
static size_t nallocs;

static void *mem(size_t n)
{
	void *p = calloc(1, n);

	if (!p)
		abort();
	allocs = realloc(allocs, (nallocs + 1) * sizeof(*allocs));
	if (!allocs)
		abort();
	allocs[nallocs++] = p;
	return p;
}

static void mem_free(void)
{
	for (size_t i = 0; i < nallocs; i++)
		free(allocs[i]);
	free(allocs);
	allocs = NULL;
	nallocs = 0;
}

static FILE *out;
/* Packets collected for a compressed bundle instead of the file. */
static unsigned char *bundle;
static size_t bundle_len;
static int bundling;

static size_t put_varint(unsigned char *b, uint64_t v)
{
	size_t n = 0;

	do {
		b[n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	return n;
}

static void raw(const void *p, size_t n)
{
	if (bundling) {
		bundle = realloc(bundle, bundle_len + n);
		if (!bundle)
			abort();
		memcpy(bundle + bundle_len, p, n);
		bundle_len += n;
	} else if (fwrite(p, 1, n, out) != n) {
		abort();
	}
}

/* One Trace.packet record: 0x0a <varint length> <packet>. */
static void emit(const Nxpf__TracePacket *pk)
{
	size_t n = nxpf__trace_packet__get_packed_size(pk);
	unsigned char *buf = malloc(n + 1), head[11];

	if (!buf)
		abort();
	nxpf__trace_packet__pack(pk, buf);
	head[0] = 0x0a;
	raw(head, 1 + put_varint(head + 1, n));
	raw(buf, n);
	free(buf);
	mem_free();
}

static Nxpf__TracePacket *packet(uint32_t seq)
{
	Nxpf__TracePacket *p = mem(sizeof(*p));

	nxpf__trace_packet__init(p);
	if (seq) {
		p->has_trusted_packet_sequence_id = 1;
		p->trusted_packet_sequence_id = seq;
	}
	return p;
}

static void at(Nxpf__TracePacket *p, uint64_t ts)
{
	p->has_timestamp = 1;
	p->timestamp = ts;
}

static Nxpf__TrackDescriptor *descriptor(Nxpf__TracePacket *p, uint64_t uuid,
					 uint64_t parent, const char *name)
{
	Nxpf__TrackDescriptor *d = mem(sizeof(*d));

	nxpf__track_descriptor__init(d);
	d->has_uuid = 1;
	d->uuid = uuid;
	if (parent) {
		d->has_parent_uuid = 1;
		d->parent_uuid = parent;
	}
	if (name) {
		d->static_or_dynamic_name_case =
			NXPF__TRACK_DESCRIPTOR__STATIC_OR_DYNAMIC_NAME_STATIC_NAME;
		d->static_name = (char *)name;
	}
	p->data_case = NXPF__TRACE_PACKET__DATA_TRACK_DESCRIPTOR;
	p->track_descriptor = d;
	return d;
}

static void process(uint64_t uuid, int32_t pid, const char *name)
{
	Nxpf__TracePacket *p = packet(1);
	Nxpf__TrackDescriptor *d = descriptor(p, uuid, 0, NULL);
	Nxpf__ProcessDescriptor *pd = mem(sizeof(*pd));

	nxpf__process_descriptor__init(pd);
	pd->has_pid = 1;
	pd->pid = pid;
	pd->process_name = (char *)name;
	d->process = pd;
	emit(p);
}

static Nxpf__ThreadDescriptor *thread_desc(int32_t pid, int64_t tid,
					   const char *name)
{
	Nxpf__ThreadDescriptor *td = mem(sizeof(*td));

	nxpf__thread_descriptor__init(td);
	td->has_pid = td->has_tid = 1;
	td->pid = pid;
	td->tid = tid;
	td->thread_name = (char *)name;
	return td;
}

static void thread(uint64_t uuid, uint64_t parent, int32_t pid, int64_t tid,
		   const char *name)
{
	Nxpf__TracePacket *p = packet(1);
	Nxpf__TrackDescriptor *d = descriptor(p, uuid, parent, NULL);

	d->thread = thread_desc(pid, tid, name);
	emit(p);
}

static void track(uint64_t uuid, uint64_t parent, const char *name)
{
	Nxpf__TracePacket *p = packet(1);

	descriptor(p, uuid, parent, name);
	emit(p);
}

static void counter_track(uint64_t uuid, uint64_t parent, const char *name,
			  int64_t mult, int incremental, int builtin, int unit)
{
	Nxpf__TracePacket *p = packet(1);
	Nxpf__TrackDescriptor *d = descriptor(p, uuid, parent, name);
	Nxpf__CounterDescriptor *c = mem(sizeof(*c));

	nxpf__counter_descriptor__init(c);
	if (mult) {
		c->has_unit_multiplier = 1;
		c->unit_multiplier = mult;
	}
	c->has_is_incremental = incremental;
	c->is_incremental = incremental;
	c->has_type = builtin != 0;
	c->type = builtin;
	c->has_unit = unit != 0;
	c->unit = unit;
	d->counter = c;
	emit(p);
}

static Nxpf__TrackEvent *track_event(Nxpf__TracePacket *p, int type,
				     uint64_t track, const char *name)
{
	Nxpf__TrackEvent *e = mem(sizeof(*e));

	nxpf__track_event__init(e);
	if (type) {
		e->has_type = 1;
		e->type = type;
	}
	if (track) {
		e->has_track_uuid = 1;
		e->track_uuid = track;
	}
	if (name) {
		e->name_field_case = NXPF__TRACK_EVENT__NAME_FIELD_NAME;
		e->name = (char *)name;
	}
	p->data_case = NXPF__TRACE_PACKET__DATA_TRACK_EVENT;
	p->track_event = e;
	return e;
}

enum { BEGIN = 1, END = 2, INSTANT = 3, COUNTER = 4, STATE = 5 };

/* A simple event on sequence 1 at ts ns (BOOTTIME). */
static Nxpf__TrackEvent *ev(Nxpf__TracePacket **pp, uint64_t ts, int type,
			    uint64_t track, const char *name)
{
	*pp = packet(1);
	at(*pp, ts);
	return track_event(*pp, type, track, name);
}

static void simple(uint64_t ts, int type, uint64_t track, const char *name)
{
	Nxpf__TracePacket *p;

	ev(&p, ts, type, track, name);
	emit(p);
}

static Nxpf__DebugAnnotation *ann(const char *name)
{
	Nxpf__DebugAnnotation *a = mem(sizeof(*a));

	nxpf__debug_annotation__init(a);
	if (name) {
		a->name_field_case = NXPF__DEBUG_ANNOTATION__NAME_FIELD_NAME;
		a->name = (char *)name;
	}
	return a;
}

static Nxpf__DebugAnnotation *ann_str(const char *name, const void *v,
				      size_t n)
{
	Nxpf__DebugAnnotation *a = ann(name);

	a->value_case = NXPF__DEBUG_ANNOTATION__VALUE_STRING_VALUE;
	a->string_value.data = (uint8_t *)v;
	a->string_value.len = n;
	return a;
}

static Nxpf__DebugAnnotation *ann_int(const char *name, int64_t v)
{
	Nxpf__DebugAnnotation *a = ann(name);

	a->value_case = NXPF__DEBUG_ANNOTATION__VALUE_INT_VALUE;
	a->int_value = v;
	return a;
}

static Nxpf__DebugAnnotation *ann_uint(const char *name, uint64_t v)
{
	Nxpf__DebugAnnotation *a = ann(name);

	a->value_case = NXPF__DEBUG_ANNOTATION__VALUE_UINT_VALUE;
	a->uint_value = v;
	return a;
}

static void annotate(Nxpf__TrackEvent *e, size_t n, ...)
{
	va_list ap;

	e->n_debug_annotations = n;
	e->debug_annotations = mem(n * sizeof(*e->debug_annotations));
	va_start(ap, n);
	for (size_t i = 0; i < n; i++)
		e->debug_annotations[i] = va_arg(ap, Nxpf__DebugAnnotation *);
	va_end(ap);
}

static void categories(Nxpf__TrackEvent *e, const char *cat)
{
	e->n_categories = 1;
	e->categories = mem(sizeof(char *));
	e->categories[0] = (char *)cat;
}

/* nested: slices nested three deep on one thread, an instant inside, an
 * end without a begin, and a begin never ended. */
static void fx_nested(void)
{
	process(1, 100, "Proc");
	thread(2, 1, 100, 101, "Main");
	simple(1000, BEGIN, 2, "outer");
	simple(1100, BEGIN, 2, "middle");
	simple(1200, BEGIN, 2, "inner");
	simple(1250, INSTANT, 2, "tick");
	simple(1300, END, 2, NULL);
	simple(1400, END, 2, NULL);
	simple(1500, END, 2, NULL);
	simple(1600, END, 2, NULL);	/* unmatched */
	simple(1700, BEGIN, 2, "open");	/* never ends */
	simple(2000, INSTANT, 2, "last");
}

static Nxpf__InternedData *interned(Nxpf__TracePacket *p)
{
	Nxpf__InternedData *d = mem(sizeof(*d));

	nxpf__interned_data__init(d);
	p->interned_data = d;
	return d;
}

static void intern_name(Nxpf__InternedData *d, uint64_t iid, const char *s)
{
	Nxpf__EventName *n = mem(sizeof(*n));

	nxpf__event_name__init(n);
	n->has_iid = 1;
	n->iid = iid;
	n->name = (char *)s;
	if (!d->event_names)
		d->event_names = mem(4 * sizeof(*d->event_names));
	d->event_names[d->n_event_names++] = n;
}

static void intern_cat(Nxpf__InternedData *d, uint64_t iid, const char *s)
{
	Nxpf__EventCategory *c = mem(sizeof(*c));

	nxpf__event_category__init(c);
	c->has_iid = 1;
	c->iid = iid;
	c->name = (char *)s;
	d->n_event_categories = 1;
	d->event_categories = mem(sizeof(*d->event_categories));
	d->event_categories[0] = c;
}

static void intern_ann_name(Nxpf__InternedData *d, uint64_t iid, const char *s)
{
	Nxpf__DebugAnnotationName *n = mem(sizeof(*n));

	nxpf__debug_annotation_name__init(n);
	n->has_iid = 1;
	n->iid = iid;
	n->name = (char *)s;
	d->n_debug_annotation_names = 1;
	d->debug_annotation_names = mem(sizeof(*d->debug_annotation_names));
	d->debug_annotation_names[0] = n;
}

static Nxpf__TrackEvent *iid_event(uint32_t seq, uint64_t ts, int type,
				   uint64_t track, uint64_t name_iid,
				   uint32_t flags, Nxpf__TracePacket **pp)
{
	Nxpf__TracePacket *p = packet(seq);
	Nxpf__TrackEvent *e;

	at(p, ts);
	p->sequence_flags = flags;
	p->has_sequence_flags = flags != 0;
	e = track_event(p, type, track, NULL);
	if (name_iid) {
		e->name_field_case = NXPF__TRACK_EVENT__NAME_FIELD_NAME_IID;
		e->name_iid = name_iid;
	}
	*pp = p;
	return e;
}

/* interned: names, a category and an annotation name by iid; a reset
 * gives iid 1 a new meaning; after a lost packet, events needing the
 * state are skipped until the next reset, and those that need none are
 * kept; a name iid never defined is named as such. */
static void fx_interned(void)
{
	Nxpf__TracePacket *p;
	Nxpf__TrackEvent *e;
	Nxpf__InternedData *d;
	Nxpf__DebugAnnotation *a;

	process(1, 200, "Interned");
	thread(2, 1, 200, 201, "T");
	e = iid_event(7, 1000, BEGIN, 2, 1, 1 | 2, &p);
	d = interned(p);
	intern_name(d, 1, "alpha");
	intern_cat(d, 5, "cat.a");
	intern_ann_name(d, 9, "key");
	e->n_category_iids = 1;
	e->category_iids = mem(sizeof(uint64_t));
	e->category_iids[0] = 5;
	a = ann(NULL);
	a->name_field_case = NXPF__DEBUG_ANNOTATION__NAME_FIELD_NAME_IID;
	a->name_iid = 9;
	a->value_case = NXPF__DEBUG_ANNOTATION__VALUE_INT_VALUE;
	a->int_value = 42;
	annotate(e, 1, a);
	emit(p);
	iid_event(7, 2000, END, 2, 0, 2, &p);
	emit(p);
	/* reset: iid 1 is now "beta" */
	e = iid_event(7, 3000, INSTANT, 2, 1, 1 | 2, &p);
	d = interned(p);
	intern_name(d, 1, "beta");
	emit(p);
	/* a lost packet: this one needs state and is skipped */
	iid_event(7, 4000, INSTANT, 2, 1, 2, &p);
	p->has_previous_packet_dropped = 1;
	p->previous_packet_dropped = 1;
	emit(p);
	/* one that needs no state is kept */
	iid_event(7, 4200, INSTANT, 2, 0, 0, &p);
	p->track_event->name_field_case = NXPF__TRACK_EVENT__NAME_FIELD_NAME;
	p->track_event->name = "whole";
	emit(p);
	iid_event(7, 4500, INSTANT, 2, 1, 2, &p);
	emit(p);
	/* an unknown iid on a valid sequence gives a placeholder name */
	e = iid_event(7, 5000, INSTANT, 2, 0, 1 | 2, &p);
	e->name_field_case = NXPF__TRACK_EVENT__NAME_FIELD_NAME_IID;
	e->name_iid = 77;
	emit(p);
}

static void clock_add(Nxpf__ClockSnapshot *s, uint32_t id, uint64_t ts,
		      int incremental, uint64_t mult)
{
	Nxpf__ClockSnapshot__Clock *c = mem(sizeof(*c));

	nxpf__clock_snapshot__clock__init(c);
	c->has_clock_id = c->has_timestamp = 1;
	c->clock_id = id;
	c->timestamp = ts;
	c->has_is_incremental = incremental;
	c->is_incremental = incremental;
	if (mult) {
		c->has_unit_multiplier_ns = 1;
		c->unit_multiplier_ns = mult;
	}
	s->clocks[s->n_clocks++] = c;
}

static Nxpf__ClockSnapshot *snapshot(Nxpf__TracePacket *p, uint32_t primary)
{
	Nxpf__ClockSnapshot *s = mem(sizeof(*s));

	nxpf__clock_snapshot__init(s);
	s->clocks = mem(8 * sizeof(*s->clocks));
	if (primary) {
		s->has_primary_trace_clock = 1;
		s->primary_trace_clock = primary;
	}
	p->data_case = NXPF__TRACE_PACKET__DATA_CLOCK_SNAPSHOT;
	p->clock_snapshot = s;
	return s;
}

/* clocks: the trace clock is MONOTONIC (3). A global snapshot relates
 * BOOTTIME (6) = MONOTONIC + 5000 ns. Sequence 3 has clock 64 in µs,
 * incremental, equal to MONOTONIC 1,000,000 ns at value 1000; packets
 * default to it. Expected trace times in the test. */
static void fx_clocks(void)
{
	Nxpf__TracePacket *p = packet(0);
	Nxpf__ClockSnapshot *s = snapshot(p, 3);
	Nxpf__TracePacketDefaults *df;

	clock_add(s, 6, 1005000, 0, 0);
	clock_add(s, 3, 1000000, 0, 0);
	emit(p);
	process(1, 300, "Clocks");
	thread(2, 1, 300, 301, "T");
	p = packet(3);
	p->has_sequence_flags = 1;
	p->sequence_flags = 1;
	df = mem(sizeof(*df));
	nxpf__trace_packet_defaults__init(df);
	df->has_timestamp_clock_id = 1;
	df->timestamp_clock_id = 64;
	p->trace_packet_defaults = df;
	s = snapshot(p, 0);
	clock_add(s, 3, 1000000, 0, 0);
	clock_add(s, 64, 1000, 1, 1000);
	emit(p);
	/* deltas in µs: 1000+10 -> 1,010,000 ns; +5 -> 1,015,000 */
	p = packet(3);
	at(p, 10);
	track_event(p, BEGIN, 2, "delta");
	emit(p);
	p = packet(3);
	at(p, 5);
	track_event(p, END, 2, NULL);
	emit(p);
	/* absolute BOOTTIME 1,025,000 -> MONOTONIC 1,020,000 */
	p = packet(3);
	at(p, 1025000);
	p->has_timestamp_clock_id = 1;
	p->timestamp_clock_id = 6;
	track_event(p, INSTANT, 2, "boot");
	emit(p);
	/* back on clock 64: +15 µs after the last 64 value -> 1,030,000 */
	p = packet(3);
	at(p, 15);
	track_event(p, INSTANT, 2, "after");
	emit(p);
	/* past INT64_MAX ns, on the trace clock and on BOOTTIME: no usable
	 * time, not one wrapped round to just before zero */
	for (uint32_t id = 3; id <= 6; id += 3) {
		p = packet(3);
		at(p, UINT64_MAX - 999);
		p->has_timestamp_clock_id = 1;
		p->timestamp_clock_id = id;
		track_event(p, INSTANT, 2, "wrapped");
		emit(p);
	}
	/* a snapshot value past INT64_MAX relates its clock to nothing: the
	 * time is used as it is (and counted), not moved by a wrapped one */
	p = packet(4);
	s = snapshot(p, 0);
	clock_add(s, 3, 1000000, 0, 0);
	clock_add(s, 66, UINT64_MAX - 999, 0, 0);
	emit(p);
	p = packet(4);
	at(p, 2000);
	p->has_timestamp_clock_id = 1;
	p->timestamp_clock_id = 66;
	track_event(p, INSTANT, 2, "unrelated");
	emit(p);
}

/* duplicates: descriptors re-emitted with the same uuid (one row), the
 * last name winning; a thread described twice. */
static void fx_duplicates(void)
{
	process(1, 400, "Dup");
	process(1, 400, "Dup");
	thread(2, 1, 400, 401, "first name");
	simple(1000, INSTANT, 2, "a");
	thread(2, 1, 400, 401, "Worker");
	thread(2, 1, 400, 401, "Worker");
	simple(2000, INSTANT, 2, "b");
	track(3, 1, "Async");
	track(3, 1, "Async");
	simple(1500, BEGIN, 3, "job");
	simple(1800, END, 3, NULL);
}

/* scopes: slices and instants with no track (trace-wide) and on an
 * unnamed process's own track (process-wide), beside a thread's. */
static void fx_scopes(void)
{
	process(1, 700, NULL);
	thread(2, 1, 700, 701, "Main");
	simple(1000, BEGIN, 2, "work");
	simple(1200, END, 2, NULL);
	simple(1100, BEGIN, 1, "load");
	simple(1300, INSTANT, 1, "mark");
	simple(1500, END, 1, NULL);
	simple(2000, BEGIN, 0, "boot");
	simple(2100, INSTANT, 0, "ping");
	simple(2500, END, 0, NULL);
}

/* counters: int and double values, a unit multiplier, an incremental
 * counter (and a NaN among its values), extra counter values (the
 * thread-time one is not imported). */
static void fx_counters(void)
{
	Nxpf__TracePacket *p;
	Nxpf__TrackEvent *e;

	process(1, 500, "Counters");
	thread(2, 1, 500, 501, "T");
	counter_track(10, 1, "mem", 1024, 0, 0, 3);
	counter_track(11, 1, "ratio", 0, 0, 0, 0);
	counter_track(12, 1, "total", 0, 1, 0, 2);
	counter_track(13, 2, "thread_time", 1000, 1, 1, 1);
	counter_track(14, 1, "extra", 0, 0, 0, 0);
	thread(3, 1, 500, 502, "U");
	counter_track(15, 2, "cpu", 0, 0, 0, 0);
	counter_track(16, 3, "cpu", 0, 0, 0, 0);
	e = ev(&p, 1000, COUNTER, 10, NULL);
	e->counter_value_field_case =
		NXPF__TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE;
	e->counter_value = 3;
	emit(p);
	e = ev(&p, 1000, COUNTER, 11, NULL);
	e->counter_value_field_case =
		NXPF__TRACK_EVENT__COUNTER_VALUE_FIELD_DOUBLE_COUNTER_VALUE;
	e->double_counter_value = 0.25;
	emit(p);
	for (int i = 1; i <= 3; i++) {
		e = ev(&p, 1000 * (uint64_t)i, COUNTER, 12, NULL);
		e->counter_value_field_case =
			NXPF__TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE;
		e->counter_value = 10;
		emit(p);
		/* a NaN between the second and third: left out, counted,
		 * and not added to the sum */
		if (i != 2)
			continue;
		e = ev(&p, 2500, COUNTER, 12, NULL);
		e->counter_value_field_case =
			NXPF__TRACK_EVENT__COUNTER_VALUE_FIELD_DOUBLE_COUNTER_VALUE;
		e->double_counter_value = NAN;
		emit(p);
	}
	e = ev(&p, 2000, BEGIN, 2, "work");
	e->n_extra_counter_track_uuids = 2;
	e->extra_counter_track_uuids = mem(2 * sizeof(uint64_t));
	e->extra_counter_track_uuids[0] = 13;
	e->extra_counter_track_uuids[1] = 14;
	e->n_extra_counter_values = 2;
	e->extra_counter_values = mem(2 * sizeof(int64_t));
	e->extra_counter_values[0] = 77;
	e->extra_counter_values[1] = 5;
	emit(p);
	simple(3000, END, 2, NULL);
	/* counters of one name on two threads stay apart */
	for (uint64_t t = 15; t <= 16; t++) {
		e = ev(&p, 4000, COUNTER, t, NULL);
		e->counter_value_field_case =
			NXPF__TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE;
		e->counter_value = (int64_t)t;
		emit(p);
	}
	/* a state track: each state lasts until the next one */
	track(20, 1, "power");
	simple(1000, STATE, 20, "idle");
	simple(1500, STATE, 20, "busy");
	simple(2500, STATE, 20, "idle");
}

static Nxpf__TrackEvent__LegacyEvent *legacy_event(Nxpf__TrackEvent *e,
						   char phase)
{
	Nxpf__TrackEvent__LegacyEvent *l = mem(sizeof(*l));

	nxpf__track_event__legacy_event__init(l);
	l->has_phase = 1;
	l->phase = phase;
	e->legacy_event = l;
	return l;
}

/* A legacy ThreadDescriptor packet: the thread of seq's events. */
static void legacy_thread(uint32_t seq, int32_t pid, int64_t tid,
			  const char *name)
{
	Nxpf__TracePacket *p = packet(seq);

	p->data_case = NXPF__TRACE_PACKET__DATA_THREAD_DESCRIPTOR;
	p->thread_descriptor = thread_desc(pid, tid, name);
	emit(p);
}

/* legacy: events without a type, on the thread of a legacy
 * ThreadDescriptor packet; phases B/E, X with a duration, R and P; a
 * thread whose 64-bit tid has the same low 32 bits is another one. */
static void fx_legacy(void)
{
	Nxpf__TracePacket *p = packet(4);
	Nxpf__ProcessDescriptor *pd = mem(sizeof(*pd));
	Nxpf__TrackEvent *e;
	Nxpf__TrackEvent__LegacyEvent *l;

	nxpf__process_descriptor__init(pd);
	pd->has_pid = 1;
	pd->pid = 600;
	pd->process_name = "Legacy";
	p->data_case = NXPF__TRACE_PACKET__DATA_PROCESS_DESCRIPTOR;
	p->process_descriptor = pd;
	emit(p);
	legacy_thread(4, 600, 601, "Old");
	legacy_thread(5, 600, 601 + (INT64_C(1) << 32), "Wide");
	p = packet(5);
	at(p, 500);
	legacy_event(track_event(p, 0, 0, "wide"), 'R');
	emit(p);
	p = packet(4);
	at(p, 1000);
	legacy_event(track_event(p, 0, 0, "lb"), 'B');
	emit(p);
	p = packet(4);
	at(p, 2000);
	legacy_event(track_event(p, 0, 0, NULL), 'E');
	emit(p);
	p = packet(4);
	at(p, 3000);
	l = legacy_event(track_event(p, 0, 0, "lx"), 'X');
	l->has_duration_us = 1;
	l->duration_us = 2;
	emit(p);
	p = packet(4);
	at(p, 3500);
	legacy_event(track_event(p, 0, 0, "mark"), 'R');
	emit(p);
	p = packet(4);
	at(p, 3600);
	e = track_event(p, 0, 0, "sample");
	legacy_event(e, 'P');
	e->has_track_uuid = 1;	/* explicit track 0: the global track */
	emit(p);
}

/* utf8: names, annotation strings and a counter's unit with invalid
 * UTF-8, control bytes and NULs. */
static void fx_utf8(void)
{
	static const char bin[] = "ok\0\xff\xfe\x01zz";
	Nxpf__TracePacket *p;
	Nxpf__TrackEvent *e;
	Nxpf__TrackDescriptor *d;
	Nxpf__CounterDescriptor *c;

	process(1, 700, "Bad\xff name");
	thread(2, 1, 700, 701, "T\x1b[31m");
	e = ev(&p, 1000, INSTANT, 2, "n\xc3\x28x");
	annotate(e, 2, ann_str("blob", bin, sizeof(bin) - 1),
		 ann_str("k\xff", "v", 1));
	emit(p);
	/* a counter whose unit is an escape sequence and a C1 control */
	p = packet(1);
	d = descriptor(p, 3, 1, "gauge");
	c = mem(sizeof(*c));
	nxpf__counter_descriptor__init(c);
	c->unit_name = "\x1b]0;title\x07\xc2\x9b";
	d->counter = c;
	emit(p);
	e = ev(&p, 1500, COUNTER, 3, NULL);
	e->counter_value_field_case =
		NXPF__TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE;
	e->counter_value = 5;
	emit(p);
}

/* The packets raw() collected since bundling began; bundling stops. */
static unsigned char *take_bundle(size_t *len)
{
	unsigned char *b = bundle;

	*len = bundle_len;
	bundle = NULL;
	bundle_len = 0;
	bundling = 0;
	return b;
}

/* One compressed_packets packet holding data zlib-deflated. */
static void emit_compressed(const unsigned char *data, size_t len)
{
	Nxpf__TracePacket *p;
	unsigned char *z;
	uLongf zlen;

	zlen = compressBound(len);
	z = malloc(zlen);
	if (!z || compress(z, &zlen, data, len) != Z_OK)
		abort();
	p = packet(1);
	p->data_case = NXPF__TRACE_PACKET__DATA_COMPRESSED_PACKETS;
	p->compressed_packets.data = z;
	p->compressed_packets.len = zlen;
	emit(p);
	free(z);
}

/* compressed: three packets in one zlib bundle, then one outside. */
static void fx_compressed(void)
{
	unsigned char *b;
	size_t n;

	process(1, 800, "Zip");
	bundling = 1;
	thread(2, 1, 800, 801, "T");
	simple(1000, BEGIN, 2, "zipped");
	simple(2000, END, 2, NULL);
	b = take_bundle(&n);
	emit_compressed(b, n);
	free(b);
	simple(3000, INSTANT, 2, "plain");
}

/* bundle_in_bundle: the second packet is a bundle holding a thread, a
 * bundle of one instant ("deep") and an instant; then one outside. */
static void fx_bundle_in_bundle(void)
{
	unsigned char *inner, *outer;
	size_t ni, no;

	process(1, 800, "Zip");
	bundling = 1;
	simple(1500, INSTANT, 2, "deep");
	inner = take_bundle(&ni);
	bundling = 1;
	thread(2, 1, 800, 801, "T");
	emit_compressed(inner, ni);
	simple(1000, INSTANT, 2, "outer");
	outer = take_bundle(&no);
	emit_compressed(outer, no);
	free(inner);
	free(outer);
	simple(3000, INSTANT, 2, "plain");
}

/* A legacy complete event of 1 µs carrying bind_id 0xfeedfacecafebeef,
 * the id of the typed flow too (legacy ids are apart), flowing in (1),
 * out (2) or both (3). */
static void legacy_flow(uint64_t ts, uint64_t track, const char *name,
			int direction)
{
	Nxpf__TracePacket *p;
	Nxpf__TrackEvent__LegacyEvent *l;

	l = legacy_event(ev(&p, ts, 0, track, name), 'X');
	l->has_duration_us = 1;
	l->duration_us = 1;
	l->has_bind_id = 1;
	l->bind_id = 0xfeedfacecafebeefull;
	l->has_flow_direction = 1;
	l->flow_direction = direction;
	emit(p);
}

/* flows: a flow from a slice on one thread to a slice on another, and a
 * terminating flow on an instant; a flow id no other event names and a
 * terminating id without a start (unpaired ends); legacy events bound
 * out, in and out, and in. */
static void fx_flows(void)
{
	Nxpf__TracePacket *p;
	Nxpf__TrackEvent *e;

	process(1, 900, "Flows");
	thread(2, 1, 900, 901, "A");
	thread(3, 1, 900, 902, "B");
	e = ev(&p, 1000, BEGIN, 2, "send");
	e->n_flow_ids = 1;
	e->flow_ids = mem(sizeof(uint64_t));
	e->flow_ids[0] = 0xfeedfacecafebeefull;
	emit(p);
	simple(1500, END, 2, NULL);
	e = ev(&p, 2000, INSTANT, 3, "recv");
	e->n_terminating_flow_ids = 1;
	e->terminating_flow_ids = mem(sizeof(uint64_t));
	e->terminating_flow_ids[0] = 0xfeedfacecafebeefull;
	emit(p);
	e = ev(&p, 2500, INSTANT, 2, "lonely");
	e->n_flow_ids = 1;
	e->flow_ids = mem(sizeof(uint64_t));
	e->flow_ids[0] = 7;
	emit(p);
	e = ev(&p, 3000, INSTANT, 3, "late");
	e->n_terminating_flow_ids = 1;
	e->terminating_flow_ids = mem(sizeof(uint64_t));
	e->terminating_flow_ids[0] = 9;
	emit(p);
	legacy_flow(4000, 2, "lout", 2);
	legacy_flow(4500, 3, "lstep", 3);
	legacy_flow(5000, 2, "lin", 1);
}

/* An event carrying flow id (terminating or not); name NULL on ends. */
static void flow_ev(uint64_t ts, int type, uint64_t track, const char *name,
		    uint64_t id, int terminating)
{
	Nxpf__TracePacket *p;
	Nxpf__TrackEvent *e = ev(&p, ts, type, track, name);
	uint64_t *ids = mem(sizeof(uint64_t));

	ids[0] = id;
	if (terminating) {
		e->n_terminating_flow_ids = 1;
		e->terminating_flow_ids = ids;
	} else {
		e->n_flow_ids = 1;
		e->flow_ids = ids;
	}
	emit(p);
}

/* flow_order: flows linked in the order their slices begin, however
 * the slices end: a terminating slice ending before the starting one
 * (on another thread, and as its child), a chain of three, an id used
 * again after it was terminated, a flow ended by an end event, and a
 * starting slice still open at the end of the trace. tests/trace.sh
 * lists the pairs by hand. */
static void fx_flow_order(void)
{
	process(1, 700, "Order");
	thread(2, 1, 700, 701, "A");
	thread(3, 1, 700, 702, "B");
	thread(4, 1, 700, 703, "C");
	flow_ev(1000, BEGIN, 2, "outer", 1, 0);
	flow_ev(1100, BEGIN, 3, "quick", 1, 1);
	simple(1200, END, 3, NULL);
	simple(1500, END, 2, NULL);
	flow_ev(2000, BEGIN, 2, "c1", 2, 0);
	flow_ev(2100, BEGIN, 4, "c2", 2, 0);
	simple(2200, END, 4, NULL);
	flow_ev(2300, BEGIN, 3, "c3", 2, 1);
	simple(2400, END, 3, NULL);
	simple(2500, END, 2, NULL);
	flow_ev(3000, BEGIN, 2, "r1", 3, 0);
	simple(3100, END, 2, NULL);
	flow_ev(3200, BEGIN, 3, "r2", 3, 1);
	simple(3300, END, 3, NULL);
	flow_ev(3400, BEGIN, 4, "r3", 3, 0);
	simple(3500, END, 4, NULL);
	flow_ev(3600, BEGIN, 2, "r4", 3, 1);
	simple(3700, END, 2, NULL);
	flow_ev(4000, BEGIN, 2, "parent", 4, 0);
	flow_ev(4100, BEGIN, 2, "child", 4, 1);
	simple(4200, END, 2, NULL);
	simple(4300, END, 2, NULL);
	simple(5000, BEGIN, 2, "e1");
	flow_ev(5050, BEGIN, 3, "e2", 5, 0);
	simple(5060, END, 3, NULL);
	flow_ev(5100, END, 2, NULL, 5, 1);
	flow_ev(6000, BEGIN, 4, "open", 6, 0);
	flow_ev(6100, BEGIN, 3, "closer", 6, 1);
	simple(6200, END, 3, NULL);
}

/* neuron_device: Neuron's own track names and slice args. */
static void fx_neuron_device(void)
{
	Nxpf__TracePacket *p;
	Nxpf__TrackEvent *e;
	static const char *const rows[] = {
		"TensorMatrix Engine - Row 0", "TensorMatrix Engine - Row 1",
		"Tensor Engine - Row 0", "qSyncSpillReload0 - Row 0",
		"DMA Engine 64 - Row 0",
	};

	process(1, 1, "Instructions 1");
	for (int i = 0; i < 5; i++)
		track(10 + (uint64_t)i, 1, rows[i]);
	counter_track(20, 1, "DMA Throughput", 0, 0, 0, 0);
	counter_track(21, 1, "Pending DMA Count", 0, 0, 0, 0);
	e = ev(&p, 2397972, BEGIN, 10, "MATMUL");
	annotate(e, 6, ann_str("opcode", "MATMUL", 6),
		 ann_str("operands", "S[5] (Tensor)++@complete 128*1", 31),
		 ann_str("hlo_name", "%dot.3 = dot(%p0, %p1)", 22),
		 ann_str("layer", "_dot.3", 6),
		 ann_int("id", -7090796317168725471LL),
		 ann_str("label", "TensorMatrix", 12));
	emit(p);
	simple(2398383, END, 10, NULL);
	e = ev(&p, 2398000, BEGIN, 11, "MATMUL");
	annotate(e, 2, ann_uint("id", 10463205956802632105ull),
		 ann_int("pc", 15013));
	emit(p);
	simple(2398100, END, 11, NULL);
	e = ev(&p, 2390000, BEGIN, 12, "LDWEIGHTS");
	annotate(e, 1, ann_str("subgroup", "Tensor", 6));
	emit(p);
	simple(2390082, END, 12, NULL);
	e = ev(&p, 3616, BEGIN, 13, "identity_40");
	annotate(e, 3, ann_int("transfer_size", 2048),
		 ann_str("subgroup", "qSyncSpillReload0-Q1-E0", 23),
		 ann_str("queue_type", "data", 4));
	emit(p);
	simple(3706, END, 13, NULL);
	e = ev(&p, 5000, BEGIN, 14, "unknown");
	annotate(e, 1, ann_int("transfer_size", 64));
	emit(p);
	simple(5100, END, 14, NULL);
	e = ev(&p, 1067, COUNTER, 20, NULL);
	e->counter_value_field_case =
		NXPF__TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE;
	e->counter_value = 1133305000;
	emit(p);
	e = ev(&p, 3332, COUNTER, 21, NULL);
	e->counter_value_field_case =
		NXPF__TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE;
	e->counter_value = 1;
	emit(p);
}

/* neuron_system: a process per instance and pid, runtime rows per core,
 * epoch-ns timestamps, typed args with a device profile link. */
static void fx_neuron_system(void)
{
	Nxpf__TracePacket *p;
	Nxpf__TrackEvent *e;

	process(1, 200370, "i-0f207fb2a99bd2d08-pid200370");
	thread(2, 1, 200370, 3, "gid33-nc1-tid3-neuron_rt");
	thread(3, 1, 200370, 4, "gid33-nc1-tid3-neuron_hw");
	e = ev(&p, 1755115507555244227ull, BEGIN, 2, "nrt_execute");
	annotate(e, 7, ann_str("device_profile",
			       "device_profile_model_1578576049.pftrace", 39),
		 ann_uint("id", 3377699720529031ull),
		 ann_str("instance_id", "i-0f207fb2a99bd2d08", 19),
		 ann_int("nc_idx", 3), ann_int("worker_gid", 35),
		 ann_str("trace_event_source", "neuron_rt", 9),
		 ann_str("model_name", "/tmp/x/file.neff", 16));
	emit(p);
	simple(1755115507555942874ull, END, 2, NULL);
	simple(1755115507555300000ull, BEGIN, 3, "nc_exec_running");
	simple(1755115507555900000ull, END, 3, NULL);
}

/* same: the trace of tests/fixtures/trace_same.json (times in ns). */
static void fx_same(void)
{
	Nxpf__TracePacket *p;
	Nxpf__TrackEvent *e;

	process(1, 10, "Browser");
	thread(2, 1, 10, 11, "Main");
	thread(3, 1, 10, 12, "IO");
	counter_track(4, 1, "Memory", 0, 0, 0, 0);
	e = ev(&p, 1000000, BEGIN, 2, "A");
	categories(e, "cat1");
	emit(p);
	e = ev(&p, 1100500, BEGIN, 2, "B");
	categories(e, "cat1");
	emit(p);
	simple(1200250, END, 2, NULL);
	simple(1250000, INSTANT, 2, "mark");
	simple(1300000, BEGIN, 2, "C");
	simple(1400000, END, 2, NULL);
	simple(1500000, END, 2, NULL);
	e = ev(&p, 1050000, BEGIN, 3, "D");
	annotate(e, 2, ann_int("x", 1), ann_str("s", "hi", 2));
	emit(p);
	simple(1600000, END, 3, NULL);
	simple(1700000, BEGIN, 3, "open");
	e = ev(&p, 1000000, COUNTER, 4, NULL);
	e->counter_value_field_case =
		NXPF__TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE;
	e->counter_value = 5;
	emit(p);
	e = ev(&p, 1500000, COUNTER, 4, NULL);
	e->counter_value_field_case =
		NXPF__TRACK_EVENT__COUNTER_VALUE_FIELD_DOUBLE_COUNTER_VALUE;
	e->double_counter_value = 7.5;
	emit(p);
}

/* truncated: the last packet claims more bytes than the file has. */
static void fx_truncated(void)
{
	static const unsigned char cut[] = { 0x0a, 0x40, 0x08, 0x01 };

	simple(1000, INSTANT, 0, "fine");
	raw(cut, sizeof(cut));
}

static const struct {
	const char *name;
	void (*fn)(void);
} fixtures[] = {
	{ "nested", fx_nested },
	{ "interned", fx_interned },
	{ "clocks", fx_clocks },
	{ "duplicates", fx_duplicates },
	{ "scopes", fx_scopes },
	{ "counters", fx_counters },
	{ "legacy", fx_legacy },
	{ "utf8", fx_utf8 },
	{ "compressed", fx_compressed },
	{ "bundle_in_bundle", fx_bundle_in_bundle },
	{ "flows", fx_flows },
	{ "flow_order", fx_flow_order },
	{ "neuron_device", fx_neuron_device },
	{ "neuron_system", fx_neuron_system },
	{ "same", fx_same },
	{ "truncated", fx_truncated },
};

int main(int argc, char **argv)
{
	char path[4096];

	if (argc != 2) {
		fprintf(stderr, "usage: mkpftrace DIR\n");
		return 2;
	}
	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s.pftrace", argv[1],
			 fixtures[i].name);
		out = fopen(path, "wb");
		if (!out) {
			fprintf(stderr, "mkpftrace: %s: %s\n", path,
				strerror(errno));
			return 1;
		}
		fixtures[i].fn();
		if (fclose(out)) {
			fprintf(stderr, "mkpftrace: %s: write error\n", path);
			return 1;
		}
	}
	return 0;
}
