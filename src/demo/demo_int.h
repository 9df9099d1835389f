/* Internals of the demo profile generator, shared by the demo_*.c files.
 *
 * The generator (demo_gen.c, demo_tile.c) replays the same timeline once
 * per output section that needs it, handing each instruction, DMA
 * transfer and semaphore update to a sink.  Nothing is kept per event,
 * so memory does not grow with the event count. */
#ifndef NX_DEMO_INT_H
#define NX_DEMO_INT_H

#include <stddef.h>
#include <stdint.h>

#include "src/demo/demo.h"
#include "src/demo/demo_out.h"

/* ---- random numbers: xoshiro256** seeded through splitmix64 ---- */

struct demo_rng {
	uint64_t s[4];
};

static inline uint64_t demo_mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static inline uint64_t demo_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t demo_rng_next(struct demo_rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = demo_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = demo_rotl(s[3], 45);
	return out;
}

/* Uniform in [lo, hi]; hi - lo < 2^32. */
static inline uint32_t demo_rng_range(struct demo_rng *r, uint32_t lo,
				      uint32_t hi)
{
	uint64_t span = (uint64_t)hi - lo + 1;

	return lo + (uint32_t)(((demo_rng_next(r) >> 32) * span) >> 32);
}

/* Ids are random 63-bit integers, like those in real exports. */
static inline uint64_t demo_rng_id(struct demo_rng *r)
{
	return demo_rng_next(r) >> 1;
}

void demo_rng_seed(struct demo_rng *r, uint64_t seed);

/* ---- engines, opcodes, semaphores, queues (demo_tables.c) ---- */

/* Engines as in `subgroup` and active_time. */
enum demo_eng { ENG_TENSOR, ENG_VECTOR, ENG_SCALAR, ENG_GPSIMD, ENG_SYNC,
		ENG_N };

/* Timeline rows as in `label`; TensorMatrix is the tensor engine's
 * matmul row. */
enum demo_track { TRK_TENSOR, TRK_MATRIX, TRK_VECTOR, TRK_SCALAR,
		  TRK_GPSIMD, TRK_SYNC, TRK_N };

enum demo_op {
	OP_DRAIN, OP_SET_ORDERING_MODE, OP_EVENT_SEMAPHORE, OP_SEM_CLEAR,
	OP_NOTIFY, OP_NOP, OP_LDWEIGHTS, OP_MATMUL, OP_ACTIVATE,
	OP_ACT_TABLE_LOAD, OP_TENSOR_TENSOR, OP_TENSOR_REDUCE,
	OP_TENSOR_SCALAR_PTR, OP_COPY, OP_IOTA, OP_TENSOR_LOAD,
	OP_TENSOR_STORE, OP_DMA_DIRECT2D, OP_DMA_TRIGGER, OP_N
};

enum demo_itype { IT_NONE, IT_REGULAR, IT_TRANSPOSE };

enum demo_act { ACT_NONE, ACT_COPY, ACT_IDENTITY, ACT_EXP, ACT_GELU,
		ACT_TANH, ACT_RSQRT, ACT_SILU, ACT_N };

/* Byte counters that instructions carry (summary sums them). */
enum demo_bytes {
	B_HBM_READ, B_HBM_WRITE, B_SBUF_READ, B_SBUF_WRITE, B_PSUM_READ,
	B_PSUM_WRITE, B_PSUM_RSW, B_SPILL_SAVE, B_SPILL_RELOAD,
	B_WEIGHT_Q, B_INPUT_Q, B_OUTPUT_Q, B_N
};

enum demo_sem {
	SEM_SETUP, SEM_SYNC, SEM_SCALAR, SEM_TENSOR, SEM_VECTOR, SEM_GPSIMD,
	SEM_Q_SPILL, SEM_Q_IO, SEM_Q_PARAM, SEM_Q_SCALAR, SEM_Q_VECTOR,
	SEM_Q_HW, SEM_Q_GPSIMD, SEM_N, SEM_NONE = 0xff
};

enum demo_queue {
	Q_SYNC_IO, Q_SYNC_SPILL, Q_SYNC_PARAM, Q_SCALAR_SPILL, Q_VECTOR_SPILL,
	Q_GPSIMD_DYN, Q_SYNC_DYN_HW, Q_SCALAR_TABLE, Q_DVE_TABLE, Q_FETCH,
	Q_N
};

