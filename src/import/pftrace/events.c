/* Perfetto track descriptors and track events as rows, slices, counters
 * and flows. Slices begin and end on a per-track stack; what is still
 * open at the end of the trace is closed there and flagged. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/import/neuron.h"
#include "src/pftrace/args.h"
#include "src/import/pftrace/pftrace.h"

/* 2000-01-01T00:00:00Z in Unix ns: later timestamps are wall-clock. */
#define EPOCH_MIN_NS 946684800000000000LL
/* Parent chains longer than this are cut (they should be 2 or 3). */
#define MAX_PARENTS 32

enum { TE_LEGACY, TE_BEGIN, TE_END, TE_INSTANT, TE_COUNTER, TE_STATE };

void pfev_init(struct pftrace *p)
{
	u64map_init(&p->seqs);
	u64map_init(&p->tracks);
	u64map_init(&p->flows);
	u64map_init(&p->legacy_flows);
	u64map_init(&p->flow_slices);
	p->serials = 0;
	p->links = NULL;
	p->nlinks = p->caplinks = 0;
	p->flush_at = PF_LINK_BATCH;
	strmap_init(&p->thread_ix);
	p->threads = NULL;
	p->nthreads = 0;
	memset(&p->global, 0, sizeof(p->global));
	p->global.described = 1;
	p->global.unit_mult = 1;
	sb_init(&p->tmp);
	sb_init(&p->name);
	memset(&p->inst, 0, sizeof(p->inst));
	sb_init(&p->inst.args);
}

static struct pf_track *track_new(uint64_t uuid)
{
	struct pf_track *t = xcalloc(1, sizeof(*t));

	t->uuid = uuid;
	t->unit_mult = 1;
	return t;
}

static struct pf_track *track_get(struct pftrace *p, uint64_t uuid)
{
	struct pf_track *t;

	if (!uuid)
		return &p->global;
	t = u64map_get(&p->tracks, uuid);
	if (t)
		return t;
	if (p->tracks.n >= PF_MAX_TRACKS) {
		pf_fail(p, "more than %u track descriptors", PF_MAX_TRACKS);
		return NULL;
	}
	t = track_new(uuid);
	u64map_put(&p->tracks, uuid, t);
	return t;
}

/* A thread known only by pid and tid (legacy descriptors, overrides). */
static struct pf_track *thread_track(struct pftrace *p, int32_t pid,
				     int64_t tid)
{
	unsigned char key[sizeof(pid) + sizeof(tid)];
	struct pf_track *t;
	size_t i;

	memcpy(key, &pid, sizeof(pid));
	memcpy(key + sizeof(pid), &tid, sizeof(tid));
	if (strmap_index(&p->thread_ix, key, sizeof(key), &i))
		return p->threads[i];
	t = track_new(0);
	t->described = 1;
	t->is_thread = 1;
	t->pid = pid;
	t->tid = tid;
	p->threads = xreallocarray(p->threads, p->nthreads + 1,
				   sizeof(*p->threads));
	strmap_put_index(&p->thread_ix, key, sizeof(key), p->nthreads);
	p->threads[p->nthreads++] = t;
	return t;
}

static struct tproc *proc_of(struct pftrace *p, int32_t pid)
{
	char buf[16];
	int n = snprintf(buf, sizeof(buf), "%" PRId32, pid);

	return trows_proc(p->rows, buf, (size_t)n);
}

static struct trow *thread_row(struct pftrace *p, int32_t pid, int64_t tid)
{
	char buf[24];
	int n = snprintf(buf, sizeof(buf), "%" PRId64, tid);

	return trows_thread(p->rows, proc_of(p, pid), buf, (size_t)n);
}

static void set_name(char **dst, const char *name)
{
	if (!name || !*name)
		return;
	free(*dst);
	*dst = xstrdup(name);
}

static const char *descriptor_name(const Nxpf__TrackDescriptor *d)
{
	switch (d->static_or_dynamic_name_case) {
	case NXPF__TRACK_DESCRIPTOR__STATIC_OR_DYNAMIC_NAME_NAME:
		return d->name;
	case NXPF__TRACK_DESCRIPTOR__STATIC_OR_DYNAMIC_NAME_STATIC_NAME:
		return d->static_name;
	case NXPF__TRACK_DESCRIPTOR__STATIC_OR_DYNAMIC_NAME_ATRACE_NAME:
		return d->atrace_name;
	default:
		return NULL;
	}
}

static void process_info(struct pftrace *p, struct pf_track *t,
			 const Nxpf__ProcessDescriptor *pd, const char *name,
			 int has_sort, int32_t sort)
{
	struct tproc *proc;

	t->is_process = 1;
	t->pid = pd->pid;
	proc = proc_of(p, pd->pid);
	if (pd->process_name && *pd->process_name)
		name = pd->process_name;
	if (name && *name)
		tproc_set_name(proc, name);
	set_name(&t->name, name);
	if (pd->has_legacy_sort_index)
		tproc_set_sort(proc, pd->legacy_sort_index);
	else if (has_sort)
		tproc_set_sort(proc, sort);
}

