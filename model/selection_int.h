/* What selection.c lends selection_agg.c: statements on the cache. */
#ifndef NX_SELECTION_INT_H
#define NX_SELECTION_INT_H

#include <sqlite3.h>
#include <stdint.h>

#include "model/model.h"

/* A statement prepared; NULL on failure, said through the model. */
sqlite3_stmt *selection_prep(struct model *m, const char *sql);
/* A statement on one row's events from t0 to t1 (parameters 1-4: track,
 * depth limit, start, end), prepared and bound; NULL on failure. */
sqlite3_stmt *selection_prep_track(struct model *m, const char *sql,
				   const struct mtrack *t, int64_t t0,
				   int64_t t1);

#endif
