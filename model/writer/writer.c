#include "config.h"

#include "model/writer/writer.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/cache/cache.h"
#include "model/cache/columns.h"
#include "model/cache/db.h"
#include "model/file.h"
#include "model/hmap.h"
#include "model/cache/schema.h"
#include "model/util.h"
#include "model/writer/wqueue.h"
#include "model/writer/writer_int.h"

/* Interning stops adding strings past these limits, so memory stays
 * bounded; later repeats of a new string then get fresh ids. */
#define INTERN_MAX_STRINGS (4u << 20)
#define INTERN_MAX_BYTES (256u << 20)

enum stmt {
	S_STRING, S_TRACK, S_SLICE, S_ARG, S_COUNTER, S_INSTR, S_DMA_PACKET,
	S_DMA_XFER, S_SYS, S_FLOW, S_LAYER, S_ACTIVE, S_SEM, S_INFO,
	S_WARNING, S_SOURCE, S_PROFILE, S_META, S_FLOW_AT, S_DEP, S_COUNT
};

static const char *const stmt_sql[S_COUNT] = {
	[S_STRING] = "INSERT INTO string(id, str) VALUES(?,?)",
	[S_TRACK] = "INSERT INTO track(id, profile_id, parent_id, kind, name,"
		    " sort_key) VALUES(?,?,?,?,?,?)",
	[S_SLICE] = "INSERT INTO slice(id, track_id, ts, dur, name, cat,"
		    " depth, flags, parent_id, size) VALUES(?,?,?,?,?,?,?,?,?,?)",
	[S_ARG] = "INSERT OR REPLACE INTO arg(slice_id, args) VALUES(?,?)",
	[S_COUNTER] = "INSERT INTO counter(track_id, ts, value) VALUES(?,?,?)",
	/* grows with the table's columns: instr_columns() */
	[S_INSTR] = "INSERT INTO instruction(slice_id) VALUES(?)",
	[S_DMA_PACKET] = TYPED_TABLE_INSERT(dma_packet, DMA_PACKET_COLUMNS),
	[S_DMA_XFER] = TYPED_TABLE_INSERT(dma_transfer, DMA_TRANSFER_COLUMNS),
	[S_SYS] = TYPED_TABLE_INSERT(sys_event, SYS_EVENT_COLUMNS),
	[S_FLOW] = "INSERT INTO flow(flow_id, slice_out, slice_in, kind)"
		   " VALUES(?,?,?,?)",
	[S_LAYER] = "INSERT INTO layer(profile_id, name, subgraph, start_ns,"
		    " end_ns, dur, tensor_count, tensor_time, tensor_active,"
		    " vector_count, vector_time, vector_active, scalar_count,"
		    " scalar_time, scalar_active, gpsimd_count, gpsimd_time,"
		    " gpsimd_active, sync_count, sync_time, sync_active, flops,"
		    " model_flops, mfu, hfu) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,"
		    "?,?,?,?,?,?,?,?,?,?,?,?)",
	[S_ACTIVE] = "INSERT INTO active_time(profile_id, engine, start_ns,"
		     " end_ns, pcore_idx) VALUES(?,?,?,?,?)",
	[S_SEM] = "INSERT INTO semaphore_update(profile_id, ts, sem_id, value)"
		  " VALUES(?,?,?,?)",
	[S_INFO] = "INSERT OR REPLACE INTO info(profile_id, section, idx, key,"
		   " value) VALUES(?,?,?,?,?)",
	[S_WARNING] = "INSERT INTO warning(profile_id, origin, category,"
		      " message) VALUES(?,?,?,?)",
	[S_SOURCE] = "INSERT INTO source(id, profile_id, path, size, mtime_ns,"
		     " ctime_ns, ends_hash, role) VALUES(?,?,?,?,?,?,?,?)",
	[S_PROFILE] = "INSERT INTO profile(id, parent_id, kind, format, name,"
		      " path, epoch, nc_idx, instance_id, instance_type,"
		      " process_id, model, state) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)",
	[S_META] = "INSERT OR REPLACE INTO meta(key, value) VALUES(?,?)",
	/* pending flows live in a temporary table: the finished cache
	 * never holds them */
	[S_FLOW_AT] = "INSERT INTO temp.flow_pending VALUES(?,?,?,?,?,?,?,?)",
	[S_DEP] = "INSERT INTO temp.dep_pending VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)",
};

/* The instruction columns, by their place in the column table. */
#define IC_ENUM(col, kind, member, group, label, field) IC_##col,
enum { INSTRUCTION_COLUMNS(IC_ENUM) IC_COUNT };

/* Events of a profile left out for times out of range. */
struct wdropped {
	int64_t profile;
	uint64_t n;
};

struct writer {
	sqlite3 *db;
	char *path;		/* of the file being built */
	sqlite3_stmt *st[S_COUNT];
	struct wqueue *q;	/* statements run on the writing thread */
	int64_t base;		/* ids of this writer's rows start above */
	int64_t next_string, next_slice, next_profile, next_source;
	uint64_t rows;

	struct strmap strings;	/* interned text -> index in string_ids */
	int64_t *string_ids;
	size_t nstrings, cap_strings, string_bytes;

	struct slice_hlo hlo;	/* of the instruction slices */
	/* per string (index id - base), the typed columns holding it
	 * (SU_* bits): the table string_use; all_used once too many */
	unsigned char *str_use;
	size_t str_use_n, str_use_cap;
	int all_used;
	/* the category of the last slice added (next_slice), and whether
	 * that slice is an instruction (SU_CAT otherwise); a layer seen
	 * apart from its slice's category (SU_LAYER_APART) */
	int64_t cat;
	int cat_instr, layer_apart;
	/* the instruction table's columns so far, instr_order[0..
	 * instr_ncols) in table order: column c is parameter instr_pos[c]
	 * + 1 of its INSERT, instr_pos[c] 0 while the table lacks it */
	int instr_pos[IC_COUNT];
	int instr_order[IC_COUNT];
	int instr_ncols;
	struct wtrack *tracks;	/* index = track id */
	struct window win;	/* slices of rows that nest by time */
	int64_t ntracks, cap_tracks;	/* tracks[i] is track id base + i */
	char **parts;		/* caches to merge when finishing */
	size_t nparts;

	int64_t last_track;	/* of the last slice written */
	int64_t last_dur;	/* and its duration */
	int stats_lost;		/* typed totals to count at the end (stats.c) */
	int flows_pending;	/* flows to resolve at finish */
	size_t held;		/* slices waiting for their parent, all rows */
	unsigned dep_kinds;	/* of the dependencies to link at finish
				 * (WD_KIND bits) */
	int sys_events;		/* system events written (their parents) */
	int too_many_tracks;
	struct wdropped *dropped;	/* events out of the time range */
	size_t ndropped;

	void (*progress)(void *, const char *, int);
	void *progress_ctx;
	const int *stop;	/* writer_set_stop() */
};

void wid_from_i64(struct wid *id, int64_t v)
{
	id->set = 1;
	id->big = 0;
	id->v = v;
	id->text[0] = '\0';
	id->str = NULL;
}

