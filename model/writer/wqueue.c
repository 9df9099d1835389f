#include "config.h"

#include "model/writer/wqueue.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/cache/db.h"
#include "model/util.h"

#define CHUNK_SIZE (1u << 20)
/* Chunks queued or being written at once: bounds memory in flight. */
#define MAX_CHUNKS 8
#define OP_SQL 0xffff
#define OP_RESTATE 0xfffe
/* Rows per multi-row INSERT. */
#define BATCH 128

enum { P_INT = 1, P_DOUBLE, P_TEXT };

struct chunk {
	struct chunk *next;
	size_t len, cap;
	unsigned char *data;
};

struct wqueue {
	sqlite3 *db;
	sqlite3_stmt **st;
	const char *const *sql;
	char **own_sql;			/* wq_restate()'s text, else NULL */
	sqlite3_stmt **batch;		/* BATCH-row versions, made when needed */
	int *batch_failed;		/* the statement has no batch version */
	int nst;
	int threaded;			/* else chunks run on the caller's */
	struct pending *pend;		/* of a queue without a thread */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t more, room;
	struct chunk *head, *tail;	/* full chunks waiting */
	struct chunk *free;		/* chunks to reuse */
	int chunks;			/* allocated */
	int done;			/* no more chunks will come */
	atomic_int failed;
	char error[512];
	struct chunk *cur;		/* being filled by the importer */
	size_t op_start;		/* where the open op begins in cur */
	uint16_t nparams;
};

static void put(struct chunk *c, const void *p, size_t n)
{
	c->data = xgrow(c->data, &c->cap, c->len + n, 1);
	memcpy(c->data + c->len, p, n);
	c->len += n;
}

static void fail(struct wqueue *q, const char *what)
{
	if (atomic_exchange(&q->failed, 1))
		return;
	pthread_mutex_lock(&q->lock);
	db_describe(q->db, what, q->error, sizeof(q->error));
	pthread_mutex_unlock(&q->lock);
}

/* One op in a chunk: its statement and where its parameters start. */
struct op {
	uint16_t stmt, n;
	const unsigned char *params;
	const unsigned char *sql;	/* OP_SQL and OP_RESTATE only */
	uint32_t sql_len;
	uint16_t target;		/* OP_RESTATE: the statement replaced */
};

/* Decodes the op at p; returns the byte after it. */
static const unsigned char *op_read(const unsigned char *p, struct op *o)
{
	memcpy(&o->stmt, p, 2);
	memcpy(&o->n, p + 2, 2);
	p += 4;
	o->sql = NULL;
	if (o->stmt == OP_RESTATE) {
		memcpy(&o->target, p, 2);
		p += 2;
	}
	if (o->stmt == OP_SQL || o->stmt == OP_RESTATE) {
		memcpy(&o->sql_len, p, 4);
		o->sql = p + 4;
		p += 4 + o->sql_len;
	}
	o->params = p;
	for (uint16_t k = 0; k < o->n; k++) {
		unsigned char type = p[0];

		p += 3;
		if (type == P_INT || type == P_DOUBLE) {
			p += 8;
		} else if (type == P_TEXT) {
			uint32_t len;

			memcpy(&len, p, 4);
			p += 4 + len;
		}
	}
	return p;
}

/* Binds an op's parameters, shifted by base (its row in a batch). */
static void op_bind(sqlite3_stmt *st, const struct op *o, int base)
{
	const unsigned char *p = o->params;

	for (uint16_t k = 0; k < o->n; k++) {
		unsigned char type = p[0];
		uint16_t i;
		int64_t v;
		double d;
		uint32_t len;

		memcpy(&i, p + 1, 2);
		p += 3;
		switch (type) {
		case P_INT:
			memcpy(&v, p, 8);
			sqlite3_bind_int64(st, base + i, v);
			p += 8;
			break;
		case P_DOUBLE:
			memcpy(&d, p, 8);
			sqlite3_bind_double(st, base + i, d);
			p += 8;
			break;
		case P_TEXT:
			memcpy(&len, p, 4);
			sqlite3_bind_text(st, base + i, (const char *)p + 4,
					  (int)len, SQLITE_STATIC);
			p += 4 + len;
			break;
		}
	}
}