/* `queue_type` of a DMA row. */
enum demo_qtype { QT_DATA, QT_INPUT, QT_OUTPUT, QT_INSTRUCTION,
		  QT_SW_DYNAMIC, QT_HW_DYNAMIC, QT_N };

enum demo_loc { LOC_SB, LOC_WEIGHT, LOC_INPUT, LOC_OUTPUT, LOC_VIRTUAL,
		LOC_UNKNOWN };

struct demo_opinfo {
	const char *name;	/* runtime `opcode` */
	const char *compiler;	/* `compiler_opcode`, NULL when absent */
	uint8_t itype;		/* default instruction_type */
};

struct demo_queueinfo {
	const char *name;	/* NULL: packets are named Q<idx>-E<eng> */
	const char *info_name;	/* name in dma_queues_info, NULL: not listed */
	const char *q_type;	/* dma_queues_info.q_type */
	uint8_t idx;		/* queue index on its DMA engines */
	uint8_t eng;		/* DMA engine of the aggregated row */
	uint8_t sem;		/* semaphore it increments, or SEM_NONE */
	uint8_t track;		/* engine that triggers it */
};

struct demo_seminfo {
	uint8_t num;		/* the n of S[n] */
	const char *owner;	/* engine or queue shown after it */
};

extern const struct demo_opinfo demo_ops[OP_N];
extern const char *const demo_track_label[TRK_N];
extern const uint8_t demo_track_eng[TRK_N];
extern const char *const demo_eng_subgroup[ENG_N];
extern const char *const demo_eng_lower[ENG_N];
extern const char *const demo_act_name[ACT_N];
extern const uint8_t demo_act_table[ACT_N];
extern const char *const demo_bytes_key[B_N];
extern const struct demo_seminfo demo_sems[SEM_N];
extern const struct demo_queueinfo demo_queues[Q_N];
extern const char *const demo_qtype_name[QT_N];
extern const char *const demo_loc_name[];

/* ---- the model: layers, HLO ops, tensors (demo_model.c) ---- */

enum demo_kind { K_GATHER, K_DENSE, K_SCORES, K_SOFTMAX, K_NORM,
		 K_ELEMWISE };

#define DEMO_HLO_PER_LAYER 3

struct demo_hlo {
	char text[96];		/* hlo_name, e.g. "%dot.17 = dot(%p3, %p9)" */
	char attrs[160];	/* hlo_attrs, already escaped for a JSON string */
	uint32_t id;		/* raw_hlo_id */
};

struct demo_layer {
	char name[120];		/* bert/encoder/layer_3/attention/self/query */
	uint8_t kind, act;
	uint8_t queue;		/* weight queue of dense layers */
	uint32_t share;		/* relative share of the event budget */
	uint32_t n;		/* free size of its access patterns */
	uint32_t fw_id;		/* raw_framework_id */
	uint32_t bir_base, penguin_base;
	int wvar, svar;		/* weight and spill tensors, -1 if none */
	struct demo_hlo hlo[DEMO_HLO_PER_LAYER];
};

enum demo_vtype { V_IN, V_OUT, V_WEIGHT, V_SPILL };

struct demo_var {
	char name[128];
	uint8_t type;		/* enum demo_vtype */
	uint32_t rows, cols;	/* shape */
	uint64_t size;		/* bytes */
	int layer;		/* owning layer, -1 for inputs and outputs */
};

struct demo_model {
	char name[48];		/* sanitised model name */
	char prefix[48];	/* first component of every layer name */
	char hash[33], uuid[33];
	char neff[160], ntff[224];
	int decoder;		/* llama-style names instead of BERT's */
	int blocks, hidden;
	struct demo_layer *layer;
	int nlayers;
	struct demo_var *var;
	int nvars;
	int nin;		/* vars: nin inputs first, then the output */
	uint64_t events, seed;
	int nc_idx;
};

void demo_model_build(struct demo_model *m, const struct demo_opts *o);
void demo_model_free(struct demo_model *m);

/* ---- timeline events ---- */

#define DEMO_DMA_ENGINES 16
#define DEMO_MAX_PKT 32

