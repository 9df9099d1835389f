#include "config.h"

#include "src/json/jsonpipe.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "model/arena.h"
#include "model/util.h"

/* A batch holds this many records or bytes of record text, whichever
 * comes first; three batches bound the memory in flight. */
#define BATCH_RECORDS 2048
#define BATCH_BYTES (1u << 20)
#define NBATCHES 3

struct precord {
	struct jrec r;
	const cJSON *v;
	void *prepared;
};

struct batch {
	struct precord rec[BATCH_RECORDS];
	size_t n, next;
	int end;		/* the input ended after these records */
	int failed;		/* ... with this error */
	char *error;
	int root_array;
	struct arena arena;
	struct batch *link;
};

struct jpipe {
	struct jsplit *s;
	jpipe_prep_fn prep;
	jpipe_scan_fn scan;	/* raw records: no cJSON */
	int threaded;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int stop;
	struct batch batches[NBATCHES];
	struct batch *free_list, *full_head, *full_tail;
	struct batch *cur;	/* being handed out by jpipe_next() */
	uint64_t offset;
	int root_array;
	int done;
};

/* cJSON allocates a node per member: in a thread that parses into an
 * arena, nodes come from the arena and go with its reset (a bump and no
 * free is what makes cJSON keep up with the splitter); elsewhere cJSON
 * uses malloc and free as usual. */
static _Thread_local struct arena *parse_arena;

static void *parse_alloc(size_t n)
{
	return parse_arena ? arena_alloc(parse_arena, n) : malloc(n);
}

static void parse_free(void *p)
{
	if (!parse_arena)
		free(p);
}

/* Set before main, so before any thread uses cJSON. */
__attribute__((constructor)) static void hooks_init(void)
{
	cJSON_Hooks h = { parse_alloc, parse_free };

	cJSON_InitHooks(&h);
}

/* A record's value, in a: never cJSON_Delete()d, dropped with a. */
static const cJSON *parse(struct arena *a, const char *text, size_t len)
{
	const cJSON *v;

	parse_arena = a;
	v = cJSON_ParseWithLength(text, len);
	parse_arena = NULL;
	return v;
}

/* Fills one batch from the splitter. */
static void fill_batch(struct jpipe *p, struct batch *b)
{
	size_t bytes = 0;

	b->n = b->next = 0;
	arena_reset(&b->arena);
	b->end = b->failed = 0;
	free(b->error);
	b->error = NULL;
	while (b->n < BATCH_RECORDS && bytes < BATCH_BYTES) {
		struct jrec r;
		int rc = jsplit_next(p->s, &r);
		struct precord *pr;
		char *text;

		if (rc <= 0) {
			b->end = 1;
			b->failed = rc < 0;
			if (rc < 0)
				b->error = xstrdup(err_get());
			break;
		}
		pr = &b->rec[b->n++];
		pr->r = r;
		/* the splitter reuses its buffers: keep copies */
		text = arena_copy(&b->arena, r.text, r.len);
		pr->r.text = text;
		if (r.key)
			pr->r.key = arena_copy(&b->arena, r.key, strlen(r.key));
		if (p->scan) {
			pr->v = NULL;
			pr->prepared = p->scan(&pr->r, &b->arena);
		} else {
			pr->v = r.kind == JREC_ARRAY_END ? NULL :
				parse(&b->arena, r.text, r.len);
			pr->prepared = p->prep && pr->v ?
				p->prep(&r, pr->v, &b->arena) : NULL;
		}
		bytes += r.len;
	}
	b->root_array = jsplit_root_is_array(p->s);
}

static void *reader(void *arg)
{
	struct jpipe *p = arg;

	for (;;) {
		struct batch *b;

		pthread_mutex_lock(&p->mu);
		while (!p->stop && !p->free_list)
			pthread_cond_wait(&p->cv, &p->mu);
		if (p->stop) {
			pthread_mutex_unlock(&p->mu);
			return NULL;
		}
		b = p->free_list;
		p->free_list = b->link;
		pthread_mutex_unlock(&p->mu);
		fill_batch(p, b);
		pthread_mutex_lock(&p->mu);
		b->link = NULL;
		if (p->full_tail)
			p->full_tail->link = b;
		else
			p->full_head = b;
		p->full_tail = b;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
		if (b->end)
			return NULL;
	}
}

static struct jpipe *pipe_start(struct jsplit *s, int threads,
				 jpipe_prep_fn prep, jpipe_scan_fn scan)
{
	struct jpipe *p = xcalloc(1, sizeof(*p));

	p->s = s;
	p->prep = prep;
	p->scan = scan;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	for (int i = 0; i < NBATCHES; i++) {
		p->batches[i].link = p->free_list;
		p->free_list = &p->batches[i];
	}
	if (threads > 0 && !pthread_create(&p->thread, NULL, reader, p))
		p->threaded = 1;
	return p;
}

struct jpipe *jpipe_open(struct jsplit *s, int threads, jpipe_prep_fn prep)
{
	return pipe_start(s, threads, prep, NULL);
}

struct jpipe *jpipe_open_raw(struct jsplit *s, int threads,
			     jpipe_scan_fn scan)
{
	return pipe_start(s, threads, NULL, scan);
}

/* The next full batch, read here when there is no reader thread. */
static struct batch *next_batch(struct jpipe *p)
{
	struct batch *b;

	if (!p->threaded) {
		b = p->free_list;
		p->free_list = b->link;
		fill_batch(p, b);
		return b;
	}
	pthread_mutex_lock(&p->mu);
	while (!p->full_head)
		pthread_cond_wait(&p->cv, &p->mu);
	b = p->full_head;
	p->full_head = b->link;
	if (!p->full_head)
		p->full_tail = NULL;
	pthread_mutex_unlock(&p->mu);
	return b;
}

static void release(struct jpipe *p, struct batch *b)
{
	pthread_mutex_lock(&p->mu);
	b->link = p->free_list;
	p->free_list = b;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

int jpipe_next(struct jpipe *p, struct jrec *r, const cJSON **v,
	       void **prepared)
{
	for (;;) {
		struct batch *b = p->cur;

		if (p->done)
			return 0;
		if (b && b->next < b->n) {
			struct precord *pr = &b->rec[b->next++];

			*r = pr->r;
			*v = pr->v;
			*prepared = pr->prepared;
			p->offset = r->offset;
			p->root_array = b->root_array;
			return 1;
		}
		if (b && b->end) {
			p->done = 1;
			if (b->failed) {
				err_set("%s", b->error);
				return -1;
			}
			return 0;
		}
		if (b)
			release(p, b);
		p->cur = next_batch(p);
	}
}

void jpipe_close(struct jpipe *p)
{
	if (!p)
		return;
	if (p->threaded) {
		pthread_mutex_lock(&p->mu);
		p->stop = 1;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
		pthread_join(p->thread, NULL);
	}
	for (int i = 0; i < NBATCHES; i++) {
		arena_free(&p->batches[i].arena);
		free(p->batches[i].error);
	}
	pthread_cond_destroy(&p->cv);
	pthread_mutex_destroy(&p->mu);
	free(p);
}

uint64_t jpipe_offset(const struct jpipe *p)
{
	return p->offset;
}

int jpipe_root_is_array(const struct jpipe *p)
{
	return p->root_array;
}
