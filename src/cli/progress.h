/* The progress line on stderr for imports that take more than a second. */
#ifndef NX_PROGRESS_H
#define NX_PROGRESS_H

#include <stdint.h>

struct progress;

/* Shows nothing unless stderr is a terminal and enabled is set. */
struct progress *progress_new(int enabled);
void progress_free(struct progress *p);
/* what: "importing foo.json"; pct < 0 when unknown. */
void progress_update(struct progress *p, const char *what, int pct,
		     uint64_t events);
/* Clears the line. */
void progress_done(struct progress *p);

#endif
