/* Running the rules: options, the findings array, helpers for rules. */
#include "config.h"

#include "model/analyze/analyze.h"

#include <sqlite3.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "model/infoval.h"
#include "model/util.h"

const char *const an_severity_names[] = { "info", "warning", "error" };

static int rule_index(const char *id, size_t len)
{
	for (size_t i = 0; i < an_nrules; i++)
		if (strlen(an_rules[i].id) == len &&
		    !strncmp(an_rules[i].id, id, len))
			return (int)i;
	return -1;
}

void an_opts_init(struct an_opts *o)
{
	o->enabled = NULL;
	o->param = xcalloc(an_nrules, sizeof(*o->param));
	for (size_t i = 0; i < an_nrules; i++)
		for (int k = 0; k < AN_MAX_PARAMS; k++)
			o->param[i][k] = an_rules[i].params[k].def;
}

void an_opts_free(struct an_opts *o)
{
	free(o->enabled);
	free(o->param);
}

/* The error of an unknown id, with the ids there are. */
static int no_rule(const char *id, size_t len)
{
	struct strbuf sb;

	sb_init(&sb);
	for (size_t i = 0; i < an_nrules; i++)
		sb_printf(&sb, "%s%s", i ? ", " : "", an_rules[i].id);
	if (len)
		err_set("--rule: no rule '%.*s' (rules: %s)", (int)len, id,
			sb_cstr(&sb));
	else
		err_set("--rule: a rule is missing (rules: %s)", sb_cstr(&sb));
	sb_free(&sb);
	return -1;
}

int an_opts_rules(struct an_opts *o, const char *list)
{
	const char *s = list;

	if (!o->enabled)
		o->enabled = xcalloc(an_nrules, 1);
	/* an empty list would run no rule and find nothing: a mistake */
	if (!*s)
		return no_rule(s, 0);
	while (*s) {
		size_t len = strcspn(s, ",");
		int i = rule_index(s, len);

		if (i < 0)
			return no_rule(s, len);
		o->enabled[i] = 1;
		s += len + (s[len] == ',');
	}
	return 0;
}

static int param_index(const struct an_rule *r, const char *name, size_t len)
{
	for (int k = 0; k < AN_MAX_PARAMS && r->params[k].name; k++)
		if (strlen(r->params[k].name) == len &&
		    !strncmp(r->params[k].name, name, len))
			return k;
	return -1;
}

int an_opts_set(struct an_opts *o, const char *assign)
{
	const char *dot = strchr(assign, '.'), *eq = strchr(assign, '=');
	int i, k;
	double v;

	if (!dot || !eq || eq < dot) {
		err_set("--set: expected RULE.PARAM=VALUE, not '%s'", assign);
		return -1;
	}
	if ((i = rule_index(assign, (size_t)(dot - assign))) < 0) {
		err_set("--set: no rule '%.*s'", (int)(dot - assign), assign);
		return -1;
	}
	k = param_index(&an_rules[i], dot + 1, (size_t)(eq - dot - 1));
	if (k < 0) {
		err_set("--set: rule %s has no parameter '%.*s'", an_rules[i].id,
			(int)(eq - dot - 1), dot + 1);
		return -1;
	}
	if (parse_plain_real(eq + 1, &v)) {
		err_set("--set: %s.%s: '%s' is not a number >= 0", an_rules[i].id,
			an_rules[i].params[k].name, eq + 1);
		return -1;
	}
	o->param[i][k] = v;
	return 0;
}

int an_has_rows(struct an_ctx *c, const char *kind, const char *what)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(model_db(c->m), "SELECT 1 FROM track WHERE"
			       " profile_id = ? AND kind = ? AND n_events > 0"
			       " LIMIT 1", -1, &st, NULL) != SQLITE_OK)
		return model_fail(c->m, "analyze");
	sqlite3_bind_int64(st, 1, c->profile);
	sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		an_note(c, "not checked: the profile has no %s", what);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 :
	       model_fail(c->m, "analyze");
}

static int run_rule(struct an_ctx *c, size_t i)
{
	struct an_outcome *out = &c->res->outcomes[c->res->noutcomes++];

	out->rule = &an_rules[i];
	out->first = c->res->nfindings;
	c->note = NULL;
	if (an_rules[i].run(c))
		return -1;
	out->n = c->res->nfindings - out->first;
	out->note = c->note;
	return 0;
}

