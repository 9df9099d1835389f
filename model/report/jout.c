#include "config.h"

#include "model/report/jout.h"

#include <math.h>
#include <inttypes.h>

#include "model/text.h"
#include "model/util.h"

void jout_init(struct jout *j, FILE *f, int pretty)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = 1;
	j->after_key = 0;
	j->pretty = pretty;
}

static void indent(struct jout *j)
{
	if (!j->pretty)
		return;
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* Separator before a value or key at the current depth. */
static void sep(struct jout *j)
{
	if (j->depth && !j->first[j->depth])
		fputc(',', j->f);
	if (j->depth)
		indent(j);
	j->first[j->depth] = 0;
}

static void value_start(struct jout *j)
{
	if (j->after_key)
		j->after_key = 0;
	else
		sep(j);
}

static void open(struct jout *j, char c)
{
	value_start(j);
	fputc(c, j->f);
	if (j->depth < 63)
		j->depth++;
	j->first[j->depth] = 1;
	j->close[j->depth] = c == '{' ? '}' : ']';
}

void jout_obj(struct jout *j)
{
	open(j, '{');
}

void jout_arr(struct jout *j)
{
	open(j, '[');
}

void jout_end(struct jout *j)
{
	int empty = j->first[j->depth];
	char c = j->close[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (!empty)
		indent(j);
	fputc(c, j->f);
}

/* Exports show text as the terminal does: cleaned, then quoted. */
static void write_escaped(FILE *f, const char *s)
{
	struct strbuf clean, q;

	sb_init(&clean);
	sb_init(&q);
	text_sanitize(&clean, s, 0);
	text_json_str(&q, clean.buf, clean.len);
	fwrite(q.buf, 1, q.len, f);
	sb_free(&clean);
	sb_free(&q);
}

void jout_key(struct jout *j, const char *key)
{
	sep(j);
	write_escaped(j->f, key);
	fputs(j->pretty ? ": " : ":", j->f);
	j->after_key = 1;
}

void jout_str(struct jout *j, const char *s)
{
	value_start(j);
	if (s)
		write_escaped(j->f, s);
	else
		fputs("null", j->f);
}

void jout_int(struct jout *j, int64_t v)
{
	value_start(j);
	fprintf(j->f, "%" PRId64, v);
}

void jout_real(struct jout *j, double v)
{
	value_start(j);
	if (isfinite(v))
		fprintf(j->f, "%.17g", v);
	else
		fputs("null", j->f);
}

void jout_digits(struct jout *j, const char *digits)
{
	value_start(j);
	fputs(digits, j->f);
}

void jout_bool(struct jout *j, int v)
{
	value_start(j);
	fputs(v ? "true" : "false", j->f);
}

void jout_null(struct jout *j)
{
	value_start(j);
	fputs("null", j->f);
}

void jout_kstr(struct jout *j, const char *key, const char *s)
{
	jout_key(j, key);
	jout_str(j, s);
}

void jout_kint(struct jout *j, const char *key, int64_t v)
{
	jout_key(j, key);
	jout_int(j, v);
}

void jout_kreal(struct jout *j, const char *key, double v)
{
	jout_key(j, key);
	jout_real(j, v);
}

void jout_kbool(struct jout *j, const char *key, int v)
{
	jout_key(j, key);
	jout_bool(j, v);
}

void jout_kopt(struct jout *j, const char *key, int64_t v)
{
	jout_key(j, key);
	if (v < 0)
		jout_null(j);
	else
		jout_int(j, v);
}

void jout_done(struct jout *j)
{
	fputc('\n', j->f);
}
