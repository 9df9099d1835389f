/* SQLite plumbing shared by the writer and the read side: running a
 * statement and turning SQLite's errors into one line. */
#ifndef NX_DB_H
#define NX_DB_H

#include <sqlite3.h>
#include <stddef.h>

int db_exec(sqlite3 *db, const char *sql);
/* Sets the error text from the database's last error; returns -1. */
int db_fail(sqlite3 *db, const char *what);
/* Why the database's last error failed to write (a full disk, a quota,
 * a file size limit: the system's words where SQLite kept them), or
 * NULL when it is no such failure. */
const char *db_write_cause(sqlite3 *db);
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

/* Opens the cache at path for reading, flags added to READONLY. In WAL
 * mode in a folder this user cannot write to, it is read as a file
 * nothing changes when its -wal file holds nothing, and refused with
 * what to do when that file holds changes SQLite cannot read there.
 * 0, or -1 with err_get() set and *db NULL. */
int db_open_read(const char *path, int flags, sqlite3 **db);
/* Reads the first n bytes of the regular file at path into buf without
 * dropping the locks this process's connections hold on it (see
 * dbopen.c): the bytes read (fewer than n when the file is
 * shorter), or -1 when it cannot be read or is no regular file. */
long db_head(const char *path, void *buf, size_t n);
/* 1 if path is an SQLite file in WAL mode. */
int db_in_wal(const char *path);
/* 1 if this user may create files in path's folder. */
int db_dir_writable(const char *path);

#endif
