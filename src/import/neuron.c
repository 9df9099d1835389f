/* Neuron device-profile JSON (neuron-profile view --output-format json):
 * an object of arrays of records, any key order, read one record at a
 * time. See FORMATS.md §1.2 and §2. The keys of a system profile
 * (§1.4) go to system.c. */
#include "config.h"

#include "src/import/neuron.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/hmap.h"
#include "src/import/base.h"
#include "src/import/deps.h"
#include "src/import/formats.h"
#include "src/import/system.h"
#include "src/json/jsonpipe.h"
#include "src/json/jsonsplit.h"
#include "src/json/jsonval.h"
#include "model/util.h"

/* Distinct top-level keys at most: unknown ones each become an info
 * table and a warning. */
#define MAX_KEYS 4096

/* Track order: groups, and engines in the order people read them. */
#define SORT_ENGINES 1000
#define SORT_DMA 2000
#define SORT_XFER 3000
#define SORT_COUNTERS 4000

static const char *const engine_order[] = {
	"TensorMatrix", "Tensor", "Vector", "Scalar", "GpSimd", "Sync",
};

/* Rows by name: a hostile file may name many. */
struct named_set {
	struct strmap map;	/* name -> index + 1 in ids */
	int64_t *ids;
	size_t n, cap;
};

enum counter_id { C_DMA_RATE, C_HBM_RATE, C_PENDING, C_SBUF, C_PSUM,
		  C_THROTTLE, C_COUNT };

static const struct {
	const char *name, *unit;
} counter_defs[C_COUNT] = {
	[C_DMA_RATE] = { "DMA throughput", "B/s" },
	[C_HBM_RATE] = { "HBM throughput", "B/s" },
	[C_PENDING] = { "Pending DMA", "count" },
	[C_SBUF] = { "SBUF usage", "ratio" },
	[C_PSUM] = { "PSUM usage", "ratio" },
	[C_THROTTLE] = { "Throttling", "ratio" },
};

struct keystat {
	char *key;
	char *shown;		/* the key as the user knows it: its table */
	uint64_t n;
	int known;
	enum neuron_kind kind;	/* what the key says the file is */
};

struct neuron {
	struct import *im;
	struct writer *w;
	int64_t g_engines, g_dma, g_xfer, g_counters;
	struct named_set engines, queues, xfers;
	int64_t counters[C_COUNT];
	struct strbuf args, tmp, tmp2;
	struct strbuf extra, merged;	/* an instruction's untyped values */
	struct keystat *keys;
	size_t nkeys, last_key;
	struct strmap keymap;	/* key -> index + 1 in keys */
	struct jv_names instr_names, dma_names;
	int saw_known_key;
	struct sysimp *sys;	/* set once a system-profile key is seen */
	enum neuron_kind kind;	/* settled by the first key that says one */
	size_t kind_key;	/* that key, in keys */
	const char *noun;	/* what a top-level key is: "key", "table" */
	const char *table;	/* the table read now, or NULL (JSON) */
	uint64_t clipped;
	/* profile facts gathered from whichever record carries them */
	char *instance_type, *profile_name, *network_name;
	int64_t nc_idx;
	int have_first, have_last;
	int64_t first_hw, last_hw;
};

static int64_t group(struct neuron *n, int64_t *g, const char *name,
		     int64_t sort)
{
	if (!*g)
		*g = writer_track(n->w, n->im->profile, 0, TK_GROUP, name, sort);
	return *g;
}

static int64_t named_find(struct named_set *s, const char *name)
{
	size_t i;

	return strmap_index(&s->map, name, strlen(name), &i) ? s->ids[i] : 0;
}

static void named_add(struct named_set *s, const char *name, int64_t id)
{
	s->ids = xgrow(s->ids, &s->cap, s->n + 1, sizeof(*s->ids));
	strmap_put_index(&s->map, name, strlen(name), s->n);
	s->ids[s->n++] = id;
}

static void named_free(struct named_set *s)
{
	strmap_free(&s->map, NULL);
	free(s->ids);
}

static int64_t engine_track(struct neuron *n, const char *label)
{
	int64_t id = named_find(&n->engines, label);
	int64_t sort = SORT_ENGINES + 1 + (int64_t)NX_ARRAY_SIZE(engine_order);

	if (id)
		return id;
	for (size_t i = 0; i < NX_ARRAY_SIZE(engine_order); i++)
		if (!strcmp(label, engine_order[i]))
			sort = SORT_ENGINES + 1 + (int64_t)i;
	if (sort > SORT_ENGINES + (int64_t)NX_ARRAY_SIZE(engine_order))
		sort += (int64_t)n->engines.n;
	group(n, &n->g_engines, "Engines", SORT_ENGINES);
	id = writer_track(n->w, n->im->profile, n->g_engines, TK_ENGINE, label,
			  sort);
	named_add(&n->engines, label, id);
	return id;
}

/* Queue of a DMA packet from its subgroup: "qSyncIO0-Q1-E3" -> "qSyncIO0",
 * "Q0-E5" -> "Q0"; an aggregated row's subgroup is the queue itself. */
static void queue_name(const char *sub, struct strbuf *out)
{
	const char *e = strrchr(sub, '-');
	size_t n = strlen(sub);

	sb_reset(out);
	if (e && e[1] == 'E' && e[2] >= '0' && e[2] <= '9') {
		const char *q = e;

		while (q > sub && q[-1] != '-')
			q--;
		if (q > sub && q[0] == 'Q') {
			n = (size_t)(q - 1 - sub);
		} else if (q == sub && q[0] == 'Q') {
			n = (size_t)(e - sub);
		}
	} else if (e && e[1] == 'Q' && e[2] >= '0' && e[2] <= '9') {
		n = (size_t)(e - sub);
	}
	sb_add(out, sub, n);
}

