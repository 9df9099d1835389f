/* Pairing Chrome trace events after the external sort: rows come back
 * grouped (flows by id, async events by id, B/E by thread) and in time
 * order within a group, ties in file order. Only one group's open slices
 * are held at a time. Flows come first, but their ends are only bound to
 * slices when the cache is finished. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "src/import/chrome/chrome.h"

struct open_slice {
	int64_t ts, track;
	char *name, *cat, *args, *pid;
	/* where the slices that wait for it begin in struct stack's wait,
	 * or its own place there when it waits itself */
	size_t mark;
	int waits;
};

/* A slice that waits to be written (must_wait()); a begin that waits
 * keeps its place here while it is open. */
struct waiting {
	struct open_slice o;
	int64_t dur;
	int depth;
	unsigned flags;
	char *args;		/* the end's */
};

struct stack {
	struct open_slice *v;
	size_t n, cap;
	uint64_t overflow;	/* begins beyond CHROME_MAX_DEPTH still open */
	int64_t track;		/* B/E: the thread's row, 0 until needed */
	/* slices that began at the same time as an open slice under them,
	 * in file order */
	struct waiting *wait;
	size_t nwait, capwait;
};

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* Slices of equal start and end nest in the order they are written
 * (the writer's window.c), and the one first in the file is the parent.
 * A slice that begins at the same time as the innermost open slice may
 * end with it, so it waits until that one is written, and the slices
 * after it that begin then wait behind it. Past CHROME_MAX_WAIT of them,
 * slices are written as they come, to keep memory bounded. */
static int must_wait(const struct stack *st, int64_t ts)
{
	return st->n && st->v[st->n - 1].ts == ts &&
	       st->nwait < CHROME_MAX_WAIT;
}

static struct waiting *wait_add(struct stack *st)
{
	st->wait = xgrow(st->wait, &st->capwait, st->nwait + 1,
			 sizeof(*st->wait));
	return memset(&st->wait[st->nwait++], 0, sizeof(*st->wait));
}

static struct open_slice *push(struct chrome *c, struct stack *st,
			       int64_t ts)
{
	struct open_slice *o;
	int waits = must_wait(st, ts);

	if (st->n >= CHROME_MAX_DEPTH) {
		st->overflow++;
		c->n_overflow++;
		return NULL;
	}
	st->v = xgrow(st->v, &st->cap, st->n + 1, sizeof(*st->v));
	o = &st->v[st->n++];
	o->mark = st->nwait;
	o->waits = waits;
	if (waits)
		wait_add(st);
	return o;
}

static void open_free(struct open_slice *o)
{
	free(o->name);
	free(o->cat);
	free(o->args);
	free(o->pid);
}

/* End args join begin args: {"a":1} + {"b":2} = {"a":1,"b":2}. */
static void merge_args(struct strbuf *sb, const char *a, const char *b)
{
	sb_reset(sb);
	if (a && *a)
		sb_adds(sb, a);
	if (!b || !*b)
		return;
	if (!sb->len) {
		sb_adds(sb, b);
		return;
	}
	sb->len--;
	sb_addc(sb, ',');
	sb_adds(sb, b + 1);
}

static void write_slice(struct chrome *c, const struct open_slice *o,
			int64_t dur, int depth, unsigned flags,
			const char *end_args)
{
	int64_t cat = o->cat && *o->cat ? writer_string(c->w, o->cat) : 0;
	int64_t id = writer_slice(c->w, o->track, o->ts, dur,
				  writer_string(c->w, o->name ? o->name : ""),
				  cat, depth, flags);

	merge_args(&c->tmp, o->args, end_args);
	if (c->tmp.len)
		writer_slice_args(c->w, id, sb_cstr(&c->tmp));
}

/* Writes the slices waiting from place from on, in file order: all
 * have ended, as the slice they waited for just has. */
static void flush(struct chrome *c, struct stack *st, size_t from)
{
	for (size_t i = from; i < st->nwait; i++) {
		struct waiting *x = &st->wait[i];

		write_slice(c, &x->o, x->dur, x->depth, x->flags, x->args);
		open_free(&x->o);
		free(x->args);
	}
	st->nwait = from;
}

/* Ends the innermost open slice at end: written with those that waited
 * for it, or waits in its place. */
static void close_top(struct chrome *c, struct stack *st, int64_t end,
		      unsigned flags, const char *end_args)
{
	struct open_slice *o = &st->v[--st->n];

	if (o->waits) {
		st->wait[o->mark] = (struct waiting){
			*o, end - o->ts, (int)st->n, flags,
			dup_or_null(end_args)
		};
		return;
	}
	write_slice(c, o, end - o->ts, (int)st->n, flags, end_args);
	open_free(o);
	flush(c, st, o->mark);
}

/* What is still open when a group ends closes at the trace's end. */
static void close_all(struct chrome *c, struct stack *st)
{
	while (st->n)
		close_top(c, st, c->max_ts, SF_UNTERMINATED, NULL);
	st->overflow = 0;
	st->track = 0;
}

static void open_set(struct open_slice *o, const struct spill_row *r,
		     int64_t track)
{
	o->ts = r->ts;
	o->track = track;
	o->name = dup_or_null(r->text[0]);
	o->cat = dup_or_null(r->text[1]);
	o->args = dup_or_null(r->text[2]);
	o->pid = dup_or_null(r->text[3]);
}

/* A slice whose duration comes with it (X, instants) on row track:
 * written now, or after the open slice that began at the same time. */
static void complete(struct chrome *c, struct stack *st,
		     const struct spill_row *r, int64_t track, int64_t dur,
		     unsigned flags)
{
	struct open_slice o;
	struct waiting *x;

	if (must_wait(st, r->ts)) {
		x = wait_add(st);
		open_set(&x->o, r, track);
		x->dur = dur;
		x->flags = flags;
		return;
	}
	open_set(&o, r, track);
	write_slice(c, &o, dur, 0, flags, NULL);
	open_free(&o);
}

/* B/E of one thread: an E closes the innermost open B. The thread's X
 * and instants after its first B/E come in time order among them
 * (chrome.c), val their duration. */
static void begin_end(struct chrome *c, struct stack *st,
		      const struct spill_row *r)
{
	struct open_slice *o;

	if (r->tag != 'E' && !st->track) {
		size_t pidlen = strnlen(r->sub, r->sublen);

		st->track = chrome_thread_row(c, r->sub, pidlen,
					      r->sub + pidlen + 1,
					      r->sublen - pidlen - 1);
	}
	if (r->tag != 'B' && r->tag != 'E') {
		complete(c, st, r, st->track, r->val,
			 r->tag == 'X' ? 0 : SF_INSTANT);
		return;
	}
	if (r->tag == 'B') {
		o = push(c, st, r->ts);
		if (o)
			open_set(o, r, st->track);
		return;
	}
	if (st->overflow) {
		st->overflow--;
		return;
	}
	if (!st->n) {
		c->n_unmatched++;
		return;
	}
	close_top(c, st, r->ts, 0, r->text[2]);
}

/* The open async slice an end closes: the innermost of that name, or
 * the innermost of all when the end has no name. */
static size_t async_match(const struct stack *st, const char *name)
{
	if (name && *name)
		for (size_t i = st->n; i-- > 0;)
			if (st->v[i].name && !strcmp(st->v[i].name, name))
				return i;
	return st->n - 1;
}

/* Async events of one id: nested begins share the outermost's row. */
static void async(struct chrome *c, struct stack *st, const struct spill_row *r)
{
	const char *pid = r->text[3] ? r->text[3] : "";
	const char *name = r->text[0] ? r->text[0] : "";
	struct open_slice *o;
	size_t i;

	switch (r->tag) {
	case 'b':
	case 'S':
		o = push(c, st, r->ts);
		if (o)
			open_set(o, r, st->n > 1 ? st->v[0].track :
				 chrome_async_row(c, pid, name));
		return;
	case 'e':
	case 'F':
		if (!st->n) {
			c->n_unmatched++;
			return;
		}
		i = async_match(st, name);
		/* begins left open inside it end with it */
		while (st->n > i + 1)
			close_top(c, st, r->ts, SF_UNTERMINATED, NULL);
		close_top(c, st, r->ts, 0, r->text[2]);
		return;
	default:
		complete(c, st, r, st->n ? st->v[0].track :
			 chrome_async_row(c, pid, name), 0, SF_INSTANT);
		return;
	}
}

struct flow_state {
	int open, stepped;
	struct wflow_end from;
	struct wid id;
	struct strbuf text;	/* the id as the s step gave it */
};

#define HEX_DIGITS "0123456789abcdefABCDEF"

/* A flow's id as the file gives it: a 64-bit integer, signed or not, in
 * decimal or in hex ("0x1a", as id2 writes it), or else its text, which
 * id borrows. Steps pair by that text, so "abc" links as 1 does; only
 * a step with no id at all leaves its flow without one. */
static void flow_id(const char *text, struct wid *id)
{
	size_t n = text ? strlen(text) : 0;
	uint64_t u;
	int64_t i;

	memset(id, 0, sizeof(*id));
	if (n > 2 && n <= 18 && text[0] == '0' && (text[1] == 'x' ||
	    text[1] == 'X') && strspn(text + 2, HEX_DIGITS) == n - 2) {
		wid_from_u64(id, strtoull(text + 2, NULL, 16));
	} else if (!parse_u64(text, n, &u)) {
		wid_from_u64(id, u);
	} else if (!parse_i64(text, n, &i)) {
		wid_from_i64(id, i);
	} else if (n) {
		wid_from_text(id, text);
	}
}

/* The missing end of an unpaired flow. */
static const struct wflow_end flow_none = { 0, 0, 0 };

/* An s no step followed is kept as an unpaired end. */
static void flow_close(struct chrome *c, struct flow_state *fs)
{
	if (fs->open && !fs->stepped)
		writer_flow_at(c->w, &fs->id, &fs->from, &flow_none, "flow");
	fs->open = fs->stepped = 0;
	fs->from = flow_none;
	memset(&fs->id, 0, sizeof(fs->id));
}

/* Flow steps of one id: s starts, t continues, f ends. A step binds to
 * the slice enclosing it on its thread; an f without bp "e" binds to the
 * next slice to begin there. A step without a start is an unpaired
 * end. */
static void flow(struct chrome *c, struct flow_state *fs,
		 const struct spill_row *r)
{
	struct wflow_end here = { r->val, r->ts, 0 };

	if (r->tag == 's') {
		flow_close(c, fs);
		fs->open = 1;
		fs->from = here;
		/* the row's text lasts only until the next row */
		sb_reset(&fs->text);
		sb_adds(&fs->text, r->text[1] ? r->text[1] : "");
		flow_id(sb_cstr(&fs->text), &fs->id);
		return;
	}
	if (r->tag == 'f')
		here.next = !(r->text[0] && !strcmp(r->text[0], "e"));
	if (!fs->open) {
		struct wid id;

		c->n_bad_flow++;
		flow_id(r->text[1], &id);
		writer_flow_at(c->w, &id, &flow_none, &here, "flow");
		return;
	}
	writer_flow_at(c->w, &fs->id, &fs->from, &here, "flow");
	fs->stepped = 1;
	fs->from = here;
	fs->from.next = 0;
	if (r->tag == 'f')
		fs->open = 0;
}

static int same_group(const struct spill_row *a, int64_t key,
		      const struct strbuf *sub)
{
	return a->key == key && a->sublen == sub->len &&
	       (!a->sublen || !memcmp(a->sub, sub->buf, sub->len));
}

int chrome_match(struct chrome *c)
{
	struct stack st = { 0 };
	struct flow_state fs = { 0 };
	struct strbuf sub;
	struct spill_row r;
	int64_t key = INT64_MIN;
	uint64_t n = 0;
	int rc;

	sb_init(&sub);
	sb_init(&fs.text);
	if (spill_sort(c->spill)) {
		sb_free(&sub);
		sb_free(&fs.text);
		return -1;
	}
	while ((rc = spill_next(c->spill, &r)) == 1) {
		if (!same_group(&r, key, &sub)) {
			close_all(c, &st);
			flow_close(c, &fs);
			/* each thread starts from the trace's start again */
			if (r.key == CHROME_KEY_THREAD)
				writer_place_window(c->w);
			key = r.key;
			sb_reset(&sub);
			sb_add(&sub, r.sub ? r.sub : "", r.sublen);
		}
		if (r.key == CHROME_KEY_FLOW || r.key == CHROME_KEY_BIND)
			flow(c, &fs, &r);
		else if (r.key == CHROME_KEY_ASYNC)
			async(c, &st, &r);
		else
			begin_end(c, &st, &r);
		if (++n % 65536 == 0 && writer_failed(c->w))
			break;
	}
	close_all(c, &st);
	flow_close(c, &fs);
	free(st.v);
	free(st.wait);
	sb_free(&sub);
	sb_free(&fs.text);
	return rc < 0 || writer_failed(c->w) ? -1 : 0;
}
