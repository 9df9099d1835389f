/* Neuron device dependencies: the importer notes each link it reads
 * (an instruction's predecessors, a packet's transfer, a Flow table
 * row, a transfer's trigger, a semaphore wait or signal) in a temporary
 * table; once every slice and typed row is written they become flows,
 * exact when an id names the other end, inferred when times or
 * semaphore values match it. Every match is an index seek: a profile's
 * links are found in O(n log n). */
#include "config.h"

#include <sqlite3.h>

#include "model/cache/db.h"
#include "model/util.h"
#include "model/writer/writer_int.h"

int deps_create(sqlite3 *db)
{
	/* the temporary database's own page cache: its default (2 MB)
	 * sends a large profile's pending links to the disk and back */
	return db_exec(db, "PRAGMA temp.cache_size=-16384;"
		       " CREATE TEMP TABLE dep_pending(kind INTEGER,"
		       " profile INTEGER, slice INTEGER, ts INTEGER, ts2 INTEGER,"
		       " key, key2, sem TEXT, op INTEGER, value INTEGER, tab TEXT,"
		       " tab2 TEXT, type TEXT);"
		       /* links of one kind found, matched in another order
		        * than they were read, before they become flows */
		       " CREATE TEMP TABLE dep_found(r INTEGER, o, slice INTEGER,"
		       " type TEXT)");
}

/* The slice of the typed row T (alias x) with id K in profile P: the
 * first by slice id, as the index on id holds them. */
#define SLICE_BY_ID(T, K, P) \
	"(SELECT x.slice_id FROM " T " x CROSS JOIN slice xs ON xs.id =" \
	" x.slice_id CROSS JOIN track xt ON xt.id = xs.track_id WHERE x.id = " K \
	" AND xt.profile_id = " P " LIMIT 1)"
/* The same when every track and pending row is of one profile: no
 * slice and track to read to check it. */
#define SLICE_BY_ID_ONE(T, K, P) \
	"(SELECT x.slice_id FROM " T " x WHERE x.id = " K " LIMIT 1)"

/* A Flow table row's end: the table it names, else an instruction. */
#define ROW_END(BY_ID, TAB, K) \
	"CASE lower(coalesce(" TAB ", '')) WHEN 'dmapacket' THEN " \
	BY_ID("dma_packet", K, "p.profile") \
	" WHEN 'dmapacketaggregated' THEN " \
	BY_ID("dma_transfer", K, "p.profile") \
	" ELSE " BY_ID("instruction", K, "p.profile") " END"

/* The link's name: the profile's own ("FLOW_DEPENDENCE" -> "flow
 * dependence"), else a default. */
#define LINK_NAME(D) "coalesce(lower(replace(p.type, '_', ' ')), '" D "')"

/* The flows of the links in temp.dep_found (p), in the order they were
 * read (r), of kind KIND and exactness EXACT; WHERE keeps some. */
#define FOUND_FLOWS(KIND, EXACT, WHERE) \
	" INSERT INTO flow(slice_out, slice_in, kind, exact) SELECT p.o," \
	" p.slice, " KIND ", " EXACT " FROM temp.dep_found p" WHERE \
	" ORDER BY p.r; DELETE FROM temp.dep_found"

/* The statements that find the other end by its id, finding the slice
 * by BY_ID; each turns the pending rows of one kind into flows (out,
 * in, kind, exact), in the order they were read. */
#define ID_LINKS(BY_ID) { \
	/* predecessors: kept with one end when the id names nothing; found
	 * in the order of the ids (the index dep_key), so that the seeks
	 * walk the id index front to back instead of jumping across it,
	 * which on a large profile sends nearly every seek to the disk
	 * (10M instructions: 20.6 s in read order, 12.8 s with the index
	 * built). Transfers are few enough for their index to stay in the
	 * cache: their packets are matched in read order. */ \
	"INSERT INTO temp.dep_found SELECT p.rowid, " \
	BY_ID("instruction", "p.key", "p.profile") ", p.slice, p.type FROM" \
	" temp.dep_pending p INDEXED BY dep_key WHERE p.kind = %d;" \
	FOUND_FLOWS(LINK_NAME("dependency"), "1", ""), \
	/* Flow table rows: the same, unless neither end is found */ \
	"INSERT INTO flow(flow_id, slice_out, slice_in, kind, exact)" \
	" SELECT NULL, o, i, k, 1 FROM (SELECT p.rowid AS r, " \
	ROW_END(BY_ID, "p.tab", "p.key") " AS o, " \
	ROW_END(BY_ID, "p.tab2", "p.key2") " AS i, " LINK_NAME("dependency") \
	" AS k FROM temp.dep_pending p WHERE p.kind = %d) WHERE o IS NOT NULL" \
	" OR i IS NOT NULL ORDER BY r", \
	/* packets of transfers the profile does not list stay unlinked */ \
	"INSERT INTO flow(slice_out, slice_in, kind, exact) SELECT o, s," \
	" 'dma packet', 1 FROM (SELECT p.rowid AS r, p.slice AS s, " \
	BY_ID("dma_transfer", "p.key", "p.profile") " AS o FROM" \
	" temp.dep_pending p WHERE p.kind = %d) WHERE o IS NOT NULL" \
	" ORDER BY r", \
}

