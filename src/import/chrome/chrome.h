/* Shared state of the Chrome trace-event JSON importer: chrome.c
 * reads events and writes what stands alone (X, i/I, C, M); events that
 * pair up (B/E, async b/e/n, flows s/t/f) go through an external sort
 * and are matched by match.c, and so do the X and thread instants of a
 * thread after its first B/E, so that its slices reach the writer in
 * time order. */
#ifndef NX_CHROME_H
#define NX_CHROME_H

#include <stdint.h>

#include "model/hmap.h"
#include "src/import/base.h"
#include "model/writer/spill.h"
#include "src/import/trace_rows.h"

/* Open slices deeper than this on one thread or async id are dropped. */
#define CHROME_MAX_DEPTH 1024
/* Slices of a row that wait to be written after an open slice begun at
 * the same time (match.c); beyond this many they are written as they
 * come, and those of equal spans may nest the other way round. */
#define CHROME_MAX_WAIT 4096

/* Spilled rows by kind (their sort key); the second key is the flow or
 * async id, or "pid NUL tid" for B/E. */
#define CHROME_KEY_FLOW 0
#define CHROME_KEY_ASYNC 1
#define CHROME_KEY_THREAD 2
#define CHROME_KEY_BIND 3	/* flow v2: bind_id on slices */

struct chrome {
	struct import *im;
	struct writer *w;
	struct trows *rows;
	struct spill *spill;	/* created for the first paired event */
	struct strmap be_threads;	/* "pid NUL tid" of threads with B/E */
	int64_t seq;		/* events in file order */
	int64_t min_ts, max_ts;	/* ns */
	int have_ts;
	struct strbuf pid, tid, name, cat, args, id, sub, tmp;
	/* the last thread row, to skip lookups on runs of one thread */
	struct strbuf last_pid, last_tid;
	int64_t last_track;
	uint64_t skipped[128];	/* events of phases not imported */
	uint64_t n_unmatched, n_overflow, n_bad_flow;
	uint64_t n_negative;	/* X events whose "dur" is below 0 */
	uint64_t n_not_number;	/* counter values left out */
	uint64_t n_no_args;	/* counter events without values */
};

/* Matches the spilled events and writes their slices and flows. */
int chrome_match(struct chrome *c);
/* The async row of pid for events named name. */
int64_t chrome_async_row(struct chrome *c, const char *pid, const char *name);
/* The row of a thread, made on first use. */
int64_t chrome_thread_row(struct chrome *c, const char *pid, size_t pidlen,
			  const char *tid, size_t tidlen);

#endif
