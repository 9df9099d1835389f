#include "config.h"

#include "model/search.h"

#include <inttypes.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/agg.h"
#include "model/cache/columns.h"
#include "model/lod.h"
#include "model/cache/schema.h"
#include "model/util.h"

/* Name sets larger than this are stepped through with one query per
 * track rather than one per (track, name). */
#define STEP_MAX_NAMES 16

/* Free word columns beyond string_use's: a row's name holds the word. */
#define WORD_ROWS 32

/* Where a free word may match: the SU_* columns holding a string that
 * holds it, and WORD_ROWS; that set of strings, and the rows. */
struct word_plan {
	int cols;
	char set[32];		/* a temporary table of string ids */
	char *rows;		/* "(id,...)" */
	int64_t *row_ids;	/* the same */
	size_t nrows;
};

struct param {
	int is_text;
	int64_t i;
	char *s;
};

/* The answer of one press on one track and depth: from (ts, id) the
 * nearest match is hit (or none); it stays the answer of every later
 * press from between the two, as the events between do not match. */
struct memo {
	int valid, has;
	int64_t from_ts, from_id;
	struct mslice hit;
};

/* One comparison of a number with x. */
struct numcmp {
	enum qop op;
	int64_t x;
};

#define NUM_MAX 4

/* A query the aggregates answer: name, opcode, engine and row terms
 * beside dur comparisons (field AGG_DUR: counts by name and duration
 * bin), or engine and row terms beside transfer_size comparisons
 * (AGG_SIZE: counts by size); field is -1 for any other query. With dur
 * comparisons and transfer_size ones too, the dur aggregates only rule
 * buckets out (partial): the events of the others are read; so with
 * names beside transfer_size comparisons, AGG_DUR with no comparison.
 * Engine and row terms alone are AGG_DUR with no comparison. */
struct numterm {
	int field;
	int ncmp;
	struct numcmp cmp[NUM_MAX];	/* all on field */
	int partial;
	/* partial with AGG_DUR: the transfer_size comparisons left over,
	 * which a bucket's size rows may still decide */
	int nsize;
	struct numcmp size[NUM_MAX];
};

/* A bucket of a track's name level: its events, and those with a
 * matching name. */
struct name_bucket {
	int64_t b, n, in;
};

/* Where a track's duration aggregates keep no names (its names start
 * at a coarser level, as on sparse DMA rows), its name buckets rule a
 * comparison's buckets out (no matching name) or in (every name
 * matches); the others are read. */
struct name_cls {
	int64_t track;
	int level;
	struct name_bucket *v;	/* by bucket */
	size_t n;
};

/* Temporary table numbers stay unique while several searches are open. */
static _Thread_local int temp_seq;

struct search {
	struct model *m;
	int64_t profile, pstart;
	char *text;
	struct query shown;	/* as written */
	struct query q;		/* as planned: words_plan */
	struct word_plan *words;	/* per term of q: a free word's */
	struct strbuf from, where;
	struct param *params;
	size_t nparams;
	int *temps;		/* numbers of our temporary tables */
	int ntemp;
	/* name-only queries: names in temp table nameset (or any name),
	 * tracks restricted to tracks[] (or any track); the names are
	 * the aggregates' vfield: AGG_NAME, AGG_HLO for HLO names, or
	 * AGG_CAT for layers (layers_agg: the categories of instructions
	 * are their layers, and no other event's category is a layer).
	 * vfield_apart: some track's aggregates keep no values of vfield,
	 * so its events are read. vcomp: the HLO name or layer terms are
	 * all negated, and match the events whose value is not in nameset,
	 * or who have none (struct vmatch) */
	int names_only, any_name, any_track;
	int vfield, vfield_apart, layers_agg, vcomp;
	char nameset[32];
	int64_t *names;
	size_t nnames;
	int64_t *tracks;
	size_t ntracks;
	/* queue_type terms that whole DMA rows answer: the rows matching */
	int queue_rows;
	int64_t *qtracks;
	size_t nqtracks;
	struct numterm num;
	/* the name buckets of tracks whose duration aggregates keep no
	 * names (name_cls_get), loaded on first use */
	struct name_cls *cls;
	size_t ncls;
	/* per track, whether its coarsest name aggregates hold a matching
	 * name (names_on), and whether its free words may match (won:
	 * words_on) */
	struct name_on {
		int64_t track;
		int has;
	} *on, *won;
	size_t non, nwon;
	/* a query of one free word that names and layers hold (word_split):
	 * per track, 1 + the field whose aggregates count its matches there
	 * (word_field), 0 where its events are read */
	int word_split;
	struct name_on *wfield;
	size_t nwfield;
	/* a query only instructions match (instr_term): the same events
	 * read from the instruction table's side (from_i), every row in
	 * one pass over a wide range, kept for the next track (struct
	 * allpass) */
	struct strbuf from_i;
	int by_instr;
	struct allpass {
		int valid;
		int64_t t0, t1, colw;	/* colw 0: counts alone */
		int ncols;
		struct allrow {
			int64_t track, n, dur;
			/* per column: the matches, their durations */
			int64_t *hits, *durs;
		} *rows;
		size_t nrows;
	} ap;
	sqlite3_stmt *st_range;	/* ts of matches on a track in a range */
	sqlite3_stmt *st_num;	/* a comparison's aggregates in a range */
	sqlite3_stmt *st_one;	/* does one event match */
	sqlite3_stmt *st_durs;	/* durations of matches on a track */
	sqlite3_stmt *st_durs_all;	/* durations of all a track's events */
	/* n/N: kept across presses, the statements per direction (0 back,
	 * 1 forward) and the profile's tracks, loaded on the first press */
	sqlite3_stmt *step_ev[2], *step_bucket[2], *step_cand[2];
	/* the same as step_bucket for a word_split query's rows, by the
	 * field counting its matches (0: names, 1: categories) */
	sqlite3_stmt *step_word[2][2];
	struct mtrack *step_tracks;
	size_t step_nt;
	int step_loaded;
	/* per direction, track and depth: the last press's answer */
	struct memo *memo[2];
	size_t *memo_off;	/* a track's first depth in memo[] */
};

static void add_param_int(struct search *s, int64_t v)
{
	s->params = xreallocarray(s->params, s->nparams + 1, sizeof(*s->params));
	s->params[s->nparams++] = (struct param){ 0, v, NULL };
}

static void add_param_text(struct search *s, const char *v)
{
	s->params = xreallocarray(s->params, s->nparams + 1, sizeof(*s->params));
	s->params[s->nparams++] = (struct param){ 1, 0, xstrdup(v) };
}

static int bind_params(struct search *s, sqlite3_stmt *st)
{
	for (size_t i = 0; i < s->nparams; i++) {
		const struct param *p = &s->params[i];

		if (p->is_text)
			sqlite3_bind_text(st, (int)i + 1, p->s, -1, SQLITE_STATIC);
		else
			sqlite3_bind_int64(st, (int)i + 1, p->i);
	}
	return (int)s->nparams;
}