static int64_t queue_track(struct neuron *n, const char *queue, int aggregated)
{
	struct named_set *set = aggregated ? &n->xfers : &n->queues;
	int64_t id = named_find(set, queue);

	if (id)
		return id;
	if (aggregated)
		group(n, &n->g_xfer, "DMA transfers", SORT_XFER);
	else
		group(n, &n->g_dma, "DMA queues", SORT_DMA);
	id = writer_track(n->w, n->im->profile, aggregated ? n->g_xfer : n->g_dma,
			  aggregated ? TK_DMA_XFER : TK_DMA, queue,
			  (aggregated ? SORT_XFER : SORT_DMA) + 1);
	named_add(set, queue, id);
	return id;
}

static int64_t counter_track(struct neuron *n, enum counter_id c)
{
	if (!n->counters[c]) {
		group(n, &n->g_counters, "Counters", SORT_COUNTERS);
		n->counters[c] = writer_track(n->w, n->im->profile,
					      n->g_counters, TK_COUNTER,
					      counter_defs[c].name,
					      SORT_COUNTERS + 1 + c);
		writer_track_set_unit(n->w, n->counters[c], counter_defs[c].unit);
	}
	return n->counters[c];
}

static int64_t add_slice(struct neuron *n, int64_t track, int64_t ts,
			 int64_t dur, int64_t name, int64_t cat)
{
	if (dur < 0)
		n->clipped++;
	return writer_slice(n->w, track, ts, dur, name, cat, 0, 0);
}

/* Documented instruction fields (FORMATS.md §1.5) held in typed
 * columns when their values fit: integers, interned strings, text. */
#define INSTR_NUMS(X) \
	X(adjusted_flops) X(adjusted_flops_transpose) X(crc_in) X(crc_out) \
	X(flops_transpose) X(hbm_read_bytes) X(hbm_write_bytes) \
	X(input_queue_bytes) X(output_queue_bytes) X(pcore_idx) \
	X(psum_read_bytes) X(psum_read_sbuf_write_bytes) X(psum_write_bytes) \
	X(raw_bir_id) X(raw_flops) X(raw_framework_id) X(raw_hlo_id) \
	X(raw_penguin_id) X(sbuf_read_bytes) X(sbuf_write_bytes) \
	X(spill_reload_bytes) X(spill_save_bytes) X(tensor_elements) \
	X(tensor_elements_transpose) X(weight_queue_bytes)
#define INSTR_SIDS(X) \
	X(bir_debug_info_source_location) X(hlo_attrs) X(nki_source_location) \
	X(performance_mode) X(tensor_instruction_type)
#define INSTR_TEXTS(X) \
	X(instruction_chain) X(kernel_instruction_name) X(stack_frame_ids)
#define I_ENUM(f) I_##f,
#define I_NAME(f) #f,

enum {
	I_ACTIVATION_FN, I_BIR_ID, I_BIR_INSTRUCTION_NAME, I_COMPILER_OPCODE,
	I_COMPILER_OPERANDS, I_COMPILER_PC, I_DURATION, I_EVT_WAIT_TIME,
	I_FULLY_QUALIFIED_SUBGRAPH, I_HLO_NAME, I_ID, I_INSTRUCTION_TYPE,
	I_LABEL, I_LAYER, I_OPCODE, I_OPERANDS, I_PC, I_PENGUIN_ID,
	I_SUBGROUP, I_TIMESTAMP, I_DMA_WAIT_TIME,
	INSTR_NUMS(I_ENUM) INSTR_SIDS(I_ENUM) INSTR_TEXTS(I_ENUM)
	I_COUNT
};

static const char *const instr_fields[I_COUNT] = {
	"activation_fn", "bir_id", "bir_instruction_name", "compiler_opcode",
	"compiler_operands", "compiler_pc", "duration", "evt_wait_time",
	"fully_qualified_subgraph", "hlo_name", "id", "instruction_type",
	"label", "layer", "opcode", "operands", "pc", "penguin_id",
	"subgroup", "timestamp", "dma_wait_time_ns",
	INSTR_NUMS(I_NAME) INSTR_SIDS(I_NAME) INSTR_TEXTS(I_NAME)
};

/* Integer field k of row, exact from its typed column when the reader
 * had one; else as import_need_i64(), import_opt_i64(), import_opt_id(). */
static int has_int(const struct ninstr *row, int k)
{
	return row->has_int && row->has_int[k];
}

static int need_int(struct neuron *n, const struct ninstr *row, int k,
		    const char *field, int64_t *out)
{
	if (!has_int(row, k))
		return import_need_i64(n->im, row->f[k], field, out);
	*out = row->ints[k];
	return 0;
}

static int opt_int(struct neuron *n, const struct ninstr *row, int k,
		   const char *field, int64_t *out)
{
	if (!has_int(row, k))
		return import_opt_i64(n->im, row->f[k], field, 0, out);
	*out = row->ints[k];
	return 0;
}

static int opt_id(struct neuron *n, const struct ninstr *row, int k,
		  const char *field, struct wid *out)
{
	if (!has_int(row, k))
		return import_opt_id(n->im, row->f[k], field, out);
	wid_from_i64(out, row->ints[k]);
	return 0;
}

/* A value that does not fit its typed column stays in the args. */
static void keep_arg(struct neuron *n, int k, const cJSON *v)
{
	sb_reset(&n->tmp);
	jv_key(&n->tmp, instr_fields[k]);
	jv_rest_add_key(&n->extra, n->tmp.buf, n->tmp.len, v);
}

static void opt_num(struct neuron *n, const struct ninstr *row, int k,
		    struct wnum *out)
{
	out->has = has_int(row, k);
	if (out->has) {
		out->v = row->ints[k];
		return;
	}
	if (!row->f[k])
		return;
	switch (jv_i64(row->f[k], &out->v)) {
	case JV_OK:
		out->has = 1;
		break;
	case JV_BAD:
		keep_arg(n, k, row->f[k]);
		break;
	}
}

