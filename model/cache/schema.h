/* The cache schema: one SQLite file per opened profile or bundle. */
#ifndef NX_SCHEMA_H
#define NX_SCHEMA_H

#include <sqlite3.h>

/* Bump on any change to the tables below; a cache with another
 * version is rebuilt. */
#define SCHEMA_VERSION 16

/* Bump when an importer changes what it writes for the same input; a
 * cache written by another import version is rebuilt. */
#define IMPORT_VERSION 8

/* Columns of string_use.columns: where a free search word may match a
 * string. An instruction's layer is its slice's category, so a layer is
 * found by slice.cat alone unless a string is also the category of
 * another kind of event (SU_CAT), or the row SU_LAYER_APART says some
 * instruction's layer is not its slice's category. */
#define SU_HLO 1	/* instruction.hlo_name */
#define SU_LAYER 2	/* instruction.layer */
#define SU_QUEUE 4	/* dma_packet.queue, dma_transfer.queue */
#define SU_NAME 8	/* slice.name */
#define SU_CAT 16	/* slice.cat of an event that is no instruction */
#define SU_ALL 31
#define SU_LAYER_APART (-1)	/* str of that row; its columns SU_CAT */

/* Kinds of track_stat rows: a row's events of one kind by value, their
 * count and total. */
enum {
	STAT_SLICES,	/* every slice; value 0, total its durations */
	STAT_INSTR,	/* instructions by subgroup, total their durations */
	STAT_PACKET,	/* DMA packets by queue type, total their bytes */
	STAT_XFER,	/* DMA transfers by queue type, total their bytes */
};

/* Level-of-detail bucket width is 4^level ns. */
#define LOD_MAX_LEVEL 31


/* A new cache's tables. Its instruction table has slice_id alone: the
 * writer adds a column when a row first has it, so rows end at their
 * last column the profile has and absent ones cost no byte (SQLite
 * reads a column past a row's end as NULL); schema_complete_columns()
 * adds the others at the end. Its columns may so come in another order
 * than the column table's (model/cache/columns.h). */
int schema_create(sqlite3 *db);
int schema_complete_columns(sqlite3 *db);
/* "ALTER TABLE instruction ADD COLUMN ..." for its col-th column. */
const char *schema_add_column_sql(int col);
/* temp.nx_depths(d) holds 0..255: "s.depth IN (SELECT d FROM
 * temp.nx_depths WHERE d <= N)" lets a track's time range be read with
 * one index seek per depth, the index being (track_id, depth, ts). */
int schema_depths(sqlite3 *db);
#define DEPTHS_UPTO(n) "(SELECT d FROM temp.nx_depths WHERE d <= " n ")"
/* The indexes built after the bulk load, one statement each: cheaper
 * than keeping them up to date. The slice index is the exception (in
 * the tables): slices arrive mostly in time order per track, so keeping
 * it up to date on the writing thread costs less than sorting every
 * slice at the end, and needs no sorter memory. */
#define SCHEMA_INDEXES 8
extern const char *const schema_indexes[SCHEMA_INDEXES];
int schema_create_indexes(sqlite3 *db);

#endif
