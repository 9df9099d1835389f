/* A byte stream read ahead in a thread of its own, so that producing
 * the bytes (inflating gzip) overlaps with consuming them (splitting
 * JSON). Bytes come out in order, exactly as the read function gives
 * them; an error comes out where it happened. */
#ifndef NX_READAHEAD_H
#define NX_READAHEAD_H

#include <stddef.h>

/* Reads up to len bytes: bytes read, 0 at end, -1 with err_get() set. */
typedef long (*readahead_fn)(void *ctx, void *buf, size_t len);

struct readahead;

/* Starts reading fn(ctx) ahead; read by readahead_read(). */
struct readahead *readahead_start(readahead_fn fn, void *ctx);
/* A readahead_fn over the stream (ctx is the struct readahead). */
long readahead_read(void *ctx, void *buf, size_t len);
/* Stops the thread and frees the stream; returns its ctx. */
void *readahead_stop(struct readahead *ra);

#endif
