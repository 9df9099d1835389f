/* A small Parquet writer, for the demo and the tests: tables of
 * required or optional INT32, INT64, DOUBLE, BOOLEAN and UTF-8 string
 * columns, and lists of strings (a LIST of optional elements), PLAIN
 * encoding, one data page (V1) per column chunk,
 * UNCOMPRESSED or ZSTD. Rows are buffered and written as a row group
 * every group_rows rows, so memory stays bounded by the group size. The
 * file is written through a temporary file and renamed into place by
 * pqw_close(), so a failed write leaves nothing behind. */
#ifndef NX_PQWRITE_H
#define NX_PQWRITE_H

#include <stddef.h>
#include <stdint.h>

enum pqw_type { PQW_BOOLEAN, PQW_INT32, PQW_INT64, PQW_DOUBLE, PQW_STRING,
		PQW_STRING_LIST };

/* Codecs, numbered as in parquet.thrift. */
enum pqw_codec { PQW_UNCOMPRESSED = 0, PQW_ZSTD = 6 };

struct pqw_field {
	const char *name;
	enum pqw_type type;
	int optional;		/* nullable: definition levels are written (a
				 * list is always nullable) */
};

struct pqw;

/* Starts path with these columns (at least one); NULL with err_get()
 * set. */
struct pqw *pqw_open(const char *path, const struct pqw_field *fields,
		     int nfields, enum pqw_codec codec, size_t group_rows);

/* One value of column col in the current row; each column gets exactly
 * one value (or null) per row, in any column order. */
void pqw_bool(struct pqw *w, int col, int v);
void pqw_i32(struct pqw *w, int col, int32_t v);
void pqw_i64(struct pqw *w, int col, int64_t v);
void pqw_double(struct pqw *w, int col, double v);
void pqw_str(struct pqw *w, int col, const char *s);	/* NULL: null */
void pqw_null(struct pqw *w, int col);
/* A list of n strings (NULL ones are null elements); v NULL: null. */
void pqw_strs(struct pqw *w, int col, const char *const *v, size_t n);

/* Ends the row; a full row group is written out. 0, or -1 with
 * err_get() set when a column got no value (a required one) or two
 * (then pqw_abort()). */
int pqw_row(struct pqw *w);
/* Writes the last row group and the footer and renames the file into
 * place; frees w either way. 0, or -1 with err_get() set. */
int pqw_close(struct pqw *w);
/* Drops the file; frees w. */
void pqw_abort(struct pqw *w);

#endif
