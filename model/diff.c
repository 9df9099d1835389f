#include "config.h"

#include "model/diff.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/diff_int.h"
#include "model/hmap.h"
#include "model/selection.h"
#include "model/util.h"

const char *const diff_what_names[DW_COUNT] = {
	"overall", "engines", "layers", "opcodes", "hlo", "dma", "executions",
};

const char *const diff_unit_names[] = { "count", "ns", "bytes", "" };

#define TIME_COL(k, t) { k, t, DU_NS, 1 }
#define COUNT_COL { "count", "Count", DU_COUNT, 0 }

static const struct diff_layout layouts[DW_COUNT] = {
	[DW_OVERALL] = { NULL, NULL, "figure", "Figure",
		{ { "value", "Value", DU_COUNT, 1 } }, 1, 0 },
	[DW_ENGINES] = { NULL, NULL, "engine", "Engine",
		{ COUNT_COL, TIME_COL("time", "Time"),
		  TIME_COL("busy", "Busy") }, 3, 1 },
	[DW_LAYERS] = { NULL, NULL, "layer", "Layer",
		{ COUNT_COL, TIME_COL("time", "Time") }, 2, 1 },
	[DW_OPCODES] = { "engine", "Engine", "opcode", "Opcode",
		{ COUNT_COL, TIME_COL("time", "Time") }, 2, 1 },
	[DW_HLO] = { NULL, NULL, "hlo", "HLO",
		{ COUNT_COL, TIME_COL("time", "Time") }, 2, 1 },
	[DW_DMA] = { "queue_type", "Queue type", "queue", "Queue",
		{ COUNT_COL, { "bytes", "Bytes", DU_BYTES, 1 },
		  TIME_COL("time", "Time") }, 3, 1 },
	[DW_EXECUTIONS] = { "event", "Event", "group", "Model and NC",
		{ COUNT_COL, TIME_COL("median", "Median"),
		  TIME_COL("p90", "p90"), TIME_COL("max", "Max") }, 4, 1 },
};

const struct diff_layout *diff_layout_of(enum diff_what w)
{
	return &layouts[w];
}

int diff_what_parse(const char *s, enum diff_what *w)
{
	for (int i = 0; i < DW_COUNT; i++) {
		if (!strcmp(s, diff_what_names[i])) {
			*w = (enum diff_what)i;
			return 0;
		}
	}
	err_set("unknown --what '%s' (overall, engines, layers, opcodes, hlo,"
		" dma or executions)", s);
	return -1;
}

/* The row of (group, name), new at the end when there is none yet. The
 * key is both with a NUL between: no name holds one. */
static struct diff_row *row_for(struct diff_sides *s, const char *group,
				const char *name)
{
	struct diff *d = s->d;
	size_t glen = group ? strlen(group) : 0, nlen = strlen(name);
	size_t len = glen + 1 + nlen, i;
	char *key = xmalloc(len);

	if (glen)
		memcpy(key, group, glen);
	key[glen] = '\0';
	memcpy(key + glen + 1, name, nlen);

	if (!strmap_index(&s->index, key, len, &i)) {
		i = d->n;
		d->rows = xgrow(d->rows, &d->cap, d->n + 1, sizeof(*d->rows));
		memset(&d->rows[i], 0, sizeof(*d->rows));
		d->rows[i].group = group ? xstrdup(group) : NULL;
		d->rows[i].name = xstrdup(name);
		d->n++;
		strmap_put_index(&s->index, key, len, i);
	}
	free(key);
	return &d->rows[i];
}

void diff_add(struct diff_sides *s, const char *group, const char *name,
	      const int64_t *v)
{
	struct diff_row *r = row_for(s, group, name);

	r->has[s->side] = 1;
	for (int c = 0; c < s->d->lay->ncols; c++)
		r->v[s->side][c] = sat_add(r->v[s->side][c], v[c]);
}

struct diff_row *diff_figure(struct diff_sides *s, const char *name,
			     enum diff_unit u, int64_t v)
{
	struct diff_row *r = row_for(s, NULL, name);

	r->has[s->side] = 1;
	r->unit = u;
	r->v[s->side][0] = sat_add(r->v[s->side][0], v);
	return r;
}

