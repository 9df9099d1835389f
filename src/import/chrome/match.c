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
};

/* A slice that has ended and waits to be written (close_top()). */
struct ended {
	struct open_slice o;
	int64_t end;
	int depth;
	unsigned flags;
	char *args;		/* the end's */
};

struct stack {
	struct open_slice *v;
	size_t n, cap;
	uint64_t overflow;	/* begins beyond CHROME_MAX_DEPTH still open */
	int64_t track;		/* B/E: the thread's row, 0 until needed */
	/* ended slices that began with the slice under them, innermost
	 * first, the last of them ended at ended_at */
	struct ended *ended;
	size_t nended, capended;
	int64_t ended_at;
};

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static struct open_slice *push(struct chrome *c, struct stack *st)
{
	if (st->n >= CHROME_MAX_DEPTH) {
		st->overflow++;
		c->n_overflow++;
		return NULL;
	}
	st->v = xgrow(st->v, &st->cap, st->n + 1, sizeof(*st->v));
	return &st->v[st->n++];
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
			int64_t end, int depth, unsigned flags,
			const char *end_args)
{
	int64_t cat = o->cat && *o->cat ? writer_string(c->w, o->cat) : 0;
	int64_t id = writer_slice(c->w, o->track, o->ts, end - o->ts,
				  writer_string(c->w, o->name ? o->name : ""),
				  cat, depth, flags);

	merge_args(&c->tmp, o->args, end_args);
	if (c->tmp.len)
		writer_slice_args(c->w, id, sb_cstr(&c->tmp));
}

/* Writes the ended slices that wait, outermost first. */
static void settle(struct chrome *c, struct stack *st)
{
	while (st->nended) {
		struct ended *e = &st->ended[--st->nended];

		write_slice(c, &e->o, e->end, e->depth, e->flags, e->args);
		open_free(&e->o);
		free(e->args);
	}
}

/* Before a row of a group: the ended slices wait only for ends at the
 * same time as theirs. */
static void settle_before(struct chrome *c, struct stack *st,
			  const struct spill_row *r, int is_end)
{
	if (st->nended && (!is_end || r->ts != st->ended_at))
		settle(c, st);
}

/* Ends the innermost open slice at end. Slices of equal start and end
 * nest in the order they are written (the writer's window.c), but a
 * stack's slices end innermost first, and the one begun first is the
 * parent: so a slice that began at the same time as the slice under it
 * waits until that one is written. */
static void close_top(struct chrome *c, struct stack *st, int64_t end,
		      unsigned flags, const char *end_args)
{
	struct open_slice *o = &st->v[--st->n];
	struct ended *e;

	if (!st->n || st->v[st->n - 1].ts != o->ts) {
		write_slice(c, o, end, (int)st->n, flags, end_args);
		open_free(o);
		settle(c, st);
		return;
	}
	st->ended = xgrow(st->ended, &st->capended, st->nended + 1,
			  sizeof(*st->ended));
	e = &st->ended[st->nended++];
	*e = (struct ended){ *o, end, (int)st->n, flags, dup_or_null(end_args) };
	st->ended_at = end;
}

/* What is still open when a group ends closes at the trace's end. */
static void close_all(struct chrome *c, struct stack *st)
{
	while (st->n)
		close_top(c, st, c->max_ts, SF_UNTERMINATED, NULL);
	settle(c, st);
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

/* B/E of one thread: an E closes the innermost open B. The thread's X
 * and instants after its first B/E come in time order among them
 * (chrome.c), val their duration. */
static void begin_end(struct chrome *c, struct stack *st,
		      const struct spill_row *r)
{
	struct open_slice *o;

	settle_before(c, st, r, r->tag == 'E');
	if (r->tag != 'E' && !st->track) {
		size_t pidlen = strnlen(r->sub, r->sublen);

		st->track = chrome_thread_row(c, r->sub, pidlen,
					      r->sub + pidlen + 1,
					      r->sublen - pidlen - 1);
	}
	if (r->tag != 'B' && r->tag != 'E') {
		int64_t id = writer_slice(c->w, st->track, r->ts, r->val,
					  writer_string(c->w, r->text[0] ?
							r->text[0] : ""),
					  r->text[1] && *r->text[1] ?
					  writer_string(c->w, r->text[1]) : 0,
					  0, r->tag == 'X' ? 0 : SF_INSTANT);

		if (r->text[2] && *r->text[2])
			writer_slice_args(c->w, id, r->text[2]);
		return;
	}
	if (r->tag == 'B') {
		o = push(c, st);
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

	settle_before(c, st, r, r->tag == 'e' || r->tag == 'F');
	switch (r->tag) {
	case 'b':
	case 'S':
		o = push(c, st);
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
	default: {
		struct open_slice inst;

		open_set(&inst, r, st->n ? st->v[0].track :
			 chrome_async_row(c, pid, name));
		write_slice(c, &inst, r->ts, 0, SF_INSTANT, NULL);
		open_free(&inst);
		return;
	}
	}
}

struct flow_state {
	int open, stepped;
	struct wflow_end from;
	struct wid id;
};

/* A flow's id as a number when it is one ("0x1a" or "26"), else a
 * number of our own. */
static void flow_id(struct chrome *c, const char *text, struct wid *id)
{
	char *end;
	unsigned long long v;

	if (text && *text && *text != '-') {
		v = strtoull(text, &end, 0);
		if (!*end) {
			wid_from_u64(id, v);
			return;
		}
	}
	wid_from_u64(id, ++c->next_flow_id);
}

/* The missing end of an unpaired flow. */
static const struct wflow_end flow_none = { 0, 0, 0 };

/* An s no step followed is kept as an unpaired end. */
static void flow_close(struct chrome *c, struct flow_state *fs)
{
	if (fs->open && !fs->stepped)
		writer_flow_at(c->w, &fs->id, &fs->from, &flow_none, "flow");
	memset(fs, 0, sizeof(*fs));
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
		flow_id(c, r->text[1], &fs->id);
		return;
	}
	if (r->tag == 'f')
		here.next = !(r->text[0] && !strcmp(r->text[0], "e"));
	if (!fs->open) {
		struct wid id;

		c->n_bad_flow++;
		flow_id(c, r->text[1], &id);
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
	if (spill_sort(c->spill))
		return -1;
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
	free(st.ended);
	sb_free(&sub);
	return rc < 0 || writer_failed(c->w) ? -1 : 0;
}
