/* nxtop diff as text, JSON or CSV: the same cells in all three. Text
 * shows times and percentages for people and "-" for a side without
 * the row; CSV has raw numbers and empty cells, JSON numbers and null. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "model/diff.h"
#include "model/report/jout.h"
#include "model/report/report.h"
#include "model/table.h"
#include "model/text.h"

/* Where the cells of one row go: a table (text, CSV) or JSON. */
struct sink {
	enum out_format fmt;
	struct table *t;
	struct jout *j;
};

static void put_str(struct sink *s, const char *key, const char *v)
{
	if (s->j)
		jout_kstr(s->j, key, v);
	else
		table_text(s->t, v);
}

static void put_none(struct sink *s, const char *key, const char *text)
{
	if (s->j) {
		jout_key(s->j, key);
		jout_null(s->j);
	} else {
		table_text(s->t, s->fmt == OUT_TEXT ? text : "");
	}
}

/* An integer figure in its unit; a delta gets its sign in text. */
static void put_int(struct sink *s, const char *key, enum diff_unit u,
		    int64_t v, int delta)
{
	char buf[64];
	const char *sign = delta && v > 0 ? "+" : "";

	if (s->j) {
		jout_kint(s->j, key, v);
		return;
	}
	if (s->fmt == OUT_TEXT && u == DU_NS) {
		char d[48];

		snprintf(buf, sizeof(buf), "%s%s", sign,
			 report_dur(d, sizeof(d), v));
	} else {
		snprintf(buf, sizeof(buf), "%s%" PRId64,
			 s->fmt == OUT_TEXT ? sign : "", v);
	}
	table_num(s->t, (double)v, buf);
}

/* An integer figure past int64 (a profile's own number, or B-A of two):
 * its digits, a plain count. */
static void put_wide(struct sink *s, const char *key, struct diff_int x,
		     int delta)
{
	char buf[32];

	diff_int_text(buf, sizeof(buf), x, delta && s->fmt == OUT_TEXT);
	if (s->j) {
		jout_key(s->j, key);
		jout_digits(s->j, buf);
		return;
	}
	table_num(s->t, diff_int_real(x), buf);
}

/* An exact cell: through put_int() when int64 holds it. */
static void put_exact(struct sink *s, const char *key, enum diff_unit u,
		      struct diff_int x, int delta)
{
	int64_t v;

	if (diff_int_i64(x, &v))
		put_wide(s, key, x, delta);
	else
		put_int(s, key, u, v, delta);
}

static void put_real(struct sink *s, const char *key, double v, int delta)
{
	char buf[64];

	if (s->j) {
		jout_kreal(s->j, key, v);
		return;
	}
	if (s->fmt == OUT_TEXT)
		snprintf(buf, sizeof(buf), delta && v > 0 ? "%+.6g" : "%.6g", v);
	else
		snprintf(buf, sizeof(buf), "%.17g", v);
	table_num(s->t, v, buf);
}

static void put_pct(struct sink *s, const char *key, int ok, double pct)
{
	char buf[48];

	if (!ok) {
		put_none(s, key, "n/a");
		return;
	}
	if (s->fmt != OUT_TEXT) {
		put_real(s, key, pct, 0);
		return;
	}
	table_num(s->t, pct, report_pct_change(buf, sizeof(buf), pct));
}

static void side_cell(struct sink *s, const char *key, const struct diff *d,
		      const struct diff_row *r, int c, int side)
{
	enum diff_unit u = diff_cell_unit(d, r, c, side);
	struct diff_int x;

	if (!r->has[side]) {
		put_none(s, key, "-");
	} else if (u == DU_REAL) {
		put_real(s, key, r->real[side], 0);
	} else {
		diff_cell_int(r, c, side, &x);
		put_exact(s, key, u, x, 0);
	}
}

