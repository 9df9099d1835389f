/* A Neuron Explorer device profile folder (FORMATS.md §1.5, §1.5a):
 * Instruction.parquet, DmaPacket.parquet, ... whichever exist. Each row
 * is renamed into the record the JSON export writes for it and goes
 * through the JSON importer's handlers, so both formats give the same
 * rows. Parquet has no layer summary: layers are counted here from the
 * instructions' layer (or hlo_name) column, in one pass over the rows:
 * instruction counts and times, each engine's active time (the union of
 * that engine's instructions in the layer), FLOPs, and MFU and HFU when
 * Metadata gives the tensor engine's peak. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/bounds.h"
#include "model/hmap.h"
#include "model/util.h"
#include "src/import/deps.h"
#include "src/import/formats.h"
#include "src/import/import.h"
#include "src/import/neuron.h"
#include "src/import/parquet/folder.h"
#include "src/import/parquet/rows.h"
#include "src/import/parquet/span.h"
#include "src/json/jsonsplit.h"
#include "src/json/jsonval.h"

/* The newest profile_schema_version MAJOR this reader was written for. */
#define KNOWN_SCHEMA_MAJOR 12

/* Rows, and values, of a table nxtop does not know kept in its info
 * table at most. */
#define MAX_INFO_ROWS 10000
#define MAX_INFO_CELLS 1000000

/* Distinct layers counted at most; a hostile file may name millions. */
#define MAX_LAYERS 65536

enum table_kind { TBL_ROWS, TBL_PACKET, TBL_XFER, TBL_SBUF, TBL_PSUM, TBL_SCHEMA,
		  TBL_FLOW };

static const struct pqrename instruction_names[] = {
	{ "start_ts", "timestamp" }, { "duration_ns", "duration" },
	{ "end_ts", NULL }, { "engine", "subgroup" },
	{ "timeline_track", "label" }, { "evt_wait_time_ns", "evt_wait_time" },
	{ "scalar_activation_fn", "activation_fn" }, { NULL, NULL },
};

#define DMA_NAMES \
	{ "start_ts", "timestamp" }, { "duration_ns", "duration" }, \
	{ "end_ts", NULL }, { "transfer_bytes", "transfer_size" }, \
	{ "read_bytes", "read_size" }, { "write_bytes", "write_size" }, \
	{ "queue_name", "subgroup" }, { "queue_idx", "dma_queue" }, \
	{ "engine_idx", "dma_engine" }, { "throughput", "transfer_rate" }

static const struct pqrename packet_names[] = { DMA_NAMES, { NULL, NULL } };

static const struct pqrename xfer_names[] = {
	DMA_NAMES,
	{ "read_sbuf_partitions", "source_sb_partitions" },
	{ "read_num_sbuf_partitions", "source_num_sb_partitions" },
	{ "read_offset", "source_offset" }, { "read_steps", "source_steps" },
	{ "write_sbuf_partitions", "dest_sb_partitions" },
	{ "write_num_sbuf_partitions", "dest_num_sb_partitions" },
	{ "write_offset", "dest_offset" }, { "write_steps", "dest_steps" },
	{ NULL, NULL },
};

static const struct pqrename queue_info_names[] = {
	{ "name", "q_name" }, { "type", "q_type" }, { "idx", "q_idx" },
	{ "engine_idx", "q_eng_idx" }, { "axi_port", "q_axi_port" },
	{ "dram_channel", "q_dram_channel" }, { "event_id", "q_event_id" },
	{ NULL, NULL },
};

/* Documented columns (§1.5) besides the renamed ones: the others of a
 * file are listed in a warning, and kept with each row. */