static int exec(struct search *s, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(model_db(s->m), sql, NULL, NULL, &msg) != SQLITE_OK) {
		err_set("search: %s", msg ? msg : "error");
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

static sqlite3_stmt *prepare(struct search *s, const char *fmt, ...)
	NX_PRINTF(2, 3);

static sqlite3_stmt *prepare(struct search *s, const char *fmt, ...)
{
	struct strbuf sb;
	sqlite3_stmt *st = NULL;
	va_list ap;

	sb_init(&sb);
	va_start(ap, fmt);
	sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	if (sqlite3_prepare_v2(model_db(s->m), sb_cstr(&sb), -1, &st, NULL) !=
	    SQLITE_OK) {
		model_fail(s->m, "search");
		st = NULL;
	}
	sb_free(&sb);
	return st;
}

/* Steps a statement asking whether a row exists, and finalizes it: 1
 * yes, 0 no, -1 an error. */
static int row_exists(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

/* LIKE pattern for a substring, with LIKE's own characters escaped. */
static char *like_pattern(const char *v)
{
	struct strbuf sb;

	sb_init(&sb);
	sb_addc(&sb, '%');
	for (; *v; v++) {
		if (*v == '%' || *v == '_' || *v == '\\')
			sb_addc(&sb, '\\');
		sb_addc(&sb, *v);
	}
	sb_addc(&sb, '%');
	return sb_detach(&sb);
}

/* The string condition for op and value, on column "str". */
static const char *str_cond(enum qop op)
{
	switch (op) {
	case Q_EQ:
	case Q_NE:
		return "str = ?1 COLLATE NOCASE";
	case Q_RE:
	case Q_NRE:
		return "regexp(?1, str)";
	default:
		return "str LIKE ?1 ESCAPE '\\'";
	}
}

static const char *str_value(enum qop op, const char *v, char **tmp)
{
	if (op == Q_HAS || op == Q_HASNOT)
		return *tmp = like_pattern(v);
	return v;
}

/* Fills a temporary table with the ids of strings matching a term;
 * returns its name in name. */
static int string_set(struct search *s, enum qop op, const char *value,
		      char *name, size_t n)
{
	char *tmp = NULL, *sql;
	sqlite3_stmt *st;
	int rc;

	s->temps = xreallocarray(s->temps, (size_t)s->ntemp + 1, sizeof(*s->temps));
	s->temps[s->ntemp++] = ++temp_seq;
	snprintf(name, n, "temp.nxq%d", temp_seq);
	sql = xasprintf("DROP TABLE IF EXISTS %s; CREATE TABLE %s(id INTEGER"
			" PRIMARY KEY)", name, name);
	rc = exec(s, sql);
	free(sql);
	if (rc)
		return -1;
	sql = xasprintf("INSERT INTO %s SELECT id FROM string WHERE %s", name,
			str_cond(op));
	rc = sqlite3_prepare_v2(model_db(s->m), sql, -1, &st, NULL);
	free(sql);
	if (rc != SQLITE_OK)
		return model_fail(s->m, "search");
	sqlite3_bind_text(st, 1, str_value(op, value, &tmp), -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	free(tmp);
	return rc == SQLITE_DONE ? 0 : model_fail(s->m, "search");
}

/* Tracks of the profile whose name matches (of kind when not NULL), or
 * the others when invert is set; a list for "IN (...)". */
static int track_set(struct search *s, enum qop op, const char *value,
		     const char *kind, int invert, struct strbuf *list,
		     int64_t **ids, size_t *nids)
{
	char *tmp = NULL;
	char *sql = xasprintf("SELECT id FROM track WHERE profile_id = ?2 AND"
			      " kind != 'group' AND %s(%s%s)", invert ? "NOT " : "",
			      kind ? "kind = ?3 AND " : "", str_cond(op));
	sqlite3_stmt *st;
	int rc, first = 1;

	/* str_cond names the column "str" */
	char *fixed = xasprintf("SELECT id FROM (SELECT id, name AS str, kind,"
				" profile_id FROM track) WHERE %s",
				strstr(sql, "profile_id"));
	rc = sqlite3_prepare_v2(model_db(s->m), fixed, -1, &st, NULL);
	free(sql);
	free(fixed);
	if (rc != SQLITE_OK)
		return model_fail(s->m, "search");
	sqlite3_bind_text(st, 1, str_value(op, value, &tmp), -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, s->profile);
	if (kind)
		sqlite3_bind_text(st, 3, kind, -1, SQLITE_STATIC);
	sb_adds(list, "(");
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);

		sb_printf(list, "%s%" PRId64, first ? "" : ",", id);
		first = 0;
		if (ids) {
			*ids = xreallocarray(*ids, *nids + 1, sizeof(**ids));
			(*ids)[(*nids)++] = id;
		}
	}
	sb_adds(list, ")");
	sqlite3_finalize(st);
	free(tmp);
	return 0;
}

/* The operator itself negates (!=, !~); a leading '-' is handled apart. */
static int neg(const struct qterm *t)
{
	return t->op == Q_NE || t->op == Q_HASNOT || t->op == Q_NRE;
}

/* What a term matches is what its base operator does not: negated by
 * its operator or by a leading '-', not by both. */
static int negated(const struct qterm *t)
{
	return !t->negate != !neg(t);
}

/* The operator a negating one negates (= of !=, ~ of !~, =/re/ of
 * !=/re/); any other is its own. */
static enum qop base_op(enum qop op)
{
	return op == Q_NE ? Q_EQ : op == Q_HASNOT ? Q_HAS : op == Q_NRE ? Q_RE :
	       op;
}

/* Fields of the slice itself; the others are typed columns (target). */
static const char *const slice_targets[F_COUNT] = {
	[F_NAME] = "s.name",
	[F_OPCODE] = "s.name",
	[F_CATEGORY] = "s.cat",
	[F_DUR] = "s.dur",
	[F_TRANSFER_SIZE] = "s.size",	/* the DMA row's, kept in the slice */
	[F_START] = "(s.ts - ?)",
	[F_END] = "(s.ts + s.dur - ?)",
};

struct joins {
	int i, d, se, a;
};

static void need(struct joins *j, const char *alias)
{
	if (!strcmp(alias, "i"))
		j->i = 1;
	if (!strcmp(alias, "dp") || !strcmp(alias, "dt"))
		j->d = 1;
	if (!strcmp(alias, "se"))
		j->se = 1;
}

/* Typed columns a field reads where the event lacks its own. A system
 * event's NeuronCore is its lnc_idx, its nc_idx or both, each the
 * logical one (Parquet has only the first, as lnc_idx): nc and lnc
 * each read the other when the event has one of them only. */
static const char *const fallback_targets[F_COUNT] = {
	[F_NC] = "se.lnc_idx",
	[F_LNC] = "se.nc_idx",
};

/* The expression of a field: its slice column, else the typed columns
 * that hold it (model/cache/columns.h), then its fallback, the first
 * present of them when there are several ("coalesce(dp.queue,
 * dt.queue)"); their tables are joined. */
static void target(enum qfield f, struct joins *j, struct strbuf *out)
{
	struct strbuf cols;
	size_t n = 0;

	if (slice_targets[f]) {
		sb_adds(out, slice_targets[f]);
		return;
	}
	sb_init(&cols);
	for (int t = 0; t < TT_COUNT; t++) {
		const struct typed_table *tt = &typed_tables[t];

		for (size_t c = 0; c < tt->ncols; c++) {
			if (tt->cols[c].field != f)
				continue;
			sb_printf(&cols, "%s%s.%s", n++ ? ", " : "", tt->alias,
				  tt->cols[c].name);
			need(j, tt->alias);
		}
	}
	if (fallback_targets[f])
		sb_printf(&cols, "%s%s", n++ ? ", " : "", fallback_targets[f]);
	if (n > 1)
		sb_printf(out, "coalesce(%s)", sb_cstr(&cols));
	else
		sb_adds(out, sb_cstr(&cols));
	sb_free(&cols);
}

static const char *cmp_op(enum qop op)
{
	switch (op) {
	case Q_GT: return ">";
	case Q_GE: return ">=";
	case Q_LT: return "<";
	case Q_LE: return "<=";
	case Q_NE: return "!=";
	default: return "=";
	}
}

/* The condition of a term on the field read by expr. */
static int field_cond(struct search *s, const struct qterm *t,
		      const char *expr)
{
	struct strbuf *w = &s->where;
	char set[32];

	if (t->field == F_START || t->field == F_END)
		add_param_int(s, s->pstart);
	if (query_fields[t->field].kind == QF_STRING) {
		enum qop base = base_op(t->op);

		if (string_set(s, base, t->value, set, sizeof(set)))
			return -1;
		/* NULL (the event lacks the field) must be 0 only for NOT */
		if (neg(t))
			sb_printf(w, "NOT coalesce(%s IN %s, 0)", expr, set);
		else
			sb_printf(w, "%s IN %s", expr, set);
		if (t->field == F_OPCODE)
			sb_adds(w, " AND t.kind = 'engine'");
		return 0;
	}
	if (query_fields[t->field].kind == QF_TEXT) {
		char *tmp = NULL;

		sb_printf(w, "%scoalesce(%s %s, 0)", neg(t) ? "NOT " : "",
			  expr,
			  t->op == Q_RE || t->op == Q_NRE ? "REGEXP ?" :
			  t->op == Q_EQ || t->op == Q_NE ? "= ? COLLATE NOCASE" :
			  "LIKE ? ESCAPE '\\'");
		add_param_text(s, str_value(t->op, t->value, &tmp));
		free(tmp);
		return 0;
	}
	if (query_fields[t->field].kind == QF_ID) {
		struct wid_text {
			int64_t i;
		} v;

		sb_printf(w, "%s %s ?", expr,
			  t->op == Q_NE ? "!=" : "=");
		if (!parse_i64(t->value, strlen(t->value), &v.i))
			add_param_int(s, v.i);
		else
			add_param_text(s, t->value);
		return 0;
	}
	sb_printf(w, "%s %s ?", expr, cmp_op(t->op));
	add_param_int(s, t->num);
	return 0;
}

/* DMA rows are the only slices of DMA tracks, and the importer gives each
 * the packet's or transfer's queue type as its category: the term reads
 * s.cat there, with no join, and is false on every other track. */
static int queue_type_cond(struct search *s, const struct qterm *t)
{
	enum qop base = t->op == Q_NE ? Q_EQ : t->op == Q_HASNOT ? Q_HAS :
			t->op == Q_NRE ? Q_RE : t->op;
	char set[32];

	if (string_set(s, base, t->value, set, sizeof(set)))
		return -1;
	sb_printf(&s->where, "%s(s.cat IN %s AND t.kind IN ('dma', 'dma_xfer'))",
		  neg(t) ? "NOT " : "", set);
	return 0;
}

/* Whether args.KEY names column c: by its name, or a time column by the
 * name its profile gives it (dma_wait_time_ns for dma_wait_time). */
static int names_column(const struct column *c, const char *key)
{
	size_t n = strlen(c->name);

	if (!strcmp(c->name, key))
		return 1;
	return c->kind == CK_TIME && !strncmp(c->name, key, n) &&
	       !strcmp(key + n, "_ns");
}

/* An args.KEY term's value: the field in the args, or in the
 * instruction column of that name that the importer keeps it in. */
static void arg_value(const char *key, struct joins *j, struct strbuf *out)
{
	const struct typed_table *tt = &typed_tables[TT_instruction];

	for (size_t i = 0; i < tt->ncols; i++) {
		const struct column *c = &tt->cols[i];

		if (!names_column(c, key))
			continue;
		j->i = 1;
		sb_printf(out, c->kind == CK_STR ? "coalesce(json_extract(a.args,"
			  " ?), (SELECT str FROM string WHERE id = i.%s))" :
			  "coalesce(json_extract(a.args, ?), i.%s)", c->name);
		return;
	}
	sb_adds(out, "json_extract(a.args, ?)");
}

/* A free word's condition: the columns of its plan hold it. */
static void word_cond(struct search *s, const struct word_plan *wp,
		      struct joins *j)
{
	int cols = wp->cols;
	/* a layer is its instruction's category where no other event has
	 * that category: no join */
	const char *layer = cols & SU_CAT ? "i.layer" : "s.cat";
	const struct {
		int col;
		const char *expr;
	} parts[] = {
		{ SU_NAME, "s.name" }, { SU_HLO, "i.hlo_name" },
		{ SU_LAYER, layer }, { SU_QUEUE, "dp.queue" },
		{ SU_QUEUE, "dt.queue" },
	};
	int first = 1;

	for (size_t k = 0; k < NX_ARRAY_SIZE(parts); k++) {
		if (!(cols & parts[k].col))
			continue;
		sb_printf(&s->where, "%s%s IN %s", first ? "" : " OR ",
			  parts[k].expr, wp->set);
		first = 0;
	}
	j->i |= (cols & SU_HLO) || ((cols & SU_LAYER) && (cols & SU_CAT));
	j->d |= (cols & SU_QUEUE) != 0;
	if (cols & WORD_ROWS) {
		sb_printf(&s->where, "%ss.track_id IN %s", first ? "" : " OR ",
			  wp->rows);
		first = 0;
	}
	if (first)
		sb_adds(&s->where, "0");
}

/* The condition of a term as written, without its leading '-'; it may
 * be NULL where a joined table has no row (term_sql makes that false). */
static int term_cond(struct search *s, const struct qterm *t, struct joins *j)
{
	struct strbuf *w = &s->where, expr;
	int rc;

	if (t->field == F_WORD) {
		word_cond(s, &s->words[t - s->q.terms], j);
		return 0;
	}
	if (t->field == F_ENGINE || t->field == F_ROW) {
		struct strbuf tl;

		sb_init(&tl);
		if (track_set(s, base_op(t->op), t->value,
			      t->field == F_ENGINE ? "engine" : NULL, 0, &tl,
			      NULL, NULL)) {
			sb_free(&tl);
			return -1;
		}
		sb_printf(w, "s.track_id %sIN %s", neg(t) ? "NOT " : "", sb_cstr(&tl));
		sb_free(&tl);
		return 0;
	}
	if (t->field == F_ARG) {
		char *path = xasprintf("$.\"%s\"", t->arg);
		char *tmp = NULL;
		int64_t num;

		j->a = 1;
		add_param_text(s, path);
		free(path);
		sb_printf(w, "%scoalesce(", neg(t) ? "NOT " : "");
		arg_value(t->arg, j, w);
		sb_addc(w, ' ');
		if (t->op == Q_RE || t->op == Q_NRE)
			sb_adds(w, "REGEXP ?");
		else if (t->op == Q_HAS || t->op == Q_HASNOT)
			sb_adds(w, "LIKE ? ESCAPE '\\'");
		else
			sb_adds(w, "= ?");
		sb_adds(w, ", 0)");
		if ((t->op == Q_EQ || t->op == Q_NE) &&
		    !parse_i64(t->value, strlen(t->value), &num))
			add_param_int(s, num);
		else
			add_param_text(s, str_value(t->op, t->value, &tmp));
		free(tmp);
		return 0;
	}
	if (t->field == F_QUEUE_TYPE)
		return queue_type_cond(s, t);
	sb_init(&expr);
	target(t->field, j, &expr);
	rc = field_cond(s, t, sb_cstr(&expr));
	sb_free(&expr);
	return rc;
}

/* "-TERM" matches exactly the events TERM does not: the condition is made
 * 0 or 1 first, as NOT of a NULL (an event lacking a joined field) would
 * drop the event from both. A term not negated is left as it is: every
 * statement ANDs the conditions in its WHERE, where NULL drops the event
 * as 0 does, and SQLite tests a bare condition faster than coalesce(). */
static int term_sql(struct search *s, const struct qterm *t, struct joins *j)
{
	int rc;

	sb_adds(&s->where, t->negate ? "NOT coalesce((" : "(");
	rc = term_cond(s, t, j);
	sb_adds(&s->where, t->negate ? "), 0)" : ")");
	return rc;
}

/* Keeps of the tracks found so far those also in ids (which it takes). */
static void tracks_narrow(struct search *s, int64_t *ids, size_t n)
{
	size_t k = 0;

	if (s->any_track) {
		s->tracks = ids;
		s->ntracks = n;
		s->any_track = 0;
		return;
	}
	for (size_t a = 0; a < s->ntracks; a++)
		for (size_t b = 0; b < n; b++)
			if (s->tracks[a] == ids[b])
				s->tracks[k++] = s->tracks[a];
	s->ntracks = k;
	free(ids);
}

/* -opcode=X: every event of the rows that are not engines matches it. */
static int all_rows(const struct qterm *t)
{
	return t->field == F_OPCODE && t->negate;
}

/* A name, opcode, HLO name or layer term's condition on the strings of
 * the name set, into cond. Negated, a name term is the names that do not
 * match (every event has one), as is opcode!=X on the engine rows
 * (names_only_terms keeps those), and so is an HLO name or layer term
 * beside one that is not; when every one is negated (vcomp: events
 * without one match too), the set is the values any of them names, and
 * the matches the events of the others (*ncomp: those ORed so far). */
static void value_cond(const struct search *s, const struct qterm *t,
		       int *ncomp, struct strbuf *cond)
{
	const char *c = str_cond(t->op);

	if (s->vcomp && (t->field == F_HLO || t->field == F_LAYER))
		sb_printf(cond, (*ncomp)++ ? " OR %s" : " AND (%s", c);
	else if (!negated(t))
		sb_printf(cond, " AND %s", c);
	else if (t->field == F_NAME || t->field == F_OPCODE)
		sb_printf(cond, " AND NOT (%s) AND id IN (SELECT str FROM"
			  " string_use WHERE columns & %d)", c, SU_NAME);
	else
		sb_printf(cond, " AND NOT (%s)", c);
}

/* The name conditions of the terms into cond, their tracks into s. */
static int names_only_terms(struct search *s, struct strbuf *cond)
{
	struct strbuf tl;
	int rc = 0, ncomp = 0;

	sb_init(&tl);
	if (s->queue_rows) {
		int64_t *ids = xreallocarray(NULL, s->nqtracks + 1, sizeof(*ids));

		if (s->nqtracks)
			memcpy(ids, s->qtracks, s->nqtracks * sizeof(*ids));
		tracks_narrow(s, ids, s->nqtracks);
	}
	for (size_t i = 0; i < s->q.n && !rc; i++) {
		const struct qterm *t = &s->q.terms[i];
		int64_t *ids = NULL;
		size_t n = 0;

		if (t->field == F_NAME || t->field == F_OPCODE ||
		    t->field == F_HLO || t->field == F_LAYER) {
			s->any_name = 0;
			value_cond(s, t, &ncomp, cond);
		}
		if ((t->field != F_ENGINE && t->field != F_ROW &&
		     t->field != F_OPCODE) || all_rows(t))
			continue;
		sb_reset(&tl);
		rc = track_set(s, t->field == F_OPCODE ? Q_HAS : t->op,
			       t->field == F_OPCODE ? "" : t->value,
			       t->field == F_ROW ? NULL : "engine",
			       t->field != F_OPCODE && negated(t), &tl, &ids,
			       &n);
		tracks_narrow(s, ids, n);
	}
	if (ncomp)
		sb_adds(cond, ")");
	/* a layer is an instruction's category, not a DMA queue's */
	if (s->vfield == AGG_CAT)
		sb_printf(cond, " AND id IN (SELECT str FROM string_use WHERE"
			  " columns & %d)", SU_LAYER);
	sb_free(&tl);
	return rc;
}

/* A new temporary table for the name ids, named in s->nameset. */
static int nameset_create(struct search *s)
{
	char *sql;
	int rc;

	s->temps = xreallocarray(s->temps, (size_t)s->ntemp + 1, sizeof(*s->temps));
	s->temps[s->ntemp++] = ++temp_seq;
	snprintf(s->nameset, sizeof(s->nameset), "temp.nxq%d", temp_seq);
	sql = xasprintf("DROP TABLE IF EXISTS %s; CREATE TABLE %s(id INTEGER"
			" PRIMARY KEY)", s->nameset, s->nameset);
	rc = exec(s, sql);
	free(sql);
	return rc ? -1 : 0;
}

/* Fills the name set with the strings meeting every name condition. */
static int nameset_fill(struct search *s, const char *cond)
{
	struct strbuf q;
	sqlite3_stmt *st;
	int k = 0, rc;

	/* ?1 in each condition is renumbered to the term's own parameter */
	sb_init(&q);
	sb_printf(&q, "INSERT INTO %s SELECT id FROM string WHERE 1", s->nameset);
	for (const char *p = cond; *p; p++) {
		if (p[0] == '?' && p[1] == '1') {
			sb_printf(&q, "?%d", ++k);
			p++;
		} else {
			sb_addc(&q, *p);
		}
	}
	rc = sqlite3_prepare_v2(model_db(s->m), sb_cstr(&q), -1, &st, NULL);
	sb_free(&q);
	if (rc != SQLITE_OK)
		return model_fail(s->m, "search");
	k = 0;
	for (size_t i = 0; i < s->q.n; i++) {
		const struct qterm *t = &s->q.terms[i];
		char *tmp = NULL;

		if (t->field != F_NAME && t->field != F_OPCODE &&
		    t->field != F_HLO && t->field != F_LAYER)
			continue;
		sqlite3_bind_text(st, ++k, str_value(t->op, t->value, &tmp),
				  -1, SQLITE_TRANSIENT);
		free(tmp);
	}
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : model_fail(s->m, "search");
	sqlite3_finalize(st);
	return rc;
}

static void nameset_read(struct search *s)
{
	sqlite3_stmt *st;
	char *sql = xasprintf("SELECT id FROM %s", s->nameset);

	if (sqlite3_prepare_v2(model_db(s->m), sql, -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			s->names = xreallocarray(s->names, s->nnames + 1,
						 sizeof(*s->names));
			s->names[s->nnames++] = sqlite3_column_int64(st, 0);
		}
		sqlite3_finalize(st);
	}
	free(sql);
}

/* Whether some track of the profile keeps aggregates but not of the
 * query's field (its values vary too much there: agg.h): its events
 * are read. */
static int vfield_apart_find(struct search *s)
{
	sqlite3_stmt *st = prepare(s, "SELECT 1 FROM track WHERE profile_id = ?"
				   " AND n_events > 0 AND agg_fields & %u AND"
				   " NOT agg_fields & %u LIMIT 1", 1u << AGG_NAME,
				   1u << s->vfield);
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, s->profile);
	rc = row_exists(st);
	if (rc < 0)
		return model_fail(s->m, "search");
	s->vfield_apart = rc;
	return 0;
}

/* The events of a row without aggregates read to tell its names. */
#define OTHERS_READ_MAX 4096

static int agg_levels(const struct mtrack *t, int *name_level,
		      int *field_level, int *lmax);

/* Whether a track's events all have a name of the name set: 1 yes, 0
 * no or they cannot tell cheaply, -1 on error. */
static int all_named(struct search *s, const struct mtrack *t)
{
	int nl, fl, lmax, rc;
	sqlite3_stmt *st;

	if (!agg_levels(t, &nl, &fl, &lmax))
		st = prepare(s, "SELECT 1 FROM agg WHERE track_id = ?1 AND field"
			     " = %d AND level = (SELECT max(level) FROM agg WHERE"
			     " track_id = ?1 AND field = %d) AND value NOT IN %s"
			     " LIMIT 1", AGG_NAME, AGG_NAME, s->nameset);
	else if (t->n_events <= OTHERS_READ_MAX)
		st = prepare(s, "SELECT 1 FROM slice WHERE track_id = ?1 AND"
			     " name NOT IN %s LIMIT 1", s->nameset);
	else
		return 0;
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, t->id);
	rc = row_exists(st);
	return rc < 0 ? model_fail(s->m, "search") : !rc;
}

/* Whether -opcode=X may stand for the other names (the name set holds
 * them): the rows that are not engines, every event of which matches
 * it, have only those. If not, the query reads the events. */
static int opcode_others(struct search *s)
{
	struct mtrack *t;
	size_t nt;
	int ok = 1;

	if (model_tracks(s->m, s->profile, &t, &nt))
		return -1;
	for (size_t i = 0; i < nt && ok == 1; i++)
		if (!t[i].is_counter && t[i].n_events &&
		    (!t[i].kind || strcmp(t[i].kind, "engine")))
			ok = all_named(s, &t[i]);
	model_tracks_free(t, nt);
	if (ok == 0) {
		s->names_only = 0;
		s->num.field = -1;
	}
	return ok < 0 ? -1 : 0;
}

/* Name-only queries: one set of name ids, one set of tracks. */
static int names_only_setup(struct search *s)
{
	struct strbuf cond;
	int rc;

	sb_init(&cond);
	s->any_name = s->any_track = 1;
	rc = names_only_terms(s, &cond);
	if (!rc && !s->any_name) {
		rc = nameset_create(s);
		if (!rc)
			rc = nameset_fill(s, sb_cstr(&cond));
		if (!rc)
			nameset_read(s);
	}
	sb_free(&cond);
	for (size_t i = 0; i < s->q.n && !rc; i++)
		if (all_rows(&s->q.terms[i])) {
			rc = opcode_others(s);
			break;
		}
	if (!rc && s->names_only && s->vfield != AGG_NAME)
		rc = vfield_apart_find(s);
	return rc;
}

/* Whether a term is one names_only_setup turns into names and tracks. */
static int name_term(const struct qterm *t)
{
	/* negated, a name or row term stands for the other names or rows,
	 * and opcode!=X (an engine row's name) for the engine rows' other
	 * names; -opcode=X, which every event of the other rows matches,
	 * for the other names where those rows have none of its names
	 * (opcode_others), and -opcode!=X for no set of either */
	if (t->field == F_NAME || t->field == F_ENGINE || t->field == F_ROW)
		return 1;
	return t->field == F_OPCODE && (!t->negate || !neg(t));
}

/* A queue_type term that may stand for the DMA rows it matches whole. */
static int queue_term(const struct qterm *t)
{
	return t->field == F_QUEUE_TYPE && !t->negate && !neg(t);
}

