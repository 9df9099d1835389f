/* Flattens the schema's tree of groups into leaf columns, each with its
 * dotted path, its definition and repetition levels and what its values
 * mean. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "src/parquet/pq_int.h"

struct walk {
	struct pq_file *f;
	struct pq_schema_el *el;
	size_t n, next;		/* elements; the next one to visit */
	size_t cap;
};

/* Where a field stands: its path so far and its levels. */
struct level {
	const char *path;
	int def, rep, rep_def, list_def;
};

/* The converted type when no logical type says more. */
static void from_converted(struct pq_schema_el *e, struct pq_column *c)
{
	int ct = e->converted;

	if (ct == 0) {
		c->logical = PQ_L_STRING;
	} else if (ct == 4) {
		c->logical = PQ_L_ENUM;
	} else if (ct == 5) {
		c->logical = PQ_L_DECIMAL;
	} else if (ct == 6) {
		c->logical = PQ_L_DATE;
	} else if (ct == 7 || ct == 8) {
		c->logical = PQ_L_TIME;
		c->unit = ct == 7 ? 3 : 6;
	} else if (ct == 9 || ct == 10) {
		c->logical = PQ_L_TIMESTAMP;
		c->unit = ct == 9 ? 3 : 6;
	} else if (ct >= 11 && ct <= 18) {
		c->logical = PQ_L_INT;
		c->bit_width = 8 << ((ct - 11) % 4);
		c->is_signed = ct >= 15;
	} else if (ct == 19) {
		c->logical = PQ_L_JSON;
	}
}

static int add_leaf(struct walk *w, struct pq_schema_el *e,
		    const struct level *lv)
{
	struct pq_file *f = w->f;
	struct pq_column *c;
	const char *dot = strchr(lv->path, '.');
	char name[128];

	pq_clean(name, sizeof(name), lv->path, strlen(lv->path));
	if (e->type < PQ_BOOLEAN || e->type > PQ_FIXED_LEN_BYTE_ARRAY ||
	    (e->type == PQ_FIXED_LEN_BYTE_ARRAY && e->type_length <= 0)) {
		pq_fail(f, "column '%s': unknown type %d (length %d)", name,
			e->type, e->type_length);
		return -1;
	}
	if ((size_t)f->ncols == w->cap) {
		size_t cap = w->cap;

		f->cols = xgrow(f->cols, &cap, w->cap + 1, sizeof(*f->cols));
		f->leaves = xgrow(f->leaves, &w->cap, cap, sizeof(*f->leaves));
	}
	c = &f->cols[f->ncols];
	memset(c, 0, sizeof(*c));
	c->path = xstrdup(lv->path);
	c->name = dot ? xstrndup(lv->path, (size_t)(dot - lv->path))
		      : xstrdup(lv->path);
	c->type = (enum pq_type)e->type;
	c->kind = c->type == PQ_FLOAT || c->type == PQ_DOUBLE ? PQ_K_F64
		: c->type <= PQ_INT64 && c->type != PQ_INT96 ? PQ_K_I64
		: PQ_K_BYTES;
	c->type_length = c->type == PQ_INT96 ? 12 : e->type_length;
	c->max_def = lv->def;
	c->max_rep = lv->rep;
	c->logical = e->logical;
	c->bit_width = e->bit_width;
	c->is_signed = e->is_signed;
	c->unit = e->unit;
	c->scale = e->scale;
	c->precision = e->precision;
	if (c->logical == PQ_L_NONE)
		from_converted(e, c);
	f->leaves[f->ncols].rep_def = lv->rep_def;
	f->leaves[f->ncols].list_def = lv->list_def;
	f->ncols++;
	return 0;
}

static int walk_children(struct walk *w, int n, const struct level *lv,
			 int depth);

static int walk_field(struct walk *w, const struct level *up, int depth)
{
	struct pq_schema_el *e;
	struct level lv = *up;
	char *path;
	int rc;

	/* a group's count was checked against what is left, but its
	 * earlier children's own children use elements up too */
	if (w->next >= w->n) {
		pq_fail(w->f, "schema: a group has more children than elements"
			" are left");
		return -1;
	}
	e = &w->el[w->next++];
	if (e->repetition < 0 || e->repetition > 2) {
		pq_fail(w->f, "schema: unknown repetition %d", e->repetition);
		return -1;
	}
	lv.def += e->repetition != 0;
	if (e->repetition == 2) {
		lv.rep++;
		lv.rep_def = lv.def;
		lv.list_def = lv.def - 1;
	}
	if (strlen(up->path) + strlen(e->name) > PQ_MAX_PATH) {
		pq_fail(w->f, "schema: a column path is longer than %d bytes",
			PQ_MAX_PATH);
		return -1;
	}
	path = *up->path ? xasprintf("%s.%s", up->path, e->name)
			 : xstrdup(e->name);
	lv.path = path;
	if (e->num_children > 0)
		rc = walk_children(w, e->num_children, &lv, depth + 1);
	else if (e->type < 0)
		rc = 0;		/* an empty group holds no column */
	else
		rc = add_leaf(w, e, &lv);
	free(path);
	return rc;
}

static int walk_children(struct walk *w, int n, const struct level *lv,
			 int depth)
{
	if (depth > PQ_MAX_DEPTH) {
		pq_fail(w->f, "schema: nested deeper than %d levels",
			PQ_MAX_DEPTH);
		return -1;
	}
	if ((size_t)n > w->n - w->next) {
		pq_fail(w->f, "schema: a group has %d children, %zu elements"
			" are left", n, w->n - w->next);
		return -1;
	}
	for (int i = 0; i < n; i++)
		if (walk_field(w, lv, depth))
			return -1;
	return 0;
}

int pq_schema_build(struct pq_file *f, struct pq_schema_el *el, size_t n)
{
	struct walk w = { f, el, n, 1, 0 };
	struct level root = { "", 0, 0, 0, 0 };

	if (!n || el[0].num_children < 0) {
		pq_fail(f, "schema: no root element");
		return -1;
	}
	if (walk_children(&w, el[0].num_children, &root, 1))
		return -1;
	if (w.next != n) {
		pq_fail(f, "schema: %zu elements outside the tree", n - w.next);
		return -1;
	}
	return 0;
}

void pq_schema_free_els(struct pq_schema_el *el, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(el[i].name);
	free(el);
}