static const struct pqrename instruction_doc[] = {
	{ "pcore_idx", 0 }, { "opcode", 0 }, { "operands", 0 },
	{ "compiler_opcode", 0 }, { "compiler_operands", 0 }, { "id", 0 },
	{ "pc", 0 }, { "compiler_pc", 0 }, { "penguin_id", 0 },
	{ "raw_penguin_id", 0 }, { "bir_id", 0 }, { "raw_bir_id", 0 },
	{ "bir_instruction_name", 0 }, { "kernel_instruction_name", 0 },
	{ "crc_in", 0 }, { "crc_out", 0 }, { "hlo_attrs", 0 },
	{ "hlo_name", 0 }, { "raw_hlo_id", 0 }, { "raw_framework_id", 0 },
	{ "layer", 0 }, { "stack_frame_ids", 0 },
	{ "nki_source_location", 0 }, { "bir_debug_info_source_location", 0 },
	{ "dma_trigger_start_ts", 0 }, { "dma_trigger_end_ts", 0 },
	{ "dma_wait_time_ns", 0 }, { "instruction_chain", 0 },
	{ "hbm_read_bytes", 0 }, { "hbm_write_bytes", 0 },
	{ "sbuf_read_bytes", 0 }, { "sbuf_write_bytes", 0 },
	{ "spill_save_bytes", 0 }, { "spill_reload_bytes", 0 },
	{ "psum_read_bytes", 0 }, { "psum_write_bytes", 0 },
	{ "psum_read_sbuf_write_bytes", 0 }, { "input_queue_bytes", 0 },
	{ "output_queue_bytes", 0 }, { "weight_queue_bytes", 0 },
	{ "performance_mode", 0 }, { "tensor_instruction_type", 0 },
	{ "tensor_elements", 0 }, { "raw_flops", 0 }, { "adjusted_flops", 0 },
	{ "tensor_elements_transpose", 0 }, { "flops_transpose", 0 },
	{ "adjusted_flops_transpose", 0 },
	/* read by nxtop where the JSON export has them */
	{ "instruction_type", 0 }, { "fully_qualified_subgraph", 0 },
	{ NULL, NULL },
};

static const struct pqrename packet_doc[] = {
	{ "pcore_idx", 0 }, { "id", 0 }, { "packet_idx", 0 },
	{ "packet_aggregation_id", 0 }, { "queue_type", 0 },
	{ "variable", 0 }, { "crc", 0 },
	/* read by nxtop where the JSON export has them */
	{ "op", 0 }, { "source", 0 }, { "dest", 0 }, { "block_id", 0 },
	{ "semaphore_id", 0 }, { NULL, NULL },
};

static const struct pqrename xfer_doc[] = {
	{ "id", 0 }, { "pcore_idx", 0 }, { "block_id", 0 },
	{ "queue_type", 0 }, { "op", 0 }, { "variable", 0 }, { "source", 0 },
	{ "dest", 0 }, { "semaphore_id", 0 }, { "modular_flow_function", 0 },
	{ "read_shape", 0 }, { "write_shape", 0 }, { "is_transpose_mode", 0 },
	{ "trigger", 0 }, { "completion", 0 },
	/* read by nxtop where the JSON export has it */
	{ "packet_aggregation_id", 0 }, { NULL, NULL },
};

static const struct pqrename flow_doc[] = {
	{ "in_id", 0 }, { "out_id", 0 }, { "in_table", 0 }, { "out_table", 0 },
	{ "dependency_type", 0 }, { "gap_time", 0 }, { NULL, NULL },
};

struct spec {
	const char *table, *section;
	enum table_kind kind;
	const struct pqrename *names, *doc;
	const char *required[3];
};

/* Metadata first: the profile's extent and name come from it. */
static const struct spec specs[] = {
	{ "Metadata", "metadata", TBL_ROWS, NULL, NULL, { 0 } },
	{ "Instruction", "instruction", TBL_ROWS, instruction_names,
	  instruction_doc, { "start_ts", "duration_ns", NULL } },
	{ "DmaPacket", "dma", TBL_PACKET, packet_names, packet_doc,
	  { "start_ts", "duration_ns", NULL } },
	{ "DmaPacketAggregated", "dma", TBL_XFER, xfer_names, xfer_doc,
	  { "start_ts", "duration_ns", NULL } },
	{ "ActiveTime", "active_time", TBL_ROWS, NULL, NULL,
	  { "start_ts", "end_ts", NULL } },
	{ "SemaphoreUpdate", "semaphore_update", TBL_ROWS, NULL, NULL,
	  { "timestamp", NULL } },
	{ "PendingDma", "pending_dma", TBL_ROWS, NULL, NULL, { "timestamp" } },
	{ "Throttle", "ham", TBL_ROWS, NULL, NULL, { "timestamp", NULL } },
	{ "DmaUsage", "dma_throughput", TBL_ROWS, NULL, NULL, { "timestamp" } },
	{ "SbufUsage", "instruction_usage", TBL_SBUF, NULL, NULL,
	  { "timestamp" } },
	{ "PsumUsage", "instruction_usage", TBL_PSUM, NULL, NULL,
	  { "timestamp" } },
	{ "Warning", "warnings", TBL_ROWS, NULL, NULL, { 0 } },
	{ "DmaQueuesInfo", "dma_queues_info", TBL_ROWS, queue_info_names, NULL,
	  { 0 } },
	{ "HbmUsageSummaryByType", "nc_mem_usage", TBL_ROWS, NULL, NULL, { 0 } },
	{ "NeffHeader", "neff_header", TBL_ROWS, NULL, NULL, { 0 } },
	{ "TensorInfo", "neff_node", TBL_ROWS, NULL, NULL, { 0 } },
	{ "Summary", "summary", TBL_ROWS, NULL, NULL, { 0 } },
	{ "SchemaFields", "SchemaFields", TBL_SCHEMA, NULL, NULL, { 0 } },
	{ "Flow", "Flow", TBL_FLOW, NULL, flow_doc, { "in_id", "out_id", NULL } },
};

