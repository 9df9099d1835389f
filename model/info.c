#include "config.h"

#include "model/info.h"

#include <inttypes.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/report/report.h"
#include "model/timefmt.h"
#include "model/util.h"

static const struct {
	const char *key, *title;
} known[] = {
	{ "summary", "Summary" },
	{ "neff_header", "NEFF header" },
	{ "neff_node", "NEFF nodes" },
	{ "model_info", "Model info" },
	{ "dma_queues_info", "DMA queues info" },
	{ "nc_mem_usage", "NC memory usage" },
	{ "warnings", "Warnings" },
	{ "terminology", "Terminology" },
	{ "metadata", "Metadata" },
	{ "profile_info", "Profile info" },
	{ "system_profile_metadata", "System profile metadata" },
};

/* Shown inside other panels (the details pane's field docs among
 * them), not on their own. */
static int hidden(const char *key)
{
	return !strcmp(key, "summary_groups") ||
	       !strcmp(key, "summary_group_order") ||
	       !strcmp(key, "field_unit") || !strcmp(key, "field_description");
}

static const char *title_of(const char *key)
{
	for (size_t i = 0; i < NX_ARRAY_SIZE(known); i++)
		if (!strcmp(known[i].key, key))
			return known[i].title;
	return NULL;
}

static int order_of(const char *key)
{
	for (size_t i = 0; i < NX_ARRAY_SIZE(known); i++)
		if (!strcmp(known[i].key, key))
			return (int)i;
	return (int)NX_ARRAY_SIZE(known);
}

static int cmp_section(const void *a, const void *b)
{
	const struct info_section *x = a, *y = b;
	int d = order_of(x->key) - order_of(y->key);

	return d ? d : strcmp(x->key, y->key);
}

int info_sections(struct model *m, int64_t profile, struct info_section **out,
		  size_t *n)
{
	sqlite3_stmt *st;
	int have_warnings = 0;

	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(model_db(m), "SELECT section, count(DISTINCT idx)"
			       " FROM info WHERE profile_id = ? GROUP BY section",
			       -1, &st, NULL) != SQLITE_OK)
		return model_fail(m, "info");
	sqlite3_bind_int64(st, 1, profile);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *key = (const char *)sqlite3_column_text(st, 0);
		const char *t;

		if (!key || hidden(key))
			continue;
		t = title_of(key);
		*out = xreallocarray(*out, *n + 1, sizeof(**out));
		(*out)[*n].key = xstrdup(key);
		(*out)[*n].title = xstrdup(t ? t : key);
		(*out)[*n].records = sqlite3_column_int64(st, 1);
		have_warnings |= !strcmp(key, "warnings");
		(*n)++;
	}
	sqlite3_finalize(st);
	/* import warnings make a Warnings panel even without profile ones */
	if (!have_warnings) {
		if (sqlite3_prepare_v2(model_db(m), "SELECT count(*) FROM warning"
				       " WHERE profile_id = ? OR profile_id IS NULL",
				       -1, &st, NULL) == SQLITE_OK) {
			sqlite3_bind_int64(st, 1, profile);
			if (sqlite3_step(st) == SQLITE_ROW &&
			    sqlite3_column_int64(st, 0) > 0) {
				*out = xreallocarray(*out, *n + 1, sizeof(**out));
				(*out)[*n].key = xstrdup("warnings");
				(*out)[*n].title = xstrdup("Warnings");
				(*out)[*n].records = sqlite3_column_int64(st, 0);
				(*n)++;
			}
			sqlite3_finalize(st);
		}
	}
	if (*n)
		qsort(*out, *n, sizeof(**out), cmp_section);
	return 0;
}

void info_sections_free(struct info_section *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(s[i].key);
		free(s[i].title);
	}
	free(s);
}

static void add_col(struct info_table *t, const char *name)
{
	t->cols = xreallocarray(t->cols, t->ncols + 1, sizeof(*t->cols));
	t->cols[t->ncols++] = xstrdup(name);
}

