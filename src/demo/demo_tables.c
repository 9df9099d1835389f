#include "config.h"

#include "src/demo/demo_int.h"

/* Names as they appear in real exports (FORMATS.md §2.2–§2.4). */

const struct demo_opinfo demo_ops[OP_N] = {
	[OP_DRAIN] = { "DRAIN", NULL, IT_NONE },
	[OP_SET_ORDERING_MODE] = { "SET_ORDERING_MODE", NULL, IT_NONE },
	[OP_EVENT_SEMAPHORE] = { "EVENT_SEMAPHORE", NULL, IT_NONE },
	[OP_SEM_CLEAR] = { "EVENT_SEMAPHORE_RANGE_CLEAR", NULL, IT_NONE },
	[OP_NOTIFY] = { "NOTIFY", NULL, IT_NONE },
	[OP_NOP] = { "NOP", NULL, IT_REGULAR },
	[OP_LDWEIGHTS] = { "LDWEIGHTS", NULL, IT_REGULAR },
	[OP_MATMUL] = { "MATMUL", NULL, IT_REGULAR },
	[OP_ACTIVATE] = { "ACTIVATE", NULL, IT_REGULAR },
	[OP_ACT_TABLE_LOAD] = { "ACT_TABLE_LOAD", NULL, IT_REGULAR },
	[OP_TENSOR_TENSOR] = { "TENSOR_TENSOR", NULL, IT_REGULAR },
	[OP_TENSOR_REDUCE] = { "TENSOR_REDUCE", NULL, IT_REGULAR },
	[OP_TENSOR_SCALAR_PTR] = { "TENSOR_SCALAR_PTR", NULL, IT_REGULAR },
	[OP_COPY] = { "COPY", NULL, IT_REGULAR },
	[OP_IOTA] = { "IOTA", NULL, IT_REGULAR },
	[OP_TENSOR_LOAD] = { "TENSOR_LOAD", NULL, IT_REGULAR },
	[OP_TENSOR_STORE] = { "TENSOR_STORE", NULL, IT_REGULAR },
	[OP_DMA_DIRECT2D] = { "DMA_DIRECT2D", "PSEUDO_DMA_DIRECT2D",
			      IT_REGULAR },
	[OP_DMA_TRIGGER] = { "WRITE", "PSEUDO_DMA_TRIGGER", IT_REGULAR },
};

const char *const demo_track_label[TRK_N] = {
	"Tensor", "TensorMatrix", "Vector", "Scalar", "GpSimd", "Sync",
};

const uint8_t demo_track_eng[TRK_N] = {
	ENG_TENSOR, ENG_TENSOR, ENG_VECTOR, ENG_SCALAR, ENG_GPSIMD, ENG_SYNC,
};

const char *const demo_eng_subgroup[ENG_N] = {
	"Tensor", "Vector", "Scalar", "GpSimd", "Sync",
};

const char *const demo_eng_lower[ENG_N] = {
	"tensor", "vector", "scalar", "gpsimd", "sync",
};

const char *const demo_act_name[ACT_N] = {
	"", "COPY", "IDENTITY", "EXP", "GELU", "TANH", "RSQRT", "SILU",
};

/* Activation table each function needs on the Scalar engine; 0 = none
 * (copies work with any table loaded). */
const uint8_t demo_act_table[ACT_N] = { 0, 0, 0, 1, 2, 3, 4, 5 };

const char *const demo_bytes_key[B_N] = {
	"hbm_read_bytes", "hbm_write_bytes", "sbuf_read_bytes",
	"sbuf_write_bytes", "psum_read_bytes", "psum_write_bytes",
	"psum_read_sbuf_write_bytes", "spill_save_bytes",
	"spill_reload_bytes", "weight_queue_bytes", "input_queue_bytes",
	"output_queue_bytes",
};

const struct demo_seminfo demo_sems[SEM_N] = {
	[SEM_SETUP] = { 2, NULL },
	[SEM_SYNC] = { 3, "Sync" },
	[SEM_SCALAR] = { 4, "Scalar" },
	[SEM_TENSOR] = { 5, "Tensor" },
	[SEM_VECTOR] = { 6, "Vector" },
	[SEM_GPSIMD] = { 7, "GpSimd" },
	[SEM_Q_SPILL] = { 8, "qSyncSpillReload0" },
	[SEM_Q_IO] = { 9, "qSyncIO0" },
	[SEM_Q_PARAM] = { 10, "qSyncPIOParam0" },
	[SEM_Q_SCALAR] = { 11, "qScalarSpillReload0" },
	[SEM_Q_VECTOR] = { 12, "qVectorSpillReload0" },
	[SEM_Q_HW] = { 13, "qSyncDynamicHW" },
	[SEM_Q_GPSIMD] = { 24, "qGpSimdDynamic" },
};

/* Dynamic queues' packets carry no queue name (Q<idx>-E<engine>);
 * instruction fetches use an unnamed queue too. */
const struct demo_queueinfo demo_queues[Q_N] = {
	[Q_SYNC_IO] = { "qSyncIO0", "qSyncIO0", "unknown", 3, 14,
			SEM_Q_IO, TRK_SYNC },
	[Q_SYNC_SPILL] = { "qSyncSpillReload0", "qSyncSpillReload0",
			   "weights", 1, 15, SEM_Q_SPILL, TRK_SYNC },
	[Q_SYNC_PARAM] = { "qSyncPIOParam0", "qSyncPIOParam0", "weights", 4,
			   13, SEM_Q_PARAM, TRK_SYNC },
	[Q_SCALAR_SPILL] = { "qScalarSpillReload0", "qScalarSpillReload0",
			     "unknown", 5, 12, SEM_Q_SCALAR, TRK_SCALAR },
	[Q_VECTOR_SPILL] = { "qVectorSpillReload0", "qVectorSpillReload0",
			     "unknown", 6, 11, SEM_Q_VECTOR, TRK_VECTOR },
	[Q_GPSIMD_DYN] = { NULL, "qGpSimdDynamic", "unknown", 0, 0,
			   SEM_Q_GPSIMD, TRK_GPSIMD },
	[Q_SYNC_DYN_HW] = { NULL, "qSyncDynamicHW", "unknown", 2, 0,
			    SEM_Q_HW, TRK_SYNC },
	[Q_SCALAR_TABLE] = { "qScalarTable", "qScalarTable", "unknown", 7, 10,
			     SEM_NONE, TRK_SCALAR },
	[Q_DVE_TABLE] = { "qDveTable", "qDveTable", "unknown", 8, 9,
			  SEM_NONE, TRK_VECTOR },
	[Q_FETCH] = { NULL, NULL, NULL, 14, 0, SEM_NONE, TRK_SYNC },
};

const char *const demo_qtype_name[QT_N] = {
	"data", "input", "output", "instruction", "software_dynamic",
	"hardware_dynamic",
};

const char *const demo_loc_name[] = {
	"SB", "WEIGHT", "INPUT", "OUTPUT", "VIRTUAL", "unknown",
};
