#include "config.h"

#include "model/bounds.h"

#include <inttypes.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/agg.h"
#include "model/busy.h"
#include "model/hmap.h"
#include "model/infoval.h"
#include "model/lod.h"
#include "model/cache/schema.h"
#include "model/util.h"

const char *const bound_names[BOUND_COUNT] = { "memory", "compute",
					       "pipeline" };

static sqlite3_stmt *prep(struct model *m, const char *sql, int64_t profile)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(model_db(m), sql, -1, &st, NULL) != SQLITE_OK) {
		model_fail(m, "bounds");
		return NULL;
	}
	sqlite3_bind_int64(st, 1, profile);
	return st;
}

/* A real count of bytes or FLOPs as an exact integer where it fits. */
static int64_t to_int(double v)
{
	return v >= 9.2e18 ? INT64_MAX : v <= 0 ? 0 : (int64_t)llround(v);
}

/* 1 if the profile is a device profile with metadata; else why_not. */
static int has_device_metadata(struct model *m, int64_t profile,
			       struct bounds *b)
{
	struct mprofile p;
	sqlite3_stmt *st;
	int device, rc;

	if (model_profile(m, profile, &p))
		return -1;
	device = !strcmp(p.kind, "device");
	b->whole = b->t0 <= p.start && b->t1 > p.end;
	model_profile_clear(&p);
	if (!device) {
		b->why_not = "not available: not a device profile with"
			     " metadata";
		return 0;
	}
	st = prep(m, "SELECT EXISTS(SELECT 1 FROM info WHERE profile_id = ?1"
		  " AND section = 'metadata')", profile);
	if (!st)
		return -1;
	rc = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (!rc)
		b->why_not = "not available: no device metadata";
	return rc;
}

double bounds_peak(double rows, double cols, double ghz)
{
	if (!(rows >= 1 && rows <= BOUNDS_PE_MAX && cols >= 1 &&
	      cols <= BOUNDS_PE_MAX && ghz >= 1e-6 && ghz <= 1000))
		return 0;
	return 2 * rows * cols * ghz;
}

/* A metadata number under its Parquet name, else its JSON name. */
static int meta_real(struct model *m, int64_t profile, const char *parquet,
		     const char *json, double *out)
{
	int rc = infoval_real(m, profile, "metadata", parquet, out);

	if (rc > 0 && json)
		rc = infoval_real(m, profile, "metadata", json, out);
	if (rc > 0)
		*out = -1;
	return rc < 0 ? -1 : 0;
}

static int read_metadata(struct model *m, int64_t profile, struct bounds *b)
{
	double rows, cols;

	if (meta_real(m, profile, "dma_ddr_bandwidth", NULL, &b->dma_bw) ||
	    meta_real(m, profile, "hbm_ddr_bandwidth", NULL, &b->hbm_bw) ||
	    meta_real(m, profile, "tensor_engine_num_rows", "pe_num_rows",
		      &rows) ||
	    meta_real(m, profile, "tensor_engine_num_cols", "pe_num_cols",
		      &cols) ||
	    meta_real(m, profile, "tensor_engine_clock_freq", "pe_clock_freq",
		      &b->clock_ghz))
		return -1;
	b->pe_rows = rows >= 1 && rows <= BOUNDS_PE_MAX ? (int64_t)rows : -1;
	b->pe_cols = cols >= 1 && cols <= BOUNDS_PE_MAX ? (int64_t)cols : -1;
	b->peak_flops = bounds_peak(rows, cols, b->clock_ghz) * 1e9;
	return 0;
}

/* Deepest lane of the profile's rows: slice queries name every depth so
 * that the (track, depth, ts) index finds the range. */
static int max_depth(struct model *m, int64_t profile, int64_t *out)
{
	sqlite3_stmt *st = prep(m, "SELECT coalesce(max(max_depth), 0) FROM"
				" track WHERE profile_id = ?1", profile);

	if (!st)
		return -1;
	*out = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return 0;
}

/* Over the events of a kind's rows starting in [t0, t1) that pass
 * filter, the nout real columns of cols; join names the typed table or
 * the args, as x. */
