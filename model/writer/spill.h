/* An external sort for importers whose events arrive out of order (Chrome
 * trace-event JSON): rows come back ordered by (key, sub, ts, seq), sub's
 * bytes compared as SQLite compares blobs (NULL first). They are kept in
 * memory up to a bound (model/writer/spill.c), past it sorted and written
 * as runs to a private temporary file (where SQLite puts its own:
 * $SQLITE_TMPDIR, $TMPDIR, /var/tmp, /usr/tmp, /tmp; unlinked at once),
 * then merged as they are read. */
#ifndef NX_SPILL_H
#define NX_SPILL_H

#include <stddef.h>
#include <stdint.h>

struct spill;

struct spill_row {
	int64_t key;		/* first sort key, e.g. a track id */
	const char *sub;	/* second sort key (bytes); NULL sorts first */
	size_t sublen;
	int64_t ts, seq;	/* then time, then arrival order */
	int tag;		/* the caller's kind of row */
	int64_t val;
	const char *text[4];	/* NUL-terminated or NULL */
};

/* Never NULL: the temporary file is made when the first run is written. */
struct spill *spill_open(void);
void spill_close(struct spill *s);

/* 0 on success. Strings are copied. */
int spill_add(struct spill *s, const struct spill_row *r);

/* Starts reading the rows in order; no more spill_add() after this. */
int spill_sort(struct spill *s);
/* 1: a row in *r (its strings valid until the next call); 0: no more
 * rows; -1: error. */
int spill_next(struct spill *s, struct spill_row *r);

#endif
