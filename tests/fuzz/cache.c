/* Fuzzes the check of a cache nxtop did not build (model/cache/validate.h)
 * and everything that reads a cache that passes it. The first byte
 * chooses: 0, the rest of the input is the cache file itself; else a
 * cache of a fixture (device, system or trace profile) changed by the
 * edits the rest of the input encodes, NOT NULL columns included. A
 * cache the check accepts is read back like the viewer and the exports
 * read it: a crash, a hang or raw output there is a finding. */
#include "config.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/fuzz/fuzz.h"
#include "model/cache/cache.h"
#include "model/util.h"

static const char *const fixtures[] = {
	"device_small.json", "system_small.json", "chrome_phases.json",
};

/* Tables an edit may change. */
static const char *const tables[] = {
	"meta", "source", "profile", "string", "track", "slice", "arg",
	"counter", "lod", "counter_lod", "agg", "instruction", "dma_packet",
	"dma_transfer", "sys_event", "layer", "active_time",
	"semaphore_update", "info", "warning", "flow",
};

struct input {
	const uint8_t *p;
	size_t n;
};

static unsigned next_byte(struct input *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static int64_t next_i64(struct input *in)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | next_byte(in);
	return (int64_t)v;
}

static char *copy_file(const char *from, const char *name)
{
	struct strbuf sb;
	char buf[65536];
	size_t n;
	FILE *f = fopen(from, "rb");
	char *to;

	if (!f)
		abort();
	sb_init(&sb);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sb_add(&sb, buf, n);
	fclose(f);
	to = fuzz_write(name, (const uint8_t *)sb.buf, sb.len);
	sb_free(&sb);
	return to;
}

static void exec(sqlite3 *db, const char *sql)
{
	sqlite3_exec(db, sql, NULL, NULL, NULL);
}

/* Binds a value of the kind the input chooses: NULL, an integer (small
 * or any), a real, text or a blob. */
static void bind_value(sqlite3_stmt *st, int i, struct input *in)
{
	unsigned kind = next_byte(in) % 6, len;
	char text[64];

	switch (kind) {
	case 0:
		sqlite3_bind_null(st, i);
		break;
	case 1:
		sqlite3_bind_int64(st, i, (int8_t)next_byte(in));
		break;
	case 2:
		sqlite3_bind_int64(st, i, next_i64(in));
		break;
	case 3:
		sqlite3_bind_double(st, i, (double)next_i64(in) / 65536.0);
		break;
	default:
		len = next_byte(in) % sizeof(text);
		for (unsigned k = 0; k < len; k++)
			text[k] = (char)next_byte(in);
		if (kind == 4)
			sqlite3_bind_text(st, i, text, (int)len, SQLITE_TRANSIENT);
		else
			sqlite3_bind_blob(st, i, text, (int)len, SQLITE_TRANSIENT);
	}
}

/* The n-th text of a query's rows (malloc'd), or NULL. */
static char *nth_text(sqlite3 *db, const char *sql, unsigned n)
{
	sqlite3_stmt *st;
	char *out = NULL, *q = sqlite3_mprintf("SELECT * FROM (%s) LIMIT 1"
					       " OFFSET %u", sql, n);

	if (sqlite3_prepare_v2(db, q, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		out = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sqlite3_free(q);
	return out;
}

/* What names a row of table: its primary key, or its rowid. */
static char *row_key(sqlite3 *db, const char *table, char **last)
{
	char *sql = sqlite3_mprintf("SELECT group_concat('\"' || name || '\"')"
				    " FROM (SELECT name FROM pragma_table_info(%Q)"
				    " WHERE pk > 0 ORDER BY pk)", table);
	char *cols = nth_text(db, sql, 0), *key;

	sqlite3_free(sql);
	if (!cols) {
		*last = xstrdup("rowid");
		return xstrdup("rowid");
	}
	*last = xstrdup(strrchr(cols, ',') ? strrchr(cols, ',') + 1 : cols);
	key = xasprintf("(%s)", cols);
	free(cols);
	return key;
}

static void run(sqlite3 *db, char *sql, struct input *in)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_bind_parameter_count(st))
			bind_value(st, 1, in);
		sqlite3_step(st);
	}
	sqlite3_finalize(st);
	sqlite3_free(sql);
}

