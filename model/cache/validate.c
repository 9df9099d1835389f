#include "config.h"

#include "model/cache/validate.h"

#include <inttypes.h>
#include <sqlite3.h>
#include <string.h>

#include "model/agg.h"
#include "model/cache/schema.h"
#include "model/util.h"
#include "model/writer/writer.h"

/* the agg check below names the last field, AGG_DUR */
_Static_assert(AGG_NFIELDS == 5, "agg fields: the full check's range");
_Static_assert(SU_ALL == 31 && SU_LAYER_APART == -1,
	       "string_use: the full check's range");

/* Tables checked on every open; the others only by VALIDATE_FULL. The
 * event and counter tables are checked by the rules below, in one pass
 * over their indexes, rather than column by column. */
static const char *const quick_tables[] = {
	"meta", "source", "profile", "track", "layer", "info", "warning",
};
static const char *const full_tables[] = {
	"string", "string_use", "arg", "lod", "counter_lod", "agg", "active_time",
	"instruction", "dma_packet", "dma_transfer", "sys_event",
	"semaphore_update", "flow", "flow_mark",
};

/* A rule selects a text naming the first row that breaks it. Times are
 * bound as :tmin and :tmax (the writer's range), durations as :span. */
struct rule {
	enum validate_level level;
	const char *what;
	const char *sql;
};

#define TRACK_KINDS "('group', 'engine', 'dma', 'dma_xfer', 'counter'," \
	" 'nrt', 'hw', 'framework', 'thread', 'async', 'instant')"
#define BUCKET_OK(b) b " BETWEEN (:tmin >> (2 * level)) - 1 AND" \
	" (:tmax >> (2 * level)) + 1"

