#include "config.h"

#include "src/demo/demo_int.h"

#include <stdlib.h>

#include "model/util.h"

/* Sampled counter tracks: dma_throughput, pending_dma and
 * instruction_usage.  One replay fills a fixed number of time buckets
 * (at most 65536, so memory stays bounded); the sections are written
 * from the buckets. */

struct demo_counters {
	uint64_t width;		/* ns per bucket */
	uint32_t n;
	uint64_t *bytes, *hbm;	/* DMA bytes whose packet starts in the bucket */
	int32_t *pending;	/* transfers started minus transfers ended */
	uint64_t *sbuf;		/* SBUF bytes written */
	uint8_t *psum;		/* PSUM banks written, a bit per bank */
};

/* Instruction-usage rows cover this many buckets each. */
#define USAGE_STRIDE 4

static uint32_t bucket(const struct demo_counters *c, uint64_t ts)
{
	uint64_t b = ts / c->width;

	return (uint32_t)(b < c->n ? b : c->n - 1);
}

static void count_xfer(void *ctx, const struct demo_xfer *x)
{
	struct demo_counters *c = ctx;
	int hbm = !demo_qtype_dynamic(x->qtype);
	uint32_t end = bucket(c, x->end) + 1;

	for (int i = 0; i < x->npkt; i++) {
		uint32_t b = bucket(c, x->pkt[i].ts);

		c->bytes[b] += x->pkt[i].size;
		if (hbm)
			c->hbm[b] += x->pkt[i].size;
	}
	c->pending[bucket(c, x->ts)]++;
	if (end < c->n)
		c->pending[end]--;
}

static void count_inst(void *ctx, const struct demo_inst *in)
{
	struct demo_counters *c = ctx;
	uint32_t b = bucket(c, in->ts);

	if (in->has & (1u << B_SBUF_WRITE))
		c->sbuf[b] += in->bytes[B_SBUF_WRITE];
	if (in->op == OP_MATMUL)
		c->psum[b] |= (uint8_t)(1u << ((in->aux >> 40) & 7));
}

struct demo_counters *demo_counters_run(const struct demo_model *m,
					uint64_t last_hw)
{
	struct demo_counters *c = xcalloc(1, sizeof(*c));
	struct demo_sink s = { .inst = count_inst, .xfer = count_xfer,
			       .ctx = c };

	c->n = (uint32_t)NX_MAX(64, NX_MIN(65536, m->events / 64));
	c->width = last_hw / c->n + 1;
	c->bytes = xcalloc(c->n, sizeof(*c->bytes));
	c->hbm = xcalloc(c->n, sizeof(*c->hbm));
	c->pending = xcalloc(c->n, sizeof(*c->pending));
	c->sbuf = xcalloc(c->n, sizeof(*c->sbuf));
	c->psum = xcalloc(c->n, 1);
	demo_gen_run(m, &s);
	return c;
}

void demo_counters_free(struct demo_counters *c)
{
	free(c->bytes);
	free(c->hbm);
	free(c->pending);
	free(c->sbuf);
	free(c->psum);
	free(c);
}

/* Cumulative totals and per-bucket rates in B/s; idle stretches are
 * given once, when the traffic stops. */
void demo_counters_throughput(const struct demo_counters *c,
			      demo_throughput_fn fn, void *ctx)
{
	struct demo_throughput r = { 0 };

	for (uint32_t b = 0; b < c->n; b++) {
		r.total += c->bytes[b];
		r.hbm_total += c->hbm[b];
		if (!c->bytes[b] && !(b && c->bytes[b - 1]))
			continue;
		r.rate = demo_rate(c->bytes[b], c->width);
		r.hbm_rate = demo_rate(c->hbm[b], c->width);
		r.uses_hbm = c->hbm[b] != 0;
		r.ts = (uint64_t)b * c->width;
		fn(ctx, &r);
	}
}

static void throughput_row(void *ctx, const struct demo_throughput *r)
{
	struct dout *o = ctx;
	char *p = dout_rec(o);

	p = DKV_U64(p, "total_transfer_bytes", r->total);
	p = DKV_U64(p, "hbm_total_transfer_bytes", r->hbm_total);
	p = DKV_U64(p, "transfer_rate", r->rate);
	p = DKV_U64(p, "hbm_transfer_rate", r->hbm_rate);
	p = r->uses_hbm ? DKV_RAW(p, "uses_hbm", "\"true\"")
			: DKV_RAW(p, "uses_hbm", "\"false\"");
	p = DKV_U64(p, "timestamp", r->ts);
	dout_done(o, p);
}

