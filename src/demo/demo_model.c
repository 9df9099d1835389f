#include "config.h"

#include "src/demo/demo_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/util.h"

/* The demo model: a transformer named like the framework would name it
 * (TensorFlow BERT scopes, or llama-style module paths for decoders),
 * with the HLO ops and tensors the compiler would attach. */

struct leaf {
	const char *path;	/* below the block or model scope */
	uint8_t kind, act;
	uint8_t wide;		/* weight is hidden x 4*hidden */
};

static const struct leaf bert_head[] = {
	{ "embeddings/word_embeddings/GatherV2", K_GATHER, ACT_NONE, 0 },
	{ "embeddings/LayerNorm/batchnorm", K_NORM, ACT_RSQRT, 0 },
};

static const struct leaf bert_block[] = {
	{ "attention/self/query", K_DENSE, ACT_IDENTITY, 0 },
	{ "attention/self/key", K_DENSE, ACT_IDENTITY, 0 },
	{ "attention/self/value", K_DENSE, ACT_IDENTITY, 0 },
	{ "attention/self/MatMul", K_SCORES, ACT_COPY, 0 },
	{ "attention/self/Softmax", K_SOFTMAX, ACT_EXP, 0 },
	{ "attention/self/MatMul_1", K_SCORES, ACT_COPY, 0 },
	{ "attention/output/dense", K_DENSE, ACT_IDENTITY, 0 },
	{ "attention/output/LayerNorm", K_NORM, ACT_RSQRT, 0 },
	{ "intermediate/dense", K_DENSE, ACT_GELU, 1 },
	{ "output/dense", K_DENSE, ACT_IDENTITY, 1 },
	{ "output/LayerNorm", K_NORM, ACT_RSQRT, 0 },
};

static const struct leaf bert_tail[] = {
	{ "pooler/dense/MatMul", K_DENSE, ACT_TANH, 0 },
};

static const struct leaf llama_head[] = {
	{ "model/embed_tokens/Gather", K_GATHER, ACT_NONE, 0 },
};

static const struct leaf llama_block[] = {
	{ "input_layernorm/RMSNorm", K_NORM, ACT_RSQRT, 0 },
	{ "self_attn/q_proj", K_DENSE, ACT_IDENTITY, 0 },
	{ "self_attn/k_proj", K_DENSE, ACT_IDENTITY, 0 },
	{ "self_attn/v_proj", K_DENSE, ACT_IDENTITY, 0 },
	{ "self_attn/MatMul", K_SCORES, ACT_COPY, 0 },
	{ "self_attn/Softmax", K_SOFTMAX, ACT_EXP, 0 },
	{ "self_attn/MatMul_1", K_SCORES, ACT_COPY, 0 },
	{ "self_attn/o_proj", K_DENSE, ACT_IDENTITY, 0 },
	{ "post_attention_layernorm/RMSNorm", K_NORM, ACT_RSQRT, 0 },
	{ "mlp/gate_proj", K_DENSE, ACT_IDENTITY, 1 },
	{ "mlp/up_proj", K_DENSE, ACT_IDENTITY, 1 },
	{ "mlp/act_fn/SiLU", K_ELEMWISE, ACT_SILU, 0 },
	{ "mlp/down_proj", K_DENSE, ACT_IDENTITY, 1 },
};

static const struct leaf llama_tail[] = {
	{ "model/norm/RMSNorm", K_NORM, ACT_RSQRT, 0 },
	{ "lm_head/dense/MatMul", K_DENSE, ACT_COPY, 0 },
};

struct family {
	const struct leaf *head, *block, *tail;
	int nhead, nblock, ntail;
	const char *scope;	/* block scope: prefix/<scope><block index>/ */
	const char *wsuffix;	/* weight tensor suffix */
	const char *source;	/* source_file in hlo_attrs */
	const char *inputs[3];
};

static const struct family families[2] = {
	{ bert_head, bert_block, bert_tail, NX_ARRAY_SIZE(bert_head),
	  NX_ARRAY_SIZE(bert_block), NX_ARRAY_SIZE(bert_tail),
	  "encoder/layer_", "/kernel", "modeling.py",
	  { "input_ids", "input_mask", "segment_ids" } },
	{ llama_head, llama_block, llama_tail, NX_ARRAY_SIZE(llama_head),
	  NX_ARRAY_SIZE(llama_block), NX_ARRAY_SIZE(llama_tail),
	  "model/layers_", "/weight", "modeling_llama.py",
	  { "input_ids", "attention_mask", "position_ids" } },
};