static int col_index(struct info_table *t, const char *name)
{
	for (size_t i = 0; i < t->ncols; i++)
		if (!strcmp(t->cols[i], name))
			return (int)i;
	return -1;
}

static char **add_row(struct info_table *t)
{
	char **row;

	t->cells = xreallocarray(t->cells, (t->nrows + 1) * t->ncols,
				 sizeof(*t->cells));
	row = &t->cells[t->nrows * t->ncols];
	for (size_t i = 0; i < t->ncols; i++)
		row[i] = xstrdup("");
	t->nrows++;
	return row;
}

static void set_cell(char **row, size_t col, const char *v)
{
	free(row[col]);
	row[col] = xstrdup(v ? v : "");
}

static char *value_text(sqlite3_stmt *st, int i)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_NULL:
		return xstrdup("");
	case SQLITE_INTEGER:
		return xasprintf("%" PRId64, (int64_t)sqlite3_column_int64(st, i));
	case SQLITE_FLOAT:
		return xasprintf("%.10g", sqlite3_column_double(st, i));
	default:
		return xstrdup((const char *)sqlite3_column_text(st, i));
	}
}

/* Summary values as people read them: seconds as durations, fractions
 * as percentages. */
static char *summary_value(const char *key, sqlite3_stmt *st, int i,
			   int tf)
{
	int t = sqlite3_column_type(st, i);
	size_t n = strlen(key);
	double v;
	char buf[64];

	if (t != SQLITE_INTEGER && t != SQLITE_FLOAT)
		return value_text(st, i);
	v = sqlite3_column_double(st, i);
	if (n > 8 && !strcmp(key + n - 8, "_percent"))
		return xstrdup(report_pct(buf, sizeof(buf), v * 100));
	if ((n > 5 && !strcmp(key + n - 5, "_time")) || !strcmp(key, "total_time")) {
		timefmt_dur(buf, sizeof(buf), (int64_t)llround(v * 1e9), 3, tf);
		return xstrdup(buf);
	}
	return value_text(st, i);
}

static int load_summary(struct model *m, int64_t profile, int tf,
			struct info_table *t)
{
	sqlite3_stmt *st;

	t->by_key = 1;
	add_col(t, "Group");
	add_col(t, "Key");
	add_col(t, "Value");
	add_col(t, "Description");
	/* groups by summary_group_order, then keys alphabetically */
	if (sqlite3_prepare_v2(model_db(m),
			       "SELECT coalesce(g.value, 'other'), s.key, s.value,"
			       " coalesce(d.value, t.value, '') FROM info s"
			       " LEFT JOIN info g ON g.profile_id = s.profile_id AND"
			       " g.section = 'summary_groups' AND g.idx = 0 AND"
			       " g.key = s.key"
			       " LEFT JOIN info o ON o.profile_id = s.profile_id AND"
			       " o.section = 'summary_group_order' AND o.idx = 0 AND"
			       " o.key = g.value"
			       " LEFT JOIN info d ON d.profile_id = s.profile_id AND"
			       " d.section = 'terminology' AND d.idx = 0 AND"
			       " d.key = s.key"
			       /* a Parquet profile's SchemaFields: "Summary.key" */
			       " LEFT JOIN info t ON t.profile_id = s.profile_id AND"
			       " t.section = 'terminology' AND t.idx = 0 AND"
			       " t.key = 'Summary.' || s.key"
			       " WHERE s.profile_id = ? AND s.section = 'summary'"
			       " AND s.idx = 0 ORDER BY coalesce(o.value, 1e9),"
			       " 1, s.key", -1, &st, NULL) != SQLITE_OK)
		return model_fail(m, "summary");
	sqlite3_bind_int64(st, 1, profile);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *key = (const char *)sqlite3_column_text(st, 1);
		char **row = add_row(t);
		char *v = summary_value(key ? key : "", st, 2, tf);

		set_cell(row, 0, (const char *)sqlite3_column_text(st, 0));
		set_cell(row, 1, key);
		set_cell(row, 2, v);
		set_cell(row, 3, (const char *)sqlite3_column_text(st, 3));
		free(v);
	}
	sqlite3_finalize(st);
	return 0;
}