static void opt_text(struct neuron *n, const struct ninstr *row, int k,
		     const char **out)
{
	const cJSON *v = row->f[k];

	*out = jv_is_text(v) ? v->valuestring : NULL;
	if (v && !*out && !cJSON_IsNull(v))
		keep_arg(n, k, v);
}

static void opt_sid(struct neuron *n, const struct ninstr *row, int k,
		    int64_t *out)
{
	const char *s;

	opt_text(n, row, k, &s);
	*out = s && *s ? writer_string(n->w, s) : 0;
}

/* The documented fields past the ones the views read: typed when they
 * fit, else kept in n->extra as members of the args. */
static void instruction_extra(struct neuron *n, const struct ninstr *row,
			      struct winstruction *in)
{
	struct wnum wait;

#define READ_NUM(f) opt_num(n, row, I_##f, &in->f);
#define READ_SID(f) opt_sid(n, row, I_##f, &in->f);
#define READ_TEXT(f) opt_text(n, row, I_##f, &in->f);
	sb_reset(&n->extra);
	INSTR_NUMS(READ_NUM)
	INSTR_SIDS(READ_SID)
	INSTR_TEXTS(READ_TEXT)
	opt_num(n, row, I_DMA_WAIT_TIME, &wait);
	in->dma_wait_time = wait.has ? wait.v : -1;
#undef READ_NUM
#undef READ_SID
#undef READ_TEXT
}

/* The row's args with the values instruction_extra() kept added. */
static const char *instruction_args(struct neuron *n, const char *args)
{
	if (!n->extra.len)
		return args;
	sb_reset(&n->merged);
	sb_adds(&n->merged, args);
	if (n->merged.len)
		n->merged.buf[n->merged.len - 1] = ',';
	else
		sb_addc(&n->merged, '{');
	sb_add(&n->merged, n->extra.buf + 1, n->extra.len - 1);
	sb_addc(&n->merged, '}');
	return sb_cstr(&n->merged);
}

static int instruction_of(struct neuron *n, const struct ninstr *row)
{
	const cJSON *const *f = row->f;
	struct winstruction in;
	const char *label, *opcode, *sub, *args;
	char b1[32], b2[32], b3[32];
	int64_t ts, dur, layer, track, slice;

	memset(&in, 0, sizeof(in));
	if (need_int(n, row, I_TIMESTAMP, "timestamp", &ts) ||
	    need_int(n, row, I_DURATION, "duration", &dur) ||
	    import_opt_str(n->im, f[I_LABEL], "label", 0, &label, b1,
			   sizeof(b1)) ||
	    import_opt_str(n->im, f[I_SUBGROUP], "subgroup", 0, &sub, b2,
			   sizeof(b2)) ||
	    import_opt_str(n->im, f[I_OPCODE], "opcode", 0, &opcode, b3,
			   sizeof(b3)) ||
	    opt_id(n, row, I_ID, "id", &in.id) ||
	    import_opt_sid(n->im, f[I_SUBGROUP], "subgroup", &in.subgroup) ||
	    import_opt_sid(n->im, f[I_HLO_NAME], "hlo_name", &in.hlo_name) ||
	    import_opt_sid(n->im, f[I_LAYER], "layer", &layer) ||
	    import_opt_sid(n->im, f[I_FULLY_QUALIFIED_SUBGRAPH],
			   "fully_qualified_subgraph", &in.subgraph) ||
	    import_opt_sid(n->im, f[I_INSTRUCTION_TYPE], "instruction_type",
			   &in.instruction_type) ||
	    import_opt_sid(n->im, f[I_ACTIVATION_FN], "activation_fn",
			   &in.activation_fn) ||
	    import_opt_sid(n->im, f[I_COMPILER_OPCODE], "compiler_opcode",
			   &in.compiler_opcode) ||
	    opt_int(n, row, I_PC, "pc", &in.pc) ||
	    opt_int(n, row, I_COMPILER_PC, "compiler_pc", &in.compiler_pc) ||
	    opt_int(n, row, I_EVT_WAIT_TIME, "evt_wait_time",
		    &in.evt_wait_time) ||
	    import_opt_str(n->im, f[I_OPERANDS], "operands", 0, &in.operands,
			   NULL, 0) ||
	    import_opt_str(n->im, f[I_COMPILER_OPERANDS], "compiler_operands",
			   0, &in.compiler_operands, NULL, 0) ||
	    import_opt_str(n->im, f[I_BIR_ID], "bir_id", 0, &in.bir_id, NULL,
			   0) ||
	    import_opt_str(n->im, f[I_PENGUIN_ID], "penguin_id", 0,
			   &in.penguin_id, NULL, 0) ||
	    import_opt_str(n->im, f[I_BIR_INSTRUCTION_NAME],
			   "bir_instruction_name", 0, &in.bir_instruction_name,
			   NULL, 0))
		return -1;
	instruction_extra(n, row, &in);
	if (!label || !*label)
		label = sub && *sub ? sub : "Unknown";
	track = engine_track(n, label);
	in.layer = layer;
	slice = add_slice(n, track, ts, dur,
			  writer_string(n->w, opcode && *opcode ? opcode : "unknown"),
			  layer);
	writer_instruction(n->w, slice, &in);
	args = instruction_args(n, row->args);
	if (*args)
		writer_slice_args(n->w, slice, args);
	return deps_instruction(n->im, slice, row->deps, ts, dur, opcode,
				in.operands);
}

static int instruction(struct neuron *n, const cJSON *o)
{
	const cJSON *f[I_COUNT];
	struct ninstr row = { .f = f, .deps = o };

	sb_reset(&n->args);
	jv_fields(o, &n->instr_names, f, &n->args);
	row.args = sb_cstr(&n->args);
	return instruction_of(n, &row);
}

