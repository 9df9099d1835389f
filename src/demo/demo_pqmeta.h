/* The Parquet demo's smaller device tables: ActiveTime and
 * SemaphoreUpdate from a replay of the timeline; the sampled counters;
 * the NEFF's header, tensors and memory; Warning, Metadata, Summary,
 * DmaQueuesInfo and SchemaFields from the run's figures. */
#ifndef NX_DEMO_PQMETA_H
#define NX_DEMO_PQMETA_H

#include "src/demo/demo_int.h"
#include "src/demo/demo_pq.h"
#include "src/parquet/pqwrite.h"

/* The Metadata table's profile_schema_version: the documented schema
 * the tables follow (FORMATS.md §1.5). */
#define DEMO_PQ_SCHEMA_VERSION "7.4.0"

/* A table's name and columns, for SchemaFields. */
struct demo_pq_table {
	const char *name;
	const struct pqw_field *fields;
	int n;
};

/* The counter tables, up to a NULL name. */
extern const struct demo_pq_table demo_pq_counter_tables[];

/* TensorInfo and HbmUsageSummaryByType (NeffHeader's columns are its
 * keys), up to a NULL name. */
extern const struct demo_pq_table demo_pq_info_tables[];

int demo_pq_info(struct demo_pq *pq, const char *dir,
		 const struct demo_model *m, const struct demo_stats *st);
int demo_pq_counters(struct demo_pq *pq, const char *dir,
		     const struct demo_model *m, uint64_t last_hw);
int demo_pq_timeline(struct demo_pq *pq, const char *dir,
		     const struct demo_model *m);
int demo_pq_meta(struct demo_pq *pq, const char *dir,
		 const struct demo_model *m, const struct demo_stats *st,
		 const struct demo_totals *t);

#endif