static int range_query(struct model *m, const struct bounds *b,
		       int64_t profile, const char *kind, const char *join,
		       const char *cols, const char *filter, int64_t depth,
		       double *out, int nout)
{
	char *on = join ? xasprintf(" JOIN %s x ON x.slice_id = s.id", join) :
			  xstrdup("");
	char *sql = xasprintf("SELECT %s FROM track t JOIN slice s ON"
			      " s.track_id = t.id%s WHERE t.profile_id = ?1 AND"
			      " t.kind = '%s' AND s.depth IN "
			      DEPTHS_UPTO("%" PRId64) " AND s.ts >= ?2 AND"
			      " s.ts < ?3 AND %s", cols, on, kind, depth,
			      filter);
	sqlite3_stmt *st = prep(m, sql, profile);

	free(on);
	free(sql);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 2, b->t0);
	sqlite3_bind_int64(st, 3, b->t1);
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return model_fail(m, "bounds");
	}
	for (int i = 0; i < nout; i++)
		out[i] = sqlite3_column_double(st, i);
	sqlite3_finalize(st);
	return 0;
}

/* 1 if any row of the profile of this kind has events. */
static int has_rows(struct model *m, int64_t profile, const char *kind)
{
	sqlite3_stmt *st = prep(m, "SELECT EXISTS(SELECT 1 FROM track WHERE"
				" profile_id = ?1 AND kind = ?2 AND"
				" n_events > 0)", profile);
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
	rc = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc;
}

#define HBM_READ "x.hbm_read_bytes"
#define HBM_WRITE "x.hbm_write_bytes"
#define HBM_ANY "(" HBM_READ " IS NOT NULL OR " HBM_WRITE " IS NOT NULL)"

/* 1 if any instruction of the profile has HBM bytes: none in a range is
 * then 0, not unknown. */
static int has_hbm(struct model *m, int64_t profile)
{
	sqlite3_stmt *st = prep(m, "SELECT EXISTS(SELECT 1 FROM track t JOIN"
				" slice s ON s.track_id = t.id JOIN instruction x"
				" ON x.slice_id = s.id WHERE t.profile_id = ?1"
				" AND t.kind = 'engine' AND " HBM_ANY ")",
				profile);
	int rc;

	if (!st)
		return -1;
	rc = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc;
}

/* The whole profile's HBM bytes from its summary (what the spill rule
 * reads): 1 if it has neither figure. */
static int summary_hbm(struct model *m, int64_t profile, struct bounds *b)
{
	int64_t r = 0, w = 0;
	int rr = infoval_int(m, profile, "summary", "hbm_read_bytes", &r);
	int rw = infoval_int(m, profile, "summary", "hbm_write_bytes", &w);

	if (rr < 0 || rw < 0)
		return -1;
	if ((rr && rw) || r < 0 || w < 0)
		return 1;
	b->hbm_bytes = to_int((double)(rr ? 0 : r) + (double)(rw ? 0 : w));
	b->hbm_from = "summary";
	return 0;
}

/* The instructions' HBM read and write bytes, of those starting in the
 * range (the summary's for the whole profile). */
static int hbm_bytes(struct model *m, int64_t profile, int64_t depth,
		     struct bounds *b)
{
	double v[2] = { 0, 0 };
	int rc;

	b->hbm_bytes = -1;
	if (b->whole && (rc = summary_hbm(m, profile, b)) <= 0)
		return rc;
	if (range_query(m, b, profile, "engine", "instruction", "count("
			HBM_READ ") + count(" HBM_WRITE "), total(" HBM_READ
			") + total(" HBM_WRITE ")", HBM_ANY, depth, v, 2))
		return -1;
	rc = v[0] > 0 ? 1 : has_hbm(m, profile);
	if (rc > 0) {
		b->hbm_bytes = to_int(v[1]);
		b->hbm_from = "instructions";
	}
	return rc < 0 ? -1 : 0;
}

/* The sum of one row's sizes (DMA transfer bytes) over the events
 * starting in [t0, t1): from the size aggregates of a level, each size
 * times its count (its buckets whole in the range), or from the events
 * (level -1). */
