/* One table of the Parquet demo: NAME.parquet, or NAME_0.parquet,
 * NAME_1.parquet... when it has more rows than a file takes. */
#ifndef NX_DEMO_PQTAB_H
#define NX_DEMO_PQTAB_H

#include <stdint.h>

#include "src/demo/demo_pq.h"
#include "src/parquet/pqwrite.h"

struct pqtab {
	struct demo_pq *pq;
	const char *dir, *name;
	const struct pqw_field *fields;
	int nfields;
	uint64_t rows;		/* rows in the open file */
	int part, nparts;
	struct pqw *w;		/* set the row's values here */
	int err;		/* a row failed: nothing more is written */
};

/* Opens the first file of a table that will have total rows (0 when
 * not known: it is not split). 0, or -1 with err_get() set. */
int pqtab_open(struct pqtab *t, struct demo_pq *pq, const char *dir,
	       const char *name, const struct pqw_field *fields, int nfields,
	       uint64_t total);
/* Ends a row, moving on to the next file when this one is full. */
void pqtab_row(struct pqtab *t);
/* Closes the table: 0, or -1 with err_get() set (nothing of the open
 * file is left). */
int pqtab_close(struct pqtab *t);

/* Type names and units of a column for SchemaFields. */
const char *pqtab_type_name(enum pqw_type t);

#endif