enum {
	D_AGGREGATED, D_BLOCK_ID, D_DEST, D_DMA_ENGINE, D_DMA_QUEUE, D_DURATION,
	D_ID, D_OP, D_PACKET_AGGREGATION_ID, D_PACKET_IDX, D_QUEUE_TYPE,
	D_READ_SIZE, D_SEMAPHORE_ID, D_SOURCE, D_SUBGROUP, D_TIMESTAMP,
	D_TRANSFER_RATE, D_TRANSFER_SIZE, D_TRIGGER, D_VARIABLE, D_WRITE_SIZE,
	D_COUNT
};

static const char *const dma_fields[D_COUNT] = {
	"aggregated", "block_id", "dest", "dma_engine", "dma_queue", "duration",
	"id", "op", "packet_aggregation_id", "packet_idx", "queue_type",
	"read_size", "semaphore_id", "source", "subgroup", "timestamp",
	"transfer_rate", "transfer_size", "trigger", "variable", "write_size",
};

static int dma(struct neuron *n, const cJSON *o)
{
	const cJSON *f[D_COUNT];
	struct wdma d;
	const char *sub, *var;
	char b1[32], b2[32], b3[32];
	int64_t ts, dur, track, slice, name;
	int agg = 0;

	sb_reset(&n->args);
	jv_fields(o, &n->dma_names, f, &n->args);
	memset(&d, 0, sizeof(d));
	if (jv_bool(f[D_AGGREGATED], &agg) == JV_BAD)
		return import_bad_field(n->im, "aggregated",
					jv_type_name(f[D_AGGREGATED]),
					"\"yes\" or \"no\"");
	d.aggregated = agg;
	if (import_need_i64(n->im, f[D_TIMESTAMP], "timestamp", &ts) ||
	    import_need_i64(n->im, f[D_DURATION], "duration", &dur) ||
	    import_opt_id(n->im, f[D_ID], "id", &d.id) ||
	    import_opt_id(n->im, f[D_PACKET_AGGREGATION_ID],
			  "packet_aggregation_id", &d.packet_aggregation_id) ||
	    import_opt_i64(n->im, f[D_PACKET_IDX], "packet_idx", 0,
			   &d.packet_idx) ||
	    import_opt_sid(n->im, f[D_QUEUE_TYPE], "queue_type",
			   &d.queue_type) ||
	    import_opt_sid(n->im, f[D_OP], "op", &d.op) ||
	    import_opt_i64(n->im, f[D_TRANSFER_SIZE], "transfer_size", 0,
			   &d.transfer_size) ||
	    import_opt_i64(n->im, f[D_READ_SIZE], "read_size", 0,
			   &d.read_size) ||
	    import_opt_i64(n->im, f[D_WRITE_SIZE], "write_size", 0,
			   &d.write_size) ||
	    import_opt_i64(n->im, f[D_TRANSFER_RATE], "transfer_rate", 0,
			   &d.transfer_rate) ||
	    import_opt_i64(n->im, f[D_DMA_ENGINE], "dma_engine", 0,
			   &d.dma_engine) ||
	    import_opt_i64(n->im, f[D_DMA_QUEUE], "dma_queue", 0,
			   &d.dma_queue) ||
	    import_opt_i64(n->im, f[D_BLOCK_ID], "block_id", 0, &d.block_id) ||
	    import_opt_i64(n->im, f[D_TRIGGER], "trigger", 0, &d.trigger_ts) ||
	    import_opt_str(n->im, f[D_SEMAPHORE_ID], "semaphore_id", 0,
			   &d.semaphore_id, b1, sizeof(b1)) ||
	    import_opt_str(n->im, f[D_SUBGROUP], "subgroup", 0, &sub, b2,
			   sizeof(b2)) ||
	    import_opt_str(n->im, f[D_VARIABLE], "variable", 0, &var, b3,
			   sizeof(b3)))
		return -1;
	if (!sub || !*sub)
		sub = "unknown";
	if (agg)
		sb_reset(&n->tmp), sb_adds(&n->tmp, sub);
	else
		queue_name(sub, &n->tmp);
	d.queue = writer_string(n->w, sb_cstr(&n->tmp));
	track = queue_track(n, sb_cstr(&n->tmp), agg);
	name = writer_string(n->w, var && *var ? var : "unknown");
	d.variable = name;
	sb_reset(&n->tmp);
	if (f[D_SOURCE]) {
		jv_flatten(&n->tmp, f[D_SOURCE]);
		d.source = sb_cstr(&n->tmp);
	}
	sb_reset(&n->tmp2);
	if (f[D_DEST]) {
		jv_flatten(&n->tmp2, f[D_DEST]);
		d.dest = sb_cstr(&n->tmp2);
	}
	if (dur < 0)
		n->clipped++;
	slice = writer_slice_sized(n->w, track, ts, dur, name, d.queue_type,
				   d.transfer_size);
	writer_dma(n->w, slice, &d);
	if (deps_dma(n->im, slice, &d, ts, dur, o))
		return -1;
	/* keep the packet's own queue label (engine and queue index) */
	if (!agg && strcmp(sub, "unknown")) {
		if (n->args.len) {
			n->args.len--;
			sb_adds(&n->args, ",\"subgroup\":");
		} else {
			sb_adds(&n->args, "{\"subgroup\":");
		}
		sb_addc(&n->args, '"');
		for (const char *p = sub; *p; p++) {
			if (*p == '"' || *p == '\\')
				sb_addc(&n->args, '\\');
			if ((unsigned char)*p >= 0x20)
				sb_addc(&n->args, *p);
		}
		sb_adds(&n->args, "\"}");
	}
	if (n->args.len)
		writer_slice_args(n->w, slice, sb_cstr(&n->args));
	return 0;
}

