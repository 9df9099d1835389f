/* Writing JSON text into a buffer, for slice args built from binary
 * input. Whatever the bytes, the result is valid JSON: control bytes are
 * escaped and invalid UTF-8 becomes U+FFFD. */
#ifndef NX_JTEXT_H
#define NX_JTEXT_H

#include <stddef.h>
#include <stdint.h>

#include "model/util.h"

/* The value of four hex digits at p (which has 4 bytes); -1 if one is
 * not a hex digit. */
int jt_hex4(const char *p, unsigned *out);
/* A string literal for n bytes (which may hold NULs: written \u0000). */
void jt_str(struct strbuf *sb, const char *s, size_t n);
void jt_i64(struct strbuf *sb, int64_t v);
void jt_u64(struct strbuf *sb, uint64_t v);
/* Shortest text that reads back as the same double; null if not finite. */
void jt_f64(struct strbuf *sb, double v);

#endif