/* Instruction rows by field (pqrows_bind): the instruction's fields,
 * then the members the layers and the dependencies read that are not
 * among them, which the row keeps in its args too. */
enum { F_TS, F_DUR, F_SUB, F_LABEL, F_LAYER, F_HLO, F_FLOPS, F_FLOPS_T,
       F_TRIGGER, F_DMA_TRIGGER, F_PREDS, F_N };

static const char *const ifield_names[F_N] = {
	"timestamp", "duration", "subgroup", "label", "layer", "hlo_name",
	"raw_flops", "flops_transpose", "trigger", "dma_trigger_start_ts",
	"predecessors",
};

struct ifields {
	const char **names;
	size_t n, consumed;
	int at[F_N];		/* index in names of ifield_names[] */
	struct pqvals row;
	cJSON deps;		/* an object of the dependencies' members */
};

/* A layer's figures as they add up. */
struct layer_acc {
	struct wlayer l;
	char *name;
	/* Active time per engine: the union of the layer's instructions on
	 * it, not ActiveTime cut to the layer's span, because layers run
	 * interleaved and a span holds other layers' work too. */
	struct span active[5];
	int model_unknown;	/* a row with FLOPs but no flops_transpose */
};

struct device {
	struct import *im;
	struct neuron *n;
	struct pqfolder folder;
	const char *user_dir;		/* the folder as named to the user */
	char *file_name;		/* "<folder>/<file>" of the table read */
	struct strbuf tmp;
	struct strmap layer_map;	/* name -> index + 1 in layers */
	struct layer_acc *layers;
	size_t nlayers;
	int layers_full;
	int layer_from_hlo;		/* no layer column: hlo_name */
	size_t last_layer;		/* index + 1 of the last layer found */
	struct ifields in;
	struct span_window engines[5];	/* instructions per engine, in order */
	double peak;			/* tensor engine FLOPs per ns; 0: unknown */
};

static const struct spec *spec_of(const char *table)
{
	for (size_t i = 0; i < NX_ARRAY_SIZE(specs); i++)
		if (!strcmp(specs[i].table, table))
			return &specs[i];
	return NULL;
}

static int eng_index(const char *engine)
{
	static const char *const names[5] = { "tensor", "vector", "scalar",
					       "gpsimd", "sync" };

	for (int e = 0; e < 5; e++)
		if (!strncasecmp(engine, names[e], strlen(names[e])))
			return e;
	return -1;
}

static struct layer_acc *layer_of(struct device *d, const char *name)
{
	void *v;
	struct layer_acc *a;

	/* instructions of one layer come in long runs */
	if (d->last_layer && !strcmp(d->layers[d->last_layer - 1].name, name))
		return &d->layers[d->last_layer - 1];
	v = strmap_get(&d->layer_map, name, strlen(name));
	if (v) {
		d->last_layer = (uintptr_t)v;
		return &d->layers[(uintptr_t)v - 1];
	}
	if (d->nlayers >= MAX_LAYERS) {
		d->layers_full = 1;
		return NULL;
	}
	d->layers = xreallocarray(d->layers, d->nlayers + 1, sizeof(*d->layers));
	a = &d->layers[d->nlayers++];
	memset(a, 0, sizeof(*a));
	a->name = xstrdup(name);
	a->l.start = INT64_MAX;
	a->l.end = INT64_MIN;
	a->l.flops = a->l.model_flops = -1;
	a->l.mfu = a->l.hfu = -1;
	strmap_put(&d->layer_map, name, strlen(name),
		   (void *)(uintptr_t)d->nlayers);
	d->last_layer = d->nlayers;
	return a;
}