void diff_reported(struct diff_sides *s, const char *name,
		   const struct diff_int *i, double v)
{
	struct diff_row *r = row_for(s, NULL, name);

	r->has[s->side] = 1;
	r->unit = DU_REAL;
	r->exact[s->side] = i != NULL;
	if (i)
		r->num[s->side] = *i;
	/* percentages and sorting read the real of either kind */
	r->real[s->side] = i ? diff_int_real(*i) : v;
	r->both_only = 1;
}

static void row_free(struct diff_row *r)
{
	free(r->group);
	free(r->name);
}

/* Figures the profiles report themselves count only when both have them. */
static void drop_one_sided(struct diff *d)
{
	size_t k = 0;

	for (size_t i = 0; i < d->n; i++) {
		if (d->rows[i].both_only && !(d->rows[i].has[0] &&
					      d->rows[i].has[1]))
			row_free(&d->rows[i]);
		else
			d->rows[k++] = d->rows[i];
	}
	d->n = k;
}

static int is_system(const struct mprofile *p)
{
	return p->kind && !strcmp(p->kind, "system");
}

static int check_kinds(const struct diff *d)
{
	int sys = is_system(&d->prof[0]);

	if (sys != is_system(&d->prof[1])) {
		err_set("cannot compare %s (A, a %s profile) with %s (B, a %s"
			" profile): both must be system profiles or neither",
			d->prof[0].name, d->prof[0].kind, d->prof[1].name,
			d->prof[1].kind);
		return -1;
	}
	if (d->what == DW_EXECUTIONS && !sys) {
		err_set("--what executions compares system profiles; these are"
			" %s profiles", d->prof[0].kind);
		return -1;
	}
	if (sys && d->what != DW_OVERALL && d->what != DW_EXECUTIONS) {
		err_set("--what %s compares device profiles; these are system"
			" profiles (overall or executions)",
			diff_what_names[d->what]);
		return -1;
	}
	return 0;
}

static int open_sides(struct model *m[2], struct diff *d)
{
	for (int i = 0; i < 2; i++) {
		if (model_profile(m[i], 1, &d->prof[i])) {
			err_set("%s: no profile in the cache", model_path(m[i]));
			return -1;
		}
		/* never below 0 nor past int64: B-A holds any two */
		d->total[i] = NX_MAX(sat_sub(d->prof[i].end,
					     d->prof[i].start), 0);
	}
	return check_kinds(d);
}

int diff_compute(struct model *a, struct model *b, enum diff_what w,
		 struct diff *out)
{
	struct model *m[2] = { a, b };
	struct diff_sides s;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->what = w;
	out->lay = &layouts[w];
	if (open_sides(m, out)) {
		diff_free(out);
		return -1;
	}
	memset(&s, 0, sizeof(s));
	s.d = out;
	strmap_init(&s.index);
	for (s.side = 0; s.side < 2 && !rc; s.side++) {
		s.m = m[s.side];
		s.prof = &out->prof[s.side];
		rc = is_system(s.prof) ? diff_load_system(&s) :
		     diff_load_device(&s);
		if (!rc)
			rc = model_check(s.m);
	}
	strmap_free(&s.index, NULL);
	if (rc) {
		diff_free(out);
		return -1;
	}
	drop_one_sided(out);
	return diff_sort(out, NULL);
}

int diff_selections(struct model *m[2], const int64_t prof[2],
		    const struct selection *sel[2], const char *scope,
		    struct diff *out)
{
	struct diff_sides s;

	memset(out, 0, sizeof(*out));
	out->what = DW_OVERALL;
	out->lay = &layouts[DW_OVERALL];
	out->scope = scope;
	memset(&s, 0, sizeof(s));
	s.d = out;
	strmap_init(&s.index);
	for (s.side = 0; s.side < 2; s.side++) {
		if (model_profile(m[s.side], prof[s.side], &out->prof[s.side])) {
			strmap_free(&s.index, NULL);
			diff_free(out);
			return -1;
		}
		if (!sel[s.side])
			continue;
		out->total[s.side] = sel[s.side]->active;
		s.m = m[s.side];
		s.prof = &out->prof[s.side];
		diff_load_selection(&s, sel[s.side]);
	}
	strmap_free(&s.index, NULL);
	return 0;
}

void diff_free(struct diff *d)
{
	for (size_t i = 0; i < d->n; i++)
		row_free(&d->rows[i]);
	free(d->rows);
	model_profile_clear(&d->prof[0]);
	model_profile_clear(&d->prof[1]);
	memset(d, 0, sizeof(*d));
}