static void thread_info(struct pftrace *p, struct pf_track *t,
			const Nxpf__ThreadDescriptor *td, const char *name,
			int has_sort, int32_t sort)
{
	struct trow *row;

	t->is_thread = 1;
	t->pid = td->pid;
	t->tid = td->tid;
	row = thread_row(p, td->pid, td->tid);
	if (td->thread_name && *td->thread_name)
		name = td->thread_name;
	if (name && *name)
		trow_set_name(row, name);
	set_name(&t->name, name);
	if (td->has_legacy_sort_index)
		trow_set_sort(row, td->legacy_sort_index);
	else if (has_sort)
		trow_set_sort(row, sort);
}

static void counter_info(struct pf_track *t, const Nxpf__CounterDescriptor *c)
{
	t->is_counter = 1;
	/* THREAD_TIME_NS and THREAD_INSTRUCTION_COUNT ride on every slice
	 * begin and end of Chrome traces: per-thread CPU accounting that
	 * would double the rows, so it is not imported. */
	t->counter_builtin = c->has_type && (c->type == 1 || c->type == 2);
	t->unit_mult = c->has_unit_multiplier && c->unit_multiplier ?
		       c->unit_multiplier : 1;
	t->incremental = c->has_is_incremental && c->is_incremental;
	free(t->unit);
	t->unit = NULL;
	if (c->unit_name && *c->unit_name)
		t->unit = xstrdup(c->unit_name);
	else if (c->has_unit && c->unit >= 1 && c->unit <= 3)
		t->unit = xstrdup(c->unit == 1 ? "ns" : c->unit == 2 ? "count" : "B");
}

/* Descriptors are re-emitted many times: the latest one wins. */
static int track_descriptor(struct pftrace *p, const Nxpf__TrackDescriptor *d)
{
	const char *name = descriptor_name(d);
	struct pf_track *t;

	if (!d->has_uuid || !d->uuid)
		return 0;
	t = track_get(p, d->uuid);
	if (!t)
		return -1;
	t->described = 1;
	t->has_parent = d->has_parent_uuid && d->parent_uuid != d->uuid;
	t->parent = d->parent_uuid;
	if (d->process)
		process_info(p, t, d->process, name,
			     d->chrome_process && d->chrome_process->has_legacy_sort_index,
			     d->chrome_process ? d->chrome_process->legacy_sort_index : 0);
	if (d->thread)
		thread_info(p, t, d->thread, name,
			    d->chrome_thread && d->chrome_thread->has_legacy_sort_index,
			    d->chrome_thread ? d->chrome_thread->legacy_sort_index : 0);
	if (d->counter)
		counter_info(t, d->counter);
	if (!d->process && !d->thread)
		set_name(&t->name, name);
	if (t->row && !t->is_thread && !t->is_process && t->name)
		trow_set_name(t->row, t->name);
	if (d->has_sibling_order_rank && t->row)
		trow_set_sort(t->row, d->sibling_order_rank);
	return 0;
}

static struct tproc *ancestor_proc(struct pftrace *p, const struct pf_track *t)
{
	for (int i = 0; t && i < MAX_PARENTS; i++) {
		if (t->is_process || t->is_thread)
			return proc_of(p, t->pid);
		if (!t->has_parent)
			break;
		t = u64map_get(&p->tracks, t->parent);
	}
	return NULL;
}

static const char *const neuron_kinds[] = {
	[PFN_NRT] = TK_NRT, [PFN_HW] = TK_HW, [PFN_FRAMEWORK] = TK_FRAMEWORK,
};

/* The kind of a row that is not a Neuron row. Events with no track and
 * events on a process's own track are trace-wide and process-wide events:
 * rows of kind instant, as Chrome JSON's "Global events" and "Process
 * events" are, though here they may hold slices too. */
static const char *row_kind(const struct pftrace *p, const struct pf_track *t,
			    const struct tproc *proc)
{
	if (t->is_counter)
		return TK_COUNTER;
	if (t == &p->global || t->is_process)
		return TK_INSTANT;
	return proc ? TK_ASYNC : TK_THREAD;
}

/* Decides a track's row on its first event. Neuron device tracks have
 * no row of their own: their events go to the Neuron rows. */