void demo_sec_dma_throughput(struct dout *o, const struct demo_counters *c)
{
	dout_array_begin(o, "dma_throughput");
	demo_counters_throughput(c, throughput_row, o);
	dout_array_end(o);
}

/* One row whenever the number of in-flight transfers changes. */
void demo_counters_pending(const struct demo_counters *c,
			   demo_pending_fn fn, void *ctx)
{
	int64_t now = 0, shown = 0;

	for (uint32_t b = 0; b < c->n; b++) {
		now += c->pending[b];
		if (now == shown)
			continue;
		shown = now;
		fn(ctx, (uint64_t)b * c->width, (uint64_t)NX_MAX(now, 0));
	}
}

static void pending_row(void *ctx, uint64_t ts, uint64_t value)
{
	struct dout *o = ctx;
	char *p = dout_rec(o);

	p = DKV_U64(p, "value", value);
	p = DKV_U64(p, "timestamp", ts);
	dout_done(o, p);
}

void demo_sec_pending_dma(struct dout *o, const struct demo_counters *c)
{
	dout_array_begin(o, "pending_dma");
	demo_counters_pending(c, pending_row, o);
	dout_array_end(o);
}

/* Fraction of SBUF in use, in 1/128 steps: a base allocation plus the
 * write activity of the window, a little higher in upper partitions. */
static double sb_level(uint64_t act, uint64_t peak, int quarter)
{
	double x = 0.1 + (peak ? 0.8 * (double)act / (double)peak : 0);

	x *= 0.88 + 0.04 * quarter;
	return (double)(int)(x * 128 + 0.5) / 128;
}

static void usage_sb(struct dout *o, const struct demo_usage *r)
{
	char *p = dout_rec(o);

	p = DKV_DBL(p, "partition_96_usage", r->part[3]);
	p = DKV_DBL(p, "partition_32_usage", r->part[1]);
	p = DKV_DBL(p, "usage_avg", r->sb_avg);
	p = DKV_DBL(p, "partition_64_usage", r->part[2]);
	p = DKV_RAW(p, "type", "\"sb\"");
	p = DKV_U64(p, "timestamp", r->ts);
	p = DKV_DBL(p, "partition_0_usage", r->part[0]);
	dout_done(o, p);
}

static void usage_psum(struct dout *o, const struct demo_usage *r)
{
	char *p = dout_rec(o);

	for (int i = 0; i < 8; i++) {
		if (i == 4) {
			p = DKV_DBL(p, "usage_avg", r->psum_avg);
			p = DKV_RAW(p, "type", "\"psum\"");
			p = DKV_U64(p, "timestamp", r->ts);
		}
		p = DLIT(p, "\"bank_");
		*p++ = (char)('0' + i);
		p = DLIT(p, "_usage\":");
		*p++ = (char)('0' + ((r->banks >> i) & 1));
		*p++ = ',';
	}
	dout_done(o, p);
}

static void usage_row(void *ctx, const struct demo_usage *r)
{
	usage_sb(ctx, r);
	usage_psum(ctx, r);
}

/* SBUF and PSUM use of every USAGE_STRIDE buckets. */
void demo_counters_usage(const struct demo_counters *c, demo_usage_fn fn,
			 void *ctx)
{
	uint64_t peak = 0;
	struct demo_usage r;

	for (uint32_t b = 0; b < c->n; b += USAGE_STRIDE) {
		uint64_t act = 0;

		for (uint32_t i = b; i < c->n && i < b + USAGE_STRIDE; i++)
			act += c->sbuf[i];
		peak = NX_MAX(peak, act);
	}
	for (uint32_t b = 0; b < c->n; b += USAGE_STRIDE) {
		uint64_t act = 0;

		r.banks = 0;
		for (uint32_t i = b; i < c->n && i < b + USAGE_STRIDE; i++) {
			act += c->sbuf[i];
			r.banks |= c->psum[i];
		}
		r.ts = (uint64_t)b * c->width;
		r.sb_avg = 0;
		for (int q = 0; q < 4; q++) {
			r.part[q] = sb_level(act, peak, q);
			r.sb_avg += r.part[q] / 4;
		}
		r.psum_avg = __builtin_popcount(r.banks) / 8.0;
		fn(ctx, &r);
	}
}

void demo_sec_instruction_usage(struct dout *o, const struct demo_counters *c)
{
	dout_array_begin(o, "instruction_usage");
	demo_counters_usage(c, usage_row, o);
	dout_array_end(o);
}
