#include "config.h"

#include "src/demo/demo_pqmeta.h"

#include <stdlib.h>
#include <string.h>

#include "model/util.h"
#include "src/demo/demo_pqinst.h"
#include "src/demo/demo_pqtab.h"

/* ---- ActiveTime and SemaphoreUpdate: one more replay ---- */

static const struct pqw_field active_fields[] = {
	{ "start_ts", PQW_INT64, 0 }, { "end_ts", PQW_INT64, 0 },
	{ "duration_ns", PQW_INT64, 0 }, { "pcore_idx", PQW_INT64, 0 },
	{ "engine", PQW_STRING, 0 },
};

static const struct pqw_field sem_fields[] = {
	{ "timestamp", PQW_INT64, 0 }, { "id", PQW_STRING, 0 },
	{ "value", PQW_INT32, 0 },
};

struct timeline {
	struct pqtab active, sem;
	struct demo_merge merge[ENG_N];
};

static void active_row(struct pqtab *t, int e, const uint64_t iv[2])
{
	if (t->err)
		return;
	pqw_i64(t->w, 0, (int64_t)iv[0]);
	pqw_i64(t->w, 1, (int64_t)iv[1]);
	pqw_i64(t->w, 2, (int64_t)(iv[1] - iv[0]));
	pqw_i64(t->w, 3, 0);
	pqw_str(t->w, 4, demo_eng_lower[e]);
	pqtab_row(t);
}

/* Merged busy intervals per engine, as the JSON's active_time. */
static void active_inst(void *ctx, const struct demo_inst *in)
{
	struct timeline *c = ctx;
	int e = demo_track_eng[in->track];
	uint64_t iv[2];

	if (demo_busy(in) &&
	    demo_merge_add(&c->merge[e], in->ts, in->ts + in->dur, iv))
		active_row(&c->active, e, iv);
}

static void sem_row(void *ctx, int sem, uint32_t value, uint64_t ts)
{
	struct pqtab *t = &((struct timeline *)ctx)->sem;
	char id[16];

	if (t->err)
		return;
	snprintf(id, sizeof(id), "%u", demo_sems[sem].num);
	pqw_i64(t->w, 0, (int64_t)ts);
	pqw_str(t->w, 1, id);
	pqw_i32(t->w, 2, (int32_t)value);
	pqtab_row(t);
}

int demo_pq_timeline(struct demo_pq *pq, const char *dir,
		     const struct demo_model *m)
{
	struct timeline *c = xcalloc(1, sizeof(*c));
	struct demo_sink s = { .inst = active_inst, .sem = sem_row, .ctx = c };
	uint64_t iv[2];
	int rc = -1;

	if (pqtab_open(&c->active, pq, dir, "ActiveTime", active_fields,
		       (int)NX_ARRAY_SIZE(active_fields), 0))
		goto out;
	if (pqtab_open(&c->sem, pq, dir, "SemaphoreUpdate", sem_fields,
		       (int)NX_ARRAY_SIZE(sem_fields), 0)) {
		c->active.err = 1;
		pqtab_close(&c->active);
		goto out;
	}
	demo_gen_run(m, &s);
	for (int e = 0; e < ENG_N; e++)
		if (demo_merge_close(&c->merge[e], iv))
			active_row(&c->active, e, iv);
	rc = pqtab_close(&c->active);
	if (rc)
		c->sem.err = 1;
	rc = pqtab_close(&c->sem) || rc ? -1 : 0;
out:
	free(c);
	return rc;
}

/* ---- tables of one or a few rows ---- */

static const struct pqw_field warning_fields[] = {
	{ "message", PQW_STRING, 0 }, { "category", PQW_STRING, 0 },
};