static void resolve(struct pftrace *p, struct pf_track *t, int as_counter)
{
	struct tproc *proc = ancestor_proc(p, t);
	const char *name = t->name;

	t->resolved = 1;
	if (as_counter)
		t->is_counter = 1;
	if (t->counter_builtin)
		return;
	if (!name || !*name) {
		sb_reset(&p->name);
		if (t == &p->global)
			sb_adds(&p->name, "Global events");
		else if (t->is_process)
			sb_adds(&p->name, "Process events");
		else if (!t->is_thread)
			sb_printf(&p->name, "Track %" PRIu64, t->uuid);
		name = sb_cstr(&p->name);
	}
	t->nkind = pfn_classify(name, &p->tmp, &t->ncounter);
	if ((t->nkind == PFN_ENGINE || t->nkind == PFN_DMA) && !t->is_counter) {
		t->nlabel = xstrdup(sb_cstr(&p->tmp));
		return;
	}
	if (t->nkind == PFN_COUNTER || t->nkind == PFN_SEMAPHORE) {
		if (t->is_counter)
			return;
		t->nkind = PFN_NONE;
	}
	if (t->nkind >= PFN_NRT) {
		t->row = trows_named(p->rows, proc, neuron_kinds[t->nkind], name);
	} else if (t->is_thread) {
		t->nkind = PFN_NONE;
		t->row = thread_row(p, t->pid, t->tid);
	} else {
		t->nkind = PFN_NONE;
		/* counters keep a row each: threads often have counters of
		 * one name, whose values must not mix */
		t->row = t->is_counter ?
			 trows_unique(p->rows, proc, TK_COUNTER, name) :
			 trows_named(p->rows, proc, row_kind(p, t, proc), name);
		if (t->unit)
			trow_set_unit(t->row, t->unit);
	}
	/* rows shared by several tracks of one name nest by time */
	if (!t->is_thread && !t->is_counter)
		trow_set_flags(p->rows, t->row, TF_NEST_BY_TIME);
	t->track = trow_track(p->rows, t->row);
}

static struct pf_track *event_track(struct pftrace *p,
				    const Nxpf__TrackEvent *te,
				    const struct pf_seq *q)
{
	const Nxpf__TrackEvent__LegacyEvent *le = te->legacy_event;

	if (le && (le->has_pid_override || le->has_tid_override))
		return thread_track(p, le->has_pid_override ? le->pid_override :
				    q->pid, le->has_tid_override ?
				    le->tid_override : q->tid);
	if (te->has_track_uuid)
		return track_get(p, te->track_uuid);
	if (q->has_track)
		return track_get(p, q->track_uuid);
	if (q->has_thread)
		return thread_track(p, q->pid, q->tid);
	return &p->global;
}

static int64_t str_sid(struct pftrace *p, struct pf_str *s)
{
	if (!s->sid)
		s->sid = writer_stringn(p->w, s->s, s->len);
	return s->sid;
}

static int64_t event_name(struct pftrace *p, const Nxpf__TrackEvent *te,
			  const struct pf_seq *q, const char **text)
{
	uint64_t iid = 0;
	int interned = 1;
	struct pf_str *s;

	*text = "";
	if (te->name_field_case == NXPF__TRACK_EVENT__NAME_FIELD_NAME &&
	    te->name) {
		*text = te->name;
		return writer_string(p->w, te->name);
	}
	if (te->name_field_case == NXPF__TRACK_EVENT__NAME_FIELD_NAME_IID)
		iid = te->name_iid;
	else if (te->legacy_event && te->legacy_event->has_name_iid)
		iid = te->legacy_event->name_iid;
	else
		interned = 0;
	s = iid ? pfseq_lookup(q, PF_NAMES, iid) : NULL;
	if (s) {
		*text = s->s;
		return str_sid(p, s);
	}
	if (interned) {
		/* a name never defined: visible, and counted */
		p->n_unknown_name++;
		snprintf(p->unknown_name, sizeof(p->unknown_name),
			 "(unknown name iid %" PRIu64 ")", iid);
		*text = p->unknown_name;
		return writer_string(p->w, p->unknown_name);
	}
	if (!p->empty_name)
		p->empty_name = writer_string(p->w, "");
	return p->empty_name;
}

/* Categories joined with ',' as Chrome JSON writes them; 0 if none. */
static int64_t event_cat(struct pftrace *p, const Nxpf__TrackEvent *te,
			 const struct pf_seq *q)
{
	size_t n = te->n_category_iids + te->n_categories;

	if (!n)
		return 0;
	if (n == 1 && te->n_category_iids) {
		struct pf_str *s = pfseq_lookup(q, PF_CATS, te->category_iids[0]);

		return s ? str_sid(p, s) : 0;
	}
	sb_reset(&p->tmp);
	for (size_t i = 0; i < te->n_category_iids; i++) {
		struct pf_str *s = pfseq_lookup(q, PF_CATS, te->category_iids[i]);

		if (!s)
			continue;
		if (p->tmp.len)
			sb_addc(&p->tmp, ',');
		sb_add(&p->tmp, s->s, s->len);
	}
	for (size_t i = 0; i < te->n_categories; i++) {
		if (p->tmp.len)
			sb_addc(&p->tmp, ',');
		sb_adds(&p->tmp, te->categories[i] ? te->categories[i] : "");
	}
	return p->tmp.len ? writer_stringn(p->w, p->tmp.buf, p->tmp.len) : 0;
}

