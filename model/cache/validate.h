/* Checking a cache before the model reads it. The model trusts what it
 * reads (a track's name is text, a depth is below 256, a time is in the
 * writer's range), so a cache from elsewhere is checked table by table
 * first: a crafted one is then an error, never a crash or a hang. */
#ifndef NX_VALIDATE_H
#define NX_VALIDATE_H

#include <sqlite3.h>

enum validate_level {
	/* the schema and the small tables (profiles, rows, sources, layers,
	 * info, warnings): milliseconds, done on every open */
	VALIDATE_QUICK,
	/* also every event, sample, summary bucket and string: a pass over
	 * the whole cache, for a cache nxtop did not build for this user */
	VALIDATE_FULL,
};

/* 0 if db holds a cache this nxtop can read safely; else -1 and *why
 * (malloc'd) says what is wrong: "track 12: max_depth out of range". */
int cache_validate(sqlite3 *db, enum validate_level level, char **why);

#endif
