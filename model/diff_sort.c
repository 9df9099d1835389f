/* The order of nxtop diff's rows (--sort). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/diff.h"
#include "model/util.h"

enum part { P_NAME, P_GROUP, P_STATUS, P_A, P_B, P_DELTA, P_PCT };

static const char *const suffixes[] = { "_a", "_b", "_delta", "_pct" };

struct key {
	enum part part;
	int col;
	int desc;
};

/* One row's sort key: long double holds every int64 exactly, and every
 * magnitude of a struct diff_int. */
struct item {
	const struct diff_row *r;
	const char *text;
	long double v;
	int na;			/* no value: last whatever the direction */
	size_t idx;
	int desc;
};

static int parse_col(const struct diff *d, const char *s, struct key *k)
{
	for (int c = 0; c < d->lay->ncols; c++) {
		const char *key = d->lay->cols[c].key;
		size_t n = strlen(key);

		if (strncmp(s, key, n))
			continue;
		for (int p = 0; p < 4; p++) {
			if (strcmp(s + n, suffixes[p]) ||
			    (p == 3 && !d->lay->cols[c].pct))
				continue;
			k->part = (enum part)(P_A + p);
			k->col = c;
			return 0;
		}
	}
	return -1;
}

static int parse_key(const struct diff *d, const char *spec, struct key *k)
{
	const char *s = spec + (spec[0] == '-');

	memset(k, 0, sizeof(*k));
	k->desc = spec[0] == '-';
	if (!strcmp(s, "name") || !strcmp(s, d->lay->name_key))
		k->part = P_NAME;
	else if (d->lay->group_key && !strcmp(s, d->lay->group_key))
		k->part = P_GROUP;
	else if (!strcmp(s, "status"))
		k->part = P_STATUS;
	else if (parse_col(d, s, k)) {
		err_set("--sort: unknown column '%s' (name, status, %s_a,"
			" %s_b, %s_delta, ...)", s, d->lay->cols[0].key,
			d->lay->cols[0].key, d->lay->cols[0].key);
		return -1;
	}
	return 0;
}

static long double value(const struct diff *d, const struct diff_row *r,
			 const struct key *k, int *na)
{
	int side = k->part == P_A ? 0 : k->part == P_B ? 1 : 2;
	int real = diff_cell_unit(d, r, k->col, side) == DU_REAL;
	struct diff_int x;
	double pct;

	if (k->part == P_A || k->part == P_B)
		*na = !r->has[side];
	if (real && k->part != P_PCT)
		return side < 2 ? r->real[side] : fabsl(diff_real_delta(r));
	switch (k->part) {
	case P_A:
	case P_B:
	case P_DELTA:
		diff_cell_int(r, k->col, side, &x);
		/* deltas by magnitude */
		return x.neg && side < 2 ? -(long double)x.mag :
		       (long double)x.mag;
	default:
		*na = diff_pct(d, r, k->col, &pct) != 0;
		return *na ? 0 : fabsl(pct);
	}
}

static void fill(const struct diff *d, const struct key *k, size_t i,
		 struct item *it)
{
	const struct diff_row *r = &d->rows[i];

	memset(it, 0, sizeof(*it));
	it->r = r;
	it->idx = i;
	it->desc = k->desc;
	if (k->part == P_NAME)
		it->text = r->name;
	else if (k->part == P_GROUP)
		it->text = r->group ? r->group : "";
	else if (k->part == P_STATUS)
		it->text = diff_status(r);
	else
		it->v = value(d, r, k, &it->na);
}

static int by_key(const void *pa, const void *pb)
{
	const struct item *a = pa, *b = pb;
	int c = 0;

	if (a->na != b->na)
		return a->na - b->na;
	if (a->text)
		c = strcmp(a->text, b->text);
	else
		c = (a->v > b->v) - (a->v < b->v);
	if (c)
		return a->desc ? -c : c;
	/* ties: by group and name, then as they came */
	if ((c = strcmp(a->r->group ? a->r->group : "",
			b->r->group ? b->r->group : "")) ||
	    (c = strcmp(a->r->name, b->r->name)))
		return c;
	return (a->idx > b->idx) - (a->idx < b->idx);
}

int diff_sort_check(enum diff_what w, const char *spec)
{
	struct diff d = { .what = w, .lay = diff_layout_of(w) };
	struct key k;

	return parse_key(&d, spec, &k);
}

int diff_sort(struct diff *d, const char *spec)
{
	struct key k = { P_DELTA, d->lay->sort_col, 1 };
	struct item *it;
	struct diff_row *rows;

	if (!spec && d->what == DW_OVERALL)
		return 0;
	if (spec && parse_key(d, spec, &k))
		return -1;
	if (!d->n)
		return 0;
	it = xmalloc(d->n * sizeof(*it));
	for (size_t i = 0; i < d->n; i++)
		fill(d, &k, i, &it[i]);
	qsort(it, d->n, sizeof(*it), by_key);
	rows = xmalloc(d->n * sizeof(*rows));
	for (size_t i = 0; i < d->n; i++)
		rows[i] = *it[i].r;
	memcpy(d->rows, rows, d->n * sizeof(*rows));
	free(rows);
	free(it);
	return 0;
}
