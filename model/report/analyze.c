/* Printing the findings of `nxtop analyze`, and the bounds of the
 * analysed range, as text or JSON. */
#include "config.h"

#include "model/report/report.h"

#include <inttypes.h>
#include <stdlib.h>

#include "model/report/jout.h"
#include "model/text.h"

static const char *row_name(const struct mtrack *t, size_t nt, int64_t row)
{
	for (size_t i = 0; i < nt; i++)
		if (t[i].id == row)
			return t[i].name;
	return "";
}

static void range_text(const struct an_range *r, const struct mprofile *p,
		       const struct mtrack *t, size_t nt, FILE *f)
{
	char a[32], b[32], d[32];
	char *row = text_clean(row_name(t, nt, r->row));

	fprintf(f, "    %s .. %s (%s)%s%s\n", report_dur(a, sizeof(a), r->ts - p->start),
		report_dur(b, sizeof(b), r->end - p->start),
		report_dur(d, sizeof(d), r->end - r->ts), *row ? "  " : "", row);
	free(row);
}

static void finding_text(const struct an_finding *fd, const struct mprofile *p,
			 const struct mtrack *t, size_t nt, size_t max,
			 FILE *f)
{
	char *text = text_clean(fd->text);

	fprintf(f, "[%s] %s: %s\n", an_severity_names[fd->severity], fd->rule,
		text);
	free(text);
	if (fd->nranges) {
		size_t n = fd->nranges < max ? fd->nranges : max;

		fprintf(f, "  where: %zu range%s, %zu listed\n", fd->nranges,
			fd->nranges == 1 ? "" : "s", n);
		for (size_t i = 0; i < n; i++)
			range_text(&fd->ranges[i], p, t, nt, f);
	}
	fprintf(f, "  advice: %s\n", fd->advice);
}

void report_analyze_text(const struct an_result *r, const struct bounds *b,
			 const struct mprofile *p, const struct mtrack *t,
			 size_t nt, const struct an_limits *lim,
			 const char *side, FILE *f)
{
	char n[32];

	if (side)
		fprintf(f, "# nxtop analyze, profile %s\n", side);
	else
		fprintf(f, "# nxtop analyze\n");
	report_profile_text(p, f);

	snprintf(n, sizeof(n), "%zu", r->nfindings);
	report_line(f, "Findings", n);
	fputc('\n', f);
	for (size_t i = 0; i < r->noutcomes; i++) {
		const struct an_outcome *o = &r->outcomes[i];

		for (size_t k = 0; k < o->n && k < lim->findings; k++)
			finding_text(&r->findings[o->first + k], p, t, nt,
				     lim->ranges, f);
		if (o->n > lim->findings)
			fprintf(f, "[%s] %s: and %zu more findings\n",
				an_severity_names[o->rule->severity],
				o->rule->id, o->n - lim->findings);
		if (!o->n) {
			char *note = text_clean(o->note ? o->note : "no finding");

			fprintf(f, "[ok] %s: %s\n", o->rule->id, note);
			free(note);
		}
	}
	fputc('\n', f);
	report_bounds_text(b, f);
}

static void finding_json(const struct an_finding *fd, const struct mprofile *p,
			 size_t max, struct jout *j)
{
	jout_obj(j);
	jout_kstr(j, "severity", an_severity_names[fd->severity]);
	jout_kstr(j, "finding", fd->text);
	jout_key(j, "numbers");
	jout_obj(j);
	for (int i = 0; i < fd->nnums; i++) {
		if (fd->nums[i].is_real)
			jout_kreal(j, fd->nums[i].key, fd->nums[i].r);
		else
			jout_kint(j, fd->nums[i].key, fd->nums[i].i);
	}
	jout_end(j);
	jout_kint(j, "ranges_total", (int64_t)fd->nranges);
	jout_key(j, "ranges");
	jout_arr(j);
	for (size_t i = 0; i < fd->nranges && i < max; i++) {
		jout_obj(j);
		jout_kint(j, "ts", fd->ranges[i].ts - p->start);
		jout_kint(j, "end", fd->ranges[i].end - p->start);
		jout_kint(j, "row", fd->ranges[i].row);
		jout_end(j);
	}
	jout_end(j);
	jout_kstr(j, "advice", fd->advice);
	jout_end(j);
}

static void outcome_json(const struct an_result *r, const struct an_outcome *o,
			 const struct mprofile *p, const struct an_limits *lim,
			 struct jout *j)
{
	jout_obj(j);
	jout_kstr(j, "id", o->rule->id);
	jout_kstr(j, "severity", an_severity_names[o->rule->severity]);
	if (o->n) {
		jout_key(j, "note");
		jout_null(j);
	} else {
		jout_kstr(j, "note", o->note ? o->note : "no finding");
	}
	jout_kint(j, "findings_total", (int64_t)o->n);
	jout_key(j, "findings");
	jout_arr(j);
	for (size_t k = 0; k < o->n && k < lim->findings; k++)
		finding_json(&r->findings[o->first + k], p, lim->ranges, j);
	jout_end(j);
	jout_end(j);
}

void report_analyze_jout(const struct an_result *r, const struct bounds *b,
			 const struct mprofile *p, const struct an_limits *lim,
			 struct jout *j)
{
	jout_obj(j);
	report_profile_json(p, j);
	jout_kint(j, "findings", (int64_t)r->nfindings);
	jout_key(j, "rules");
	jout_arr(j);
	for (size_t i = 0; i < r->noutcomes; i++)
		outcome_json(r, &r->outcomes[i], p, lim, j);
	jout_end(j);
	report_bounds_json(b, j);
	jout_end(j);
}

void report_analyze_json(const struct an_result *r, const struct bounds *b,
			 const struct mprofile *p, const struct an_limits *lim,
			 FILE *f)
{
	struct jout j;

	jout_init(&j, f, 1);
	report_analyze_jout(r, b, p, lim, &j);
	jout_done(&j);
}
