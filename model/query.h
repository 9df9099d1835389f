/* The search query language: whitespace-separated terms, all of which
 * must hold.
 *
 *   matmul                 a free word: event name, opcode, hlo_name,
 *                          layer, DMA variable or queue contains it
 *   opcode=MATMUL          field equals value (case-insensitive)
 *   layer~attention        field contains value (case-insensitive)
 *   hlo_name=/dot\.[0-9]+/ field matches a POSIX extended regex
 *   dur>2us  transfer_size>=65536   numeric comparisons (>, >=, <, <=,
 *                          =, !=); times take ns/us/ms/s units
 *   -term                  exactly the events term does not match
 *   field!=value field!~value  a text field that differs or is missing
 *   "two words"            quoted values
 *
 * Parsing is pure; model/search.c turns a query into SQL. */
#ifndef NX_QUERY_H
#define NX_QUERY_H

#include <stddef.h>
#include <stdint.h>

enum qop { Q_EQ, Q_NE, Q_HAS, Q_HASNOT, Q_GT, Q_GE, Q_LT, Q_LE, Q_RE,
	   Q_NRE };

enum qkind {
	QF_STRING,	/* an interned string column */
	QF_TEXT,	/* a free text column */
	QF_INT,		/* a plain integer column */
	QF_TIME,	/* an integer ns column; values take units */
	QF_ID,		/* a 64-bit id, INTEGER or TEXT */
};

/* Fields a term may name. */
enum qfield {
	F_WORD,		/* free word: no field */
	F_NAME, F_OPCODE, F_ENGINE, F_ROW, F_LAYER, F_HLO, F_QUEUE,
	F_QUEUE_TYPE, F_VARIABLE, F_OPERANDS, F_CATEGORY, F_DUR, F_START,
	F_END, F_WAIT, F_TRANSFER_SIZE, F_READ_SIZE, F_WRITE_SIZE, F_ID,
	F_PC, F_NC, F_LNC, F_INSTANCE, F_PROCESS, F_THREAD, F_MODEL,
	F_SOURCE, F_ARG, F_COUNT
};

struct qterm {
	enum qfield field;
	enum qop op;
	char *arg;		/* F_ARG: the key after "args." */
	char *value;		/* text as typed, unquoted */
	int64_t num;		/* numeric value for QF_INT/QF_TIME */
	int negate;		/* a leading '-' */
};

struct query {
	struct qterm *terms;
	size_t n;
};

struct qfield_info {
	const char *name;
	const char *alias;	/* another accepted name, or NULL */
	enum qkind kind;
	const char *help;
};

extern const struct qfield_info query_fields[F_COUNT];

/* Parses text. 0 on success; on error *err is set to a malloc'd message
 * naming the column ("column 7: unknown field 'opcdoe'") . */
int query_parse(const char *text, struct query *q, char **err);
void query_free(struct query *q);
/* NULL if the POSIX extended regex re is cheap enough to compile, else
 * why not: a part repeated more than 255 times, groups nested more than
 * 32 deep, or more than 4096 nodes once repetitions are written out. */
const char *query_regex_check(const char *re);
/* 1 if every term only restricts names and rows (searchable from the
 * per-name summaries). */
int query_names_only(const struct query *q);

#endif