/* [0] for a cache of several profiles, [1] for one */
static const char *const id_sql[2][3] = {
	ID_LINKS(SLICE_BY_ID), ID_LINKS(SLICE_BY_ID_ONE),
};

/* The statements that match by times and semaphore values. */
static const char *const link_sql[] = {
	/* triggers: an engine's instruction starting at the trigger time
	 * (x is p again: an ORDER BY here cannot name p; the joins in
	 * this order, whatever the planner guesses without statistics);
	 * among several, the one naming the transfer's start, then the one
	 * ending at its completion. Matched in time order, so that the
	 * seeks walk each engine's instructions front to back, and written
	 * in read order. */
	"INSERT INTO temp.dep_found(r, o, slice) SELECT p.rowid,"
	" (SELECT i.id FROM temp.dep_pending x CROSS JOIN track t CROSS JOIN"
	" slice i ON i.track_id = t.id AND i.depth = 0 AND i.ts = x.ts WHERE"
	" x.rowid = p.rowid AND t.profile_id = x.profile AND t.kind = 'engine'"
	" ORDER BY"
	" EXISTS(SELECT 1 FROM temp.dep_pending q WHERE q.kind = %d AND"
	" q.slice = i.id AND q.ts = x.value) DESC, i.ts + i.dur = x.ts2 DESC,"
	" i.id LIMIT 1), p.slice FROM temp.dep_pending p INDEXED BY"
	" dep_trigger WHERE p.kind = %d;"
	FOUND_FLOWS("'dma trigger'", "0", " WHERE p.o IS NOT NULL"),
	/* semaphore waits: the last signal of the semaphore before the
	 * update that left it at the awaited value when the wait ended
	 * (before the wait's end when no such update is listed). The
	 * waits are matched by semaphore and time, so that the seeks walk
	 * the updates and signals front to back, and written in read
	 * order. */
	"INSERT INTO temp.dep_found(r, o, slice) SELECT p.rowid,"
	" (SELECT g.slice FROM temp.dep_pending g WHERE g.kind = %d AND"
	" g.profile = p.profile AND g.sem = p.sem AND g.slice <> p.slice AND"
	" g.ts <= coalesce((SELECT CASE WHEN u.value = p.value OR (p.op = 62"
	" AND u.value > p.value) THEN u.ts END FROM semaphore_update u WHERE"
	" u.profile_id = p.profile AND u.sem_id = p.sem AND u.ts <= p.ts"
	" ORDER BY u.ts DESC LIMIT 1), p.ts) ORDER BY g.ts DESC LIMIT 1),"
	" p.slice FROM temp.dep_pending p INDEXED BY dep_wait WHERE"
	" p.kind = %d;"
	FOUND_FLOWS("'semaphore'", "0", " WHERE p.o IS NOT NULL"),
};

/* The page cache (KB) the matching seeks in: as large as the temporary
 * database's, which the pending links fill. */
#define DEPS_CACHE_KB 16384

/* Indexes the matching seeks by, each made only when some pending row
 * needs it, and dropped once the flows are written (the finished cache
 * does not need them). */
static const struct {
	unsigned need;		/* the kinds of pending links that read it */
	const char *also;	/* when set, made only if some link of the
				 * first of them (its %d) is as this says */
	int holds;		/* the kind a partial index holds (its %d) */
	const char *sql;
} indexes[] = {
	{ WD_KIND(WD_PRED) | WD_KIND(WD_ROW), NULL, 0,
	  "CREATE INDEX dep_instruction ON instruction(id)" },
	{ WD_KIND(WD_PACKET) | WD_KIND(WD_ROW), NULL, 0,
	  "CREATE INDEX dep_transfer ON dma_transfer(id)" },
	{ WD_KIND(WD_ROW),
	  "kind = %d AND 'dmapacket' IN (lower(tab), lower(tab2))", 0,
	  "CREATE INDEX dep_packet ON dma_packet(id)" },
	{ WD_KIND(WD_WAIT), NULL, 0, "CREATE INDEX dep_semaphore ON"
	  " semaphore_update(profile_id, sem_id, ts)" },
	{ WD_KIND(WD_WAIT), NULL, WD_SIGNAL, "CREATE INDEX temp.dep_signal ON"
	  " dep_pending(profile, sem, ts) WHERE kind = %d" },
	{ WD_KIND(WD_TRIGGER), NULL, WD_TRIGGERED,
	  "CREATE INDEX temp.dep_by_slice ON dep_pending(slice, ts)"
	  " WHERE kind = %d" },
	{ WD_KIND(WD_PRED), NULL, WD_PRED, "CREATE INDEX temp.dep_key ON"
	  " dep_pending(key, profile, slice, type) WHERE kind = %d" },
	{ WD_KIND(WD_WAIT), NULL, WD_WAIT, "CREATE INDEX temp.dep_wait ON"
	  " dep_pending(profile, sem, ts, value, op, slice) WHERE kind = %d" },
	{ WD_KIND(WD_TRIGGER), NULL, WD_TRIGGER,
	  "CREATE INDEX temp.dep_trigger ON dep_pending(profile, ts, slice)"
	  " WHERE kind = %d" },
};

