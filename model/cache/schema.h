/* The cache schema: one SQLite file per opened profile or bundle. */
#ifndef NX_SCHEMA_H
#define NX_SCHEMA_H

#include <sqlite3.h>

/* Bump on any change to the tables below; a cache with another
 * version is rebuilt. */
#define SCHEMA_VERSION 14

/* Bump when an importer changes what it writes for the same input; a
 * cache written by another import version is rebuilt. */
#define IMPORT_VERSION 6

/* Level-of-detail bucket width is 4^level ns. */
#define LOD_MAX_LEVEL 31

extern const char schema_sql[];

int schema_create(sqlite3 *db);
/* temp.nx_depths(d) holds 0..255: "s.depth IN (SELECT d FROM
 * temp.nx_depths WHERE d <= N)" lets a track's time range be read with
 * one index seek per depth, the index being (track_id, depth, ts). */
int schema_depths(sqlite3 *db);
#define DEPTHS_UPTO(n) "(SELECT d FROM temp.nx_depths WHERE d <= " n ")"
int schema_create_indexes(sqlite3 *db);

#endif
