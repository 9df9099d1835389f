/* SQLite plumbing shared by the writer and the read side: running a
 * statement and turning SQLite's errors into one line. */
#ifndef NX_DB_H
#define NX_DB_H

#include <sqlite3.h>
#include <stddef.h>

int db_exec(sqlite3 *db, const char *sql);
/* Sets the error text from the database's last error; returns -1. */
int db_fail(sqlite3 *db, const char *what);
/* The text db_fail() sets (a full disk names the cache). */
void db_describe(sqlite3 *db, const char *what, char *buf, size_t n);
/* The rows-row form of a one-row "INSERT ... VALUES(...)" statement:
 * one run of it costs far less than rows runs of the one-row form.
 * NULL when sql has no such form or SQLite refuses it. */
sqlite3_stmt *db_prepare_rows(sqlite3 *db, const char *sql, int rows);
/* Column i's text as a new string: NULL for an SQL NULL (db_col_dup), or
 * "" (db_col_str). */
char *db_col_dup(sqlite3_stmt *st, int i);
char *db_col_str(sqlite3_stmt *st, int i);

#endif