void wid_from_u64(struct wid *id, uint64_t v)
{
	if (v <= (uint64_t)INT64_MAX) {
		wid_from_i64(id, (int64_t)v);
		return;
	}
	id->set = 1;
	id->big = 1;
	id->v = 0;
	id->str = NULL;
	snprintf(id->text, sizeof(id->text), "%" PRIu64, v);
}

void wid_from_text(struct wid *id, const char *s)
{
	wid_from_i64(id, 0);
	id->str = s;
}

static void writer_free(struct writer *w)
{
	for (size_t i = 0; i < w->nparts; i++) {
		unlink(w->parts[i]);
		free(w->parts[i]);
	}
	free(w->parts);
	for (int i = 0; i < S_COUNT; i++)
		sqlite3_finalize(w->st[i]);
	sqlite3_close(w->db);
	free(w->path);
	strmap_free(&w->strings, NULL);
	free(w->string_ids);
	free(w->hlo.v);
	free(w->str_use);
	for (int64_t i = 0; w->tracks && i <= w->ntracks; i++)
	{
		free(w->tracks[i].held);
		free(w->tracks[i].open.s);
		free(w->tracks[i].stats);
	}
	free(w->tracks);
	free(w->win.heap);
	free(w->dropped);
	free(w);
}

struct writer *writer_open(const char *path)
{
	struct writer *w = xcalloc(1, sizeof(*w));
	/* a link put where the file is expected is refused, not followed */
	char *real = file_real_dir(path);
	int rc;

	/* one thread at a time writes a cache: no locking inside SQLite */
	rc = sqlite3_open_v2(real, &w->db, SQLITE_OPEN_READWRITE |
			     SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX |
			     SQLITE_OPEN_NOFOLLOW, NULL);
	w->path = real;
	if (rc != SQLITE_OK) {
		err_set("cache: cannot create %s: %s", path,
			w->db ? sqlite3_errmsg(w->db) : "out of memory");
		sqlite3_close(w->db);
		free(w->path);
		free(w);
		return NULL;
	}
	/* A crash mid-build leaves only a temporary file that is never
	 * renamed into place, so no journal is needed. */
	if (db_exec(w->db, "PRAGMA page_size=32768; PRAGMA journal_mode=OFF;"
			   " PRAGMA synchronous=OFF; PRAGMA locking_mode=EXCLUSIVE;"
			   " PRAGMA cache_size=-32768; PRAGMA temp_store=FILE;"
			   " PRAGMA threads=2;") ||
	    schema_create(w->db) ||
	    db_exec(w->db, "CREATE TEMP TABLE flow_pending(flow_id,"
		    " out_track INTEGER, out_ts INTEGER, out_next INTEGER,"
		    " in_track INTEGER, in_ts INTEGER, in_next INTEGER, kind TEXT)") ||
	    deps_create(w->db) ||
	    db_exec(w->db, "BEGIN")) {
		sqlite3_close(w->db);
		free(w);
		return NULL;
	}
	for (int i = 0; i < S_COUNT; i++) {
		if (sqlite3_prepare_v3(w->db, stmt_sql[i], -1,
				       SQLITE_PREPARE_PERSISTENT, &w->st[i],
				       NULL) != SQLITE_OK) {
			db_fail(w->db, "prepare");
			writer_free(w);
			return NULL;
		}
	}
	w->q = wq_new(w->db, w->st, stmt_sql, S_COUNT, 1);
	if (!w->q) {
		writer_free(w);
		return NULL;
	}
	{
		char v[16];

		snprintf(v, sizeof(v), "%d", IMPORT_VERSION);
		writer_meta(w, "import_version", v);
	}
	w->tracks = xcalloc(1, sizeof(*w->tracks));
	w->cap_tracks = 1;
	return w;
}


void writer_abort(struct writer *w)
{
	if (!w)
		return;
	if (w->q)
		wq_finish(w->q);
	writer_free(w);
}

void writer_set_progress(struct writer *w,
			 void (*fn)(void *, const char *, int), void *ctx)
{
	w->progress = fn;
	w->progress_ctx = ctx;
}

void writer_set_id_base(struct writer *w, int64_t base)
{
	w->base = base;
	w->next_string = w->next_slice = w->next_profile = w->next_source = base;
}

void writer_merge(struct writer *w, const char *path)
{
	w->parts = xreallocarray(w->parts, w->nparts + 1, sizeof(*w->parts));
	w->parts[w->nparts++] = xstrdup(path);
}

static int merge_part(struct writer *w, const char *path)
{
	char *sql, *real = file_real_dir(path);
	int rc;

	/* ATTACH and DETACH are refused inside a transaction; the part is
	 * opened, like the cache, without following a link */
	sql = sqlite3_mprintf("COMMIT; ATTACH %Q AS part; BEGIN", real);
	rc = db_exec(w->db, sql);
	sqlite3_free(sql);
	free(real);
	if (rc)
		return -1;
	rc = writer_merge_tables(w->db);
	if (db_exec(w->db, "COMMIT; DETACH part; BEGIN"))
		rc = -1;
	return rc;
}

/* The parts' rows join this cache's before its indexes are built; each
 * part's file goes as soon as it is in. */
static int merge_parts(struct writer *w)
{
	for (size_t i = 0; i < w->nparts; i++) {
		int rc = merge_part(w, w->parts[i]);

		unlink(w->parts[i]);
		if (rc)
			return -1;
	}
	return 0;
}

uint64_t writer_rows(const struct writer *w)
{
	return w->rows;
}

/* SQLite's progress handler: a long finishing pass ends early. */
static int stop_check(void *arg)
{
	return __atomic_load_n((const int *)arg, __ATOMIC_RELAXED);
}

void writer_set_stop(struct writer *w, const int *stop)
{
	w->stop = stop;
	sqlite3_progress_handler(w->db, stop ? 100000 : 0, stop ? stop_check :
				 NULL, (void *)stop);
}

int writer_broken(const struct writer *w)
{
	return w->q && wq_broken(w->q);
}

int writer_failed(const struct writer *w)
{
	if (w->stop && __atomic_load_n(w->stop, __ATOMIC_RELAXED)) {
		err_set("stopped");
		return 1;
	}
	if (w->too_many_tracks) {
		err_set("more than %d rows in one profile (nxtop's limit)",
			WRITER_MAX_TRACKS);
		return 1;
	}
	return wq_failed(w->q);
}

/* Queues the statement bound since q_begin(). */
static void q_step(struct writer *w)
{
	wq_end(w->q);
}

static void q_begin(struct writer *w, enum stmt s)
{
	wq_begin(w->q, s);
}

static void bind_text(struct writer *w, int i, const char *s)
{
	wq_text(w->q, i, s, -1);
}

/* Optional integers use -1 for "absent"; an absent value is a
 * parameter left unbound, NULL (wqueue.h). */
static void bind_opt(struct writer *w, int i, int64_t v)
{
	if (v >= 0)
		wq_int(w->q, i, v);
}

/* Optional string ids use 0 for "absent". */
static void bind_sid(struct writer *w, int i, int64_t v)
{
	if (v > 0)
		wq_int(w->q, i, v);
}

static void bind_id(struct writer *w, int i, const struct wid *id)
{
	if (id->set && id->str)
		wq_text(w->q, i, id->str, -1);
	else if (id->set && id->big)
		wq_text(w->q, i, id->text, -1);
	else if (id->set)
		wq_int(w->q, i, id->v);
}

