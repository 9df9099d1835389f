/* The cache schema: one SQLite file per opened profile or bundle. */
#ifndef NX_SCHEMA_H
#define NX_SCHEMA_H

#include <sqlite3.h>

/* Bump on any change to the tables below; a cache with another
 * version is rebuilt. */
#define SCHEMA_VERSION 2

/* Bump when an importer changes what it writes for the same input; a
 * cache written by another import version is rebuilt. */
#define IMPORT_VERSION 1

/* Level-of-detail bucket width is 4^level ns. */
#define LOD_MAX_LEVEL 31

extern const char schema_sql[];
extern const char schema_index_sql[];

int schema_create(sqlite3 *db);
int schema_create_indexes(sqlite3 *db);

#endif