static int warnings(struct demo_pq *pq, const char *dir)
{
	struct pqtab t;

	if (pqtab_open(&t, pq, dir, "Warning", warning_fields,
		       (int)NX_ARRAY_SIZE(warning_fields), 0))
		return -1;
	for (size_t i = 0; i < NX_ARRAY_SIZE(demo_warnings) && !t.err; i++) {
		pqw_str(t.w, 0, demo_warnings[i][1]);
		pqw_str(t.w, 1, demo_warnings[i][0]);
		pqtab_row(&t);
	}
	return pqtab_close(&t);
}

static const struct pqw_field queue_fields[] = {
	{ "name", PQW_STRING, 0 }, { "type", PQW_STRING, 0 },
	{ "pcore_idx", PQW_INT64, 0 }, { "idx", PQW_INT64, 0 },
	{ "engine_idx", PQW_INT64, 0 }, { "axi_port", PQW_INT64, 0 },
	{ "dram_channel", PQW_INT64, 0 },
};

/* The queues the JSON's dma_queues_info lists. */
static int queues(struct demo_pq *pq, const char *dir)
{
	struct pqtab t;

	if (pqtab_open(&t, pq, dir, "DmaQueuesInfo", queue_fields,
		       (int)NX_ARRAY_SIZE(queue_fields), 0))
		return -1;
	for (int i = 0; i < Q_N && !t.err; i++) {
		const struct demo_queueinfo *q = &demo_queues[i];

		if (!q->info_name)
			continue;
		pqw_str(t.w, 0, q->info_name);
		pqw_str(t.w, 1, q->q_type);
		pqw_i64(t.w, 2, 0);
		pqw_i64(t.w, 3, q->idx);
		pqw_i64(t.w, 4, q->eng);
		pqw_i64(t.w, 5, i & 1);
		pqw_i64(t.w, 6, i & 1);
		pqtab_row(&t);
	}
	return pqtab_close(&t);
}

enum {
	M_VERSION, M_NTFF, M_CORES, M_VNC, M_FIRST_HW, M_LAST_HW, M_FIRST_TS,
	M_LAST_TS, M_DMA_BW, M_DMA_ENGINES, M_HBM_BW, M_ROWS, M_COLS,
	M_PE_CLOCK, M_OTHER_CLOCK, M_TICKS, M_SIMULATION, M_N
};

static const struct pqw_field meta_fields[M_N] = {
	{ "profile_schema_version", PQW_STRING, 0 },
	{ "ntff_version", PQW_INT64, 0 },
	{ "num_physical_cores", PQW_INT64, 0 },
	{ "vnc_enabled", PQW_BOOLEAN, 0 },
	{ "first_hw_timestamp", PQW_INT64, 0 },
	{ "last_hw_timestamp", PQW_INT64, 0 },
	{ "first_ts", PQW_STRING, 0 }, { "last_ts", PQW_STRING, 0 },
	{ "dma_ddr_bandwidth", PQW_INT64, 0 },
	{ "num_dma_engines_per_neuroncore", PQW_INT64, 0 },
	{ "hbm_ddr_bandwidth", PQW_INT64, 0 },
	{ "tensor_engine_num_rows", PQW_INT64, 0 },
	{ "tensor_engine_num_cols", PQW_INT64, 0 },
	{ "tensor_engine_clock_freq", PQW_DOUBLE, 0 },
	{ "vector_engine_clock_freq", PQW_DOUBLE, 0 },
	{ "ticks_per_nanosec", PQW_INT64, 0 },
	{ "is_simulation", PQW_BOOLEAN, 1 },
};

/* "1970-01-01T00:00:00.00187386Z" for 1873860 ns, as the JSON has it. */
static void iso(char *buf, size_t n, uint64_t ns)
{
	uint64_t s = ns / 1000000000;
	char frac[16];
	int len;

	len = snprintf(frac, sizeof(frac), ".%09u", (unsigned)(ns % 1000000000));
	while (len > 1 && frac[len - 1] == '0')
		frac[--len] = 0;
	snprintf(buf, n, "1970-01-01T%02u:%02u:%02u%sZ", (unsigned)(s / 3600 % 100),
		 (unsigned)(s / 60 % 60), (unsigned)(s % 60), len > 1 ? frac : "");
}