struct pf_flowend {
	uint64_t id;
	uint64_t serial;	/* the slice of its latest end */
	int64_t ts;
	int linked;		/* a partner came: else an unpaired end */
};

static void link_add(struct pftrace *p, uint64_t id, uint64_t out,
		     uint64_t in)
{
	p->links = xgrow(p->links, &p->caplinks, p->nlinks + 1,
			 sizeof(*p->links));
	p->links[p->nlinks++] = (struct pf_link){ id, out, in };
}

/* Flow ends are linked in the order of the events carrying them, as
 * Perfetto does (a slice's begin before one that begins later, however
 * the two end); of two ends the earlier is the source. An end whose
 * partner never comes is kept as an unpaired end. */
static void flow_link(struct pftrace *p, const struct pf_flowref *f,
		      uint64_t serial, int64_t ts)
{
	struct u64map *map = f->legacy ? &p->legacy_flows : &p->flows;
	struct pf_flowend *e = u64map_get(map, f->id);

	if (e) {
		if (e->ts <= ts)
			link_add(p, f->id, e->serial, serial);
		else
			link_add(p, f->id, serial, e->serial);
		e->linked = 1;
		if (f->terminating) {
			free(u64map_del(map, f->id));
		} else if (ts >= e->ts) {
			e->serial = serial;
			e->ts = ts;
		}
		return;
	}
	if (f->terminating) {
		link_add(p, f->id, 0, serial);
		return;
	}
	if (p->flows.n + p->legacy_flows.n >= PF_MAX_OPEN_FLOWS) {
		p->n_flows_dropped++;
		return;
	}
	e = xmalloc(sizeof(*e));
	e->id = f->id;
	e->serial = serial;
	e->ts = ts;
	e->linked = 0;
	u64map_put(map, f->id, e);
}

static void add_flow(struct pftrace *p, struct pf_open *o, int64_t ts,
		     uint64_t id, int terminating, int legacy)
{
	struct pf_flowref f = { id, terminating, legacy };

	o->flowed = 1;
	flow_link(p, &f, o->serial, ts);
}

/* Flows of slices written as slices (not of Neuron device rows). */
static int track_flows(const struct pf_track *t)
{
	return t->row && !t->is_counter && t->nkind != PFN_ENGINE &&
	       t->nkind != PFN_DMA;
}

/* Legacy flow directions (FORMATS.md §1.5 LegacyEvent). */
enum { LEGACY_FLOW_IN = 1, LEGACY_FLOW_OUT = 2, LEGACY_FLOW_INOUT = 3 };

/* The flow ends an event at ts gives the open slice o. */
static void add_flows(struct pftrace *p, const struct pf_track *t,
		      struct pf_open *o, int64_t ts, const Nxpf__TrackEvent *te)
{
	const Nxpf__TrackEvent__LegacyEvent *le = te->legacy_event;

	if (!track_flows(t))
		return;
	for (size_t i = 0; i < te->n_flow_ids; i++)
		add_flow(p, o, ts, te->flow_ids[i], 0, 0);
	for (size_t i = 0; i < te->n_flow_ids_old; i++)
		add_flow(p, o, ts, te->flow_ids_old[i], 0, 0);
	for (size_t i = 0; i < te->n_terminating_flow_ids; i++)
		add_flow(p, o, ts, te->terminating_flow_ids[i], 1, 0);
	for (size_t i = 0; i < te->n_terminating_flow_ids_old; i++)
		add_flow(p, o, ts, te->terminating_flow_ids_old[i], 1, 0);
	/* in ends a flow, out starts one, both continue it */
	if (le && le->has_bind_id && le->has_flow_direction &&
	    le->flow_direction >= LEGACY_FLOW_IN &&
	    le->flow_direction <= LEGACY_FLOW_INOUT)
		add_flow(p, o, ts, le->bind_id,
			 le->flow_direction == LEGACY_FLOW_IN, 1);
}

/* Fills an open slice from its first event. */
static void open_fill(struct pftrace *p, struct pf_track *t, struct pf_open *o,
		      int64_t ts, const Nxpf__TrackEvent *te,
		      const struct pf_seq *q)
{
	const char *text;

	o->ts = ts;
	o->name = event_name(p, te, q, &text);
	o->cat = event_cat(p, te, q);
	sb_reset(&o->args);
	o->serial = ++p->serials;
	o->flowed = 0;
	cJSON_Delete(o->fields);
	o->fields = NULL;
	if (t->nkind != PFN_NONE) {
		o->fields = cJSON_CreateObject();
		pfargs_cjson(o->fields, te->debug_annotations,
			     te->n_debug_annotations, q);
		pfn_begin_fields(t, o->fields, text);
	} else {
		pfargs_json(&o->args, te->debug_annotations,
			    te->n_debug_annotations, q);
	}
	add_flows(p, t, o, ts, te);
}