/* The unit of a row's figure in column c. */
static enum diff_unit unit_of(const struct diff *d, const struct diff_row *r,
			      int c)
{
	return d->what == DW_OVERALL ? r->unit : d->lay->cols[c].unit;
}

struct diff_int diff_int_of(int64_t v)
{
	struct diff_int x = { v < 0, v < 0 ? (uint64_t)0 - (uint64_t)v :
					     (uint64_t)v };

	return x;
}

int diff_int_i64(struct diff_int x, int64_t *v)
{
	if (x.mag > (uint64_t)INT64_MAX + x.neg)
		return -1;
	/* -2^63 by way of 2^63 - 1, which int64 holds */
	*v = x.neg ? -(int64_t)(x.mag - 1) - 1 : (int64_t)x.mag;
	return 0;
}

double diff_int_real(struct diff_int x)
{
	return x.neg ? -(double)x.mag : (double)x.mag;
}

const char *diff_int_text(char *buf, size_t n, struct diff_int x, int plus)
{
	snprintf(buf, n, "%s%" PRIu64, x.neg ? "-" : plus && x.mag ? "+" : "",
		 x.mag);
	return buf;
}

/* b - a: the magnitudes add when the signs differ, past 2^64 - 1 at
 * most once (-1). */
static int int_sub(struct diff_int b, struct diff_int a, struct diff_int *out)
{
	if (b.neg != a.neg) {
		if (b.mag > UINT64_MAX - a.mag) {
			*out = diff_int_of(0);
			return -1;
		}
		out->neg = b.neg;
		out->mag = b.mag + a.mag;
	} else if (b.mag >= a.mag) {
		out->neg = b.neg;
		out->mag = b.mag - a.mag;
	} else {
		out->neg = !b.neg;
		out->mag = a.mag - b.mag;
	}
	out->neg = out->neg && out->mag;
	return 0;
}

/* Side 0 or 1 of column c: a profile's own integer of any size, else
 * the figure. */
static struct diff_int side_int(const struct diff_row *r, int c, int side)
{
	return r->exact[side] ? r->num[side] : diff_int_of(r->v[side][c]);
}

int diff_cell_int(const struct diff_row *r, int c, int side,
		  struct diff_int *out)
{
	if (side < 2) {
		*out = side_int(r, c, side);
		return 0;
	}
	return int_sub(side_int(r, c, 1), side_int(r, c, 0), out);
}

enum diff_unit diff_cell_unit(const struct diff *d, const struct diff_row *r,
			      int c, int side)
{
	enum diff_unit u = unit_of(d, r, c);
	struct diff_int dl;
	int exact = side < 2 ? r->exact[side] : r->exact[0] && r->exact[1] &&
		    !diff_cell_int(r, c, 2, &dl);

	return u == DU_REAL && exact ? DU_COUNT : u;
}

double diff_real_delta(const struct diff_row *r)
{
	return r->real[1] - r->real[0];
}

int diff_pct(const struct diff *d, const struct diff_row *r, int c,
	     double *pct)
{
	struct diff_int a, dl;

	if (!r->has[0] || !r->has[1])
		return -1;
	if (diff_cell_unit(d, r, c, 2) == DU_REAL) {
		if (r->real[0] == 0)
			return -1;
		*pct = diff_real_delta(r) * 100.0 / r->real[0];
		return 0;
	}
	diff_cell_int(r, c, 0, &a);
	if (!a.mag)
		return -1;
	/* B-A exact, past int64 too; their ratio of doubles */
	diff_cell_int(r, c, 2, &dl);
	*pct = diff_int_real(dl) * 100.0 / diff_int_real(a);
	return 0;
}

const char *diff_status(const struct diff_row *r)
{
	return r->has[0] && r->has[1] ? "both" : r->has[1] ? "added" :
	       "removed";
}

int diff_total_pct(const struct diff *d, double *pct)
{
	if (d->total[0] == 0)
		return -1;
	*pct = (double)(d->total[1] - d->total[0]) * 100.0 /
	       (double)d->total[0];
	return 0;
}

int diff_slower(const struct diff *d, double pct)
{
	double p;

	if (d->total[1] <= d->total[0])
		return 0;
	/* from nothing to something is slower by any measure */
	return diff_total_pct(d, &p) || p > pct;
}