/* An integer with no value out of range for "absent". */
static void bind_flagged(struct writer *w, int i, int has, int64_t v)
{
	if (has)
		wq_int(w->q, i, v);
}

static int64_t clamp_time(int64_t t)
{
	return NX_MAX(WRITER_TIME_MIN, NX_MIN(t, WRITER_TIME_MAX));
}

/* Counts an event of track t left out for its time; 1 if ts is out of
 * range. */
static int out_of_range(struct writer *w, const struct wtrack *t, int64_t ts)
{
	size_t i;

	if (ts >= WRITER_TIME_MIN && ts <= WRITER_TIME_MAX)
		return 0;
	for (i = 0; i < w->ndropped && w->dropped[i].profile != t->profile; i++)
		;
	if (i == w->ndropped) {
		w->dropped = xreallocarray(w->dropped, i + 1, sizeof(*w->dropped));
		w->dropped[w->ndropped++] = (struct wdropped){ t->profile, 0 };
	}
	w->dropped[i].n++;
	return 1;
}

void writer_meta(struct writer *w, const char *key, const char *value)
{
	q_begin(w, S_META);

	bind_text(w, 1, key);
	bind_text(w, 2, value);
	q_step(w);
}

int64_t writer_source(struct writer *w, int64_t profile, const char *path,
		      const char *role)
{
	struct cache_stamp st;

	cache_stamp_of(path, &st);
	return writer_source_as(w, profile, path, role,
				st.size < 0 ? NULL : &st);
}

int64_t writer_source_as(struct writer *w, int64_t profile, const char *path,
			 const char *role, const struct cache_stamp *st)
{
	/* size -1: missing now, so that its arrival makes the cache stale */
	static const struct cache_stamp missing = { .size = -1 };
	int64_t id = ++w->next_source;

	if (!st)
		st = &missing;
	q_begin(w, S_SOURCE);
	wq_int(w->q, 1, id);
	bind_sid(w, 2, profile);
	bind_text(w, 3, path);
	wq_int(w->q, 4, st->size);
	wq_int(w->q, 5, st->mtime_ns);
	wq_int(w->q, 6, st->ctime_ns);
	wq_int(w->q, 7, st->hash);
	bind_text(w, 8, role);
	q_step(w);
	return id;
}

int64_t writer_profile_id(int64_t base)
{
	return base + 1;
}

int64_t writer_profile(struct writer *w, const struct wprofile *p)
{
	int64_t id = p->id ? p->id : ++w->next_profile;

	q_begin(w, S_PROFILE);
	wq_int(w->q, 1, id);
	bind_sid(w, 2, p->parent_id);
	bind_text(w, 3, p->kind);
	bind_text(w, 4, p->format);
	bind_text(w, 5, p->name ? p->name : "");
	bind_text(w, 6, p->path);
	wq_int(w->q, 7, p->epoch);
	bind_opt(w, 8, p->nc_idx);
	bind_text(w, 9, p->instance_id);
	bind_text(w, 10, p->instance_type);
	bind_text(w, 11, p->process_id);
	bind_text(w, 12, p->model);
	bind_text(w, 13, p->state ? p->state : "ready");
	q_step(w);
	return id;
}

void writer_profile_set(struct writer *w, int64_t profile, const char *column,
			const char *value)
{
	static const char *const cols[] = {
		"name", "instance_type", "nc_idx", "kind", "format",
		"instance_id", "process_id", "model", "state", "path", "epoch",
	};
	char sql[80];
	size_t i;

	for (i = 0; i < NX_ARRAY_SIZE(cols) && strcmp(cols[i], column); i++)
		;
	if (i == NX_ARRAY_SIZE(cols))
		return;
	snprintf(sql, sizeof(sql), "UPDATE profile SET %s=? WHERE id=?", cols[i]);
	wq_sql(w->q, sql);
	bind_text(w, 1, value);
	wq_int(w->q, 2, profile);
	wq_end(w->q);
}

void writer_profile_extent(struct writer *w, int64_t profile, int64_t start,
			   int64_t end)
{
	wq_sql(w->q, "UPDATE profile SET start_ns=?, end_ns=? WHERE id=?");
	wq_int(w->q, 1, clamp_time(start));
	wq_int(w->q, 2, clamp_time(end));
	wq_int(w->q, 3, profile);
	wq_end(w->q);
}

static int64_t insert_string(struct writer *w, const char *s, size_t n)
{
	int64_t id = ++w->next_string;

	q_begin(w, S_STRING);
	wq_int(w->q, 1, id);
	wq_text(w->q, 2, s, (int)n);
	q_step(w);
	return id;
}

int64_t writer_stringn(struct writer *w, const char *s, size_t n)
{
	size_t i;
	int64_t id;

	if (n > INT32_MAX)
		n = INT32_MAX;
	if (strmap_index(&w->strings, s, n, &i))
		return w->string_ids[i];
	id = insert_string(w, s, n);
	if (w->nstrings >= INTERN_MAX_STRINGS ||
	    w->string_bytes + n > INTERN_MAX_BYTES)
		return id;
	w->string_ids = xgrow(w->string_ids, &w->cap_strings, w->nstrings + 1,
			      sizeof(*w->string_ids));
	w->string_ids[w->nstrings] = id;
	strmap_put_index(&w->strings, s, n, w->nstrings++);
	w->string_bytes += n;
	return id;
}

/* The id of s if interned already, else 0. */
static int64_t string_known(struct writer *w, const char *s)
{
	size_t i;

	return s && strmap_index(&w->strings, s, strlen(s), &i) ?
	       w->string_ids[i] : 0;
}

int64_t writer_string(struct writer *w, const char *s)
{
	return writer_stringn(w, s ? s : "", s ? strlen(s) : 0);
}

int64_t writer_track(struct writer *w, int64_t profile, int64_t parent,
		     const char *kind, const char *name, int64_t sort_key)
{
	int64_t i = w->ntracks + 1, id = w->base + i;

	if (i > WRITER_MAX_TRACKS) {
		w->too_many_tracks = 1;
		return 0;
	}
	q_begin(w, S_TRACK);
	if (i >= w->cap_tracks) {
		int64_t cap = w->cap_tracks * 2;

		w->tracks = xreallocarray(w->tracks, (size_t)cap,
					  sizeof(*w->tracks));
		memset(w->tracks + w->cap_tracks, 0,
		       (size_t)(cap - w->cap_tracks) * sizeof(*w->tracks));
		w->cap_tracks = cap;
	}
	w->ntracks = i;
	w->tracks[i].profile = profile;
	w->tracks[i].name_sid = string_known(w, name);
	w->tracks[i].is_counter = !strcmp(kind, TK_COUNTER);
	wq_int(w->q, 1, id);
	wq_int(w->q, 2, profile);
	bind_sid(w, 3, parent);
	bind_text(w, 4, kind);
	bind_text(w, 5, name);
	wq_int(w->q, 6, sort_key);
	q_step(w);
	return id;
}

static void track_update(struct writer *w, int64_t track, const char *col,
			 const char *value)
{
	char sql[64];

	snprintf(sql, sizeof(sql), "UPDATE track SET %s=? WHERE id=?", col);
	wq_sql(w->q, sql);
	bind_text(w, 1, value);
	wq_int(w->q, 2, track);
	wq_end(w->q);
}