struct demo_inst {
	uint64_t id;
	uint64_t ts;		/* ns since trace start */
	uint64_t aux;		/* random bits for addresses and crc */
	uint64_t trigger;	/* DMA_TRIGGER: ts of its aggregated DMA row */
	uint64_t pred[2];	/* FLOW_DEPENDENCE predecessors */
	uint32_t bytes[B_N];
	uint32_t has;		/* bit per bytes[] entry the record carries */
	uint32_t dur, wait;	/* duration and evt_wait_time, ns */
	uint32_t pc, cpc;	/* runtime and compiler program counter */
	uint32_t bir, penguin;	/* raw_bir_id, raw_penguin_id; 0 outside layers */
	uint32_t k, n;		/* partitions and free size of the operands */
	uint32_t wait_val;	/* semaphore value waited for */
	uint32_t tile;		/* loop iteration within the layer */
	int16_t layer;		/* model layer, -1 for none */
	uint8_t op, track, hlo, npred, act, itype;
	uint8_t wait_sem, sig_sem;	/* SEM_NONE when absent */
	uint8_t queue;		/* DMA instructions: the queue they feed */
	uint8_t sem_inc;	/* DMA_DIRECT2D: sem_increment */
};

struct demo_pkt {
	uint64_t id;
	uint64_t ts;		/* ns */
	uint32_t dur;		/* ns */
	uint32_t size;		/* bytes */
	uint8_t eng;		/* DMA engine 0..15 */
	uint8_t idx;		/* packet_idx: order on its engine */
};

struct demo_xfer {
	uint64_t id;		/* aggregated row id = packet_aggregation_id */
	uint64_t ts, end;	/* first packet start, last packet end, ns */
	uint64_t trigger;	/* ts of the triggering instruction */
	uint64_t aux;
	uint64_t size;		/* bytes */
	int var;		/* tensor, -1 = "unknown" */
	uint32_t block;		/* block_id */
	uint8_t queue, qtype, src, dst;
	uint8_t aggregated;	/* has an "aggregated":"yes" row */
	uint16_t npkt;
	struct demo_pkt pkt[DEMO_MAX_PKT];
};

/* Access pattern of an aggregated transfer: SBUF is 128 partitions
 * 262144 B apart, DRAM is contiguous. */
struct demo_layout {
	int store;		/* SBUF to DRAM */
	uint64_t sb, dram;	/* offsets */
	uint64_t per;		/* bytes per partition */
};

static inline void demo_xfer_layout(const struct demo_xfer *x,
				    struct demo_layout *l)
{
	l->store = x->src == LOC_SB;
	l->sb = ((x->aux >> 20) & 0x2fff) << 4;
	l->dram = ((x->aux >> 8) & 0x3ff) << 12;
	l->per = x->size >= 128 ? x->size / 128 : x->size;
}

/* Where the generator hands its events; NULL members are skipped. */
struct demo_sink {
	void (*inst)(void *ctx, const struct demo_inst *in);
	void (*xfer)(void *ctx, const struct demo_xfer *x);
	void (*sem)(void *ctx, int sem, uint32_t value, uint64_t ts);
	/* A stretch of the timeline (setup, a layer, teardown) is over: no
	 * later event overlaps it. */
	void (*seg_end)(void *ctx);
	void *ctx;
};

void demo_gen_run(const struct demo_model *m, const struct demo_sink *s);

/* Busy intervals exclude semaphore waits, as in real active_time. */
static inline int demo_busy(const struct demo_inst *in)
{
	return in->op != OP_EVENT_SEMAPHORE && in->dur > 0;
}

static inline int demo_qtype_dynamic(int qt)
{
	return qt == QT_SW_DYNAMIC || qt == QT_HW_DYNAMIC;
}

/* transfer_rate in B/s, an integer as in real exports. */
static inline uint64_t demo_rate(uint64_t bytes, uint64_t ns)
{
	return ns ? bytes * 1000000000ULL / ns : 0;
}

/* ---- per-layer and whole-run statistics (demo_stats.c) ---- */

/* Union of one engine's busy intervals, fed in start order. */
struct demo_merge {
	uint64_t start, end;	/* the open interval, ns */
	int open;
	uint64_t total;		/* ns of closed intervals */
};

