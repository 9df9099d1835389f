/* Generates the traces of bench/trace.sh: one synthetic event stream
 * shaped like a Chrome trace (8 threads in 2 processes, slices nested up
 * to 4 deep, instants, counters, interned names, incremental µs clocks,
 * thread-time extra counters on every slice event), written as
 *
 *   gen_trace pftrace N FILE   N Perfetto track events
 *   gen_trace json-x N FILE    N Chrome JSON events, slices as X
 *   gen_trace json-be N FILE   N Chrome JSON events, slices as B/E
 *   gen_trace pftrace-flows N FILE   the pftrace events, half their
 *                              slices linked across threads by
 *                              flow_ids / terminating_flow_ids;
 *                              says on stderr how many flows it
 *                              started and how many never ended
 *
 * Perfetto packets are encoded by hand (the importer's decoder is the
 * code under test). The JSON is unsorted the way real files are: X
 * events are written when their slice ends. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 8
#define NAMES 100
#define MAX_DEPTH 4
#define RUN 64			/* events per thread before switching */
#define COUNTERS 4

struct buf {
	unsigned char *p;
	size_t n, cap;
};

static void put(struct buf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void varint(struct buf *b, uint64_t v)
{
	unsigned char t[10];
	size_t n = 0;

	do {
		t[n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	put(b, t, n);
}

static void field_varint(struct buf *b, unsigned field, uint64_t v)
{
	varint(b, (uint64_t)field << 3);
	varint(b, v);
}

static void field_bytes(struct buf *b, unsigned field, const void *p, size_t n)
{
	varint(b, (uint64_t)field << 3 | 2);
	varint(b, n);
	put(b, p, n);
}

static void field_fixed64(struct buf *b, unsigned field, uint64_t v)
{
	unsigned char t[8];

	for (int i = 0; i < 8; i++)
		t[i] = (unsigned char)(v >> (8 * i));
	varint(b, (uint64_t)field << 3 | 1);
	put(b, t, 8);
}

static void field_msg(struct buf *b, unsigned field, struct buf *m)
{
	field_bytes(b, field, m->p, m->n);
	m->n = 0;
}

static FILE *out;
static struct buf pkt, te, sub, sub2;

static void emit_packet(void)
{
	struct buf head = { 0 };

	field_msg(&head, 1, &pkt);
	if (fwrite(head.p, 1, head.n, out) != head.n)
		abort();
	free(head.p);
}

/* xorshift: the same stream on every run */
static uint64_t rng = 88172645463325252ull;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

enum { BEGIN = 1, END = 2, INSTANT = 3, COUNTER = 4 };

struct thread {
	int pid, tid;
	uint64_t uuid, time_uuid;
	uint64_t now_us, last_us;	/* clock 64 */
	int depth;
	int stack_name[MAX_DEPTH];
	uint64_t stack_ts[MAX_DEPTH];
	unsigned char interned[NAMES];
	int started;
	uint64_t thread_time;
};

static struct thread threads[THREADS];

/* pftrace-flows: flows from one thread's slice to another's. Their own
 * random stream, so the slices are those of pftrace. */
static int with_flows;
static uint64_t flow_rng = 2463534242ull, next_flow = 1;
#define PENDING 16
static uint64_t pending[THREADS][PENDING];	/* flows each thread started */
static int npending[THREADS];

static uint32_t flow_rnd(uint32_t n)
{
	flow_rng ^= flow_rng << 13;
	flow_rng ^= flow_rng >> 7;
	flow_rng ^= flow_rng << 17;
	return (uint32_t)(flow_rng % n);
}

/* Half the slices of thread t end the latest flow another thread
 * started (the first found from a random one), or start one of their
 * own. */
static void flow_fields(struct thread *t)
{
	int me = (int)(t - threads), from = (int)flow_rnd(THREADS - 1);

	if (flow_rnd(2))
		return;
	for (int k = 0; k < THREADS - 1; k++) {
		int o = (me + 1 + (from + k) % (THREADS - 1)) % THREADS;

		if (npending[o]) {
			field_fixed64(&te, 48, pending[o][--npending[o]]);
			return;
		}
	}
	if (npending[me] < PENDING) {
		pending[me][npending[me]] = next_flow++;
		field_fixed64(&te, 47, pending[me][npending[me]++]);
	}
}

/* The flows still pending are those without an end. */
static void flows_report(void)
{
	int open = 0;

	for (int i = 0; i < THREADS; i++)
		open += npending[i];
	fprintf(stderr, "gen_trace: %" PRIu64 " flows, %d without an end\n",
		next_flow - 1, open);
}

/* The next event of a thread: its kind, name and counter. */
static int next_event(struct thread *t, int *name, int *counter)
{
	uint32_t r = rnd(100);

	t->now_us += 1 + rnd(10);
	*name = (int)rnd(NAMES);
	*counter = (int)rnd(COUNTERS);
	if (t->depth < MAX_DEPTH && r < 45)
		return BEGIN;
	if (t->depth > 0 && r < 85)
		return END;
	return r < 93 ? INSTANT : COUNTER;
}

static void descriptors(void)
{
	char name[32];

	for (int p = 0; p < 2; p++) {
		field_varint(&sub, 1, (uint64_t)(1000 + p));
		snprintf(name, sizeof(name), "Process %d", p);
		field_bytes(&sub, 6, name, strlen(name));
		field_varint(&te, 1, (uint64_t)(p + 1));
		field_msg(&te, 3, &sub);
		field_varint(&pkt, 10, 1);
		field_msg(&pkt, 60, &te);
		emit_packet();
	}
	for (int c = 0; c < COUNTERS; c++) {
		snprintf(name, sizeof(name), "counter %d", c);
		field_varint(&te, 1, (uint64_t)(50 + c));
		field_varint(&te, 5, 1);
		field_bytes(&te, 10, name, strlen(name));
		field_msg(&te, 8, &sub);
		field_varint(&pkt, 10, 1);
		field_msg(&pkt, 60, &te);
		emit_packet();
	}
	for (int i = 0; i < THREADS; i++) {
		struct thread *t = &threads[i];

		field_varint(&sub, 1, (uint64_t)t->pid);
		field_varint(&sub, 2, (uint64_t)t->tid);
		snprintf(name, sizeof(name), "Thread %d", i);
		field_bytes(&sub, 5, name, strlen(name));
		field_varint(&te, 1, t->uuid);
		field_varint(&te, 5, (uint64_t)(t->pid - 999));
		field_msg(&te, 4, &sub);
		field_varint(&pkt, 10, 1);
		field_msg(&pkt, 60, &te);
		emit_packet();
		/* the thread-time counter Chrome attaches to every slice event */
		field_varint(&sub, 1, 1);
		field_varint(&sub, 4, 1000);
		field_varint(&sub, 5, 1);
		field_varint(&te, 1, t->time_uuid);
		field_varint(&te, 5, t->uuid);
		field_msg(&te, 8, &sub);
		field_varint(&pkt, 10, 1);
		field_msg(&pkt, 60, &te);
		emit_packet();
	}
}

/* First packet of a thread's sequence: state cleared, defaults, clocks. */
static void sequence_start(struct thread *t, uint32_t seq)
{
	/* defaults: clock 64, the thread's track and thread-time counter */
	field_varint(&sub2, 11, t->uuid);
	field_varint(&sub2, 31, t->time_uuid);
	field_varint(&sub, 58, 64);
	field_msg(&sub, 11, &sub2);
	field_msg(&pkt, 59, &sub);
	/* clocks: MONOTONIC ns and clock 64 in µs, incremental */
	field_varint(&sub2, 1, 3);
	field_varint(&sub2, 2, t->now_us * 1000);
	field_msg(&sub, 1, &sub2);
	field_varint(&sub2, 1, 64);
	field_varint(&sub2, 2, t->now_us);
	field_varint(&sub2, 3, 1);
	field_varint(&sub2, 4, 1000);
	field_msg(&sub, 1, &sub2);
	field_varint(&sub, 2, 3);
	field_msg(&pkt, 6, &sub);
	field_varint(&pkt, 10, seq);
	field_varint(&pkt, 13, 1);
	emit_packet();
	t->last_us = t->now_us;
	t->started = 1;
}

static void pf_event(struct thread *t, uint32_t seq, int type, int name,
		     int counter)
{
	char text[32];

	field_varint(&pkt, 8, t->now_us - t->last_us);
	t->last_us = t->now_us;
	field_varint(&pkt, 10, seq);
	field_varint(&pkt, 13, 2);
	if (type != END && type != COUNTER && !t->interned[name]) {
		t->interned[name] = 1;
		snprintf(text, sizeof(text), "slice_name_%d", name);
		field_varint(&sub2, 1, (uint64_t)name + 1);
		field_bytes(&sub2, 2, text, strlen(text));
		field_msg(&sub, 2, &sub2);
		field_varint(&sub2, 1, 1);
		field_bytes(&sub2, 2, "toplevel", 8);
		field_msg(&sub, 1, &sub2);
		field_varint(&sub2, 1, 1);
		field_bytes(&sub2, 2, "arg", 3);
		field_msg(&sub, 3, &sub2);
		field_msg(&pkt, 12, &sub);
	}
	field_varint(&te, 9, (uint64_t)type);
	if (type == COUNTER) {
		field_varint(&te, 11, (uint64_t)(50 + counter));
		field_varint(&te, 30, (uint64_t)rnd(1000));
	} else if (type != END) {
		field_varint(&te, 3, 1);
		field_varint(&te, 10, (uint64_t)name + 1);
		if (name % 5 == 0) {
			field_varint(&sub, 1, 1);
			field_varint(&sub, 4, (uint64_t)name);
			field_msg(&te, 4, &sub);
		}
	}
	if (type == BEGIN || type == END) {
		t->thread_time += 1 + rnd(5);
		field_varint(&te, 12, t->thread_time);
	}
	if (type == BEGIN && with_flows)
		flow_fields(t);
	field_msg(&pkt, 11, &te);
	emit_packet();
}

static void json_event(struct thread *t, int type, int name, int counter,
		       int be, uint64_t *n)
{
	uint64_t ts;
	int d;

	switch (type) {
	case BEGIN:
		d = t->depth;
		t->stack_name[d] = name;
		t->stack_ts[d] = t->now_us;
		if (be) {
			fprintf(out, ",\n{\"ph\":\"B\",\"pid\":%d,\"tid\":%d,"
				"\"name\":\"slice_name_%d\",\"cat\":\"toplevel\","
				"\"ts\":%" PRIu64 ".%03u", t->pid, t->tid, name,
				t->now_us, rnd(1000));
			if (name % 5 == 0)
				fprintf(out, ",\"args\":{\"arg\":%d}", name);
			fputc('}', out);
			++*n;
		}
		return;
	case END:
		d = t->depth - 1;
		ts = t->stack_ts[d];
		if (be)
			fprintf(out, ",\n{\"ph\":\"E\",\"pid\":%d,\"tid\":%d,"
				"\"ts\":%" PRIu64 "}", t->pid, t->tid, t->now_us);
		else
			fprintf(out, ",\n{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,"
				"\"name\":\"slice_name_%d\",\"cat\":\"toplevel\","
				"\"ts\":%" PRIu64 ",\"dur\":%" PRIu64 "%s}", t->pid,
				t->tid, t->stack_name[d], ts, t->now_us - ts,
				t->stack_name[d] % 5 ? "" : ",\"args\":{\"arg\":1}");
		++*n;
		return;
	case INSTANT:
		fprintf(out, ",\n{\"ph\":\"i\",\"pid\":%d,\"tid\":%d,\"s\":\"t\","
			"\"name\":\"slice_name_%d\",\"ts\":%" PRIu64 "}", t->pid,
			t->tid, name, t->now_us);
		++*n;
		return;
	default:
		fprintf(out, ",\n{\"ph\":\"C\",\"pid\":%d,\"name\":\"counter %d\","
			"\"ts\":%" PRIu64 ",\"args\":{\"value\":%u}}", t->pid,
			counter, t->now_us, rnd(1000));
		++*n;
	}
}

int main(int argc, char **argv)
{
	uint64_t n = 0, want;
	int json, be;

	if (argc != 4 || (strcmp(argv[1], "pftrace") && strcmp(argv[1], "json-x") &&
			  strcmp(argv[1], "json-be") &&
			  strcmp(argv[1], "pftrace-flows"))) {
		fprintf(stderr, "usage: gen_trace pftrace|pftrace-flows|json-x|"
			"json-be N FILE\n");
		return 2;
	}
	with_flows = !strcmp(argv[1], "pftrace-flows");
	json = argv[1][0] == 'j';
	be = !strcmp(argv[1], "json-be");
	want = strtoull(argv[2], NULL, 10);
	out = fopen(argv[3], "wb");
	if (!out) {
		perror(argv[3]);
		return 1;
	}
	for (int i = 0; i < THREADS; i++) {
		threads[i] = (struct thread){ .pid = 1000 + i % 2,
					      .tid = 2000 + i,
					      .uuid = 100 + (uint64_t)i,
					      .time_uuid = 200 + (uint64_t)i,
					      .now_us = 1000000 };
	}
	if (json)
		fputs("{\"traceEvents\":[\n{\"ph\":\"M\",\"pid\":1000,\"name\":"
		      "\"process_name\",\"args\":{\"name\":\"Process 0\"}}", out);
	else
		descriptors();
	while (n < want) {
		for (int i = 0; i < THREADS && n < want; i++) {
			struct thread *t = &threads[i];

			if (!json && !t->started)
				sequence_start(t, (uint32_t)(10 + i));
			for (int k = 0; k < RUN && n < want; k++) {
				int name, counter;
				int type = next_event(t, &name, &counter);

				if (json) {
					json_event(t, type, name, counter, be, &n);
				} else {
					pf_event(t, (uint32_t)(10 + i), type, name,
						 counter);
					n++;
				}
				if (type == BEGIN)
					t->depth++;
				else if (type == END)
					t->depth--;
			}
		}
	}
	if (json)
		fputs("\n]}\n", out);
	if (with_flows)
		flows_report();
	free(pkt.p);
	free(te.p);
	free(sub.p);
	free(sub2.p);
	return fclose(out) ? 1 : 0;
}
