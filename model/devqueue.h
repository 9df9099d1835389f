/* Device profiles of a bundle imported in the background while the
 * viewer shows the system profile: which are waiting, which one is
 * being imported and how far, which ended. Shared between the viewer's
 * thread and the importing one; plain data, no SQL: the cache says
 * what landed, this says what is under way. */
#ifndef NX_DEVQUEUE_H
#define NX_DEVQUEUE_H

#include <stddef.h>
#include <stdint.h>

enum devq_state {
	DQ_QUEUED,		/* waiting for its turn */
	DQ_IMPORTING,		/* being imported: pct says how far */
	DQ_READY,		/* its rows are in the cache */
	DQ_FAILED,		/* not imported: the cache says why */
};

struct devqueue;

struct devqueue *devq_new(void);
void devq_free(struct devqueue *q);

/* Queues device profile (its id in the cache). */
void devq_add(struct devqueue *q, int64_t profile);
/* Moves profile to the front of the waiting ones; the import under way
 * gives way to it (stops, and waits behind it) unless that one was
 * preferred too or is past three quarters. */
void devq_prefer(struct devqueue *q, int64_t profile);
/* How many imports may start from now on: -1 any (the default), 0 none
 * until devq_allow() (headless scripts decide when imports run). */
void devq_limit(struct devqueue *q, int n);
void devq_allow(struct devqueue *q, int n);

/* The state of profile and, while importing, its percent; -1 if it was
 * never queued. */
int devq_state(struct devqueue *q, int64_t profile, int *pct);
/* Profiles neither ready nor failed. */
size_t devq_pending(struct devqueue *q);
/* Grows on every change of state or percent: a view redraws when it
 * differs from the one it saw. */
uint64_t devq_changes(struct devqueue *q);
/* Waits until no allowed import is waiting or running. */
void devq_wait(struct devqueue *q);
/* Waits until an import runs, or none may start. */
void devq_wait_started(struct devqueue *q);

/* The importing side: the next profile to import (blocks while the
 * limit allows none); 1 once devq_stop() was called or nothing waits. */
int devq_take(struct devqueue *q, int64_t *profile);
void devq_progress(struct devqueue *q, int64_t profile, int pct);
void devq_done(struct devqueue *q, int64_t profile, int ok);
/* Ends devq_take(); the stop flag is set for importers to look at. */
void devq_stop(struct devqueue *q);
/* The flag an import in progress gives up on: set by devq_stop(), and
 * by devq_prefer() for one that gives way (until its devq_done()). */
const int *devq_stop_flag(struct devqueue *q);

#endif
