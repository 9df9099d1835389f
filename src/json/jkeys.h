/* The top-level keys of a JSON object read as a stream, so that a format
 * is told by a key wherever it comes (key order is not stable: FORMATS.md
 * §0): values are passed over a buffer at a time and never held, so
 * memory stays at the caller's buffer however much text comes before the
 * key. Not a validator: text that is not JSON only ends the walk, and the
 * importer then says what is wrong and where. */
#ifndef NX_JKEYS_H
#define NX_JKEYS_H

#include <stddef.h>

#include "src/json/jsonsplit.h"

struct jkeys {
	unsigned char *buf;
	size_t cap, pos, len;
	jsplit_read_fn read;	/* the bytes after the first ones in buf */
	void *ctx;
	int done;		/* the input ended or could not be read */
};

/* buf (cap bytes) holds the first n bytes of the text; read (may be
 * NULL: they are all) gives the rest into it. A UTF-8 byte order mark
 * is skipped. */
void jkeys_init(struct jkeys *k, unsigned char *buf, size_t cap, size_t n,
		jsplit_read_fn read, void *ctx);
/* The next byte that is not JSON whitespace, left to be read; -1 at the
 * end of the input or where it cannot be read. */
int jkeys_peek(struct jkeys *k);
/* Reads the byte jkeys_peek() gave. */
void jkeys_take(struct jkeys *k);

typedef int (*jkeys_fn)(void *arg, const char *key, size_t n);
/* Past an object's "{": gives each key of the object (raw text without
 * its quotes; keys longer than JSPLIT_MAX_KEY are passed over) to fn
 * until fn returns nonzero, which is returned; 0 after the last key; -1
 * where the text is not JSON or cannot be read. */
int jkeys_walk(struct jkeys *k, jkeys_fn fn, void *arg);

#endif
