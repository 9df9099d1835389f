#include "config.h"

#include "src/json/jsonval.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <pthread.h>
#include <stddef.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/json/jsonsplit.h"

static int is_bigint(const cJSON *v)
{
	return cJSON_IsString(v) && v->valuestring &&
	       v->valuestring[0] == JSPLIT_BIGINT;
}

/* Digits of a numeric string, without surrounding blanks or the tag. */
static const char *num_text(const cJSON *v, size_t *n)
{
	const char *s = v->valuestring;
	size_t len;

	if (*s == JSPLIT_BIGINT)
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
		char *end;

		if (!parse_i64(s, n, out))
			return JV_OK;
		/* "12.0" and "1e3" from some exporters */
		if (n && n < 64) {
			char tmp[64];
			memcpy(tmp, s, n);
			tmp[n] = '\0';
			errno = 0;
			double d = strtod(tmp, &end);
			if (!*end && !errno && isfinite(d) && d == floor(d) &&
			    fabs(d) <= 9007199254740992.0) {
				*out = (int64_t)d;
				return JV_OK;
			}
		}
	}
	return JV_BAD;
}

int jv_u64(const cJSON *v, uint64_t *out)
{
	int64_t i;

	if (!v || cJSON_IsNull(v))
		return JV_ABSENT;
	if (cJSON_IsString(v)) {
		size_t n;
		const char *s = num_text(v, &n);

		if (!parse_u64(s, n, out))
			return JV_OK;
	}
	if (jv_i64(v, &i) == JV_OK && i >= 0) {
		*out = (uint64_t)i;
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
		char tmp[64], *end;

		if (!n || n >= sizeof(tmp))
			return JV_BAD;
		memcpy(tmp, s, n);
		tmp[n] = '\0';
		errno = 0;
		*out = strtod(tmp, &end);
		if (*end || errno || !isfinite(*out))
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

		if (!parse_i64(s, n, &i)) {
			wid_from_i64(out, i);
			return JV_OK;
		}
		if (!parse_u64(s, n, &u)) {
			wid_from_u64(out, u);
			return JV_OK;
		}
		return JV_BAD;
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

	if (d == floor(d) && fabs(d) < 9007199254740992.0)
		snprintf(buf, n, "%" PRId64, (int64_t)d);
	else
		snprintf(buf, n, "%.17g", d);
}

int jv_str(const cJSON *v, const char **out, char *buf, size_t n)
{
	if (!v || cJSON_IsNull(v))
		return JV_ABSENT;
	if (is_bigint(v)) {
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
	if (!v || cJSON_IsNull(v))
		return JV_ABSENT;
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
	if (!v)
		return "nothing";
	/* 1e999, or an integer past 64 bits (or past 2^53 as a double) */
	if (is_bigint(v) || (cJSON_IsNumber(v) && (!isfinite(v->valuedouble) ||
	    (v->valuedouble == floor(v->valuedouble) &&
	     fabs(v->valuedouble) > 9007199254740992.0))))
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
	sb_addc(sb, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			sb_adds(sb, "\\\"");
			break;
		case '\\':
			sb_adds(sb, "\\\\");
			break;
		case '\n':
			sb_adds(sb, "\\n");
			break;
		case '\t':
			sb_adds(sb, "\\t");
			break;
		case '\r':
			sb_adds(sb, "\\r");
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				sb_printf(sb, "\\u%04x", *p);
			else
				sb_addc(sb, (char)*p);
		}
	}
	sb_addc(sb, '"');
}

void jv_write(struct strbuf *sb, const cJSON *v)
{
	char num[64];
	int first = 1;

	if (is_bigint(v)) {
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
	} else if (cJSON_IsString(v) && !is_bigint(v)) {
		sb_adds(sb, v->valuestring);
	} else {
		jv_write(sb, v);
	}
}

void jv_to_wvalue(const cJSON *v, struct wvalue *out, struct strbuf *sb)
{
	int64_t i;

	memset(out, 0, sizeof(*out));
	if (!v || cJSON_IsNull(v)) {
		out->type = WV_NULL;
	} else if (is_bigint(v)) {
		if (jv_i64(v, &i) == JV_OK) {
			out->type = WV_INT;
			out->i = i;
		} else {
			out->type = WV_TEXT;
			out->s = v->valuestring + 1;
		}
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

static unsigned name_hash(const char *s)
{
	unsigned h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

void jv_names_init(struct jv_names *fs, const char *const *names, size_t n)
{
	size_t mask = sizeof(fs->slot) - 1;

	fs->names = names;
	fs->n = n;
	memset(fs->slot, 0, sizeof(fs->slot));
	for (size_t i = 0; i < n && i < 255; i++) {
		size_t k = name_hash(names[i]) & mask;

		while (fs->slot[k])
			k = (k + 1) & mask;
		fs->slot[k] = (unsigned char)(i + 1);
	}
}

static int lookup(const struct jv_names *fs, const char *key)
{
	size_t mask = sizeof(fs->slot) - 1;

	for (size_t k = name_hash(key) & mask; fs->slot[k]; k = (k + 1) & mask)
		if (!strcmp(fs->names[fs->slot[k] - 1], key))
			return fs->slot[k] - 1;
	return -1;
}

void jv_fields(const cJSON *obj, const struct jv_names *fs,
	       const cJSON **vals, struct strbuf *rest)
{
	for (size_t i = 0; i < fs->n; i++)
		vals[i] = NULL;
	for (const cJSON *c = obj->child; c; c = c->next) {
		int f = c->string ? lookup(fs, c->string) : -1;

		if (f >= 0) {
			vals[f] = c;
			continue;
		}
		if (!rest)
			continue;
		sb_addc(rest, rest->len ? ',' : '{');
		write_string(rest, c->string ? c->string : "");
		sb_addc(rest, ':');
		jv_write(rest, c);
	}
	if (rest && rest->len)
		sb_addc(rest, '}');
}

static const char *skip_ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
		p++;
	return p;
}

static int hex4(const char *p, const char *e, unsigned *out)
{
	unsigned v = 0;

	if (e - p < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static char *put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		*o++ = (char)cp;
	} else if (cp < 0x800) {
		*o++ = (char)(0xc0 | (cp >> 6));
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*o++ = (char)(0xe0 | (cp >> 12));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*o++ = (char)(0xf0 | (cp >> 18));
		*o++ = (char)(0x80 | ((cp >> 12) & 0x3f));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	}
	return o;
}

/* Decodes the string whose opening quote is at *pp into o (which has
 * room: decoding never grows text). Returns the end of the output, NULL
 * if malformed. */
static char *decode_string(const char **pp, const char *e, char *o)
{
	const char *p = *pp + 1;

	while (p < e && *p != '"') {
		const char *q = p;
		unsigned cp, lo;

		while (q < e && *q != '"' && *q != '\\')
			q++;
		memcpy(o, p, (size_t)(q - p));
		o += q - p;
		p = q;
		if (p >= e || *p == '"')
			break;
		if (++p >= e)
			return NULL;
		switch (*p++) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			if (hex4(p, e, &cp))
				return NULL;
			p += 4;
			if (cp >= 0xdc00 && cp <= 0xdfff)
				return NULL;
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (e - p < 6 || p[0] != '\\' || p[1] != 'u' ||
				    hex4(p + 2, e, &lo) || lo < 0xdc00 ||
				    lo > 0xdfff)
					return NULL;
				p += 6;
				cp = 0x10000 + (((cp & 0x3ff) << 10) | (lo & 0x3ff));
			}
			o = put_utf8(o, cp);
			break;
		default:
			return NULL;
		}
	}
	if (p >= e)
		return NULL;
	*pp = p + 1;
	*o++ = '\0';
	return o;
}

/* End of the nested object or array starting at p, or NULL. */
static const char *nested_end(const char *p, const char *e)
{
	int depth = 0;

	for (; p < e; p++) {
		if (*p == '"') {
			for (p++; p < e && *p != '"'; p++)
				if (*p == '\\')
					p++;
			if (p >= e)
				return NULL;
		} else if (*p == '{' || *p == '[') {
			depth++;
		} else if (*p == '}' || *p == ']') {
			if (--depth == 0)
				return p + 1;
		}
	}
	return NULL;
}

static locale_t c_loc;

static void c_locale_init(void)
{
	c_loc = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

/* strtod that reads '.' whatever the user's locale (parsers run in
 * several threads, so no setlocale). */
static locale_t c_locale(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, c_locale_init);
	return c_loc;
}

/* A number literal: integers of up to 15 digits are read exactly,
 * others by strtod in the C locale, as cJSON does. */
static const char *scan_num(const char *p, const char *e, cJSON *v)
{
	const char *q = p;
	int integer = 1, digits = 0;
	int64_t acc = 0;
	char tmp[64];

	if (q < e && *q == '-')
		q++;
	for (; q < e; q++) {
		char c = *q;

		if (c >= '0' && c <= '9') {
			if (++digits <= 15)
				acc = acc * 10 + (c - '0');
		} else if (c == '.' || c == 'e' || c == 'E' || c == '+' ||
			   c == '-') {
			integer = 0;
		} else {
			break;
		}
	}
	if (!digits)
		return NULL;
	v->type = cJSON_Number;
	if (integer && digits <= 15) {
		v->valuedouble = (double)(*p == '-' ? -acc : acc);
	} else {
		char *end;

		if ((size_t)(q - p) >= sizeof(tmp))
			return NULL;
		memcpy(tmp, p, (size_t)(q - p));
		tmp[q - p] = '\0';
		v->valuedouble = strtod_l(tmp, &end, c_locale());
		if (*end)
			return NULL;
	}
	v->valueint = v->valuedouble >= INT_MAX ? INT_MAX :
		      v->valuedouble <= (double)INT_MIN ? INT_MIN :
		      (int)v->valuedouble;
	return q;
}

/* Blocks never move, so nodes handed out stay valid until a reset. */
#define ARENA_BLOCK (256u << 10)

struct arena_block {
	struct arena_block *next;
	size_t size, used;
	max_align_t data[];
};

struct jv_arena {
	struct arena_block *head, *cur;
	cJSON **owned;		/* values parsed by cJSON, deleted on reset */
	size_t nowned, cap_owned;
};

struct jv_arena *jv_arena_new(void)
{
	return xcalloc(1, sizeof(struct jv_arena));
}

void *jv_arena_alloc(struct jv_arena *a, size_t n)
{
	struct arena_block *b = a->cur;

	n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) *
	    sizeof(max_align_t);
	while (b && b->used + n > b->size)
		b = b->next;
	if (!b) {
		size_t size = NX_MAX(n, (size_t)ARENA_BLOCK);

		b = xmalloc(sizeof(*b) + size);
		b->size = size;
		b->used = 0;
		b->next = NULL;
		if (a->cur) {
			b->next = a->cur->next;
			a->cur->next = b;
		} else {
			a->head = b;
		}
	}
	a->cur = b;
	b->used += n;
	return (char *)b->data + b->used - n;
}

