/* Tables for text exports: aligned columns for people, CSV and JSON for
 * programs, from the same rows. Cell text is sanitised on output. */
#ifndef NX_TABLE_H
#define NX_TABLE_H

#include <stdint.h>
#include <stdio.h>

#include "model/report/jout.h"
#include "model/util.h"

struct table;

struct table *table_new(void);
void table_free(struct table *t);
/* Adds a column; right-aligned columns hold numbers. */
void table_col(struct table *t, const char *name, int right);
/* Starts a new row; cells fill it left to right. */
void table_row(struct table *t);
void table_text(struct table *t, const char *s);
void table_printf(struct table *t, const char *fmt, ...) NX_PRINTF(2, 3);
/* A number: shown as text, written to JSON as a number. */
void table_int(struct table *t, int64_t v);
void table_num(struct table *t, double json_value, const char *text);
/* A value that is not there: empty in text and CSV, null in JSON. */
void table_null(struct table *t);

size_t table_rows(const struct table *t);

/* Text for people: aligned columns, no cell wider than TABLE_TEXT_COLS
 * (a longer one loses its middle to an ellipsis, so that one long name
 * does not widen every line); CSV and JSON keep every cell whole. */
#define TABLE_TEXT_COLS 100
void table_write_text(const struct table *t, FILE *f, int indent);
/* Appends s, sanitised already, to line as such a column shows a cell:
 * cut to w columns by losing its middle to an ellipsis, padded with
 * blanks to w (before it when right). */
void table_text_cell(struct strbuf *line, const char *s, int w, int right);
void table_write_csv(const struct table *t, FILE *f);
/* One CSV field, quoted when needed and kept from reading as a formula. */
void table_csv_field(FILE *f, const char *s, int is_num);
/* An array of objects keyed by column name. */
void table_write_json(const struct table *t, struct jout *j);
/* Row r's members ("column": value), inside an object the caller opens
 * and may add to. */
void table_json_fields(const struct table *t, size_t r, struct jout *j);

#endif
