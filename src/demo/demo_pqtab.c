#include "config.h"

#include "src/demo/demo_pqtab.h"

#include <stdlib.h>
#include <unistd.h>

#include "model/file.h"
#include "model/util.h"

/* NAME.parquet, or NAME_<part>.parquet when the table is split. */
static char *part_path(const struct pqtab *t)
{
	if (t->nparts == 1)
		return xasprintf("%s/%s.parquet", t->dir, t->name);
	return xasprintf("%s/%s_%d.parquet", t->dir, t->name, t->part);
}

static int open_part(struct pqtab *t)
{
	char *path = part_path(t);

	t->w = pqw_open(path, t->fields, t->nfields, PQW_ZSTD,
			t->pq->group_rows);
	free(path);
	t->rows = 0;
	return t->w ? 0 : -1;
}

/* Commits the open file and notes it for demo_pq_undo(). */
static int close_part(struct pqtab *t)
{
	struct demo_pq *pq = t->pq;
	int rc;

	if (t->err) {
		pqw_abort(t->w);
		t->w = NULL;
		return -1;
	}
	rc = pqw_close(t->w);
	t->w = NULL;
	if (!rc) {
		pq->done = xreallocarray(pq->done, pq->ndone + 1,
					 sizeof(*pq->done));
		pq->done[pq->ndone++] = part_path(t);
	}
	return rc;
}

int pqtab_open(struct pqtab *t, struct demo_pq *pq, const char *dir,
	       const char *name, const struct pqw_field *fields, int nfields,
	       uint64_t total)
{
	uint64_t split = pq->split_rows ? pq->split_rows : 1;

	t->pq = pq;
	t->dir = dir;
	t->name = name;
	t->fields = fields;
	t->nfields = nfields;
	t->part = 0;
	t->nparts = total > split ? (int)((total + split - 1) / split) : 1;
	t->err = 0;
	return open_part(t);
}

void pqtab_row(struct pqtab *t)
{
	if (t->err)
		return;
	if (pqw_row(t->w)) {
		t->err = 1;
		return;
	}
	if (++t->rows < t->pq->split_rows || t->part + 1 >= t->nparts)
		return;
	if (close_part(t)) {
		t->err = 1;
		t->w = NULL;
		return;
	}
	t->part++;
	if (open_part(t))
		t->err = 1;
}

int pqtab_close(struct pqtab *t)
{
	if (!t->w)
		return -1;
	return close_part(t);
}

const char *pqtab_type_name(enum pqw_type t)
{
	static const char *const n[] = { "bool", "int32", "int64", "double",
					 "string", "list<string>" };

	return n[t];
}

void demo_pq_undo(struct demo_pq *pq)
{
	for (size_t i = pq->ndone; i-- > 0;) {
		char *dir = file_dir(pq->done[i]);

		unlink(pq->done[i]);
		rmdir(dir);
		free(dir);
	}
}

void demo_pq_free(struct demo_pq *pq)
{
	for (size_t i = 0; i < pq->ndone; i++)
		free(pq->done[i]);
	free(pq->done);
	pq->done = NULL;
	pq->ndone = 0;
}