static int ifield_at(const struct ifields *in, const char *name)
{
	for (size_t i = 0; i < in->n; i++)
		if (!strcmp(in->names[i], name))
			return (int)i;
	return -1;
}

/* The instruction's fields, then those of ifield_names[] it lacks. */
static void ifields_init(struct ifields *in)
{
	const char *const *fields = neuron_instruction_fields(&in->consumed);

	in->names = xcalloc(in->consumed + F_N, sizeof(*in->names));
	memcpy(in->names, fields, in->consumed * sizeof(*in->names));
	in->n = in->consumed;
	for (int k = 0; k < F_N; k++) {
		in->at[k] = ifield_at(in, ifield_names[k]);
		if (in->at[k] < 0) {
			in->at[k] = (int)in->n;
			in->names[in->n++] = ifield_names[k];
		}
	}
	in->row.vals = xcalloc(in->n, sizeof(*in->row.vals));
	in->row.ints = xcalloc(in->n, sizeof(*in->row.ints));
	in->row.has_int = xcalloc(in->n, sizeof(*in->row.has_int));
	sb_init(&in->row.rest);
}

static void ifields_free(struct ifields *in)
{
	free(in->names);
	free(in->row.vals);
	free(in->row.ints);
	free(in->row.has_int);
	sb_free(&in->row.rest);
}

/* Integer field k (F_*) of the current instruction row. */
static int row_i64(const struct device *d, int k, int64_t *out)
{
	const struct pqvals *row = &d->in.row;
	int at = d->in.at[k];

	if (!row->has_int[at])
		return jv_i64(row->vals[at], out);
	*out = row->ints[at];
	return JV_OK;
}

static const char *first_str(const cJSON *o, const char *a, const char *b)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, a);

	if (!cJSON_IsString(v))
		v = cJSON_GetObjectItemCaseSensitive(o, b);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* a + b for sums of hostile values: saturates instead of overflowing. */
static int64_t add_sat(int64_t a, int64_t b)
{
	return b > 0 && a > INT64_MAX - b ? INT64_MAX : a + b;
}

/* Hardware FLOPs are raw_flops; the model's are those less the
 * transposes' (flops_transpose), unknown where that column is absent. */
static void count_flops(const struct device *d, struct layer_acc *a)
{
	int64_t f, tf = 0;

	if (row_i64(d, F_FLOPS, &f) || f < 0)
		return;
	a->l.flops = add_sat(NX_MAX(a->l.flops, 0), f);
	if (row_i64(d, F_FLOPS_T, &tf) || tf < 0) {
		a->model_unknown = 1;
		return;
	}
	a->l.model_flops = add_sat(NX_MAX(a->l.model_flops, 0),
				   NX_MAX(f - tf, 0));
}

/* The instruction [ts, end) on engine e goes through that engine's
 * window into its layer's active time. */
static void count_active(struct device *d, struct layer_acc *a, int e,
			 int64_t ts, int64_t end)
{
	struct span_iv iv = { ts, end, (size_t)(a - d->layers) }, out;

	if (span_push(&d->engines[e], iv, &out))
		span_merge(&d->layers[out.tag].active[e], out.start, out.end);
}

/* Adds an instruction row to its layer's figures. */
static void count_layer(struct device *d)
{
	cJSON *const *v = d->in.row.vals;
	const int *at = d->in.at;
	const cJSON *name = v[at[d->layer_from_hlo ? F_HLO : F_LAYER]];
	const cJSON *sub = v[at[F_SUB]], *label = v[at[F_LABEL]];
	const char *eng = cJSON_IsString(sub) ? sub->valuestring :
			  cJSON_IsString(label) ? label->valuestring : NULL;
	int64_t ts, dur;
	struct layer_acc *a;
	int e;

	if (!cJSON_IsString(name) || !*name->valuestring ||
	    row_i64(d, F_TS, &ts) || row_i64(d, F_DUR, &dur) ||
	    !(a = layer_of(d, name->valuestring)))
		return;
	dur = NX_MAX(dur, 0);
	a->l.start = NX_MIN(a->l.start, ts);
	a->l.end = NX_MAX(a->l.end, add_sat(ts, dur));
	e = eng ? eng_index(eng) : -1;
	if (e >= 0) {
		a->l.count[e]++;
		a->l.time[e] = add_sat(a->l.time[e], dur);
		count_active(d, a, e, ts, add_sat(ts, dur));
	}
	count_flops(d, a);
}

/* Active times, and MFU and HFU: FLOPs over what the tensor engine
 * could have run in the layer's span. */