static int sum_sizes(struct model *m, const struct mtrack *t, int64_t t0,
		     int64_t t1, int level, double *out)
{
	int agg = level >= 0;
	sqlite3_stmt *st;

	if (t1 <= t0)
		return 0;
	st = prep(m, agg ? "SELECT total(value * n) FROM agg WHERE"
		  " track_id = ?1 AND field = ?2 AND level = ?3 AND"
		  " bucket >= ?4 AND bucket < ?5" :
		  "SELECT total(size) FROM slice WHERE track_id = ?1 AND"
		  " depth IN " DEPTHS_UPTO("?2") " AND ts >= ?4 AND ts < ?5",
		  t->id);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 2, agg ? AGG_SIZE : t->max_depth);
	sqlite3_bind_int(st, 3, level);
	sqlite3_bind_int64(st, 4, t0);
	sqlite3_bind_int64(st, 5, t1);
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return model_fail(m, "bounds");
	}
	*out += sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	return 0;
}

/* A row's transfer bytes in the range: the buckets whole inside it from
 * the size aggregates, the edges (or all, without them) from the events. */
static int track_bytes(struct model *m, const struct mtrack *t,
		       const struct bounds *b, double *out)
{
	int64_t span = NX_MAX(t->max_ts - t->min_ts, 1), b0, b1, w;
	int lmax, lo, hi, named, level;

	if (t->lod_level < 0 || t->agg_level < 0 ||
	    !(t->agg_fields & (1u << AGG_SIZE)))
		return sum_sizes(m, t, b->t0, b->t1, -1, out);
	lmax = NX_MAX(lod_level_for(span), t->lod_level);
	agg_num_levels(AGG_SIZE, span, t->n_events, t->agg_level, lmax, &lo,
		       &hi, &named);
	level = agg_range_level(lo, hi, t->min_ts, t->max_ts, b->t0, b->t1,
				&b0, &b1);
	if (b1 <= b0)
		return sum_sizes(m, t, b->t0, b->t1, -1, out);
	w = lod_width(level);
	return sum_sizes(m, t, b0, b1, level, out) ||
	       sum_sizes(m, t, b->t0, b0 * w, -1, out) ||
	       sum_sizes(m, t, b1 * w, b->t1, -1, out) ? -1 : 0;
}

/* DMA packet bytes of the packets starting in the range (aggregated
 * transfers when the profile has no packets: summing both counts every
 * byte twice). A DMA slice carries its transfer size, which the size
 * aggregates count per bucket: a long range reads few rows. */
static int dma_bytes(struct model *m, int64_t profile, struct bounds *b)
{
	int packets = has_rows(m, profile, "dma"), rc = 0;
	const char *kind = packets ? "dma" : "dma_xfer";
	double sum = 0;
	struct mtrack *t;
	size_t n;

	if (packets < 0 || model_tracks(m, profile, &t, &n))
		return -1;
	for (size_t i = 0; i < n && !rc; i++)
		if (!strcmp(t[i].kind, kind) && t[i].n_events)
			rc = track_bytes(m, &t[i], b, &sum);
	model_tracks_free(t, n);
	if (rc)
		return -1;
	b->dma_bytes = packets || has_rows(m, profile, "dma_xfer") > 0 ?
		       to_int(sum) : -1;
	return 0;
}

struct flops_layer {
	char *name;
	int64_t flops, start, end;
};

/* 1 if another layer nests in l ("l/..."): its FLOPs are counted there. */
static int has_child(const struct flops_layer *l, size_t n, size_t i)
{
	size_t len = strlen(l[i].name), lo = i + 1, hi = n;

	/* names are sorted: the first at or after "name/" is a child if any */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strncmp(l[mid].name, l[i].name, len);

		if (c < 0 || (!c && (unsigned char)l[mid].name[len] < '/'))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !strncmp(l[lo].name, l[i].name, len) &&
	       l[lo].name[len] == '/';
}

/* The part of a layer's FLOPs inside the range, spread evenly. */
static double layer_share(const struct flops_layer *l, int64_t t0, int64_t t1)
{
	int64_t a = NX_MAX(l->start, t0), z = NX_MIN(l->end, t1);

	if (l->end <= l->start)
		return l->start >= t0 && l->start < t1 ? (double)l->flops : 0;
	if (z <= a)
		return 0;
	return (double)l->flops * ((double)(z - a) / (double)(l->end - l->start));
}

