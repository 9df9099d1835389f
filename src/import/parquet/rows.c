#include "config.h"

#include "src/import/parquet/rows.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/arena.h"
#include "model/util.h"
#include "src/json/jsonsplit.h"
#include "src/json/jsonval.h"
#include "src/parquet/parquet.h"

/* Rows read from every column at once: a few MB of values at most. */
#define BATCH_ROWS 4096

/* Integers a double holds exactly; larger ones go as tagged text. */
#define EXACT_MAX INT64_C(9007199254740992)

struct rcol {
	int col;		/* leaf index in the file */
	const char *json;	/* member name */
	struct pq_cursor *cur;
	struct pq_batch b;
	int is_bool, is_u64;
	int field;		/* index in the bound names, -1 if none */
	int to_rest;		/* written to the rest of a bound row */
	int exact;		/* a bound field handed as a signed integer */
	struct strbuf key;	/* "json": for the rest of a bound row */
};

struct pqrows {
	const struct pqtable *t;
	const struct pqrename *renames;
	size_t part;
	struct pq_file *f;
	struct rcol *cols;
	int ncols;
	size_t row, rows;	/* in the current batch */
	uint64_t index;		/* row in the current part */
	struct arena a;
	/* bound field names (pqrows_bind), or NULL */
	const char *const *fields;
	size_t nfields, nconsumed;
};

struct pqrows *pqrows_open(const struct pqtable *t,
			   const struct pqrename *renames)
{
	struct pqrows *r = xcalloc(1, sizeof(*r));

	r->t = t;
	r->renames = renames;
	return r;
}

static void close_part(struct pqrows *r)
{
	for (int i = 0; i < r->ncols; i++) {
		pq_cursor_close(r->cols[i].cur);
		sb_free(&r->cols[i].key);
	}
	free(r->cols);
	r->cols = NULL;
	r->ncols = 0;
	pq_close(r->f);
	r->f = NULL;
}

/* The member name of a column; NULL: dropped. */
static const char *json_name(const struct pqrows *r, const char *column)
{
	for (const struct pqrename *p = r->renames; p && p->column; p++)
		if (!strcmp(p->column, column))
			return p->json;
	return column;
}

/* Only top-level fields of one leaf (or a list of one leaf) are rows'
 * members; the leaves of a struct are not. */
static int is_single_leaf(struct pq_file *f, int col)
{
	const struct pq_column *c = pq_column(f, col);

	return pq_find_column(f, c->name) == col;
}

/* The reader's message without the file name it starts with: the
 * importer names the file itself, with its folder. */
static void set_reason(const char *msg, const char *file)
{
	size_t n = NX_MIN(strlen(file), 255);

	if (strlen(msg) > n + 2 && !memcmp(msg + n, ": ", 2))
		msg += n + 2;
	err_set("%s", msg);
}

/* The bound field a member fills, matched once per part file. */
static void bind_column(const struct pqrows *r, struct rcol *rc)
{
	rc->field = -1;
	for (size_t f = 0; f < r->nfields && rc->field < 0; f++)
		if (!strcmp(r->fields[f], rc->json))
			rc->field = (int)f;
	rc->to_rest = rc->field < 0 || (size_t)rc->field >= r->nconsumed;
	rc->exact = !rc->to_rest && !rc->is_bool && !rc->is_u64;
	sb_init(&rc->key);
	jv_key(&rc->key, rc->json);
}

static int open_part(struct pqrows *r)
{
	char err[512];
	const char *file = r->t->files[r->part];
	int n;

	r->f = pq_open(file, err, sizeof(err));
	if (!r->f) {
		set_reason(err, file);
		return -1;
	}
	n = pq_num_columns(r->f);
	r->cols = xcalloc((size_t)n + 1, sizeof(*r->cols));
	for (int i = 0; i < n; i++) {
		const struct pq_column *c = pq_column(r->f, i);
		const char *json = json_name(r, c->name);
		struct rcol *rc = &r->cols[r->ncols];

		if (!json || !is_single_leaf(r->f, i))
			continue;
		rc->col = i;
		rc->json = json;
		rc->is_bool = c->type == PQ_BOOLEAN;
		rc->is_u64 = c->logical == PQ_L_INT && !c->is_signed &&
			     c->bit_width == 64;
		rc->cur = pq_cursor_open(r->f, i);
		if (!rc->cur) {
			set_reason(pq_error(r->f), file);
			return -1;
		}
		bind_column(r, rc);
		r->ncols++;
	}
	r->index = 0;
	r->row = r->rows = 0;
	return 0;
}