/* The DMA rows of the profile all of whose events a queue_type term
 * matches, into ids, as the coarsest category aggregates count them,
 * and the rows without aggregates of numbers (their events are read and
 * the term tested on each): 1 when every other DMA row has no match, 0
 * when a row mixes matches and others (or its aggregates cannot tell),
 * -1 on error. */
static int queue_rows(struct search *s, const struct qterm *t, int64_t **ids,
		      size_t *n)
{
	char set[32];
	sqlite3_stmt *st;
	int rc = SQLITE_DONE, clean = 1;

	if (string_set(s, t->op, t->value, set, sizeof(set)))
		return -1;
	st = prepare(s, "SELECT t.id, t.n_events, t.agg_fields,"
		     " coalesce(sum(a.n), 0), coalesce(sum(CASE WHEN a.value IN"
		     " %s THEN a.n END), 0) FROM track t LEFT JOIN agg a ON"
		     " a.track_id = t.id AND a.field = %d AND a.level = (SELECT"
		     " max(level) FROM agg WHERE track_id = t.id AND field = %d)"
		     " WHERE t.profile_id = ? AND t.kind IN ('dma', 'dma_xfer')"
		     " AND t.n_events > 0 GROUP BY t.id", set, AGG_CAT, AGG_CAT);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, s->profile);
	while (clean && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t events = sqlite3_column_int64(st, 1);
		int64_t all = sqlite3_column_int64(st, 3);
		int64_t in = sqlite3_column_int64(st, 4);

		unsigned fields = (unsigned)sqlite3_column_int(st, 2);

		/* a row without aggregates of numbers has its events read */
		if (!(fields & (1u << AGG_DUR | 1u << AGG_SIZE)))
			in = all = events;
		else if (!(fields & 1u << AGG_CAT) || all != events)
			clean = 0;
		clean = clean && (in == 0 || in == all);
		if (clean && in) {
			*ids = xreallocarray(*ids, *n + 1, sizeof(**ids));
			(*ids)[(*n)++] = sqlite3_column_int64(st, 0);
		}
	}
	if (clean && rc != SQLITE_DONE)
		clean = model_fail(s->m, "search");
	sqlite3_finalize(st);
	return clean;
}

/* Whether the queue_type terms name whole DMA rows (their intersection
 * into s->qtracks), so that comparisons beside them read aggregates. */
static int queue_rows_setup(struct search *s)
{
	for (size_t i = 0; i < s->q.n; i++) {
		const struct qterm *t = &s->q.terms[i];
		int64_t *ids = NULL;
		size_t n = 0, k = 0;
		int rc;

		if (t->field != F_QUEUE_TYPE)
			continue;
		rc = queue_term(t) ? queue_rows(s, t, &ids, &n) : 0;
		if (rc <= 0) {
			free(ids);
			free(s->qtracks);
			s->qtracks = NULL;
			s->nqtracks = 0;
			s->queue_rows = 0;
			return rc;
		}
		for (size_t a = 0; s->queue_rows && a < s->nqtracks; a++)
			for (size_t b = 0; b < n; b++)
				if (s->qtracks[a] == ids[b])
					s->qtracks[k++] = s->qtracks[a];
		if (s->queue_rows) {
			free(ids);
			s->nqtracks = k;
		} else {
			s->qtracks = ids;
			s->nqtracks = n;
			s->queue_rows = 1;
		}
	}
	return 0;
}

/* An HLO name term that the HLO aggregates may answer as names_only
 * terms answer names (negated: vcomp). */
static int hlo_term(const struct qterm *t)
{
	return t->field == F_HLO;
}

/* A layer term that the category aggregates may answer as names_only
 * terms answer names: where the profile's layers are categories of
 * instructions alone (layers_agg). */
static int layer_term(const struct search *s, const struct qterm *t)
{
	return t->field == F_LAYER && s->layers_agg;
}

/* Whether every term but the queue_type terms that whole DMA rows
 * answer is one of names and tracks, of HLO names and tracks, or of
 * layers and tracks (the aggregates count names, HLO names and
 * categories apart, never together); the aggregates' field of those
 * values into *vfield. */
static int names_beside_queue(const struct search *s, int *vfield,
			      int *comp)
{
	int names = 0, hlos = 0, layers = 0, negs = 0;

	for (size_t i = 0; i < s->q.n; i++) {
		const struct qterm *t = &s->q.terms[i];

		if (s->queue_rows && queue_term(t))
			continue;
		if (hlo_term(t))
			hlos++;
		else if (layer_term(s, t))
			layers++;
		else if (!name_term(t))
			return 0;
		else
			names |= t->field == F_NAME || t->field == F_OPCODE;
		negs += (hlo_term(t) || layer_term(s, t)) && negated(t);
	}
	*vfield = hlos ? AGG_HLO : layers ? AGG_CAT : AGG_NAME;
	if (names + !!hlos + !!layers > 1)
		return 0;
	/* all negated: the complement of the values any of them names */
	*comp = negs && negs == hlos + layers;
	return 1;
}

/* Whether the profile's layers are the categories of their instructions
 * and of no other event: no string is known as both, and none is held
 * apart (string_use's rows 0 and SU_LAYER_APART). Read only for a query
 * with a layer term. */
static int layers_agg_find(struct search *s)
{
	sqlite3_stmt *st;
	int rc, any = 0;

	for (size_t i = 0; i < s->q.n; i++)
		any |= s->q.terms[i].field == F_LAYER;
	if (!any)
		return 0;
	st = prepare(s, "SELECT 1 FROM string_use WHERE str IN (0, %d) OR"
		     " columns & %d = %d LIMIT 1", SU_LAYER_APART,
		     SU_LAYER | SU_CAT, SU_LAYER | SU_CAT);
	if (!st)
		return -1;
	rc = row_exists(st);
	if (rc < 0)
		return model_fail(s->m, "search");
	s->layers_agg = !rc;
	return 0;
}

static struct numterm num_term(const struct search *s)
{
	const struct query *q = &s->q;
	const struct numterm none = { .field = -1 };
	struct numterm n[2] = { { .field = AGG_DUR }, { .field = AGG_SIZE } };
	int names = 0;

	for (size_t i = 0; i < q->n; i++) {
		const struct qterm *t = &q->terms[i];
		struct numterm *k = &n[t->field != F_DUR];

		if (s->queue_rows && queue_term(t))
			continue;
		if (name_term(t)) {
			names |= t->field == F_NAME || t->field == F_OPCODE;
			continue;
		}
		if (t->negate || (t->field != F_DUR && t->field != F_TRANSFER_SIZE) ||
		    t->op == Q_HAS || t->op == Q_HASNOT || t->op == Q_RE ||
		    t->op == Q_NRE || k->ncmp == NUM_MAX)
			return none;
		k->cmp[k->ncmp++] = (struct numcmp){ t->op, t->num };
	}
	if (n[1].ncmp && (n[0].ncmp || names)) {
		/* dur comparisons or names beside size comparisons: the dur
		 * aggregates, by name, rule buckets out; the size rows of a
		 * bucket, or its events, decide the rest */
		n[0].partial = 1;
		n[0].nsize = n[1].ncmp;
		memcpy(n[0].size, n[1].cmp, sizeof(n[0].size));
		return n[0];
	}
	if (n[0].ncmp)
		return n[0];
	if (n[1].ncmp)
		return n[1];
	/* engine and row terms alone: every event of their rows, counted
	 * by the dur aggregates, which hold them all, finest of all fields */
	return names ? none : n[0];
}

/* The plan of free word t: its strings and rows, and the columns that
 * hold those strings (string_use; SU_CAT too where a layer is not found
 * by its category). */
static int word_plan(struct search *s, const struct qterm *t,
		     struct word_plan *wp)
{
	struct strbuf tl;
	int64_t *ids = NULL;
	size_t n = 0;
	sqlite3_stmt *st;
	int rc;

	sb_init(&tl);
	rc = track_set(s, t->op, t->value, NULL, 0, &tl, &ids, &n);
	wp->row_ids = ids;
	wp->nrows = n;
	wp->rows = sb_detach(&tl);
	if (rc || string_set(s, t->op, t->value, wp->set, sizeof(wp->set)))
		return -1;
	st = prepare(s, "SELECT DISTINCT columns FROM string_use WHERE str"
		     " IN (0, %d) OR str IN %s", SU_LAYER_APART, wp->set);
	if (!st)
		return -1;
	wp->cols = n ? WORD_ROWS : 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		wp->cols |= sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : model_fail(s->m, "search");
}

/* Free words that can match names alone, rows alone, or HLO names
 * alone are planned as name, row and HLO terms (name~word, row=/re/,
 * hlo~word), which the aggregates answer; the others test only the
 * columns that may hold them. */
static int words_plan(struct search *s)
{
	s->words = xcalloc(s->q.n ? s->q.n : 1, sizeof(*s->words));
	for (size_t i = 0; i < s->q.n; i++) {
		struct qterm *t = &s->q.terms[i];
		int cols;

		if (t->field != F_WORD)
			continue;
		if (word_plan(s, t, &s->words[i]))
			return -1;
		cols = s->words[i].cols;
		if (!(cols & (SU_HLO | SU_LAYER | SU_QUEUE | WORD_ROWS)))
			t->field = F_NAME;
		else if (!(cols & (SU_HLO | SU_LAYER | SU_QUEUE | SU_NAME)))
			t->field = F_ROW;
		else if (!(cols & (SU_LAYER | SU_QUEUE | SU_NAME | WORD_ROWS)))
			t->field = F_HLO;
		else if (!(cols & (SU_HLO | SU_QUEUE | SU_NAME | WORD_ROWS)))
			t->field = F_LAYER;
	}
	return 0;
}

/* The typed tables (1 << TT_*) a term holds only where the event has a
 * row of: those with a column of its field; none for a term that may
 * read a system event's, a slice's own column or the args, nor for a
 * negated one, which holds where the row is missing. */
static unsigned term_tables(const struct qterm *q)
{
	unsigned tables = 0;

	if (q->negate || neg(q) || slice_targets[q->field] ||
	    fallback_targets[q->field])
		return 0;
	for (int k = 0; k < TT_COUNT; k++)
		for (size_t c = 0; c < typed_tables[k].ncols; c++)
			if (typed_tables[k].cols[c].field == q->field)
				tables |= 1u << k;
	return tables;
}

/* A term that holds only where the event has an instruction row. */
static int instr_term(const struct qterm *q)
{
	return term_tables(q) == 1u << TT_instruction;
}

/* Whether only instructions can match the query: one of its terms is
 * an instr_term (the others then hold or not on instructions alone). */
static int instr_query(const struct search *s)
{
	for (size_t i = 0; i < s->q.n; i++)
		if (instr_term(&s->q.terms[i]))
			return 1;
	return 0;
}

/* A join for both ways of reading the events (from_i only when used). */
static void joins_more(struct strbuf *from, struct strbuf *from_i,
		       const char *join)
{
	sb_adds(from, join);
	if (from_i->len)
		sb_adds(from_i, join);
}

static void allpass_clear(struct allpass *ap)
{
	for (size_t i = 0; i < ap->nrows; i++) {
		free(ap->rows[i].hits);
		free(ap->rows[i].durs);
	}
	free(ap->rows);
	memset(ap, 0, sizeof(*ap));
}

/* Whether the query is one free word that only names and layers hold,
 * the layers as categories (word_cond: no other event has one as its
 * category). */
static int word_splits(const struct search *s)
{
	const struct qterm *t = &s->q.terms[0];

	return s->q.n == 1 && t->field == F_WORD && !t->negate && !neg(t) &&
	       (s->words[0].cols & ~WORD_ROWS) == (SU_NAME | SU_LAYER);
}

static int profile_start(struct search *s)
{
	struct mprofile p;

	if (model_profile(s->m, s->profile, &p))
		return -1;
	s->pstart = p.start;
	model_profile_clear(&p);
	return 0;
}

struct search *search_new(struct model *m, int64_t profile, const char *text,
			  char **err)
{
	struct query q;
	struct search *s;

	if (query_parse(text, &q, err))
		return NULL;
	s = search_new_query(m, profile, &q, err);
	if (s) {
		free(s->text);
		s->text = xstrdup(text);
	}
	return s;
}

struct search *search_new_query(struct model *m, int64_t profile,
				struct query *q, char **err)
{
	struct search *s = xcalloc(1, sizeof(*s));
	struct joins j = { 0, 0, 0, 0 };
	struct strbuf text;

	s->m = m;
	s->profile = profile;
	s->any_name = s->any_track = 1;
	s->q = *q;
	*q = (struct query){ NULL, 0 };
	sb_init(&text);
	query_format(&s->q, &text);
	s->text = sb_detach(&text);
	sb_init(&s->from);
	sb_init(&s->from_i);
	sb_init(&s->where);
	*err = NULL;
	if (!s->q.n) {
		*err = xstrdup("empty query");
		search_free(s);
		return NULL;
	}
	query_append(&s->shown, &s->q);
	if (profile_start(s) || words_plan(s))
		goto fail;
	sb_printf(&s->where, "t.profile_id = %" PRId64, profile);
	for (size_t i = 0; i < s->q.n; i++) {
		sb_adds(&s->where, " AND ");
		if (term_sql(s, &s->q.terms[i], &j))
			goto fail;
	}
	sb_adds(&s->from, "slice s JOIN track t ON t.id = s.track_id");
	if (j.i)
		sb_adds(&s->from, " LEFT JOIN instruction i ON i.slice_id = s.id");
	s->by_instr = j.i && instr_query(s);
	if (s->by_instr)
		sb_adds(&s->from_i, "instruction i CROSS JOIN slice s ON s.id ="
			" i.slice_id JOIN track t ON t.id = s.track_id");
	if (j.d)
		joins_more(&s->from, &s->from_i, " LEFT JOIN dma_packet dp ON"
			   " dp.slice_id = s.id LEFT JOIN dma_transfer dt ON"
			   " dt.slice_id = s.id");
	if (j.se)
		joins_more(&s->from, &s->from_i, " LEFT JOIN sys_event se ON"
			   " se.slice_id = s.id");
	if (j.a)
		joins_more(&s->from, &s->from_i, " LEFT JOIN arg a ON"
			   " a.slice_id = s.id");
	if (queue_rows_setup(s))
		goto fail;
	if (layers_agg_find(s))
		goto fail;
	s->names_only = names_beside_queue(s, &s->vfield, &s->vcomp);
	s->num = num_term(s);
	s->word_split = word_splits(s);
	if ((s->names_only || s->num.field >= 0) && names_only_setup(s))
		goto fail;
	return s;
fail:
	*err = xstrdup(err_get());
	search_free(s);
	return NULL;
}

void search_free(struct search *s)
{
	if (!s)
		return;
	sqlite3_finalize(s->st_range);
	sqlite3_finalize(s->st_num);
	sqlite3_finalize(s->st_one);
	sqlite3_finalize(s->st_durs);
	sqlite3_finalize(s->st_durs_all);
	for (int i = 0; i < 2; i++) {
		sqlite3_finalize(s->step_ev[i]);
		sqlite3_finalize(s->step_bucket[i]);
		sqlite3_finalize(s->step_cand[i]);
		sqlite3_finalize(s->step_word[i][0]);
		sqlite3_finalize(s->step_word[i][1]);
	}
	model_tracks_free(s->step_tracks, s->step_nt);
	free(s->memo[0]);
	free(s->memo[1]);
	free(s->memo_off);
	for (size_t i = 0; i < s->ncls; i++)
		free(s->cls[i].v);
	free(s->cls);
	free(s->on);
	free(s->won);
	free(s->wfield);
	for (int i = 0; i < s->ntemp; i++) {
		char sql[64];

		snprintf(sql, sizeof(sql), "DROP TABLE IF EXISTS temp.nxq%d",
			 s->temps[i]);
		sqlite3_exec(model_db(s->m), sql, NULL, NULL, NULL);
	}
	free(s->temps);
	for (size_t i = 0; i < s->nparams; i++)
		free(s->params[i].s);
	free(s->params);
	for (size_t i = 0; s->words && i < s->q.n; i++) {
		free(s->words[i].rows);
		free(s->words[i].row_ids);
	}
	free(s->words);
	query_free(&s->q);
	query_free(&s->shown);
	sb_free(&s->from);
	sb_free(&s->from_i);
	allpass_clear(&s->ap);
	sb_free(&s->where);
	free(s->names);
	free(s->tracks);
	free(s->qtracks);
	free(s->text);
	free(s);
}

const char *search_text(const struct search *s)
{
	return s->text;
}

const char *search_hint(const struct search *s)
{
	return query_hint(&s->shown);
}

const struct query *search_query(const struct search *s)
{
	return &s->shown;
}