static void op_step(struct wqueue *q, sqlite3_stmt *st)
{
	if (!atomic_load(&q->failed) && sqlite3_step(st) != SQLITE_DONE)
		fail(q, "write");
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

/* The BATCH-row form of an "INSERT ... VALUES(...)" statement. */
static sqlite3_stmt *batch_of(struct wqueue *q, int stmt)
{
	if (q->batch[stmt] || q->batch_failed[stmt])
		return q->batch[stmt];
	q->batch[stmt] = db_prepare_rows(q->db, q->own_sql[stmt] ?
					 q->own_sql[stmt] : q->sql[stmt], BATCH);
	q->batch_failed[stmt] = !q->batch[stmt];
	return q->batch[stmt];
}

/* Runs ops[0..n), which share one statement, BATCH rows at a time. */
static void run_same(struct wqueue *q, const struct op *ops, size_t n)
{
	int stmt = ops[0].stmt;
	sqlite3_stmt *one = q->st[stmt];
	int per = sqlite3_bind_parameter_count(one);
	sqlite3_stmt *many = n >= BATCH ? batch_of(q, stmt) : NULL;
	size_t i = 0;

	for (; many && i + BATCH <= n; i += BATCH) {
		for (int r = 0; r < BATCH; r++)
			op_bind(many, &ops[i + (size_t)r], r * per);
		op_step(q, many);
	}
	for (; i < n; i++) {
		op_bind(one, &ops[i], 0);
		op_step(q, one);
	}
}

static void run_sql(struct wqueue *q, const struct op *o)
{
	sqlite3_stmt *st = NULL;

	if (atomic_load(&q->failed))
		return;
	if (sqlite3_prepare_v2(q->db, (const char *)o->sql, (int)o->sql_len,
			       &st, NULL) != SQLITE_OK) {
		fail(q, "write");
		return;
	}
	op_bind(st, o, 0);
	op_step(q, st);
	sqlite3_finalize(st);
}

/* Replaces statement o->target by the one o carries; its batch form is
 * made again when needed. */
static void restate(struct wqueue *q, const struct op *o)
{
	int t = o->target;

	if (atomic_load(&q->failed) || t >= q->nst)
		return;
	sqlite3_finalize(q->batch[t]);
	q->batch[t] = NULL;
	q->batch_failed[t] = 0;
	sqlite3_finalize(q->st[t]);
	q->st[t] = NULL;
	free(q->own_sql[t]);
	q->own_sql[t] = xstrndup((const char *)o->sql, o->sql_len);
	if (sqlite3_prepare_v3(q->db, q->own_sql[t], -1,
			       SQLITE_PREPARE_PERSISTENT, &q->st[t],
			       NULL) != SQLITE_OK)
		fail(q, "prepare");
}

/* Ops waiting to run, one list per statement. */
#define PENDING (BATCH * 4)

struct pending {
	struct op ops[PENDING];
	size_t n;
};

static void flush_all(struct wqueue *q, struct pending *pend)
{
	for (int i = 0; i < q->nst; i++) {
		if (pend[i].n)
			run_same(q, pend[i].ops, pend[i].n);
		pend[i].n = 0;
	}
}

/* Executes the ops of one chunk. Rows of one table keep their order and
 * go in multi-row batches; rows of different tables do not depend on each
 * other, so they may be written in another order, but every row written
 * before a statement built at run time (an UPDATE) is written before it. */
static void run_chunk(struct wqueue *q, const struct chunk *c,
		      struct pending *pend)
{
	const unsigned char *p = c->data, *end = c->data + c->len;

	while (p < end) {
		struct op o;

		p = op_read(p, &o);
		if (o.stmt == OP_SQL) {
			flush_all(q, pend);
			run_sql(q, &o);
		} else if (o.stmt == OP_RESTATE) {
			flush_all(q, pend);
			restate(q, &o);
		} else if (o.stmt < q->nst) {
			struct pending *l = &pend[o.stmt];

			l->ops[l->n++] = o;
			if (l->n == PENDING) {
				run_same(q, l->ops, l->n);
				l->n = 0;
			}
		}
	}
	flush_all(q, pend);
}

static void *writer_thread(void *arg)
{
	struct wqueue *q = arg;
	struct pending *pend = xcalloc((size_t)q->nst, sizeof(*pend));

	for (;;) {
		struct chunk *c;

		pthread_mutex_lock(&q->lock);
		while (!q->head && !q->done)
			pthread_cond_wait(&q->more, &q->lock);
		c = q->head;
		if (c) {
			q->head = c->next;
			if (!q->head)
				q->tail = NULL;
		}
		pthread_mutex_unlock(&q->lock);
		if (!c) {
			free(pend);
			return NULL;
		}
		run_chunk(q, c, pend);
		c->len = 0;
		pthread_mutex_lock(&q->lock);
		c->next = q->free;
		q->free = c;
		pthread_cond_signal(&q->room);
		pthread_mutex_unlock(&q->lock);
	}
}

static struct chunk *take_chunk(struct wqueue *q)
{
	struct chunk *c;

	pthread_mutex_lock(&q->lock);
	while (!q->free && q->chunks >= MAX_CHUNKS)
		pthread_cond_wait(&q->room, &q->lock);
	c = q->free;
	if (c) {
		q->free = c->next;
	} else {
		c = xcalloc(1, sizeof(*c));
		c->cap = CHUNK_SIZE;
		c->data = xmalloc(c->cap);
		q->chunks++;
	}
	pthread_mutex_unlock(&q->lock);
	c->next = NULL;
	c->len = 0;
	return c;
}

static void push_chunk(struct wqueue *q, struct chunk *c)
{
	if (!q->threaded) {
		run_chunk(q, c, q->pend);
		c->len = 0;
		c->next = q->free;
		q->free = c;
		return;
	}
	pthread_mutex_lock(&q->lock);
	if (q->tail)
		q->tail->next = c;
	else
		q->head = c;
	q->tail = c;
	pthread_cond_signal(&q->more);
	pthread_mutex_unlock(&q->lock);
}

struct wqueue *wq_new(sqlite3 *db, sqlite3_stmt **st, const char *const *sql,
		      int nst, int threaded)
{
	struct wqueue *q = xcalloc(1, sizeof(*q));

	q->db = db;
	q->st = st;
	q->sql = sql;
	q->nst = nst;
	q->threaded = threaded;
	q->own_sql = xcalloc((size_t)nst, sizeof(*q->own_sql));
	q->batch = xcalloc((size_t)nst, sizeof(*q->batch));
	q->batch_failed = xcalloc((size_t)nst, sizeof(*q->batch_failed));
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->more, NULL);
	pthread_cond_init(&q->room, NULL);
	atomic_init(&q->failed, 0);
	if (!threaded)
		q->pend = xcalloc((size_t)nst, sizeof(*q->pend));
	else if (pthread_create(&q->thread, NULL, writer_thread, q)) {
		pthread_mutex_destroy(&q->lock);
		pthread_cond_destroy(&q->more);
		pthread_cond_destroy(&q->room);
		free(q);
		err_set("cache: cannot start the writing thread");
		return NULL;
	}
	q->cur = take_chunk(q);
	return q;
}