char *jv_arena_copy(struct jv_arena *a, const char *s, size_t n)
{
	char *c = jv_arena_alloc(a, n + 1);

	memcpy(c, s, n);
	c[n] = '\0';
	return c;
}

static void arena_own(struct jv_arena *a, cJSON *v)
{
	a->owned = xgrow(a->owned, &a->cap_owned, a->nowned + 1,
			 sizeof(*a->owned));
	a->owned[a->nowned++] = v;
}

void jv_arena_reset(struct jv_arena *a)
{
	for (size_t i = 0; i < a->nowned; i++) {
		cJSON *v = a->owned[i];

		/* our key and sibling links, not cJSON's */
		v->string = NULL;
		v->next = v->prev = NULL;
		cJSON_Delete(v);
	}
	a->nowned = 0;
	for (struct arena_block *b = a->head; b; b = b->next)
		b->used = 0;
	a->cur = a->head;
}

void jv_arena_free(struct jv_arena *a)
{
	if (!a)
		return;
	jv_arena_reset(a);
	for (struct arena_block *b = a->head, *n; b; b = n) {
		n = b->next;
		free(b);
	}
	free(a->owned);
	free(a);
}

static const char *shallow_value(struct jv_arena *a, const char *s,
				 const char *e, cJSON **node, char **o)
{
	cJSON *v = *node;

	if (*s == '"') {
		v->type = cJSON_String;
		v->valuestring = *o;
		*o = decode_string(&s, e, *o);
		return *o ? s : NULL;
	}
	if (*s == '{' || *s == '[') {
		const char *end = nested_end(s, e);
		cJSON *n;

		if (!end || !(n = cJSON_ParseWithLength(s, (size_t)(end - s))))
			return NULL;
		arena_own(a, n);
		n->type |= cJSON_StringIsConst;
		*node = n;
		return end;
	}
	if (e - s >= 4 && !memcmp(s, "true", 4)) {
		v->type = cJSON_True;
		return s + 4;
	}
	if (e - s >= 5 && !memcmp(s, "false", 5)) {
		v->type = cJSON_False;
		return s + 5;
	}
	if (e - s >= 4 && !memcmp(s, "null", 4)) {
		v->type = cJSON_NULL;
		return s + 4;
	}
	return scan_num(s, e, v);
}