void writer_track_set_unit(struct writer *w, int64_t track, const char *unit)
{
	track_update(w, track, "unit", unit);
}

void writer_track_set_args(struct writer *w, int64_t track, const char *json)
{
	track_update(w, track, "args", json);
}

static void held_release(struct writer *w, struct wtrack *t);

void writer_track_set_flags(struct writer *w, int64_t track, unsigned flags)
{
	struct wtrack *t;

	if (track <= w->base || track > w->base + w->ntracks)
		return;
	t = &w->tracks[track - w->base];
	/* slices written before went straight to the cache */
	if (t->n && !(t->flags & TF_NEST_BY_TIME) && (flags & TF_NEST_BY_TIME)) {
		t->late = 1;
		held_release(w, t);
	}
	t->flags = flags;
}

void writer_track_set_name(struct writer *w, int64_t track, const char *name)
{
	track_update(w, track, "name", name ? name : "");
}

void writer_track_set_sort(struct writer *w, int64_t track, int64_t sort_key)
{
	char v[24];

	snprintf(v, sizeof(v), "%" PRId64, sort_key);
	track_update(w, track, "sort_key", v);
}

static void track_extend(struct wtrack *t, int64_t ts, int64_t end)
{
	if (!t->n++ || ts < t->min_ts)
		t->min_ts = ts;
	if (t->n == 1 || end > t->max_end)
		t->max_end = end;
}

static void emit_slice(struct writer *w, const struct wpending *p,
		       int64_t parent)
{
	q_begin(w, S_SLICE);
	wq_int(w->q, 1, p->id);
	wq_int(w->q, 2, p->track);
	wq_int(w->q, 3, p->ts);
	wq_int(w->q, 4, p->dur);
	wq_int(w->q, 5, p->name);
	bind_sid(w, 6, p->cat);
	wq_int(w->q, 7, p->depth);
	wq_int(w->q, 8, (int)p->flags);
	bind_sid(w, 9, parent);
	if (p->sized)
		wq_int(w->q, 10, p->size);
	q_step(w);
}

/* Writes the waiting slices without parents: the parents pass will
 * find them. */
static void held_release(struct writer *w, struct wtrack *t)
{
	for (size_t i = 0; i < t->nheld; i++)
		emit_slice(w, &t->held[i], 0);
	w->held -= t->nheld;
	free(t->held);	/* the track waits no more */
	t->held = NULL;
	t->nheld = t->capheld = 0;
	t->parents_pass = 1;
}

/* A track whose slices come as a stack gives them up innermost first
 * (each as it ends: Perfetto's and Chrome's begin/end events), so a
 * slice is the parent of the slices one level deeper that came since
 * the last one at its depth; they wait for it, and are written with
 * their parent. Slices that come otherwise (by start, or not nested as
 * a stack) leave the track to the parents pass. */
#define HELD_MAX 4096
#define HELD_ALL_MAX (1 << 18)	/* 19 MB, however many rows wait */

static void slice_place(struct writer *w, struct wtrack *t,
			const struct wpending *h)
{
	size_t k = t->nheld;

	if (t->parents_pass) {
		emit_slice(w, h, 0);
		return;
	}
	while (k > 0 && t->held[k - 1].depth > h->depth)
		k--;
	for (size_t j = k; j < t->nheld; j++) {
		const struct wpending *c = &t->held[j];

		if (c->depth != h->depth + 1 || c->ts < h->ts ||
		    c->ts + c->dur > h->ts + h->dur) {
			held_release(w, t);
			emit_slice(w, h, 0);
			return;
		}
	}
	for (size_t j = k; j < t->nheld; j++)
		emit_slice(w, &t->held[j], h->id);
	w->held -= t->nheld - k;
	t->nheld = k;
	if (!h->depth) {
		emit_slice(w, h, 0);
	} else if (t->nheld == HELD_MAX || w->held == HELD_ALL_MAX) {
		held_release(w, t);
		emit_slice(w, h, 0);
	} else {
		t->held = xgrow(t->held, &t->capheld, t->nheld + 1,
				sizeof(*t->held));
		t->held[t->nheld++] = *h;
		w->held++;
	}
}

/* Writes the first slice of the window with its depth and parent. */
static void place_first(struct writer *w)
{
	struct wpending p;
	struct wtrack *t;
	int64_t parent = 0;

	if (!window_pop(&w->win, &p))
		return;
	t = &w->tracks[p.track - w->base];
	if (!t->late) {
		p.depth = nest_place(&t->open, p.id, p.ts, p.ts + p.dur,
				     &parent);
		t->max_depth = NX_MAX(t->max_depth, p.depth);
		t->last = p;
	}
	emit_slice(w, &p, parent);
}

/* A slice of a row that nests by time: through the window, unless it
 * starts before one that has already left it. */
static void window_add(struct writer *w, struct wtrack *t,
		       const struct wpending *p)
{
	if (t->last.id && window_before(p, &t->last)) {
		t->late = 1;
		free(t->open.s);
		t->open = (struct nest_stack){ 0 };
	}
	if (t->late) {
		emit_slice(w, p, 0);
		return;
	}
	window_push(&w->win, p);
	if (w->win.n > WINDOW_MAX)
		place_first(w);
}

/* String ids past this many above the base are not noted one by one. */
#define STR_USE_MAX (64u << 20)

/* Notes that string id (0: none) is a value of the columns of bit
 * (SU_*). */
static void note_use(struct writer *w, int64_t id, unsigned bit)
{
	size_t k;

	if (id <= w->base || w->all_used)
		return;
	k = (size_t)(id - w->base);
	if (k >= STR_USE_MAX) {
		w->all_used = 1;
		return;
	}
	if (k >= w->str_use_n) {
		w->str_use = xgrow(w->str_use, &w->str_use_cap, k + 1, 1);
		memset(w->str_use + w->str_use_n, 0, k + 1 - w->str_use_n);
		w->str_use_n = k + 1;
	}
	w->str_use[k] |= (unsigned char)bit;
}

/* The category of the last slice added, unless it is an instruction's
 * layer. */
static void note_cat(struct writer *w)
{
	if (w->next_slice > w->base && !w->cat_instr)
		note_use(w, w->cat, SU_CAT);
}

