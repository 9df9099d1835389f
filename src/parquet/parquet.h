/* A Parquet reader: the footer and schema of a file, and column cursors
 * that stream the values of one leaf column in batches of rows, one row
 * group and one page at a time, so memory stays bounded by the page and
 * batch sizes whatever the size of the file. Columns are looked up by
 * name. Every failure leaves one message naming the file and what is
 * wrong in pq_error().
 *
 * Values come out widened: INT32, INT64 and BOOLEAN as int64_t (INT32
 * sign-extended, or zero-extended when its logical type is unsigned;
 * BOOLEAN as 0/1; UINT_64 as its raw bits), FLOAT and DOUBLE as double,
 * BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY and INT96 as byte views (INT96 is its
 * raw 12 bytes). */
#ifndef NX_PARQUET_H
#define NX_PARQUET_H

#include <stddef.h>
#include <stdint.h>

/* Limits that hostile files run into; a real file stays far below. */
#define PQ_MAX_PAGE (128u << 20)	/* bytes of one page, either size */
#define PQ_MAX_FOOTER (256u << 20)	/* bytes of the file metadata */
#define PQ_MAX_DEPTH 64			/* nesting of schema and metadata */
#define PQ_MAX_SLOTS (16u << 20)	/* values in one batch of a list column */

enum pq_type {
	PQ_BOOLEAN, PQ_INT32, PQ_INT64, PQ_INT96, PQ_FLOAT, PQ_DOUBLE,
	PQ_BYTE_ARRAY, PQ_FIXED_LEN_BYTE_ARRAY
};

/* What a column's values mean, from its logical or converted type. */
enum pq_logical {
	PQ_L_NONE, PQ_L_STRING, PQ_L_INT, PQ_L_TIMESTAMP, PQ_L_DECIMAL,
	PQ_L_DATE, PQ_L_TIME, PQ_L_JSON, PQ_L_ENUM, PQ_L_UUID, PQ_L_OTHER
};

/* How a batch carries a column's values. */
enum pq_kind { PQ_K_I64, PQ_K_F64, PQ_K_BYTES };

struct pq_column {
	const char *path;	/* dotted, e.g. "flow_id.list.element" */
	const char *name;	/* the top-level field, e.g. "flow_id" */
	enum pq_type type;
	enum pq_kind kind;
	int type_length;	/* bytes of a FIXED_LEN_BYTE_ARRAY value */
	int max_def, max_rep;	/* nonzero: nullable, repeated */
	enum pq_logical logical;
	int bit_width;		/* PQ_L_INT: 8, 16, 32 or 64 */
	int is_signed;		/* PQ_L_INT */
	int unit;		/* PQ_L_TIMESTAMP/TIME: 3 ms, 6 us, 9 ns */
	int scale, precision;	/* PQ_L_DECIMAL; values are left raw */
};

struct pq_bytes {
	const char *ptr;
	size_t len;
};

/* Up to max_rows rows of one column; valid until the next call on the
 * same cursor. Batches of every cursor of a file asked for the same
 * number of rows hold the same rows, so columns can be zipped. */
struct pq_batch {
	size_t rows;
	size_t slots;			/* values, nulls included: rows unless a list */
	const unsigned char *valid;	/* per slot: 1 value, 0 null */
	const int64_t *i64;		/* PQ_K_I64, per slot (0 when null) */
	const double *f64;		/* PQ_K_F64 */
	const struct pq_bytes *bytes;	/* PQ_K_BYTES */
	/* repeated columns: row r holds slots [offsets[r], offsets[r + 1]),
	 * and row_valid[r] is 0 when the whole list is null */
	const size_t *offsets;
	const unsigned char *row_valid;
};

struct pq_file;
struct pq_cursor;

/* Opens path and reads its footer; NULL with the reason in err. */
struct pq_file *pq_open(const char *path, char *err, size_t errlen);
void pq_close(struct pq_file *f);
/* The last failure on f or on one of its cursors. */
const char *pq_error(const struct pq_file *f);

int64_t pq_num_rows(const struct pq_file *f);
int pq_num_row_groups(const struct pq_file *f);
/* The writer named in the footer ("" when it names none). */
const char *pq_created_by(const struct pq_file *f);
int pq_num_columns(const struct pq_file *f);
const struct pq_column *pq_column(const struct pq_file *f, int i);
/* The leaf column with this dotted path, or else the only leaf under
 * the top-level field of that name; -1 when none or ambiguous. */
int pq_find_column(const struct pq_file *f, const char *name);

/* A cursor over every row of leaf column col, row group after row group. */
struct pq_cursor *pq_cursor_open(struct pq_file *f, int col);
/* Fills b with the next rows: 1, or 0 at the end, or -1 on error. */
int pq_cursor_next(struct pq_cursor *c, size_t max_rows, struct pq_batch *b);
void pq_cursor_close(struct pq_cursor *c);

/* What pages a cursor has read so far, for tests and inspection: bit
 * (1 << encoding) of every value encoding, bit (1 << codec) of every
 * codec, and 1 << (page type) of every page (0 data v1, 2 dictionary,
 * 3 data v2). */
struct pq_seen {
	unsigned encodings, codecs, pages;
};
void pq_cursor_seen(const struct pq_cursor *c, struct pq_seen *s);

#endif