/* The JSON's metadata values under Metadata's names (pe_* are the
 * tensor engine's; pe_clock_others the other engines' clock). */
static int metadata(struct demo_pq *pq, const char *dir,
		    const struct demo_totals *t)
{
	struct pqtab tab;
	struct pqw *w;
	char buf[64];

	if (pqtab_open(&tab, pq, dir, "Metadata", meta_fields, M_N, 1))
		return -1;
	w = tab.w;
	pqw_str(w, M_VERSION, DEMO_PQ_SCHEMA_VERSION);
	pqw_i64(w, M_NTFF, 5);
	pqw_i64(w, M_CORES, 1);
	pqw_bool(w, M_VNC, 0);
	pqw_i64(w, M_FIRST_HW, 0);
	pqw_i64(w, M_LAST_HW, (int64_t)t->last_hw);
	pqw_str(w, M_FIRST_TS, "1970-01-01T00:00:00Z");
	iso(buf, sizeof(buf), t->last_hw);
	pqw_str(w, M_LAST_TS, buf);
	pqw_i64(w, M_DMA_BW, 435000000000);
	pqw_i64(w, M_DMA_ENGINES, DEMO_DMA_ENGINES);
	pqw_i64(w, M_HBM_BW, 410000000000);
	pqw_i64(w, M_ROWS, 128);
	pqw_i64(w, M_COLS, 128);
	pqw_double(w, M_PE_CLOCK, 2.8);
	pqw_double(w, M_OTHER_CLOCK, 1.4);
	pqw_i64(w, M_TICKS, 1000);
	pqw_bool(w, M_SIMULATION, 0);
	pqtab_row(&tab);
	return pqtab_close(&tab);
}

/* ---- Summary: one row, a column per summary key ---- */

struct svals {
	struct demo_sval *v;
	size_t n;
};

static void collect(void *ctx, const struct demo_sval *v)
{
	struct svals *s = ctx;

	s->v = xreallocarray(s->v, s->n + 1, sizeof(*s->v));
	s->v[s->n++] = *v;
}

static enum pqw_type sval_type(const struct demo_sval *v)
{
	return v->kind == 'i' ? PQW_INT64 : v->kind == 'f' ? PQW_DOUBLE :
				PQW_STRING;
}

static int summary(struct demo_pq *pq, const char *dir,
		   const struct svals *s)
{
	struct pqw_field *f = xcalloc(s->n, sizeof(*f));
	struct pqtab t;
	int rc = -1;

	for (size_t i = 0; i < s->n; i++) {
		f[i].name = s->v[i].key;
		f[i].type = sval_type(&s->v[i]);
		f[i].optional = 1;
	}
	if (pqtab_open(&t, pq, dir, "Summary", f, (int)s->n, 1))
		goto out;
	for (size_t i = 0; i < s->n; i++) {
		const struct demo_sval *v = &s->v[i];

		if (v->kind == 'i')
			pqw_i64(t.w, (int)i, (int64_t)v->u);
		else if (v->kind == 'f')
			pqw_double(t.w, (int)i, v->f);
		else
			pqw_str(t.w, (int)i, v->s);
	}
	pqtab_row(&t);
	rc = pqtab_close(&t);
out:
	free(f);
	return rc;
}

/* ---- SchemaFields: every column of every table written ---- */