static const char *const layer_engines[5] = {
	"tensor", "vector", "scalar", "gpsimd", "sync",
};

static int layer_summary(struct neuron *n, const cJSON *o)
{
	struct wlayer l;
	const char *name, *sub;
	char key[64];

	memset(&l, 0, sizeof(l));
	if (import_opt_str(n->im, cJSON_GetObjectItemCaseSensitive(o, "name"),
			   "name", 0, &name, NULL, 0) ||
	    import_opt_str(n->im, cJSON_GetObjectItemCaseSensitive(o,
			   "fully_qualified_subgraph"),
			   "fully_qualified_subgraph", 0, &sub, NULL, 0) ||
	    import_need_i64(n->im, cJSON_GetObjectItemCaseSensitive(o, "start"),
			    "start", &l.start) ||
	    import_opt_i64(n->im, cJSON_GetObjectItemCaseSensitive(o, "end"),
			   "end", 0, &l.end) ||
	    import_opt_i64(n->im,
			   cJSON_GetObjectItemCaseSensitive(o, "duration"),
			   "duration", 0, &l.dur))
		return -1;
	if (l.end < 0 && l.dur >= 0)
		l.end = l.start + l.dur;
	if (l.dur < 0)
		l.dur = l.end >= l.start ? l.end - l.start : 0;
	l.name = name ? name : "";
	l.subgraph = sub;
	for (int e = 0; e < 5; e++) {
		static const char *const what[3] = { "instruction_count",
						     "instruction_time",
						     "active_time" };
		int64_t *dst[3] = { &l.count[e], &l.time[e], &l.active[e] };

		for (int k = 0; k < 3; k++) {
			snprintf(key, sizeof(key), "%s_engine_%s",
				 layer_engines[e], what[k]);
			if (import_opt_i64(n->im,
				cJSON_GetObjectItemCaseSensitive(o, key), key,
				0, dst[k]))
				return -1;
		}
	}
	if (import_opt_i64(n->im, cJSON_GetObjectItemCaseSensitive(o,
			   "tensor_engine_flop_count"),
			   "tensor_engine_flop_count", 0, &l.flops) ||
	    import_opt_i64(n->im, cJSON_GetObjectItemCaseSensitive(o,
			   "tensor_engine_model_flop_count"),
			   "tensor_engine_model_flop_count", 0, &l.model_flops))
		return -1;
	if (jv_f64(cJSON_GetObjectItemCaseSensitive(o, "tensor_engine_mfu"),
		   &l.mfu) != JV_OK)
		l.mfu = -1;
	if (jv_f64(cJSON_GetObjectItemCaseSensitive(o, "tensor_engine_hfu"),
		   &l.hfu) != JV_OK)
		l.hfu = -1;
	writer_layer(n->w, n->im->profile, &l);
	return 0;
}

static int active_time(struct neuron *n, const cJSON *o)
{
	int64_t s, e, pcore;
	const char *engine;
	char buf[32];

	if (import_need_i64(n->im,
			    cJSON_GetObjectItemCaseSensitive(o, "start_ts"),
			    "start_ts", &s) ||
	    import_need_i64(n->im,
			    cJSON_GetObjectItemCaseSensitive(o, "end_ts"),
			    "end_ts", &e) ||
	    import_opt_i64(n->im,
			   cJSON_GetObjectItemCaseSensitive(o, "pcore_idx"),
			   "pcore_idx", 0, &pcore) ||
	    import_opt_str(n->im, cJSON_GetObjectItemCaseSensitive(o, "engine"),
			   "engine", 0, &engine, buf, sizeof(buf)))
		return -1;
	writer_active_time(n->w, n->im->profile, engine ? engine : "", s, e,
			   pcore);
	return 0;
}

static int semaphore_update(struct neuron *n, const cJSON *o)
{
	int64_t ts, value;
	const char *id;
	char buf[32];

	if (import_need_i64(n->im,
			    cJSON_GetObjectItemCaseSensitive(o, "timestamp"),
			    "timestamp", &ts) ||
	    import_opt_i64(n->im, cJSON_GetObjectItemCaseSensitive(o, "value"),
			   "value", 0, &value) ||
	    import_opt_str(n->im, cJSON_GetObjectItemCaseSensitive(o, "id"),
			   "id", 0, &id, buf, sizeof(buf)))
		return -1;
	writer_semaphore(n->w, n->im->profile, ts, id, value);
	return 0;
}

/* A sample: ts from "timestamp", value from field. */
static int sample(struct neuron *n, const cJSON *o, const char *field,
		  enum counter_id c, int64_t *ts_out)
{
	int64_t ts;
	double v;
	int rc;

	if (import_need_i64(n->im,
			    cJSON_GetObjectItemCaseSensitive(o, "timestamp"),
			    "timestamp", &ts))
		return -1;
	rc = import_opt_f64(n->im, cJSON_GetObjectItemCaseSensitive(o, field),
			    field, &v);
	if (rc < 0)
		return -1;
	if (rc == 0)
		writer_counter(n->w, counter_track(n, c), ts, v);
	if (ts_out)
		*ts_out = ts;
	return 0;
}

static int dma_throughput(struct neuron *n, const cJSON *o)
{
	return sample(n, o, "transfer_rate", C_DMA_RATE, NULL) ||
	       sample(n, o, "hbm_transfer_rate", C_HBM_RATE, NULL) ? -1 : 0;
}

static int pending_dma(struct neuron *n, const cJSON *o)
{
	return sample(n, o, "value", C_PENDING, NULL);
}

static int instruction_usage(struct neuron *n, const cJSON *o)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "type");
	const char *type = cJSON_IsString(t) ? t->valuestring : "";

	if (!strcmp(type, "psum"))
		return sample(n, o, "usage_avg", C_PSUM, NULL);
	return sample(n, o, "usage_avg", C_SBUF, NULL);
}