int search_reads_events(const struct search *s)
{
	return (!s->names_only && s->num.field < 0) || s->vfield_apart;
}

static int dma_track(const struct mtrack *t)
{
	return t->kind && (!strcmp(t->kind, "dma") ||
			   !strcmp(t->kind, "dma_xfer"));
}

/* Whether a term that holds only where the event has a row of a typed
 * table (term_tables) rules out a track of its kind: instructions are
 * the events of the engine rows, DMA packets and transfers those of the
 * DMA rows (the importers write them so), so a term on their columns
 * alone (pc, operands, variable...) holds on no other row. */
static int typed_excludes(const struct qterm *q, const struct mtrack *t)
{
	unsigned tables = term_tables(q);

	if (!tables || (tables & (1u << TT_sys_event)))
		return 0;
	if ((tables & (1u << TT_instruction)) && t->kind &&
	    !strcmp(t->kind, "engine"))
		return 0;
	if ((tables & (1u << TT_dma_packet | 1u << TT_dma_transfer)) &&
	    dma_track(t))
		return 0;
	return 1;
}

/* Whether a term rules the whole track out: a duration above the
 * track's longest, an opcode off the engine rows, a queue type off the
 * DMA rows, a typed column off the rows of its table's events. */
static int term_excludes(const struct qterm *q, const struct mtrack *t)
{
	if (q->negate)
		return 0;
	if (typed_excludes(q, t))
		return 1;
	if (q->field == F_DUR)
		return (q->op == Q_GT && t->max_dur <= q->num) ||
		       (q->op == Q_GE && t->max_dur < q->num);
	if (q->field == F_QUEUE_TYPE)
		return !neg(q) && !dma_track(t);
	return q->field == F_OPCODE && (!t->kind || strcmp(t->kind, "engine"));
}

/* The levels a track's aggregates were built at (as the writer chose). */
static int agg_levels(const struct mtrack *t, int *name_level,
		      int *field_level, int *lmax)
{
	int64_t span = NX_MAX(t->max_ts - t->min_ts, 1);

	if (t->lod_level < 0 || t->agg_level < 0 ||
	    !(t->agg_fields & (1u << AGG_NAME)))
		return -1;
	*lmax = NX_MAX(lod_level_for(span), t->lod_level);
	*name_level = t->agg_level;
	*field_level = agg_field_level(span, t->n_events, *name_level);
	return 0;
}

/* The levels a track's aggregates of a string field are read at: from
 * *lo (names: the name level; HLO names, categories: the field level)
 * up to *lmax; -1 when the track keeps none of its values. */
static int field_levels(const struct mtrack *t, int field, int *lo,
			int *lmax)
{
	int nl, fl;

	if (agg_levels(t, &nl, &fl, lmax) || !(t->agg_fields & (1u << field)))
		return -1;
	*lo = field == AGG_NAME ? nl : fl;
	return 0;
}

/* The same for a name-only query's field. */
static int value_levels(const struct search *s, const struct mtrack *t,
			int *lo, int *lmax)
{
	return field_levels(t, s->vfield, lo, lmax);
}

/* The levels [*lo, *hi] of a track's AGG_DUR or AGG_SIZE aggregates
 * (agg_num_levels), -1 when it has no aggregates. */
static int track_num_levels(const struct mtrack *t, enum agg_field f,
			    int *lo, int *hi, int *named)
{
	int nl, fl, lmax;

	if (agg_levels(t, &nl, &fl, &lmax))
		return -1;
	agg_num_levels(f, NX_MAX(t->max_ts - t->min_ts, 1), t->n_events, nl,
		       lmax, lo, hi, named);
	return 0;
}

/* The aggregate rows counting matches: those of field whose value is in
 * set; with comp (a negated HLO name or layer term, vcomp), the events
 * whose value is not in set or who have none: every event's name row
 * counts for, the rows of field in set against. */
struct vmatch {
	int field;
	const char *set;
	int comp;
};

#define VM_SQL 128

/* The condition selecting m's rows of agg. */
static const char *vm_rows(const struct vmatch *m, char *buf)
{
	if (m->comp)
		snprintf(buf, VM_SQL, "(field = %d OR (field = %d AND value IN"
			 " %s))", AGG_NAME, m->field, m->set);
	else
		snprintf(buf, VM_SQL, "field = %d AND value IN %s", m->field,
			 m->set);
	return buf;
}

/* What a row of m adds to the matches' col (n or dur): sum() it. */
static const char *vm_part(const struct vmatch *m, const char *col, char *buf)
{
	if (m->comp)
		snprintf(buf, VM_SQL, "CASE field WHEN %d THEN %s ELSE -%s END",
			 AGG_NAME, col, col);
	else
		snprintf(buf, VM_SQL, "%s", col);
	return buf;
}

/* The name-only query's own rows. */
static struct vmatch vm_query(const struct search *s)
{
	return (struct vmatch){ s->vfield, s->nameset, s->vcomp };
}

/* Those of a free word's field f and strings in set. */
static struct vmatch vm_of(int f, const char *set)
{
	return (struct vmatch){ f, set, 0 };
}

/* Whether the coarsest aggregates of track t hold a match of m: 1 yes,
 * 0 no, -1 they cannot tell. */
static int agg_holds(struct search *s, const struct mtrack *t,
		     const struct vmatch *m)
{
	char rows[VM_SQL], part[VM_SQL];
	sqlite3_stmt *st;

	if (!(t->agg_fields & (1u << m->field)))
		return -1;
	/* the names' levels end where the field's do, and a row without
	 * the field's values has the names' */
	st = prepare(s, "SELECT 1 FROM (SELECT sum(%s) AS k FROM agg WHERE"
		     " track_id = ?1 AND %s AND level = (SELECT max(level) FROM"
		     " agg WHERE track_id = ?1 AND field = %d)) WHERE k > 0",
		     vm_part(m, "n", part), vm_rows(m, rows),
		     m->comp ? AGG_NAME : m->field);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, t->id);
	return row_exists(st);
}

/* A track's answer kept in on[0..*n), -1 for none yet; on_keep keeps
 * one. */
static int on_find(const struct name_on *on, size_t n, int64_t track)
{
	for (size_t i = 0; i < n; i++)
		if (on[i].track == track)
			return on[i].has;
	return -1;
}

static int on_keep(struct name_on **on, size_t *n, int64_t track, int has)
{
	*on = xreallocarray(*on, *n + 1, sizeof(**on));
	(*on)[(*n)++] = (struct name_on){ track, has };
	return has;
}

/* Whether some event of a track may have a matching name: when the
 * query names some, its coarsest name aggregates hold one (read once
 * per search); 1 where they cannot tell or fail to be read (its events
 * then say). */
static int names_on(struct search *s, const struct mtrack *t)
{
	struct vmatch m = vm_query(s);
	int nl, fl, lmax, rc;

	if (s->any_name || (!s->names_only && s->num.field < 0) ||
	    agg_levels(t, &nl, &fl, &lmax))
		return 1;
	rc = on_find(s->on, s->non, t->id);
	if (rc >= 0)
		return rc;
	rc = agg_holds(s, t, &m);
	return rc < 0 ? 1 : on_keep(&s->on, &s->non, t->id, rc);
}

/* Whether free word plan wp may match an event of track t: it names
 * the row, or the coarsest aggregates of a column it may be in (names,
 * categories, which hold the layers, HLO names) hold one of its
 * strings; 1 where they cannot tell (DMA queues keep none). */
static int word_on(struct search *s, const struct word_plan *wp,
		   const struct mtrack *t)
{
	static const struct {
		int cols;
		int field;
	} agg_of[] = {
		{ SU_NAME, AGG_NAME }, { SU_LAYER | SU_CAT, AGG_CAT },
		{ SU_HLO, AGG_HLO },
	};
	int nl, fl, lmax;

	if ((wp->cols & SU_QUEUE) || agg_levels(t, &nl, &fl, &lmax))
		return 1;
	for (size_t i = 0; i < wp->nrows; i++)
		if (wp->row_ids[i] == t->id)
			return 1;
	for (size_t k = 0; k < NX_ARRAY_SIZE(agg_of); k++) {
		struct vmatch m = vm_of(agg_of[k].field, wp->set);

		if ((wp->cols & agg_of[k].cols) && agg_holds(s, t, &m))
			return 1;
	}
	return 0;
}

/* Whether every free word of the query may match an event of track t
 * (word_on), read once per track and search. */
static int words_on(struct search *s, const struct mtrack *t)
{
	int has = on_find(s->won, s->nwon, t->id);

	if (has >= 0)
		return has;
	has = 1;
	for (size_t i = 0; i < s->q.n && has; i++) {
		const struct qterm *q = &s->q.terms[i];

		if (q->field == F_WORD && !q->negate && !neg(q))
			has = word_on(s, &s->words[i], t);
	}
	return on_keep(&s->won, &s->nwon, t->id, has);
}

/* The field whose aggregates count the matches of a word_split query
 * on track t: the names' where, in every bucket of the categories'
 * finest level, no event holds the word as its layer or every event
 * holds it as its name (so the events holding it as a layer hold it as
 * a name too); else the categories' where no event holds it as a name
 * or every event holds it as its layer; -1 where neither is so (or the
 * word names the row, which all of its events then match): the events
 * are read. Read once per track and search. */
static int word_field(struct search *s, const struct mtrack *t)
{
	const struct word_plan *wp = &s->words[0];
	int f = on_find(s->wfield, s->nwfield, t->id), nl, fl, lmax;
	sqlite3_stmt *st;

	if (!s->word_split)
		return -1;
	if (f >= 0)
		return f - 1;
	f = -1;
	for (size_t i = 0; i < wp->nrows; i++)
		if (wp->row_ids[i] == t->id)
			goto keep;
	if (agg_levels(t, &nl, &fl, &lmax) || fl < nl ||
	    !(t->agg_fields & (1u << AGG_CAT)))
		goto keep;
	st = prepare(s, "SELECT sum(nl > 0 AND nn < n), sum(nn > 0 AND nl < n)"
		     " FROM (SELECT sum(n * (field = %d)) AS n, sum(n * (field ="
		     " %d AND value IN %s)) AS nn, sum(n * (field = %d AND value"
		     " IN %s)) AS nl FROM agg WHERE track_id = ? AND field IN"
		     " (%d, %d) AND level = ? GROUP BY bucket)", AGG_NAME,
		     AGG_NAME, wp->set, AGG_CAT, wp->set, AGG_NAME, AGG_CAT);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, t->id);
	sqlite3_bind_int(st, 2, fl);
	if (sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_type(st, 0) != SQLITE_NULL)
		f = !sqlite3_column_int64(st, 0) ? AGG_NAME :
		    !sqlite3_column_int64(st, 1) ? AGG_CAT : -1;
	sqlite3_finalize(st);
keep:
	return on_keep(&s->wfield, &s->nwfield, t->id, f + 1) - 1;
}

static int track_allowed(struct search *s, const struct mtrack *t)
{
	size_t i;

	for (i = 0; i < s->q.n; i++)
		if (term_excludes(&s->q.terms[i], t))
			return 0;
	if (!names_on(s, t) || !words_on(s, t))
		return 0;
	if (s->any_track)
		return 1;
	for (i = 0; i < s->ntracks; i++)
		if (s->tracks[i] == t->id)
			return 1;
	return 0;
}

/* Whether a track's duration aggregates keep no names while the query
 * names some: its name buckets then tell (struct name_cls). */
static int names_apart(const struct search *s, const struct mtrack *t)
{
	int lo, hi, named;

	if (s->num.field != AGG_DUR || s->any_name ||
	    track_num_levels(t, AGG_DUR, &lo, &hi, &named))
		return 0;
	return !named;
}

/* The name buckets of a track (names_apart), read once per search:
 * one row per bucket of its name level. */
static int name_cls_load(struct search *s, const struct mtrack *t,
			 struct name_cls *c)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	*c = (struct name_cls){ t->id, t->agg_level, NULL, 0 };
	st = prepare(s, "SELECT bucket, sum(n), coalesce(sum(CASE WHEN value IN"
		     " %s THEN n END), 0) FROM agg WHERE track_id = ? AND"
		     " field = %d AND level = ? GROUP BY bucket ORDER BY bucket",
		     s->nameset, AGG_NAME);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, t->id);
	sqlite3_bind_int(st, 2, c->level);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		c->v = xgrow(c->v, &cap, c->n + 1, sizeof(*c->v));
		c->v[c->n++] = (struct name_bucket){ sqlite3_column_int64(st, 0),
			sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2) };
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : model_fail(s->m, "search");
}

/* The name buckets of a track into *out, NULL when its duration
 * aggregates keep names themselves (or none are named). */
static int name_cls_get(struct search *s, const struct mtrack *t,
			const struct name_cls **out)
{
	*out = NULL;
	if (!names_apart(s, t))
		return 0;
	for (size_t i = 0; i < s->ncls; i++) {
		if (s->cls[i].track == t->id) {
			*out = &s->cls[i];
			return 0;
		}
	}
	s->cls = xreallocarray(s->cls, s->ncls + 1, sizeof(*s->cls));
	if (name_cls_load(s, t, &s->cls[s->ncls])) {
		free(s->cls[s->ncls].v);
		return -1;
	}
	*out = &s->cls[s->ncls++];
	return 0;
}

/* Buckets [b0, b1) of a level as buckets [*lo, *hi) of the name level. */
static void name_span(const struct name_cls *c, int level, int64_t b0,
		      int64_t b1, int64_t *lo, int64_t *hi)
{
	if (level >= c->level) {
		*lo = b0 * lod_width(level - c->level);
		*hi = b1 * lod_width(level - c->level);
	} else {
		*lo = lod_floor_shift(b0, 2 * (c->level - level));
		*hi = lod_floor_shift(b1 - 1, 2 * (c->level - level)) + 1;
	}
}

