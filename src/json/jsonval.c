#include "config.h"

#include "src/json/jsonval.h"

#include <limits.h>
#include <stddef.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/text.h"
#include "model/util.h"
#include "src/json/jscan.h"
#include "src/json/jsonsplit.h"
#include "src/json/jtext.h"

/* A number the splitter kept as its text (src/json/jsonsplit.h). */
static int is_numtext(const cJSON *v)
{
	return cJSON_IsString(v) && v->valuestring &&
	       v->valuestring[0] == JSPLIT_NUMTEXT;
}

int jv_is_text(const cJSON *v)
{
	return cJSON_IsString(v) && v->valuestring && !is_numtext(v);
}

/* Digits of a numeric string, without surrounding blanks or the tag. */
static const char *num_text(const cJSON *v, size_t *n)
{
	const char *s = v->valuestring;
	size_t len;

	if (*s == JSPLIT_NUMTEXT)
		s++;
	while (*s == ' ')
		s++;
	len = strlen(s);
	while (len && s[len - 1] == ' ')
		len--;
	*n = len;
	return s;
}

int jv_i64(const cJSON *v, int64_t *out)
{
	if (!v || cJSON_IsNull(v))
		return JV_ABSENT;
	if (cJSON_IsNumber(v)) {
		double d = v->valuedouble;

		if (!isfinite(d) || d != floor(d) || d < -9007199254740992.0 ||
		    d > 9007199254740992.0)
			return JV_BAD;
		*out = (int64_t)d;
		return JV_OK;
	}
	if (cJSON_IsString(v)) {
		size_t n;
		const char *s = num_text(v, &n);
		int cut;

		if (!parse_i64(s, n, out))
			return JV_OK;
		/* "12.0" and "1e3", exactly, as the Chrome reader scales its
		 * times; "12.5" is not an integer */
		if (!jscan_decimal(s, n, 0, out, &cut) && !cut)
			return JV_OK;
	}
	return JV_BAD;
}

int jv_f64(const cJSON *v, double *out)
{
	if (!v || cJSON_IsNull(v))
		return JV_ABSENT;
	if (cJSON_IsNumber(v)) {
		if (!isfinite(v->valuedouble))
			return JV_BAD;
		*out = v->valuedouble;
		return JV_OK;
	}
	if (cJSON_IsString(v)) {
		size_t n;
		const char *s = num_text(v, &n);
		char *end;

		/* underflow gives 0 or a subnormal, as cJSON reads 1e-999 */
		*out = strtod(s, &end);
		if (!n || end != s + n || !isfinite(*out))
			return JV_BAD;
		return JV_OK;
	}
	return JV_BAD;
}

int jv_id(const cJSON *v, struct wid *out)
{
	int64_t i;
	uint64_t u;

	memset(out, 0, sizeof(*out));
	if (!v || cJSON_IsNull(v))
		return JV_ABSENT;
	if (cJSON_IsString(v)) {
		size_t n;
		const char *s = num_text(v, &n);

		if (!parse_u64(s, n, &u) && u > (uint64_t)INT64_MAX) {
			wid_from_u64(out, u);
			return JV_OK;
		}
	}
	if (jv_i64(v, &i) == JV_OK) {
		wid_from_i64(out, i);
		return JV_OK;
	}
	return JV_BAD;
}

static void number_text(const cJSON *v, char *buf, size_t n)
{
	double d = v->valuedouble;

	if (d == floor(d) && fabs(d) < 9007199254740992.0 && n > 20)
		fmt_i64(buf, (int64_t)d);
	else
		snprintf(buf, n, "%.17g", d);
}

int jv_scaled(const cJSON *v, int scale, int64_t *out)
{
	char buf[32];
	const char *s = buf;
	size_t n;

	if (!v || cJSON_IsNull(v))
		return JV_ABSENT;
	if (cJSON_IsString(v)) {
		s = num_text(v, &n);
	} else if (cJSON_IsNumber(v) && isfinite(v->valuedouble)) {
		/* from the splitter an integer of at most 15 digits, exact;
		 * a double from elsewhere as the 17 digits that give it back */
		number_text(v, buf, sizeof(buf));
		n = strlen(buf);
	} else {
		return JV_BAD;
	}
	return jscan_decimal(s, n, scale, out, NULL) ? JV_BAD : JV_OK;
}

