#include "config.h"

#include "src/demo/demo_pqmeta.h"

#include <inttypes.h>
#include <stdio.h>

#include "model/util.h"
#include "src/demo/demo_pqtab.h"

/* The descriptive device tables: NeffHeader, TensorInfo and
 * HbmUsageSummaryByType, the JSON's neff_header, neff_node and
 * nc_mem_usage (FORMATS.md §1.2 pairs them) with the JSON's field names
 * and types, which §1.5 does not list for these tables. */

static int neff_header(struct demo_pq *pq, const char *dir,
		       const struct demo_model *m)
{
	const char *kv[DEMO_NEFF_KEYS][2];
	struct pqw_field f[DEMO_NEFF_KEYS];
	struct pqtab t;
	char num[24];

	demo_neff_header(m, kv, num);
	for (int i = 0; i < DEMO_NEFF_KEYS; i++)
		f[i] = (struct pqw_field){ kv[i][0], PQW_STRING, 0 };
	if (pqtab_open(&t, pq, dir, "NeffHeader", f, DEMO_NEFF_KEYS, 1))
		return -1;
	for (int i = 0; i < DEMO_NEFF_KEYS; i++)
		pqw_str(t.w, i, kv[i][1]);
	pqtab_row(&t);
	return pqtab_close(&t);
}

enum {
	V_NAME, V_TYPE, V_FORMAT, V_SHAPE, V_SIZE, V_SG, V_NODE, V_COUNT,
	V_REPEAT, V_TOTAL, V_AVG, V_N
};

static const struct pqw_field var_fields[V_N] = {
	{ "variable_name", PQW_STRING, 0 }, { "type", PQW_STRING, 0 },
	{ "format", PQW_STRING, 0 }, { "shape", PQW_STRING, 0 },
	{ "size", PQW_STRING, 0 }, { "sg_name", PQW_STRING, 0 },
	{ "node", PQW_STRING, 1 },
	{ "load_to_sbuf_dma_count", PQW_INT64, 1 },
	{ "load_to_sbuf_repeat_factor", PQW_INT64, 1 },
	{ "load_to_sbuf_total_size_bytes", PQW_INT64, 1 },
	{ "load_to_sbuf_avg_size_bytes", PQW_INT64, 1 },
};

static void var_row(struct pqtab *t, const struct demo_model *m,
		    const struct demo_stats *st, int i)
{
	const struct demo_var *v = &m->var[i];
	struct demo_loads l;
	char buf[48];

	pqw_str(t->w, V_NAME, v->name);
	pqw_str(t->w, V_TYPE, demo_vtype_name[v->type]);
	pqw_str(t->w, V_FORMAT, demo_vtype_format[v->type]);
	snprintf(buf, sizeof(buf), "[%" PRIu32 " %" PRIu32 "]", v->rows,
		 v->cols);
	pqw_str(t->w, V_SHAPE, buf);
	snprintf(buf, sizeof(buf), "%" PRIu64, v->size);
	pqw_str(t->w, V_SIZE, buf);
	pqw_str(t->w, V_SG, v->type == V_SPILL ? "sg00" : "");
	if (v->type == V_SPILL)
		pqw_str(t->w, V_NODE, m->layer[v->layer].name);
	if (v->type == V_WEIGHT) {
		demo_var_loads(v, st->var_bytes[i], st->var_xfers[i], &l);
		pqw_i64(t->w, V_COUNT, (int64_t)l.count);
		pqw_i64(t->w, V_REPEAT, (int64_t)l.repeat);
		pqw_i64(t->w, V_TOTAL, (int64_t)l.total);
		pqw_i64(t->w, V_AVG, (int64_t)l.avg);
	}
	pqtab_row(t);
}

static int tensors(struct demo_pq *pq, const char *dir,
		   const struct demo_model *m, const struct demo_stats *st)
{
	struct pqtab t;

	if (pqtab_open(&t, pq, dir, "TensorInfo", var_fields, V_N,
		       (uint64_t)m->nvars))
		return -1;
	for (int i = 0; i < m->nvars && !t.err; i++)
		var_row(&t, m, st, i);
	return pqtab_close(&t);
}

static const struct pqw_field mem_fields[] = {
	{ "nd", PQW_INT64, 0 }, { "nc", PQW_INT64, 0 },
	{ "usage_type", PQW_STRING, 0 }, { "amount_bytes", PQW_INT64, 0 },
};

struct mem_rows {
	struct pqtab t;
	int nc;
};

static void mem_row(void *ctx, const char *type, uint64_t bytes)
{
	struct mem_rows *r = ctx;

	if (r->t.err)
		return;
	pqw_i64(r->t.w, 0, 0);
	pqw_i64(r->t.w, 1, r->nc);
	pqw_str(r->t.w, 2, type);
	pqw_i64(r->t.w, 3, (int64_t)bytes);
	pqtab_row(&r->t);
}

static int memory(struct demo_pq *pq, const char *dir,
		  const struct demo_model *m)
{
	struct mem_rows r = { .nc = m->nc_idx };

	if (pqtab_open(&r.t, pq, dir, "HbmUsageSummaryByType", mem_fields,
		       (int)NX_ARRAY_SIZE(mem_fields), 0))
		return -1;
	demo_mem_each(m, mem_row, &r);
	return pqtab_close(&r.t);
}

const struct demo_pq_table demo_pq_info_tables[] = {
	{ "TensorInfo", var_fields, V_N },
	{ "HbmUsageSummaryByType", mem_fields, (int)NX_ARRAY_SIZE(mem_fields) },
	{ NULL, NULL, 0 },
};

int demo_pq_info(struct demo_pq *pq, const char *dir,
		 const struct demo_model *m, const struct demo_stats *st)
{
	if (neff_header(pq, dir, m) || tensors(pq, dir, m, st))
		return -1;
	return memory(pq, dir, m);
}
