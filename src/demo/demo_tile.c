#include "config.h"

#include "src/demo/demo_gen.h"

#include "model/util.h"

/* Loop bodies ("tiles") of each layer kind, modelled on what the Neuron
 * compiler emits: weights stream in over DMA ahead of the tensor engine,
 * matmuls accumulate into PSUM, the scalar engine evacuates PSUM through
 * an activation, the vector engine does the elementwise work, GpSimd
 * gathers and the sync engine triggers DMA.  Sizes are per partition,
 * bf16 unless noted. */

/* Moving n columns through the 128x128 array takes ~0.75 ns each. */
static uint32_t matmul_ns(struct demo_gen *g, uint32_t n)
{
	return n * 3 / 4 + demo_gen_rand(g, 20, 40);
}

/* A Vector or GpSimd elementwise op over the layer's free size. */
static uint64_t vec_op(struct demo_gen *g, const struct demo_layer *l,
		       int op, int track, int hlo, int ws, int ss,
		       uint64_t ready)
{
	struct demo_inst in;
	uint32_t n = l->n;

	demo_gen_inst(g, &in, op, track, n * 5 / 8 + demo_gen_rand(g, 20, 60));
	in.n = n;
	in.hlo = (uint8_t)hlo;
	if (ws != SEM_NONE)
		demo_gen_wait(g, &in, ws);
	in.sig_sem = (uint8_t)ss;
	demo_inst_set(&in, B_SBUF_READ, n * (op == OP_TENSOR_TENSOR ? 4 : 2));
	if (op != OP_IOTA)
		demo_inst_set(&in, B_SBUF_WRITE,
			      op == OP_TENSOR_REDUCE ? 4 : n * 2);
	demo_inst_pred(&in, g->last[ENG_SCALAR], 0);
	return demo_gen_issue(g, &in, ready);
}

/* Loads the Scalar engine's lookup table when the function needs
 * another one. */
static void act_table(struct demo_gen *g, int act)
{
	struct demo_inst in;

	if (!demo_act_table[act] || demo_act_table[act] == g->table)
		return;
	demo_gen_inst(g, &in, OP_ACT_TABLE_LOAD, TRK_SCALAR,
		      demo_gen_rand(g, 900, 1400));
	in.act = (uint8_t)act;
	demo_gen_issue(g, &in, 0);
	g->table = demo_act_table[act];
}

/* ACTIVATE on the Scalar engine; from PSUM (fp32) when it evacuates a
 * matmul result. */
static uint64_t act_op(struct demo_gen *g, const struct demo_layer *l,
		       int hlo, int ws, int psum, uint64_t ready)
{
	struct demo_inst in;
	uint32_t n = l->n;

	act_table(g, l->act);
	demo_gen_inst(g, &in, OP_ACTIVATE, TRK_SCALAR,
		      n * 3 / 4 + demo_gen_rand(g, 30, 80));
	in.act = l->act;
	in.n = n;
	in.hlo = (uint8_t)hlo;
	if (ws != SEM_NONE)
		demo_gen_wait(g, &in, ws);
	in.sig_sem = SEM_SCALAR;
	demo_inst_set(&in, psum ? B_PSUM_READ : B_SBUF_READ, n * (psum ? 4 : 2));
	demo_inst_set(&in, B_SBUF_WRITE, n * 2);
	if (psum)
		demo_inst_set(&in, B_PSUM_RSW, n * 2);
	demo_inst_pred(&in, g->last[ENG_TENSOR], g->last[ENG_SCALAR]);
	return demo_gen_issue(g, &in, ready);
}

static uint64_t ldweights(struct demo_gen *g, int ws, int itype,
			  uint64_t dep, uint64_t ready)
{
	struct demo_inst in;

	demo_gen_inst(g, &in, OP_LDWEIGHTS, TRK_TENSOR,
		      demo_gen_rand(g, 60, 100));
	in.n = 128;
	in.itype = (uint8_t)itype;
	if (ws != SEM_NONE)
		demo_gen_wait(g, &in, ws);
	demo_inst_set(&in, B_SBUF_READ, 256);
	demo_inst_pred(&in, dep, g->last[ENG_TENSOR]);
	demo_gen_issue(g, &in, ready);
	return in.ts;
}

static uint64_t matmul(struct demo_gen *g, uint32_t n, int itype, int sig)
{
	struct demo_inst in;

	demo_gen_inst(g, &in, OP_MATMUL, TRK_MATRIX, matmul_ns(g, n));
	in.n = n;
	in.itype = (uint8_t)itype;
	in.sig_sem = (uint8_t)(sig ? SEM_TENSOR : SEM_NONE);
	demo_inst_set(&in, B_SBUF_READ, n * 2);
	demo_inst_set(&in, B_PSUM_WRITE, n * 4);
	demo_inst_pred(&in, g->last[ENG_TENSOR], 0);
	return demo_gen_issue(g, &in, 0);
}

