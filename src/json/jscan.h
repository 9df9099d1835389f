/* Reading one JSON record without building a tree, for inputs with
 * millions of small records (Chrome trace events): the members of an
 * object as raw text spans, strings unescaped on demand, and numbers
 * scaled from their decimal text, so "ts": 1729888371056597.613 (µs)
 * becomes 1729888371056597613 ns exactly, never through a double (which
 * would be off by up to 128 ns). Records come from
 * the splitter (jsonsplit.h), which has checked their syntax; numbers
 * it kept as tagged text are read as numbers. */
#ifndef NX_JSCAN_H
#define NX_JSCAN_H

#include <stddef.h>
#include <stdint.h>

#include "model/util.h"

enum jtype { JT_STRING, JT_NUMBER, JT_OBJECT, JT_ARRAY, JT_BOOL, JT_NULL };

struct jspan {
	const char *p;		/* raw text; strings without their quotes,
				 * numbers the splitter tagged without the
				 * quotes and the tag */
	size_t n;
	enum jtype type;
};

struct jscan {
	const char *p, *end;
};

/* Starts on an object's text. -1 if it is not an object. */
int jscan_object(struct jscan *s, const char *text, size_t len);
/* Next member: 1 with key (raw, may hold escapes) and value; 0 at the
 * end; -1 if the text is malformed. */
int jscan_member(struct jscan *s, struct jspan *key, struct jspan *val);
/* Raw key equal to a plain literal. */
int jscan_key_is(const struct jspan *key, const char *lit);

/* A string's text unescaped (\u0000 becomes U+FFFD); a number's or a
 * literal's as written. */
void jscan_text(const struct jspan *v, struct strbuf *out);

/* The error of a number that does not fit where it is read; -1 is the
 * error of text that is no number. */
#define JSCAN_RANGE (-2)

/* A number, or a string holding one, times 10^scale, rounded to the
 * nearest integer (halves away from zero). 0 on success; -1 if it is
 * not a number; JSCAN_RANGE if the result does not fit in int64. */
int jscan_scaled(const struct jspan *v, int scale, int64_t *out);
/* The same for the n bytes of decimal text at p (blanks around it
 * allowed, exponents too), for readers that hold the text elsewhere
 * (src/json/jsonval.h). With cut not NULL, *cut is 1 when a digit other
 * than 0 was rounded off (the number is not a whole multiple of
 * 10^-scale), else 0. */
int jscan_decimal(const char *p, size_t n, int scale, int64_t *out,
		  int *cut);
/* A number, or a string holding one, as a double (for counter values):
 * 0; -1 if it is not a number; JSCAN_RANGE if it is one beyond a
 * double's range (1e999; a number too small for a double is 0). */
int jscan_double(const struct jspan *v, double *out);

/* Copies raw JSON text with the numbers kept as tagged text written
 * back as plain numbers. */
void jscan_untag(const char *p, size_t n, struct strbuf *out);

#endif