int jv_str(const cJSON *v, const char **out, char *buf, size_t n)
{
	if (!v || cJSON_IsNull(v))
		return JV_ABSENT;
	if (is_numtext(v)) {
		*out = v->valuestring + 1;
		return JV_OK;
	}
	if (cJSON_IsString(v)) {
		*out = v->valuestring;
		return JV_OK;
	}
	if (cJSON_IsNumber(v) && buf) {
		number_text(v, buf, n);
		*out = buf;
		return JV_OK;
	}
	if (cJSON_IsBool(v)) {
		*out = cJSON_IsTrue(v) ? "true" : "false";
		return JV_OK;
	}
	return JV_BAD;
}

int jv_bool(const cJSON *v, int *out)
{
	double d;

	if (!v || cJSON_IsNull(v))
		return JV_ABSENT;
	if (is_numtext(v)) {
		if (jv_f64(v, &d) != JV_OK)
			return JV_BAD;
		*out = d != 0;
		return JV_OK;
	}
	if (cJSON_IsBool(v)) {
		*out = cJSON_IsTrue(v);
		return JV_OK;
	}
	if (cJSON_IsString(v)) {
		const char *s = v->valuestring;

		if (!strcmp(s, "yes") || !strcmp(s, "true") || !strcmp(s, "1")) {
			*out = 1;
			return JV_OK;
		}
		if (!strcmp(s, "no") || !strcmp(s, "false") || !strcmp(s, "0")) {
			*out = 0;
			return JV_OK;
		}
		return JV_BAD;
	}
	if (cJSON_IsNumber(v)) {
		*out = v->valuedouble != 0;
		return JV_OK;
	}
	return JV_BAD;
}

const char *jv_type_name(const cJSON *v)
{
	int64_t i;

	if (!v)
		return "nothing";
	/* kept as text: out of range past int64 (1e999, a 20-digit id) */
	if (is_numtext(v))
		return jscan_decimal(v->valuestring + 1,
				     strlen(v->valuestring + 1), 0, &i, NULL) ?
		       "a number out of range" : "a number";
	/* a double that is whole past 2^53 has lost its last digits */
	if (cJSON_IsNumber(v) && (!isfinite(v->valuedouble) ||
	    (v->valuedouble == floor(v->valuedouble) &&
	     fabs(v->valuedouble) > 9007199254740992.0)))
		return "a number out of range";
	if (cJSON_IsNumber(v))
		return "a number";
	if (cJSON_IsString(v))
		return "a string";
	if (cJSON_IsBool(v))
		return "a boolean";
	if (cJSON_IsNull(v))
		return "null";
	if (cJSON_IsArray(v))
		return "an array";
	if (cJSON_IsObject(v))
		return "an object";
	return "an invalid value";
}

static void write_string(struct strbuf *sb, const char *s)
{
	text_json_str(sb, s, strlen(s));
}

void jv_write(struct strbuf *sb, const cJSON *v)
{
	char num[64];
	int first = 1;

	if (is_numtext(v)) {
		sb_adds(sb, v->valuestring + 1);
	} else if (cJSON_IsString(v)) {
		write_string(sb, v->valuestring);
	} else if (cJSON_IsNumber(v)) {
		if (!isfinite(v->valuedouble)) {
			sb_adds(sb, "null");
			return;
		}
		number_text(v, num, sizeof(num));
		sb_adds(sb, num);
	} else if (cJSON_IsBool(v)) {
		sb_adds(sb, cJSON_IsTrue(v) ? "true" : "false");
	} else if (cJSON_IsArray(v) || cJSON_IsObject(v)) {
		int obj = cJSON_IsObject(v);

		sb_addc(sb, obj ? '{' : '[');
		for (const cJSON *c = v->child; c; c = c->next) {
			if (!first)
				sb_addc(sb, ',');
			first = 0;
			if (obj) {
				write_string(sb, c->string ? c->string : "");
				sb_addc(sb, ':');
			}
			jv_write(sb, c);
		}
		sb_addc(sb, obj ? '}' : ']');
	} else {
		sb_adds(sb, "null");
	}
}