/* An HLO op "%<op>.<id> = <op>(<arg0>, <arg1>)": the arguments are the
 * two previous ops (ids id-1, id-2) named by their stems, or parameters
 * (%p<n>) when the stem is "p"; a NULL stem is no argument. */
struct hlo_tmpl {
	const char *op;
	const char *arg[2];
	const char *op_type;	/* framework op, for hlo_attrs */
};

static const struct hlo_tmpl hlo_tmpls[][DEMO_HLO_PER_LAYER] = {
	[K_GATHER] = {
		{ "gather", { "p", "p" }, "GatherV2" },
		{ "add", { "gather", "gather" }, "AddV2" },
		{ "convert", { "add", NULL }, "Cast" },
	},
	[K_DENSE] = {
		{ "dot", { "p", "p" }, "MatMul" },
		{ "add", { "dot", "broadcast" }, "BiasAdd" },
		{ "reshape", { "add", NULL }, "Reshape" },
	},
	[K_SCORES] = {
		{ "dot", { "reshape", "transpose" }, "BatchMatMulV2" },
		{ "multiply", { "dot", "broadcast" }, "Mul" },
		{ "transpose", { "reshape", NULL }, "Transpose" },
	},
	[K_SOFTMAX] = {
		{ "reduce", { "add", "constant" }, "Max" },
		{ "exponential", { "subtract", NULL }, "Exp" },
		{ "divide", { "exponential", "broadcast" }, "RealDiv" },
	},
	[K_NORM] = {
		{ "reduce", { "add", "constant" }, "Mean" },
		{ "rsqrt", { "add", NULL }, "Rsqrt" },
		{ "multiply", { "subtract", "broadcast" }, "Mul" },
	},
	[K_ELEMWISE] = {
		{ "logistic", { "dot", NULL }, "Sigmoid" },
		{ "multiply", { "dot", "logistic" }, "Mul" },
		{ "multiply", { "multiply", "dot" }, "Mul" },
	},
};

/* Budget share of each layer kind, relative. */
static const uint32_t kind_share[] = {
	[K_GATHER] = 6, [K_DENSE] = 8, [K_SCORES] = 6, [K_SOFTMAX] = 3,
	[K_NORM] = 1, [K_ELEMWISE] = 2,
};

static void sanitise(char *dst, size_t cap, const char *src)
{
	size_t n = 0;

	for (; src && *src && n + 1 < cap; src++) {
		unsigned char c = (unsigned char)*src;

		dst[n++] = isalnum(c) || c == '.' || c == '-' ? (char)c : '_';
	}
	dst[n] = '\0';
}

static int starts_with_ci(const char *s, const char *p)
{
	for (; *p; s++, p++)
		if (tolower((unsigned char)*s) != *p)
			return 0;
	return 1;
}

static int is_decoder(const char *name)
{
	static const char *const dec[] = { "llama", "gpt", "mistral", "qwen",
					   "opt", "falcon" };

	for (size_t i = 0; i < NX_ARRAY_SIZE(dec); i++)
		if (starts_with_ci(name, dec[i]))
			return 1;
	return 0;
}

/* Depth and width from the usual size words in the model name. */
static void pick_size(struct demo_model *m)
{
	static const struct { const char *word; int blocks, hidden; } sz[] = {
		{ "70b", 80, 8192 }, { "13b", 40, 5120 }, { "8b", 32, 4096 },
		{ "7b", 32, 4096 }, { "1b", 16, 2048 }, { "large", 24, 1024 },
		{ "base", 12, 768 }, { "tiny", 2, 128 },
	};
	char low[sizeof(m->name)];

	for (size_t i = 0; i < sizeof(low); i++)
		low[i] = (char)tolower((unsigned char)m->name[i]);
	m->blocks = m->decoder ? 16 : 12;
	m->hidden = m->decoder ? 2048 : 768;
	for (size_t i = 0; i < NX_ARRAY_SIZE(sz); i++) {
		if (strstr(low, sz[i].word)) {
			m->blocks = sz[i].blocks;
			m->hidden = sz[i].hidden;
			break;
		}
	}
}

