#include "config.h"

#include "src/demo/demo_pqmeta.h"

#include "model/util.h"
#include "src/demo/demo_pqtab.h"

/* The sampled counters of the Parquet demo: DmaUsage, PendingDma,
 * SbufUsage, PsumUsage (the JSON's dma_throughput, pending_dma and
 * instruction_usage) and Throttle (ham), with the JSON's field names:
 * FORMATS.md §1.5 names these tables but not their fields, and the
 * Throttle fields it lists are the JSON's. */

static const struct pqw_field usage_fields[] = {
	{ "timestamp", PQW_INT64, 0 },
	{ "total_transfer_bytes", PQW_INT64, 0 },
	{ "hbm_total_transfer_bytes", PQW_INT64, 0 },
	{ "transfer_rate", PQW_INT64, 0 },
	{ "hbm_transfer_rate", PQW_INT64, 0 },
	{ "uses_hbm", PQW_BOOLEAN, 0 },
};

static const struct pqw_field pending_fields[] = {
	{ "timestamp", PQW_INT64, 0 }, { "value", PQW_INT64, 0 },
};

static const struct pqw_field sbuf_fields[] = {
	{ "timestamp", PQW_INT64, 0 }, { "usage_avg", PQW_DOUBLE, 0 },
	{ "partition_0_usage", PQW_DOUBLE, 0 },
	{ "partition_32_usage", PQW_DOUBLE, 0 },
	{ "partition_64_usage", PQW_DOUBLE, 0 },
	{ "partition_96_usage", PQW_DOUBLE, 0 },
};

static const struct pqw_field psum_fields[] = {
	{ "timestamp", PQW_INT64, 0 }, { "usage_avg", PQW_DOUBLE, 0 },
	{ "bank_0_usage", PQW_DOUBLE, 0 }, { "bank_1_usage", PQW_DOUBLE, 0 },
	{ "bank_2_usage", PQW_DOUBLE, 0 }, { "bank_3_usage", PQW_DOUBLE, 0 },
	{ "bank_4_usage", PQW_DOUBLE, 0 }, { "bank_5_usage", PQW_DOUBLE, 0 },
	{ "bank_6_usage", PQW_DOUBLE, 0 }, { "bank_7_usage", PQW_DOUBLE, 0 },
};

static const struct pqw_field throttle_fields[] = {
	{ "duration", PQW_INT64, 0 }, { "timestamp", PQW_INT64, 0 },
	{ "k", PQW_INT64, 0 }, { "n", PQW_INT64, 0 }, { "type", PQW_INT64, 0 },
};

const struct demo_pq_table demo_pq_counter_tables[] = {
	{ "DmaUsage", usage_fields, (int)NX_ARRAY_SIZE(usage_fields) },
	{ "PendingDma", pending_fields, (int)NX_ARRAY_SIZE(pending_fields) },
	{ "SbufUsage", sbuf_fields, (int)NX_ARRAY_SIZE(sbuf_fields) },
	{ "PsumUsage", psum_fields, (int)NX_ARRAY_SIZE(psum_fields) },
	{ "Throttle", throttle_fields, (int)NX_ARRAY_SIZE(throttle_fields) },
	{ NULL, NULL, 0 },
};

enum { T_USAGE, T_PENDING, T_SBUF, T_PSUM, T_THROTTLE, T_N };

static void usage_row(void *ctx, const struct demo_throughput *r)
{
	struct pqtab *t = ctx;

	if (t->err)
		return;
	pqw_i64(t->w, 0, (int64_t)r->ts);
	pqw_i64(t->w, 1, (int64_t)r->total);
	pqw_i64(t->w, 2, (int64_t)r->hbm_total);
	pqw_i64(t->w, 3, (int64_t)r->rate);
	pqw_i64(t->w, 4, (int64_t)r->hbm_rate);
	pqw_bool(t->w, 5, r->uses_hbm);
	pqtab_row(t);
}

static void pending_row(void *ctx, uint64_t ts, uint64_t value)
{
	struct pqtab *t = ctx;

	if (t->err)
		return;
	pqw_i64(t->w, 0, (int64_t)ts);
	pqw_i64(t->w, 1, (int64_t)value);
	pqtab_row(t);
}

/* SBUF rows into t[0], PSUM rows into t[1]. */
static void sbuf_psum_row(void *ctx, const struct demo_usage *r)
{
	struct pqtab *t = ctx;

	if (!t[0].err) {
		pqw_i64(t[0].w, 0, (int64_t)r->ts);
		pqw_double(t[0].w, 1, r->sb_avg);
		for (int q = 0; q < 4; q++)
			pqw_double(t[0].w, 2 + q, r->part[q]);
		pqtab_row(&t[0]);
	}
	if (!t[1].err) {
		pqw_i64(t[1].w, 0, (int64_t)r->ts);
		pqw_double(t[1].w, 1, r->psum_avg);
		for (int b = 0; b < 8; b++)
			pqw_double(t[1].w, 2 + b, (r->banks >> b) & 1);
		pqtab_row(&t[1]);
	}
}

static void throttle(struct pqtab *t, const struct demo_model *m,
		     uint64_t last_hw)
{
	struct demo_ham h;
	struct demo_ham_row r;

	demo_ham_init(&h, m, last_hw);
	while (!t->err && demo_ham_next(&h, &r)) {
		pqw_i64(t->w, 0, (int64_t)r.dur);
		pqw_i64(t->w, 1, (int64_t)r.ts);
		pqw_i64(t->w, 2, r.k);
		pqw_i64(t->w, 3, r.n);
		pqw_i64(t->w, 4, r.type);
		pqtab_row(t);
	}
}

int demo_pq_counters(struct demo_pq *pq, const char *dir,
		     const struct demo_model *m, uint64_t last_hw)
{
	const struct demo_pq_table *tb = demo_pq_counter_tables;
	struct pqtab t[T_N];
	struct demo_counters *c;
	int n = 0, rc = 0;

	for (; n < T_N; n++)
		if (pqtab_open(&t[n], pq, dir, tb[n].name, tb[n].fields,
			       tb[n].n, 0))
			break;
	if (n == T_N) {
		c = demo_counters_run(m, last_hw);
		demo_counters_throughput(c, usage_row, &t[T_USAGE]);
		demo_counters_pending(c, pending_row, &t[T_PENDING]);
		demo_counters_usage(c, sbuf_psum_row, &t[T_SBUF]);
		demo_counters_free(c);
		throttle(&t[T_THROTTLE], m, last_hw);
	} else {
		rc = -1;
	}
	for (int i = 0; i < n; i++) {
		if (rc)
			t[i].err = 1;
		if (pqtab_close(&t[i]))
			rc = -1;
	}
	return rc;
}