static void op_header(struct wqueue *q, uint16_t stmt)
{
	uint16_t zero = 0;

	if (q->cur->len >= CHUNK_SIZE) {
		push_chunk(q, q->cur);
		q->cur = take_chunk(q);
	}
	q->op_start = q->cur->len;
	q->nparams = 0;
	put(q->cur, &stmt, 2);
	put(q->cur, &zero, 2);
}

void wq_begin(struct wqueue *q, int stmt)
{
	op_header(q, (uint16_t)stmt);
}

void wq_sql(struct wqueue *q, const char *sql)
{
	uint32_t len = (uint32_t)strlen(sql);

	op_header(q, OP_SQL);
	put(q->cur, &len, 4);
	put(q->cur, sql, len);
}

void wq_restate(struct wqueue *q, int stmt, const char *sql)
{
	uint32_t len = (uint32_t)strlen(sql);
	uint16_t target = (uint16_t)stmt;

	op_header(q, OP_RESTATE);
	put(q->cur, &target, 2);
	put(q->cur, &len, 4);
	put(q->cur, sql, len);
	wq_end(q);
}

static void param(struct wqueue *q, unsigned char type, int i)
{
	uint16_t idx = (uint16_t)i;

	put(q->cur, &type, 1);
	put(q->cur, &idx, 2);
	q->nparams++;
}

/* A parameter of 8 bytes, in one copy: most parameters are. */
static void param8(struct wqueue *q, unsigned char type, int i,
		   const void *v)
{
	unsigned char p[11];
	uint16_t idx = (uint16_t)i;

	p[0] = type;
	memcpy(p + 1, &idx, 2);
	memcpy(p + 3, v, 8);
	put(q->cur, p, sizeof(p));
	q->nparams++;
}

void wq_int(struct wqueue *q, int i, int64_t v)
{
	param8(q, P_INT, i, &v);
}

void wq_double(struct wqueue *q, int i, double v)
{
	param8(q, P_DOUBLE, i, &v);
}

void wq_text(struct wqueue *q, int i, const char *s, int n)
{
	uint32_t len;

	if (!s)
		return;
	len = n < 0 ? (uint32_t)strlen(s) : (uint32_t)n;
	param(q, P_TEXT, i);
	put(q->cur, &len, 4);
	put(q->cur, s, len);
}

void wq_end(struct wqueue *q)
{
	memcpy(q->cur->data + q->op_start + 2, &q->nparams, 2);
}

int wq_broken(struct wqueue *q)
{
	return atomic_load(&q->failed);
}

int wq_failed(struct wqueue *q)
{
	if (!atomic_load(&q->failed))
		return 0;
	pthread_mutex_lock(&q->lock);
	err_set("%s", q->error);
	pthread_mutex_unlock(&q->lock);
	return 1;
}

int wq_finish(struct wqueue *q)
{
	int rc;

	if (q->cur->len)
		push_chunk(q, q->cur);
	else
		q->cur->next = q->free, q->free = q->cur;
	if (q->threaded) {
		pthread_mutex_lock(&q->lock);
		q->done = 1;
		pthread_cond_signal(&q->more);
		pthread_mutex_unlock(&q->lock);
		pthread_join(q->thread, NULL);
	}
	rc = wq_failed(q) ? -1 : 0;
	free(q->pend);
	while (q->free) {
		struct chunk *c = q->free;

		q->free = c->next;
		free(c->data);
		free(c);
	}
	for (int i = 0; i < q->nst; i++) {
		sqlite3_finalize(q->batch[i]);
		free(q->own_sql[i]);
	}
	free(q->own_sql);
	free(q->batch);
	free(q->batch_failed);
	pthread_mutex_destroy(&q->lock);
	pthread_cond_destroy(&q->more);
	pthread_cond_destroy(&q->room);
	free(q);
	return rc;
}