/* Adds slice p (its id given here) to its track. */
static int64_t slice_add(struct writer *w, struct wpending p)
{
	int64_t track = p.track, ts = p.ts, dur = p.dur;
	int depth = p.depth;
	unsigned flags = p.flags;
	struct wtrack *t;

	if (track <= w->base || track > w->base + w->ntracks)
		return 0;
	t = &w->tracks[track - w->base];
	if (out_of_range(w, t, ts))
		return 0;
	if (dur < 0) {
		dur = 0;
		flags |= SF_CLIPPED;
	}
	if (dur > WRITER_TIME_MAX - ts) {
		dur = WRITER_TIME_MAX - ts;
		flags |= SF_CLIPPED;
	}
	track_extend(t, ts, ts + dur);
	if (dur > t->max_dur)
		t->max_dur = dur;
	depth = NX_MAX(0, NX_MIN(depth, WRITER_MAX_DEPTH));
	t->max_given = NX_MAX(t->max_given, depth);
	t->max_depth = NX_MAX(t->max_depth, depth);
	t->dur_sum = sat_add(t->dur_sum, dur);
	w->last_dur = dur;
	t->names |= 1ull << (((uint64_t)p.name * 0x9e3779b97f4a7c15ull) >> 58);
	note_use(w, p.name, SU_NAME);
	if (!t->name_runs || p.name != t->last_name)
		t->name_runs++;
	t->last_name = p.name;
	w->last_track = track - w->base;
	note_cat(w);
	p.id = ++w->next_slice;
	w->rows++;
	w->cat = p.cat;
	w->cat_instr = 0;
	p.dur = dur;
	p.depth = depth;
	p.flags = flags;
	if (nests_by_time(t))
		window_add(w, t, &p);
	else
		slice_place(w, t, &p);
	return p.id;
}

int64_t writer_slice(struct writer *w, int64_t track, int64_t ts, int64_t dur,
		     int64_t name, int64_t cat, int depth, unsigned flags)
{
	return slice_add(w, (struct wpending){ 0, track, ts, dur, name, cat,
					       depth, flags, 0, 0 });
}

int64_t writer_slice_sized(struct writer *w, int64_t track, int64_t ts,
			   int64_t dur, int64_t name, int64_t cat, int64_t size)
{
	return slice_add(w, (struct wpending){ 0, track, ts, dur, name, cat,
					       0, 0, size >= 0, size });
}

void writer_slice_args(struct writer *w, int64_t slice, const char *json)
{
	if (!slice)
		return;
	q_begin(w, S_ARG);
	wq_int(w->q, 1, slice);
	bind_text(w, 2, json);
	q_step(w);
}

/* Binds the columns of a typed row from the struct at src, in table
 * order after slice_id (model/cache/columns.h). */
#define BIND_ID(src, m) bind_id(w, i++, &(src)->m)
#define BIND_STR(src, m) bind_sid(w, i++, (src)->m)
#define BIND_TEXT(src, m) bind_text(w, i++, (src)->m)
#define BIND_INT(src, m) bind_opt(w, i++, (src)->m)
#define BIND_TIME(src, m) bind_opt(w, i++, (src)->m)
#define BIND_FLAG(src, m) bind_flagged(w, i++, (src)->has_##m, (src)->m)
#define BIND_NUM(src, m) bind_flagged(w, i++, (src)->m.has, (src)->m.v)
#define BIND_COL(col, kind, member, group, label, field) \
	BIND_##kind(src, member);

/* Notes which typed table holds a row of slice: the finishing pass
 * joins only those to a track's slices. A row for another slice than
 * the last one written (rare) is noted on every track. */
static void note_typed(struct writer *w, int64_t slice, unsigned table)
{
	if (slice == w->next_slice) {
		w->tracks[w->last_track].typed |= table;
		return;
	}
	for (int64_t i = 1; i <= w->ntracks; i++)
		w->tracks[i].typed |= table;
}

/* Counts a typed row of slice for the summary: its row's totals. */
static void note_stat(struct writer *w, int64_t slice, int kind,
		      int64_t value, int64_t total)
{
	if (slice != w->next_slice ||
	    stat_add(&w->tracks[w->last_track], kind, value > 0 ? value : 0,
		     total))
		w->stats_lost = 1;
}

/* Keeps the HLO name of an instruction slice for the finishing pass. */
static void keep_hlo(struct writer *w, int64_t slice, int64_t hlo)
{
	struct slice_hlo *h = &w->hlo;
	size_t k = (size_t)(slice - w->base - 1);

	if (h->dropped)
		return;
	if (!h->max)
		h->max = slice_hlo_max();
	if (k >= h->max || (hlo && (uint64_t)(hlo - w->base) > UINT32_MAX)) {
		free(h->v);
		memset(h, 0, sizeof(*h));
		h->dropped = 1;
		return;
	}
	if (k >= h->n) {
		h->v = xgrow(h->v, &h->cap, k + 1, sizeof(*h->v));
		memset(h->v + h->n, 0, (k + 1 - h->n) * sizeof(*h->v));
		h->n = k + 1;
	}
	h->v[k] = hlo > 0 ? (uint32_t)(hlo - w->base) : 0;
}