int demo_merge_add(struct demo_merge *m, uint64_t s, uint64_t e,
		   uint64_t iv[2]);
int demo_merge_close(struct demo_merge *m, uint64_t iv[2]);

/* Union of intervals that arrive in any order within one segment. */
struct demo_union {
	uint64_t (*iv)[2];
	size_t n, cap;
	uint64_t total;		/* ns */
};


/* One layer_summary row. */
struct demo_lstat {
	uint64_t start, end;	/* ns; start == UINT64_MAX while empty */
	uint64_t count[ENG_N];
	uint64_t time[ENG_N];	/* Σ durations, ns */
	uint64_t active[ENG_N];	/* union of busy intervals, ns */
	uint64_t flops, model_flops;
	struct demo_merge merge[ENG_N];
};

/* DMA classes whose activity the summary reports. */
enum demo_dclass { DC_ALL, DC_STATIC, DC_SW, DC_HW, DC_DYN, DC_N };

struct demo_stats {
	struct demo_lstat sg;		/* the whole subgraph, "/sg00" */
	struct demo_lstat *layer;	/* one per model layer */
	int nlayers;
	uint64_t bytes[B_N];		/* Σ over instructions */
	uint64_t instructions, dma_rows, sem_rows, notifies;
	uint64_t matmuls, activates, activate_ns, psum_rsw_count;
	uint64_t transpose_flops;
	uint64_t pkt_bytes[QT_N], pkt_count[QT_N], pkt_ns;
	uint64_t xfers, xfer_bytes, xfer_ns;
	uint16_t subgroups[Q_N];	/* DMA engines seen per queue */
	struct demo_union busy;		/* any compute engine busy */
	struct demo_union dma[DC_N];
	uint64_t *var_bytes, *var_xfers;	/* loads into SBUF per tensor */
};

void demo_stats_init(struct demo_stats *st, const struct demo_model *m);
void demo_stats_free(struct demo_stats *st);
void demo_stats_inst(struct demo_stats *st, const struct demo_inst *in);
void demo_stats_xfer(struct demo_stats *st, const struct demo_xfer *x);
void demo_stats_seg_end(struct demo_stats *st);
void demo_stats_finish(struct demo_stats *st);
uint64_t demo_stats_dma_queues(const struct demo_stats *st);

/* Derived run-wide figures shared by summary, model_info and metadata. */
struct demo_totals {
	uint64_t first_ts, last_hw;	/* ns */
	double total_s;			/* summary.total_time, s */
	uint64_t event_count, trace_count;
	uint64_t weight_bytes, input_bytes, output_bytes;
};

void demo_totals(struct demo_totals *t, const struct demo_model *m,
		 const struct demo_stats *st);

/* Peak bf16 rate of one NeuronCore: 128x128 PEs at 2.8 GHz, FLOP/s. */
#define DEMO_PEAK_FLOPS (2.0 * 128 * 128 * 2.8e9)
#define DEMO_HBM_BW 410000000000.0	/* B/s */

/* ---- hardware throttling samples, shared by ham and summary ---- */

struct demo_ham_row {
	uint64_t ts, dur;	/* ns */
	uint32_t k, n;		/* utilisation limited to k/n */
	uint32_t type;		/* 0 activity monitor, 99 unknown */
};

struct demo_ham {
	struct demo_rng rng;
	uint64_t step, last_hw;
	uint32_t i, n;
};

void demo_ham_init(struct demo_ham *h, const struct demo_model *m,
		   uint64_t last_hw);
int demo_ham_next(struct demo_ham *h, struct demo_ham_row *r);

/* ---- sections ---- */

char *demo_put_operands(char *p, const struct demo_inst *in);
char *demo_put_compiler_operands(char *p, const struct demo_inst *in);
void demo_write_inst(struct dout *o, const struct demo_model *m,
		     const struct demo_inst *in);
void demo_write_xfer(struct dout *o, const struct demo_model *m,
		     const struct demo_xfer *x);

/* neff_header's keys and string values; num holds data_size's digits. */
#define DEMO_NEFF_KEYS 12
void demo_neff_header(const struct demo_model *m,
		      const char *kv[DEMO_NEFF_KEYS][2], char num[24]);
