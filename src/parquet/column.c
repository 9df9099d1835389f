/* Column cursors: the rows of one leaf column in batches, row group
 * after row group, page after page. A batch never spans two row groups,
 * so the batches of every column of a file line up row for row. Levels
 * are read a bounded chunk at a time, values only for the slots that
 * hold one. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "src/parquet/pq_int.h"

#define LEVELS 4096	/* levels read ahead, values decoded at a time */

struct pq_cursor {
	struct pq_file *f;
	const struct pq_column *c;
	struct pq_leaf lf;
	int rg;			/* row group being read */
	int64_t rows_left;	/* of that row group */
	int failed;
	int unsigned32;		/* INT32 holding unsigned values */
	struct pq_chunkrd rd;
	/* levels read ahead (repeated columns) */
	uint32_t rep[LEVELS], def[LEVELS];
	size_t lv_pos, lv_len;
	/* the batch */
	size_t rows, slots, row_cap, slot_cap;
	unsigned char *valid, *row_valid;
	size_t *offsets;
	struct pq_out out;
	struct arena arena;
	/* non-null values before they are spread over their slots */
	struct pq_out tmp;
};

static int cursor_fail(struct pq_cursor *c, const char *why)
{
	char path[128];

	pq_clean(path, sizeof(path), c->c->path, strlen(c->c->path));
	pq_fail(c->f, "column '%s', row group %d, page at byte %llu: %s", path,
		c->rg, (unsigned long long)c->rd.page_at, why);
	c->failed = 1;
	return -1;
}

struct pq_cursor *pq_cursor_open(struct pq_file *f, int col)
{
	struct pq_cursor *c;
	const struct pq_column *k;

	if (col < 0 || col >= f->ncols) {
		pq_fail(f, "no column %d", col);
		return NULL;
	}
	c = xcalloc(1, sizeof(*c));
	c->f = f;
	c->c = k = &f->cols[col];
	c->lf = f->leaves[col];
	c->rg = -1;
	c->unsigned32 = k->type == PQ_INT32 && k->logical == PQ_L_INT &&
			!k->is_signed;
	pq_chunk_init(&c->rd, f, col);
	if (k->kind == PQ_K_I64)
		c->tmp.i64 = xmalloc(LEVELS * sizeof(int64_t));
	else if (k->kind == PQ_K_F64)
		c->tmp.f64 = xmalloc(LEVELS * sizeof(double));
	else
		c->tmp.bytes = xmalloc(LEVELS * sizeof(struct pq_bytes));
	return c;
}

void pq_cursor_close(struct pq_cursor *c)
{
	if (!c)
		return;
	pq_chunk_free(&c->rd);
	arena_free(&c->arena);
	free(c->valid);
	free(c->row_valid);
	free(c->offsets);
	free(c->out.i64);
	free(c->out.f64);
	free(c->out.bytes);
	free(c->tmp.i64);
	free(c->tmp.f64);
	free(c->tmp.bytes);
	free(c);
}

void pq_cursor_seen(const struct pq_cursor *c, struct pq_seen *s)
{
	*s = c->rd.seen;
}

static int grow_slots(struct pq_cursor *c, size_t n)
{
	size_t cap;

	if (n <= c->slot_cap)
		return 0;
	if (n > PQ_MAX_SLOTS)
		return cursor_fail(c, "more than 16M values in one batch of rows");
	cap = n > 2 * c->slot_cap ? n : 2 * c->slot_cap;
	c->slot_cap = cap;
	c->valid = xrealloc(c->valid, cap);
	if (c->c->kind == PQ_K_I64)
		c->out.i64 = xreallocarray(c->out.i64, cap, sizeof(int64_t));
	else if (c->c->kind == PQ_K_F64)
		c->out.f64 = xreallocarray(c->out.f64, cap, sizeof(double));
	else
		c->out.bytes = xreallocarray(c->out.bytes, cap,
					     sizeof(struct pq_bytes));
	return 0;
}

static void grow_rows(struct pq_cursor *c, size_t n)
{
	if (n <= c->row_cap)
		return;
	c->row_cap = n;
	c->offsets = xreallocarray(c->offsets, n, sizeof(*c->offsets));
	c->row_valid = xrealloc(c->row_valid, n);
}