/* The first name bucket at or after b. */
static size_t name_at(const struct name_cls *c, int64_t b)
{
	size_t lo = 0, hi = c->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->v[mid].b < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Of the events of bucket b of a level: 0 if none has a matching name,
 * 1 if all have, 2 if it cannot tell. */
static int name_class(const struct name_cls *c, int level, int64_t b)
{
	int64_t lo, hi;
	int some = 0, all = 1;

	name_span(c, level, b, b + 1, &lo, &hi);
	for (size_t i = name_at(c, lo); i < c->n && c->v[i].b < hi; i++) {
		some |= c->v[i].in > 0;
		all &= c->v[i].in == c->v[i].n;
	}
	return !some ? 0 : all ? 1 : 2;
}

/* The levels a comparison's aggregates hold for a track, [*lo, *hi],
 * and the one whose buckets count a range; -1 when the track has none. */
static int num_levels(const struct search *s, const struct mtrack *t,
		      int *lo, int *hi, int *whole)
{
	int named;

	if (s->num.field < 0 || !(t->agg_fields & (1u << s->num.field)) ||
	    track_num_levels(t, s->num.field, lo, hi, &named))
		return -1;
	*whole = named ? *hi : *lo;
	return 0;
}

static int num_holds(const struct numcmp *c, int64_t v)
{
	switch (c->op) {
	case Q_GT: return v > c->x;
	case Q_GE: return v >= c->x;
	case Q_LT: return v < c->x;
	case Q_LE: return v <= c->x;
	case Q_NE: return v != c->x;
	default: return v == c->x;
	}
}

/* Of values in [lo, hi]: 1 if all meet the comparison, 0 if none, -1 if
 * it cannot tell. */
static int cmp_class(const struct numcmp *c, int64_t lo, int64_t hi)
{
	int a = num_holds(c, lo), b = num_holds(c, hi);

	if (c->op == Q_EQ || c->op == Q_NE) {
		if (lo == hi)
			return a;
		if (c->x < lo || c->x > hi)
			return c->op == Q_NE;
		return -1;
	}
	return a && b ? 1 : !a && !b ? 0 : -1;
}

/* Of values in [lo, hi]: 1 if all meet the nc comparisons c, 0 if none,
 * -1 if it cannot tell. */
static int cmps_class(const struct numcmp *c, int nc, int64_t lo, int64_t hi)
{
	int all = 1;

	for (int i = 0; i < nc; i++) {
		int k = cmp_class(&c[i], lo, hi);

		if (k == 0)
			return 0;
		all &= k > 0;
	}
	return all ? 1 : -1;
}

/* Of events whose values lie in [lo, hi]: 1 if all match the
 * comparisons, 0 if none, -1 if it cannot tell (always, short of 0,
 * when other comparisons are left to the events). */
static int num_class(const struct numterm *n, int64_t lo, int64_t hi)
{
	int k = cmps_class(n->cmp, n->ncmp, lo, hi);

	return k > 0 && n->partial ? -1 : k;
}

static int name_in(const struct search *s, int64_t name)
{
	size_t lo = 0, hi = s->nnames;

	if (s->any_name)
		return 1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->names[mid] == name)
			return 1;
		if (s->names[mid] < name)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* Binds ?1 track, ?2 level and ?3, ?4 a range of its buckets. */
static void bind_buckets(sqlite3_stmt *st, int64_t track, int level,
			 int64_t b0, int64_t b1)
{
	sqlite3_bind_int64(st, 1, track);
	sqlite3_bind_int(st, 2, level);
	sqlite3_bind_int64(st, 3, b0);
	sqlite3_bind_int64(st, 4, b1);
}

/* One bucket of a comparison's aggregates: the matches it counts
 * exactly, or straddle when some of its events must be read. */
struct num_bucket {
	int64_t b, n, dur;
	int straddle;
	/* partial: the matches but for the size comparisons, every event
	 * of the bucket, and whether its durations alone cannot tell */
	int64_t pn, pdur, events;
	int hard;
};

/* One bucket of transfer_size comparisons: its events with a size, and
 * whether every size matches (all) or none does. */
struct size_bucket {
	int64_t b, n;
	int all, none;
};

static int size_buckets(struct search *s, const struct mtrack *t, int level,
			int64_t b0, int64_t b1, const struct numcmp *c,
			int nc, struct size_bucket **v, size_t *n);

/* Whether a track keeps the sizes of all its events at a level. */
static int size_level(const struct mtrack *t, int level)
{
	int lo, hi, named;

	if (!(t->agg_fields & (1u << AGG_SIZE)) ||
	    track_num_levels(t, AGG_SIZE, &lo, &hi, &named))
		return 0;
	return level >= lo && level <= hi;
}

/* Partial comparisons beside transfer_size ones: where the level keeps
 * sizes, a bucket without a sized event, or with none matching, has no
 * match; one whose every event has a matching size has the matches its
 * durations tell (pn); the others are read. */
static int num_sizes(struct search *s, const struct mtrack *t, int level,
		     struct num_bucket *v, size_t n)
{
	struct size_bucket *sz = NULL;
	size_t nsz = 0, k = 0;

	if (!n || !s->num.nsize || !size_level(t, level))
		return 0;
	if (size_buckets(s, t, level, v[0].b, v[n - 1].b + 1, s->num.size,
			 s->num.nsize, &sz, &nsz))
		return -1;
	for (size_t i = 0; i < n; i++) {
		while (k < nsz && sz[k].b < v[i].b)
			k++;
		if (k == nsz || sz[k].b != v[i].b || sz[k].none) {
			v[i].straddle = 0;
		} else if (sz[k].all && sz[k].n == v[i].events) {
			v[i].n += v[i].pn;
			v[i].dur = sat_add(v[i].dur, v[i].pdur);
			v[i].straddle = v[i].hard;
		}
	}
	free(sz);
	return 0;
}

/* A track's name buckets on its comparison's buckets: one without a
 * matching name has no match; one where some names match and others do
 * not has its candidates read; one where all match keeps its count. */
static void num_names(const struct name_cls *c, int level,
		      struct num_bucket *v, size_t n)
{
	for (size_t i = 0; c && i < n; i++) {
		int k = name_class(c, level, v[i].b);

		if (k == 0 || (k == 2 && (v[i].n || v[i].straddle))) {
			v[i].straddle = k == 2;
			v[i].hard = k == 2;
			v[i].n = 0;
			v[i].dur = 0;
		}
	}
}

typedef int (*num_fn)(struct search *, const struct mtrack *, int,
		      const struct num_bucket *, void *);

/* The buckets [b0, b1) of a level holding events of the track. */
static int num_read(struct search *s, const struct mtrack *t, int level,
		    int64_t b0, int64_t b1, struct num_bucket **v, size_t *n)
{
	sqlite3_stmt *st = s->st_num;
	const struct name_cls *cls;
	size_t cap = 0;
	int rc;

	*v = NULL;
	*n = 0;
	if (name_cls_get(s, t, &cls))
		return -1;
	if (!st)
		st = s->st_num = prepare(s, "SELECT bucket, value, n, dur, dmin,"
					 " dmax FROM agg WHERE track_id = ? AND"
					 " field = ? AND level = ? AND bucket >= ?"
					 " AND bucket < ?");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, t->id);
	sqlite3_bind_int(st, 2, s->num.field);
	sqlite3_bind_int(st, 3, level);
	sqlite3_bind_int64(st, 4, b0);
	sqlite3_bind_int64(st, 5, b1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t b = sqlite3_column_int64(st, 0);
		int64_t val = sqlite3_column_int64(st, 1);
		int dur = s->num.field == AGG_DUR, c;
		struct num_bucket *cur;

		if (!*n || (*v)[*n - 1].b != b) {
			*v = xgrow(*v, &cap, *n + 1, sizeof(**v));
			(*v)[(*n)++] = (struct num_bucket){ .b = b };
		}
		cur = &(*v)[*n - 1];
		cur->events += sqlite3_column_int64(st, 2);
		if (dur && !cls && !name_in(s, val >> AGG_DUR_SHIFT))
			continue;
		c = cmps_class(s->num.cmp, s->num.ncmp,
			       dur ? sqlite3_column_int64(st, 4) : val,
			       dur ? sqlite3_column_int64(st, 5) : val);
		cur->straddle |= c < 0 || (c > 0 && s->num.partial);
		cur->hard |= c < 0;
		if (c > 0 && s->num.partial) {
			cur->pn += sqlite3_column_int64(st, 2);
			cur->pdur = sat_add(cur->pdur, sqlite3_column_int64(st, 3));
		} else if (c > 0) {
			cur->n += sqlite3_column_int64(st, 2);
			cur->dur = sat_add(cur->dur, sqlite3_column_int64(st, 3));
		}
	}
	sqlite3_reset(st);
	if (rc == SQLITE_DONE && !num_sizes(s, t, level, *v, *n)) {
		num_names(cls, level, *v, *n);
		return 0;
	}
	free(*v);
	*v = NULL;
	/* num_sizes has said what failed */
	return rc == SQLITE_DONE ? -1 : model_fail(s->m, "search");
}

/* Calls fn for each bucket [b0, b1) of a level holding events of the
 * track; a bucket that cannot tell is looked at through its quarters
 * one level down, and reaches fn with straddle set only at level lo. */
static int num_buckets(struct search *s, const struct mtrack *t, int lo,
		       int level, int64_t b0, int64_t b1, num_fn fn, void *ctx)
{
	struct num_bucket *v;
	size_t n;
	int rc = 0;

	if (num_read(s, t, level, b0, b1, &v, &n))
		return -1;
	for (size_t i = 0; i < n && !rc; i++) {
		if (v[i].straddle && level > lo)
			rc = num_buckets(s, t, lo, level - 1, v[i].b * 4,
					 v[i].b * 4 + 4, fn, ctx);
		else if (v[i].n || v[i].straddle)
			rc = fn(s, t, level, &v[i], ctx);
	}
	free(v);
	return rc;
}

int search_match(struct search *s, int64_t id)
{
	int k, rc;

	if (!s->st_one) {
		s->st_one = prepare(s, "SELECT 1 FROM %s WHERE %s AND s.id = ?",
				    sb_cstr(&s->from), sb_cstr(&s->where));
		if (!s->st_one)
			return -1;
	}
	k = bind_params(s, s->st_one);
	sqlite3_bind_int64(s->st_one, k + 1, id);
	rc = sqlite3_step(s->st_one);
	sqlite3_reset(s->st_one);
	if (rc == SQLITE_ROW)
		return 1;
	return rc == SQLITE_DONE ? 0 : model_fail(s->m, "search");
}

/* Matches from the aggregates of a level: those m counts. */
static int frame_agg(struct search *s, const struct mtrack *t, int level,
		     const struct vmatch *m, int64_t t0, int64_t colw,
		     int ncols, int64_t *hits)
{
	int64_t t1 = t0 + colw * ncols;
	char rows[VM_SQL], part[VM_SQL];
	sqlite3_stmt *st = prepare(s, "SELECT bucket, sum(%s) FROM agg WHERE"
				   " track_id = ? AND %s AND level = ? AND"
				   " bucket BETWEEN ? AND ? GROUP BY bucket",
				   vm_part(m, "n", part), vm_rows(m, rows));

	if (!st)
		return -1;
	bind_buckets(st, t->id, level, lod_floor_shift(t0, 2 * level),
		     lod_floor_shift(t1 - 1, 2 * level));
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t lo = sqlite3_column_int64(st, 0) * lod_width(level);
		int64_t c = (lo - t0) / colw;

		/* a bucket counts in the column where it starts */
		if (lo >= t0 && c < ncols)
			hits[c] += sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return 0;
}

/* Matches starting in [lo, hi) into the columns from t0. */
static int frame_raw_in(struct search *s, const struct mtrack *t, int64_t lo,
			int64_t hi, int64_t t0, int64_t colw, int ncols,
			int64_t *hits)
{
	int k;

	if (!s->st_range) {
		s->st_range = prepare(s, "SELECT s.ts FROM %s WHERE %s AND"
				      " s.track_id = ? AND s.depth IN " DEPTHS_UPTO("?")
				      " AND s.ts >= ? AND s.ts < ?",
				      sb_cstr(&s->from), sb_cstr(&s->where));
		if (!s->st_range)
			return -1;
	}
	k = bind_params(s, s->st_range);
	sqlite3_bind_int64(s->st_range, k + 1, t->id);
	sqlite3_bind_int64(s->st_range, k + 2, t->max_depth);
	sqlite3_bind_int64(s->st_range, k + 3, lo);
	sqlite3_bind_int64(s->st_range, k + 4, hi);
	while (sqlite3_step(s->st_range) == SQLITE_ROW) {
		int64_t c = (sqlite3_column_int64(s->st_range, 0) - t0) / colw;

		if (c >= 0 && c < ncols)
			hits[c]++;
	}
	sqlite3_reset(s->st_range);
	return 0;
}

/* Whether a by_instr query reads [t0, t0 + len) of track t in one pass
 * for every track: the range is a good part of the track's span, so
 * reading every instruction once costs less than reading the track's
 * events one by one, each with its instruction. */
static int allpass_wide(const struct search *s, const struct mtrack *t,
			int64_t len)
{
	return s->by_instr && len >= (t->max_ts - t->min_ts) / 4;
}

/* The matches starting in [t0, t1) of every track, from the instruction
 * table's side in one pass: per track their count, durations and, with
 * colw, how many start in each of ncols columns of colw ns from t0. */
static int allpass_run(struct search *s, int64_t t0, int64_t t1,
		       int64_t colw, int ncols)
{
	struct allpass *ap = &s->ap;
	struct allrow *r = NULL;
	sqlite3_stmt *st;
	int k, rc;

	allpass_clear(ap);
	st = prepare(s, "SELECT s.track_id, s.ts, s.dur FROM %s WHERE %s AND"
		     " s.ts >= ? AND s.ts < ?", sb_cstr(&s->from_i),
		     sb_cstr(&s->where));
	if (!st)
		return -1;
	k = bind_params(s, st);
	sqlite3_bind_int64(st, k + 1, t0);
	sqlite3_bind_int64(st, k + 2, t1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t track = sqlite3_column_int64(st, 0);
		int64_t c = colw ? (sqlite3_column_int64(st, 1) - t0) / colw : -1;

		if (!r || r->track != track) {
			size_t i = 0;

			while (i < ap->nrows && ap->rows[i].track != track)
				i++;
			if (i == ap->nrows) {
				ap->rows = xreallocarray(ap->rows, i + 1,
							 sizeof(*ap->rows));
				ap->rows[ap->nrows++] = (struct allrow){
					track, 0, 0, NULL, NULL };
				if (colw) {
					ap->rows[i].hits = xcalloc((size_t)ncols,
								   sizeof(int64_t));
					ap->rows[i].durs = xcalloc((size_t)ncols,
								   sizeof(int64_t));
				}
			}
			r = &ap->rows[i];
		}
		r->n++;
		r->dur = sat_add(r->dur, sqlite3_column_int64(st, 2));
		if (c >= 0 && c < ncols) {
			r->hits[c]++;
			r->durs[c] = sat_add(r->durs[c],
					     sqlite3_column_int64(st, 2));
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		allpass_clear(ap);
		return model_fail(s->m, "search");
	}
	*ap = (struct allpass){ 1, t0, t1, colw, colw ? ncols : 0, ap->rows,
				ap->nrows };
	return 0;
}

/* The pass's answer for a track; NULL: no match there. */
static const struct allrow *allpass_row(const struct search *s,
					int64_t track)
{
	for (size_t i = 0; i < s->ap.nrows; i++)
		if (s->ap.rows[i].track == track)
			return &s->ap.rows[i];
	return NULL;
}

static int frame_raw(struct search *s, const struct mtrack *t, int64_t t0,
		     int64_t colw, int ncols, int64_t *hits)
{
	const struct allpass *ap = &s->ap;
	const struct allrow *r;

	if (!allpass_wide(s, t, colw * ncols))
		return frame_raw_in(s, t, t0, t0 + colw * ncols, t0, colw,
				    ncols, hits);
	if (!(ap->valid && ap->t0 == t0 && ap->colw == colw &&
	      ap->ncols == ncols) &&
	    allpass_run(s, t0, t0 + colw * ncols, colw, ncols))
		return -1;
	if ((r = allpass_row(s, t->id)))
		memcpy(hits, r->hits, (size_t)ncols * sizeof(*hits));
	return 0;
}

struct num_frame {
	int64_t t0, colw, *hits;
	int ncols;
};

/* A bucket's matches in the column where it starts; a bucket that
 * cannot tell, or reaches out of the frame, from its events. */
static int frame_num_bucket(struct search *s, const struct mtrack *t,
			    int level, const struct num_bucket *b, void *ctx)
{
	struct num_frame *f = ctx;
	int64_t w = lod_width(level), lo = b->b * w, hi = sat_add(lo, w);
	int64_t t1 = f->t0 + f->colw * f->ncols;

	if (b->straddle || lo < f->t0 || hi > t1)
		return frame_raw_in(s, t, NX_MAX(lo, f->t0), NX_MIN(hi, t1),
				    f->t0, f->colw, f->ncols, f->hits);
	f->hits[(lo - f->t0) / f->colw] += b->n;
	return 0;
}

/* A comparison from its aggregates at levels lo..level. */
static int frame_num(struct search *s, const struct mtrack *t, int lo,
		     int level, int64_t t0, int64_t colw, int ncols,
		     int64_t *hits)
{
	struct num_frame f = { t0, colw, hits, ncols };

	return num_buckets(s, t, lo, level, lod_floor_shift(t0, 2 * level),
			   lod_floor_shift(t0 + colw * ncols - 1, 2 * level) + 1,
			   frame_num_bucket, &f);
}

/* The level of a track's aggregates from lo up to lmax whose buckets
 * are widest within a column of colw ns. */
static int frame_level(int lo, int lmax, int64_t colw)
{
	while (lo < lmax && lod_width(lo + 1) <= colw)
		lo++;
	return lo;
}

int search_frame(struct search *s, const struct mtrack *t, int64_t t0,
		 int64_t colw, int ncols, int64_t *hits)
{
	struct vmatch m;
	int nl, fl, lmax, f;

	memset(hits, 0, (size_t)ncols * sizeof(*hits));
	if (t->is_counter || !t->n_events || !track_allowed(s, t) ||
	    colw <= 0 || ncols <= 0)
		return 0;
	if (t0 + colw * ncols <= t->min_ts || t0 > t->max_ts)
		return 0;
	if (s->names_only && !s->any_name &&
	    !value_levels(s, t, &nl, &lmax) && colw >= lod_width(nl)) {
		m = vm_query(s);
		return frame_agg(s, t, frame_level(nl, lmax, colw), &m, t0,
				 colw, ncols, hits);
	}
	if ((f = word_field(s, t)) >= 0 && !field_levels(t, f, &nl, &lmax) &&
	    colw >= lod_width(nl)) {
		m = vm_of(f, s->words[0].set);
		return frame_agg(s, t, frame_level(nl, lmax, colw), &m, t0,
				 colw, ncols, hits);
	}
	if (!num_levels(s, t, &nl, &lmax, &fl) && colw >= lod_width(nl))
		return frame_num(s, t, nl, frame_level(nl, lmax, colw), t0,
				 colw, ncols, hits);
	return frame_raw(s, t, t0, colw, ncols, hits);
}

static struct search_row *stats_row(struct search_stats *st, int64_t track)
{
	for (size_t i = 0; i < st->nrows; i++)
		if (st->rows[i].track == track)
			return &st->rows[i];
	st->rows = xreallocarray(st->rows, st->nrows + 1, sizeof(*st->rows));
	st->rows[st->nrows] = (struct search_row){ track, 0, 0 };
	return &st->rows[st->nrows++];
}

static int stats_events(struct search *s, const struct mtrack *t,
			int64_t t0, int64_t t1, struct search_stats *out);

/* Counts in [t0, t1) on one track from a pass over every track's: that
 * of a frame from t0 gives its whole columns, the events of the rest
 * are read. */
static int stats_allpass(struct search *s, const struct mtrack *t,
			 int64_t t0, int64_t t1, struct search_stats *out)
{
	const struct allpass *ap = &s->ap;
	const struct allrow *r;
	int64_t n = 0, dur = 0, cols = -1;

	if (ap->valid && ap->colw && ap->t0 == t0 && t1 <= ap->t1)
		cols = (t1 - t0) / ap->colw;
	else if (!(ap->valid && ap->t0 == t0 && ap->t1 == t1) &&
		 allpass_run(s, t0, t1, 0, 0))
		return -1;
	if ((r = allpass_row(s, t->id)) && cols < 0) {
		n = r->n;
		dur = r->dur;
	}
	for (int64_t c = 0; r && c < cols; c++) {
		n += r->hits[c];
		dur = sat_add(dur, r->durs[c]);
	}
	if (n) {
		struct search_row *o = stats_row(out, t->id);

		o->n += n;
		o->dur = sat_add(o->dur, dur);
	}
	return cols >= 0 ? stats_events(s, t, t0 + cols * ap->colw, t1, out) :
			   0;
}

/* Counts in [t0, t1) on one track from its events, one by one. */
static int stats_events(struct search *s, const struct mtrack *t,
			int64_t t0, int64_t t1, struct search_stats *out)
{
	int64_t track = t->id;
	sqlite3_stmt *st;
	int k;

	if (t1 <= t0)
		return 0;
	st = prepare(s, "SELECT count(*), coalesce(sum(s.dur), 0) FROM %s WHERE %s"
		     " AND s.track_id = ? AND s.depth IN " DEPTHS_UPTO("?")
		     " AND s.ts >= ? AND s.ts < ?",
		     sb_cstr(&s->from), sb_cstr(&s->where));
	if (!st)
		return -1;
	k = bind_params(s, st);
	sqlite3_bind_int64(st, k + 1, track);
	sqlite3_bind_int64(st, k + 2, t->max_depth);
	sqlite3_bind_int64(st, k + 3, t0);
	sqlite3_bind_int64(st, k + 4, t1);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 0)) {
		struct search_row *r = stats_row(out, track);

		r->n += sqlite3_column_int64(st, 0);
		r->dur = sat_add(r->dur, sqlite3_column_int64(st, 1));
	}
	sqlite3_finalize(st);
	return 0;
}

