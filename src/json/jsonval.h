/* Reading values out of one cJSON record the way real profiles write
 * them: numbers that arrive as strings, numbers a double may not hold
 * (64-bit integers, decimals: kept as their text by the splitter) read
 * exactly, nested values kept as JSON text. */
#ifndef NX_JSONVAL_H
#define NX_JSONVAL_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "model/hmap.h"
#include "model/util.h"
#include "model/writer/writer.h"

/* Results of the jv_* getters. */
#define JV_OK 0
#define JV_ABSENT 1	/* no such key, or null */
#define JV_BAD (-1)	/* present but not of the expected type */

/* Integers, also written as decimals or with exponents ("12.0",
 * 1.2e3), read exactly; a fraction other than 0 is JV_BAD. */
int jv_i64(const cJSON *v, int64_t *out);
int jv_f64(const cJSON *v, double *out);
/* A number (or a string holding one) times 10^scale, rounded to the
 * nearest integer (halves away from zero), from its decimal text,
 * exactly: the Chrome reader's conversion of µs to ns (jscan.h). JV_BAD
 * if it is not a number or the result does not fit in int64. */
int jv_scaled(const cJSON *v, int scale, int64_t *out);
/* 64-bit ids: signed or unsigned, number or string. */
int jv_id(const cJSON *v, struct wid *out);
/* Strings; numbers and booleans are given as their JSON text in buf. */
int jv_str(const cJSON *v, const char **out, char *buf, size_t n);
/* "yes"/"no", "true"/"false", true/false, 1/0. */
int jv_bool(const cJSON *v, int *out);
/* 1 for a string the profile wrote as one (not a number kept as text). */
int jv_is_text(const cJSON *v);

/* A short description of a value's JSON type, for error messages. */
const char *jv_type_name(const cJSON *v);

/* Compact JSON text of a value, with the numbers kept as tagged text
 * written back as plain numbers. */
void jv_write(struct strbuf *sb, const cJSON *v);
/* Joins the strings of nested arrays: [["WEIGHT"]] -> "WEIGHT". */
void jv_flatten(struct strbuf *sb, const cJSON *v);
/* A value as an info-table value; text goes through sb. */
void jv_to_wvalue(const cJSON *v, struct wvalue *out, struct strbuf *sb);
/* The same for a figure: a string that holds a JSON number ("2",
 * "1.7e-07", blanks around allowed) is stored as that number written
 * bare would be (an integer or a real); other strings stay text. */
void jv_to_wvalue_num(const cJSON *v, struct wvalue *out,
		      struct strbuf *sb);

/* A set of field names with a hash map for fast lookup. */
struct jv_names {
	size_t n;
	struct strmap map;		/* name -> index */
};

void jv_names_init(struct jv_names *fs, const char *const *names, size_t n);
void jv_names_free(struct jv_names *fs);
/* Field lookup in one pass over an object: vals[i] receives the item
 * named names[i], or NULL. Items not named are appended to rest as JSON
 * members when rest is not NULL. */
void jv_fields(const cJSON *obj, const struct jv_names *fs,
	       const cJSON **vals, struct strbuf *rest);
/* The members of rest one by one, for readers that match fields
 * themselves and add the same members row after row: each member's
 * "name": written once by jv_key(); rest starts empty, and
 * jv_rest_end() closes the object when any member was added. */
void jv_key(struct strbuf *out, const char *name);
void jv_rest_add_key(struct strbuf *rest, const char *key, size_t n,
		     const cJSON *v);
void jv_rest_end(struct strbuf *rest);

#endif