int analyze_run(struct model *m, int64_t profile, int64_t t0, int64_t t1,
		const struct an_opts *o, struct an_result *r)
{
	struct an_ctx c = { .m = m, .profile = profile, .t0 = t0, .t1 = t1,
			    .end = model_range_end(m, profile, t1), .res = r };

	memset(r, 0, sizeof(*r));
	r->outcomes = xcalloc(an_nrules, sizeof(*r->outcomes));
	for (size_t i = 0; i < an_nrules; i++) {
		if (o->enabled && !o->enabled[i])
			continue;
		c.param = o->param[i];
		if (run_rule(&c, i))
			return -1;
	}
	return 0;
}

void analyze_free(struct an_result *r)
{
	for (size_t i = 0; i < r->nfindings; i++) {
		free(r->findings[i].text);
		free(r->findings[i].ranges);
	}
	for (size_t i = 0; i < r->noutcomes; i++)
		free(r->outcomes[i].note);
	free(r->findings);
	free(r->outcomes);
	memset(r, 0, sizeof(*r));
}

struct an_finding *an_add(struct an_ctx *c, const char *advice,
			  const char *fmt, ...)
{
	struct an_result *r = c->res;
	struct an_finding *f;
	va_list ap;

	r->findings = xgrow(r->findings, &r->cap, r->nfindings + 1,
			    sizeof(*r->findings));
	f = &r->findings[r->nfindings++];
	memset(f, 0, sizeof(*f));
	f->rule = r->outcomes[r->noutcomes - 1].rule->id;
	f->severity = r->outcomes[r->noutcomes - 1].rule->severity;
	f->advice = advice;
	va_start(ap, fmt);
	f->text = xvasprintf(fmt, ap);
	va_end(ap);
	return f;
}

static struct an_num *num_slot(struct an_finding *f, const char *key)
{
	struct an_num *n;

	if (f->nnums >= AN_MAX_NUMS)
		abort();	/* a rule's own bug: it declares too many */
	n = &f->nums[f->nnums++];
	memset(n, 0, sizeof(*n));
	n->key = key;
	return n;
}

void an_int(struct an_finding *f, const char *key, int64_t v)
{
	num_slot(f, key)->i = v;
}

void an_real(struct an_finding *f, const char *key, double v)
{
	struct an_num *n = num_slot(f, key);

	n->is_real = 1;
	n->r = v;
}

void an_range_add(struct an_finding *f, int64_t ts, int64_t end, int64_t row)
{
	f->ranges = xgrow(f->ranges, &f->rcap, f->nranges + 1,
			  sizeof(*f->ranges));
	f->ranges[f->nranges++] = (struct an_range){ ts, end, row };
}

/* Longest first; of as long, the earliest, then by row id. */
static int by_length(const void *a, const void *b)
{
	const struct an_range *x = a, *y = b;
	int64_t lx = x->end - x->ts, ly = y->end - y->ts;

	if (lx != ly)
		return lx > ly ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (x->row > y->row) - (x->row < y->row);
}

void an_ranges_sort(struct an_finding *f)
{
	if (f->nranges > 1)
		qsort(f->ranges, f->nranges, sizeof(*f->ranges), by_length);
}

void an_note(struct an_ctx *c, const char *fmt, ...)
{
	va_list ap;

	free(c->note);
	va_start(ap, fmt);
	c->note = xvasprintf(fmt, ap);
	va_end(ap);
}

/* An integer (FLOPs, bytes) from the profile's summary section, exact;
 * 1 if absent or not an integer, -1 on a query error. */
static int summary_int(struct an_ctx *c, const char *key, int64_t *out)
{
	return infoval_int(c->m, c->profile, "summary", key, out);
}

int an_summary_pair(struct an_ctx *c, const char *num, const char *den,
		    int64_t *n, int64_t *d)
{
	int rc = summary_int(c, num, n);

	if (rc < 0 || (!rc && (rc = summary_int(c, den, d)) < 0))
		return -1;
	if (rc || *d <= 0) {
		an_note(c, "not checked: the profile's summary has no %s and %s",
			num, den);
		return 1;
	}
	return 0;
}