static int next_page(struct pq_cursor *c)
{
	int rc = pq_chunk_next(&c->rd);

	return rc < 0 ? cursor_fail(c, c->rd.why) : rc;
}

static int get_values(struct pq_cursor *c, const struct pq_out *o, size_t n)
{
	const char *why = pq_values_get(&c->rd.page.vals, o, n, &c->arena);

	return why ? cursor_fail(c, why) : 0;
}

/* Output arrays moved on to slot s. */
static struct pq_out out_at(const struct pq_out *o, size_t s)
{
	struct pq_out r = {
		o->i64 ? o->i64 + s : NULL, o->f64 ? o->f64 + s : NULL,
		o->bytes ? o->bytes + s : NULL
	};

	return r;
}

/* Decodes the values of slots [s0, s1) whose valid flag is set; nulls
 * read as 0, 0.0 or "". */
static int spread(struct pq_cursor *c, size_t s0, size_t s1)
{
	size_t nn = 0, j = 0;
	const unsigned char *v = c->valid;
	struct pq_out *o = &c->out, *t = &c->tmp;
	struct pq_out at = out_at(o, s0);

	for (size_t s = s0; s < s1; s++)
		nn += v[s];
	if (nn == s1 - s0)
		return get_values(c, &at, nn);
	if (get_values(c, t, nn))
		return -1;
	if (o->i64)
		for (size_t s = s0; s < s1; j += v[s++])
			o->i64[s] = v[s] ? t->i64[j] : 0;
	else if (o->f64)
		for (size_t s = s0; s < s1; j += v[s++])
			o->f64[s] = v[s] ? t->f64[j] : 0;
	else
		for (size_t s = s0; s < s1; j += v[s++])
			o->bytes[s] = v[s] ? t->bytes[j] : (struct pq_bytes){ "", 0 };
	return 0;
}

static int read_levels(struct pq_cursor *c, struct pq_rle *r, uint32_t *out,
		       size_t n, int max)
{
	if (!max) {
		memset(out, 0, n * sizeof(*out));
		return 0;
	}
	if (pq_rle_get(r, out, n) != (int64_t)n)
		return cursor_fail(c, "levels end before the page's value count");
	for (size_t i = 0; i < n; i++)
		if (out[i] > (uint32_t)max)
			return cursor_fail(c, "level above the column's maximum");
	return 0;
}

/* Rows of a column that is not repeated: one slot per row. */
static int fill_flat(struct pq_cursor *c, size_t want)
{
	struct pq_page *pg = &c->rd.page;
	int max = c->c->max_def;

	while (c->rows < want) {
		size_t k = want - c->rows;
		int rc;

		if (!pg->left && (rc = next_page(c)) <= 0)
			return rc ? -1 : cursor_fail(c, "pages end before the row"
						     " group's row count");
		if ((uint64_t)k > (uint64_t)pg->left)
			k = (size_t)pg->left;
		if (max && k > LEVELS)
			k = LEVELS;
		if (grow_slots(c, c->rows + k))
			return -1;
		if (!max) {
			struct pq_out o = out_at(&c->out, c->rows);

			memset(c->valid + c->rows, 1, k);
			if (get_values(c, &o, k))
				return -1;
		} else {
			if (read_levels(c, &pg->def, c->def, k, max))
				return -1;
			for (size_t i = 0; i < k; i++)
				c->valid[c->rows + i] = c->def[i] == (uint32_t)max;
			if (spread(c, c->rows, c->rows + k))
				return -1;
		}
		pg->left -= (int64_t)k;
		c->rows += k;
	}
	c->slots = c->rows;
	return 0;
}

/* The next chunk of levels of a repeated column; lv_len 0 at the end
 * of the chunk. */
static int refill(struct pq_cursor *c)
{
	struct pq_page *pg = &c->rd.page;
	size_t k;
	int rc;

	c->lv_pos = c->lv_len = 0;
	while (!pg->left)
		if ((rc = next_page(c)) <= 0)
			return rc;
	k = pg->left < LEVELS ? (size_t)pg->left : LEVELS;
	if (read_levels(c, &pg->rep, c->rep, k, c->c->max_rep) ||
	    read_levels(c, &pg->def, c->def, k, c->c->max_def))
		return -1;
	pg->left -= (int64_t)k;
	c->lv_len = k;
	return 0;
}