/* Counts in [t0, t1) on one track from the events: of every track at
 * once where the range is wide (allpass_wide). */
static int stats_raw(struct search *s, const struct mtrack *t, int64_t t0,
		     int64_t t1, struct search_stats *out)
{
	if (t1 > t0 && allpass_wide(s, t, t1 - t0))
		return stats_allpass(s, t, t0, t1, out);
	return stats_events(s, t, t0, t1, out);
}

/* Whole buckets of [t0, t1) from the aggregates, the edges from events. */
static int stats_agg(struct search *s, const struct mtrack *t, int level,
		     const struct vmatch *m, int64_t t0, int64_t t1,
		     struct search_stats *out)
{
	int64_t w = lod_width(level), b0, b1;
	char rows[VM_SQL], part[VM_SQL], dpart[VM_SQL];
	sqlite3_stmt *st;

	lod_whole_buckets(level, t->min_ts, t->max_ts, t0, t1, &b0, &b1);
	if (b1 <= b0)
		return stats_raw(s, t, t0, t1, out);
	st = prepare(s, "SELECT sum(%s), sum(%s) FROM agg WHERE track_id = ? AND"
		     " %s AND level = ? AND bucket >= ? AND bucket < ?",
		     vm_part(m, "n", part), vm_part(m, "dur", dpart),
		     vm_rows(m, rows));
	if (!st)
		return -1;
	bind_buckets(st, t->id, level, b0, b1);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 0)) {
		struct search_row *r = stats_row(out, t->id);

		r->n += sqlite3_column_int64(st, 0);
		r->dur = sat_add(r->dur, sqlite3_column_int64(st, 1));
	}
	sqlite3_finalize(st);
	return stats_raw(s, t, t0, b0 * w, out) ||
	       stats_raw(s, t, b1 * w, t1, out) ? -1 : 0;
}

struct num_stats {
	struct search_stats *out;
	int64_t n, dur;
};

static int stats_num_bucket(struct search *s, const struct mtrack *t,
			    int level, const struct num_bucket *b, void *ctx)
{
	struct num_stats *ns = ctx;
	int64_t w = lod_width(level);

	if (b->straddle)
		return stats_raw(s, t, b->b * w, sat_add(b->b * w, w), ns->out);
	ns->n += b->n;
	ns->dur = sat_add(ns->dur, b->dur);
	return 0;
}

/* Whole buckets of [t0, t1) from a comparison's aggregates at levels
 * lo..level, the edges from events. */
static int stats_num(struct search *s, const struct mtrack *t, int lo,
		     int level, int64_t t0, int64_t t1, struct search_stats *out)
{
	struct num_stats ns = { out, 0, 0 };
	int64_t w = lod_width(level), b0, b1;

	lod_whole_buckets(level, t->min_ts, t->max_ts, t0, t1, &b0, &b1);
	if (b1 <= b0)
		return stats_raw(s, t, t0, t1, out);
	if (num_buckets(s, t, lo, level, b0, b1, stats_num_bucket, &ns))
		return -1;
	if (ns.n) {
		struct search_row *r = stats_row(out, t->id);

		r->n += ns.n;
		r->dur = sat_add(r->dur, ns.dur);
	}
	return stats_raw(s, t, t0, b0 * w, out) ||
	       stats_raw(s, t, b1 * w, t1, out) ? -1 : 0;
}

/* One track's matches in [t0, t1) into out. */
static int stats_track(struct search *s, const struct mtrack *t, int64_t t0,
		       int64_t t1, struct search_stats *out)
{
	struct vmatch m = vm_query(s);
	int nl, fl, lmax, f;

	if (s->names_only && !s->any_name && !agg_levels(t, &nl, &fl, &lmax) &&
	    (t->agg_fields & (1u << s->vfield)))
		return stats_agg(s, t, fl, &m, t0, t1, out);
	if ((f = word_field(s, t)) >= 0 && !agg_levels(t, &nl, &fl, &lmax)) {
		m = vm_of(f, s->words[0].set);
		return stats_agg(s, t, fl, &m, t0, t1, out);
	}
	if (!num_levels(s, t, &nl, &lmax, &fl))
		return stats_num(s, t, nl, fl, t0, t1, out);
	return stats_raw(s, t, t0, t1, out);
}

int search_stats(struct search *s, const struct mtrack *tracks,
		 size_t ntracks, int64_t t0, int64_t t1,
		 struct search_stats *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < ntracks; i++) {
		const struct mtrack *t = &tracks[i];

		if (t->is_counter || !t->n_events || !track_allowed(s, t) ||
		    t1 <= t->min_ts || t0 > t->max_ts)
			continue;
		if (stats_track(s, t, t0, t1, out))
			return -1;
	}
	for (size_t i = 0; i < out->nrows; i++) {
		out->count += out->rows[i].n;
		out->dur = sat_add(out->dur, out->rows[i].dur);
	}
	return 0;
}

void search_stats_free(struct search_stats *st)
{
	free(st->rows);
	memset(st, 0, sizeof(*st));
}

/* Whether a duration bin holds a dur comparison's bound. */
static int bound_bin(const struct numterm *n, int bin)
{
	for (int i = 0; i < n->ncmp; i++)
		if (agg_dur_value(0, n->cmp[i].x) == bin)
			return 1;
	return 0;
}

/* The durations of the matches in [t0, t1) on one track, from its
 * events, or (all) of every event there, from the time index alone; only
 * those in the bins holding a bound when bounds is set. */
static int durs_events(struct search *s, const struct mtrack *t, int64_t t0,
		       int64_t t1, int all, int bounds,
		       const struct search_durs *cb)
{
	sqlite3_stmt **st = all ? &s->st_durs_all : &s->st_durs;
	int k, rc;

	if (t1 <= t0)
		return 0;
	if (!*st)
		*st = prepare(s, "SELECT s.dur FROM %s WHERE %s AND s.track_id = ?"
			      " AND s.depth IN " DEPTHS_UPTO("?") " AND"
			      " s.ts >= ? AND s.ts < ?",
			      all ? "slice s" : sb_cstr(&s->from),
			      all ? "1" : sb_cstr(&s->where));
	if (!*st)
		return -1;
	k = all ? 0 : bind_params(s, *st);
	sqlite3_bind_int64(*st, k + 1, t->id);
	sqlite3_bind_int64(*st, k + 2, t->max_depth);
	sqlite3_bind_int64(*st, k + 3, t0);
	sqlite3_bind_int64(*st, k + 4, t1);
	while ((rc = sqlite3_step(*st)) == SQLITE_ROW) {
		int64_t d = sqlite3_column_int64(*st, 0);

		if (!bounds || bound_bin(&s->num, (int)agg_dur_value(0, d)))
			cb->dur(cb->ctx, d);
	}
	sqlite3_reset(*st);
	return rc == SQLITE_DONE ? 0 : model_fail(s->m, "search");
}

static int durs_raw(struct search *s, const struct mtrack *t, int64_t t0,
		    int64_t t1, int bounds, const struct search_durs *cb)
{
	return durs_events(s, t, t0, t1, 0, bounds, cb);
}

#define BIN_MASK ((1 << AGG_DUR_SHIFT) - 1)

/* The durations of the whole buckets [b0, b1) of a level of a track
 * from the duration aggregates' bins, merged over the names of the name
 * set, or over every name (all). */
static int durs_bins(struct search *s, const struct mtrack *t, int level,
		     int64_t b0, int64_t b1, int all,
		     const struct search_durs *cb)
{
	sqlite3_stmt *st;
	char names[64] = "";
	int rc;

	if (!all)
		snprintf(names, sizeof(names), " AND (value >> %d) IN %s",
			 AGG_DUR_SHIFT, s->nameset);
	st = prepare(s, "SELECT value & %d, sum(n), min(dmin), max(dmax) FROM agg"
		     " WHERE track_id = ? AND field = %d AND level = ? AND"
		     " bucket >= ? AND bucket < ?%s GROUP BY 1", BIN_MASK,
		     AGG_DUR, names);
	if (!st)
		return -1;
	bind_buckets(st, t->id, level, b0, b1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		cb->bin(cb->ctx, sqlite3_column_int(st, 0),
			sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2),
			sqlite3_column_int64(st, 3));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : model_fail(s->m, "search");
}

/* A name-only query's durations on one track: the whole buckets of
 * [b0, b1) of a level, merged over the names matched. */
static int durs_names(struct search *s, const struct mtrack *t, int level,
		      int64_t b0, int64_t b1, const struct search_durs *cb)
{
	return durs_bins(s, t, level, b0, b1, s->any_name, cb);
}

/* One aggregate row of a bucket: its bin, count, shortest, longest. */
struct durs_row {
	int bin;
	int64_t n, dmin, dmax;
};

/* One bucket's rows of a dur comparison: the bins wholly matching from
 * the aggregates; where a bin straddles the bound (only the bin holding
 * it can), that bin of the bucket from the events, for every name. */
static int durs_bucket(struct search *s, const struct mtrack *t, int64_t lo,
		       int64_t hi, const struct durs_row *v, size_t n,
		       int straddle, const struct search_durs *cb)
{
	for (size_t i = 0; i < n; i++) {
		if (straddle && bound_bin(&s->num, v[i].bin))
			continue;
		if (num_class(&s->num, v[i].dmin, v[i].dmax) > 0)
			cb->bin(cb->ctx, v[i].bin, v[i].n, v[i].dmin, v[i].dmax);
	}
	return straddle ? durs_raw(s, t, lo, hi, 1, cb) : 0;
}

/* A dur comparison's durations on one track: the whole buckets of
 * [b0, b1) of a level from the aggregates' bins (durs_bucket). */
static int durs_cmp(struct search *s, const struct mtrack *t, int level,
		    int64_t b0, int64_t b1, const struct search_durs *cb)
{
	int64_t w = lod_width(level), cur = 0;
	struct durs_row *v = NULL;
	size_t n = 0, cap = 0;
	sqlite3_stmt *st;
	int rc, straddle = 0, err = 0;

	st = prepare(s, "SELECT bucket, value, n, dmin, dmax FROM agg WHERE"
		     " track_id = ? AND field = %d AND level = ? AND bucket >= ?"
		     " AND bucket < ? ORDER BY bucket", AGG_DUR);
	if (!st)
		return -1;
	bind_buckets(st, t->id, level, b0, b1);
	while (!err && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t b = sqlite3_column_int64(st, 0);
		int64_t val = sqlite3_column_int64(st, 1);
		struct durs_row r = { (int)(val & BIN_MASK),
				      sqlite3_column_int64(st, 2),
				      sqlite3_column_int64(st, 3),
				      sqlite3_column_int64(st, 4) };

		if (n && b != cur) {
			err = durs_bucket(s, t, cur * w, cur * w + w, v, n,
					  straddle, cb);
			n = 0;
			straddle = 0;
		}
		cur = b;
		if (!name_in(s, val >> AGG_DUR_SHIFT))
			continue;
		straddle |= num_class(&s->num, r.dmin, r.dmax) < 0;
		v = xgrow(v, &cap, n + 1, sizeof(*v));
		v[n++] = r;
	}
	sqlite3_finalize(st);
	if (!err && rc != SQLITE_DONE)
		err = model_fail(s->m, "search");
	if (!err && n)
		err = durs_bucket(s, t, cur * w, cur * w + w, v, n, straddle, cb);
	free(v);
	return err ? -1 : 0;
}

/* The size rows of buckets [b0, b1) of a level, judged by the nc
 * comparisons c. */
static int size_buckets(struct search *s, const struct mtrack *t, int level,
			int64_t b0, int64_t b1, const struct numcmp *c,
			int nc, struct size_bucket **v, size_t *n)
{
	sqlite3_stmt *st = prepare(s, "SELECT bucket, value, n FROM agg WHERE"
				   " track_id = ? AND field = %d AND level = ? AND"
				   " bucket >= ? AND bucket < ? ORDER BY bucket",
				   AGG_SIZE);
	size_t cap = 0;
	int rc;

	if (!st)
		return -1;
	bind_buckets(st, t->id, level, b0, b1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t b = sqlite3_column_int64(st, 0);
		int64_t val = sqlite3_column_int64(st, 1);
		int k = cmps_class(c, nc, val, val);

		if (!*n || (*v)[*n - 1].b != b) {
			*v = xgrow(*v, &cap, *n + 1, sizeof(**v));
			(*v)[(*n)++] = (struct size_bucket){ b, 0, 1, 1 };
		}
		(*v)[*n - 1].n += sqlite3_column_int64(st, 2);
		(*v)[*n - 1].all &= k > 0;
		(*v)[*n - 1].none &= k == 0;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : model_fail(s->m, "search");
}

/* The duration bins of the buckets all of whose events have a matching
 * size: those whose events all have a size (the bins count as many) give
 * the bins of their matching names whole (all of them when the query
 * names none; the bins then hold names); the others are marked to be
 * read (all cleared). */
static int size_bins(struct search *s, const struct mtrack *t, int level,
		     int64_t b0, int64_t b1, struct size_bucket *v, size_t n,
		     const struct search_durs *cb)
{
	sqlite3_stmt *st = prepare(s, "SELECT bucket, value, n, dmin, dmax"
				   " FROM agg WHERE track_id = ? AND field = %d AND"
				   " level = ? AND bucket >= ? AND bucket < ?"
				   " ORDER BY bucket", AGG_DUR);
	struct durs_row *rows = NULL;
	size_t nrows = 0, cap = 0, k = 0;
	int64_t tot = 0;
	int rc;

	if (!st)
		return -1;
	bind_buckets(st, t->id, level, b0, b1);
	for (;;) {
		int64_t b = INT64_MAX;

		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW)
			b = sqlite3_column_int64(st, 0);
		/* the bucket before is complete */
		if (tot && b != v[k].b) {
			for (size_t i = 0; tot == v[k].n && i < nrows; i++)
				cb->bin(cb->ctx, rows[i].bin, rows[i].n,
					rows[i].dmin, rows[i].dmax);
			v[k].all = tot == v[k].n;
			nrows = 0;
			tot = 0;
		}
		if (rc != SQLITE_ROW)
			break;
		while (k < n && v[k].b < b)
			k++;
		if (k == n || v[k].b != b || !v[k].all)
			continue;
		tot += sqlite3_column_int64(st, 2);
		if (!name_in(s, sqlite3_column_int64(st, 1) >> AGG_DUR_SHIFT))
			continue;
		rows = xgrow(rows, &cap, nrows + 1, sizeof(*rows));
		rows[nrows++] = (struct durs_row){
			(int)(sqlite3_column_int64(st, 1) & BIN_MASK),
			sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 3),
			sqlite3_column_int64(st, 4) };
	}
	free(rows);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : model_fail(s->m, "search");
}

