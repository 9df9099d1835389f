/* The performance bounds as text and JSON: the Selection Summary's and
 * window summary's exports and `nxtop analyze` print them alike. */
#include "config.h"

#include "model/report/report.h"

#include <inttypes.h>
#include <stdlib.h>

#include "model/bounds.h"
#include "model/report/jout.h"
#include "model/text.h"
#include "model/timefmt.h"
#include "model/util.h"

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

static char *dur(int64_t ns, int tf)
{
	char d[48];

	timefmt_dur(d, sizeof(d), ns, 3, tf);
	return xstrdup(d);
}

/* "  memory    1.23 ms   " before the numbers behind a bound. */
static void head(struct strbuf *sb, const struct bounds *b, int k, int tf)
{
	char *d = dur(b->ns[k], tf);

	/* padded to 10 columns, not bytes: "µs" is one column, two bytes */
	sb_printf(sb, "  %-9s %s%*s ", bound_names[k], d,
		  NX_MAX(10 - text_width(d), 0), "");
	free(d);
}

static void memory_line(struct strbuf *sb, const struct bounds *b, int tf)
{
	const char *sep = "";

	head(sb, b, BOUND_MEMORY, tf);
	if (b->dma_bytes >= 0 && b->dma_bw > 0) {
		sb_printf(sb, "DMA %" PRId64 " B at %.4g GB/s", b->dma_bytes,
			  b->dma_bw / 1e9);
		sep = "; ";
	}
	if (b->hbm_bytes >= 0 && b->hbm_bw > 0)
		sb_printf(sb, "%sHBM %" PRId64 " B at %.4g GB/s", sep,
			  b->hbm_bytes, b->hbm_bw / 1e9);
}

static void compute_line(struct strbuf *sb, const struct bounds *b, int tf)
{
	head(sb, b, BOUND_COMPUTE, tf);
	sb_printf(sb, "%" PRId64 " FLOPs (%s) at %.4g TFLOP/s (%" PRId64 "x%"
		  PRId64 ", %g GHz)", b->flops, b->flops_from,
		  b->peak_flops / 1e12, b->pe_rows, b->pe_cols, b->clock_ghz);
}

static void pipeline_line(struct strbuf *sb, const struct bounds *b, int tf)
{
	char *d = dur(b->engine_ns, tf);

	head(sb, b, BOUND_PIPELINE, tf);
	if (b->engine) {
		text_sanitize(sb, b->engine, 0);
		sb_printf(sb, " active %s, the busiest engine", d);
	} else {
		sb_adds(sb, "no engine active in the range");
	}
	free(d);
}

static void binding_line(struct strbuf *sb, const struct bounds *b, int tf)
{
	char *a, *r;

	if (b->binding < 0) {
		sb_adds(sb, "  binding   not known: no bound is known");
		return;
	}
	a = dur(b->ns[b->binding], tf);
	r = dur(b->end - b->t0, tf);
	sb_printf(sb, "  binding   %s: %s of %s", bound_names[b->binding], a, r);
	if (b->speedup > 0)
		sb_printf(sb, ", speed-up left %.2fx", b->speedup);
	else
		sb_adds(sb, ", speed-up left not known (a bound of 0)");
	free(a);
	free(r);
}

size_t report_bounds_lines(const struct bounds *b, int tf,
			   char *lines[REPORT_BOUNDS_LINES])
{
	static void (*const line[BOUND_COUNT])(struct strbuf *,
					       const struct bounds *, int) = {
		memory_line, compute_line, pipeline_line,
	};
	struct strbuf sb;

	if (!b->available) {
		lines[0] = xasprintf("Bounds   %s", b->why_not);
		return 1;
	}
	lines[0] = xstrdup("Bounds   least time of the range, every row");
	for (int k = 0; k < BOUND_COUNT; k++) {
		sb_init(&sb);
		if (b->ns[k] < 0)
			sb_printf(&sb, "  %-9s not known: %s", bound_names[k],
				  b->missing[k]);
		else
			line[k](&sb, b, tf);
		lines[1 + k] = xstrdup(sb_cstr(&sb));
		sb_free(&sb);
	}
	sb_init(&sb);
	binding_line(&sb, b, tf);
	lines[1 + BOUND_COUNT] = xstrdup(sb_cstr(&sb));
	sb_free(&sb);
	return 2 + BOUND_COUNT;
}

void report_bounds_text(const struct bounds *b, FILE *f)
{
	char *lines[REPORT_BOUNDS_LINES];
	size_t n = report_bounds_lines(b, 0, lines);

	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s\n", lines[i]);
		free(lines[i]);
	}
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