static void hex32(char *dst, uint64_t a, uint64_t b)
{
	snprintf(dst, 33, "%016llx%016llx", (unsigned long long)a,
		 (unsigned long long)b);
}

static void name_files(struct demo_model *m, struct demo_rng *r)
{
	uint64_t inst = demo_rng_next(r);

	hex32(m->hash, demo_rng_next(r), demo_rng_next(r));
	hex32(m->uuid, demo_rng_next(r), demo_rng_next(r));
	snprintf(m->neff, sizeof(m->neff),
		 "/home/ubuntu/%s/compiled/graph.neff", m->name);
	snprintf(m->ntff, sizeof(m->ntff),
		 "/home/ubuntu/%s/profile/i-0%016llx_pid_%u/"
		 "%s_instid_0_vnc_%d.ntff",
		 m->name, (unsigned long long)inst,
		 demo_rng_range(r, 1000, 99999), m->hash, m->nc_idx);
}

static int add_var(struct demo_model *m, const char *name, int type,
		   uint32_t rows, uint32_t cols, uint32_t elem, int layer)
{
	struct demo_var *v;

	m->var = xreallocarray(m->var, (size_t)m->nvars + 1, sizeof(*m->var));
	v = &m->var[m->nvars];
	snprintf(v->name, sizeof(v->name), "%s", name);
	v->type = (uint8_t)type;
	v->rows = rows;
	v->cols = cols;
	v->size = (uint64_t)rows * cols * elem;
	v->layer = layer;
	return m->nvars++;
}

static void add_io(struct demo_model *m)
{
	const struct family *f = &families[m->decoder];

	for (int i = 0; i < 3; i++)
		add_var(m, f->inputs[i], V_IN, 1, 128, 4, -1);
	add_var(m, "output0", V_OUT, 128, (uint32_t)m->hidden, 2, -1);
	m->nin = 3;
}

/* "%stem.n" or "%pn" for a parameter. */
static void hlo_arg(char *dst, size_t cap, const char *stem, uint32_t n)
{
	if (!strcmp(stem, "p"))
		snprintf(dst, cap, "%%p%u", n);
	else
		snprintf(dst, cap, "%%%s.%u", stem, n);
}

static void hlo_text(struct demo_hlo *o, const struct hlo_tmpl *t,
		     uint32_t *param)
{
	char args[2][40];

	for (int i = 0; i < 2; i++) {
		const char *stem = t->arg[i];

		args[i][0] = '\0';
		if (stem)
			hlo_arg(args[i], sizeof(args[i]), stem,
				!strcmp(stem, "p") ? (*param)++ : o->id - 1 - i);
	}
	snprintf(o->text, sizeof(o->text), "%%%s.%u = %s(%s%s%s)", t->op,
		 o->id, t->op, args[0], args[1][0] ? ", " : "", args[1]);
}

/* hlo_name and hlo_attrs for the layer's three ops; *h numbers them. */
static void add_hlos(struct demo_layer *l, uint32_t *h, uint32_t *param,
		     const char *source)
{
	for (int j = 0; j < DEMO_HLO_PER_LAYER; j++) {
		const struct hlo_tmpl *t = &hlo_tmpls[l->kind][j];
		struct demo_hlo *o = &l->hlo[j];

		o->id = (*h)++;
		hlo_text(o, t, param);
		snprintf(o->attrs, sizeof(o->attrs),
			 "[{\\\"op_type\\\":\\\"%s\\\",\\\"source_file\\\":"
			 "\\\"%s\\\",\\\"source_line\\\":\\\"%u\\\"}]",
			 t->op_type, source,
			 200u + 37u * l->kind + 9u * (uint32_t)j);
	}
}

