/* Records of a JSON file split and parsed in a second thread, a batch
 * ahead of the importer, so that reading and parsing overlap with the
 * importer's own work and SQLite's. Records come in file order, exactly
 * as jsplit_next() gives them, each with its parsed value. */
#ifndef NX_JSONPIPE_H
#define NX_JSONPIPE_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "src/json/jsonsplit.h"

struct jpipe;

struct arena;

/* Work on a parsed record done in the reader thread: returns what the
 * importer gets with the record (allocated in a, or NULL). It must not
 * touch the importer's state. */
typedef void *(*jpipe_prep_fn)(const struct jrec *r, const cJSON *v,
			       struct arena *a);

/* Work on a record's text done in the reader thread, for importers that
 * scan records without building trees (jscan.h): r->text is the pipe's
 * copy, valid as long as what scan returns (allocated in a). It must not
 * touch the importer's state. */
typedef void *(*jpipe_scan_fn)(const struct jrec *r, struct arena *a);

/* Starts reading s (which must outlive the pipe). With threads == 0 the
 * records are read in the caller's thread (same results). prep may be
 * NULL. */
struct jpipe *jpipe_open(struct jsplit *s, int threads, jpipe_prep_fn prep);
/* The same without cJSON: records come with no value (*v is NULL) and
 * with what scan made of their text. */
struct jpipe *jpipe_open_raw(struct jsplit *s, int threads,
			     jpipe_scan_fn scan);
/* 1: a record in *r, its value in *v (NULL for invalid JSON; the
 * importer says what it expected) and what prep made of it in *prepared,
 * all valid until the next call; 0: end of input; -1: error in
 * err_get(). */
int jpipe_next(struct jpipe *p, struct jrec *r, const cJSON **v,
	       void **prepared);
/* Stops the reader early or at the end, and frees the pipe. */
void jpipe_close(struct jpipe *p);

/* Byte offset of the last record given, for progress. */
uint64_t jpipe_offset(const struct jpipe *p);
/* 1 if the root is a bare array. Valid after the first jpipe_next(). */
int jpipe_root_is_array(const struct jpipe *p);

#endif