static const struct rule rules[] = {
	{ VALIDATE_QUICK, "a value of the wrong type",
	  "SELECT 'meta ' || key FROM meta WHERE key IN ('input', 'filter',"
	  " 'nxtop_version') AND typeof(value) != 'text'" },
	{ VALIDATE_QUICK, "role is not profile, system, device, table or folder",
	  "SELECT 'source ' || id FROM source WHERE role NOT IN ('profile',"
	  " 'system', 'device', 'table', 'folder') OR size < -1" },
	{ VALIDATE_QUICK, "no profile, or more than 65537",
	  "SELECT 'profile table' WHERE (SELECT count(*) FROM profile)"
	  " NOT BETWEEN 1 AND 65537" },
	{ VALIDATE_QUICK, "kind, state or epoch unknown",
	  "SELECT 'profile ' || id FROM profile WHERE id < 1 OR kind NOT IN"
	  " ('device', 'system', 'trace') OR state NOT IN ('ready', 'queued',"
	  " 'missing', 'failed') OR epoch NOT IN (0, 1)" },
	{ VALIDATE_QUICK, "start or end out of range",
	  "SELECT 'profile ' || id FROM profile WHERE (start_ns IS NULL) !="
	  " (end_ns IS NULL) OR start_ns NOT BETWEEN :tmin AND :tmax OR end_ns"
	  " NOT BETWEEN :tmin AND :tmax OR end_ns < start_ns" },
	{ VALIDATE_QUICK, "parent is not a system profile",
	  "SELECT 'profile ' || id FROM profile WHERE parent_id IS NOT NULL"
	  " AND parent_id NOT IN (SELECT id FROM profile WHERE kind = 'system'"
	  " AND parent_id IS NULL)" },
	{ VALIDATE_QUICK, "n_events is not the sum of its rows' events",
	  "SELECT 'profile ' || id FROM profile WHERE n_events != (SELECT"
	  " coalesce(sum(n_events), 0) FROM track WHERE profile_id ="
	  " profile.id)" },
	{ VALIDATE_QUICK, "more than 65536 rows",
	  "SELECT 'profile ' || profile_id FROM track GROUP BY profile_id"
	  " HAVING count(*) > 65536" },
	{ VALIDATE_QUICK, "profile or kind unknown",
	  "SELECT 'track ' || id FROM track WHERE kind NOT IN " TRACK_KINDS
	  " OR profile_id NOT IN (SELECT id FROM profile)" },
	/* groups nest one level at most (a JAX run's hosts hold processes) */
	{ VALIDATE_QUICK, "parent is not a group of its profile",
	  "SELECT 'track ' || id FROM track WHERE parent_id IS NOT NULL AND"
	  " NOT EXISTS (SELECT 1 FROM track g WHERE g.id = track.parent_id"
	  " AND g.kind = 'group' AND g.profile_id = track.profile_id AND"
	  " (g.parent_id IS NULL OR EXISTS (SELECT 1 FROM track h WHERE"
	  " h.id = g.parent_id AND h.kind = 'group' AND h.parent_id IS NULL"
	  " AND h.profile_id = g.profile_id)))" },
	{ VALIDATE_QUICK, "max_depth out of range (0 to 255)",
	  "SELECT 'track ' || id FROM track WHERE max_depth NOT BETWEEN 0"
	  " AND 255" },
	{ VALIDATE_QUICK, "n_events, max_dur or busy_ns out of range",
	  "SELECT 'track ' || id FROM track WHERE n_events < 0 OR (kind ="
	  " 'group' AND n_events != 0) OR max_dur NOT BETWEEN 0 AND :span OR"
	  " busy_ns NOT BETWEEN 0 AND :span" },
	{ VALIDATE_QUICK, "min_ts or max_ts out of range",
	  "SELECT 'track ' || id FROM track WHERE (min_ts IS NULL) != (max_ts"
	  " IS NULL) OR (min_ts IS NULL AND n_events != 0) OR min_ts NOT"
	  " BETWEEN :tmin AND :tmax OR max_ts NOT BETWEEN :tmin AND :tmax OR"
	  " max_ts < min_ts" },
	{ VALIDATE_QUICK, "lod_level, agg_level or agg_fields out of range",
	  "SELECT 'track ' || id FROM track WHERE lod_level NOT BETWEEN 0 AND"
	  " 31 OR agg_level NOT BETWEEN 0 AND 31 OR agg_fields NOT BETWEEN 0"
	  " AND 31" },
	{ VALIDATE_FULL, "string_use: columns out of range (1 to 31)",
	  "SELECT 'string ' || str FROM string_use WHERE typeof(str) !="
	  " 'integer' OR typeof(columns) != 'integer' OR columns NOT BETWEEN"
	  " 1 AND 31 OR str < -1" },
	{ VALIDATE_FULL, "its events disagree with it (count, types, depth,"
	  " duration or times)",
	  "SELECT 'track ' || s.track_id FROM (SELECT track_id, count(*) n,"
	  " sum(typeof(ts) = 'integer' AND typeof(dur) = 'integer' AND"
	  " typeof(depth) = 'integer' AND typeof(name) = 'integer' AND"
	  " typeof(cat) IN ('integer', 'null')) typed, min(depth) dlo,"
	  " max(depth) dhi, min(dur) dmin, max(dur) dmax, min(ts) lo,"
	  " max(ts + dur) hi FROM slice GROUP BY track_id) s LEFT JOIN track t"
	  " ON t.id = s.track_id WHERE t.id IS NULL OR t.kind IN ('counter',"
	  " 'group') OR s.typed != s.n OR s.n != t.n_events OR s.dlo < 0 OR"
	  " s.dhi != t.max_depth OR s.dmin < 0 OR s.dmax != t.max_dur OR s.lo"
	  " != t.min_ts OR s.hi != t.max_ts OR s.lo < :tmin OR s.hi > :tmax" },
	{ VALIDATE_FULL, "n_events counts events it does not have",
	  "SELECT 'track ' || id FROM track WHERE kind NOT IN ('counter',"
	  " 'group') AND n_events != 0 AND NOT EXISTS (SELECT 1 FROM slice"
	  " WHERE track_id = track.id)" },
	{ VALIDATE_FULL, "its samples disagree with it (count, types or times)",
	  "SELECT 'track ' || c.track_id FROM (SELECT track_id, count(*) n,"
	  " sum(typeof(ts) = 'integer' AND typeof(value) IN ('real',"
	  " 'integer')) typed, min(ts) lo, max(ts) hi FROM counter GROUP BY"
	  " track_id) c LEFT JOIN track t ON t.id = c.track_id WHERE t.id IS"
	  " NULL OR t.kind != 'counter' OR c.typed != c.n OR c.n !="
	  " t.n_events OR c.lo != t.min_ts OR c.hi != t.max_ts" },
	{ VALIDATE_FULL, "n_events counts samples it does not have",
	  "SELECT 'track ' || id FROM track WHERE kind = 'counter' AND"
	  " n_events != 0 AND NOT EXISTS (SELECT 1 FROM counter WHERE"
	  " track_id = track.id)" },
	{ VALIDATE_FULL, "level, bucket, count or busy time out of range",
	  "SELECT 'lod of track ' || track_id FROM lod WHERE level NOT BETWEEN"
	  " 0 AND 31 OR NOT " BUCKET_OK("bucket") " OR n < 0 OR busy NOT"
	  " BETWEEN 0 AND (1 << (2 * level)) OR track_id NOT IN (SELECT id"
	  " FROM track)" },
	{ VALIDATE_FULL, "depth, level, bucket, count or busy time out of range",
	  "SELECT 'lane_lod of track ' || l.track_id FROM lane_lod l LEFT JOIN"
	  " track t ON t.id = l.track_id WHERE t.id IS NULL OR l.depth NOT"
	  " BETWEEN 0 AND t.max_depth OR l.level NOT BETWEEN 0 AND 31 OR NOT "
	  BUCKET_OK("l.bucket") " OR l.n < 0 OR l.busy NOT BETWEEN 0 AND"
	  " (1 << (2 * l.level))" },
	{ VALIDATE_FULL, "level, bucket, count or values out of range",
	  "SELECT 'counter_lod of track ' || track_id FROM counter_lod WHERE"
	  " level NOT BETWEEN 0 AND 31 OR NOT " BUCKET_OK("bucket") " OR n < 0"
	  " OR vmin > vmax OR track_id NOT IN (SELECT id FROM track)" },
	{ VALIDATE_FULL, "field, level, bucket, count or durations out of range",
	  "SELECT 'agg of track ' || track_id FROM agg WHERE field NOT BETWEEN"
	  " 0 AND 4 OR level NOT BETWEEN 0 AND 31 OR NOT " BUCKET_OK("bucket")
	  " OR n < 0 OR dur NOT BETWEEN 0 AND :span OR dmin < 0 OR dmax <"
	  " dmin OR dmax > :span OR track_id NOT IN (SELECT id FROM track)" },
};

