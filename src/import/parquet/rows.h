/* The rows of one Parquet table, part file after part file, each row as
 * a flat cJSON object whose members are named like the fields of the
 * Neuron JSON export, so that one set of record handlers serves both
 * formats (src/import/neuron.c). Columns are found by name; 64-bit
 * integers past 2^53 are handed over as tagged strings (JSPLIT_NUMTEXT),
 * exact. */
#ifndef NX_PQ_ROWS_H
#define NX_PQ_ROWS_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "model/util.h"
#include "src/import/base.h"
#include "src/import/parquet/folder.h"

struct pqrows;

/* Rows of t; renames end with a { NULL, NULL } entry. */
struct pqrows *pqrows_open(const struct pqtable *t,
			   const struct pqrename *renames);
/* The next row in *obj (valid until the next call): 1, 0 at the end,
 * -1 with err_get() set ("<file>: <what>"; the caller adds the folder). */
int pqrows_next(struct pqrows *r, cJSON **obj);
/* Hands rows by field instead (pqrows_next_vals): names[0..n) are
 * member names after renaming, matched to columns once per part file;
 * members of names[0..consumed) are the row's fields, the others also
 * go to the rest. Call before the first row. */
void pqrows_bind(struct pqrows *r, const char *const *names, size_t n,
		 size_t consumed);
/* A row by bound field: vals[i] the value of names[i] (NULL when absent
 * or null) or, where has_int[i], the signed integer ints[i] of a column
 * of integers, exact; the members not consumed as the JSON text
 * jv_fields() would give in rest. Arrays of n entries. */
struct pqvals {
	cJSON **vals;
	int64_t *ints;
	unsigned char *has_int;
	struct strbuf rest;
};

/* The next row into out (rest reset first); returns as pqrows_next(). */
int pqrows_next_vals(struct pqrows *r, struct pqvals *out);
/* Adds a string member to the current row. */
void pqrows_add(struct pqrows *r, cJSON *obj, const char *key,
		const char *value);
/* The part file being read, and the row's index in it. */
const char *pqrows_file(const struct pqrows *r);
uint64_t pqrows_index(const struct pqrows *r);
/* The members a row of the current part may have. */
int pqrows_columns(const struct pqrows *r);
/* 1 if the current part has a column named so (before renaming). */
int pqrows_has(const struct pqrows *r, const char *column);
/* Columns of the current part named in neither list, comma-separated
 * into out (which is reset). */
void pqrows_unmapped(const struct pqrows *r, const struct pqrename *a,
		     const struct pqrename *b, struct strbuf *out);
void pqrows_close(struct pqrows *r);

#endif
