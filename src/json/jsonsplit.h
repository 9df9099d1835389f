/* Streaming JSON splitter: cuts one record at a time out of a large JSON
 * file so that cJSON never holds more than one record.
 *
 * A file is an object whose values are arrays of records
 * ({"instruction": [{...}, ...], "metadata": [{...}]}), an object with
 * scalar or object values ({"traceEvents": [...], "metadata": {...}}),
 * or a bare array of records ([{...}, ...]).  Each array element is one
 * record; a top-level value that is not an array is one record too.
 *
 * The text is checked as it is cut, to RFC 8259: a string with an
 * escape JSON does not have, a short \u escape or a raw control byte, a
 * number such as 01, 1. or 1e, a token where the grammar has none (the
 * 2 of [1 2], a trailing ',') is an error at that byte, so the readers
 * of records (cJSON, jscan.h) only ever see JSON.
 *
 * Numbers a double may not hold exactly (integers of more than 15
 * digits, and any number written with a fraction or an exponent) are
 * handed to cJSON as their text, a string tagged with JSPLIT_NUMTEXT, so
 * 64-bit ids, epoch-ns timestamps and decimals such as 1729888371.0565977
 * s survive exactly (src/json/jsonval.h reads them). Integers of up to
 * 15 digits go as written. */
#ifndef NX_JSONSPLIT_H
#define NX_JSONSPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "model/util.h"

#define JSPLIT_NUMTEXT '\x01'
#define JSPLIT_MAX_DEPTH 512
#define JSPLIT_MAX_RECORD (64u << 20)
#define JSPLIT_MAX_KEY 256

enum jrec_kind {
	JREC_ITEM,	/* one element of a top-level array */
	JREC_VALUE,	/* a top-level value that is not an array */
	JREC_ARRAY_END,	/* the array under key has ended (index = count) */
};

struct jrec {
	enum jrec_kind kind;
	const char *key;	/* top-level key, its escapes decoded and
				 * cleaned for the terminal (model/text.h);
				 * NULL for a bare array */
	uint64_t index;		/* element index within the array */
	uint64_t offset;	/* byte offset of the record in the file:
				 * an element's or a value's first byte;
				 * for JREC_ARRAY_END, just past the ']',
				 * or the '[' of an empty array */
	const char *text;	/* record text, NUL-terminated */
	size_t len;
};

struct jsplit;

/* Reads from fd (not closed). name is used in error messages. */
struct jsplit *jsplit_open(int fd, const char *name);
/* Reads from a memory buffer (not copied; must outlive the splitter). */
struct jsplit *jsplit_open_mem(const void *buf, size_t len, const char *name);
void jsplit_close(struct jsplit *s);

/* 1: a record is in *r (valid until the next call); 0: end of input;
 * -1: error, message in err_get() naming the file and byte offset. */
int jsplit_next(struct jsplit *s, struct jrec *r);

/* 1 if the root is a bare array. Valid after the first jsplit_next(). */
int jsplit_root_is_array(const struct jsplit *s);
/* A reader for bytes that come from elsewhere (a gzip stream). Returns
 * bytes read, 0 at end, -1 on error with err_get() set. */
typedef long (*jsplit_read_fn)(void *ctx, void *buf, size_t len);
struct jsplit *jsplit_open_reader(jsplit_read_fn fn, void *ctx,
				  const char *name);
/* The ctx given to jsplit_open_reader(), for its owner to close. */
void *jsplit_reader_ctx(const struct jsplit *s);

#endif