static int64_t link_slice(const struct pftrace *p, uint64_t serial)
{
	return serial ? (intptr_t)u64map_get(&p->flow_slices, serial) : 0;
}

/* Writes the links whose slices are written, keeping the others; with
 * all, every link (a slice left out is a missing end). */
static void links_write(struct pftrace *p, int all)
{
	size_t kept = 0;
	struct wid id;

	for (size_t i = 0; i < p->nlinks; i++) {
		const struct pf_link *l = &p->links[i];
		int64_t out = link_slice(p, l->out), in = link_slice(p, l->in);

		if (!all && ((l->out && !out) || (l->in && !in))) {
			p->links[kept++] = *l;
			continue;
		}
		if (!out && !in)
			continue;
		wid_from_u64(&id, l->id);
		writer_flow(p->w, &id, out, in, "flow");
	}
	p->nlinks = kept;
}

struct keep {
	const struct u64map *from;
	struct u64map to;
};

static void keep_serial(struct keep *k, uint64_t serial)
{
	void *v = serial ? u64map_get(k->from, serial) : NULL;

	if (v)
		u64map_put(&k->to, serial, v);
}

static void keep_end(void *ctx, void *val)
{
	keep_serial(ctx, ((struct pf_flowend *)val)->serial);
}

/* Links are written in batches as their slices are; the slice ids kept
 * are those that links still waiting and flows still open name, so the
 * memory follows what is open rather than the whole trace. */
static void links_flush(struct pftrace *p)
{
	struct keep k = { .from = &p->flow_slices };

	links_write(p, 0);
	u64map_init(&k.to);
	for (size_t i = 0; i < p->nlinks; i++) {
		keep_serial(&k, p->links[i].out);
		keep_serial(&k, p->links[i].in);
	}
	u64map_each(&p->flows, keep_end, &k);
	u64map_each(&p->legacy_flows, keep_end, &k);
	u64map_free(&p->flow_slices, NULL);
	p->flow_slices = k.to;
	p->flush_at = 2 * p->nlinks + PF_LINK_BATCH;
}

/* Writes an open slice as it ends. */
static int open_write(struct pftrace *p, struct pf_track *t, struct pf_open *o,
		      int64_t dur, unsigned flags, int depth)
{
	int64_t slice;

	if (t->nkind == PFN_ENGINE || t->nkind == PFN_DMA) {
		cJSON *f = o->fields;

		o->fields = NULL;
		return pfn_device_slice(p, t, o->ts, dur, f);
	}
	if (!t->row || t->is_counter)
		return 0;
	if (t->nkind != PFN_NONE) {
		slice = pfn_system_slice(p, t, o->ts, dur, o->name, o->cat, depth,
					 flags, o->fields);
		o->fields = NULL;
	} else {
		slice = writer_slice(p->w, t->track, o->ts, dur, o->name, o->cat,
				     depth, flags);
		if (o->args.len)
			writer_slice_args(p->w, slice, sb_cstr(&o->args));
	}
	if (o->flowed && slice)
		u64map_put(&p->flow_slices, o->serial, (void *)(intptr_t)slice);
	if (p->nlinks >= p->flush_at)
		links_flush(p);
	return 0;
}

static struct pf_open *push(struct pf_track *t)
{
	if (t->depth == t->cap) {
		size_t old = t->cap;

		t->stack = xgrow(t->stack, &t->cap, t->depth + 1,
				 sizeof(*t->stack));
		memset(t->stack + old, 0, (t->cap - old) * sizeof(*t->stack));
		for (size_t i = old; i < t->cap; i++)
			sb_init(&t->stack[i].args);
	}
	return &t->stack[t->depth++];
}

static int slice_begin(struct pftrace *p, struct pf_track *t, int64_t ts,
		       const Nxpf__TrackEvent *te, const struct pf_seq *q)
{
	if (t->depth >= PF_MAX_DEPTH) {
		t->overflow++;
		p->n_overflow++;
		return 0;
	}
	open_fill(p, t, push(t), ts, te, q);
	return 0;
}

static int slice_end(struct pftrace *p, struct pf_track *t, int64_t ts,
		     const Nxpf__TrackEvent *te, const struct pf_seq *q)
{
	struct pf_open *o;
	int rc;

	if (t->overflow) {
		t->overflow--;
		return 0;
	}
	if (!t->depth) {
		p->n_unmatched_end++;
		return 0;
	}
	o = &t->stack[t->depth - 1];
	/* end args join the slice's, as Perfetto merges them */
	if (o->fields)
		pfargs_cjson(o->fields, te->debug_annotations,
			     te->n_debug_annotations, q);
	else
		pfargs_json(&o->args, te->debug_annotations,
			    te->n_debug_annotations, q);
	add_flows(p, t, o, ts, te);
	rc = open_write(p, t, o, ts - o->ts, 0, (int)t->depth - 1);
	t->depth--;
	return rc;
}