/* Throttling: the utilisation limit k/n holds for "duration" ns. */
static int ham(struct neuron *n, const cJSON *o)
{
	int64_t ts, dur, k, m;
	int64_t track = counter_track(n, C_THROTTLE);

	if (import_need_i64(n->im,
			    cJSON_GetObjectItemCaseSensitive(o, "timestamp"),
			    "timestamp", &ts) ||
	    import_opt_i64(n->im,
			   cJSON_GetObjectItemCaseSensitive(o, "duration"),
			   "duration", 0, &dur) ||
	    import_opt_i64(n->im, cJSON_GetObjectItemCaseSensitive(o, "k"), "k",
			   0, &k) ||
	    import_opt_i64(n->im, cJSON_GetObjectItemCaseSensitive(o, "n"), "n",
			   0, &m))
		return -1;
	if (k < 0 || m <= 0)
		return 0;
	writer_counter(n->w, track, ts, (double)k / (double)m);
	if (dur > 0 && ts <= INT64_MAX - dur)
		writer_counter(n->w, track, ts + dur, 1.0);
	return 0;
}

/* Remembers facts about the profile as their records go by. */
static void note_facts(struct neuron *n, const char *section, const cJSON *o)
{
	const cJSON *v;
	int64_t i;

	if (!strcmp(section, "summary") || !strcmp(section, "model_info")) {
		v = cJSON_GetObjectItemCaseSensitive(o, "instance_type");
		if (cJSON_IsString(v) && !n->instance_type)
			n->instance_type = xstrdup(v->valuestring);
		if (jv_i64(cJSON_GetObjectItemCaseSensitive(o, "nc_idx"), &i) ==
		    JV_OK)
			n->nc_idx = i;
	} else if (!strcmp(section, "profile_info")) {
		v = cJSON_GetObjectItemCaseSensitive(o, "profile_name");
		if (cJSON_IsString(v) && !n->profile_name)
			n->profile_name = xstrdup(v->valuestring);
	} else if (!strcmp(section, "neff_header")) {
		v = cJSON_GetObjectItemCaseSensitive(o, "network_name");
		if (cJSON_IsString(v) && !n->network_name)
			n->network_name = xstrdup(v->valuestring);
	} else if (!strcmp(section, "metadata")) {
		/* Parquet's Metadata carries what the JSON spreads around */
		v = cJSON_GetObjectItemCaseSensitive(o, "profile_name");
		if (cJSON_IsString(v) && !n->profile_name)
			n->profile_name = xstrdup(v->valuestring);
		v = cJSON_GetObjectItemCaseSensitive(o, "instance_type");
		if (cJSON_IsString(v) && !n->instance_type)
			n->instance_type = xstrdup(v->valuestring);
		if (jv_i64(cJSON_GetObjectItemCaseSensitive(o, "neuroncore_idx"),
			   &i) == JV_OK)
			n->nc_idx = i;
		if (jv_i64(cJSON_GetObjectItemCaseSensitive(o,
			   "first_hw_timestamp"), &i) == JV_OK) {
			n->first_hw = i;
			n->have_first = 1;
		}
		if (jv_i64(cJSON_GetObjectItemCaseSensitive(o,
			   "last_hw_timestamp"), &i) == JV_OK) {
			n->last_hw = i;
			n->have_last = 1;
		}
	} else if (!strcmp(section, "warnings")) {
		const cJSON *c = cJSON_GetObjectItemCaseSensitive(o, "category");
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "message");

		import_warning(n->im, cJSON_IsString(c) ? c->valuestring : NULL,
			       cJSON_IsString(m) ? m->valuestring : "");
	}
}

/* The summary's figures are numbers, also when given as strings: its
 * checks and its seconds and fractions shown as durations and
 * percentages need them so. Its versions ("2.30") are text. */
static int is_figure(const char *section, const char *key)
{
	size_t n = strlen(key);

	return !strcmp(section, "summary") &&
	       !(n >= 8 && !strcmp(key + n - 8, "_version"));
}

/* Records of the info sections go to the info table field by field. */
static int info(struct neuron *n, const char *section, const cJSON *o)
{
	struct wvalue v;

	if (!cJSON_IsObject(o)) {
		jv_to_wvalue(o, &v, &n->tmp);
		writer_info(n->w, n->im->profile, section,
			    (int64_t)n->im->rec->index, "value", &v);
		return 0;
	}
	note_facts(n, section, o);
	for (const cJSON *c = o->child; c; c = c->next) {
		if (c->string && is_figure(section, c->string))
			jv_to_wvalue_num(c, &v, &n->tmp);
		else
			jv_to_wvalue(c, &v, &n->tmp);
		writer_info(n->w, n->im->profile, section,
			    (int64_t)n->im->rec->index,
			    c->string ? c->string : "", &v);
	}
	return 0;
}

struct handler {
	const char *key;
	int (*fn)(struct neuron *n, const cJSON *o);
};

static const struct handler handlers[] = {
	{ "active_time", active_time },
	{ "dma", dma },
	{ "dma_throughput", dma_throughput },
	{ "ham", ham },
	{ "instruction", instruction },
	{ "instruction_usage", instruction_usage },
	{ "layer_summary", layer_summary },
	{ "pending_dma", pending_dma },
	{ "semaphore_update", semaphore_update },
};

enum neuron_kind neuron_key_kind(const char *key)
{
	for (size_t i = 0; i < NX_ARRAY_SIZE(handlers); i++)
		if (!strcmp(key, handlers[i].key))
			return NK_DEVICE;
	return sysimp_is_key(key) ? NK_SYSTEM : NK_NONE;
}

/* Keys stored as info tables, field by field. */
static const char *const info_keys[] = {
	"annotation", "cc_stream", "dma_queues_info", "metadata", "model_info", "nc_mem_usage",
	"neff_header", "neff_node", "profile_info", "summary", "summary_group_order",
	"summary_groups", "terminology", "warnings",
};

