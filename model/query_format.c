/* Queries as text: what query_parse (model/query.c) reads back as the
 * same terms, to show in the prompt, the results line and the history. */
#include "config.h"

#include "model/query.h"

#include <string.h>

#include "model/text.h"

/* Bytes a bare value may hold: no blank, quote, slash, backslash or
 * operator, so that it reads back as one word. */
static int bare_byte(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("_.:@%+,#-", c));
}

/* A free word may not start with '-' either (a negation). */
static int bare(const char *v, int word)
{
	if (!*v || (word && *v == '-'))
		return 0;
	for (; *v; v++)
		if (!bare_byte(*v))
			return 0;
	return 1;
}

static void quote(struct strbuf *out, const char *value)
{
	const unsigned char *s = (const unsigned char *)value;
	size_t n = strlen(value);

	sb_addc(out, '"');
	for (size_t i = 0; i < n;) {
		unsigned cp;
		size_t len = text_utf8_char(s + i, n - i, &cp);

		if (len && text_shown(cp)) {
			if (cp == '"' || cp == '\\')
				sb_addc(out, '\\');
			sb_add(out, (const char *)s + i, len);
			i += len;
			continue;
		}
		/* a control, an override or a byte of bad UTF-8 */
		len = len ? len : 1;
		for (size_t k = 0; k < len; k++)
			sb_printf(out, "\\x%02x", s[i + k]);
		i += len;
	}
	sb_addc(out, '"');
}

/* Appends value as query_parse reads it back: bare when that is plain,
 * else in quotes with " and \ escaped and every byte the screen would
 * not show as itself (controls, bidi overrides, bad UTF-8) as \xHH. */
static void query_quote(struct strbuf *out, const char *value)
{
	if (bare(value, 0))
		sb_adds(out, value);
	else
		quote(out, value);
}

/* A regex between slashes: '/' written as \/, backslash pairs as they
 * are (query_parse keeps them whole). */
static void slashed(struct strbuf *out, const char *re)
{
	sb_addc(out, '/');
	for (; *re; re++) {
		if (*re == '\\' && re[1]) {
			sb_add(out, re, 2);
			re++;
		} else {
			if (*re == '/')
				sb_addc(out, '\\');
			sb_addc(out, *re);
		}
	}
	sb_addc(out, '/');
}

static const char *op_text(enum qop op)
{
	static const char *const text[] = {
		[Q_EQ] = "=", [Q_NE] = "!=", [Q_HAS] = "~", [Q_HASNOT] = "!~",
		[Q_GT] = ">", [Q_GE] = ">=", [Q_LT] = "<", [Q_LE] = "<=",
		[Q_RE] = "=", [Q_NRE] = "!=",
	};

	return text[op];
}

static void term(struct strbuf *out, const struct qterm *t)
{
	int re = t->op == Q_RE || t->op == Q_NRE;

	if (t->negate)
		sb_addc(out, '-');
	if (t->field == F_WORD) {
		if (re)
			slashed(out, t->value);
		else if (bare(t->value, 1))
			sb_adds(out, t->value);
		else
			quote(out, t->value);
		return;
	}
	if (t->field == F_ARG)
		sb_printf(out, "args.%s", t->arg);
	else
		sb_adds(out, query_fields[t->field].name);
	sb_adds(out, op_text(t->op));
	if (re)
		slashed(out, t->value);
	else
		query_quote(out, t->value);
}

void query_format(const struct query *q, struct strbuf *out)
{
	for (size_t i = 0; i < q->n; i++) {
		if (i)
			sb_addc(out, ' ');
		term(out, &q->terms[i]);
	}
}