/* Instants, and legacy complete events with their own duration. */
static int single(struct pftrace *p, struct pf_track *t, int64_t ts,
		  int64_t dur, unsigned flags, const Nxpf__TrackEvent *te,
		  const struct pf_seq *q)
{
	open_fill(p, t, &p->inst, ts, te, q);
	return open_write(p, t, &p->inst, dur, flags, (int)t->depth);
}

/* A state track holds one state at a time: each event ends the last. */
static int state(struct pftrace *p, struct pf_track *t, int64_t ts,
		 const Nxpf__TrackEvent *te, const struct pf_seq *q)
{
	if (t->depth) {
		struct pf_open *o = &t->stack[--t->depth];

		if (open_write(p, t, o, ts - o->ts, 0, 0))
			return -1;
	}
	return slice_begin(p, t, ts, te, q);
}

static void counter_sample(struct pftrace *p, struct pf_track *t, int64_t ts,
			   double v)
{
	if (!t->resolved)
		resolve(p, t, 1);
	if (t->counter_builtin)
		return;
	if (t->unit_mult != 1)
		v *= (double)t->unit_mult;
	/* left out and said; a NaN in an incremental counter's sum would
	 * make every later value NaN */
	if (!isfinite(v) || (t->incremental && !isfinite(t->acc + v))) {
		p->n_nonfinite++;
		return;
	}
	if (t->incremental) {
		t->acc += v;
		v = t->acc;
	}
	if (t->nkind == PFN_COUNTER || t->nkind == PFN_SEMAPHORE)
		pfn_counter(p, t, ts, v);
	else if (t->row && t->is_counter)
		writer_counter(p->w, t->track, ts, v);
}

/* Extra counter values go to the tracks listed on the event or in the
 * sequence's defaults, value i to track i. */
static int extra_counters(struct pftrace *p, const Nxpf__TrackEvent *te,
			  const struct pf_seq *q, int64_t ts)
{
	const uint64_t *ids = te->n_extra_counter_track_uuids ?
			      te->extra_counter_track_uuids : q->extra_counter;
	size_t nids = te->n_extra_counter_track_uuids ?
		      te->n_extra_counter_track_uuids : q->n_extra_counter;
	const uint64_t *dids = te->n_extra_double_counter_track_uuids ?
			       te->extra_double_counter_track_uuids :
			       q->extra_double;
	size_t ndids = te->n_extra_double_counter_track_uuids ?
		       te->n_extra_double_counter_track_uuids : q->n_extra_double;

	for (size_t i = 0; i < te->n_extra_counter_values && i < nids; i++) {
		struct pf_track *t = track_get(p, ids[i]);

		if (!t)
			return -1;
		counter_sample(p, t, ts, (double)te->extra_counter_values[i]);
	}
	for (size_t i = 0; i < te->n_extra_double_counter_values && i < ndids; i++) {
		struct pf_track *t = track_get(p, dids[i]);

		if (!t)
			return -1;
		counter_sample(p, t, ts, te->extra_double_counter_values[i]);
	}
	return 0;
}

/* Events without a type: legacy JSON-style phases. */
static int legacy(struct pftrace *p, struct pf_track *t, int64_t ts,
		  const Nxpf__TrackEvent *te, const struct pf_seq *q)
{
	const Nxpf__TrackEvent__LegacyEvent *le = te->legacy_event;
	int phase = le && le->has_phase ? le->phase : 'I';
	int64_t dur = 0;

	switch (phase) {
	case 'B':
		return slice_begin(p, t, ts, te, q);
	case 'E':
		return slice_end(p, t, ts, te, q);
	case 'X':
		if (le->has_duration_us &&
		    __builtin_mul_overflow(le->duration_us, (int64_t)1000, &dur))
			dur = -1;
		if (t->row)
			trow_set_flags(p->rows, t->row, TF_NEST_BY_TIME);
		if (dur > 0 && ts <= INT64_MAX - dur && ts + dur > p->max_ts)
			p->max_ts = ts + dur;
		return single(p, t, ts, dur, 0, te, q);
	default:
		return single(p, t, ts, 0, SF_INSTANT, te, q);
	}
}

static void note_ts(struct pftrace *p, int64_t ts)
{
	if (!p->have_ts) {
		p->min_ts = p->max_ts = ts;
		p->have_ts = 1;
	} else if (ts < p->min_ts) {
		p->min_ts = ts;
	} else if (ts > p->max_ts) {
		p->max_ts = ts;
	}
}