/* Levels [lv_pos, lv_len) into rows and slots, up to want rows; 1 when
 * the next row starts, that is the batch is full. */
static int scan_levels(struct pq_cursor *c, size_t want)
{
	size_t i, s0 = c->slots;
	int done = 0;

	if (grow_slots(c, c->slots + c->lv_len - c->lv_pos))
		return -1;
	for (i = c->lv_pos; i < c->lv_len; i++) {
		uint32_t d = c->def[i];

		if (!c->rep[i]) {
			if (c->rows == want) {
				done = 1;
				break;
			}
			c->offsets[c->rows] = c->slots;
			c->row_valid[c->rows++] = d >= (uint32_t)c->lf.list_def;
		} else if (!c->rows) {
			return cursor_fail(c, "a row group starts inside a list");
		}
		if (d >= (uint32_t)c->lf.rep_def)
			c->valid[c->slots++] = d == (uint32_t)c->c->max_def;
	}
	c->lv_pos = i;
	if (spread(c, s0, c->slots))
		return -1;
	return done;
}

/* Rows of a repeated column: a row ends where the next starts (a level
 * entry of repetition level 0), or at the end of the chunk. */
static int fill_list(struct pq_cursor *c, size_t want)
{
	int rc;

	grow_rows(c, want + 1);
	for (;;) {
		if (c->lv_pos == c->lv_len) {
			if (refill(c))
				return -1;
			if (!c->lv_len)
				break;
		}
		if ((rc = scan_levels(c, want)) < 0)
			return -1;
		if (rc)
			break;
	}
	if (c->rows < want)
		return cursor_fail(c, "pages end before the row group's row count");
	c->offsets[c->rows] = c->slots;
	return 0;
}

/* After the last row of a row group: nothing may be left over. */
static int finish_rowgroup(struct pq_cursor *c)
{
	int rc;

	if (c->lv_pos < c->lv_len || c->rd.page.left)
		return cursor_fail(c, "pages hold more rows than the row group says");
	while ((rc = next_page(c)) > 0)
		if (c->rd.page.left)
			return cursor_fail(c, "pages hold more rows than the row"
					   " group says");
	if (rc < 0)
		return -1;
	if (c->rd.values_left)
		return cursor_fail(c, "pages hold fewer values than the column"
				   " chunk says");
	return 0;
}

static void fill_batch(struct pq_cursor *c, struct pq_batch *b)
{
	if (c->unsigned32)
		for (size_t i = 0; i < c->slots; i++)
			c->out.i64[i] = (int64_t)(uint32_t)c->out.i64[i];
	b->rows = c->rows;
	b->slots = c->slots;
	b->valid = c->valid;
	b->i64 = c->out.i64;
	b->f64 = c->out.f64;
	b->bytes = c->out.bytes;
	if (c->c->max_rep) {
		b->offsets = c->offsets;
		b->row_valid = c->row_valid;
	}
}

int pq_cursor_next(struct pq_cursor *c, size_t max_rows, struct pq_batch *b)
{
	struct pq_file *f = c->f;
	size_t want;

	memset(b, 0, sizeof(*b));
	if (c->failed)
		return -1;
	while (!c->rows_left) {
		if (c->rg + 1 >= f->nrg)
			return 0;
		c->rg++;
		pq_chunk_start(&c->rd, c->rg);
		c->lv_pos = c->lv_len = 0;
		c->rows_left = f->rgs[c->rg].num_rows;
		if (!c->rows_left && finish_rowgroup(c))
			return -1;
	}
	want = max_rows ? max_rows : 1;
	if ((uint64_t)want > (uint64_t)c->rows_left)
		want = (size_t)c->rows_left;
	c->rows = c->slots = 0;
	arena_reset(&c->arena);
	if ((c->c->max_rep ? fill_list : fill_flat)(c, want))
		return -1;
	c->rows_left -= (int64_t)c->rows;
	if (!c->rows_left && finish_rowgroup(c))
		return -1;
	fill_batch(c, b);
	return 1;
}