static const char drop_sql[] =
	"DROP INDEX IF EXISTS dep_instruction; DROP INDEX IF EXISTS dep_transfer;"
	" DROP INDEX IF EXISTS dep_packet; DROP INDEX IF EXISTS dep_semaphore;"
	" DROP TABLE temp.dep_pending; DROP TABLE temp.dep_found;";

/* Runs the statement fmt with kinds a and b. */
static int exec_fmt(sqlite3 *db, const char *fmt, int a, int b)
{
	char *sql = sqlite3_mprintf(fmt, a, b);
	int rc = sql ? db_exec(db, sql) : -1;

	sqlite3_free(sql);
	return rc;
}

/* The integer the query sql answers into *v; -1 on error. */
static int int_of(sqlite3 *db, const char *sql, int *v)
{
	sqlite3_stmt *st;
	int rc = -1;

	if (sql && sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW) {
			*v = sqlite3_column_int(st, 0);
			rc = 0;
		}
		sqlite3_finalize(st);
	}
	return rc;
}

/* 1 when some pending row is as "when" says (with kinds a and b), 0
 * when none, -1 on error. */
static int any_pending(sqlite3 *db, const char *when, int a, int b)
{
	char *cond = sqlite3_mprintf(when, a, b);
	char *sql = cond ? sqlite3_mprintf("SELECT EXISTS(SELECT 1 FROM"
					   " temp.dep_pending WHERE %s)", cond) :
			   NULL;
	int any = -1;

	if (int_of(db, sql, &any))
		any = -1;
	sqlite3_free(sql);
	sqlite3_free(cond);
	return any;
}

/* The indexes the pending links of kinds (a WD_KIND() mask) read. */
static int make_indexes(sqlite3 *db, unsigned kinds)
{
	for (size_t i = 0; i < NX_ARRAY_SIZE(indexes); i++) {
		unsigned need = indexes[i].need & kinds;
		int any = need != 0;

		if (any && indexes[i].also)
			any = any_pending(db, indexes[i].also,
					  __builtin_ctz(need), 0);
		if (any < 0)
			return db_fail(db, "dependencies");
		if (any && exec_fmt(db, indexes[i].sql, indexes[i].holds, 0))
			return -1;
	}
	return 0;
}

/* Whether every track and pending link is of one profile: then an id
 * names a row of that profile without reading its slice and track. */
static const char one_profile_sql[] =
	"SELECT (SELECT count(DISTINCT profile_id) FROM track) = 1 AND NOT"
	" EXISTS(SELECT 1 FROM temp.dep_pending WHERE profile IS NOT"
	" (SELECT min(profile_id) FROM track))";

/* The flows of the pending links of kinds: a kind with no links runs no
 * statement (and has no index to be read by). */
static int link_all(sqlite3 *db, unsigned kinds)
{
	const int id_kinds[] = { WD_PRED, WD_ROW, WD_PACKET };
	/* each link_sql's kinds: the one matched against, the links */
	const int by_time[][2] = {
		{ WD_TRIGGERED, WD_TRIGGER }, { WD_SIGNAL, WD_WAIT },
	};
	int one;

	if (int_of(db, one_profile_sql, &one))
		return db_fail(db, "dependencies");
	for (size_t i = 0; i < NX_ARRAY_SIZE(id_kinds); i++)
		if ((kinds & WD_KIND(id_kinds[i])) &&
		    exec_fmt(db, id_sql[!!one][i], id_kinds[i], 0))
			return -1;
	for (size_t i = 0; i < NX_ARRAY_SIZE(link_sql); i++)
		if ((kinds & WD_KIND(by_time[i][1])) &&
		    exec_fmt(db, link_sql[i], by_time[i][0], by_time[i][1]))
			return -1;
	return 0;
}

int deps_resolve(sqlite3 *db, unsigned kinds)
{
	int cache;

	/* the seeks by id jump across the typed tables, slices and tracks:
	 * the finishing pass's small cache sends a third of them to the
	 * disk; the sorts after this want the small one back */
	if (int_of(db, "PRAGMA main.cache_size", &cache))
		return db_fail(db, "dependencies");
	if (exec_fmt(db, "PRAGMA main.cache_size=%d", -DEPS_CACHE_KB, 0) ||
	    make_indexes(db, kinds) || link_all(db, kinds))
		return -1;
	return exec_fmt(db, "PRAGMA main.cache_size=%d", cache, 0) ||
	       db_exec(db, drop_sql);
}