/* The packet's time on the trace timeline. 1 if it has none. */
static int packet_time(struct pftrace *p, const Nxpf__TracePacket *pk,
		       struct pf_seq *q, int64_t *ts)
{
	const Nxpf__TrackEvent *te = pk->track_event;
	uint32_t clock = pk->has_timestamp_clock_id ? pk->timestamp_clock_id :
			 q->has_clock ? q->clock_id : PF_CLOCK_BOOTTIME;
	int64_t us;

	if (pk->has_timestamp) {
		if (!pfclk_convert(p->clocks, q->id, clock, pk->timestamp, ts))
			return 0;
		p->n_bad_clock++;
		return 1;
	}
	/* deprecated µs timestamps, absolute or relative to the thread's */
	if (te && te->timestamp_case ==
		  NXPF__TRACK_EVENT__TIMESTAMP_TIMESTAMP_ABSOLUTE_US)
		q->ref_us = te->timestamp_absolute_us;
	else if (te && te->timestamp_case ==
		       NXPF__TRACK_EVENT__TIMESTAMP_TIMESTAMP_DELTA_US)
		q->ref_us += te->timestamp_delta_us;
	else
		return 1;
	us = q->ref_us;
	if (__builtin_mul_overflow(us, (int64_t)1000, ts)) {
		p->n_bad_clock++;
		return 1;
	}
	return 0;
}

static int track_event(struct pftrace *p, const Nxpf__TracePacket *pk,
		       struct pf_seq *q)
{
	const Nxpf__TrackEvent *te = pk->track_event;
	int type = te->has_type ? te->type : TE_LEGACY;
	struct pf_track *t;
	int64_t ts;
	double v;

	if (packet_time(p, pk, q, &ts)) {
		p->n_no_ts++;
		return 0;
	}
	t = event_track(p, te, q);
	if (!t)
		return -1;
	if (!t->resolved)
		resolve(p, t, type == TE_COUNTER);
	note_ts(p, ts);
	switch (type) {
	case TE_BEGIN:
		if (slice_begin(p, t, ts, te, q))
			return -1;
		break;
	case TE_END:
		if (slice_end(p, t, ts, te, q))
			return -1;
		break;
	case TE_INSTANT:
		if (single(p, t, ts, 0, SF_INSTANT, te, q))
			return -1;
		break;
	case TE_COUNTER:
		if (te->counter_value_field_case ==
		    NXPF__TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE)
			v = (double)te->counter_value;
		else if (te->counter_value_field_case ==
			 NXPF__TRACK_EVENT__COUNTER_VALUE_FIELD_DOUBLE_COUNTER_VALUE)
			v = te->double_counter_value;
		else
			break;
		counter_sample(p, t, ts, v);
		break;
	case TE_STATE:
		if (state(p, t, ts, te, q))
			return -1;
		break;
	case TE_LEGACY:
		if (legacy(p, t, ts, te, q))
			return -1;
		break;
	default:
		break;
	}
	return extra_counters(p, te, q, ts);
}

static void legacy_process(struct pftrace *p, const Nxpf__ProcessDescriptor *d)
{
	struct tproc *proc = proc_of(p, d->pid);

	if (d->process_name && *d->process_name)
		tproc_set_name(proc, d->process_name);
	if (d->has_legacy_sort_index)
		tproc_set_sort(proc, d->legacy_sort_index);
}

/* A sequence's thread: events without a track belong to it. */
static void legacy_thread(struct pftrace *p, struct pf_seq *q,
			  const Nxpf__ThreadDescriptor *d)
{
	struct pf_track *t = thread_track(p, d->pid, d->tid);

	q->has_thread = 1;
	q->pid = d->pid;
	q->tid = d->tid;
	if (d->has_reference_timestamp_us)
		q->ref_us = d->reference_timestamp_us;
	thread_info(p, t, d, NULL, 0, 0);
}

static int dispatch(struct pftrace *p, const Nxpf__TracePacket *pk,
		    struct pf_seq *q)
{
	switch (pk->data_case) {
	case NXPF__TRACE_PACKET__DATA_TRACK_EVENT:
		return track_event(p, pk, q);
	case NXPF__TRACE_PACKET__DATA_TRACK_DESCRIPTOR:
		return track_descriptor(p, pk->track_descriptor);
	case NXPF__TRACE_PACKET__DATA_PROCESS_DESCRIPTOR:
		legacy_process(p, pk->process_descriptor);
		return 0;
	case NXPF__TRACE_PACKET__DATA_THREAD_DESCRIPTOR:
		legacy_thread(p, q, pk->thread_descriptor);
		return 0;
	default:
		return 0;
	}
}