static void finish_layer(struct device *d, struct layer_acc *a)
{
	for (int e = 0; e < 5; e++)
		a->l.active[e] = span_len(&a->active[e]);
	if (a->model_unknown)
		a->l.model_flops = -1;
	if (d->peak <= 0 || a->l.dur <= 0)
		return;
	if (a->l.flops >= 0)
		a->l.hfu = (double)a->l.flops / ((double)a->l.dur * d->peak);
	if (a->l.model_flops >= 0)
		a->l.mfu = (double)a->l.model_flops /
			   ((double)a->l.dur * d->peak);
}

static void write_layers(struct device *d)
{
	struct span_iv iv;

	for (int e = 0; e < 5; e++)
		while (span_pop(&d->engines[e], &iv))
			span_merge(&d->layers[iv.tag].active[e], iv.start,
				   iv.end);
	for (size_t i = 0; i < d->nlayers; i++) {
		struct layer_acc *a = &d->layers[i];

		a->l.name = a->name;
		/* times past the writer's range are its to clamp */
		a->l.dur = a->l.start < 0 && a->l.end > INT64_MAX + a->l.start ?
			   INT64_MAX : a->l.end - a->l.start;
		finish_layer(d, a);
		writer_layer(d->im->w, d->im->profile, &a->l);
	}
	if (d->layers_full)
		writer_warning(d->im->w, d->im->profile, "import", "Import",
			       "more than 65536 layers: the others are not"
			       " in the layer table");
}

/* "[SB]" or "[[WEIGHT], [SB]]" as the JSON export's flattened
 * "SB", "WEIGHT,SB". */
static void unbracket(struct device *d, cJSON *v)
{
	const char *s;

	if (!cJSON_IsString(v))
		return;
	sb_reset(&d->tmp);
	for (s = v->valuestring; *s; s++)
		if (*s != '[' && *s != ']' && !(*s == ' ' && s > v->valuestring &&
						s[-1] == ','))
			sb_addc(&d->tmp, *s);
	strcpy(v->valuestring, sb_cstr(&d->tmp));
}

/* Engine names as the JSON export writes them: tables differ in case
 * ("Tensor" in Instruction, "tensor" in ActiveTime), rows must not. */
static void engine_case(cJSON *v)
{
	static const char *const names[] = {
		"TensorMatrix", "Tensor", "Vector", "Scalar", "GpSimd", "Sync",
	};

	if (!cJSON_IsString(v))
		return;
	for (size_t i = 0; i < NX_ARRAY_SIZE(names); i++) {
		if (!strcasecmp(v->valuestring, names[i])) {
			memcpy(v->valuestring, names[i], strlen(names[i]));
			return;
		}
	}
}

/* A Parquet row into the JSON record's shape where they differ. */
static void reshape(struct device *d, const struct spec *sp,
		    struct pqrows *r, cJSON *o)
{
	cJSON *v;

	if (sp->kind == TBL_PACKET || sp->kind == TBL_XFER) {
		pqrows_add(r, o, "aggregated", sp->kind == TBL_XFER ? "yes" : "no");
		/* B/s as a float; the JSON's is an integer */
		v = cJSON_GetObjectItemCaseSensitive(o, "transfer_rate");
		if (cJSON_IsNumber(v) && isfinite(v->valuedouble) &&
		    fabs(v->valuedouble) < 9e15)
			v->valuedouble = round(v->valuedouble);
		unbracket(d, cJSON_GetObjectItemCaseSensitive(o, "source"));
		unbracket(d, cJSON_GetObjectItemCaseSensitive(o, "dest"));
	} else if ((sp->kind == TBL_SBUF || sp->kind == TBL_PSUM) &&
		   !cJSON_GetObjectItemCaseSensitive(o, "type")) {
		pqrows_add(r, o, "type", sp->kind == TBL_PSUM ? "psum" : "sb");
	}
}

/* The typed cache table of a Parquet table's rows, for the details
 * pane's units and descriptions; NULL: not shown there. */
static const char *typed_table_of(const char *table)
{
	static const char *const map[][2] = {
		{ "Instruction", "instruction" }, { "DmaPacket", "dma_packet" },
		{ "DmaPacketAggregated", "dma_transfer" },
	};

	for (size_t i = 0; i < NX_ARRAY_SIZE(map); i++)
		if (!strcmp(map[i][0], table))
			return map[i][1];
	return NULL;
}

/* A column's name in the details pane: its record key after the
 * renames, or the field the cache shows it as. */
