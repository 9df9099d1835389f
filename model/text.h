/* Text from profiles made safe to show: no control bytes, no escape
 * sequences, valid UTF-8 only. Every string that came from a file passes
 * through here before it reaches the terminal or an export. */
#ifndef NX_TEXT_H
#define NX_TEXT_H

#include <stddef.h>

#include "model/util.h"

/* Appends s with C0/C1 control characters and DEL shown as U+FFFD
 * (or '?' with ascii), and invalid UTF-8 bytes likewise replaced. With
 * ascii, non-ASCII characters become '?' too. */
void text_sanitize(struct strbuf *out, const char *s, int ascii);
/* Same for n bytes that may contain NULs. */
void text_sanitize_n(struct strbuf *out, const char *s, size_t n, int ascii);
/* A sanitised copy (malloc'd). */
char *text_clean(const char *s);

/* A JSON string literal for n bytes (which may hold NULs), valid
 * whatever the bytes: control bytes escaped as \u00XX, invalid UTF-8 as
 * U+FFFD. The one JSON string escaper of every importer and writer. */
void text_json_str(struct strbuf *sb, const char *s, size_t n);
/* Decodes one UTF-8 character at s (n bytes available); returns its
 * length, or 0 for an invalid sequence. */
size_t text_utf8_char(const unsigned char *s, size_t n, unsigned *cp);
/* Encodes code point cp (below U+110000) as UTF-8 into out (4 bytes
 * room); returns the length. */
size_t text_utf8_put(unsigned cp, char *out);
/* 1 if text_sanitize keeps code point cp as it is: not a control
 * character or a bidi override. */
int text_shown(unsigned cp);
/* Display columns of a sanitised string (wide CJK characters count 2). */
int text_width(const char *s);
/* Byte length of the longest prefix of s that fits in cols columns;
 * the time it takes grows with that prefix, not with s. */
size_t text_fit(const char *s, int cols);
/* The same within the first n bytes of s (or up to a NUL). */
size_t text_fit_n(const char *s, size_t n, int cols);
/* Appends s (sanitised), shortened to cols columns (at least 3) by
 * cutting out its middle: "gid36-nc0-thr…neuron_rt". */
void text_shorten(struct strbuf *out, const char *s, int cols);

/* Whether s (NULL: no) holds word, ignoring ASCII case. */
int text_mentions(const char *s, const char *word);

#endif