static int layer_flops(struct model *m, int64_t profile, struct bounds *b)
{
	sqlite3_stmt *st = prep(m, "SELECT name, flops, start_ns, end_ns FROM"
				" layer WHERE profile_id = ?1 AND flops >= 0"
				" ORDER BY name", profile);
	struct flops_layer *l = NULL;
	size_t n = 0, cap = 0;
	double sum = 0;

	if (!st)
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		l = xgrow(l, &cap, n + 1, sizeof(*l));
		l[n].name = xstrdup((const char *)sqlite3_column_text(st, 0));
		l[n].flops = sqlite3_column_int64(st, 1);
		l[n].start = sqlite3_column_int64(st, 2);
		l[n].end = sqlite3_column_int64(st, 3);
		n++;
	}
	sqlite3_finalize(st);
	for (size_t i = 0; i < n; i++)
		if (!has_child(l, n, i))
			sum += layer_share(&l[i], b->t0, b->t1);
	for (size_t i = 0; i < n; i++)
		free(l[i].name);
	free(l);
	if (n) {
		b->flops = to_int(sum);
		b->flops_from = "layers";
	}
	return 0;
}

/* Hardware FLOPs: the summary's for the whole profile (what the mfu rule
 * reads), else the layers'. */
static int flops(struct model *m, int64_t profile, struct bounds *b)
{
	int rc;

	b->flops = -1;
	if (b->whole) {
		rc = infoval_int(m, profile, "summary", "hardware_flops",
				 &b->flops);
		if (rc < 0)
			return -1;
		if (!rc && b->flops >= 0) {
			b->flops_from = "summary";
			return 0;
		}
		b->flops = -1;
	}
	return layer_flops(m, profile, b);
}

static void set_engine(struct bounds *b, const char *name, int64_t ns)
{
	if (ns <= b->engine_ns && b->engine)
		return;
	free(b->engine);
	b->engine = xstrdup(name ? name : "");
	b->engine_ns = ns;
}

/* One engine of one physical core, and its ActiveTime in the range. */
struct engine_time {
	char *name;
	int64_t pcore, ns;
};

struct engine_times {
	struct engine_time *e;
	size_t n, cap;
	struct strmap index;	/* pcore's 8 bytes and the name: e[i] */
};

/* A profile has a handful of engines: they are found by name before
 * a key is built and hashed (millions of rows, one lookup each). */
#define ENGINES_SCANNED 16

static struct engine_time *engine_of(struct engine_times *et,
				     const char *name, int64_t pcore)
{
	size_t len, i;
	char *key;

	for (i = 0; i < et->n && i < ENGINES_SCANNED; i++)
		if (et->e[i].pcore == pcore && !strcmp(et->e[i].name, name))
			return &et->e[i];
	len = strlen(name);
	key = xmalloc(len + sizeof(pcore));

	memcpy(key, &pcore, sizeof(pcore));
	memcpy(key + sizeof(pcore), name, len);
	if (!strmap_index(&et->index, key, len + sizeof(pcore), &i)) {
		et->e = xgrow(et->e, &et->cap, et->n + 1, sizeof(*et->e));
		et->e[et->n] = (struct engine_time){ xstrdup(name), pcore, 0 };
		i = et->n++;
		strmap_put_index(&et->index, key, len + sizeof(pcore), i);
	}
	free(key);
	return &et->e[i];
}

/* The longest ActiveTime row of the profile, in ns: rows starting that
 * much before a range may reach into it. */
