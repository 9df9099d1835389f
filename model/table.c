#include "config.h"

#include "model/table.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "model/text.h"

struct cell {
	char *text;
	int is_num, is_null;
	int is_int;	/* num's exact value is i (JSON: every digit) */
	double num;
	int64_t i;
};

struct table {
	char **names;
	int *right;
	size_t ncols;
	struct cell *cells;	/* row-major, ncols per row */
	size_t nrows, cap;
	size_t fill;		/* cells filled in the last row */
};

struct table *table_new(void)
{
	return xcalloc(1, sizeof(struct table));
}

void table_free(struct table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->ncols; i++)
		free(t->names[i]);
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i].text);
	free(t->names);
	free(t->right);
	free(t->cells);
	free(t);
}

void table_col(struct table *t, const char *name, int right)
{
	t->names = xreallocarray(t->names, t->ncols + 1, sizeof(*t->names));
	t->right = xreallocarray(t->right, t->ncols + 1, sizeof(*t->right));
	/* column names may come from a file's keys */
	t->names[t->ncols] = text_clean(name);
	t->right[t->ncols++] = right;
}

void table_row(struct table *t)
{
	/* a row is ncols cells */
	t->cells = xgrow(t->cells, &t->cap, t->nrows + 1,
			 t->ncols * sizeof(*t->cells));
	memset(&t->cells[t->nrows * t->ncols], 0, t->ncols * sizeof(*t->cells));
	t->nrows++;
	t->fill = 0;
}

static struct cell *next_cell(struct table *t)
{
	if (!t->nrows || t->fill >= t->ncols)
		return NULL;
	return &t->cells[(t->nrows - 1) * t->ncols + t->fill++];
}

void table_text(struct table *t, const char *s)
{
	struct cell *c = next_cell(t);
	struct strbuf sb;

	if (!c)
		return;
	sb_init(&sb);
	text_sanitize(&sb, s ? s : "", 0);
	c->text = sb_detach(&sb);
}

void table_printf(struct table *t, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	table_text(t, s);
	free(s);
}

void table_int(struct table *t, int64_t v)
{
	struct cell *c = next_cell(t);

	if (!c)
		return;
	c->text = xasprintf("%" PRId64, v);
	c->is_num = c->is_int = 1;
	c->num = (double)v;
	c->i = v;
}

void table_num(struct table *t, double json_value, const char *text)
{
	struct cell *c = next_cell(t);

	if (!c)
		return;
	c->text = xstrdup(text);
	c->is_num = 1;
	c->num = json_value;
}

void table_null(struct table *t)
{
	struct cell *c = next_cell(t);

	if (c)
		c->is_null = 1;
}

size_t table_rows(const struct table *t)
{
	return t->nrows;
}

static const char *cell_text(const struct table *t, size_t r, size_t c)
{
	const char *s = t->cells[r * t->ncols + c].text;

	return s ? s : "";
}

/* Writes line without its trailing blanks (empty cells at its end). */
static void put_line(struct strbuf *line, FILE *f)
{
	size_t n = line->len;

	while (n && line->buf[n - 1] == ' ')
		n--;
	fwrite(line->buf, 1, n, f);
	fputc('\n', f);
}

void table_text_cell(struct strbuf *line, const char *s, int w, int right)
{
	size_t at = line->len, len;
	int pad;

	text_shorten(line, s, w);
	pad = w - text_width(sb_cstr(line) + at);
	if (pad <= 0)
		return;
	len = line->len - at;
	sb_printf(line, "%*s", pad, "");
	if (right) {
		memmove(line->buf + at + pad, line->buf + at, len);
		memset(line->buf + at, ' ', (size_t)pad);
	}
}

void table_write_text(const struct table *t, FILE *f, int indent)
{
	int *w = xcalloc(t->ncols, sizeof(*w));
	struct strbuf line;

	for (size_t c = 0; c < t->ncols; c++) {
		w[c] = text_width(t->names[c]);
		for (size_t r = 0; r < t->nrows; r++)
			w[c] = NX_MAX(w[c], text_width(cell_text(t, r, c)));
		w[c] = NX_MIN(w[c], TABLE_TEXT_COLS);
	}
	sb_init(&line);
	for (size_t r = 0; r <= t->nrows; r++) {
		sb_reset(&line);
		sb_printf(&line, "%*s", indent, "");
		for (size_t c = 0; c < t->ncols; c++) {
			if (c)
				sb_adds(&line, "  ");
			table_text_cell(&line, r ? cell_text(t, r - 1, c) :
					t->names[c], w[c], t->right[c]);
		}
		put_line(&line, f);
	}
	sb_free(&line);
	free(w);
}

/* A plain decimal number (-5, +1.5, -2e3): a spreadsheet reads it as
 * that number, nothing more. */
static int plain_number(const char *s)
{
	int digits = 0;

	s += *s == '-' || *s == '+';
	for (; *s >= '0' && *s <= '9'; s++)
		digits++;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++)
			digits++;
	if (digits && (*s == 'e' || *s == 'E')) {
		s++;
		s += *s == '-' || *s == '+';
		if (*s < '0' || *s > '9')
			return 0;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return digits && !*s;
}

/* Text a spreadsheet would evaluate as a formula (OWASP's list of first
 * characters) is written after a ' so that it stays text. */
static int formula_like(const char *s)
{
	return s[0] && strchr("=+-@\t\r", s[0]) && !plain_number(s);
}

void table_csv_field(FILE *f, const char *s, int is_num)
{
	int guard = !is_num && formula_like(s);

	if (!strpbrk(s, ",\"\n\r") && s[0] != ' ') {
		fprintf(f, "%s%s", guard ? "'" : "", s);
		return;
	}
	fputc('"', f);
	if (guard)
		fputc('\'', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void table_write_csv(const struct table *t, FILE *f)
{
	for (size_t r = 0; r <= t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			if (c)
				fputc(',', f);
			if (r)
				table_csv_field(f, cell_text(t, r - 1, c),
					  t->cells[(r - 1) * t->ncols + c].is_num);
			else
				table_csv_field(f, t->names[c], 0);
		}
		fputs("\r\n", f);
	}
}

void table_json_fields(const struct table *t, size_t r, struct jout *j)
{
	for (size_t c = 0; c < t->ncols; c++) {
		const struct cell *cl = &t->cells[r * t->ncols + c];

		jout_key(j, t->names[c]);
		if (cl->is_null)
			jout_null(j);
		else if (cl->is_int)
			jout_int(j, cl->i);
		else if (cl->is_num)
			jout_real(j, cl->num);
		else
			jout_str(j, cl->text ? cl->text : "");
	}
}

void table_write_json(const struct table *t, struct jout *j)
{
	jout_arr(j);
	for (size_t r = 0; r < t->nrows; r++) {
		jout_obj(j);
		table_json_fields(t, r, j);
		jout_end(j);
	}
	jout_end(j);
}
