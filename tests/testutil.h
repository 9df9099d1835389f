/* Helpers for the cmocka tests: scratch folders and files, and caches
 * built from fixture text. */
#ifndef NX_TESTUTIL_H
#define NX_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

/* A fresh scratch folder under $TMPDIR for this test program. */
const char *tu_dir(void);
/* Writes text to a new file in the scratch folder; returns its path
 * (static storage, overwritten by the next call). */
char *tu_write(const char *name, const char *text, size_t len);
/* Builds a cache for path into the scratch folder; returns the cache
 * path (malloc'd) or NULL with err_get() set. */
char *tu_import(const char *path);
/* Path of a committed fixture: $srcdir/tests/fixtures/name (malloc'd). */
char *tu_fixture(const char *name);
/* The whole file (malloc'd), or NULL. */
char *tu_read_file(const char *path);
/* The man page, man/nxtop.1 of $srcdir (malloc'd); fails the test if
 * it cannot be read. */
char *tu_read_man(void);
struct model;
/* Events of the profile that the search query matches, over all its
 * tracks and all time; fails the test on a bad query. */
int64_t tu_search_count(struct model *m, int64_t profile, const char *q);
/* Runs one integer-valued query against a cache. */
int64_t tu_query_int(const char *cache, const char *sql);
/* Runs one text-valued query; malloc'd result or NULL. */
char *tu_query_text(const char *cache, const char *sql);

#endif
