/* The Profile Manager's listing as text, JSON or CSV (nxtop list). */
#include "config.h"

#include <stdio.h>

#include "model/proflist.h"
#include "model/report/export.h"
#include "model/table.h"
#include "model/text.h"

static void profile_row(struct table *t, const struct prof_entry *e, int text)
{
	char b[64];

	table_row(t);
	table_text(t, e->name);
	table_text(t, prof_kind_name(e->kind));
	if (text)
		table_text(t, prof_size_text(b, sizeof(b), e->size));
	else
		table_int(t, e->size);
	if (text)
		table_text(t, prof_when_text(b, sizeof(b), e->when));
	else
		table_int(t, e->when);
	table_text(t, prof_state_name(e->state));
	table_text(t, e->recent ? "yes" : text ? "" : "no");
	table_text(t, e->path);
}

static void write_text(const struct table *t, const char *const *where,
		       FILE *f)
{
	struct strbuf sb;

	sb_init(&sb);
	fputs("# nxtop profiles\n", f);
	for (size_t i = 0; where[i]; i++) {
		sb_reset(&sb);
		text_sanitize(&sb, where[i], 0);
		fprintf(f, "From     %s\n", sb_cstr(&sb));
	}
	fprintf(f, "Profiles %zu\n\n", table_rows(t));
	sb_free(&sb);
	table_write_text(t, f, 0);
}

static void write_json(const struct table *t, const char *const *where,
		       FILE *f)
{
	struct jout j;

	jout_init(&j, f, 1);
	jout_obj(&j);
	jout_key(&j, "from");
	jout_arr(&j);
	for (size_t i = 0; where[i]; i++)
		jout_str(&j, where[i]);
	jout_end(&j);
	jout_key(&j, "profiles");
	table_write_json(t, &j);
	jout_end(&j);
	jout_done(&j);
}

void export_profiles(const struct proflist *pl, const char *const *where,
		     enum out_format fmt, FILE *f)
{
	struct table *t = table_new();
	int text = fmt == OUT_TEXT;

	table_col(t, text ? "Name" : "name", 0);
	table_col(t, text ? "Kind" : "kind", 0);
	table_col(t, text ? "Size" : "size_bytes", 1);
	table_col(t, text ? "When" : "when_ns", text ? 0 : 1);
	table_col(t, text ? "State" : "state", 0);
	table_col(t, text ? "Recent" : "recent", 0);
	table_col(t, text ? "Path" : "path", 0);
	for (size_t i = 0; i < pl->n; i++)
		profile_row(t, &pl->v[i], text);
	if (fmt == OUT_JSON)
		write_json(t, where, f);
	else if (fmt == OUT_CSV)
		table_write_csv(t, f);
	else
		write_text(t, where, f);
	table_free(t);
}
