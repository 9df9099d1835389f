/* The Layer Summary: one row per layer_summary record, or per group of
 * layers when names are cut to their first `depth` path components
 * (depth 2 merges model/layer1/op1 with model/layer1/op2). */
#ifndef NX_LAYERS_H
#define NX_LAYERS_H

#include <stddef.h>
#include <stdint.h>

#include "model/dist.h"
#include "model/model.h"
#include "model/summary.h"

enum layer_col {
	LC_NAME, LC_START, LC_DUR,
	LC_TENSOR, LC_VECTOR, LC_SCALAR, LC_GPSIMD, LC_SYNC,	/* counts */
	LC_TENSOR_ACT, LC_VECTOR_ACT, LC_SCALAR_ACT, LC_GPSIMD_ACT,
	LC_SYNC_ACT,						/* active ns */
	LC_FLOPS, LC_MFU,
	LC_P50, LC_P90, LC_P99, LC_HIST,	/* instruction durations */
	LC_COUNT
};

extern const char *const layer_col_names[LC_COUNT];

struct layer_row {
	char *name;
	int64_t start, end, dur;		/* ns */
	int64_t count[ENG_COUNT], time[ENG_COUNT], active[ENG_COUNT];
	int64_t flops, model_flops;		/* -1: unknown */
	double mfu;				/* fraction, < 0: unknown */
	int merged;				/* layer_summary rows merged
						   into it; 0: the profile's
						   own row */
	struct dist dist;			/* its instructions' durations
						   (layers_dists) */
};

struct layer_table {
	struct layer_row *rows;
	size_t n;
	int depth;				/* 0: full names */
	int max_depth;				/* deepest name */
};

/* Loads the layer table; depth 0 keeps full names; filter (may be NULL)
 * keeps names containing it (case-insensitive). */
int layers_load(struct model *m, int64_t profile, int depth,
		const char *filter, struct layer_table *out);
void layers_sort(struct layer_table *t, enum layer_col col, int descending);
void layers_free(struct layer_table *t);
/* Every row's distribution of the durations of the instructions it holds
 * (layers_match on their layer): one pass over the engine rows' events,
 * exact percentiles. Left unmeasured when the profile has more than
 * LAYERS_DIST_MAX instructions, and for a row without any. */
#define LAYERS_DIST_MAX 2000000
int layers_dists(struct model *m, int64_t profile, struct layer_table *t);
/* The name cut to depth components ("a/b/c", 2 -> "a/b"). */
char *layers_group_name(const char *name, int depth);
/* 1 if an instruction's layer belongs to the row (the row's name is the
 * layer, ends with "/layer", or is a group prefix of it). */
int layers_match(const struct layer_row *r, const char *layer);

/* String ids of the instruction layers of a row: of every layer_summary
 * name that is the row's name or lies under it, the names layers_match
 * accepts. For colouring a layer's instructions (slice.cat on engine
 * rows). */
int layers_row_ids(struct model *m, int64_t profile, const char *row,
		   int64_t **ids, size_t *n);
/* Instructions whose layer is one of ids starting in each column of
 * track t (0 for rows that are not engines): from the per-field
 * aggregates when the columns are wide, else from the events. */
int layers_frame(struct model *m, const struct mtrack *t,
		 const int64_t *ids, size_t n, int64_t t0, int64_t colw,
		 int ncols, int64_t *hits);

#endif