/* A bubble in the tensor engine's stream, as the compiler leaves them. */
static void nop(struct demo_gen *g)
{
	struct demo_inst in;

	demo_gen_inst(g, &in, OP_NOP, TRK_TENSOR, demo_gen_rand(g, 4, 12));
	demo_gen_issue(g, &in, 0);
}

/* Spills go out through the Vector queue and come back through the
 * Scalar queue, every few tiles. */
static uint64_t spill(struct demo_gen *g, const struct demo_layer *l,
		      int q, uint64_t ready)
{
	return demo_gen_trigger(g, q, QT_DATA, l->svar,
				g->m->var[l->svar].size, ready);
}

/* Dense layer: weights for 2-3 stationary blocks arrive over DMA (up to
 * two tiles ahead), each block is loaded and multiplied, Scalar
 * evacuates PSUM, Vector adds the bias or residual every other tile. */
static void tile_dense(struct demo_gen *g, const struct demo_layer *l)
{
	uint32_t rounds = demo_gen_rand(g, 2, 3);
	uint64_t *gate = &g->gate[g->tile & 1];
	uint64_t ready, dyn = 0, mm_end = 0, reload = 0, act_end;
	uint64_t trig;
	int ws = demo_queues[l->queue].sem;

	ready = demo_gen_trigger(g, l->queue, QT_DATA, l->wvar,
				 (uint64_t)rounds * 128 * 128 * 2, *gate);
	trig = g->last[ENG_SYNC];
	if (g->tile % 6 == 5) {
		uint32_t row = (uint32_t)NX_MIN(g->m->hidden * 2, 4096);

		dyn = demo_gen_direct(g, TRK_GPSIMD, Q_GPSIMD_DYN, 16, row, 0);
		ws = SEM_Q_GPSIMD;
	}
	for (uint32_t r = 0; r < rounds; r++) {
		uint64_t ts = ldweights(g, r ? SEM_NONE : ws, IT_REGULAR, trig,
					r ? 0 : NX_MAX(ready, dyn));

		if (!r)
			*gate = ts;
		mm_end = matmul(g, l->n, IT_REGULAR, r + 1 == rounds);
	}
	if (g->tile % 16 == 15)
		nop(g);
	if (g->tile % 8 == 7)
		reload = spill(g, l, Q_SCALAR_SPILL, 0);
	act_end = act_op(g, l, 1, SEM_TENSOR, 1, mm_end);
	if (g->tile & 1) {
		uint64_t v = vec_op(g, l, OP_TENSOR_TENSOR, TRK_VECTOR, 1,
				    reload ? SEM_Q_SCALAR : SEM_SCALAR,
				    SEM_VECTOR, NX_MAX(act_end, reload));

		if (g->tile % 8 == 3)
			spill(g, l, Q_VECTOR_SPILL, v);
	}
}

/* Attention scores or context: a 128x128 block is transposed through
 * the array (identity matmul), then multiplied; Scalar copies the
 * result out of PSUM with the 1/sqrt(d) scale. */
static void tile_scores(struct demo_gen *g, const struct demo_layer *l)
{
	uint64_t end;

	/* PSUM is reused once the previous tile has been copied out. */
	ldweights(g, g->tile ? SEM_SCALAR : SEM_NONE, IT_TRANSPOSE,
		  g->last[ENG_VECTOR], 0);
	matmul(g, 128, IT_TRANSPOSE, 0);
	end = matmul(g, l->n, IT_REGULAR, 1);
	end = act_op(g, l, 1, SEM_TENSOR, 1, end);
	if (g->tile % 4 == 3)
		vec_op(g, l, OP_COPY, TRK_VECTOR, 2, SEM_SCALAR, SEM_VECTOR, end);
}

/* Row max, exp with running sum, multiply by the reciprocal; GpSimd
 * builds the causal mask indices now and then. */
static void tile_softmax(struct demo_gen *g, const struct demo_layer *l)
{
	int ws = SEM_NONE;
	uint64_t end = 0;

	if (g->tile % 3 == 0) {
		end = vec_op(g, l, OP_IOTA, TRK_GPSIMD, 0, SEM_NONE,
			     SEM_GPSIMD, 0);
		ws = SEM_GPSIMD;
	}
	end = vec_op(g, l, OP_TENSOR_REDUCE, TRK_VECTOR, 0, ws, SEM_VECTOR, end);
	end = act_op(g, l, 1, SEM_VECTOR, 0, end);
	vec_op(g, l, OP_TENSOR_SCALAR_PTR, TRK_VECTOR, 2, SEM_SCALAR,
	       SEM_VECTOR, end);
}