static const char *shown_name(const struct spec *sp, const char *field)
{
	static const char *const shown[][3] = {
		{ "Instruction", "timestamp", "start" },
		{ "Instruction", "opcode", "name" },
		{ "DmaPacket", "timestamp", "start" },
		{ "DmaPacketAggregated", "timestamp", "start" },
		{ "DmaPacketAggregated", "trigger", "trigger_ts" },
	};
	const char *key = field;

	for (const struct pqrename *r = sp->names; r && r->column; r++)
		if (!strcmp(r->column, field))
			key = r->json;
	if (!key)
		return NULL;
	for (size_t i = 0; i < NX_ARRAY_SIZE(shown); i++)
		if (!strcmp(shown[i][0], sp->table) && !strcmp(shown[i][1], key))
			return shown[i][2];
	return key;
}

/* The unit and description of one field of a table whose rows the
 * details pane shows, keyed "<typed table>.<shown name>". */
static void field_doc(struct device *d, const char *table, const char *field,
		      const char *desc, const char *unit)
{
	const char *tt = typed_table_of(table), *name;
	struct wvalue v = { .type = WV_TEXT };
	char *key;

	if (!tt || !(name = shown_name(spec_of(table), field)))
		return;
	key = xasprintf("%s.%s", tt, name);
	if (unit && *unit) {
		v.s = unit;
		writer_info(d->im->w, d->im->profile, "field_unit", 0, key, &v);
	}
	if (desc && *desc) {
		v.s = desc;
		writer_info(d->im->w, d->im->profile, "field_description", 0,
			    key, &v);
	}
	free(key);
}

/* SchemaFields is kept as an info table; each field's description and
 * unit also go to the terminology ("Table.field": the summary panel
 * finds its keys' there) and to the details pane's field docs. */
static void schema_field(struct device *d, uint64_t idx, const cJSON *o)
{
	const char *table = first_str(o, "table_name", "table");
	const char *field = first_str(o, "field_name", "field");
	const char *desc = first_str(o, "description", "description");
	const char *unit = first_str(o, "unit", "units");
	struct wvalue v;
	char *key, *text;

	for (const cJSON *c = o->child; c; c = c->next) {
		jv_to_wvalue(c, &v, &d->tmp);
		writer_info(d->im->w, d->im->profile, "SchemaFields",
			    (int64_t)idx, c->string, &v);
	}
	if (!table || !field || ((!desc || !*desc) && (!unit || !*unit)))
		return;
	field_doc(d, table, field, desc, unit);
	desc = desc ? desc : "";
	text = unit && *unit ? xasprintf("%s%s[%s]", desc, *desc ? " " : "",
					 unit) : xstrdup(desc);
	key = xasprintf("%s.%s", table, field);
	v = (struct wvalue){ .type = WV_TEXT, .s = text };
	writer_info(d->im->w, d->im->profile, "terminology", 0, key, &v);
	free(key);
	free(text);
}

/* The first number of "12.0.1"; -1 if none. */
static long schema_major(const cJSON *o)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o,
		"profile_schema_version");
	int64_t i;

	if (cJSON_IsString(v))
		return strtol(v->valuestring, NULL, 10);
	return jv_i64(v, &i) == JV_OK ? (long)i : -1;
}

static void check_schema(struct device *d, const cJSON *o)
{
	long major = schema_major(o);
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o,
		"profile_schema_version");
	char buf[32], *msg;
	const char *text;

	if (major <= KNOWN_SCHEMA_MAJOR)
		return;
	if (jv_str(v, &text, buf, sizeof(buf)) != JV_OK)
		return;
	msg = xasprintf("profile schema version %s is newer than the %d.x"
			" nxtop knows: tables or fields may have been renamed;"
			" what nxtop did not recognise is listed here",
			text, KNOWN_SCHEMA_MAJOR);
	writer_warning(d->im->w, d->im->profile, "import", "Import", msg);
	free(msg);
}

/* The first of two names that is a number; -1 if none. */
static double meta_num(const cJSON *o, const char *a, const char *b)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, a);
	double x;

	if (!v)
		v = cJSON_GetObjectItemCaseSensitive(o, b);
	if (jv_f64(v, &x) != JV_OK || !isfinite(x))
		return -1;
	return x;
}

/* The tensor engine's peak in FLOPs per ns (model/bounds.h). Metadata
 * names (§1.5) first, then the JSON export's. */