static int fail(char **why, const char *fmt, ...) NX_PRINTF(2, 3);

static int fail(char **why, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	*why = xvasprintf(fmt, ap);
	va_end(ap);
	return -1;
}

/* type, name, table and SQL of every schema object, in one string. The
 * instruction table's columns are listed by name, as the writer adds
 * them in the order a profile first has them (schema.h). */
static int schema_text(sqlite3 *db, struct strbuf *out)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT type, name, tbl_name, CASE WHEN"
			       " type = 'table' AND name = 'instruction' THEN"
			       " (SELECT group_concat(c, ', ') FROM (SELECT"
			       " name || ' ' || type || ' ' || pk AS c FROM"
			       " pragma_table_info('instruction') ORDER BY name))"
			       " ELSE sql END FROM sqlite_schema ORDER BY type,"
			       " name", -1, &st, NULL) != SQLITE_OK)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (int i = 0; i < 4; i++) {
			const unsigned char *s = sqlite3_column_text(st, i);

			sb_adds(out, s ? (const char *)s : "");
			sb_addc(out, '\037');
		}
		sb_addc(out, '\n');
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Its tables, indexes and their definitions are this nxtop's, to the
 * byte: no view, trigger, column or type of someone else's making. */
static int check_schema(sqlite3 *db, char **why)
{
	sqlite3 *ref = NULL;
	struct strbuf want, have;
	int rc = -1;

	sb_init(&want);
	sb_init(&have);
	if (sqlite3_open(":memory:", &ref) == SQLITE_OK && !schema_create(ref) &&
	    !schema_complete_columns(ref) && !schema_create_indexes(ref) &&
	    sqlite3_exec(ref, "ANALYZE", NULL, NULL, NULL) == SQLITE_OK &&
	    !schema_text(ref, &want)) {
		if (schema_text(db, &have))
			rc = fail(why, "unreadable: %s", sqlite3_errmsg(db));
		else if (strcmp(sb_cstr(&want), sb_cstr(&have)))
			rc = fail(why, "its tables are not this nxtop's");
		else
			rc = 0;
	} else {
		rc = fail(why, "cannot be checked: %s", sqlite3_errmsg(ref));
	}
	sqlite3_close(ref);
	sb_free(&want);
	sb_free(&have);
	return rc;
}

