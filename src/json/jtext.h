/* Writing JSON numbers into a buffer, for slice args built from binary
 * input (strings: text_json_str() in model/text.h), telling a JSON
 * number's text, and reading a string's escapes. */
#ifndef NX_JTEXT_H
#define NX_JTEXT_H

#include <stddef.h>
#include <stdint.h>

#include "model/util.h"

/* The value of four hex digits at p (which has 4 bytes); -1 if one is
 * not a hex digit. */
int jt_hex4(const char *p, unsigned *out);
/* Appends the n bytes of a JSON string's text (without its quotes) to
 * out with its escapes decoded: \u0000 and lone surrogates become
 * U+FFFD, as in records (src/json/jsonsplit.h). Text that is not JSON
 * is read as best it can be, never past its n bytes. */
void jt_unescape(const char *p, size_t n, struct strbuf *out);
/* NULL if the n bytes at p are exactly a JSON number (RFC 8259: no
 * '+', no leading zeros, digits on both sides of a '.', digits in an
 * exponent); else what was expected ("a digit after '.'"), at byte *at
 * (n when the bytes ended first). */
const char *jt_number_error(const char *p, size_t n, size_t *at);
/* 1 if the n bytes at p are exactly a JSON number. */
int jt_is_number(const char *p, size_t n);
void jt_i64(struct strbuf *sb, int64_t v);
void jt_u64(struct strbuf *sb, uint64_t v);
/* Shortest text that reads back as the same double; null if not finite. */
void jt_f64(struct strbuf *sb, double v);

#endif
