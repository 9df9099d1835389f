#include "config.h"

#include "model/devqueue.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "model/util.h"

struct devq_entry {
	int64_t profile;
	enum devq_state state;
	int pct;
	int wanted;		/* drilled into (devq_prefer) */
	int yielding;		/* importing, told to give way to a wanted one */
};

/* An import past this percent finishes before a wanted one starts: most
 * of its work is done. */
#define YIELD_BEFORE_PCT 75

struct devqueue {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct devq_entry *v;	/* waiting ones in import order */
	size_t n, cap;
	int limit;		/* imports that may still start, -1: any */
	int running;
	int stop;		/* devq_stop(): no more imports */
	int halt;		/* the import under way gives up (stop, or it
				 * yields to a wanted one) */
	uint64_t changes;
};

struct devqueue *devq_new(void)
{
	struct devqueue *q = xcalloc(1, sizeof(*q));

	pthread_mutex_init(&q->mu, NULL);
	pthread_cond_init(&q->cv, NULL);
	q->limit = -1;
	return q;
}

void devq_free(struct devqueue *q)
{
	if (!q)
		return;
	pthread_mutex_destroy(&q->mu);
	pthread_cond_destroy(&q->cv);
	free(q->v);
	free(q);
}

static struct devq_entry *find(struct devqueue *q, int64_t profile)
{
	for (size_t i = 0; i < q->n; i++)
		if (q->v[i].profile == profile)
			return &q->v[i];
	return NULL;
}

/* Under the lock: something changed. */
static void changed(struct devqueue *q)
{
	q->changes++;
	pthread_cond_broadcast(&q->cv);
}

void devq_add(struct devqueue *q, int64_t profile)
{
	pthread_mutex_lock(&q->mu);
	if (!find(q, profile)) {
		q->v = xgrow(q->v, &q->cap, q->n + 1, sizeof(*q->v));
		q->v[q->n++] = (struct devq_entry){ profile, DQ_QUEUED, 0, 0,
						    0 };
		changed(q);
	}
	pthread_mutex_unlock(&q->mu);
}

/* Under the lock: the import under way gives way to a wanted one
 * unless it is wanted too or nearly done; it waits again, behind it. */
static void yield_to_wanted(struct devqueue *q)
{
	for (size_t i = 0; i < q->n; i++) {
		struct devq_entry *e = &q->v[i];

		if (e->state == DQ_IMPORTING && !e->wanted && !e->yielding &&
		    e->pct < YIELD_BEFORE_PCT) {
			e->yielding = 1;
			__atomic_store_n(&q->halt, 1, __ATOMIC_RELAXED);
		}
	}
}

void devq_prefer(struct devqueue *q, int64_t profile)
{
	struct devq_entry *e, keep;

	pthread_mutex_lock(&q->mu);
	e = find(q, profile);
	if (e && e->state == DQ_QUEUED) {
		keep = *e;
		keep.wanted = 1;
		memmove(q->v + 1, q->v, (size_t)(e - q->v) * sizeof(*e));
		q->v[0] = keep;
		yield_to_wanted(q);
		changed(q);
	}
	pthread_mutex_unlock(&q->mu);
}

void devq_limit(struct devqueue *q, int n)
{
	pthread_mutex_lock(&q->mu);
	q->limit = n;
	changed(q);
	pthread_mutex_unlock(&q->mu);
}

void devq_allow(struct devqueue *q, int n)
{
	pthread_mutex_lock(&q->mu);
	if (q->limit >= 0)
		q->limit = n < 0 ? -1 : q->limit + n;
	changed(q);
	pthread_mutex_unlock(&q->mu);
}

int devq_state(struct devqueue *q, int64_t profile, int *pct)
{
	struct devq_entry *e;
	int st = -1;

	pthread_mutex_lock(&q->mu);
	e = find(q, profile);
	if (e) {
		st = (int)e->state;
		if (pct)
			*pct = e->pct;
	}
	pthread_mutex_unlock(&q->mu);
	return st;
}

static size_t waiting(const struct devqueue *q)
{
	size_t n = 0;

	for (size_t i = 0; i < q->n; i++)
		n += q->v[i].state == DQ_QUEUED;
	return n;
}

size_t devq_pending(struct devqueue *q)
{
	size_t n;

	pthread_mutex_lock(&q->mu);
	n = waiting(q) + (size_t)q->running;
	pthread_mutex_unlock(&q->mu);
	return n;
}

uint64_t devq_changes(struct devqueue *q)
{
	uint64_t n;

	pthread_mutex_lock(&q->mu);
	n = q->changes;
	pthread_mutex_unlock(&q->mu);
	return n;
}

void devq_wait_started(struct devqueue *q)
{
	pthread_mutex_lock(&q->mu);
	while (!q->stop && !q->running && q->limit != 0 && waiting(q))
		pthread_cond_wait(&q->cv, &q->mu);
	pthread_mutex_unlock(&q->mu);
}

void devq_wait(struct devqueue *q)
{
	pthread_mutex_lock(&q->mu);
	while (!q->stop && (q->running || (q->limit != 0 && waiting(q))))
		pthread_cond_wait(&q->cv, &q->mu);
	pthread_mutex_unlock(&q->mu);
}

int devq_take(struct devqueue *q, int64_t *profile)
{
	int rc = 1;

	pthread_mutex_lock(&q->mu);
	while (!q->stop && q->limit == 0 && waiting(q))
		pthread_cond_wait(&q->cv, &q->mu);
	for (size_t i = 0; i < q->n && !q->stop; i++) {
		if (q->v[i].state != DQ_QUEUED)
			continue;
		q->v[i].state = DQ_IMPORTING;
		q->running++;
		if (q->limit > 0)
			q->limit--;
		*profile = q->v[i].profile;
		changed(q);
		rc = 0;
		break;
	}
	pthread_mutex_unlock(&q->mu);
	return rc;
}

void devq_progress(struct devqueue *q, int64_t profile, int pct)
{
	struct devq_entry *e;

	pthread_mutex_lock(&q->mu);
	e = find(q, profile);
	if (e && e->pct != pct) {
		e->pct = pct;
		changed(q);
	}
	pthread_mutex_unlock(&q->mu);
}

void devq_done(struct devqueue *q, int64_t profile, int ok)
{
	struct devq_entry *e;

	pthread_mutex_lock(&q->mu);
	e = find(q, profile);
	if (e && e->state == DQ_IMPORTING) {
		/* one stopped half way waits for the next viewer, one that
		 * gave way for its turn again */
		e->state = ok ? DQ_READY : q->stop || e->yielding ? DQ_QUEUED :
			   DQ_FAILED;
		e->pct = 0;
		e->yielding = 0;
		q->running--;
	}
	if (!q->stop)
		__atomic_store_n(&q->halt, 0, __ATOMIC_RELAXED);
	changed(q);
	pthread_mutex_unlock(&q->mu);
}

void devq_stop(struct devqueue *q)
{
	pthread_mutex_lock(&q->mu);
	q->stop = 1;
	__atomic_store_n(&q->halt, 1, __ATOMIC_RELAXED);
	changed(q);
	pthread_mutex_unlock(&q->mu);
}

const int *devq_stop_flag(struct devqueue *q)
{
	return &q->halt;
}
