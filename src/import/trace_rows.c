#include "config.h"

#include "src/import/trace_rows.h"

#include <stdlib.h>
#include <string.h>

#include "model/hmap.h"
#include "model/util.h"

/* Sort-key layout: a process's rows sit between its group's key and the
 * next group's, so one global ORDER BY sort_key shows groups before their
 * children. */
#define ROWS_PER_BLOCK (1 << 24)

struct tproc {
	char *pid, *name;
	int64_t sort_index, order;
	int64_t group;		/* writer group track, 0 until needed */
	struct trow **rows;
	size_t nrows;
};

struct trow {
	struct tproc *proc;
	int thread;		/* 1: a thread row, named with its tid */
	char *id;		/* tid for threads */
	char *kind, *name;
	char *written;		/* the name the writer track has */
	char *unit;
	int64_t sort_index, order;
	unsigned flags;
	int64_t track;
};

struct trows {
	struct writer *w;
	int64_t profile;
	int64_t parent;		/* group track above all rows, or 0 */
	int64_t base;		/* first sort key */
	struct strmap procs;	/* pid -> tproc */
	struct strmap rows;	/* composite key -> trow */
	struct tproc top;	/* rows without a process */
	struct tproc **plist;
	size_t nprocs;
	size_t nrows;
	struct strbuf key, tmp;
};

struct trows *trows_new(struct writer *w, int64_t profile)
{
	struct trows *r = xcalloc(1, sizeof(*r));

	r->w = w;
	r->profile = profile;
	strmap_init(&r->procs);
	strmap_init(&r->rows);
	sb_init(&r->key);
	sb_init(&r->tmp);
	return r;
}

void trows_set_parent(struct trows *r, int64_t group, int64_t base)
{
	r->parent = group;
	r->base = base;
}

size_t trows_count(const struct trows *r)
{
	return r->nrows + r->nprocs;
}

struct tproc *trows_proc(struct trows *r, const char *pid, size_t len)
{
	struct tproc *p = strmap_get(&r->procs, pid, len);

	if (p)
		return p;
	p = xcalloc(1, sizeof(*p));
	p->pid = xstrndup(pid, len);
	p->order = (int64_t)r->nprocs;
	strmap_put(&r->procs, pid, len, p);
	r->plist = xreallocarray(r->plist, r->nprocs + 1, sizeof(*r->plist));
	r->plist[r->nprocs++] = p;
	return p;
}

void tproc_set_name(struct tproc *p, const char *name)
{
	free(p->name);
	p->name = name && *name ? xstrdup(name) : NULL;
}

void tproc_set_sort(struct tproc *p, int64_t sort_index)
{
	p->sort_index = sort_index;
}

static struct trow *row_add(struct trows *r, struct tproc *p)
{
	struct trow *t = xcalloc(1, sizeof(*t));

	if (!p)
		p = &r->top;
	t->proc = p;
	t->order = (int64_t)p->nrows;
	p->rows = xreallocarray(p->rows, p->nrows + 1, sizeof(*p->rows));
	p->rows[p->nrows++] = t;
	r->nrows++;
	return t;
}

/* Map keys: 'T' pid NUL tid, 'N' pid NUL kind NUL name. */
static void key_start(struct trows *r, char tag, const struct tproc *p)
{
	sb_reset(&r->key);
	sb_addc(&r->key, tag);
	if (p)
		sb_adds(&r->key, p->pid);
	sb_addc(&r->key, '\0');
}

struct trow *trows_thread(struct trows *r, struct tproc *p, const char *tid,
			  size_t len)
{
	struct trow *t;

	key_start(r, 'T', p);
	sb_add(&r->key, tid, len);
	t = strmap_get(&r->rows, r->key.buf, r->key.len);
	if (t)
		return t;
	t = row_add(r, p);
	t->thread = 1;
	t->id = xstrndup(tid, len);
	t->kind = xstrdup(TK_THREAD);
	strmap_put(&r->rows, r->key.buf, r->key.len, t);
	return t;
}

struct trow *trows_named(struct trows *r, struct tproc *p, const char *kind,
			 const char *name)
{
	struct trow *t;

	key_start(r, 'N', p);
	sb_adds(&r->key, kind);
	sb_addc(&r->key, '\0');
	sb_adds(&r->key, name);
	t = strmap_get(&r->rows, r->key.buf, r->key.len);
	if (t)
		return t;
	t = row_add(r, p);
	t->kind = xstrdup(kind);
	t->name = xstrdup(name);
	strmap_put(&r->rows, r->key.buf, r->key.len, t);
	return t;
}

struct trow *trows_unique(struct trows *r, struct tproc *p, const char *kind,
			  const char *name)
{
	struct trow *t = row_add(r, p);

	t->kind = xstrdup(kind);
	t->name = xstrdup(name);
	return t;
}

void trow_set_name(struct trow *t, const char *name)
{
	free(t->name);
	t->name = name && *name ? xstrdup(name) : NULL;
}

void trow_set_sort(struct trow *t, int64_t sort_index)
{
	t->sort_index = sort_index;
}

void trow_set_flags(struct trows *r, struct trow *t, unsigned flags)
{
	if ((t->flags | flags) == t->flags)
		return;
	t->flags |= flags;
	if (t->track)
		writer_track_set_flags(r->w, t->track, t->flags);
}