static void read_peak(struct device *d, const cJSON *o)
{
	d->peak = bounds_peak(meta_num(o, "tensor_engine_num_rows",
				       "pe_num_rows"),
			      meta_num(o, "tensor_engine_num_cols",
				       "pe_num_cols"),
			      meta_num(o, "tensor_engine_clock_freq",
				       "pe_clock_freq"));
}

static void name_file(struct device *d, const char *file)
{
	size_t n = strlen(d->user_dir);

	free(d->file_name);
	while (n > 1 && d->user_dir[n - 1] == '/')
		n--;
	d->file_name = xasprintf("%.*s/%s", (int)n, d->user_dir,
				 pqfolder_base(file));
	d->im->name = d->file_name;
}

/* What a part file lacks or adds, checked when it is opened. */
static int check_columns(struct device *d, const struct spec *sp,
			 struct pqrows *r)
{
	for (int i = 0; i < 3 && sp->required[i]; i++)
		if (!pqrows_has(r, sp->required[i]))
			return import_fail(d->im, NULL, "no column \"%s\" (the"
					   " %s table needs it)",
					   sp->required[i], sp->table);
	if (sp->doc) {
		struct strbuf known;

		sb_init(&known);
		pqrows_unmapped(r, sp->names, sp->doc, &known);
		if (known.len) {
			char *msg = xasprintf("%s: columns nxtop does not know,"
					      " kept with each row: %s",
					      pqfolder_base(pqrows_file(r)),
					      sb_cstr(&known));

			writer_warning(d->im->w, d->im->profile, "import",
				       "Import", msg);
			free(msg);
		}
		sb_free(&known);
	}
	return 0;
}

static int is_instruction(const struct spec *sp)
{
	return sp && !strcmp(sp->table, "Instruction");
}

/* The row's members the dependencies read, as an object of its values
 * (valid until the next row). */
static const cJSON *deps_of(struct device *d)
{
	cJSON *obj = &d->in.deps, *last = NULL;

	memset(obj, 0, sizeof(*obj));
	obj->type = cJSON_Object;
	for (int k = F_TRIGGER; k < F_N; k++) {
		cJSON *v = d->in.row.vals[d->in.at[k]];

		if (!v)
			continue;
		v->string = (char *)ifield_names[k];
		v->type |= cJSON_StringIsConst;
		v->next = NULL;
		v->prev = last;
		if (last)
			last->next = v;
		else
			obj->child = v;
		last = v;
	}
	return obj;
}

/* The next row: an instruction's by field, any other as an object. */
static int next_row(struct device *d, const struct spec *sp,
		    struct pqrows *r, cJSON **o)
{
	if (is_instruction(sp))
		return pqrows_next_vals(r, &d->in.row);
	return pqrows_next(r, o);
}

static int one_row(struct device *d, const struct spec *sp,
		   struct pqrows *r, cJSON *o, const char *section)
{
	struct jrec rec = { .kind = JREC_ITEM, .key = section,
			    .index = pqrows_index(r), .offset = IMPORT_AT_ROW };

	if (is_instruction(sp)) {
		struct ninstr row = {
			.f = (const cJSON *const *)d->in.row.vals,
			.ints = d->in.row.ints, .has_int = d->in.row.has_int,
			.args = sb_cstr(&d->in.row.rest), .deps = deps_of(d),
		};

		engine_case(d->in.row.vals[d->in.at[F_SUB]]);
		engine_case(d->in.row.vals[d->in.at[F_LABEL]]);
		count_layer(d);
		return neuron_instruction_row(d->n, &rec, &row);
	}
	if (!sp) {
		/* kept whole as an info table; size bounded by read_table */
	} else if (sp->kind == TBL_SCHEMA) {
		schema_field(d, pqrows_index(r), o);
		return 0;
	} else if (sp->kind == TBL_FLOW) {
		d->im->rec = &rec;
		return deps_flow_row(d->im, o);
	} else {
		reshape(d, sp, r, o);
	}
	if (sp && !strcmp(sp->table, "Metadata")) {
		check_schema(d, o);
		read_peak(d, o);
	}
	return neuron_record(d->n, &rec, o);
}

static void capped(struct device *d, const struct pqtable *t, uint64_t rows)
{
	char *msg = xasprintf("table \"%s\": only its first %" PRIu64 " rows"
			      " are kept in its info table", t->name, rows);

	writer_warning(d->im->w, d->im->profile, "import", "Import", msg);
	free(msg);
}