/* Mean and variance, rsqrt on Scalar, normalise, scale and shift; the
 * gamma/beta vectors come in over hardware DGE on the first tile. */
static void tile_norm(struct demo_gen *g, const struct demo_layer *l)
{
	int ws = SEM_NONE;
	uint64_t end = 0;

	if (g->tile == 0) {
		uint32_t row = (uint32_t)NX_MIN(g->m->hidden * 2, 8192);

		end = demo_gen_direct(g, TRK_SYNC, Q_SYNC_DYN_HW, 4, row, 0);
		ws = SEM_Q_HW;
	}
	end = vec_op(g, l, OP_TENSOR_REDUCE, TRK_VECTOR, 0, ws, SEM_VECTOR, end);
	end = act_op(g, l, 1, SEM_VECTOR, 0, end);
	end = vec_op(g, l, OP_TENSOR_TENSOR, TRK_VECTOR, 2, SEM_SCALAR,
		     SEM_NONE, end);
	vec_op(g, l, OP_TENSOR_SCALAR_PTR, TRK_VECTOR, 2, SEM_NONE, SEM_VECTOR,
	       end);
}

/* Embedding lookup: the inputs arrive first; GpSimd loads token ids
 * into registers and gathers rows over software DGE, Vector adds the
 * position embedding, which Sync fetches over hardware DGE. */
static void tile_gather(struct demo_gen *g, const struct demo_layer *l)
{
	struct demo_inst in;
	uint32_t row = (uint32_t)NX_MIN(g->m->hidden * 2, 8192);
	uint64_t end = 0;

	for (int i = 0; g->tile == 0 && i < g->m->nin; i++) {
		uint64_t t = demo_gen_trigger(g, Q_SYNC_IO, QT_INPUT, i,
					      g->m->var[i].size, 0);

		end = NX_MAX(end, t);
	}
	demo_gen_inst(g, &in, OP_TENSOR_LOAD, TRK_GPSIMD,
		      demo_gen_rand(g, 30, 80));
	if (g->tile == 0)
		demo_gen_wait(g, &in, SEM_Q_IO);
	demo_gen_issue(g, &in, end);
	end = demo_gen_direct(g, TRK_GPSIMD, Q_GPSIMD_DYN, 16, row, 0);
	if (g->tile % 4 == 2) {
		uint64_t t = demo_gen_direct(g, TRK_SYNC, Q_SYNC_DYN_HW, 4,
					     row, 0);

		end = NX_MAX(end, t);
	}
	vec_op(g, l, OP_TENSOR_TENSOR, TRK_VECTOR, 1, SEM_Q_GPSIMD, SEM_VECTOR,
	       end);
	if (g->tile % 4 == 0) {
		demo_gen_inst(g, &in, OP_TENSOR_STORE, TRK_GPSIMD,
			      demo_gen_rand(g, 20, 60));
		in.hlo = 2;
		demo_gen_issue(g, &in, 0);
	}
}

/* SiLU on Scalar, then the gate multiply on Vector. */
static void tile_elemwise(struct demo_gen *g, const struct demo_layer *l)
{
	uint64_t end = act_op(g, l, 0, SEM_NONE, 0, 0);

	end = vec_op(g, l, OP_TENSOR_TENSOR, TRK_VECTOR, 1, SEM_SCALAR,
		     SEM_VECTOR, end);
	if (g->tile % 4 == 0)
		vec_op(g, l, OP_COPY, TRK_VECTOR, 2, SEM_NONE, SEM_NONE, end);
}

void demo_tile_run(struct demo_gen *g, const struct demo_layer *l)
{
	switch (l->kind) {
	case K_GATHER:
		tile_gather(g, l);
		break;
	case K_DENSE:
		tile_dense(g, l);
		break;
	case K_SCORES:
		tile_scores(g, l);
		break;
	case K_SOFTMAX:
		tile_softmax(g, l);
		break;
	case K_NORM:
		tile_norm(g, l);
		break;
	default:
		tile_elemwise(g, l);
		break;
	}
}

/* The model output leaves through the IO queue once compute is done. */
void demo_tile_output(struct demo_gen *g)
{
	int var = g->m->nin;
	uint64_t ready = NX_MAX(g->free[ENG_SCALAR], g->free[ENG_VECTOR]);

	demo_gen_trigger(g, Q_SYNC_IO, QT_OUTPUT, var, g->m->var[var].size,
			 ready);
}