void trow_set_unit(struct trow *t, const char *unit)
{
	free(t->unit);
	t->unit = unit && *unit ? xstrdup(unit) : NULL;
}

/* "<name> <id>", or the name alone when it already ends with the id. */
static void name_with_id(struct strbuf *sb, const char *name,
			 const char *fallback, const char *id)
{
	size_t n, m;

	sb_reset(sb);
	if (!name || !*name) {
		sb_adds(sb, fallback);
		if (id && *id)
			sb_printf(sb, " %s", id);
		return;
	}
	sb_adds(sb, name);
	if (!id || !*id)
		return;
	n = strlen(name);
	m = strlen(id);
	if (n >= m && !strcmp(name + n - m, id) &&
	    (n == m || name[n - m - 1] < '0' || name[n - m - 1] > '9'))
		return;
	sb_printf(sb, " %s", id);
}

static const char *row_name(struct trows *r, const struct trow *t)
{
	if (t->thread)
		name_with_id(&r->tmp, t->name, "Thread", t->id);
	else
		name_with_id(&r->tmp, t->name && *t->name ? t->name : "(unnamed)",
			     "", NULL);
	return sb_cstr(&r->tmp);
}

static int64_t group_track(struct trows *r, struct tproc *p)
{
	if (p == &r->top)
		return r->parent;
	if (!p->group) {
		name_with_id(&r->tmp, p->name, "Process", p->pid);
		p->group = writer_track(r->w, r->profile, r->parent, TK_GROUP,
					sb_cstr(&r->tmp), 0);
	}
	return p->group;
}

int64_t trow_track(struct trows *r, struct trow *t)
{
	int64_t parent;

	if (t->track)
		return t->track;
	parent = group_track(r, t->proc);
	t->written = xstrdup(row_name(r, t));
	t->track = writer_track(r->w, r->profile, parent, t->kind, t->written, 0);
	if (t->flags)
		writer_track_set_flags(r->w, t->track, t->flags);
	return t->track;
}

static int cmp_order(int64_t sa, int64_t oa, int64_t sb, int64_t ob)
{
	if (sa != sb)
		return sa < sb ? -1 : 1;
	return oa < ob ? -1 : oa > ob;
}

static int cmp_proc(const void *a, const void *b)
{
	const struct tproc *x = *(struct tproc *const *)a;
	const struct tproc *y = *(struct tproc *const *)b;

	return cmp_order(x->sort_index, x->order, y->sort_index, y->order);
}

static int cmp_row(const void *a, const void *b)
{
	const struct trow *x = *(struct trow *const *)a;
	const struct trow *y = *(struct trow *const *)b;

	if (x->thread != y->thread)
		return x->thread ? -1 : 1;
	return cmp_order(x->sort_index, x->order, y->sort_index, y->order);
}

/* Final name, unit and sort key of each row of one process block. */
static void finish_rows(struct trows *r, struct tproc *p, int64_t base)
{
	int64_t k = 1;

	if (p->nrows)
		qsort(p->rows, p->nrows, sizeof(*p->rows), cmp_row);
	for (size_t i = 0; i < p->nrows; i++) {
		struct trow *t = p->rows[i];
		const char *name;

		if (!t->track)
			continue;
		name = row_name(r, t);
		if (strcmp(name, t->written))
			writer_track_set_name(r->w, t->track, name);
		if (t->unit)
			writer_track_set_unit(r->w, t->track, t->unit);
		writer_track_set_sort(r->w, t->track, base + k++);
	}
}

void trows_finish(struct trows *r)
{
	int64_t block = 1;

	finish_rows(r, &r->top, r->base);
	if (r->nprocs)
		qsort(r->plist, r->nprocs, sizeof(*r->plist), cmp_proc);
	for (size_t i = 0; i < r->nprocs; i++) {
		struct tproc *p = r->plist[i];

		if (!p->group)
			continue;
		name_with_id(&r->tmp, p->name, "Process", p->pid);
		writer_track_set_name(r->w, p->group, sb_cstr(&r->tmp));
		writer_track_set_sort(r->w, p->group,
				      r->base + block * ROWS_PER_BLOCK);
		finish_rows(r, p, r->base + block * ROWS_PER_BLOCK);
		block++;
	}
	trows_free(r);
}

static void row_free(struct trow *t)
{
	free(t->id);
	free(t->kind);
	free(t->name);
	free(t->written);
	free(t->unit);
	free(t);
}

static void proc_rows_free(struct tproc *p)
{
	for (size_t i = 0; i < p->nrows; i++)
		row_free(p->rows[i]);
	free(p->rows);
}

void trows_free(struct trows *r)
{
	if (!r)
		return;
	proc_rows_free(&r->top);
	for (size_t i = 0; i < r->nprocs; i++) {
		proc_rows_free(r->plist[i]);
		free(r->plist[i]->pid);
		free(r->plist[i]->name);
		free(r->plist[i]);
	}
	free(r->plist);
	strmap_free(&r->procs, NULL);
	strmap_free(&r->rows, NULL);
	sb_free(&r->key);
	sb_free(&r->tmp);
	free(r);
}
