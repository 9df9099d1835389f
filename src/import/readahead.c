#include "config.h"

#include "src/import/readahead.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "model/util.h"

/* Blocks of this size, this many in flight: bounded memory. */
#define BLOCK_BYTES (1u << 20)
#define NBLOCKS 4

struct block {
	char *buf;
	long n;			/* bytes in buf; 0: end; -1: error */
	size_t next;		/* bytes already handed out */
};

struct readahead {
	readahead_fn fn;
	void *ctx;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct block blocks[NBLOCKS];
	unsigned head, tail;	/* blocks filled: tail - head */
	int stop;
	char *error;		/* of the block that failed */
	int threaded;
};

static void *producer(void *arg)
{
	struct readahead *ra = arg;

	for (;;) {
		struct block *b;
		long n;

		pthread_mutex_lock(&ra->mu);
		while (!ra->stop && ra->tail - ra->head == NBLOCKS)
			pthread_cond_wait(&ra->cv, &ra->mu);
		if (ra->stop) {
			pthread_mutex_unlock(&ra->mu);
			return NULL;
		}
		b = &ra->blocks[ra->tail % NBLOCKS];
		pthread_mutex_unlock(&ra->mu);
		n = ra->fn(ra->ctx, b->buf, BLOCK_BYTES);
		pthread_mutex_lock(&ra->mu);
		b->n = n;
		b->next = 0;
		if (n < 0)
			ra->error = xstrdup(err_get());
		ra->tail++;
		pthread_cond_broadcast(&ra->cv);
		pthread_mutex_unlock(&ra->mu);
		if (n <= 0)
			return NULL;
	}
}

struct readahead *readahead_start(readahead_fn fn, void *ctx)
{
	struct readahead *ra = xcalloc(1, sizeof(*ra));

	ra->fn = fn;
	ra->ctx = ctx;
	for (int i = 0; i < NBLOCKS; i++)
		ra->blocks[i].buf = xmalloc(BLOCK_BYTES);
	pthread_mutex_init(&ra->mu, NULL);
	pthread_cond_init(&ra->cv, NULL);
	ra->threaded = !pthread_create(&ra->thread, NULL, producer, ra);
	return ra;
}

long readahead_read(void *ctx, void *buf, size_t len)
{
	struct readahead *ra = ctx;
	struct block *b;
	size_t n;

	if (!ra->threaded)
		return ra->fn(ra->ctx, buf, len);
	pthread_mutex_lock(&ra->mu);
	while (ra->tail == ra->head)
		pthread_cond_wait(&ra->cv, &ra->mu);
	b = &ra->blocks[ra->head % NBLOCKS];
	pthread_mutex_unlock(&ra->mu);
	/* the end and an error stay at the head: later reads see them too */
	if (b->n <= 0) {
		if (b->n < 0)
			err_set("%s", ra->error);
		return b->n;
	}
	n = NX_MIN(len, (size_t)b->n - b->next);
	memcpy(buf, b->buf + b->next, n);
	b->next += n;
	if (b->next == (size_t)b->n) {
		pthread_mutex_lock(&ra->mu);
		ra->head++;
		pthread_cond_broadcast(&ra->cv);
		pthread_mutex_unlock(&ra->mu);
	}
	return (long)n;
}

void *readahead_stop(struct readahead *ra)
{
	void *ctx = ra->ctx;

	if (ra->threaded) {
		pthread_mutex_lock(&ra->mu);
		ra->stop = 1;
		pthread_cond_broadcast(&ra->cv);
		pthread_mutex_unlock(&ra->mu);
		pthread_join(ra->thread, NULL);
	}
	for (int i = 0; i < NBLOCKS; i++)
		free(ra->blocks[i].buf);
	free(ra->error);
	pthread_cond_destroy(&ra->cv);
	pthread_mutex_destroy(&ra->mu);
	free(ra);
	return ctx;
}
