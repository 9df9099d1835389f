/* The performance bounds as text and JSON: the Selection Summary's and
 * window summary's exports and `nxtop analyze` print them alike. */
#include "config.h"

#include "model/report/report.h"

#include <inttypes.h>
#include <stdlib.h>

#include "model/bounds.h"
#include "model/report/jout.h"
#include "model/text.h"

const char *report_bound_value(const struct bound_fig *f, char *buf, size_t n)
{
	if (!f->known)
		snprintf(buf, n, "%s", "");
	else if (f->is_text)
		return f->s;
	else if (f->is_real)
		snprintf(buf, n, "%.17g", f->r);
	else
		snprintf(buf, n, "%" PRId64, f->i);
	return buf;
}

/* "  name      1.23 ms   " and the numbers behind it, or why not. */
static void bound_head(FILE *f, const struct bounds *b, int k)
{
	char d[32];

	if (b->ns[k] < 0) {
		fprintf(f, "  %-9s not known: %s\n", bound_names[k],
			b->missing[k]);
		return;
	}
	fprintf(f, "  %-9s %-10s", bound_names[k],
		report_dur(d, sizeof(d), b->ns[k]));
}

static void memory_text(FILE *f, const struct bounds *b)
{
	const char *sep = "";

	bound_head(f, b, BOUND_MEMORY);
	if (b->ns[BOUND_MEMORY] < 0)
		return;
	if (b->dma_bytes >= 0 && b->dma_bw > 0) {
		fprintf(f, "DMA %" PRId64 " B / %.15g B/s", b->dma_bytes,
			b->dma_bw);
		sep = "; ";
	}
	if (b->hbm_bytes >= 0 && b->hbm_bw > 0)
		fprintf(f, "%sHBM %" PRId64 " B / %.15g B/s", sep, b->hbm_bytes,
			b->hbm_bw);
	fputc('\n', f);
}

static void compute_text(FILE *f, const struct bounds *b)
{
	bound_head(f, b, BOUND_COMPUTE);
	if (b->ns[BOUND_COMPUTE] < 0)
		return;
	fprintf(f, "%" PRId64 " FLOPs (%s) / %.15g FLOP/s (%" PRId64 " x %"
		PRId64 " x 2 x %g GHz)\n", b->flops, b->flops_from,
		b->peak_flops, b->pe_rows, b->pe_cols, b->clock_ghz);
}

static void pipeline_text(FILE *f, const struct bounds *b)
{
	char d[32];
	char *e;

	bound_head(f, b, BOUND_PIPELINE);
	if (b->ns[BOUND_PIPELINE] < 0)
		return;
	if (!b->engine) {
		fputs("no engine active in the range\n", f);
		return;
	}
	e = text_clean(b->engine);
	fprintf(f, "%s active %s (the busiest engine)\n", e,
		report_dur(d, sizeof(d), b->engine_ns));
	free(e);
}

void report_bounds_text(const struct bounds *b, FILE *f)
{
	char a[32], r[32];

	if (!b->available) {
		report_line(f, "Bounds", b->why_not);
		return;
	}
	fputs("Bounds   least time of the range, every row\n", f);
	memory_text(f, b);
	compute_text(f, b);
	pipeline_text(f, b);
	if (b->binding < 0) {
		fputs("  binding   not known: no bound is known\n", f);
		return;
	}
	fprintf(f, "  binding   %s: %s of %s", bound_names[b->binding],
		report_dur(a, sizeof(a), b->ns[b->binding]),
		report_dur(r, sizeof(r), b->t1 - b->t0));
	if (b->speedup > 0)
		fprintf(f, ", speed-up left %.2fx\n", b->speedup);
	else
		fputs(", speed-up left not known (a bound of 0)\n", f);
}

void report_bounds_json(const struct bounds *b, struct jout *j)
{
	struct bound_fig figs[BOUND_MAX_FIGS];
	size_t n;

	jout_key(j, "bounds");
	jout_obj(j);
	jout_kbool(j, "available", b->available);
	if (!b->available) {
		jout_kstr(j, "note", b->why_not);
		jout_end(j);
		return;
	}
	n = bounds_figures(b, figs);
	for (size_t i = 0; i < n; i++) {
		const struct bound_fig *fg = &figs[i];

		if (!fg->known) {
			jout_key(j, fg->key);
			jout_null(j);
		} else if (fg->is_text) {
			jout_kstr(j, fg->key, fg->s);
		} else if (fg->is_real) {
			jout_kreal(j, fg->key, fg->r);
		} else {
			jout_kint(j, fg->key, fg->i);
		}
	}
	jout_end(j);
}