#define HAS_ID(src, m) ((src)->m.set)
#define HAS_STR(src, m) ((src)->m > 0)
#define HAS_TEXT(src, m) ((src)->m != NULL)
#define HAS_INT(src, m) ((src)->m >= 0)
#define HAS_TIME(src, m) ((src)->m >= 0)
#define HAS_FLAG(src, m) ((src)->has_##m)
#define HAS_NUM(src, m) ((src)->m.has)
#define IC_NEW(col, kind, member, group, label, field) \
	if (!w->instr_pos[IC_##col] && HAS_##kind(src, member)) \
		instr_column(w, IC_##col);
#define IC_BIND(col, kind, member, group, label, field) \
	i = 1 + w->instr_pos[IC_##col]; \
	if (i > 1) \
		BIND_##kind(src, member);

/* Adds column c to the instruction table, after those it has. */
static void instr_column(struct writer *w, int c)
{
	w->instr_order[w->instr_ncols] = c;
	w->instr_pos[c] = ++w->instr_ncols;
	wq_sql(w->q, schema_add_column_sql(c));
	wq_end(w->q);
}

/* The instruction table starts with slice_id alone and gains a column
 * when a row first has it (schema.h): a profile's rows hold only the
 * columns it has. The INSERT then names them all. */
static void instr_columns(struct writer *w, const struct winstruction *src)
{
	const struct column *cols = typed_tables[TT_instruction].cols;
	int had = w->instr_ncols;
	struct strbuf sql;

	INSTRUCTION_COLUMNS(IC_NEW)
	if (w->instr_ncols == had)
		return;
	sb_init(&sql);
	sb_adds(&sql, "INSERT INTO instruction(slice_id");
	for (int k = 0; k < w->instr_ncols; k++)
		sb_printf(&sql, ", %s", cols[w->instr_order[k]].name);
	sb_adds(&sql, ") VALUES(?");
	for (int k = 0; k < w->instr_ncols; k++)
		sb_adds(&sql, ",?");
	sb_addc(&sql, ')');
	wq_restate(w->q, S_INSTR, sb_cstr(&sql));
	sb_free(&sql);
}

/* The rows of string_use; all_used: the one row saying any string may
 * be in any of the columns; layer_apart: the SU_LAYER_APART row. */
static int write_str_use(struct writer *w)
{
	sqlite3_stmt *st;
	int rc = SQLITE_DONE;

	if (sqlite3_prepare_v2(w->db, "INSERT INTO string_use(str, columns)"
			       " VALUES(?,?)", -1, &st, NULL) != SQLITE_OK)
		return db_fail(w->db, "prepare");
	note_cat(w);
	if (w->all_used || w->layer_apart) {
		sqlite3_bind_int64(st, 1, w->all_used ? 0 : SU_LAYER_APART);
		sqlite3_bind_int(st, 2, w->all_used ? SU_ALL : SU_CAT);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
	}
	for (size_t k = 0; !w->all_used && rc == SQLITE_DONE &&
	     k < w->str_use_n; k++) {
		if (!w->str_use[k])
			continue;
		sqlite3_bind_int64(st, 1, w->base + (int64_t)k);
		sqlite3_bind_int(st, 2, w->str_use[k]);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_fail(w->db, "string_use");
}

void writer_instruction(struct writer *w, int64_t slice,
			const struct winstruction *src)
{
	int i;

	if (!slice)
		return;
	note_typed(w, slice, WT_INSTR);
	note_stat(w, slice, STAT_INSTR, src->subgroup, w->last_dur);
	keep_hlo(w, slice, src->hlo_name);
	note_use(w, src->hlo_name, SU_HLO);
	note_use(w, src->layer, SU_LAYER);
	if (slice == w->next_slice && src->layer == w->cat)
		w->cat_instr = 1;
	else
		w->layer_apart = 1;
	instr_columns(w, src);
	q_begin(w, S_INSTR);
	wq_int(w->q, 1, slice);
	INSTRUCTION_COLUMNS(IC_BIND)
	q_step(w);
}

/* A DMA row's queue, noted unless it is its row's name (as a DMA queue's
 * row is named): a free word finds that queue by the row. */
static void note_queue(struct writer *w, int64_t slice, int64_t queue)
{
	if (slice != w->next_slice ||
	    queue != w->tracks[w->last_track].name_sid)
		note_use(w, queue, SU_QUEUE);
}

void writer_dma(struct writer *w, int64_t slice, const struct wdma *src)
{
	int i = 1;

	if (!slice)
		return;
	note_typed(w, slice, src->aggregated ? WT_XFER : WT_PACKET);
	note_stat(w, slice, src->aggregated ? STAT_XFER : STAT_PACKET,
		  src->queue_type, src->transfer_size);
	note_queue(w, slice, src->queue);
	q_begin(w, src->aggregated ? S_DMA_XFER : S_DMA_PACKET);
	wq_int(w->q, i++, slice);
	if (src->aggregated) {
		DMA_TRANSFER_COLUMNS(BIND_COL)
	} else {
		DMA_PACKET_COLUMNS(BIND_COL)
	}
	q_step(w);
}

void writer_sys_event(struct writer *w, int64_t slice,
		      const struct wsys_event *src)
{
	int i = 1;

	if (!slice)
		return;
	w->sys_events = 1;
	q_begin(w, S_SYS);
	wq_int(w->q, i++, slice);
	SYS_EVENT_COLUMNS(BIND_COL)
	q_step(w);
}

void writer_flow(struct writer *w, const struct wid *flow_id, int64_t out,
		 int64_t in, const char *kind)
{
	q_begin(w, S_FLOW);

	bind_id(w, 1, flow_id);
	bind_sid(w, 2, out);
	bind_sid(w, 3, in);
	bind_text(w, 4, kind);
	q_step(w);
}

void writer_flow_at(struct writer *w, const struct wid *flow_id,
		    const struct wflow_end *out, const struct wflow_end *in,
		    const char *kind)
{
	q_begin(w, S_FLOW_AT);
	bind_id(w, 1, flow_id);
	wq_int(w->q, 2, out->track);
	wq_int(w->q, 3, clamp_time(out->ts));
	wq_int(w->q, 4, out->next);
	wq_int(w->q, 5, in->track);
	wq_int(w->q, 6, clamp_time(in->ts));
	wq_int(w->q, 7, in->next);
	bind_text(w, 8, kind);
	wq_end(w->q);
	w->flows_pending = 1;
}

void writer_dep(struct writer *w, const struct wdep *d)
{
	q_begin(w, S_DEP);
	wq_int(w->q, 1, d->kind);
	wq_int(w->q, 2, d->profile);
	bind_sid(w, 3, d->slice);
	wq_int(w->q, 4, clamp_time(d->ts));
	wq_int(w->q, 5, clamp_time(d->ts2));
	bind_id(w, 6, &d->key);
	bind_id(w, 7, &d->key2);
	bind_text(w, 8, d->sem);
	wq_int(w->q, 9, d->op);
	wq_int(w->q, 10, d->value);
	bind_text(w, 11, d->table);
	bind_text(w, 12, d->table2);
	bind_text(w, 13, d->type);
	wq_end(w->q);
	w->dep_kinds |= WD_KIND(d->kind);
}

/* The slice at one end of a pending flow: the deepest enclosing slice
 * (only slices starting within the track's longest duration can enclose
 * ts, which keeps each depth's index range short), or the next one to
 * start (the earliest of each depth's first). */
#define FLOW_DEPTHS(T) DEPTHS_UPTO("(SELECT max_depth FROM track WHERE id = " T ")")
#define FLOW_ENCLOSING(T, TS) \
	"(SELECT s.id FROM slice s WHERE s.track_id = " T " AND s.depth IN " \
	FLOW_DEPTHS(T) " AND s.ts <= " TS \
	" AND s.ts >= " TS " - (SELECT max_dur FROM track WHERE id = " T ")" \
	" AND s.ts + s.dur >= " TS " ORDER BY s.depth DESC, s.ts DESC LIMIT 1)"
#define FLOW_NEXT(T, TS) \
	"(SELECT y.id FROM (SELECT (SELECT s.id FROM slice s WHERE" \
	" s.track_id = " T " AND s.depth = d.d AND s.ts >= " TS \
	" ORDER BY s.ts LIMIT 1) AS id FROM temp.nx_depths d WHERE d.d <=" \
	" (SELECT max_depth FROM track WHERE id = " T ")) x" \
	" JOIN slice y ON y.id = x.id ORDER BY y.ts LIMIT 1)"
#define FLOW_END(T, TS, NEXT) \
	"CASE WHEN " NEXT " THEN coalesce(" FLOW_NEXT(T, TS) ", " \
	FLOW_ENCLOSING(T, TS) ") ELSE " FLOW_ENCLOSING(T, TS) " END"

static int resolve_flows(struct writer *w)
{
	if (!w->flows_pending)
		return 0;
	if (schema_depths(w->db))
		return -1;
	return db_exec(w->db,
		"INSERT INTO flow(flow_id, slice_out, slice_in, kind)"
		" SELECT flow_id, o, i, kind FROM (SELECT flow_id, kind, "
		FLOW_END("p.out_track", "p.out_ts", "p.out_next") " AS o, "
		FLOW_END("p.in_track", "p.in_ts", "p.in_next") " AS i"
		" FROM temp.flow_pending p ORDER BY p.rowid)"
		" WHERE (o IS NOT NULL OR i IS NOT NULL)"
		" AND (o IS NULL OR i IS NULL OR o <> i);"
		"DROP TABLE temp.flow_pending;");
}

/* A Neuron system event that names its parent (parent_id, the parent's
 * id) gets that event's slice as its parent, on its row or another one
 * of its process; time containment's parent stays for the events with
 * none (absent or 0) and those whose parent is not in the profile. */
static int sys_parents(struct writer *w)
{
	char sql[1536];

	snprintf(sql, sizeof(sql),
		 "CREATE TEMP TABLE sys_ids(profile_id INTEGER NOT NULL,"
		 " instance_id INTEGER NOT NULL, process_id INTEGER NOT NULL,"
		 " id NOT NULL, slice_id INTEGER NOT NULL, PRIMARY KEY(profile_id,"
		 " instance_id, process_id, id)) WITHOUT ROWID;"
		 "INSERT OR IGNORE INTO temp.sys_ids SELECT t.profile_id,"
		 " coalesce(e.instance_id, 0), coalesce(e.process_id, 0), e.id,"
		 " e.slice_id FROM sys_event e JOIN slice s ON s.id = e.slice_id"
		 " JOIN track t ON t.id = s.track_id WHERE t.id > %" PRId64
		 " AND e.id IS NOT NULL;"
		 "UPDATE slice SET parent_id = m.slice_id FROM sys_event e,"
		 " track t, temp.sys_ids m WHERE e.slice_id = slice.id AND"
		 " t.id = slice.track_id AND t.id > %" PRId64 " AND e.parent IS"
		 " NOT NULL AND e.parent <> 0 AND m.profile_id = t.profile_id AND"
		 " m.instance_id = coalesce(e.instance_id, 0) AND m.process_id ="
		 " coalesce(e.process_id, 0) AND m.id = e.parent AND"
		 " m.slice_id <> slice.id;"
		 "DROP TABLE temp.sys_ids;", w->base, w->base);
	return db_exec(w->db, sql);
}

/* Each end of the flows of this writer's slices where the timeline draws it,
 * by row and time, so a frame reads only the ends on screen. */
static int fill_flow_marks(struct writer *w)
{
	char sql[720];

	/* a device profile's dependencies link nearly every instruction:
	 * marked, they would hide the events; they show for the event
	 * under the cursor only */
	snprintf(sql, sizeof(sql), "INSERT OR IGNORE INTO flow_mark"
		 " SELECT track_id, ts, id, dir, depth FROM (SELECT s.track_id,"
		 " CASE WHEN s.dur > 0 THEN s.ts + s.dur - 1 ELSE s.ts END AS ts,"
		 " s.id, 0 AS dir, s.depth FROM flow f JOIN slice s ON s.id ="
		 " f.slice_out WHERE s.track_id > %" PRId64 " AND f.kind = 'flow'"
		 " UNION ALL SELECT s.track_id, s.ts, s.id, 1, s.depth FROM flow f"
		 " JOIN slice s ON s.id = f.slice_in WHERE s.track_id > %" PRId64
		 " AND f.kind = 'flow') ORDER BY 1, 2, 3", w->base, w->base);
	return db_exec(w->db, sql);
}

void writer_counter(struct writer *w, int64_t track, int64_t ts, double value)
{
	if (track <= w->base || track > w->base + w->ntracks ||
	    !isfinite(value) || out_of_range(w, &w->tracks[track - w->base], ts))
		return;
	q_begin(w, S_COUNTER);
	track_extend(&w->tracks[track - w->base], ts, ts);
	wq_int(w->q, 1, track);
	wq_int(w->q, 2, ts);
	wq_double(w->q, 3, value);
	q_step(w);
	w->rows++;
}

void writer_layer(struct writer *w, int64_t profile, const struct wlayer *l)
{
	q_begin(w, S_LAYER);
	int i = 1;

	wq_int(w->q, i++, profile);
	bind_text(w, i++, l->name);
	bind_text(w, i++, l->subgraph);
	wq_int(w->q, i++, clamp_time(l->start));
	wq_int(w->q, i++, clamp_time(l->end));
	wq_int(w->q, i++, NX_MAX(0, NX_MIN(l->dur, WRITER_TIME_MAX)));
	for (int e = 0; e < 5; e++) {
		bind_opt(w, i++, l->count[e]);
		bind_opt(w, i++, l->time[e]);
		bind_opt(w, i++, l->active[e]);
	}
	bind_opt(w, i++, l->flops);
	bind_opt(w, i++, l->model_flops);
	if (l->mfu >= 0)
		wq_double(w->q, i, l->mfu);
	i++;
	if (l->hfu >= 0)
		wq_double(w->q, i, l->hfu);
	q_step(w);
}

void writer_active_time(struct writer *w, int64_t profile, const char *engine,
			int64_t start, int64_t end, int64_t pcore_idx)
{
	q_begin(w, S_ACTIVE);

	wq_int(w->q, 1, profile);
	bind_text(w, 2, engine);
	wq_int(w->q, 3, clamp_time(start));
	wq_int(w->q, 4, clamp_time(end));
	bind_opt(w, 5, pcore_idx);
	q_step(w);
}

void writer_semaphore(struct writer *w, int64_t profile, int64_t ts,
		      const char *sem_id, int64_t value)
{
	q_begin(w, S_SEM);

	wq_int(w->q, 1, profile);
	wq_int(w->q, 2, clamp_time(ts));
	bind_text(w, 3, sem_id ? sem_id : "");
	wq_int(w->q, 4, value);
	q_step(w);
}

void writer_info(struct writer *w, int64_t profile, const char *section,
		 int64_t idx, const char *key, const struct wvalue *v)
{
	q_begin(w, S_INFO);

	wq_int(w->q, 1, profile);
	bind_text(w, 2, section);
	wq_int(w->q, 3, idx);
	bind_text(w, 4, key);
	switch (v->type) {
	case WV_INT:
		wq_int(w->q, 5, v->i);
		break;
	case WV_REAL:
		wq_double(w->q, 5, v->d);
		break;
	case WV_TEXT:
		bind_text(w, 5, v->s);
		break;
	case WV_NULL:
		break;
	}
	q_step(w);
}

void writer_warning(struct writer *w, int64_t profile, const char *origin,
		    const char *category, const char *message)
{
	q_begin(w, S_WARNING);

	bind_sid(w, 1, profile);
	bind_text(w, 2, origin);
	bind_text(w, 3, category);
	bind_text(w, 4, message);
	q_step(w);
}

static void report(struct writer *w, const char *what, int pct)
{
	if (w->progress)
		w->progress(w->progress_ctx, what, pct);
}

/* One warning per profile that lost events to the time range. */
static int warn_dropped(struct writer *w)
{
	sqlite3_stmt *st;
	int rc = 0;

	if (!w->ndropped)
		return 0;
	if (sqlite3_prepare_v2(w->db, "INSERT INTO warning(profile_id, origin,"
			       " category, message) VALUES(?, 'import', 'Import',"
			       " ?)", -1, &st, NULL) != SQLITE_OK)
		return db_fail(w->db, "warning");
	for (size_t i = 0; i < w->ndropped && !rc; i++) {
		char *msg = xasprintf("%" PRIu64 " event(s) with times more than"
				      " 109 years after or 18 years before the"
				      " time axis' zero were left out",
				      w->dropped[i].n);

		sqlite3_bind_int64(st, 1, w->dropped[i].profile);
		sqlite3_bind_text(st, 2, msg, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = db_fail(w->db, "warning");
		sqlite3_reset(st);
		free(msg);
	}
	sqlite3_finalize(st);
	return rc;
}

/* A profile whose own time range (its metadata) leaves events far out,
 * more than its length before its start or after its end, says so:
 * exports of its range leave them out. Slightly out is common. */
static int warn_outside(struct writer *w)
{
	/* this writer's profiles: merged parts said it themselves */
	char *sql = sqlite3_mprintf(
		"INSERT INTO warning(profile_id, origin, category, message)"
		" SELECT p.id, 'import', 'Import', 'some events lie far outside"
		" the profile''s own time range (more than its length before its"
		" start or after its end): they are kept and shown, but exports"
		" of the profile''s range leave them out' FROM profile p"
		" JOIN (SELECT profile_id, min(min_ts) AS lo, max(max_ts) AS hi"
		" FROM track WHERE n_events > 0 GROUP BY profile_id) t"
		" ON t.profile_id = p.id WHERE p.id > %lld AND p.id <= %lld AND"
		" p.start_ns IS NOT NULL AND"
		" (t.lo < p.start_ns - max(p.end_ns - p.start_ns, 1) OR"
		" t.hi > p.end_ns + max(p.end_ns - p.start_ns, 1))",
		(long long)w->base, (long long)w->next_profile);
	int rc = db_exec(w->db, sql);

	sqlite3_free(sql);
	return rc;
}

/* Profiles without an explicit extent span their tracks. */
static int fill_extents(struct writer *w)
{
	return db_exec(w->db,
		"UPDATE profile SET"
		" start_ns=(SELECT min(min_ts) FROM track WHERE profile_id=profile.id),"
		" end_ns=(SELECT max(max_ts) FROM track WHERE profile_id=profile.id)"
		" WHERE start_ns IS NULL;"
		"UPDATE profile SET n_events=(SELECT coalesce(sum(n_events),0)"
		" FROM track WHERE profile_id=profile.id);"
		"UPDATE profile SET active_max_ns=(SELECT max(0, max(end_ns -"
		" start_ns)) FROM active_time WHERE profile_id=profile.id)"
		" WHERE active_max_ns IS NULL;");
}

void writer_place_window(struct writer *w)
{
	while (w->win.n)
		place_first(w);
}

/* The build file in WAL mode, and a second connection reading it: the
 * finishing pass then reads on one core while the other writes. NULL
 * (and no error) where the file cannot go in WAL mode, or where tests
 * ask for it (NXTOP_TEST_ONE_CONNECTION): one connection then does
 * both, in turn. */
static sqlite3 *reader_open(struct writer *w, int *err)
{
	sqlite3_stmt *st = NULL;
	sqlite3 *rd = NULL;
	int wal;

	if (getenv("NXTOP_TEST_ONE_CONNECTION")) {
		*err = 0;
		return NULL;
	}
	*err = db_exec(w->db, "COMMIT; PRAGMA locking_mode=NORMAL");
	if (*err)
		return NULL;
	wal = sqlite3_prepare_v2(w->db, "PRAGMA journal_mode=WAL", -1, &st,
				 NULL) == SQLITE_OK &&
	      sqlite3_step(st) == SQLITE_ROW &&
	      !strcmp((const char *)sqlite3_column_text(st, 0), "wal");
	sqlite3_finalize(st);
	if (wal && sqlite3_open_v2(w->path, &rd, SQLITE_OPEN_READONLY |
				   SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW,
				   NULL) != SQLITE_OK) {
		sqlite3_close(rd);
		rd = NULL;
	}
	/* read once here: a file system without the shared memory WAL
	 * needs fails now, not half way */
	if (rd && db_exec(rd, "PRAGMA cache_size=-4096;"
			  " SELECT count(*) FROM track")) {
		sqlite3_close(rd);
		rd = NULL;
	}
	*err = db_exec(w->db, "BEGIN");
	return rd;
}

/* Levels of detail, aggregates and the indexes not yet built: this
 * thread reads and summarises every track while the queue's thread
 * writes their rows and builds the indexes. */
static int finish_summaries(struct writer *w)
{
	sqlite3_stmt *st[FQ_N] = { 0 };
	struct wqueue *q;
	sqlite3 *rd;
	int err, rc = -1;

	/* the finishing pass reads counters through the first */
	if (db_exec(w->db, schema_indexes[0]))
		return -1;
	rd = reader_open(w, &err);
	if (err) {
		sqlite3_close(rd);
		return -1;
	}
	for (int i = 0; i < FQ_N; i++) {
		if (sqlite3_prepare_v3(w->db, finish_write_sql[i], -1,
				       SQLITE_PREPARE_PERSISTENT, &st[i],
				       NULL) != SQLITE_OK) {
			db_fail(w->db, "prepare");
			goto out;
		}
	}
	q = wq_new(w->db, st, finish_write_sql, FQ_N, rd != NULL);
	if (!q)
		goto out;
	for (int i = 1; i < SCHEMA_INDEXES; i++) {
		wq_sql(q, schema_indexes[i]);
		wq_end(q);
	}
	rc = finish_tracks(rd ? rd : w->db, q, w->tracks, w->base, w->ntracks,
			   w->hlo.dropped ? NULL : &w->hlo, w->progress,
			   w->progress_ctx);
	rc = wq_finish(q) || rc;
out:
	sqlite3_close(rd);
	for (int i = 0; i < FQ_N; i++)
		sqlite3_finalize(st[i]);
	return rc ? -1 : 0;
}

int writer_finish(struct writer *w)
{
	int rc = -1;
	int queued;

	/* slices still waiting: their parent never came (cut short) */
	for (int64_t i = 1; i <= w->ntracks; i++)
		if (w->tracks[i].nheld)
			held_release(w, &w->tracks[i]);
	writer_place_window(w);
	queued = wq_finish(w->q);

	/* from here on this thread writes */
	w->q = NULL;
	if (queued)
		goto out;
	if (schema_complete_columns(w->db) || merge_parts(w) ||
	    write_str_use(w) || warn_dropped(w) ||
	    stats_write(w->db, w->tracks, w->base, w->ntracks, w->next_slice,
			w->stats_lost))
		goto out;
	report(w, "indexing", 0);
	/* The passes below sort whole tracks, and SQLite's sorter holds as
	 * much as the page cache may, in each of its threads, before it
	 * spills to a temporary file; the pages cached so far belong to the
	 * writing thread's allocator and are not reused here. A small cache
	 * and one sorting thread keep the passes within the memory the
	 * writing took, however deep the nesting. */
	if (db_exec(w->db, "PRAGMA cache_size=-4096; PRAGMA threads=0") ||
	    finish_depths(w->db, w->tracks, w->base, w->ntracks) ||
	    finish_parents(w->db, w->tracks, w->base, w->ntracks) ||
	    /* parts merged in may hold system events */
	    ((w->sys_events || w->nparts) && sys_parents(w)) ||
	    (w->dep_kinds && deps_resolve(w->db, w->dep_kinds)) ||
	    finish_summaries(w) || resolve_flows(w) || fill_flow_marks(w))
		goto out;
	/* planner statistics from a sample of each index: a full ANALYZE
	 * reads every index again */
	if (warn_outside(w) || fill_extents(w) ||
	    db_exec(w->db, "PRAGMA analysis_limit=1000; ANALYZE") ||
	    db_exec(w->db, "INSERT OR REPLACE INTO meta VALUES('complete', 1)") ||
	    /* back in rollback mode, the WAL file gone, before it is
	     * renamed into place */
	    db_exec(w->db, "COMMIT; PRAGMA journal_mode=DELETE"))
		goto out;
	rc = 0;
out:
	writer_free(w);
	return rc;
}
