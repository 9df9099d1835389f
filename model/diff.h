/* Two profiles compared (nxtop diff): A the base, B the new one. Each
 * side is read with the queries of the summary, the layer table, the
 * selection summary and the execution rules; rows are matched by name,
 * and a row only one side has is added (only in B) or removed (only in
 * A). */
#ifndef NX_DIFF_H
#define NX_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

enum diff_what {
	DW_OVERALL, DW_ENGINES, DW_LAYERS, DW_OPCODES, DW_HLO, DW_DMA,
	DW_EXECUTIONS, DW_COUNT
};

extern const char *const diff_what_names[DW_COUNT];	/* "overall", ... */

/* "layers" -> DW_LAYERS; -1 with err_get() set. */
int diff_what_parse(const char *s, enum diff_what *w);

/* DU_REAL: a number the profile reports itself (its summary section),
 * of no unit nxtop knows ("" in CSV and JSON), an integer or not. */
enum diff_unit { DU_COUNT, DU_NS, DU_BYTES, DU_REAL };

extern const char *const diff_unit_names[];	/* "count", "ns", ... */

#define DIFF_MAX_COLS 4

/* A compared figure: KEY_a, KEY_b, KEY_delta (B-A) and, with pct,
 * KEY_pct ((B-A)/A in percent). */
struct diff_col {
	const char *key, *title;
	enum diff_unit unit;	/* overall: each row has its own */
	int pct;
};

struct diff_layout {
	const char *group_key, *group_title;	/* NULL: no group column */
	const char *name_key, *name_title;
	struct diff_col cols[DIFF_MAX_COLS];
	int ncols;
	int sort_col;		/* the default order: |delta| of this one */
};

/* An integer exactly where int64 cannot always hold it: a profile's
 * own number past int64 (its summary keeps those digits as text), or
 * B-A of two figures (INT64_MAX - INT64_MIN is 2^64 - 1). */
struct diff_int {
	int neg;		/* below 0; never for 0 */
	uint64_t mag;		/* its magnitude, up to UINT64_MAX */
};

struct diff_row {
	char *group;		/* engine, event name; NULL without */
	char *name;
	int has[2];		/* on side A, on side B */
	enum diff_unit unit;	/* overall: the figure's unit */
	int64_t v[2][DIFF_MAX_COLS];	/* 0 on a side that lacks the row */
	double real[2];		/* a DU_REAL figure */
	int exact[2];		/* DU_REAL: an integer, exact in num[side] */
	struct diff_int num[2];
	int both_only;		/* dropped unless both sides have it */
};

struct diff {
	enum diff_what what;
	const char *scope;	/* NULL: whole profiles; "selection", "window" */
	const struct diff_layout *lay;
	struct mprofile prof[2];
	const char *file[2];	/* as the user named them; NULL: not known */
	int64_t total[2];	/* total time, ns; of a scope: active time */
	/* of a scope: the stretch each side was read over, [start, end)
	 * in ns from that profile's start (set by the caller) */
	int64_t range[2][2];
	struct diff_row *rows;
	size_t n, cap;
};

/* Compares profile 1 of a and b. Both must be system profiles or
 * neither; executions need system profiles, the device tables device
 * profiles (or traces). -1 with err_get() set (out holds nothing). */
int diff_compute(struct model *a, struct model *b, enum diff_what w,
		 struct diff *out);
void diff_free(struct diff *d);

struct selection;
/* The overall figures of two selections (profile prof[i] of m[i]): the
 * range, active time, events and event time, per engine and DMA queue as
 * the overall table has them, other rows' events and time; total[] is
 * each side's active time. scope names them ("selection"). A side
 * without rows (sel[i] NULL) has none of the figures. -1 with err_get()
 * set. */
int diff_selections(struct model *m[2], const int64_t prof[2],
		    const struct selection *sel[2], const char *scope,
		    struct diff *out);

/* How the cell of side (0 A, 1 B, 2 B-A) in column c is written: a
 * DU_REAL figure the profile gave as an integer as DU_COUNT, exactly
 * from diff_cell_int() (the delta when both sides did and it holds
 * it), else its unit. */
enum diff_unit diff_cell_unit(const struct diff *d, const struct diff_row *r,
			      int c, int side);
/* The integer of the cell of side (0 A, 1 B, 2 B-A) in column c, a side
 * without the row counting as 0: 0 with *out set; -1 (*out 0) for a
 * B-A past 2^64 - 1 either way (two numbers of the profiles' own of
 * opposite signs), which only the real delta gives. */
int diff_cell_int(const struct diff_row *r, int c, int side,
		  struct diff_int *out);
double diff_real_delta(const struct diff_row *r);
/* v as a diff_int. */
struct diff_int diff_int_of(int64_t v);
/* x as an int64: 0 with *v set, -1 when it is past int64. */
int diff_int_i64(struct diff_int x, int64_t *v);
/* x as a double (rounded past 2^53). */
double diff_int_real(struct diff_int x);
/* x in decimal digits, "+" first when plus and x > 0. */
const char *diff_int_text(char *buf, size_t n, struct diff_int x, int plus);
/* (B-A)/A in percent: 0 with *pct set, -1 when A lacks the row or is 0. */
int diff_pct(const struct diff *d, const struct diff_row *r, int c,
	     double *pct);
/* "both", "added" (only B) or "removed" (only A). */
const char *diff_status(const struct diff_row *r);

/* Orders the rows by a column key (name, status, the group, KEY_a,
 * KEY_b, KEY_delta, KEY_pct), '-' first for descending; deltas and
 * percentages by magnitude. NULL: the default order (|delta| of the
 * layout's column, largest first; overall keeps its figures' order).
 * -1 with err_get() set for an unknown key. */
int diff_sort(struct diff *d, const char *spec);
/* Whether spec names a column of table w, before any profile is read;
 * -1 with err_get() set as diff_sort() sets it. */
int diff_sort_check(enum diff_what w, const char *spec);
/* The columns of table w. */
const struct diff_layout *diff_layout_of(enum diff_what w);

/* 1 when B's total time exceeds A's by more than pct percent. */
int diff_slower(const struct diff *d, double pct);
/* (B-A)/A of the total time in percent; -1 when A's is 0. */
int diff_total_pct(const struct diff *d, double *pct);

#endif
