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
 * written once, when the traffic stops. */
void demo_sec_dma_throughput(struct dout *o, const struct demo_counters *c)
{
	uint64_t total = 0, hbm = 0;

	dout_array_begin(o, "dma_throughput");
	for (uint32_t b = 0; b < c->n; b++) {
		char *p;

		total += c->bytes[b];
		hbm += c->hbm[b];
		if (!c->bytes[b] && !(b && c->bytes[b - 1]))
			continue;
		p = dout_rec(o);
		p = DKV_U64(p, "total_transfer_bytes", total);
		p = DKV_U64(p, "hbm_total_transfer_bytes", hbm);
		p = DKV_U64(p, "transfer_rate",
			    demo_rate(c->bytes[b], c->width));
		p = DKV_U64(p, "hbm_transfer_rate",
			    demo_rate(c->hbm[b], c->width));
		p = c->hbm[b] ? DKV_RAW(p, "uses_hbm", "\"true\"")
			      : DKV_RAW(p, "uses_hbm", "\"false\"");
		p = DKV_U64(p, "timestamp", (uint64_t)b * c->width);
		dout_done(o, p);
	}
	dout_array_end(o);
}

/* One row whenever the number of in-flight transfers changes. */
void demo_sec_pending_dma(struct dout *o, const struct demo_counters *c)
{
	int64_t now = 0, shown = 0;

	dout_array_begin(o, "pending_dma");
	for (uint32_t b = 0; b < c->n; b++) {
		char *p;

		now += c->pending[b];
		if (now == shown)
			continue;
		shown = now;
		p = dout_rec(o);
		p = DKV_U64(p, "value", (uint64_t)NX_MAX(now, 0));
		p = DKV_U64(p, "timestamp", (uint64_t)b * c->width);
		dout_done(o, p);
	}
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

static void usage_sb(struct dout *o, uint64_t ts, uint64_t act,
		     uint64_t peak)
{
	double u[4], avg = 0;
	char *p = dout_rec(o);

	for (int q = 0; q < 4; q++) {
		u[q] = sb_level(act, peak, q);
		avg += u[q] / 4;
	}
	p = DKV_DBL(p, "partition_96_usage", u[3]);
	p = DKV_DBL(p, "partition_32_usage", u[1]);
	p = DKV_DBL(p, "usage_avg", avg);
	p = DKV_DBL(p, "partition_64_usage", u[2]);
	p = DKV_RAW(p, "type", "\"sb\"");
	p = DKV_U64(p, "timestamp", ts);
	p = DKV_DBL(p, "partition_0_usage", u[0]);
	dout_done(o, p);
}

static void usage_psum(struct dout *o, uint64_t ts, unsigned banks)
{
	char *p = dout_rec(o);

	for (int i = 0; i < 8; i++) {
		if (i == 4) {
			p = DKV_DBL(p, "usage_avg",
				    __builtin_popcount(banks) / 8.0);
			p = DKV_RAW(p, "type", "\"psum\"");
			p = DKV_U64(p, "timestamp", ts);
		}
		p = DLIT(p, "\"bank_");
		*p++ = (char)('0' + i);
		p = DLIT(p, "_usage\":");
		*p++ = (char)('0' + ((banks >> i) & 1));
		*p++ = ',';
	}
	dout_done(o, p);
}

void demo_sec_instruction_usage(struct dout *o, const struct demo_counters *c)
{
	uint64_t peak = 0;

	for (uint32_t b = 0; b < c->n; b += USAGE_STRIDE) {
		uint64_t act = 0;

		for (uint32_t i = b; i < c->n && i < b + USAGE_STRIDE; i++)
			act += c->sbuf[i];
		peak = NX_MAX(peak, act);
	}
	dout_array_begin(o, "instruction_usage");
	for (uint32_t b = 0; b < c->n; b += USAGE_STRIDE) {
		uint64_t act = 0;
		unsigned banks = 0;

		for (uint32_t i = b; i < c->n && i < b + USAGE_STRIDE; i++) {
			act += c->sbuf[i];
			banks |= c->psum[i];
		}
		usage_sb(o, (uint64_t)b * c->width, act, peak);
		usage_psum(o, (uint64_t)b * c->width, banks);
	}
	dout_array_end(o);
}