/* SQL that finds a row of table whose column does not hold its declared
 * type (INTEGER, REAL, TEXT, or any but a blob), or holds NULL where
 * the schema says NOT NULL; it selects "table.column". */
static int type_sql(sqlite3 *db, const char *table, struct strbuf *sql)
{
	struct strbuf bad;
	sqlite3_stmt *st;
	int n = 0;

	if (sqlite3_prepare_v2(db, "SELECT name, type, \"notnull\" OR pk > 0"
			       " FROM pragma_table_info(?)", -1, &st,
			       NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	sb_init(&bad);
	sb_adds(sql, "SELECT CASE");
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *col = (const char *)sqlite3_column_text(st, 0);
		const char *type = (const char *)sqlite3_column_text(st, 1);
		const char *ok = !strcmp(type, "INTEGER") ? "'integer'" :
				 !strcmp(type, "REAL") ? "'real', 'integer'" :
				 !strcmp(type, "TEXT") ? "'text'" :
				 "'integer', 'real', 'text'";

		sb_printf(sql, " WHEN typeof(\"%s\") NOT IN (%s%s) THEN '%s.%s'",
			  col, ok, sqlite3_column_int(st, 2) ? "" : ", 'null'",
			  table, col);
		sb_printf(&bad, "%stypeof(\"%s\") NOT IN (%s%s)", n++ ? " OR " : "",
			  col, ok, sqlite3_column_int(st, 2) ? "" : ", 'null'");
	}
	sqlite3_finalize(st);
	sb_printf(sql, " END FROM \"%s\" WHERE %s LIMIT 1", table, sb_cstr(&bad));
	sb_free(&bad);
	return n ? 0 : -1;
}

/* Runs a check; a row it selects names what is wrong. */
static int run_check(sqlite3 *db, const char *sql, const char *what,
		     char **why)
{
	sqlite3_stmt *st;
	int rc, i;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return fail(why, "unreadable: %s", sqlite3_errmsg(db));
	if ((i = sqlite3_bind_parameter_index(st, ":tmin")))
		sqlite3_bind_int64(st, i, WRITER_TIME_MIN);
	if ((i = sqlite3_bind_parameter_index(st, ":tmax")))
		sqlite3_bind_int64(st, i, WRITER_TIME_MAX);
	if ((i = sqlite3_bind_parameter_index(st, ":span")))
		sqlite3_bind_int64(st, i, WRITER_TIME_MAX - WRITER_TIME_MIN);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const unsigned char *s = sqlite3_column_text(st, 0);

		fail(why, "%s: %s", s ? (const char *)s : "?", what);
	} else if (rc != SQLITE_DONE) {
		fail(why, "unreadable: %s", sqlite3_errmsg(db));
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int check_types(sqlite3 *db, const char *const *tables, size_t n,
		       char **why)
{
	for (size_t i = 0; i < n; i++) {
		struct strbuf sql;
		int rc;

		sb_init(&sql);
		if (type_sql(db, tables[i], &sql)) {
			sb_free(&sql);
			return fail(why, "unreadable: %s", sqlite3_errmsg(db));
		}
		rc = run_check(db, sb_cstr(&sql), "NULL or a value of the wrong"
			       " type", why);
		sb_free(&sql);
		if (rc)
			return -1;
	}
	return 0;
}

int cache_validate(sqlite3 *db, enum validate_level level, char **why)
{
	*why = NULL;
	if (check_schema(db, why) ||
	    check_types(db, quick_tables, NX_ARRAY_SIZE(quick_tables), why))
		return -1;
	if (level == VALIDATE_FULL &&
	    check_types(db, full_tables, NX_ARRAY_SIZE(full_tables), why))
		return -1;
	for (size_t i = 0; i < NX_ARRAY_SIZE(rules); i++) {
		if (rules[i].level > level)
			continue;
		if (run_check(db, rules[i].sql, rules[i].what, why))
			return -1;
	}
	return 0;
}
