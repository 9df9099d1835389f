/* Performance bounds of a time range of a device profile: the least
 * time the range could take if it were limited only by memory traffic,
 * only by tensor-engine arithmetic, or only by its busiest engine.
 *
 *   memory    bytes moved / bandwidth (metadata), the larger of
 *             DMA packet bytes / dma_ddr_bandwidth and
 *             HBM read + write bytes / hbm_ddr_bandwidth; HBM bytes
 *             from the summary for the whole profile, else the
 *             instructions' hbm_read_bytes and hbm_write_bytes
 *   compute   hardware FLOPs / (rows x cols x 2 x clock) of the tensor
 *             engine (metadata); FLOPs from the summary for the whole
 *             profile, else the layers' FLOP counts, each spread evenly
 *             over its layer's span (nested layers: the innermost)
 *   pipeline  the busiest engine's active time inside the range
 *             (ActiveTime rows, else the union of its instructions)
 *
 * Events count when they start inside [t0, t1), as in the Selection
 * Summary. The largest known bound binds; the speed-up left is the
 * range's duration over it. Bounds cover every row, whatever rows a
 * selection holds: they are about the range's time. */
#ifndef NX_BOUNDS_H
#define NX_BOUNDS_H

#include <stdint.h>

#include "model/model.h"

enum { BOUND_MEMORY, BOUND_COMPUTE, BOUND_PIPELINE, BOUND_COUNT };

extern const char *const bound_names[BOUND_COUNT];	/* "memory", ... */

struct bounds {
	int available;		/* 0: not a device profile with metadata */
	const char *why_not;	/* one line when not available */
	int64_t t0, t1;
	int64_t end;		/* measured to (model_range_end) */
	int whole;		/* [t0, t1) holds the whole profile */
	/* memory inputs; bytes -1: unknown, bandwidth B/s, <= 0: absent */
	int64_t dma_bytes, hbm_bytes;
	double dma_bw, hbm_bw;
	const char *hbm_from;	/* "summary" or "instructions" */
	/* compute inputs; -1 / <= 0: absent */
	int64_t flops;
	const char *flops_from;	/* "summary" or "layers" */
	int64_t pe_rows, pe_cols;
	double clock_ghz;
	double peak_flops;	/* FLOP/s, <= 0: unknown */
	/* pipeline input: the busiest engine, NULL if none */
	char *engine;
	int64_t engine_ns;
	/* each bound in ns, -1: unknown, and then why */
	int64_t ns[BOUND_COUNT];
	const char *missing[BOUND_COUNT];
	int binding;		/* BOUND_*, -1: no bound known */
	double speedup;		/* (t1 - t0) / binding bound, <= 0: none */
};

/* The tensor engine's peak in FLOPs per ns from its rows, columns and
 * clock (GHz): a multiply-add (two FLOPs) per processing element per
 * cycle. 0 when a figure is absent (< 0) or out of range: rows and
 * columns 1 to BOUNDS_PE_MAX, a clock of 1e-6 to 1000 GHz. The compute
 * bound and the Parquet importer's layer MFU both use it. */
#define BOUNDS_PE_MAX 65536
double bounds_peak(double rows, double cols, double ghz);

/* Fills b for [t0, t1) of a profile; a profile without device metadata
 * gives b->available 0 and still returns 0. -1 with err_get() set. */
int bounds_compute(struct model *m, int64_t profile, int64_t t0, int64_t t1,
		   struct bounds *b);
void bounds_free(struct bounds *b);

/* The figures behind the bounds, one per key, for JSON and CSV: the
 * same keys in both. is_real / is_text say which value holds; known 0:
 * null (empty in CSV). */
struct bound_fig {
	const char *key;
	int known, is_real, is_text;
	int64_t i;
	double r;
	const char *s;
};

#define BOUND_MAX_FIGS 24

size_t bounds_figures(const struct bounds *b, struct bound_fig *out);

#endif