void jv_flatten(struct strbuf *sb, const cJSON *v)
{
	if (cJSON_IsArray(v)) {
		for (const cJSON *c = v->child; c; c = c->next) {
			if (c != v->child)
				sb_addc(sb, ',');
			jv_flatten(sb, c);
		}
	} else if (jv_is_text(v)) {
		sb_adds(sb, v->valuestring);
	} else {
		jv_write(sb, v);
	}
}

/* A number kept as its text s (a tagged number, or a string that holds
 * one): an integer if it is one that fits; digits past 64 bits stay
 * text, exact; other numbers are reals. */
static void numtext_to_wvalue(const cJSON *v, const char *s,
			      struct wvalue *out)
{
	if (jv_i64(v, &out->i) == JV_OK) {
		out->type = WV_INT;
	} else if (!s[strcspn(s, ".eE")] || jv_f64(v, &out->d) != JV_OK) {
		out->type = WV_TEXT;
		out->s = s;
	} else {
		out->type = WV_REAL;
	}
}

void jv_to_wvalue(const cJSON *v, struct wvalue *out, struct strbuf *sb)
{
	int64_t i;

	memset(out, 0, sizeof(*out));
	if (!v || cJSON_IsNull(v)) {
		out->type = WV_NULL;
	} else if (is_numtext(v)) {
		numtext_to_wvalue(v, v->valuestring + 1, out);
	} else if (cJSON_IsNumber(v)) {
		if (jv_i64(v, &i) == JV_OK) {
			out->type = WV_INT;
			out->i = i;
		} else {
			out->type = WV_REAL;
			out->d = v->valuedouble;
		}
	} else if (cJSON_IsString(v)) {
		out->type = WV_TEXT;
		out->s = v->valuestring;
	} else if (cJSON_IsBool(v)) {
		out->type = WV_TEXT;
		out->s = cJSON_IsTrue(v) ? "true" : "false";
	} else {
		sb_reset(sb);
		jv_write(sb, v);
		out->type = WV_TEXT;
		out->s = sb_cstr(sb);
	}
}

void jv_to_wvalue_num(const cJSON *v, struct wvalue *out, struct strbuf *sb)
{
	size_t n;
	const char *s;

	if (!jv_is_text(v)) {
		jv_to_wvalue(v, out, sb);
		return;
	}
	s = num_text(v, &n);
	if (!jt_is_number(s, n)) {
		jv_to_wvalue(v, out, sb);
		return;
	}
	/* the same path as the number written bare, which the splitter
	 * keeps as this text when a double may not hold it */
	memset(out, 0, sizeof(*out));
	numtext_to_wvalue(v, s, out);
}

void jv_names_init(struct jv_names *fs, const char *const *names, size_t n)
{
	fs->n = n;
	strmap_init(&fs->map);
	for (size_t i = 0; i < n; i++)
		strmap_put_index(&fs->map, names[i], strlen(names[i]), i);
}

void jv_names_free(struct jv_names *fs)
{
	strmap_free(&fs->map, NULL);
}

static void rest_add(struct strbuf *rest, const char *name, const cJSON *v)
{
	sb_addc(rest, rest->len ? ',' : '{');
	jv_key(rest, name);
	jv_write(rest, v);
}

void jv_fields(const cJSON *obj, const struct jv_names *fs,
	       const cJSON **vals, struct strbuf *rest)
{
	for (size_t i = 0; i < fs->n; i++)
		vals[i] = NULL;
	for (const cJSON *c = obj->child; c; c = c->next) {
		size_t f;

		if (c->string &&
		    strmap_index(&fs->map, c->string, strlen(c->string), &f)) {
			vals[f] = c;
			continue;
		}
		if (rest)
			rest_add(rest, c->string ? c->string : "", c);
	}
	if (rest)
		jv_rest_end(rest);
}

void jv_key(struct strbuf *out, const char *name)
{
	write_string(out, name);
	sb_addc(out, ':');
}

void jv_rest_add_key(struct strbuf *rest, const char *key, size_t n,
		     const cJSON *v)
{
	sb_addc(rest, rest->len ? ',' : '{');
	sb_add(rest, key, n);
	jv_write(rest, v);
}

void jv_rest_end(struct strbuf *rest)
{
	if (rest->len)
		sb_addc(rest, '}');
}