/* neff_node: type and format by enum demo_vtype, and how a weight was
 * loaded into SBUF from the bytes and transfers the DMA moved for it. */
extern const char *const demo_vtype_name[];
extern const char *const demo_vtype_format[];
struct demo_loads {
	uint64_t count, repeat, total, avg;	/* transfers, times, bytes, bytes */
};
void demo_var_loads(const struct demo_var *v, uint64_t bytes,
		    uint64_t xfers, struct demo_loads *l);
/* nc_mem_usage: bytes of device memory by use, "Total" last. */
typedef void (*demo_mem_fn)(void *ctx, const char *type, uint64_t bytes);
void demo_mem_each(const struct demo_model *m, demo_mem_fn fn, void *ctx);

void demo_sec_profile_info(struct dout *o, const struct demo_model *m);
void demo_sec_neff_header(struct dout *o, const struct demo_model *m);
void demo_sec_neff_node(struct dout *o, const struct demo_model *m,
			const struct demo_stats *st);
void demo_sec_nc_mem_usage(struct dout *o, const struct demo_model *m);
extern const char *const demo_warnings[2][2];	/* category, message */
void demo_sec_warnings(struct dout *o);
void demo_sec_dma_queues_info(struct dout *o);
void demo_sec_metadata(struct dout *o, const struct demo_totals *t);
void demo_sec_model_info(struct dout *o, const struct demo_model *m,
			 const struct demo_stats *st,
			 const struct demo_totals *t);
void demo_sec_layer_summary(struct dout *o, const struct demo_model *m,
			    const struct demo_stats *st);
void demo_sec_summary(struct dout *o, const struct demo_model *m,
		      const struct demo_stats *st,
		      const struct demo_totals *t);
/* One summary value, for other writers than the JSON one. */
struct demo_sval {
	const char *key, *desc;
	int kind;		/* 'i' u, 'f' f, 's' s */
	uint64_t u;
	double f;
	const char *s;
};
typedef void (*demo_sval_fn)(void *ctx, const struct demo_sval *v);
/* Every summary value, in the order of the key table. */
void demo_summary_each(const struct demo_model *m,
		       const struct demo_stats *st,
		       const struct demo_totals *t, demo_sval_fn fn,
		       void *ctx);
void demo_sec_summary_groups(struct dout *o);
void demo_sec_summary_group_order(struct dout *o);
void demo_sec_terminology(struct dout *o);
void demo_sec_active_time(struct dout *o, const struct demo_model *m);
void demo_sec_semaphore_update(struct dout *o, const struct demo_model *m);
void demo_sec_ham(struct dout *o, const struct demo_model *m,
		  uint64_t last_hw);

/* Sampled counters: dma_throughput, pending_dma, instruction_usage. */
struct demo_counters;
struct demo_counters *demo_counters_run(const struct demo_model *m,
					uint64_t last_hw);
void demo_sec_dma_throughput(struct dout *o, const struct demo_counters *c);
void demo_sec_pending_dma(struct dout *o, const struct demo_counters *c);
void demo_sec_instruction_usage(struct dout *o,
				const struct demo_counters *c);
void demo_counters_free(struct demo_counters *c);

/* The same rows for other writers than the JSON one. */
struct demo_throughput {
	uint64_t ts, total, hbm_total;	/* ns; cumulative bytes */
	uint64_t rate, hbm_rate;	/* B/s */
	int uses_hbm;
};
struct demo_usage {
	uint64_t ts;		/* ns */
	double part[4];		/* SBUF partitions 0, 32, 64, 96: fraction used */
	double sb_avg, psum_avg;
	unsigned banks;		/* PSUM banks used, a bit each */
};
typedef void (*demo_throughput_fn)(void *ctx, const struct demo_throughput *r);
typedef void (*demo_pending_fn)(void *ctx, uint64_t ts, uint64_t value);
typedef void (*demo_usage_fn)(void *ctx, const struct demo_usage *r);
void demo_counters_throughput(const struct demo_counters *c,
			      demo_throughput_fn fn, void *ctx);
void demo_counters_pending(const struct demo_counters *c,
			   demo_pending_fn fn, void *ctx);
void demo_counters_usage(const struct demo_counters *c, demo_usage_fn fn,
			 void *ctx);

#endif