static int64_t active_max(struct model *m, int64_t profile)
{
	sqlite3_stmt *st = prep(m, "SELECT coalesce(active_max_ns, 0) FROM"
				" profile WHERE id = ?1", profile);
	int64_t v = 0;

	if (!st)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* Per engine and physical core, its ActiveTime rows (merged busy
 * intervals) intersected with the range; summed in one pass, unsorted,
 * over the rows the start index finds for the range. */
static int active_rows(struct model *m, int64_t profile, struct bounds *b)
{
	int64_t longest = active_max(m, profile);
	/* clipped and defaulted here, not by SQL functions: millions of
	 * rows */
	sqlite3_stmt *st = longest < 0 ? NULL :
		prep(m, "SELECT engine, pcore_idx, start_ns, end_ns FROM"
		     " active_time WHERE profile_id = ?1 AND start_ns >= ?4"
		     " AND start_ns < ?3 AND end_ns > ?2", profile);
	struct engine_times et = { 0 };

	if (!st)
		return -1;
	strmap_init(&et.index);
	sqlite3_bind_int64(st, 2, b->t0);
	sqlite3_bind_int64(st, 3, b->t1);
	sqlite3_bind_int64(st, 4, sat_add(b->t0, -longest));
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t s = NX_MAX(sqlite3_column_int64(st, 2), b->t0);
		int64_t z = NX_MIN(sqlite3_column_int64(st, 3), b->t1);
		const char *name = (const char *)sqlite3_column_text(st, 0);
		/* a NULL pcore_idx reads as 0 */
		struct engine_time *t = engine_of(&et, name ? name : "",
						  sqlite3_column_int64(st, 1));

		if (z > s)
			t->ns = sat_add(t->ns, z - s);
	}
	sqlite3_finalize(st);
	for (size_t i = 0; i < et.n; i++) {
		struct engine_time *e = &et.e[i];
		char *name = e->pcore ? xasprintf("%s (pcore %" PRId64 ")",
						  e->name, e->pcore)
				      : xstrdup(e->name);

		set_engine(b, name, e->ns);
		free(name);
		free(e->name);
	}
	free(et.e);
	strmap_free(&et.index, NULL);
	return 0;
}

/* Without ActiveTime rows: each engine row's busy time in the range. */
static int engine_rows(struct model *m, int64_t profile, struct bounds *b)
{
	struct mtrack *t;
	size_t n;
	int64_t busy;
	int rc = 0;

	if (model_tracks(m, profile, &t, &n))
		return -1;
	for (size_t i = 0; i < n && !rc; i++) {
		if (strcmp(t[i].kind, "engine") || !t[i].n_events)
			continue;
		if (!(rc = busy_track(m, &t[i], b->t0, b->t1, &busy)))
			set_engine(b, t[i].name, busy);
	}
	model_tracks_free(t, n);
	return rc;
}

static int busiest_engine(struct model *m, int64_t profile, struct bounds *b)
{
	sqlite3_stmt *st = prep(m, "SELECT EXISTS(SELECT 1 FROM active_time"
				" WHERE profile_id = ?1)", profile);
	int have;

	if (!st)
		return -1;
	have = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	b->engine_ns = -1;
	if (have) {
		b->engine_ns = 0;
		return active_rows(m, profile, b);
	}
	if (has_rows(m, profile, "engine") > 0)
		b->engine_ns = 0;
	return engine_rows(m, profile, b);
}

/* The larger of bytes / bandwidth over DMA and HBM, in ns. */
static void memory_bound(struct bounds *b)
{
	double ns = -1;

	if (b->dma_bytes >= 0 && b->dma_bw > 0)
		ns = (double)b->dma_bytes * 1e9 / b->dma_bw;
	if (b->hbm_bytes >= 0 && b->hbm_bw > 0)
		ns = NX_MAX(ns, (double)b->hbm_bytes * 1e9 / b->hbm_bw);
	if (ns >= 0)
		b->ns[BOUND_MEMORY] = to_int(ns);
	else if (b->dma_bw <= 0 && b->hbm_bw <= 0)
		b->missing[BOUND_MEMORY] = "no dma_ddr_bandwidth or"
					   " hbm_ddr_bandwidth in metadata";
	else
		b->missing[BOUND_MEMORY] = "no DMA or HBM bytes with a"
					   " bandwidth in metadata";
}

static void finish(struct bounds *b)
{
	int64_t best = -1;

	memory_bound(b);
	if (b->peak_flops <= 0)
		b->missing[BOUND_COMPUTE] = "no pe_num_rows, pe_num_cols,"
			" pe_clock_freq in metadata";
	else if (b->flops < 0)
		b->missing[BOUND_COMPUTE] = "no hardware FLOPs (summary or"
			" layers)";
	else
		b->ns[BOUND_COMPUTE] = to_int((double)b->flops * 1e9 /
					      b->peak_flops);
	if (b->engine_ns >= 0)
		b->ns[BOUND_PIPELINE] = b->engine_ns;
	else
		b->missing[BOUND_PIPELINE] = "no engine rows";
	b->binding = -1;
	for (int k = 0; k < BOUND_COUNT; k++) {
		if (b->ns[k] > best) {
			best = b->ns[k];
			b->binding = k;
		}
	}
	if (best > 0)
		b->speedup = (double)(b->end - b->t0) / (double)best;
}

