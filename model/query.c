#include "config.h"

#include "model/query.h"

#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/text.h"
#include "model/timefmt.h"
#include "model/util.h"

#define QF_INFO(id, name, alias, kind, help) \
	[F_##id] = { name, alias, kind, help },
const struct qfield_info query_fields[F_COUNT] = { QUERY_FIELDS(QF_INFO) };

static const struct {
	const char *text;
	enum qop op;
} ops[] = {
	{ "!=", Q_NE }, { "!~", Q_HASNOT }, { ">=", Q_GE }, { "<=", Q_LE },
	{ "=", Q_EQ }, { "~", Q_HAS }, { ">", Q_GT }, { "<", Q_LT },
};

#define NO_COL SIZE_MAX	/* a term built, not typed: no column */

/* Messages quote the query, which may hold a value taken from a file
 * (Enter on a summary's value searches for it): cleaned for display. */
static int fail(char **err, size_t col, const char *fmt, const char *arg)
{
	char msg[256];
	struct strbuf sb;

	snprintf(msg, sizeof(msg), fmt, arg);
	sb_init(&sb);
	if (col != NO_COL)
		sb_printf(&sb, "column %zu: ", col + 1);
	text_sanitize(&sb, msg, 0);
	*err = sb_detach(&sb);
	return -1;
}

int query_field(const char *name, size_t n, enum qfield *f)
{
	for (int i = 1; i < F_COUNT; i++) {
		const struct qfield_info *fi = &query_fields[i];

		if (i == F_ARG)
			continue;
		if ((strlen(fi->name) == n && !strncasecmp(fi->name, name, n)) ||
		    (fi->alias && strlen(fi->alias) == n &&
		     !strncasecmp(fi->alias, name, n))) {
			*f = (enum qfield)i;
			return 0;
		}
	}
	return -1;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)(c | 0x20);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The byte "\xHH" at s stands for inside quotes (query_quote writes
 * controls so), or 0 when s is not one. */
static int escaped_byte(const char *s)
{
	int hi, lo;

	if (s[0] != '\\' || s[1] != 'x' || (hi = hex_digit(s[2])) < 0 ||
	    (lo = hex_digit(s[3])) < 0)
		return 0;
	return hi * 16 + lo;
}

/* Reads a value at *p: "quoted", /regex/ or a bare word. */
static int read_value(const char *text, const char **p, char **out,
		      int *is_regex, char **err)
{
	const char *s = *p;
	struct strbuf sb;

	sb_init(&sb);
	*is_regex = 0;
	if (*s == '"') {
		for (s++; *s && *s != '"'; s++) {
			int byte = escaped_byte(s);

			if (byte > 0) {
				sb_addc(&sb, (char)byte);
				s += 3;
				continue;
			}
			if (*s == '\\' && (s[1] == '"' || s[1] == '\\'))
				s++;
			sb_addc(&sb, *s);
		}
		if (*s != '"') {
			sb_free(&sb);
			return fail(err, (size_t)(*p - text), "%s",
				    "unterminated quote");
		}
		s++;
	} else if (*s == '/') {
		/* \/ is a '/'; any other pair is the regex's, kept whole */
		for (s++; *s && *s != '/'; s++) {
			if (*s == '\\' && s[1]) {
				if (s[1] != '/')
					sb_addc(&sb, *s);
				s++;
			}
			sb_addc(&sb, *s);
		}
		if (*s != '/') {
			sb_free(&sb);
			return fail(err, (size_t)(*p - text), "%s",
				    "unterminated /regex/");
		}
		s++;
		*is_regex = 1;
	} else {
		while (*s && *s != ' ' && *s != '\t')
			sb_addc(&sb, *s++);
	}
	*p = s;
	*out = sb_detach(&sb);
	return 0;
}

/* What a /regex/ may cost. glibc's regcomp copies a repeated part once
 * per repetition (a{3} is aaa, a+ is aa*) and may keep, for each node,
 * the set of nodes reachable through empty matches: a pattern of 16
 * bytes such as (a|b?){12000}c asks for gigabytes. So repetition counts
 * are bounded as POSIX's RE_DUP_MAX minimum is, groups nest at most
 * REGEX_MAX_DEPTH deep, and the nodes after copying, estimated, are at
 * most REGEX_MAX_NODES: their closure sets stay within 64 MiB. */
#define REGEX_MAX_DUP 255
#define REGEX_MAX_DEPTH 32
#define REGEX_MAX_NODES 4096.0

struct rlevel {
	double sum, last;	/* nodes of the group so far; of its last atom */
};

/* Length of the bracket expression at p ("[...]"), classes such as
 * [:alpha:] and a leading ']' included; 0 if it does not end. */
static size_t bracket_len(const char *p)
{
	const char *s = p + 1;

	if (*s == '^')
		s++;
	if (*s == ']')
		s++;
	for (; *s && *s != ']'; s++) {
		if (*s == '[' && (s[1] == ':' || s[1] == '=' || s[1] == '.')) {
			const char *e = strchr(s + 2, s[1]);

			while (e && e[1] != ']')
				e = strchr(e + 1, s[1]);
			if (!e)
				return 0;
			s = e + 1;
		}
	}
	return *s ? (size_t)(s + 1 - p) : 0;
}

/* The copies "{n}", "{n,}", "{n,m}" or "{,m}" at p asks for, its length
 * in *len; 0 copies when it is not a bound (then '{' is literal). */
static long bound_copies(const char *p, size_t *len)
{
	const char *s = p + 1;
	char *end;
	long n = 0, m;

	if (*s >= '0' && *s <= '9')
		n = strtol(s, &end, 10), s = end;
	else if (*s != ',')
		return 0;
	m = n;
	if (*s == ',') {
		s++;
		/* "{n,}": more than n (strtol stops at LONG_MAX) */
		m = *s >= '0' && *s <= '9' ? strtol(s, &end, 10) :
		    n < LONG_MAX ? n + 1 : n;
		if (*s >= '0' && *s <= '9')
			s = end;
	}
	if (*s != '}')
		return 0;
	*len = (size_t)(s + 1 - p);
	return NX_MAX(NX_MAX(n, m), 1);
}

/* Applies a repetition to the last atom: it becomes copies of it. */
static void repeat(struct rlevel *lv, double copies, double extra)
{
	double now = lv->last * copies + extra;

	lv->sum += now - lv->last;
	lv->last = now;
}

#define REGEX_TOO_COSTLY "regex too costly to compile (more than 4096" \
	" nodes once its repetitions are written out)"

const char *query_regex_check(const char *re)
{
	struct rlevel lv[REGEX_MAX_DEPTH + 1];
	int d = 0;

	lv[0] = (struct rlevel){ 0, 0 };
	for (const char *p = re; *p; p++) {
		double atom = 1;
		size_t n;
		long copies;

		switch (*p) {
		case '(':
			if (d == REGEX_MAX_DEPTH)
				return "regex nests groups more than 32 deep";
			lv[++d] = (struct rlevel){ 0, 0 };
			continue;
		case ')':
			if (d)	/* else a literal ')' */
				atom = lv[d--].sum + 1;
			break;
		case '|':
			lv[d].sum += 1;
			lv[d].last = 0;
			continue;
		case '*':
		case '?':
			repeat(&lv[d], 1, 1);
			atom = 0;
			break;
		case '+':
			repeat(&lv[d], 2, 1);
			atom = 0;
			break;
		case '{':
			copies = bound_copies(p, &n);
			if (!copies)
				break;	/* a literal '{' */
			if (copies > REGEX_MAX_DUP)
				return "regex repeats a part more than 255 times";
			repeat(&lv[d], (double)copies, 1);
			atom = 0;
			p += n - 1;
			break;
		case '\\':
			if (p[1])
				p++;
			break;
		case '[':
			n = bracket_len(p);
			if (!n)
				return NULL;	/* regcomp says what is wrong */
			p += n - 1;
			break;
		default:
			break;
		}
		if (atom) {
			lv[d].sum += atom;
			lv[d].last = atom;
		}
		/* checked at every step, so that no estimate overflows */
		if (lv[d].sum > REGEX_MAX_NODES)
			return REGEX_TOO_COSTLY;
	}
	for (; d > 0; d--)
		lv[d - 1].sum += lv[d].sum;
	return lv[0].sum > REGEX_MAX_NODES ? REGEX_TOO_COSTLY : NULL;
}

static int check_regex(const char *re, size_t col, char **err)
{
	const char *why = query_regex_check(re);
	regex_t r;
	int rc;
	char msg[128];

	if (why)
		return fail(err, col, "%s", why);
	rc = regcomp(&r, re, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		regerror(rc, &r, msg, sizeof(msg));
		regfree(&r);
		return fail(err, col, "invalid regex: %s", msg);
	}
	regfree(&r);
	return 0;
}

const char *query_hint(const struct query *q)
{
	static const struct {
		const char *word, *hint;
	} joins[] = {
#define JOIN(w) { w, "'" w "' is a word here: every term must hold" }
		JOIN("and"), JOIN("or"), JOIN("&&"), JOIN("||"),
#undef JOIN
	};

	for (size_t i = 0; i < q->n; i++) {
		const struct qterm *t = &q->terms[i];
		size_t len = strlen(t->value);

		if (t->field != F_WORD || t->op != Q_HAS || !len)
			continue;
		for (size_t k = 0; k < NX_ARRAY_SIZE(joins); k++)
			if (!strcasecmp(t->value, joins[k].word))
				return joins[k].hint;
		if (t->value[0] == '(' || t->value[len - 1] == ')')
			return "parentheses do not group terms: they are part"
			       " of a word here";
	}
	return NULL;
}

/* A byte count: an integer, or a number with a unit: KiB, MiB, GiB
 * (Ki, Mi, Gi; 1024-based), kB, MB, GB (K, k, M, G; 1000-based) or B,
 * with a fraction only where the bytes come out whole (1.5KiB). */
int query_parse_bytes(const char *s, int64_t *out)
{
	static const struct {
		const char *unit;
		int64_t mult;
	} units[] = {
		{ "", 1 }, { "B", 1 }, { "KiB", 1 << 10 }, { "Ki", 1 << 10 },
		{ "MiB", 1 << 20 }, { "Mi", 1 << 20 }, { "GiB", 1 << 30 },
		{ "Gi", 1 << 30 }, { "kB", 1000 }, { "KB", 1000 }, { "k", 1000 },
		{ "K", 1000 }, { "MB", 1000000 }, { "M", 1000000 },
		{ "GB", 1000000000 }, { "G", 1000000000 },
	};
	size_t n = strspn(s, "0123456789"), f = 0;
	int64_t whole, frac = 0, scale = 1, mult = 0, part;
	const char *unit;

	if (*s == '-')		/* a plain integer, as any integer field */
		return parse_i64(s, strlen(s), out);
	if (!n || parse_i64(s, n, &whole))
		return -1;
	unit = s + n;
	if (*unit == '.') {
		f = strspn(unit + 1, "0123456789");
		if (!f || f > 9 || parse_i64(unit + 1, f, &frac))
			return -1;
		for (size_t i = 0; i < f; i++)
			scale *= 10;
		unit += 1 + f;
	}
	for (size_t i = 0; i < NX_ARRAY_SIZE(units) && !mult; i++)
		if (!strcmp(unit, units[i].unit))
			mult = units[i].mult;
	/* a fraction needs a unit, and whole bytes */
	if (!mult || (f && mult == 1) || whole > INT64_MAX / mult ||
	    (frac * mult) % scale)
		return -1;
	part = frac * mult / scale;
	if (whole * mult > INT64_MAX - part)
		return -1;
	*out = whole * mult + part;
	return 0;
}

/* A number where the field is one: a value that is not one is told at
 * vcol, the value's column; an operator that does not suit an id at
 * col, the term's. */
static int numeric(struct qterm *t, size_t col, size_t vcol, char **err)
{
	enum qkind k = query_fields[t->field].kind;

	if (k == QF_TIME) {
		if (timefmt_parse(t->value, &t->num))
			return fail(err, vcol, "expected a time like 2us or"
				    " 1.5ms, found '%s'", t->value);
	} else if (k == QF_INT) {
		if (parse_i64(t->value, strlen(t->value), &t->num))
			return fail(err, vcol, "expected an integer, found '%s'",
				    t->value);
	} else if (k == QF_BYTES) {
		if (query_parse_bytes(t->value, &t->num))
			return fail(err, vcol, "expected bytes like 65536, 64KiB or"
				    " 1.5MB, found '%s'", t->value);
	} else if (k == QF_ID) {
		int64_t i;
		uint64_t u;

		if (parse_i64(t->value, strlen(t->value), &i) &&
		    parse_u64(t->value, strlen(t->value), &u))
			return fail(err, vcol, "expected an id, found '%s'",
				    t->value);
		if (t->op != Q_EQ && t->op != Q_NE)
			return fail(err, col, "%s", "ids compare with = or !=");
	}
	return 0;
}

/* What a term must be, typed or built: a regex that compiles cheaply,
 * a number where the field is one, an operator that suits the field.
 * A bad value is told at vcol, its column; a bad operator at col, the
 * term's. */
static int check_term(struct qterm *t, size_t col, size_t vcol, char **err)
{
	enum qkind k = query_fields[t->field].kind;

	if (t->field == F_WORD && !*t->value)
		return fail(err, vcol, "%s", "empty search term");
	if (t->op == Q_RE || t->op == Q_NRE)
		return check_regex(t->value, vcol, err);
	if (t->field == F_WORD)
		return 0;
	if (k != QF_STRING && k != QF_TEXT) {
		if (t->op == Q_HAS || t->op == Q_HASNOT)
			return fail(err, col, "%s", "~ goes with text fields");
		return numeric(t, col, vcol, err);
	}
	if (t->op >= Q_GT && t->op <= Q_LE)
		return fail(err, col, "'%s' is text: use =, !=, ~ or !~",
			    query_fields[t->field].name);
	return 0;
}

/* One term starting at *p. */
static int parse_term(const char *text, const char **p, struct qterm *t,
		      char **err)
{
	const char *s = *p, *start;
	size_t col, vcol;
	int is_regex;

	memset(t, 0, sizeof(*t));
	if (*s == '-' && s[1] && s[1] != ' ') {
		t->negate = 1;
		s++;
	}
	start = s;
	col = (size_t)(start - text);
	while (*s && (*s == '_' || *s == '.' || (*s >= 'a' && *s <= 'z') ||
		      (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
		s++;
	for (size_t i = 0; s > start && i < NX_ARRAY_SIZE(ops); i++) {
		size_t n = strlen(ops[i].text);

		if (strncmp(s, ops[i].text, n))
			continue;
		if (!strncasecmp(start, "args.", 5) && s - start > 5) {
			t->field = F_ARG;
			t->arg = xstrndup(start + 5, (size_t)(s - start - 5));
		} else if (query_field(start, (size_t)(s - start), &t->field)) {
			char name[64];

			snprintf(name, sizeof(name), "%.*s",
				 (int)NX_MIN(s - start, 63), start);
			return fail(err, col, "unknown field '%s' (see the"
				    " search help)", name);
		}
		t->op = ops[i].op;
		s += n;
		vcol = (size_t)(s - text);
		if (!*s || *s == ' ')
			return fail(err, vcol, "%s",
				    "expected a value after the operator");
		if (read_value(text, &s, &t->value, &is_regex, err))
			return -1;
		if (is_regex) {
			if (t->op != Q_EQ && t->op != Q_NE)
				return fail(err, col, "%s", "a /regex/ goes with"
					    " = or !=");
			t->op = t->op == Q_EQ ? Q_RE : Q_NRE;
		}
		*p = s;
		return check_term(t, col, vcol, err);
	}
	/* a free word */
	s = start;
	t->field = F_WORD;
	if (read_value(text, &s, &t->value, &is_regex, err))
		return -1;
	t->op = is_regex ? Q_RE : Q_HAS;
	*p = s;
	return check_term(t, col, col, err);
}

int query_parse(const char *text, struct query *q, char **err)
{
	const char *p = text;
	size_t cap = 0;

	q->terms = NULL;
	q->n = 0;
	*err = NULL;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		q->terms = xgrow(q->terms, &cap, q->n + 1, sizeof(*q->terms));
		if (parse_term(text, &p, &q->terms[q->n], err)) {
			free(q->terms[q->n].value);
			free(q->terms[q->n].arg);
			query_free(q);
			return -1;
		}
		q->n++;
	}
	if (!q->n) {
		*err = xstrdup("empty query");
		return -1;
	}
	return 0;
}

void query_free(struct query *q)
{
	for (size_t i = 0; i < q->n; i++) {
		free(q->terms[i].value);
		free(q->terms[i].arg);
	}
	free(q->terms);
	q->terms = NULL;
	q->n = 0;
}

/* A regex has no escape for a byte: a built one holds only what shows
 * as itself, and no \/ (which reads back as '/'), so that query_format
 * writes it as it is. */
static int regex_writable(const char *re)
{
	const unsigned char *s = (const unsigned char *)re;
	size_t n = strlen(re);

	for (size_t i = 0; i < n;) {
		unsigned cp;
		size_t len = text_utf8_char(s + i, n - i, &cp);

		if (!len || !text_shown(cp) || (cp == '\\' && s[i + 1] == '/'))
			return 0;
		i += cp == '\\' && s[i + 1] == '\\' ? 2 : len;
	}
	return 1;
}

static struct qterm *new_term(struct query *q)
{
	q->terms = xreallocarray(q->terms, q->n + 1, sizeof(*q->terms));
	memset(&q->terms[q->n], 0, sizeof(*q->terms));
	return &q->terms[q->n];
}

int query_add(struct query *q, enum qfield field, enum qop op, int negate,
	      const char *value, char **err)
{
	struct qterm *t = new_term(q);

	*err = NULL;
	if (field == F_ARG || field >= F_COUNT || op > Q_NRE ||
	    (field == F_WORD && op != Q_HAS && op != Q_RE))
		return fail(err, NO_COL, "%s", "no such term");
	if ((op == Q_RE || op == Q_NRE) && !regex_writable(value))
		return fail(err, NO_COL, "%s", "a regex with a control"
			    " character or \\/ in it");
	t->field = field;
	t->op = op;
	t->negate = !!negate;
	t->value = xstrdup(value);
	if (check_term(t, NO_COL, NO_COL, err)) {
		free(t->value);
		return -1;
	}
	q->n++;
	return 0;
}

void query_append(struct query *q, const struct query *from)
{
	for (size_t i = 0; i < from->n; i++) {
		struct qterm *t = new_term(q);

		*t = from->terms[i];
		t->value = xstrdup(t->value);
		t->arg = t->arg ? xstrdup(t->arg) : NULL;
		q->n++;
	}
}