/* An object's members; NULL if it is not a well-formed flat-enough
 * object. */
static const cJSON *shallow_object(struct jv_arena *a, const char *s,
				   const char *e)
{
	cJSON *root, *nodes, *prev = NULL;
	size_t n = 0, colons = 0;
	char *o;

	/* every member has a ':' */
	for (const char *c = s; (c = memchr(c, ':', (size_t)(e - c))); c++)
		colons++;
	root = jv_arena_alloc(a, sizeof(*root) * (colons + 1));
	memset(root, 0, sizeof(*root));
	root->type = cJSON_Object;
	nodes = root + 1;
	/* decoding never makes text longer */
	o = jv_arena_alloc(a, (size_t)(e - s) + 1);
	s = skip_ws(s, e);
	if (s >= e || *s++ != '{')
		return NULL;
	s = skip_ws(s, e);
	if (s < e && *s == '}')
		return skip_ws(s + 1, e) == e ? root : NULL;
	for (;;) {
		cJSON *v;
		char *key = o;

		if (s >= e || *s != '"' || !(o = decode_string(&s, e, o)))
			return NULL;
		s = skip_ws(s, e);
		if (s >= e || *s++ != ':')
			return NULL;
		s = skip_ws(s, e);
		if (s >= e)
			return NULL;
		v = &nodes[n];
		memset(v, 0, sizeof(*v));
		if (!(s = shallow_value(a, s, e, &v, &o)))
			return NULL;
		if (v == &nodes[n])
			n++;
		v->string = key;
		v->type |= cJSON_StringIsConst;
		v->prev = prev;
		if (prev)
			prev->next = v;
		else
			root->child = v;
		prev = v;
		s = skip_ws(s, e);
		if (s < e && *s == ',') {
			s = skip_ws(s + 1, e);
			continue;
		}
		if (s < e && *s == '}')
			break;
		return NULL;
	}
	return skip_ws(s + 1, e) == e ? root : NULL;
}

const cJSON *jv_parse_shallow(struct jv_arena *a, const char *text,
			      size_t len)
{
	const cJSON *v = shallow_object(a, text, text + len);
	cJSON *full;

	if (v)
		return v;
	full = cJSON_ParseWithLength(text, len);
	if (full)
		arena_own(a, full);
	return full;
}