static struct keystat *keystat(struct neuron *n, const char *key)
{
	/* records of one key come in long runs */
	void *i;

	if (n->last_key < n->nkeys && !strcmp(n->keys[n->last_key].key, key))
		return &n->keys[n->last_key];
	if ((i = strmap_get(&n->keymap, key, strlen(key))))
		return &n->keys[n->last_key = (uintptr_t)i - 1];
	n->keys = xreallocarray(n->keys, n->nkeys + 1, sizeof(*n->keys));
	n->keys[n->nkeys] = (struct keystat){ xstrdup(key),
		xstrdup(n->table ? n->table : key), 0, 0, neuron_key_kind(key) };
	strmap_put(&n->keymap, key, strlen(key), (void *)(uintptr_t)(n->nkeys + 1));
	return &n->keys[n->last_key = n->nkeys++];
}

static const char *kind_name(enum neuron_kind k)
{
	return k == NK_SYSTEM ? "system" : "device";
}

/* The first key of a device or a system profile's data settles what the
 * file is, as the dispatcher tells it (dispatch.c); a key of the other
 * kind after it makes a file no tool writes. */
static int settle(struct neuron *n, const struct jrec *r,
		  const struct keystat *ks)
{
	if (n->kind == NK_NONE) {
		n->kind = ks->kind;
		n->kind_key = (size_t)(ks - n->keys);
		return 0;
	}
	return import_fail(n->im, r, "expected a %s profile's %ss after"
			   " \"%s\", found a %s profile's %s",
			   kind_name(n->kind), n->noun,
			   n->keys[n->kind_key].shown, kind_name(ks->kind),
			   n->noun);
}

static int record(struct neuron *n, const struct jrec *r, const cJSON *o,
		  void *prepared)
{
	const char *key = r->key ? r->key : "";
	struct keystat *ks;
	int rc = 0;

	n->im->rec = r;
	if (n->nkeys >= MAX_KEYS && !strmap_get(&n->keymap, key, strlen(key)))
		return import_fail(n->im, r, "more than %d different top-level"
				   " keys", MAX_KEYS);
	ks = keystat(n, key);
	if (ks->kind != NK_NONE && ks->kind != n->kind && settle(n, r, ks))
		return -1;
	if (r->kind == JREC_ARRAY_END)
		return 0;
	ks->n++;
	if (!o)
		return import_fail(n->im, r, "invalid JSON");
	if (ks->kind == NK_SYSTEM) {
		ks->known = 1;
		n->saw_known_key = 1;
		if (r->kind == JREC_VALUE)
			return import_fail(n->im, r, "expected an array of"
					   " records, found %s", jv_type_name(o));
		if (!n->sys)
			n->sys = sysimp_new(n->im);
		return n->sys ? sysimp_record(n->sys, r, o, prepared) : -1;
	}
	for (size_t i = 0; i < NX_ARRAY_SIZE(handlers); i++) {
		if (strcmp(key, handlers[i].key))
			continue;
		ks->known = 1;
		n->saw_known_key = 1;
		if (r->kind == JREC_VALUE)
			rc = import_fail(n->im, r, "expected an array of records,"
					 " found %s", jv_type_name(o));
		else if (!cJSON_IsObject(o))
			rc = import_fail(n->im, r, "expected an object, found %s",
					 jv_type_name(o));
		else
			rc = handlers[i].fn(n, o);
		return rc;
	}
	for (size_t i = 0; i < NX_ARRAY_SIZE(info_keys); i++) {
		if (!strcmp(key, info_keys[i])) {
			ks->known = 1;
			n->saw_known_key = 1;
			break;
		}
	}
	/* Unknown keys (annotation, cc_stream, newer additions) are kept
	 * as info tables too and reported once at the end. */
	return info(n, key, o);
}

static void report_unknown(struct neuron *n)
{
	for (size_t i = 0; i < n->nkeys; i++) {
		struct keystat *k = &n->keys[i];
		char *msg;

		if (k->known || !k->n)
			continue;
		msg = xasprintf("unrecognised %s \"%s\": %" PRIu64
				" record(s) kept in the info table \"%s\"",
				n->noun, k->shown, k->n, k->key);
		writer_warning(n->w, n->im->profile, "import", "Import", msg);
		free(msg);
	}
	if (n->clipped) {
		char *msg = xasprintf("%" PRIu64 " event(s) with a negative"
				      " duration were stored with duration 0",
				      n->clipped);

		writer_warning(n->w, n->im->profile, "import", "Import", msg);
		free(msg);
	}
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

static void finish_profile(struct neuron *n)
{
	const char *name = n->profile_name ? n->profile_name :
			   n->network_name ? n->network_name : n->im->name;
	struct strbuf sql;

	report_unknown(n);
	sb_init(&sql);
	writer_profile_set(n->w, n->im->profile, "name", base_name(name));
	if (n->instance_type)
		writer_profile_set(n->w, n->im->profile, "instance_type",
				   n->instance_type);
	if (n->nc_idx >= 0) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%" PRId64, n->nc_idx);
		writer_profile_set(n->w, n->im->profile, "nc_idx", buf);
	}
	if (n->have_first && n->have_last && n->last_hw >= n->first_hw)
		writer_profile_extent(n->w, n->im->profile, n->first_hw,
				      n->last_hw);
	sb_free(&sql);
}

static void neuron_free(struct neuron *n)
{
	sysimp_free(n->sys);
	named_free(&n->engines);
	jv_names_free(&n->instr_names);
	jv_names_free(&n->dma_names);
	named_free(&n->queues);
	named_free(&n->xfers);
	sb_free(&n->args);
	sb_free(&n->tmp);
	sb_free(&n->tmp2);
	sb_free(&n->extra);
	sb_free(&n->merged);
	for (size_t i = 0; i < n->nkeys; i++) {
		free(n->keys[i].key);
		free(n->keys[i].shown);
	}
	free(n->keys);
	strmap_free(&n->keymap, NULL);
	free(n->instance_type);
	free(n->profile_name);
	free(n->network_name);
}

