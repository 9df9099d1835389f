/* Rule throttle: time the utilisation limit (the Throttling counter,
 * k/n) is under 100%, and which engines ran meanwhile. */
#include "config.h"

#include "model/analyze/rules.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/report/report.h"
#include "model/util.h"

/* Engines are counted over this many of the longest ranges: each costs
 * one indexed query per engine. */
#define ENGINE_RANGES 8

static const char samples_sql[] =
	"SELECT c.ts, c.value, c.track_id FROM counter c JOIN track t ON t.id = c.track_id"
	" WHERE t.profile_id = ?1 AND t.name = 'Throttling' AND c.ts < ?2"
	" ORDER BY c.ts";

static const char engines_sql[] =
	"SELECT id, name FROM track WHERE profile_id = ?1 AND kind = 'engine'"
	" ORDER BY sort_key, id";

static const char starts_sql[] =
	"SELECT count(*) FROM slice WHERE track_id = ?1 AND depth = 0"
	" AND ts >= ?2 AND ts < ?3";

/* Ranges under the limit, clipped to [t0, t1); 1 if no samples. */
static int throttled(struct an_ctx *c, struct an_finding *f, int64_t *ns)
{
	sqlite3_stmt *st;
	int64_t from = 0, row = 0;
	int rc, under = 0, any = 0;

	if (sqlite3_prepare_v2(model_db(c->m), samples_sql, -1, &st, NULL) !=
	    SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, c->profile);
	sqlite3_bind_int64(st, 2, c->t1);
	*ns = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t ts = sqlite3_column_int64(st, 0);
		int now = sqlite3_column_double(st, 1) * 100.0 < c->param[0];

		any = 1;
		row = sqlite3_column_int64(st, 2);
		if (now == under)
			continue;
		if (under && ts > c->t0) {
			from = from > c->t0 ? from : c->t0;
			an_range_add(f, from, ts, row);
			*ns += ts - from;
		}
		under = now;
		from = ts;
	}
	sqlite3_finalize(st);
	if (under) {
		from = from > c->t0 ? from : c->t0;
		an_range_add(f, from, c->end, row);
		*ns += c->end - from;
	}
	return rc != SQLITE_DONE ? -1 : !any;
}

static int64_t starts(sqlite3_stmt *st, int64_t track, const struct an_range *r)
{
	int64_t n = 0;

	sqlite3_bind_int64(st, 1, track);
	sqlite3_bind_int64(st, 2, r->ts);
	sqlite3_bind_int64(st, 3, r->end);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return n;
}

/* "Tensor 12, Vector 3": instructions starting in the longest ranges. */
static int engines(struct an_ctx *c, const struct an_finding *f,
		   struct strbuf *sb)
{
	sqlite3_stmt *eng, *st;
	size_t nr = f->nranges < ENGINE_RANGES ? f->nranges : ENGINE_RANGES;

	if (sqlite3_prepare_v2(model_db(c->m), engines_sql, -1, &eng, NULL))
		return -1;
	if (sqlite3_prepare_v2(model_db(c->m), starts_sql, -1, &st, NULL)) {
		sqlite3_finalize(eng);
		return -1;
	}
	sqlite3_bind_int64(eng, 1, c->profile);
	while (sqlite3_step(eng) == SQLITE_ROW) {
		int64_t n = 0;

		for (size_t i = 0; i < nr; i++)
			n += starts(st, sqlite3_column_int64(eng, 0), &f->ranges[i]);
		if (n)
			sb_printf(sb, "%s%s %lld", sb->len ? ", " : "",
				  (const char *)sqlite3_column_text(eng, 1),
				  (long long)n);
	}
	sqlite3_finalize(st);
	sqlite3_finalize(eng);
	return 0;
}

static int fire(struct an_ctx *c, struct an_finding *tmp, int64_t ns,
		double share)
{
	struct strbuf sb;
	struct an_finding *f;
	char pct[40], which[32];
	int rc;

	/* the ranges the engines are counted over */
	if (tmp->nranges == 1)
		snprintf(which, sizeof(which), "it");
	else if (tmp->nranges <= ENGINE_RANGES)
		snprintf(which, sizeof(which), "them");
	else
		snprintf(which, sizeof(which), "the longest %d", ENGINE_RANGES);
	sb_init(&sb);
	an_ranges_sort(tmp);
	rc = engines(c, tmp, &sb);
	f = an_add(c, "check the instance's power and thermal headroom; a"
		   " lighter neighbour load or a lower clock target may avoid it",
		   "throttled (limit under %g%%) %s of the range (over %g%%):"
		   " %lld ns in %zu range%s; instructions starting in %s:"
		   " %s", c->param[0],
		   report_pct(pct, sizeof(pct), share), c->param[1],
		   (long long)ns, tmp->nranges, tmp->nranges == 1 ? "" : "s",
		   which, sb.len ? sb_cstr(&sb) : "none");
	sb_free(&sb);
	an_int(f, "throttled_ns", ns);
	an_int(f, "range_ns", c->end - c->t0);
	an_real(f, "share_pct", share);
	f->ranges = tmp->ranges;
	f->nranges = tmp->nranges;
	f->rcap = tmp->rcap;
	return rc;
}

int rule_throttle(struct an_ctx *c)
{
	struct an_finding tmp = { 0 };
	int64_t ns;
	double share;
	char pct[40];
	int rc = throttled(c, &tmp, &ns);

	if (rc) {
		free(tmp.ranges);
		if (rc < 0)
			return model_fail(c->m, "analyze throttle");
		an_note(c, "not checked: the profile has no Throttling samples");
		return 0;
	}
	share = 100.0 * (double)ns / (double)(c->end - c->t0);
	if (share <= c->param[1]) {
		free(tmp.ranges);
		an_note(c, "no finding: throttled %s of the range (at most"
			" %g%%)", report_pct(pct, sizeof(pct), share),
			c->param[1]);
		return 0;
	}
	return fire(c, &tmp, ns, share) ? model_fail(c->m, "analyze throttle")
					 : 0;
}