/* A transfer_size comparison's durations on one track, alone or beside
 * names: a bucket where every event has a matching size gives its
 * duration bins whole (the dur aggregates of the same level, of the
 * matching names), one where no size matches nothing, the rest their
 * events, runs of them at once; the edges from the events. 1 when the
 * track lacks either aggregate at a common level, or its durations are
 * kept without names and the query names some. */
static int durs_size(struct search *s, const struct mtrack *t, int64_t t0,
		     int64_t t1, const struct search_durs *cb)
{
	int64_t w, b0, b1, lo_ts = 0, hi_ts = 0;
	unsigned need = 1u << AGG_SIZE | 1u << AGG_DUR;
	int lo, hi, slo, shi, named, level, rc;
	int beside = s->num.field == AGG_DUR;	/* names beside the sizes */
	struct size_bucket *v = NULL;
	size_t n = 0;

	if ((t->agg_fields & need) != need ||
	    track_num_levels(t, AGG_SIZE, &slo, &shi, &named) ||
	    track_num_levels(t, AGG_DUR, &lo, &hi, &named))
		return 1;
	if (NX_MAX(lo, slo) > NX_MIN(hi, shi) || (!named && !s->any_name))
		return 1;
	level = agg_range_level(NX_MAX(lo, slo), NX_MIN(hi, shi), t->min_ts,
				t->max_ts, t0, t1, &b0, &b1);
	w = lod_width(level);
	if (b1 <= b0)
		return durs_raw(s, t, t0, t1, 0, cb);
	rc = size_buckets(s, t, level, b0, b1, beside ? s->num.size : s->num.cmp,
			  beside ? s->num.nsize : s->num.ncmp, &v, &n) ||
	     size_bins(s, t, level, b0, b1, v, n, cb);
	for (size_t k = 0; !rc && k < n; k++) {
		if (v[k].all || v[k].none)
			continue;
		if (v[k].b * w != hi_ts) {
			rc = durs_raw(s, t, lo_ts, hi_ts, 0, cb);
			lo_ts = v[k].b * w;
		}
		hi_ts = v[k].b * w + w;
	}
	free(v);
	if (!rc)
		rc = durs_raw(s, t, lo_ts, hi_ts, 0, cb) ||
		     durs_raw(s, t, t0, b0 * w, 0, cb) ||
		     durs_raw(s, t, b1 * w, t1, 0, cb);
	return rc ? -1 : 0;
}

static int durs_buckets(struct search *s, const struct mtrack *t, int64_t t0,
			int64_t t1, const struct search_durs *cb);

/* A run of buckets of a level read at once: [lo, hi) ns, all when
 * every event in it matches; bins: the duration aggregates are kept at
 * that level, whose bins then count all those events. */
struct durs_run {
	int64_t lo, hi;
	int all, level, bins;
};

static int durs_run_read(struct search *s, const struct mtrack *t,
			 const struct durs_run *r, const struct search_durs *cb)
{
	int shift = 2 * r->level;

	if (r->all && r->bins)
		return durs_bins(s, t, r->level, lod_floor_shift(r->lo, shift),
				 lod_floor_shift(r->hi, shift), 1, cb);
	return durs_events(s, t, r->lo, r->hi, r->all, 0, cb) ? -1 : 0;
}

/* A name-only query's durations on one track when it names HLO names or
 * layers, which the duration aggregates do not bin by: the events of the
 * whole buckets of [t0, t1) that hold a match are read, those of a bucket
 * all of whose events match (its matches in the field's aggregates count
 * as many as its names do: every event has a name; negated, none is in
 * the field's set) without the joined columns that test them, or from
 * the bins of all its names (struct durs_run); the edges from the
 * events. 1 when the track keeps no aggregates of the field. */
static int durs_values(struct search *s, const struct mtrack *t, int64_t t0,
		       int64_t t1, const struct search_durs *cb)
{
	/* the rows of every name and of the field's values in the set */
	const struct vmatch both = { s->vfield, s->nameset, 1 };
	struct durs_run r = { 0, 0, 0, 0, 0 };
	char rows[VM_SQL], part[VM_SQL];
	int64_t w, b0, b1;
	int level, lmax, dlo, dhi, named, rc, err = 0;
	sqlite3_stmt *st;

	if (value_levels(s, t, &level, &lmax))
		return 1;
	r.level = level;
	r.bins = cb->bin && !track_num_levels(t, AGG_DUR, &dlo, &dhi, &named) &&
		 (t->agg_fields & (1u << AGG_DUR)) && dlo <= level &&
		 level <= dhi;
	w = lod_width(level);
	lod_whole_buckets(level, t->min_ts, t->max_ts, t0, t1, &b0, &b1);
	if (b1 <= b0)
		return durs_raw(s, t, t0, t1, 0, cb);
	st = prepare(s, "SELECT bucket, sum(%s), sum(CASE field WHEN %d THEN n"
		     " END) FROM agg WHERE track_id = ? AND %s AND level = ? AND"
		     " bucket >= ? AND bucket < ? GROUP BY bucket ORDER BY bucket",
		     vm_part(&both, "n", part), AGG_NAME, vm_rows(&both, rows));
	if (!st)
		return -1;
	bind_buckets(st, t->id, level, b0, b1);
	while (!err && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t b = sqlite3_column_int64(st, 0);
		int64_t out = sqlite3_column_int64(st, 1);	/* not in the set */
		int64_t total = sqlite3_column_int64(st, 2);
		int64_t hit = s->vcomp ? out : total - out;
		int all = hit == total;

		if (!hit)
			continue;
		if (r.hi != b * w || r.all != all) {
			err = durs_run_read(s, t, &r, cb);
			r.lo = b * w;
			r.all = all;
		}
		r.hi = sat_add(b * w, w);
	}
	sqlite3_finalize(st);
	if (!err && rc != SQLITE_DONE)
		err = model_fail(s->m, "search");
	if (!err)
		err = durs_run_read(s, t, &r, cb) ||
		      durs_raw(s, t, t0, b0 * w, 0, cb) ||
		      durs_raw(s, t, b1 * w, t1, 0, cb);
	return err ? -1 : 0;
}

/* The durations of the matches on one track, from the events of the
 * buckets holding one (durs_values, durs_buckets); in bins (cb->bin)
 * where a bucket's every event matches and the duration aggregates have
 * its level. */
static int durs_matches(struct search *s, const struct mtrack *t,
			int64_t t0, int64_t t1, const struct search_durs *cb)
{
	if (s->names_only && s->vfield != AGG_NAME) {
		int rc = durs_values(s, t, t0, t1, cb);

		if (rc != 1)
			return rc;
	}
	return durs_buckets(s, t, t0, t1, cb);
}

/* A name-only query's or a dur comparison's durations on one track from
 * the duration aggregates, whole buckets of [t0, t1) from their bins,
 * the edges from the events. 1 when the aggregates cannot tell: the
 * track has none, or they keep durations without names and the query
 * names some. */
static int durs_agg(struct search *s, const struct mtrack *t, int64_t t0,
		    int64_t t1, const struct search_durs *cb)
{
	int64_t w, b0, b1;
	int lo, hi, named, level;
	int cmp = s->num.field == AGG_DUR && !s->num.partial;

	/* durations are binned by name, not by HLO name or layer: the
	 * events of the buckets holding a match are read */
	if (s->names_only && s->vfield != AGG_NAME)
		return durs_matches(s, t, t0, t1, cb);
	if ((s->num.field == AGG_SIZE && !s->names_only) ||
	    (s->num.partial && !s->num.ncmp))
		return durs_size(s, t, t0, t1, cb);
	if ((!s->names_only && !cmp) || !(t->agg_fields & (1u << AGG_DUR)) ||
	    track_num_levels(t, AGG_DUR, &lo, &hi, &named))
		return 1;
	if (!named && !s->any_name)
		return 1;
	level = agg_range_level(lo, hi, t->min_ts, t->max_ts, t0, t1, &b0, &b1);
	w = lod_width(level);
	if (b1 <= b0)
		return durs_raw(s, t, t0, t1, 0, cb);
	if ((cmp && s->num.ncmp ? durs_cmp : durs_names)(s, t, level, b0, b1, cb))
		return -1;
	return durs_raw(s, t, t0, b0 * w, 0, cb) ||
	       durs_raw(s, t, b1 * w, t1, 0, cb) ? -1 : 0;
}

int search_durations(struct search *s, int64_t t0, int64_t t1,
		     const struct search_durs *cb)
{
	struct mtrack *tracks;
	size_t nt;
	int rc = 0;

	if (model_tracks(s->m, s->profile, &tracks, &nt))
		return -1;
	for (size_t i = 0; i < nt && !rc; i++) {
		const struct mtrack *t = &tracks[i];

		if (t->is_counter || !t->n_events || !track_allowed(s, t) ||
		    t1 <= t->min_ts || t0 > t->max_ts)
			continue;
		rc = cb->bin ? durs_agg(s, t, t0, t1, cb) :
			       durs_matches(s, t, t0, t1, cb);
		if (rc == 1)
			rc = durs_raw(s, t, t0, t1, 0, cb);
	}
	model_tracks_free(tracks, nt);
	return rc ? -1 : 0;
}

static void read_slice(sqlite3_stmt *st, struct mslice *m)
{
	m->id = sqlite3_column_int64(st, 0);
	m->track_id = sqlite3_column_int64(st, 1);
	m->ts = sqlite3_column_int64(st, 2);
	m->dur = sqlite3_column_int64(st, 3);
	m->name = sqlite3_column_int64(st, 4);
	m->cat = sqlite3_column_int64(st, 5);
	m->depth = sqlite3_column_int(st, 6);
	m->flags = (unsigned)sqlite3_column_int(st, 7);
}

/* (a.ts, a.id) comes before (b.ts, b.id) in time order. */
static int before(const struct mslice *a, const struct mslice *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->id < b->id);
}

/* Stepping from match to match: per track and depth one index seek for
 * the nearest match; for name searches the aggregates point at the next
 * bucket holding a match, so rare names are found without reading the
 * events in between. */
struct stepper {
	struct search *s;
	sqlite3_stmt *ev, *bucket, *cand;
	int dir;
	int64_t ts, id;
};

/* Binds the events statement: matches after (ts, id) on a track at a
 * depth, within [lo, hi), at most limit. */
static void stepper_bind(struct stepper *p, int64_t track, int64_t depth,
			 int64_t lo, int64_t hi, int64_t limit)
{
	int k = bind_params(p->s, p->ev);

	/* the range starts (ends, going back) at the press: the index is
	 * then entered there, not at the track's far end */
	if (p->dir > 0)
		lo = NX_MAX(lo, p->ts);
	else
		hi = NX_MIN(hi, sat_add(p->ts, 1));
	sqlite3_bind_int64(p->ev, k + 1, track);
	sqlite3_bind_int64(p->ev, k + 2, depth);
	sqlite3_bind_int64(p->ev, k + 3, lo);
	sqlite3_bind_int64(p->ev, k + 4, hi);
	sqlite3_bind_int64(p->ev, k + 5, p->ts);
	sqlite3_bind_int64(p->ev, k + 6, p->ts);
	sqlite3_bind_int64(p->ev, k + 7, p->id);
	sqlite3_bind_int64(p->ev, k + 8, limit);
}

/* The nearest match after (ts, id) on a track at a depth, within [lo, hi). */
static int step_at(struct stepper *p, int64_t track, int64_t depth, int64_t lo,
		   int64_t hi, struct mslice *out)
{
	int rc;

	stepper_bind(p, track, depth, lo, hi, 1);
	rc = sqlite3_step(p->ev);
	if (rc == SQLITE_ROW)
		read_slice(p->ev, out);
	sqlite3_reset(p->ev);
	if (rc == SQLITE_ROW)
		return 0;
	return rc == SQLITE_DONE ? 1 : model_fail(p->s->m, "search");
}

/* Whether a memo answers a press from (ts, id): the press starts at or
 * past where the memo's did, and before its hit. */
static int memo_covers(const struct memo *e, int dir, int64_t ts, int64_t id)
{
	struct mslice from = { .ts = e->from_ts, .id = e->from_id };
	struct mslice at = { .ts = ts, .id = id };

	if (!e->valid)
		return 0;
	if (dir > 0 ? before(&at, &from) : before(&from, &at))
		return 0;
	return !e->has || (dir > 0 ? before(&at, &e->hit) : before(&e->hit, &at));
}

/* step_at over a whole track, answered from the memo when it covers the
 * press: a press then costs a seek on the rows whose match it passed. */
static int step_memo(struct stepper *p, const struct mtrack *t, int64_t depth,
		     struct mslice *out)
{
	struct search *s = p->s;
	struct memo *e = &s->memo[p->dir > 0][s->memo_off[t - s->step_tracks] +
					      (size_t)depth];
	int rc;

	if (memo_covers(e, p->dir, p->ts, p->id)) {
		if (e->has)
			*out = e->hit;
		return e->has ? 0 : 1;
	}
	rc = step_at(p, t->id, depth, INT64_MIN, INT64_MAX, out);
	if (rc < 0)
		return rc;
	*e = (struct memo){ 1, rc == 0, p->ts, p->id, rc == 0 ? *out :
			    (struct mslice){ 0 } };
	return rc;
}

static int step_range(struct stepper *p, const struct mtrack *t, int64_t lo,
		      int64_t hi, struct mslice *best)
{
	struct mslice cur;
	int found = 0;

	for (int64_t d = 0; d <= t->max_depth; d++) {
		int rc = lo == INT64_MIN && hi == INT64_MAX ?
			 step_memo(p, t, d, &cur) :
			 step_at(p, t->id, d, lo, hi, &cur);

		if (rc < 0)
			return -1;
		if (rc == 0 && (!found || (p->dir > 0 ? before(&cur, best) :
					   before(best, &cur)))) {
			*best = cur;
			found = 1;
		}
	}
	return found ? 0 : 1;
}

/* A comparison's candidates among aggregate rows: those whose values
 * may hold a match (?4 is the bound). */
static const char *const num_cand[2][Q_NRE + 1] = {
	[0] = {
		[Q_GT] = "dmax > %" PRId64, [Q_GE] = "dmax >= %" PRId64,
		[Q_LT] = "dmin < %" PRId64, [Q_LE] = "dmin <= %" PRId64,
		[Q_EQ] = "dmin <= %" PRId64 " AND dmax >= %" PRId64,
		[Q_NE] = "NOT (dmin = %" PRId64 " AND dmax = %" PRId64 ")",
	},
	[1] = {
		[Q_GT] = "value > %" PRId64, [Q_GE] = "value >= %" PRId64,
		[Q_LT] = "value < %" PRId64, [Q_LE] = "value <= %" PRId64,
		[Q_EQ] = "value = %" PRId64, [Q_NE] = "value != %" PRId64,
	},
};

/* Every comparison's candidate condition, ANDed, bounds written out. */
static void num_cands(const struct numcmp *c, int nc, int size,
		      struct strbuf *out)
{
	if (!nc)
		sb_adds(out, "1");
	for (int i = 0; i < nc; i++) {
		sb_adds(out, i ? " AND " : "");
		/* x twice: = and != name it twice */
		sb_printf(out, num_cand[size][c[i].op], c[i].x, c[i].x);
	}
}

/* The candidates of a comparison's rows, and with the transfer_size
 * comparisons left over (partial), a size row of the same bucket that
 * matches them, where ?5, the level keeping no sizes, does not say to
 * go without. */