static int unrecognised(struct neuron *n)
{
	struct strbuf sb;

	sb_init(&sb);
	for (size_t i = 0; i < n->nkeys && i < 8; i++)
		sb_printf(&sb, "%s\"%s\"", i ? ", " : "", n->keys[i].key);
	if (n->nkeys)
		import_fail(n->im, NULL, "no Neuron profile data found (top-level"
			    " keys: %s)", sb_cstr(&sb));
	else
		import_fail(n->im, NULL, "no Neuron profile data found (empty"
			    " object)");
	sb_free(&sb);
	return -1;
}

static void neuron_init(struct neuron *n, struct import *im)
{
	memset(n, 0, sizeof(*n));
	n->im = im;
	n->w = im->w;
	n->nc_idx = -1;
	n->noun = "key";
	jv_names_init(&n->instr_names, instr_fields, I_COUNT);
	jv_names_init(&n->dma_names, dma_fields, D_COUNT);
}

int import_neuron_json(struct import *im)
{
	struct wprofile p = { .kind = "device", .format = "neuron-json",
			      .name = im->name, .parent_id = im->parent,
			      .nc_idx = -1 };
	struct neuron n;
	struct jsplit *s;
	struct jpipe *pipe;
	struct jrec r;
	const cJSON *o;
	void *prepared;
	int fd, rc;
	uint64_t count = 0;

	neuron_init(&n, im);
	s = import_open_json(im, &fd);
	if (!s)
		return -1;
	im->profile = writer_profile(im->w, &p);
	/* parsing overlaps with writing: a large profile imports faster */
	pipe = jpipe_open(s, 1, sysimp_prep);
	while ((rc = jpipe_next(pipe, &r, &o, &prepared)) == 1) {
		if (jpipe_root_is_array(pipe)) {
			rc = import_fail(im, NULL, "expected a JSON object of"
					 " arrays, found an array");
			break;
		}
		if (record(&n, &r, o, prepared)) {
			rc = -1;
			break;
		}
		if (writer_failed(im->w)) {
			rc = -1;
			break;
		}
		if (++count % 4096 == 0)
			import_progress(im, jpipe_offset(pipe));
	}
	jpipe_close(pipe);
	if (rc == 0 && !n.saw_known_key)
		rc = unrecognised(&n);
	if (rc == 0 && n.sys)
		rc = sysimp_finish(n.sys);
	if (rc == 0)
		finish_profile(&n);
	import_close_json(s, fd);
	neuron_free(&n);
	return rc;
}

struct neuron *neuron_new(struct import *im)
{
	struct neuron *n = xmalloc(sizeof(*n));

	neuron_init(n, im);
	return n;
}

void neuron_end(struct neuron *n)
{
	if (!n)
		return;
	report_unknown(n);
	neuron_free(n);
	free(n);
}

void neuron_set_noun(struct neuron *n, const char *noun)
{
	n->noun = noun;
}

void neuron_set_table(struct neuron *n, const char *table)
{
	n->table = table;
}

int neuron_record(struct neuron *n, const struct jrec *r, const cJSON *o)
{
	return record(n, r, o, NULL);
}

int neuron_finish(struct neuron *n)
{
	int rc = 0;

	if (!n->saw_known_key)
		rc = unrecognised(n);
	if (rc == 0 && n->sys)
		rc = sysimp_finish(n->sys);
	if (rc == 0)
		finish_profile(n);
	neuron_free(n);
	free(n);
	return rc;
}

int neuron_instruction(struct neuron *n, const cJSON *o,
		       const struct jrec *where)
{
	n->im->rec = where;
	return instruction(n, o);
}

const char *const *neuron_instruction_fields(size_t *n)
{
	*n = I_COUNT;
	return instr_fields;
}

int neuron_instruction_row(struct neuron *n, const struct jrec *r,
			   const struct ninstr *row)
{
	const char *key = r->key ? r->key : "";
	struct keystat *ks;

	n->im->rec = r;
	if (n->nkeys >= MAX_KEYS && !strmap_get(&n->keymap, key, strlen(key)))
		return import_fail(n->im, r, "more than %d different top-level"
				   " keys", MAX_KEYS);
	ks = keystat(n, key);
	if (ks->kind != NK_NONE && ks->kind != n->kind && settle(n, r, ks))
		return -1;
	ks->n++;
	ks->known = 1;
	n->saw_known_key = 1;
	return instruction_of(n, row);
}

int neuron_dma(struct neuron *n, const cJSON *o, const struct jrec *where)
{
	n->im->rec = where;
	return dma(n, o);
}

/* Counter track names in Neuron's Perfetto output. */
static const struct {
	const char *name;
	enum counter_id c;
} perfetto_counters[] = {
	{ "DMA Throughput", C_DMA_RATE },
	{ "HBM Throughput", C_HBM_RATE },
	{ "Pending DMA Count", C_PENDING },
	{ "Sb Usage", C_SBUF },
	{ "Psum Usage", C_PSUM },
	{ "Throttling", C_THROTTLE },
};

int neuron_counter_named(const char *name)
{
	for (size_t i = 0; i < NX_ARRAY_SIZE(perfetto_counters); i++)
		if (!strcasecmp(name, perfetto_counters[i].name))
			return (int)perfetto_counters[i].c;
	return -1;
}

void neuron_sample(struct neuron *n, int counter, int64_t ts, double v)
{
	if (counter >= 0 && counter < C_COUNT)
		writer_counter(n->w, counter_track(n, (enum counter_id)counter),
			       ts, v);
}