static void col_cells(struct sink *s, const struct diff *d,
		      const struct diff_row *r, int c)
{
	const struct diff_col *col = &d->lay->cols[c];
	char key[64];
	double pct = 0;
	int ok = !diff_pct(d, r, c, &pct);
	struct diff_int dl;

	snprintf(key, sizeof(key), "%s_a", col->key);
	side_cell(s, key, d, r, c, 0);
	snprintf(key, sizeof(key), "%s_b", col->key);
	side_cell(s, key, d, r, c, 1);
	snprintf(key, sizeof(key), "%s_delta", col->key);
	/* a delta past 2^64 - 1 is DU_REAL (diff_cell_unit) */
	if (diff_cell_unit(d, r, c, 2) == DU_REAL || diff_cell_int(r, c, 2, &dl))
		put_real(s, key, diff_real_delta(r), 1);
	else
		put_exact(s, key, diff_cell_unit(d, r, c, 2), dl, 1);
	if (col->pct) {
		snprintf(key, sizeof(key), "%s_pct", col->key);
		put_pct(s, key, ok, pct);
	}
}

static void row_cells(struct sink *s, const struct diff *d,
		      const struct diff_row *r)
{
	const struct diff_layout *l = d->lay;

	if (l->group_key)
		put_str(s, l->group_key, r->group ? r->group : "");
	put_str(s, l->name_key, r->name);
	if (d->what == DW_OVERALL && s->fmt != OUT_TEXT)
		put_str(s, "unit", diff_unit_names[r->unit]);
	for (int c = 0; c < l->ncols; c++)
		col_cells(s, d, r, c);
	put_str(s, "status", s->fmt == OUT_TEXT && r->has[0] && r->has[1] ?
		"" : diff_status(r));
}

static void add_col(struct table *t, int text, const char *title,
		    const char *key, const char *suffix, int right)
{
	char buf[96];

	snprintf(buf, sizeof(buf), "%s%s", text ? title : key,
		 text ? suffix : "");
	table_col(t, buf, right);
}

static struct table *columns(const struct diff *d, int text)
{
	const struct diff_layout *l = d->lay;
	struct table *t = table_new();

	if (l->group_key)
		add_col(t, text, l->group_title, l->group_key, "", 0);
	add_col(t, text, l->name_title, l->name_key, "", 0);
	if (d->what == DW_OVERALL && !text)
		table_col(t, "unit", 0);
	for (int c = 0; c < l->ncols; c++) {
		const struct diff_col *col = &l->cols[c];
		char key[64];

		snprintf(key, sizeof(key), "%s_a", col->key);
		add_col(t, text, col->title, key, " A", 1);
		snprintf(key, sizeof(key), "%s_b", col->key);
		add_col(t, text, col->title, key, " B", 1);
		snprintf(key, sizeof(key), "%s_delta", col->key);
		add_col(t, text, col->title, key, " B-A", 1);
		snprintf(key, sizeof(key), "%s_pct", col->key);
		if (col->pct)
			add_col(t, text, col->title, key, " %", 1);
	}
	add_col(t, text, "Status", "status", "", 0);
	return t;
}

/* A side's profile; of a scope its range and active time, else its
 * total time. */
static void side_json(struct jout *j, const char *key, const struct diff *d,
		      int side)
{
	jout_key(j, key);
	jout_obj(j);
	jout_kstr(j, "profile", d->prof[side].name);
	jout_kstr(j, "kind", d->prof[side].kind);
	if (d->file[side])
		jout_kstr(j, "file", d->file[side]);
	if (d->scope) {
		jout_kint(j, "start_ns", d->range[side][0]);
		jout_kint(j, "end_ns", d->range[side][1]);
	}
	jout_kint(j, d->scope ? "active_ns" : "total_ns", d->total[side]);
	jout_end(j);
}

