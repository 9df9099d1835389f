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
 *   "two words"            quoted values: \" and \\ inside, \xHH a byte
 *
 * Parsing is pure; model/search.c turns a query into SQL. Queries made
 * by the program (Enter on a summary's value) are built term by term,
 * never by pasting a value into text; query_format writes any query as
 * text that parses back to the same terms. */
#ifndef NX_QUERY_H
#define NX_QUERY_H

#include <stddef.h>
#include <stdint.h>

#include "model/util.h"

enum qop { Q_EQ, Q_NE, Q_HAS, Q_HASNOT, Q_GT, Q_GE, Q_LT, Q_LE, Q_RE,
	   Q_NRE };

enum qkind {
	QF_STRING,	/* an interned string column */
	QF_TEXT,	/* a free text column */
	QF_INT,		/* a plain integer column */
	QF_BYTES,	/* an integer column of bytes; values take units */
	QF_TIME,	/* an integer ns column; values take units */
	QF_ID,		/* a 64-bit id, INTEGER or TEXT */
};

/* Fields a term may name: F(id, name, alias or NULL, kind, help), in
 * the order help lists them. Which column each reads: model/search.c for
 * the slice's own, model/cache/columns.h for the typed ones. */
#define QUERY_FIELDS(F) \
	F(WORD, "", NULL, QF_STRING, "free word") \
	F(NAME, "name", NULL, QF_STRING, \
	  "event name (opcode, DMA variable, API call)") \
	F(OPCODE, "opcode", "op", QF_STRING, "instruction opcode") \
	F(ENGINE, "engine", NULL, QF_STRING, \
	  "engine row (TensorMatrix, Tensor, Vector, Scalar, GpSimd, Sync)") \
	F(ROW, "row", "track", QF_STRING, "any row by name") \
	F(LAYER, "layer", NULL, QF_STRING, "instruction layer") \
	F(HLO, "hlo_name", "hlo", QF_STRING, "HLO instruction") \
	F(QUEUE, "queue", NULL, QF_STRING, "DMA queue") \
	F(QUEUE_TYPE, "queue_type", NULL, QF_STRING, \
	  "DMA queue type (data, software_dynamic, ...)") \
	F(VARIABLE, "variable", "var", QF_STRING, "DMA variable") \
	F(OPERANDS, "operands", NULL, QF_TEXT, "instruction operands") \
	F(CATEGORY, "category", "cat", QF_STRING, \
	  "event category (layer, queue type, trace category)") \
	F(DUR, "dur", "duration", QF_TIME, "duration") \
	F(START, "start", "ts", QF_TIME, "start, from the profile start") \
	F(END, "end", NULL, QF_TIME, "end, from the profile start") \
	F(WAIT, "evt_wait_time", "wait", QF_TIME, "instruction wait time") \
	F(TRANSFER_SIZE, "transfer_size", "size", QF_BYTES, "DMA bytes") \
	F(READ_SIZE, "read_size", NULL, QF_BYTES, "DMA bytes read") \
	F(WRITE_SIZE, "write_size", NULL, QF_BYTES, "DMA bytes written") \
	F(ID, "id", NULL, QF_ID, "event id (exact, 64-bit)") \
	F(PC, "pc", NULL, QF_INT, "instruction program counter") \
	F(NC, "nc", "nc_idx", QF_INT, \
	  "NeuronCore (system events; else lnc_idx)") \
	F(LNC, "lnc", "lnc_idx", QF_INT, \
	  "logical NeuronCore (system events; else nc_idx)") \
	F(INSTANCE, "instance", "instance_id", QF_STRING, \
	  "EC2 instance id (system events)") \
	F(PROCESS, "process", "pid", QF_STRING, "process id (system events)") \
	F(THREAD, "thread", "tid", QF_INT, "thread id (system events)") \
	F(MODEL, "model", "model_name", QF_STRING, "model (system events)") \
	F(SOURCE, "source", NULL, QF_STRING, "neuron_rt, neuron_hw or framework") \
	F(ARG, "args.KEY", NULL, QF_TEXT, "any other field of the event")

#define QF_ENUM(id, name, alias, kind, help) F_##id,
enum qfield { QUERY_FIELDS(QF_ENUM) F_COUNT };
#undef QF_ENUM

struct qterm {
	enum qfield field;
	enum qop op;
	char *arg;		/* F_ARG: the key after "args." */
	char *value;		/* text as typed, unquoted */
	int64_t num;		/* numeric value for QF_INT/QF_BYTES/QF_TIME */
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
/* The field of that name or alias (n bytes), as a term would name it. */
int query_field(const char *name, size_t n, enum qfield *f);
/* Why a query that found nothing may not say what its user meant: a
 * free word "and", "or" (any case), "&&" or "||", or one that starts or
 * ends with a parenthesis, as if terms could be joined or grouped
 * ("'or' is a word here: every term must hold"); NULL for none. */
const char *query_hint(const struct query *q);
/* A byte count as a term's value takes it (65536, 64KiB, 1.5MB, -1):
 * 0, or -1 when s is none. */
int query_parse_bytes(const char *s, int64_t *out);
/* Appends a term checked as a typed one is (F_WORD takes Q_HAS or Q_RE;
 * no F_ARG); value is taken as it is, never parsed. 0, or -1 with *err
 * (malloc'd). Start from an empty query; query_free it in any case. */
int query_add(struct query *q, enum qfield field, enum qop op, int negate,
	      const char *value, char **err);
/* Appends copies of the terms of from. */
void query_append(struct query *q, const struct query *from);

/* Appends the query as text that query_parse turns into the same terms. */
void query_format(const struct query *q, struct strbuf *out);
/* NULL if the POSIX extended regex re is cheap enough to compile, else
 * why not: a part repeated more than 255 times, groups nested more than
 * 32 deep, or more than 4096 nodes once repetitions are written out. */
const char *query_regex_check(const char *re);

#endif
