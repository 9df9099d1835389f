/* The writer's queue: statements bound on the importer's thread and
 * executed, in order, on a thread of their own, so parsing an input and
 * writing the cache run on two cores. Memory in flight is bounded: the
 * importer waits when the writing thread falls behind. */
#ifndef NX_WQUEUE_H
#define NX_WQUEUE_H

#include <sqlite3.h>
#include <stdint.h>

struct wqueue;

/* st[0..nst) are the prepared statements ops refer to by index, sql[]
 * their text: runs of one INSERT ... VALUES(...) statement are written
 * several rows at a time. Without threaded, the ops run on the caller's
 * thread, a chunk at a time, in the same order and batches. */
struct wqueue *wq_new(sqlite3 *db, sqlite3_stmt **st, const char *const *sql,
		      int nst, int threaded);

/* One statement: wq_begin (or wq_sql for one built at run time), its
 * parameters by 1-based index, then wq_end. Text is copied. A parameter
 * not given (or NULL text) is NULL: every run starts with none bound. */
void wq_begin(struct wqueue *q, int stmt);
void wq_sql(struct wqueue *q, const char *sql);
void wq_int(struct wqueue *q, int i, int64_t v);
void wq_double(struct wqueue *q, int i, double v);
void wq_text(struct wqueue *q, int i, const char *s, int n);
void wq_end(struct wqueue *q);

/* From here on, ops of stmt run sql, an INSERT whose parameters are a
 * superset of the old one's by index (a table that gained columns):
 * ops queued earlier still bind the right columns. The writing thread
 * prepares it in st[stmt]; the owner finalizes st[] as before. */
void wq_restate(struct wqueue *q, int stmt, const char *sql);

/* Nonzero once a statement failed; err_get() then says why. */
int wq_failed(struct wqueue *q);
/* The same, err_get() left as it is. */
int wq_broken(struct wqueue *q);
/* Runs everything queued and stops the thread; 0 on success, else -1
 * with err_get() set. The queue is freed either way. */
int wq_finish(struct wqueue *q);

#endif