/* The next batch of every column; 0 at the end of the part. */
static int next_batch(struct pqrows *r)
{
	size_t rows = 0;

	for (int i = 0; i < r->ncols; i++) {
		int rc = pq_cursor_next(r->cols[i].cur, BATCH_ROWS, &r->cols[i].b);

		if (rc < 0) {
			set_reason(pq_error(r->f), r->t->files[r->part]);
			return -1;
		}
		if (rc == 0)
			r->cols[i].b.rows = 0;
		if (i == 0)
			rows = r->cols[i].b.rows;
		else if (r->cols[i].b.rows != rows) {
			err_set("column \"%s\" has a different number of rows",
				pq_column(r->f, r->cols[i].col)->name);
			return -1;
		}
	}
	/* a file without columns still has rows: none to hand over */
	r->rows = rows;
	r->row = 0;
	return rows > 0;
}

static cJSON *node(struct pqrows *r)
{
	cJSON *v = arena_alloc(&r->a, sizeof(*v));

	memset(v, 0, sizeof(*v));
	return v;
}

static void set_string(struct pqrows *r, cJSON *v, const char *s, size_t n)
{
	v->type = cJSON_String;
	v->valuestring = arena_copy(&r->a, s, n);
}

/* JSPLIT_NUMTEXT and the decimal digits of v (a minus sign first when
 * neg) into buf; the length. A hand loop: snprintf cost more than the
 * rest of the row's conversion for a table of 64-bit timestamps. */
static size_t big_digits(char *buf, uint64_t v, int neg)
{
	char tmp[24];
	size_t n = 0, k = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	buf[k++] = JSPLIT_NUMTEXT;
	if (neg)
		buf[k++] = '-';
	while (n)
		buf[k++] = tmp[--n];
	return k;
}

static void set_int(struct pqrows *r, const struct rcol *c, cJSON *v,
		    int64_t i)
{
	char buf[32];

	if (c->is_bool) {
		v->type = i ? cJSON_True : cJSON_False;
	} else if (c->is_u64 && i < 0) {
		set_string(r, v, buf, big_digits(buf, (uint64_t)i, 0));
	} else if (i > EXACT_MAX || i < -EXACT_MAX) {
		set_string(r, v, buf, big_digits(buf, i < 0 ? 0 - (uint64_t)i :
						 (uint64_t)i, i < 0));
	} else {
		v->type = cJSON_Number;
		v->valuedouble = (double)i;
		v->valueint = i > INT32_MAX ? INT32_MAX : i < INT32_MIN ?
			      INT32_MIN : (int)i;
	}
}

/* Slot s of a column as a value. */
static void set_value(struct pqrows *r, const struct rcol *c, size_t s,
		      cJSON *v)
{
	const struct pq_batch *b = &c->b;

	if (!b->valid[s]) {
		v->type = cJSON_NULL;
	} else if (b->i64) {
		set_int(r, c, v, b->i64[s]);
	} else if (b->f64) {
		v->type = cJSON_Number;
		v->valuedouble = b->f64[s];
	} else {
		set_string(r, v, b->bytes[s].ptr, b->bytes[s].len);
	}
}

static void append(cJSON *obj, cJSON *v, cJSON **last)
{
	v->prev = *last;
	if (*last)
		(*last)->next = v;
	else
		obj->child = v;
	*last = v;
}

/* A list column's row as an array; NULL for a null list. */
static cJSON *list_value(struct pqrows *r, const struct rcol *c, size_t row)
{
	const struct pq_batch *b = &c->b;
	cJSON *arr, *last = NULL;

	if (b->row_valid && !b->row_valid[row])
		return NULL;
	arr = node(r);
	arr->type = cJSON_Array;
	for (size_t s = b->offsets[row]; s < b->offsets[row + 1]; s++) {
		cJSON *v = node(r);

		set_value(r, c, s, v);
		append(arr, v, &last);
	}
	return arr;
}

/* Column c's value in the current row; NULL: a null, an absent field. */
static cJSON *cell(struct pqrows *r, const struct rcol *c)
{
	cJSON *v;

	if (c->b.offsets)
		return list_value(r, c, r->row);
	if (!c->b.valid[r->row])
		return NULL;
	v = node(r);
	set_value(r, c, r->row, v);
	return v;
}

