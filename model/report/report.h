/* Printing the profile summary (`nxtop summary`) as text, JSON or CSV. */
#ifndef NX_REPORT_H
#define NX_REPORT_H

#include <stdio.h>

#include "model/analyze/analyze.h"
#include "model/summary.h"
#include "model/syssummary.h"

enum out_format { OUT_TEXT, OUT_JSON, OUT_CSV };

int out_format_parse(const char *s, enum out_format *f);

/* Pieces every text report shares. */
const char *report_dur(char *buf, size_t n, int64_t ns);
/* A percentage (0..100) as every view and text export shows one: two
 * decimals, "12.34%"; below 0.01% two significant digits, "0.0024%",
 * so that a small MFU does not read as 0. */
const char *report_pct(char *buf, size_t n, double pct);
/* A change in percent as report_pct writes it, with its sign: "+1.25%",
 * "-0.0011%". */
const char *report_pct_change(char *buf, size_t n, double pct);
/* "Label        value", the value sanitised. */
void report_line(FILE *f, const char *label, const char *value);
/* "Warnings (N)" and one line per warning, "[category] message". */
void report_warnings_text(const struct sum_warning *w, size_t n, FILE *f);

struct table;
struct jout;
/* The first lines of both summaries: "Profile" and "Kind (format)"; in
 * JSON the name, kind and format inside the caller's object. */
void report_profile_text(const struct mprofile *p, FILE *f);
void report_profile_json(const struct mprofile *p, struct jout *j);
/* The "Rows" table of both summaries: its columns, and one row's cells
 * (Busy % of total, "-" without a total). */
void report_row_cols(struct table *t);
void report_row_cells(struct table *t, const char *name, const char *kind,
		      int64_t n, int64_t dur, int64_t busy, int64_t total);
/* A row's fields in JSON, inside an object the caller opened. */
void report_row_json(struct jout *j, const char *name, const char *kind,
		     int64_t n, int64_t dur, int64_t busy);
/* The "warnings" array of both summaries. */
void report_warnings_json(const struct sum_warning *w, size_t n, struct jout *j);

/* A table as an export: JSON {"profile": NAME, [extra_key: extra,] key:
 * [rows]}, CSV, or text: "# nxtop WHAT", the profile, an optional line
 * (e.g. "Layers   12"), a blank line and the table. */
void report_table(const struct table *t, const struct mprofile *p,
		  enum out_format fmt, FILE *f, const char *what,
		  const char *key, const char *extra_key, int64_t extra,
		  const char *line);

void report_summary_text(const struct summary *s, FILE *f);
void report_summary_json(const struct summary *s, FILE *f);
/* A system profile's summary (sysreport.c). */
void report_syssummary_text(const struct syssummary *s, FILE *f);
void report_syssummary_json(const struct syssummary *s, FILE *f);
/* Either summary as CSV (sumcsv.c): one long table, section, record,
 * column, value, with every value of the JSON under its key. */
void report_summary_csv(const struct summary *s, FILE *f);
void report_syssummary_csv(const struct syssummary *s, FILE *f);
/* A system profile's device profiles, as the device list shows them
 * (nxtop export --what devices). */
void export_devices(const struct mdevice *d, size_t n, const struct mprofile *p,
		    enum out_format fmt, FILE *f);

/* How much of each rule `nxtop analyze` lists: findings per rule and
 * ranges per finding; the totals are always given. */
struct an_limits {
	size_t findings, ranges;
};

struct bounds;
struct bound_fig;
/* The findings of `nxtop analyze` (analyze.c): every rule's findings,
 * or its one line when it found nothing, within the limits, ranges named
 * by rows t. Times from the profile start. Then the bounds of the
 * analysed range. side: "A" or "B" in the title of one of two stacked
 * profiles' reports ("# nxtop analyze, profile B"), else NULL. */
void report_analyze_text(const struct an_result *r, const struct bounds *b,
			 const struct mprofile *p, const struct mtrack *t,
			 size_t nt, const struct an_limits *lim,
			 const char *side, FILE *f);
void report_analyze_json(const struct an_result *r, const struct bounds *b,
			 const struct mprofile *p, const struct an_limits *lim,
			 FILE *f);
/* The same object as a value of the caller's JSON (two stacked
 * profiles' reports under "A" and "B"). */
struct jout;
void report_analyze_jout(const struct an_result *r, const struct bounds *b,
			 const struct mprofile *p, const struct an_limits *lim,
			 struct jout *j);

/* The performance bounds (bounds.c): a "Bounds" block of text, each
 * bound with the numbers behind it or why it is not known; in JSON a
 * "bounds" object inside the caller's, one key per figure. */
void report_bounds_text(const struct bounds *b, FILE *f);
/* The same block as lines (tf: timefmt_dur's flags), each allocated:
 * the views show these. Returns how many. */
#define REPORT_BOUNDS_LINES 5
size_t report_bounds_lines(const struct bounds *b, int tf,
			   char *lines[REPORT_BOUNDS_LINES]);
void report_bounds_json(const struct bounds *b, struct jout *j);
/* A figure's value as CSV and JSON write it ("" when not known). */
const char *report_bound_value(const struct bound_fig *f, char *buf, size_t n);

struct diff;
/* Two profiles compared (nxtop diff, diff.c): text, JSON or CSV. */
void report_diff(const struct diff *d, enum out_format fmt, FILE *f);

#endif