/* One edit: a column of a row (by position) gets a value, a row is
 * deleted, or a row is copied with a new key and one column changed. */
static void edit(sqlite3 *db, struct input *in)
{
	const char *t = tables[next_byte(in) % NX_ARRAY_SIZE(tables)];
	unsigned col = next_byte(in), op = next_byte(in) % 4;
	unsigned row = next_byte(in);
	char *sql = sqlite3_mprintf("SELECT name FROM pragma_table_info(%Q)"
				    " ORDER BY cid LIMIT 1 OFFSET %u %% (SELECT"
				    " count(*) FROM pragma_table_info(%Q))", t,
				    col, t);
	char *c = nth_text(db, sql, 0), *key, *last;

	sqlite3_free(sql);
	if (!c)
		return;
	key = row_key(db, t, &last);
	if (op == 0) {
		run(db, sqlite3_mprintf("DELETE FROM \"%w\" WHERE %s IN (SELECT"
					" %s FROM \"%w\" LIMIT 1 OFFSET %u)", t,
					key, key, t, row), in);
	} else if (op == 1) {
		exec(db, "DROP TABLE IF EXISTS temp.x");
		run(db, sqlite3_mprintf("CREATE TEMP TABLE x AS SELECT * FROM"
					" \"%w\" LIMIT 1 OFFSET %u", t, row), in);
		if (strcmp(last, "rowid"))
			run(db, sqlite3_mprintf("UPDATE temp.x SET %s = (SELECT"
						" max(%s) FROM \"%w\") + 1", last,
						last, t), in);
		run(db, sqlite3_mprintf("UPDATE temp.x SET \"%w\" = ?1", c), in);
		run(db, sqlite3_mprintf("INSERT INTO \"%w\" SELECT * FROM"
					" temp.x", t), in);
	} else {
		run(db, sqlite3_mprintf("UPDATE \"%w\" SET \"%w\" = ?1 WHERE %s IN"
					" (SELECT %s FROM \"%w\" LIMIT 1 OFFSET"
					" %u)", t, c, key, key, t, row), in);
	}
	free(key);
	free(last);
	free(c);
}

/* The fixture's cache, edited: its NOT NULL constraints are lifted
 * while the edits run, and its schema text put back after, so that
 * the check sees nxtop's schema over values nxtop never writes. The
 * files it was built from are forgotten: it is checked in full. */
static char *edited_cache(unsigned which, struct input *in)
{
	size_t f = which % NX_ARRAY_SIZE(fixtures);
	char *src = fuzz_fixture_cache(fixtures[f]);
	char *path = copy_file(src, "edited.nxdb");
	sqlite3 *db;

	free(src);
	if (sqlite3_open(path, &db) != SQLITE_OK)
		abort();
	exec(db, "CREATE TEMP TABLE saved AS SELECT name, sql FROM"
		 " sqlite_master WHERE sql IS NOT NULL; PRAGMA writable_schema"
		 " = ON; UPDATE sqlite_master SET sql = replace(sql,"
		 " ' NOT NULL', '') WHERE type = 'table'; PRAGMA"
		 " writable_schema = RESET; DELETE FROM source");
	for (int i = 0; i < 64 && in->n; i++)
		edit(db, in);
	exec(db, "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql ="
		 " (SELECT sql FROM temp.saved s WHERE s.name ="
		 " sqlite_master.name) WHERE type = 'table'; PRAGMA"
		 " writable_schema = RESET");
	sqlite3_close(db);
	return path;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	unsigned mode = next_byte(&in);
	char *path, *why = NULL;

	if (mode == 0)
		path = fuzz_write("raw.nxdb", in.p, in.n);
	else
		path = edited_cache(mode - 1, &in);
	if (cache_check(path, NULL, &why) == CACHE_FRESH)
		fuzz_read_back(path);
	else if (why)
		fuzz_check_text("cache check", why, strlen(why));
	free(why);
	unlink(path);
	free(path);
	err_clear();
	return 0;
}
