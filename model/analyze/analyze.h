/* Analysis rules behind `nxtop analyze`: each rule asks the model for
 * numbers and says what it found, where, and what to do. The model
 * computes; the CLI (and later a view) only shows the findings. */
#ifndef NX_ANALYZE_H
#define NX_ANALYZE_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

enum an_severity { AN_INFO, AN_WARNING, AN_ERROR };

extern const char *const an_severity_names[];	/* "info", ... */

/* Where a finding holds: ns on the profile's axis, and its row (track
 * id, 0 for the whole profile). */
struct an_range {
	int64_t ts, end, row;
};

/* A figure behind a finding: integers (counts, bytes, ns) stay exact. */
struct an_num {
	const char *key;	/* "small_packets", "share_pct" */
	int is_real;
	int64_t i;
	double r;
};

#define AN_MAX_NUMS 8

struct an_finding {
	const char *rule;		/* the rule's id */
	enum an_severity severity;
	char *text;			/* one line, numbers included */
	struct an_num nums[AN_MAX_NUMS];
	int nnums;
	struct an_range *ranges;	/* longest first: an_ranges_sort */
	size_t nranges, rcap;
	const char *advice;
};

/* What a rule reported: its findings, or why it found nothing. */
struct an_outcome {
	const struct an_rule *rule;
	char *note;		/* "no ...", or why the rule could not run */
	size_t first, n;	/* its findings in an_result.findings */
};

struct an_result {
	struct an_finding *findings;
	size_t nfindings, cap;
	struct an_outcome *outcomes;	/* one per rule run, table order */
	size_t noutcomes;
};

struct an_param {
	const char *name;
	double def;
	const char *doc;
};

#define AN_MAX_PARAMS 4

/* What a rule sees: the profile, the time range, its parameters. */
struct an_ctx {
	struct model *m;
	int64_t profile;
	int64_t t0, t1;		/* [t0, t1) ns */
	int64_t end;		/* measured to (model_range_end) */
	const double *param;	/* the rule's values, in its params order */
	struct an_result *res;
	char *note;		/* set by an_note() */
};

struct an_rule {
	const char *id;
	enum an_severity severity;
	const char *doc;	/* what it checks, one line */
	struct an_param params[AN_MAX_PARAMS];
	/* 0 with findings added or a note set; -1 with err_get() set */
	int (*run)(struct an_ctx *c);
};

extern const struct an_rule an_rules[];
extern const size_t an_nrules;

/* Which rules run and with what parameters. */
struct an_opts {
	unsigned char *enabled;		/* per rule; NULL: all */
	double (*param)[AN_MAX_PARAMS];	/* per rule */
};

void an_opts_init(struct an_opts *o);
void an_opts_free(struct an_opts *o);
/* "id,id,..." enables only those rules; -1 with err_get() set. */
int an_opts_rules(struct an_opts *o, const char *list);
/* "rule.param=value"; -1 with err_get() set. */
int an_opts_set(struct an_opts *o, const char *assign);

/* Runs the enabled rules on [t0, t1) of a profile. */
int analyze_run(struct model *m, int64_t profile, int64_t t0, int64_t t1,
		const struct an_opts *o, struct an_result *r);
void analyze_free(struct an_result *r);

/* Every rule, with its default parameters, on [t0, t1) of a profile, on
 * a thread of its own (job.c) over another connection to m's cache. NULL
 * with err_get() set. */
struct an_job *an_job_start(struct model *m, int64_t profile, int64_t t0,
			    int64_t t1);
/* 1 when the job is done, 0 while it runs; wait: until it is done. */
int an_job_poll(struct an_job *j, int wait);
/* A done job's findings, or NULL with *error saying why it failed. */
const struct an_result *an_job_result(const struct an_job *j,
				      const char **error);
/* Stops a job still running, and frees it. */
void an_job_free(struct an_job *j);

/* For rules: a new finding (text printf-style), its figures and ranges. */
struct an_finding *an_add(struct an_ctx *c, const char *advice,
			  const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void an_int(struct an_finding *f, const char *key, int64_t v);
void an_real(struct an_finding *f, const char *key, double v);
void an_range_add(struct an_finding *f, int64_t ts, int64_t end, int64_t row);
/* Ranges longest first (then the earliest, then by row id), as they
 * are listed. */
void an_ranges_sort(struct an_finding *f);
/* Whether the profile has rows of a kind ("engine", "dma", "dma_xfer")
 * holding events: 1, 0 with the note "not checked: the profile has no
 * WHAT" set (a rule of device profiles on a system profile or a trace
 * says it did not look, not that it found nothing), -1 on error. */
int an_has_rows(struct an_ctx *c, const char *kind, const char *what);
/* The one line a rule says when it finds nothing. */
void an_note(struct an_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Both integer figures of a ratio (FLOPs, bytes: exact), den > 0; 1 with
 * the note set when the summary lacks them. */
int an_summary_pair(struct an_ctx *c, const char *num, const char *den,
		    int64_t *n, int64_t *d);

#endif