/* The weight tensor of a dense layer and the tensor it spills. */
static void add_tensors(struct demo_model *m, struct demo_layer *l,
			const struct leaf *lf, int idx)
{
	char name[160];
	size_t n = strlen(l->name);
	uint32_t h = (uint32_t)m->hidden;
	const char *op = l->hlo[0].text + 1;

	if (l->kind == K_DENSE) {
		if (n > 7 && !strcmp(l->name + n - 7, "/MatMul"))
			n -= 7;
		snprintf(name, sizeof(name), "%.*s%s", (int)n, l->name,
			 families[m->decoder].wsuffix);
		l->wvar = add_var(m, name, V_WEIGHT, h, lf->wide ? 4 * h : h,
				  2, idx);
	}
	snprintf(name, sizeof(name), "%.*s_SpillSave%d",
		 (int)strcspn(op, " "), op, idx);
	l->svar = add_var(m, name, V_SPILL, 128, l->n, 2, idx);
}

static void add_layer(struct demo_model *m, const char *scope,
		      const struct leaf *lf, struct demo_rng *r, uint32_t *h,
		      uint32_t *param)
{
	struct demo_layer *l;
	int idx = m->nlayers;

	m->layer = xreallocarray(m->layer, (size_t)idx + 1, sizeof(*l));
	l = &m->layer[idx];
	memset(l, 0, sizeof(*l));
	snprintf(l->name, sizeof(l->name), "%s%s", scope, lf->path);
	l->kind = lf->kind;
	l->act = lf->act;
	l->share = kind_share[lf->kind] * (lf->wide ? 2 : 1);
	l->n = lf->kind == K_SCORES ? 128 : demo_rng_range(r, 1, 2) * 256;
	l->queue = lf->wide ? Q_SYNC_PARAM : Q_SYNC_SPILL;
	l->fw_id = (uint32_t)idx + 5;
	l->bir_base = 50 + 40 * (uint32_t)idx;
	l->penguin_base = 30 + 32 * (uint32_t)idx;
	l->wvar = -1;
	add_hlos(l, h, param, families[m->decoder].source);
	add_tensors(m, l, lf, idx);
	m->nlayers++;
}

static void add_leaves(struct demo_model *m, const char *scope,
		       const struct leaf *lf, int n, struct demo_rng *r,
		       uint32_t *h, uint32_t *param)
{
	for (int i = 0; i < n; i++)
		add_layer(m, scope, &lf[i], r, h, param);
}

static void add_layers(struct demo_model *m, struct demo_rng *r)
{
	const struct family *f = &families[m->decoder];
	char scope[96];
	uint32_t h = 3, param = 0;

	snprintf(scope, sizeof(scope), "%s/", m->prefix);
	add_leaves(m, scope, f->head, f->nhead, r, &h, &param);
	for (int b = 0; b < m->blocks; b++) {
		snprintf(scope, sizeof(scope), "%s/%s%d/", m->prefix, f->scope,
			 b);
		add_leaves(m, scope, f->block, f->nblock, r, &h, &param);
	}
	snprintf(scope, sizeof(scope), "%s/", m->prefix);
	add_leaves(m, scope, f->tail, f->ntail, r, &h, &param);
}

void demo_model_build(struct demo_model *m, const struct demo_opts *o)
{
	struct demo_rng r;
	uint64_t fit;

	memset(m, 0, sizeof(*m));
	sanitise(m->name, sizeof(m->name), o->model_name);
	if (!m->name[0])
		snprintf(m->name, sizeof(m->name), "bert-large");
	snprintf(m->prefix, sizeof(m->prefix), "%.*s",
		 (int)strcspn(m->name, "-_."), m->name);
	if (!m->prefix[0])
		snprintf(m->prefix, sizeof(m->prefix), "model");
	m->events = o->events;
	m->seed = o->seed;
	m->nc_idx = NX_MAX(o->nc_idx, 0);
	m->decoder = is_decoder(m->name);
	pick_size(m);
	/* Keep a few hundred events per layer so every layer has tiles. */
	fit = o->events / 3000;
	if ((uint64_t)m->blocks > fit)
		m->blocks = fit ? (int)fit : 1;
	demo_rng_seed(&r, o->seed ^ 0x6d6f64656cULL);
	name_files(m, &r);
	add_io(m);
	add_layers(m, &r);
}

void demo_model_free(struct demo_model *m)
{
	free(m->layer);
	free(m->var);
	m->layer = NULL;
	m->var = NULL;
}