static cJSON *make_row(struct pqrows *r)
{
	cJSON *obj = node(r), *last = NULL;

	obj->type = cJSON_Object;
	for (int i = 0; i < r->ncols; i++) {
		const struct rcol *c = &r->cols[i];
		cJSON *v = cell(r, c);

		if (!v)
			continue;
		v->string = (char *)c->json;
		v->type |= cJSON_StringIsConst;
		append(obj, v, &last);
	}
	return obj;
}

/* The current row by bound field, as jv_fields() gives an object's;
 * signed integers of a field's own column go as they are, in ints. */
static void make_vals(struct pqrows *r, struct pqvals *out)
{
	for (size_t f = 0; f < r->nfields; f++) {
		out->vals[f] = NULL;
		out->has_int[f] = 0;
	}
	for (int i = 0; i < r->ncols; i++) {
		const struct rcol *c = &r->cols[i];
		cJSON *v;

		if (c->exact && c->b.i64 && !c->b.offsets) {
			if (!c->b.valid[r->row])
				continue;
			out->ints[c->field] = c->b.i64[r->row];
			out->has_int[c->field] = 1;
			out->vals[c->field] = NULL;
			continue;
		}
		v = cell(r, c);
		if (!v)
			continue;
		if (c->field >= 0) {
			out->vals[c->field] = v;
			out->has_int[c->field] = 0;
		}
		if (c->to_rest)
			jv_rest_add_key(&out->rest, c->key.buf, c->key.len, v);
	}
	jv_rest_end(&out->rest);
}

/* Moves to the next row: 1, 0 at the end, -1 on failure. */
static int advance(struct pqrows *r)
{
	int rc;

	while (r->row >= r->rows) {
		if (r->f && (rc = next_batch(r)) != 0) {
			if (rc < 0)
				return -1;
			break;
		}
		if (r->f) {
			close_part(r);
			r->part++;
		}
		if (r->part >= r->t->nfiles)
			return 0;
		if (open_part(r))
			return -1;
	}
	arena_reset(&r->a);
	return 1;
}

int pqrows_next(struct pqrows *r, cJSON **obj)
{
	int rc = advance(r);

	if (rc != 1)
		return rc;
	*obj = make_row(r);
	r->row++;
	r->index++;
	return 1;
}

void pqrows_bind(struct pqrows *r, const char *const *names, size_t n,
		 size_t consumed)
{
	r->fields = names;
	r->nfields = n;
	r->nconsumed = consumed;
}

int pqrows_next_vals(struct pqrows *r, struct pqvals *out)
{
	int rc = advance(r);

	sb_reset(&out->rest);
	if (rc != 1)
		return rc;
	make_vals(r, out);
	r->row++;
	r->index++;
	return 1;
}

void pqrows_add(struct pqrows *r, cJSON *obj, const char *key,
		const char *value)
{
	cJSON *v = node(r), *last = obj->child;

	while (last && last->next)
		last = last->next;
	set_string(r, v, value, strlen(value));
	v->string = (char *)key;
	v->type |= cJSON_StringIsConst;
	append(obj, v, &last);
}

const char *pqrows_file(const struct pqrows *r)
{
	return r->part < r->t->nfiles ? r->t->files[r->part] :
	       r->t->files[r->t->nfiles - 1];
}

uint64_t pqrows_index(const struct pqrows *r)
{
	return r->index ? r->index - 1 : 0;
}

int pqrows_columns(const struct pqrows *r)
{
	return r->ncols;
}

int pqrows_has(const struct pqrows *r, const char *column)
{
	return r->f && pq_find_column(r->f, column) >= 0;
}

static int listed(const struct pqrename *p, const char *name)
{
	for (; p && p->column; p++)
		if (!strcmp(p->column, name))
			return 1;
	return 0;
}

void pqrows_unmapped(const struct pqrows *r, const struct pqrename *a,
		     const struct pqrename *b, struct strbuf *out)
{
	const char *prev = NULL;

	sb_reset(out);
	for (int i = 0; r->f && i < pq_num_columns(r->f); i++) {
		const char *name = pq_column(r->f, i)->name;

		/* the leaves of a struct follow each other */
		if ((prev && !strcmp(prev, name)) || listed(a, name) ||
		    listed(b, name)) {
			prev = name;
			continue;
		}
		prev = name;
		sb_printf(out, "%s%s", out->len ? ", " : "", name);
	}
}

void pqrows_close(struct pqrows *r)
{
	if (!r)
		return;
	close_part(r);
	arena_free(&r->a);
	free(r);
}
