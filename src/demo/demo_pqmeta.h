/* The Parquet demo's smaller device tables: ActiveTime and
 * SemaphoreUpdate from a replay of the timeline; Warning, Metadata,
 * Summary, DmaQueuesInfo and SchemaFields from the run's figures. */
#ifndef NX_DEMO_PQMETA_H
#define NX_DEMO_PQMETA_H

#include "src/demo/demo_int.h"
#include "src/demo/demo_pq.h"

/* The Metadata table's profile_schema_version: the documented schema
 * the tables follow (FORMATS.md §1.5). */
#define DEMO_PQ_SCHEMA_VERSION "7.4.0"

int demo_pq_timeline(struct demo_pq *pq, const char *dir,
		     const struct demo_model *m);
int demo_pq_meta(struct demo_pq *pq, const char *dir,
		 const struct demo_model *m, const struct demo_stats *st,
		 const struct demo_totals *t);

#endif