static void bucket_cands(const struct numterm *n, struct strbuf *out)
{
	num_cands(n->cmp, n->ncmp, n->field == AGG_SIZE, out);
	if (!n->nsize)
		return;
	sb_printf(out, " AND (?5 OR EXISTS (SELECT 1 FROM agg z WHERE"
		  " z.track_id = agg.track_id AND z.field = %d AND z.level ="
		  " agg.level AND z.bucket = agg.bucket AND ", AGG_SIZE);
	num_cands(n->size, n->nsize, 1, out);
	sb_adds(out, "))");
}

/* The next (dir > 0) or previous aggregate bucket from ?3, short of ?4
 * (before it going forward, after it going back), holding a match of m. */
static sqlite3_stmt *value_bucket_stmt(struct search *s, int dir,
				       const struct vmatch *m)
{
	char rows[VM_SQL], part[VM_SQL];

	return prepare(s, "SELECT bucket FROM agg WHERE track_id = ? AND %s AND"
		       " level = ? AND bucket %s ? AND %s GROUP BY bucket HAVING"
		       " sum(%s) > 0 ORDER BY bucket %s LIMIT 1",
		       vm_rows(m, rows), dir > 0 ? ">=" : "<=",
		       dir > 0 ? "bucket < ?4" : "bucket > ?4",
		       vm_part(m, "n", part), dir > 0 ? "" : "DESC");
}

/* The same holding a matching name, or a candidate of a comparison (of
 * a matching name unless names are apart: their name buckets then tell,
 * struct name_cls). */
static sqlite3_stmt *bucket_stmt(struct search *s, int dir, int apart)
{
	const char *order = dir > 0 ? "" : "DESC", *cmp = dir > 0 ? ">=" : "<=";
	const char *end = dir > 0 ? "bucket < ?4" : "bucket > ?4";
	struct strbuf cand;
	sqlite3_stmt *st;

	if (s->num.field < 0) {
		struct vmatch m = vm_query(s);

		if (!s->names_only || s->any_name)
			m = vm_of(s->vfield, "(0)");
		return value_bucket_stmt(s, dir, &m);
	}
	sb_init(&cand);
	bucket_cands(&s->num, &cand);
	if (s->any_name || apart)
		st = prepare(s, "SELECT bucket FROM agg WHERE track_id = ? AND"
			     " field = %d AND level = ? AND bucket %s ? AND %s"
			     " AND %s ORDER BY bucket %s LIMIT 1", s->num.field,
			     cmp, end, sb_cstr(&cand), order);
	else
		st = prepare(s, "SELECT bucket FROM agg WHERE track_id = ? AND"
			     " field = %d AND level = ? AND bucket %s ? AND %s AND"
			     " %s AND (value >> %d) IN %s ORDER BY bucket %s LIMIT 1",
			     s->num.field, cmp, end, sb_cstr(&cand), AGG_DUR_SHIFT,
			     s->nameset, order);
	sb_free(&cand);
	return st;
}

/* The level n and N skip from aggregate bucket to bucket at, and the
 * coarsest level the same rows are kept at; -1 when they read the
 * track's events. The buckets come from p->bucket, set here for the
 * rows of a word_split query. */
static int step_level(struct stepper *p, const struct mtrack *t, int *top)
{
	struct search *s = p->s;
	int nl, fl, lmax, f = word_field(s, t), k = p->dir > 0;

	if (f >= 0 && !field_levels(t, f, &nl, &lmax)) {
		sqlite3_stmt **st = &s->step_word[k][f == AGG_CAT];

		struct vmatch m = vm_of(f, s->words[0].set);

		if (!*st && !(*st = value_bucket_stmt(s, p->dir, &m)))
			return -1;
		p->bucket = *st;
		*top = lmax;
		return nl;
	}
	p->bucket = s->step_bucket[k];
	if (s->names_only && !s->any_name && !value_levels(s, t, &nl, &lmax)) {
		*top = lmax;
		return nl;
	}
	if (!num_levels(s, t, &nl, top, &fl))
		return nl;
	return -1;
}

/* The first bucket of a level from b on (back from b, dir < 0) holding
 * a match's candidate, short of end: 0 found, 1 none. */
static int bucket_at(struct stepper *p, sqlite3_stmt *st,
		     const struct mtrack *t, int level, int64_t b, int64_t end,
		     int64_t *out)
{
	int rc;

	bind_buckets(st, t->id, level, b, end);
	if (p->s->num.nsize)
		sqlite3_bind_int(st, 5, !size_level(t, level));
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (rc == SQLITE_ROW)
		return 0;
	return rc == SQLITE_DONE ? 1 : model_fail(p->s->m, "search");
}

/* bucket_at; where names are apart, the candidates whose name buckets
 * hold no matching name are passed over. */
static int bucket_next(struct stepper *p, const struct mtrack *t, int level,
		       int64_t b, int64_t end, int64_t *out)
{
	const struct name_cls *c;
	int rc;

	if (name_cls_get(p->s, t, &c))
		return -1;
	if (!c)
		return bucket_at(p, p->bucket, t, level, b, end, out);
	for (;;) {
		if (!p->cand && !(p->cand = p->s->step_cand[p->dir > 0] =
				  bucket_stmt(p->s, p->dir, 1)))
			return -1;
		rc = bucket_at(p, p->cand, t, level, b, end, out);
		if (rc || name_class(c, level, *out))
			return rc;
		b = *out + (p->dir > 0 ? 1 : -1);
	}
}

/* Coarser levels are looked at this many levels up (16 buckets each). */
#define SKIP_LEVELS 2

/* bucket_next with no end, found through the coarser levels up to top
 * first: a coarse row holds its buckets' values with their extremes, so
 * a coarse bucket without a candidate has none below it, and a stretch
 * without matches costs a few coarse rows instead of every fine one. */
static int bucket_skip(struct stepper *p, const struct mtrack *t, int level,
		       int top, int64_t b, int64_t *out)
{
	int up = NX_MIN(level + SKIP_LEVELS, top), rc;
	int64_t k = (int64_t)1 << (2 * (up - level)), pb, lo, hi;

	if (up <= level)
		return bucket_next(p, t, level, b, p->dir > 0 ? INT64_MAX :
				   INT64_MIN, out);
	for (;;) {
		rc = bucket_skip(p, t, up, top, lod_floor_shift(b, 2 * (up - level)),
				 &pb);
		if (rc)
			return rc;
		lo = pb * k;	/* pb's buckets at this level: [lo, hi) */
		hi = lo + k;
		if (p->dir > 0)
			rc = bucket_next(p, t, level, NX_MAX(b, lo), hi, out);
		else
			rc = bucket_next(p, t, level, NX_MIN(b, hi - 1), lo - 1, out);
		if (rc != 1)
			return rc;
		b = p->dir > 0 ? hi : lo - 1;
	}
}

static int step_track(struct stepper *p, const struct mtrack *t,
		      struct mslice *out)
{
	int top, nl = step_level(p, t, &top), rc;
	int64_t w, b;

	if (nl < 0)
		return step_range(p, t, INT64_MIN, INT64_MAX, out);
	w = lod_width(nl);
	b = lod_floor_shift(p->ts, 2 * nl);
	for (;;) {
		rc = bucket_skip(p, t, nl, top, b, &b);
		if (rc)
			return rc;
		rc = step_range(p, t, b * w, sat_add(b * w, w), out);
		if (rc <= 0)
			return rc;
		b += p->dir > 0 ? 1 : -1;
	}
}

/* The statements of a stepper: events after (ts, id) on one track and
 * depth within a range, up to a limit, and the next aggregate bucket
 * holding a matching name; prepared once per direction. */
static int stepper_prepare(struct stepper *p)
{
	struct search *s = p->s;
	int dir = p->dir, k = dir > 0;

	if (!s->step_ev[k])
		s->step_ev[k] = prepare(s, "SELECT s.id, s.track_id, s.ts, s.dur,"
			" s.name, s.cat, s.depth, s.flags FROM %s WHERE %s AND"
			" s.track_id = ? AND s.depth = ? AND s.ts >= ? AND"
			" s.ts < ? AND %s ORDER BY %s LIMIT ?", sb_cstr(&s->from),
			sb_cstr(&s->where),
			dir > 0 ? "(s.ts > ? OR (s.ts = ? AND s.id > ?))" :
				  "(s.ts < ? OR (s.ts = ? AND s.id < ?))",
			dir > 0 ? "s.ts, s.id" : "s.ts DESC, s.id DESC");
	if (!s->step_bucket[k])
		s->step_bucket[k] = bucket_stmt(s, dir, 0);
	p->ev = s->step_ev[k];
	p->bucket = s->step_bucket[k];
	p->cand = s->step_cand[k];
	return p->ev && p->bucket ? 0 : -1;
}

/* The durations of the matches in [t0, t1) on one track, every one,
 * read from the events of the buckets whose aggregates hold a candidate
 * (as n steps to them), runs of such buckets at once; 1 when the
 * track's aggregates cannot tell. */
static int durs_buckets(struct search *s, const struct mtrack *t, int64_t t0,
			int64_t t1, const struct search_durs *cb)
{
	struct stepper p = { s, NULL, NULL, NULL, 1, 0, 0 };
	int top, nl, rc;
	int64_t w, b, lo = 0, hi = 0;

	if (stepper_prepare(&p))
		return -1;
	if ((nl = step_level(&p, t, &top)) < 0)
		return 1;
	w = lod_width(nl);
	b = lod_floor_shift(t0, 2 * nl);
	while (!(rc = bucket_skip(&p, t, nl, top, b, &b)) && b * w < t1) {
		if (b * w != hi) {
			if (durs_raw(s, t, NX_MAX(lo, t0), NX_MIN(hi, t1), 0, cb))
				return -1;
			lo = b * w;
		}
		hi = sat_add(b * w, w);
		b++;
	}
	if (rc < 0)
		return -1;
	return durs_raw(s, t, NX_MAX(lo, t0), NX_MIN(hi, t1), 0, cb) ? -1 : 0;
}

/* The profile's tracks, read on the first press only, and room for an
 * answer per direction, track and depth. */
static int stepper_tracks(struct search *s)
{
	size_t n = 0;

	if (s->step_loaded)
		return 0;
	if (model_tracks(s->m, s->profile, &s->step_tracks, &s->step_nt))
		return -1;
	s->memo_off = xcalloc(s->step_nt + 1, sizeof(*s->memo_off));
	for (size_t i = 0; i < s->step_nt; i++) {
		s->memo_off[i] = n;
		n += (size_t)s->step_tracks[i].max_depth + 1;
	}
	s->memo[0] = xcalloc(n + 1, sizeof(*s->memo[0]));
	s->memo[1] = xcalloc(n + 1, sizeof(*s->memo[1]));
	s->step_loaded = 1;
	return 0;
}

int search_step(struct search *s, int64_t ts, int64_t id, int dir,
		struct mslice *out)
{
	struct stepper p = { s, NULL, NULL, NULL, dir, ts, id };
	struct mslice cur;
	int found = 0, rc = 0;

	if (stepper_prepare(&p) || stepper_tracks(s))
		return -1;
	for (size_t i = 0; i < s->step_nt && !rc; i++) {
		const struct mtrack *t = &s->step_tracks[i];

		if (t->is_counter || !t->n_events || !track_allowed(s, t))
			continue;
		rc = step_track(&p, t, &cur);
		if (rc == 0 && (!found || (dir > 0 ? before(&cur, out) :
					   before(out, &cur)))) {
			*out = cur;
			found = 1;
		}
		rc = rc < 0 ? -1 : 0;
	}
	if (rc)
		return -1;
	return found ? 0 : 1;
}

int search_list(struct search *s, int64_t t0, int64_t t1, int64_t offset,
		int64_t limit, void (*fn)(void *, const struct mslice *),
		void *ctx)
{
	/* every track of the profile, every depth: one seek each */
	sqlite3_stmt *st = prepare(s, "SELECT s.id, s.track_id, s.ts, s.dur,"
				   " s.name, s.cat, s.depth, s.flags FROM %s"
				   " WHERE %s AND s.track_id IN (SELECT id FROM track"
				   " WHERE profile_id = %" PRId64 ") AND s.depth IN "
				   DEPTHS_UPTO("(SELECT max(max_depth) FROM track)")
				   " AND s.ts >= ? AND s.ts < ?"
				   " ORDER BY s.ts, s.id LIMIT ? OFFSET ?",
				   sb_cstr(&s->from), sb_cstr(&s->where), s->profile);
	struct mslice m;
	int k;

	if (!st)
		return -1;
	k = bind_params(s, st);
	sqlite3_bind_int64(st, k + 1, t0);
	sqlite3_bind_int64(st, k + 2, t1);
	sqlite3_bind_int64(st, k + 3, limit);
	sqlite3_bind_int64(st, k + 4, offset);
	while (sqlite3_step(st) == SQLITE_ROW) {
		read_slice(st, &m);
		fn(ctx, &m);
	}
	sqlite3_finalize(st);
	return 0;
}

/* Paging through matches: per track the first `limit` matches after
 * (ts, id), read per depth with one seek each; for name searches only
 * the buckets the aggregates say hold a match are read, so a track
 * without the name costs one aggregate lookup. */
struct rows {
	struct mslice *v;
	size_t n, cap;
};

static int page_at(struct stepper *p, int64_t track, int64_t depth,
		   int64_t lo, int64_t hi, int64_t limit, struct rows *r)
{
	int rc;

	stepper_bind(p, track, depth, lo, hi, limit);
	while ((rc = sqlite3_step(p->ev)) == SQLITE_ROW) {
		r->v = xgrow(r->v, &r->cap, r->n + 1, sizeof(*r->v));
		read_slice(p->ev, &r->v[r->n++]);
	}
	sqlite3_reset(p->ev);
	return rc == SQLITE_DONE ? 0 : model_fail(p->s->m, "search");
}

/* Every depth of a track in [lo, hi); the number of rows read. */
static int64_t page_range(struct stepper *p, const struct mtrack *t,
			  int64_t lo, int64_t hi, int64_t limit,
			  struct rows *r)
{
	size_t before_n = r->n;

	for (int64_t d = 0; d <= t->max_depth; d++)
		if (page_at(p, t->id, d, lo, hi, limit, r))
			return -1;
	return (int64_t)(r->n - before_n);
}

static int page_track(struct stepper *p, const struct mtrack *t, int64_t t0,
		      int64_t t1, int64_t limit, struct rows *r)
{
	int top, nl = step_level(p, t, &top), rc;
	int64_t w, b, got = 0;

	if (nl < 0)
		return page_range(p, t, t0, t1, limit, r) < 0 ? -1 : 0;
	w = lod_width(nl);
	b = lod_floor_shift(p->dir > 0 ? NX_MAX(p->ts, t0) : NX_MIN(p->ts, t1 - 1),
			    2 * nl);
	/* a bucket's matches come out of every depth: each depth may give
	 * up to limit, enough for the first limit of the track */
	while (got < limit) {
		int64_t n;

		rc = bucket_skip(p, t, nl, top, b, &b);
		if (rc)
			return rc < 0 ? -1 : 0;
		if (b * w >= t1 || sat_add(b * w, w) <= t0)
			return 0;
		n = page_range(p, t, NX_MAX(b * w, t0), NX_MIN(sat_add(b * w, w), t1),
			       limit - got, r);
		if (n < 0)
			return -1;
		got += n;
		b += p->dir > 0 ? 1 : -1;
	}
	return 0;
}

static int cmp_time(const void *a, const void *b)
{
	const struct mslice *x = a, *y = b;

	return before(x, y) ? -1 : before(y, x) ? 1 : 0;
}

int search_page(struct search *s, int64_t t0, int64_t t1, int64_t ts,
		int64_t id, int dir, int64_t limit,
		void (*fn)(void *, const struct mslice *), void *ctx)
{
	struct stepper p = { s, NULL, NULL, NULL, dir, ts, id };
	struct rows r = { NULL, 0, 0 };
	int rc = 0;

	if (limit <= 0 || t1 <= t0)
		return 0;
	if (stepper_prepare(&p) || stepper_tracks(s))
		return -1;
	/* the first limit of every track hold the first limit of all */
	for (size_t i = 0; i < s->step_nt && !rc; i++) {
		const struct mtrack *t = &s->step_tracks[i];

		if (t->is_counter || !t->n_events || !track_allowed(s, t))
			continue;
		rc = page_track(&p, t, t0, t1, limit, &r);
	}
	if (!rc && r.n)
		qsort(r.v, r.n, sizeof(*r.v), cmp_time);
	for (size_t i = 0; !rc && i < r.n && (int64_t)i < limit; i++)
		fn(ctx, &r.v[dir > 0 ? i : r.n - 1 - i]);
	free(r.v);
	return rc;
}