int pfev_packet(struct pftrace *p, const Nxpf__TracePacket *pk,
		struct pf_seq *q)
{
	if (dispatch(p, pk, q))
		return -1;
	if (trows_count(p->rows) > TROWS_MAX || p->nthreads > PF_MAX_TRACKS)
		return pf_fail(p, "more than %zu processes, threads and rows",
			       TROWS_MAX);
	return 0;
}

/* Slices still open at the end of the trace end there. */
static void close_open(void *ctx, void *val)
{
	struct pftrace *p = ctx;
	struct pf_track *t = val;

	while (t->depth) {
		struct pf_open *o = &t->stack[--t->depth];

		open_write(p, t, o, p->max_ts - o->ts, SF_UNTERMINATED,
			   (int)t->depth);
	}
}

static void warn(struct pftrace *p, uint64_t n, const char *what)
{
	char *msg;

	if (!n)
		return;
	msg = xasprintf("%" PRIu64 " %s", n, what);
	writer_warning(p->w, p->im->profile, "import", "Import", msg);
	free(msg);
}

/* Names where the first skipped bundle was, as an error would. */
static void nested_bundles(struct pftrace *p)
{
	char *what;

	if (!p->n_nested_bundles)
		return;
	what = xasprintf("compressed packet bundle(s) inside another"
			 " compressed bundle were skipped, the first in"
			 " \"packet\"[%" PRIu64 "] at byte %" PRIu64 ": nxtop"
			 " reads bundles one level deep, as Perfetto writes"
			 " them", p->first_nested.index,
			 p->first_nested.offset);
	warn(p, p->n_nested_bundles, what);
	free(what);
}

static void warnings(struct pftrace *p)
{
	warn(p, p->n_skipped_state, "packet(s) needing interned data that"
	     " was lost were skipped");
	warn(p, p->n_unmatched_end, "slice end(s) without a begin were ignored");
	warn(p, p->n_no_ts, "track event(s) without a usable timestamp were"
	     " skipped");
	warn(p, p->n_overflow, "slice(s) nested deeper than 1024 levels were"
	     " dropped");
	warn(p, p->n_flows_dropped, "flow(s) beyond the open-flow limit were"
	     " dropped");
	warn(p, p->n_nonfinite, "counter value(s) that are no finite number"
	     " (NaN or infinity) were left out");
	warn(p, p->n_unknown_name, "event(s) naming an interned name that"
	     " was never defined were named (unknown name iid N)");
	warn(p, p->n_zstd, "zstd-compressed packet bundle(s) were skipped"
	     " (only deflate is supported)");
	nested_bundles(p);
	warn(p, pfclk_unconverted(p->clocks), "timestamp(s) in a clock no"
	     " snapshot relates to the trace clock were used as they are");
}

static void flow_unpaired(void *ctx, void *val)
{
	struct pftrace *p = ctx;
	struct pf_flowend *e = val;

	if (!e->linked)
		link_add(p, e->id, e->serial, 0);
}

int pfev_finish(struct pftrace *p)
{
	u64map_each(&p->tracks, close_open, p);
	for (size_t i = 0; i < p->nthreads; i++)
		close_open(p, p->threads[i]);
	close_open(p, &p->global);
	u64map_each(&p->flows, flow_unpaired, p);
	u64map_each(&p->legacy_flows, flow_unpaired, p);
	links_write(p, 1);
	warnings(p);
	if (p->have_ts && p->min_ts >= EPOCH_MIN_NS)
		writer_profile_set(p->w, p->im->profile, "epoch", "1");
	neuron_end(p->neuron);
	p->neuron = NULL;
	trows_finish(p->rows);
	p->rows = NULL;
	return writer_failed(p->w) ? -1 : 0;
}

static void open_free(struct pf_open *o)
{
	sb_free(&o->args);
	cJSON_Delete(o->fields);
}

static void track_clear(struct pf_track *t)
{
	for (size_t i = 0; i < t->cap; i++)
		open_free(&t->stack[i]);
	free(t->stack);
	free(t->name);
	free(t->nlabel);
	free(t->unit);
}

static void track_free(void *val)
{
	track_clear(val);
	free(val);
}

static void seq_free(void *val)
{
	pfseq_free(val);
	free(val);
}

void pfev_free(struct pftrace *p)
{
	u64map_free(&p->tracks, track_free);
	for (size_t i = 0; i < p->nthreads; i++)
		track_free(p->threads[i]);
	free(p->threads);
	strmap_free(&p->thread_ix, NULL);
	track_clear(&p->global);
	u64map_free(&p->flows, free);
	u64map_free(&p->legacy_flows, free);
	u64map_free(&p->flow_slices, NULL);
	free(p->links);
	u64map_free(&p->seqs, seq_free);
	open_free(&p->inst);
	sb_free(&p->tmp);
	sb_free(&p->name);
	trows_free(p->rows);
	neuron_end(p->neuron);
}