static const struct pqw_field schema_fields[] = {
	{ "table_name", PQW_STRING, 0 }, { "field_name", PQW_STRING, 0 },
	{ "type", PQW_STRING, 0 }, { "description", PQW_STRING, 1 },
	{ "unit", PQW_STRING, 1 },
};

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* Units follow from the names, as in the documented schema. */
static const char *unit(const char *table, const char *field)
{
	if (!strcmp(table, "Summary"))
		return has_suffix(field, "_time") ? "s" :
		       has_suffix(field, "_bytes") || has_suffix(field, "_size") ?
		       "B" : NULL;
	if (has_suffix(field, "_ts") || has_suffix(field, "_ns") ||
	    has_suffix(field, "_timestamp") || !strcmp(field, "timestamp"))
		return "ns";
	if (has_suffix(field, "_bytes"))
		return "B";
	if (!strcmp(field, "throughput") || has_suffix(field, "_bandwidth"))
		return "B/s";
	return has_suffix(field, "_freq") ? "GHz" : NULL;
}

static void schema_rows(struct pqtab *t, const char *table,
			const struct pqw_field *f, int n,
			const struct svals *s)
{
	for (int i = 0; i < n && !t->err; i++) {
		pqw_str(t->w, 0, table);
		pqw_str(t->w, 1, f[i].name);
		pqw_str(t->w, 2, pqtab_type_name(f[i].type));
		pqw_str(t->w, 3, s ? s->v[i].desc : NULL);
		pqw_str(t->w, 4, unit(table, f[i].name));
		pqtab_row(t);
	}
}

static int schema(struct demo_pq *pq, const char *dir, const struct svals *s)
{
	struct pqtab t;
	struct pqw_field *sf = xcalloc(s->n, sizeof(*sf));
	const struct pqw_field *f;
	int n;

	for (size_t i = 0; i < s->n; i++) {
		sf[i].name = s->v[i].key;
		sf[i].type = sval_type(&s->v[i]);
	}
	if (pqtab_open(&t, pq, dir, "SchemaFields", schema_fields,
		       (int)NX_ARRAY_SIZE(schema_fields), 0)) {
		free(sf);
		return -1;
	}
	f = demo_pq_inst_fields(&n);
	schema_rows(&t, "Instruction", f, n, NULL);
	f = demo_pq_flow_fields(&n);
	schema_rows(&t, "Flow", f, n, NULL);
	f = demo_pq_pkt_fields(&n);
	schema_rows(&t, "DmaPacket", f, n, NULL);
	f = demo_pq_agg_fields(&n);
	schema_rows(&t, "DmaPacketAggregated", f, n, NULL);
	schema_rows(&t, "ActiveTime", active_fields,
		    (int)NX_ARRAY_SIZE(active_fields), NULL);
	schema_rows(&t, "SemaphoreUpdate", sem_fields,
		    (int)NX_ARRAY_SIZE(sem_fields), NULL);
	schema_rows(&t, "Warning", warning_fields,
		    (int)NX_ARRAY_SIZE(warning_fields), NULL);
	schema_rows(&t, "DmaQueuesInfo", queue_fields,
		    (int)NX_ARRAY_SIZE(queue_fields), NULL);
	schema_rows(&t, "Metadata", meta_fields, M_N, NULL);
	for (const struct demo_pq_table *c = demo_pq_counter_tables; c->name;
	     c++)
		schema_rows(&t, c->name, c->fields, c->n, NULL);
	for (const struct demo_pq_table *c = demo_pq_info_tables; c->name; c++)
		schema_rows(&t, c->name, c->fields, c->n, NULL);
	schema_rows(&t, "Summary", sf, (int)s->n, s);
	free(sf);
	return pqtab_close(&t);
}

int demo_pq_meta(struct demo_pq *pq, const char *dir,
		 const struct demo_model *m, const struct demo_stats *st,
		 const struct demo_totals *t)
{
	struct svals s = { NULL, 0 };
	int rc;

	demo_summary_each(m, st, t, collect, &s);
	rc = warnings(pq, dir);
	if (!rc)
		rc = queues(pq, dir);
	if (!rc)
		rc = summary(pq, dir, &s);
	if (!rc)
		rc = schema(pq, dir, &s);
	if (!rc)
		rc = metadata(pq, dir, t);
	free(s.v);
	return rc;
}