int bounds_compute(struct model *m, int64_t profile, int64_t t0, int64_t t1,
		   struct bounds *b)
{
	int64_t depth;
	int rc;

	memset(b, 0, sizeof(*b));
	b->t0 = t0;
	b->t1 = t1;
	b->end = model_range_end(m, profile, t1);
	for (int k = 0; k < BOUND_COUNT; k++)
		b->ns[k] = -1;
	b->binding = -1;
	if ((rc = has_device_metadata(m, profile, b)) <= 0)
		return rc;
	b->available = 1;
	if (read_metadata(m, profile, b) || max_depth(m, profile, &depth) ||
	    dma_bytes(m, profile, b) || hbm_bytes(m, profile, depth, b) ||
	    flops(m, profile, b) ||
	    busiest_engine(m, profile, b))
		return -1;
	finish(b);
	return 0;
}

void bounds_free(struct bounds *b)
{
	free(b->engine);
	b->engine = NULL;
}

static struct bound_fig *fig(struct bound_fig *out, size_t *n, const char *key,
			     int known)
{
	struct bound_fig *f = &out[(*n)++];

	memset(f, 0, sizeof(*f));
	f->key = key;
	f->known = known;
	return f;
}

static void fig_int(struct bound_fig *out, size_t *n, const char *key,
		    int64_t v)
{
	fig(out, n, key, v >= 0)->i = v;
}

static void fig_real(struct bound_fig *out, size_t *n, const char *key,
		     double v)
{
	struct bound_fig *f = fig(out, n, key, v > 0);

	f->is_real = 1;
	f->r = v;
}

static void fig_text(struct bound_fig *out, size_t *n, const char *key,
		     const char *s)
{
	struct bound_fig *f = fig(out, n, key, s != NULL);

	f->is_text = 1;
	f->s = s;
}

size_t bounds_figures(const struct bounds *b, struct bound_fig *out)
{
	size_t n = 0;

	fig_int(out, &n, "range_ns", b->end - b->t0);
	fig_int(out, &n, "dma_bytes", b->dma_bytes);
	fig_real(out, &n, "dma_bandwidth_bps", b->dma_bw);
	fig_int(out, &n, "hbm_bytes", b->hbm_bytes);
	fig_text(out, &n, "hbm_from", b->hbm_from);
	fig_real(out, &n, "hbm_bandwidth_bps", b->hbm_bw);
	fig_int(out, &n, "memory_ns", b->ns[BOUND_MEMORY]);
	fig_text(out, &n, "memory_missing", b->missing[BOUND_MEMORY]);
	fig_int(out, &n, "flops", b->flops);
	fig_text(out, &n, "flops_from", b->flops_from);
	fig_int(out, &n, "pe_rows", b->pe_rows);
	fig_int(out, &n, "pe_cols", b->pe_cols);
	fig_real(out, &n, "clock_ghz", b->clock_ghz);
	fig_real(out, &n, "peak_flops_per_s", b->peak_flops);
	fig_int(out, &n, "compute_ns", b->ns[BOUND_COMPUTE]);
	fig_text(out, &n, "compute_missing", b->missing[BOUND_COMPUTE]);
	fig_text(out, &n, "engine", b->engine);
	fig_int(out, &n, "engine_active_ns", b->engine ? b->engine_ns : -1);
	fig_int(out, &n, "pipeline_ns", b->ns[BOUND_PIPELINE]);
	fig_text(out, &n, "pipeline_missing", b->missing[BOUND_PIPELINE]);
	fig_text(out, &n, "binding", b->binding >= 0 ? bound_names[b->binding]
						     : NULL);
	fig_int(out, &n, "binding_ns", b->binding >= 0 ? b->ns[b->binding] : -1);
	fig_real(out, &n, "speedup", b->speedup);
	return n;
}
