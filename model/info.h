/* Profile info panels: the profile's own tables (Summary, NEFF header,
 * NEFF nodes, Model info, DMA queues info, NC memory usage, Warnings,
 * Terminology, and any other section it carries) as rows of text cells,
 * ready for a list view or an export. */
#ifndef NX_INFO_H
#define NX_INFO_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

struct info_table {
	char *title;
	char **cols;
	size_t ncols;
	char **cells;		/* row-major, ncols per row; never NULL */
	size_t nrows;
	int by_key;		/* one record, a row per field (Key, Value) */
};

struct info_section {
	char *key;		/* section key: "summary", "neff_header", ... */
	char *title;		/* "Summary", "NEFF header", ... */
	int64_t records;
};

/* Sections the profile has, in panel order. */
int info_sections(struct model *m, int64_t profile, struct info_section **out,
		  size_t *n);
void info_sections_free(struct info_section *s, size_t n);

/* One section as a table. The Summary is grouped by summary_groups in
 * summary_group_order, with times and percentages formatted and each key's
 * terminology (times in ASCII units, "us", when ascii is set);
 * "warnings" lists the profile's and the importer's warnings. */
int info_load(struct model *m, int64_t profile, const char *key, int ascii,
	      struct info_table *out);
void info_free(struct info_table *t);

#endif
