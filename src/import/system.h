/* System-profile records met inside a Neuron JSON file (system.c). The
 * file becomes a system profile at the first. */
#ifndef NX_IMPORT_SYSTEM_H
#define NX_IMPORT_SYSTEM_H

#include "src/import/base.h"

struct cJSON;
struct arena;
struct sysimp;

int sysimp_is_key(const char *key);
/* NULL with err_get() set when the filter options are bad. */
struct sysimp *sysimp_new(struct import *im);
int sysimp_record(struct sysimp *s, const struct jrec *r,
		  const struct cJSON *o, void *prepared);
/* Reads a trace_event record ahead, in the reader thread of a pipe
 * (src/json/jsonpipe.h); NULL for other records. */
void *sysimp_prep(const struct jrec *r, const struct cJSON *o,
		  struct arena *a);
int sysimp_finish(struct sysimp *s);
void sysimp_free(struct sysimp *s);

#endif