static int load_warnings(struct model *m, int64_t profile, struct info_table *t)
{
	sqlite3_stmt *st;

	add_col(t, "Source");
	add_col(t, "Category");
	add_col(t, "Message");
	if (sqlite3_prepare_v2(model_db(m), "SELECT origin, coalesce(category,''),"
			       " message FROM warning WHERE profile_id = ? OR"
			       " profile_id IS NULL ORDER BY id", -1, &st,
			       NULL) != SQLITE_OK)
		return model_fail(m, "warnings");
	sqlite3_bind_int64(st, 1, profile);
	while (sqlite3_step(st) == SQLITE_ROW) {
		char **row = add_row(t);

		for (int i = 0; i < 3; i++)
			set_cell(row, (size_t)i, (const char *)sqlite3_column_text(st, i));
	}
	sqlite3_finalize(st);
	return 0;
}

/* One record: Key / Value rows. Several: a column per key, in the order
 * keys first appear. */
static int load_generic(struct model *m, int64_t profile, const char *key,
			struct info_table *t)
{
	sqlite3_stmt *st;
	int64_t records = 0, last = -1;
	char **row = NULL;

	if (sqlite3_prepare_v2(model_db(m), "SELECT count(DISTINCT idx) FROM info"
			       " WHERE profile_id = ? AND section = ?", -1, &st,
			       NULL) != SQLITE_OK)
		return model_fail(m, "info");
	sqlite3_bind_int64(st, 1, profile);
	sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		records = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(model_db(m), "SELECT idx, key, value FROM info"
			       " WHERE profile_id = ? AND section = ?"
			       " ORDER BY idx, key", -1, &st, NULL) != SQLITE_OK)
		return model_fail(m, "info");
	sqlite3_bind_int64(st, 1, profile);
	sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
	if (records <= 1) {
		t->by_key = 1;
		add_col(t, "Key");
		add_col(t, "Value");
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t idx = sqlite3_column_int64(st, 0);
		const char *k = (const char *)sqlite3_column_text(st, 1);
		char *v = value_text(st, 2);

		if (records <= 1) {
			row = add_row(t);
			set_cell(row, 0, k);
			set_cell(row, 1, v);
		} else {
			int c = col_index(t, k ? k : "");

			if (c < 0) {
				/* a new column: widen every row */
				size_t old = t->ncols;
				char **cells = xcalloc((t->nrows + 1) * (old + 1),
						       sizeof(*cells));

				for (size_t r = 0; r < t->nrows; r++) {
					for (size_t x = 0; x < old; x++)
						cells[r * (old + 1) + x] =
							t->cells[r * old + x];
					cells[r * (old + 1) + old] = xstrdup("");
				}
				free(t->cells);
				t->cells = cells;
				add_col(t, k ? k : "");
				c = (int)old;
			}
			if (idx != last || !t->nrows) {
				row = add_row(t);
				last = idx;
			}
			row = &t->cells[(t->nrows - 1) * t->ncols];
			set_cell(row, (size_t)c, v);
		}
		free(v);
	}
	sqlite3_finalize(st);
	return 0;
}

int info_load(struct model *m, int64_t profile, const char *key, int ascii,
	      struct info_table *out)
{
	const char *title = title_of(key);

	memset(out, 0, sizeof(*out));
	out->title = xstrdup(title ? title : key);
	if (!strcmp(key, "summary"))
		return load_summary(m, profile, ascii ? TF_ASCII : 0, out);
	if (!strcmp(key, "warnings"))
		return load_warnings(m, profile, out);
	return load_generic(m, profile, key, out);
}

void info_free(struct info_table *t)
{
	for (size_t i = 0; i < t->ncols * t->nrows; i++)
		free(t->cells[i]);
	for (size_t i = 0; i < t->ncols; i++)
		free(t->cols[i]);
	free(t->cells);
	free(t->cols);
	free(t->title);
	memset(t, 0, sizeof(*t));
}