/* Every row of one table. */
static int read_table(struct device *d, const struct pqtable *t,
		      const struct spec *sp)
{
	const char *section = sp ? sp->section : t->name;
	struct pqrows *r = pqrows_open(t, sp ? sp->names : NULL);
	const char *open_file = NULL;
	cJSON *o = NULL;
	int rc;

	name_file(d, t->files[0]);
	neuron_set_table(d->n, t->name);
	d->im->renames = sp ? sp->names : NULL;
	if (is_instruction(sp))
		pqrows_bind(r, d->in.names, d->in.n, d->in.consumed);
	while ((rc = next_row(d, sp, r, &o)) == 1) {
		if (pqrows_file(r) != open_file) {
			open_file = pqrows_file(r);
			name_file(d, open_file);
			if (sp && check_columns(d, sp, r))
				break;
			if (is_instruction(sp))
				d->layer_from_hlo = !pqrows_has(r, "layer");
		}
		if (!sp && (pqrows_index(r) >= MAX_INFO_ROWS ||
			    pqrows_index(r) * (uint64_t)pqrows_columns(r) >=
			    MAX_INFO_CELLS)) {
			rc = 0;
			capped(d, t, pqrows_index(r));
			break;
		}
		if (one_row(d, sp, r, o, section) || writer_failed(d->im->w))
			break;
		if (pqrows_index(r) % 65536 == 0)
			import_progress(d->im, 0);
	}
	if (rc < 0) {
		name_file(d, pqrows_file(r));
		import_fail(d->im, NULL, "%s", err_get());
	}
	pqrows_close(r);
	neuron_set_table(d->n, NULL);
	d->im->renames = NULL;
	return rc == 0 ? 0 : -1;
}

/* A table other than Instruction that cannot be read is left out with
 * a warning: the rest of the profile is still worth showing. */
static int optional_failed(struct device *d, const struct pqtable *t)
{
	char *msg = xasprintf("%s (the %s table is left out)", err_get(),
			      t->name);

	writer_warning(d->im->w, d->im->profile, "import", "Import", msg);
	free(msg);
	return 0;
}

static int read_tables(struct device *d)
{
	const struct pqtable *t;

	for (size_t i = 0; i < NX_ARRAY_SIZE(specs); i++) {
		t = pqfolder_find(&d->folder, specs[i].table);
		if (t && read_table(d, t, &specs[i])) {
			if (!strcmp(specs[i].table, "Instruction") ||
			    writer_failed(d->im->w))
				return -1;
			optional_failed(d, t);
		}
	}
	for (size_t i = 0; i < d->folder.n; i++) {
		t = &d->folder.tables[i];
		if (!spec_of(t->name) && read_table(d, t, NULL)) {
			if (writer_failed(d->im->w))
				return -1;
			optional_failed(d, t);
		}
	}
	return 0;
}

static void device_free(struct device *d)
{
	for (size_t i = 0; i < d->nlayers; i++)
		free(d->layers[i].name);
	free(d->layers);
	strmap_free(&d->layer_map, NULL);
	pqfolder_free(&d->folder);
	sb_free(&d->tmp);
	ifields_free(&d->in);
}

int import_parquet_device(struct import *im)
{
	struct wprofile p = { .kind = "device", .format = "neuron-parquet",
			      .name = im->name, .parent_id = im->parent,
			      .nc_idx = -1 };
	struct device d = { .im = im, .user_dir = im->name };
	int rc;

	if (pqfolder_scan(im->path, &d.folder))
		return -1;
	ifields_init(&d.in);
	if (pqfolder_check_needed(&d.folder, im, "Instruction")) {
		device_free(&d);
		return -1;
	}
	if (!pqfolder_find(&d.folder, "Instruction")) {
		device_free(&d);
		return import_fail(im, NULL, "no Instruction.parquet (or"
				   " Instruction_<N>.parquet): not a device"
				   " profile folder");
	}
	im->profile = writer_profile(im->w, &p);
	pqfolder_sources(&d.folder, im->w, im->profile);
	pqfolder_warn_skipped(&d.folder, im);
	d.n = neuron_new(im);
	neuron_set_noun(d.n, "table");
	rc = read_tables(&d);
	im->name = d.user_dir;
	if (rc == 0)
		rc = pqfolder_changed(&d.folder, im);
	if (rc == 0)
		write_layers(&d);
	if (rc == 0)
		rc = neuron_finish(d.n);
	else
		neuron_end(d.n);
	free(d.file_name);
	device_free(&d);
	return rc;
}
