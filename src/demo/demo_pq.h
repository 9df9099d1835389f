/* The demo as Neuron Explorer's Parquet output (FORMATS.md §1.5a): a
 * folder of tables per device profile and one for the system profile,
 * with the rows the JSON demo has for the same options (same seed, same
 * events), mapped field by field as §1.5 maps JSON to Parquet. */
#ifndef NX_DEMO_PQ_H
#define NX_DEMO_PQ_H

#include <stddef.h>
#include <stdint.h>

#include "src/demo/demo.h"

struct demo_system;

/* The system profile's folder is DEMO_PQ_SYSTEM@latest; its
 * DEMO_PQ_MARKER table is written last, so a folder that has it is whole. */
#define DEMO_PQ_SYSTEM "system_profile"
#define DEMO_PQ_MARKER "SystemProfileMetadata.parquet"

struct demo_pq {
	uint64_t split_rows;	/* a table with more rows is split: NAME_0, NAME_1... */
	size_t group_rows;	/* rows of a row group */
	/* files written so far, for demo_pq_undo() */
	char **done;
	size_t ndone;
};

/* A device profile's tables into the folder dir (made when missing);
 * *len_ns gets the profile's length. 0, or -1 with err_get() set. */
int demo_pq_device(struct demo_pq *pq, const char *dir,
		   const struct demo_opts *o, int64_t *len_ns);
/* The system profile's tables into dir. */
int demo_pq_system(struct demo_pq *pq, const char *dir,
		   const struct demo_system *s);
/* Removes every file written so far, and their folders when empty. */
void demo_pq_undo(struct demo_pq *pq);
void demo_pq_free(struct demo_pq *pq);

#endif
