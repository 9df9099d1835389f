/* Rows of a generic trace (Perfetto or Chrome trace-event JSON): each
 * process becomes a group, and its threads and other tracks become rows
 * under it. Names and sort indexes often arrive after the events, so
 * writer tracks get their final names and order when the import ends.
 *
 * Names: a process is "<name> <pid>" ("Process <pid>" without a name), a
 * thread "<name> <tid>" ("Thread <tid>"); the id is left out when the
 * name already ends with it. Other rows keep their own names. Order:
 * rows without a process first, then processes by sort index and first
 * appearance, and within a process threads before other rows, each by
 * sort index and first appearance. */
#ifndef NX_TRACE_ROWS_H
#define NX_TRACE_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "model/writer/writer.h"

struct trows;
struct tproc;
struct trow;

struct trows *trows_new(struct writer *w, int64_t profile);
/* Puts every row and process group under this group track (a host of
 * a run of several files), before the first row is made; their sort
 * keys start at base, past the rows of the hosts before. */
void trows_set_parent(struct trows *r, int64_t group, int64_t base);
/* Writes final names and order, then frees everything. */
void trows_finish(struct trows *r);
/* Frees without writing (after an error). */
void trows_free(struct trows *r);

/* The process with this pid as written in the file (text). */
struct tproc *trows_proc(struct trows *r, const char *pid, size_t len);
void tproc_set_name(struct tproc *p, const char *name);
void tproc_set_sort(struct tproc *p, int64_t sort_index);

/* A thread of p by its tid as written. */
struct trow *trows_thread(struct trows *r, struct tproc *p, const char *tid,
			  size_t len);
/* A row of p (top level when p is NULL) found by kind and name. */
struct trow *trows_named(struct trows *r, struct tproc *p, const char *kind,
			 const char *name);
/* A new row of p that no other lookup finds (a track of its own). */
struct trow *trows_unique(struct trows *r, struct tproc *p, const char *kind,
			  const char *name);
void trow_set_name(struct trow *t, const char *name);
void trow_set_sort(struct trow *t, int64_t sort_index);
/* Adds track flags (TF_NEST_BY_TIME), now or when the track is made. */
void trow_set_flags(struct trows *r, struct trow *t, unsigned flags);
void trow_set_unit(struct trow *t, const char *unit);
/* The writer track, created with its group on first use. */
int64_t trow_track(struct trows *r, struct trow *t);

/* Rows and processes kept at most (each is a row of the viewer):
 * importers stop with an error beyond, so hostile input cannot exhaust
 * memory with names alone. */
#define TROWS_MAX ((size_t)WRITER_MAX_TRACKS)

/* Rows and processes so far. */
size_t trows_count(const struct trows *r);

#endif