static void diff_json(const struct diff *d, FILE *f)
{
	struct sink s = { OUT_JSON, NULL, NULL };
	struct jout j;
	double pct = 0;
	int ok = !diff_total_pct(d, &pct);

	jout_init(&j, f, 1);
	s.j = &j;
	jout_obj(&j);
	jout_kstr(&j, "what", diff_what_names[d->what]);
	if (d->scope)
		jout_kstr(&j, "scope", d->scope);
	side_json(&j, "a", d, 0);
	side_json(&j, "b", d, 1);
	jout_kint(&j, d->scope ? "active_delta_ns" : "total_delta_ns",
		  d->total[1] - d->total[0]);
	put_pct(&s, d->scope ? "active_pct" : "total_pct", ok, pct);
	jout_key(&j, "rows");
	jout_arr(&j);
	for (size_t i = 0; i < d->n; i++) {
		jout_obj(&j);
		row_cells(&s, d, &d->rows[i]);
		jout_end(&j);
	}
	jout_end(&j);
	jout_end(&j);
	jout_done(&j);
}

/* "A  name (kind)" and B's; each with its file when both profiles have
 * one name. */
static void names_text(const struct diff *d, FILE *f)
{
	for (int i = 0; i < 2; i++) {
		struct strbuf sb;

		sb_init(&sb);
		text_sanitize(&sb, d->prof[i].name, 0);
		sb_printf(&sb, " (%s)", d->prof[i].kind);
		/* two profiles of one name: which file is which */
		if (d->file[0] && d->file[1] &&
		    !strcmp(d->prof[0].name ? d->prof[0].name : "",
			    d->prof[1].name ? d->prof[1].name : "")) {
			sb_adds(&sb, "  ");
			text_sanitize(&sb, d->file[i], 0);
		}
		fprintf(f, "%-8s %s\n", i ? "B" : "A", sb_cstr(&sb));
		sb_free(&sb);
	}
}

/* The stretch of a scope on each side, from each profile's start. */
static void range_text(const struct diff *d, FILE *f)
{
	char t[4][48], len[48];

	for (int i = 0; i < 4; i++)
		report_dur(t[i], sizeof(t[i]), d->range[i / 2][i % 2]);
	report_dur(len, sizeof(len), d->range[0][1] - d->range[0][0]);
	fprintf(f, "Range    A %s .. %s, B %s .. %s (duration %s)\n", t[0],
		t[1], t[2], t[3], len);
}

static void header_text(const struct diff *d, FILE *f)
{
	char a[48], b[48], dl[48], p[48];
	size_t n[3] = { 0, 0, 0 };
	double pct;

	fprintf(f, "# nxtop diff %s%s%s\n", diff_what_names[d->what],
		d->scope ? " of the " : "", d->scope ? d->scope : "");
	names_text(d, f);
	if (d->scope)
		range_text(d, f);
	if (diff_total_pct(d, &pct))
		snprintf(p, sizeof(p), "n/a");
	else
		report_pct_change(p, sizeof(p), pct);
	report_dur(dl, sizeof(dl), d->total[1] - d->total[0]);
	/* a scope's figure is its active time, not a total */
	fprintf(f, "%-8s %s -> %s (%s%s, %s)\n", d->scope ? "Active" : "Total",
		report_dur(a, sizeof(a), d->total[0]),
		report_dur(b, sizeof(b), d->total[1]),
		d->total[1] > d->total[0] ? "+" : "", dl, p);
	for (size_t i = 0; i < d->n; i++)
		n[d->rows[i].has[0] ? (d->rows[i].has[1] ? 0 : 2) : 1]++;
	fprintf(f, "Rows     %zu: %zu in both, %zu added, %zu removed\n\n",
		d->n, n[0], n[1], n[2]);
}

void report_diff(const struct diff *d, enum out_format fmt, FILE *f)
{
	struct sink s = { fmt, NULL, NULL };

	if (fmt == OUT_JSON) {
		diff_json(d, f);
		return;
	}
	s.t = columns(d, fmt == OUT_TEXT);
	for (size_t i = 0; i < d->n; i++) {
		table_row(s.t);
		row_cells(&s, d, &d->rows[i]);
	}
	if (fmt == OUT_CSV) {
		table_write_csv(s.t, f);
	} else {
		header_text(d, f);
		table_write_text(s.t, f, 0);
	}
	table_free(s.t);
}
