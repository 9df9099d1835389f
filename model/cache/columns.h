/* The typed cache tables, one column table each: every column with its
 * kind, the writer's struct member it is bound from, its group and label
 * in the details pane, and the search field that reads it. From these
 * come the DDL (schema.c), the INSERT statements and their bind order
 * (writer.c), the details pane's fields (fields.c) and the search
 * expressions of the typed fields (search.c): adding a field is one line.
 *
 *   C(column, kind, member, group, label, field)
 *
 * kind is one of
 *   ID    an event id: INTEGER, or TEXT above INT64_MAX (no SQL type)
 *   STR   an interned string id (INTEGER), 0: absent; shown as its text
 *   TEXT  free text (TEXT), NULL: absent
 *   INT   an integer (INTEGER), -1: absent
 *   TIME  nanoseconds (INTEGER), -1: absent; shown as a duration
 *   FLAG  an integer (INTEGER), present when member has_<member> is set
 *   NUM   an integer (INTEGER), present when its struct wnum's has is set
 * field is the search field (model/query.h) or F_NONE. Columns are in
 * table order; the details pane shows them by group, in this order within
 * a group. Every typed row starts with "slice_id INTEGER PRIMARY KEY". */
#ifndef NX_MODEL_COLUMNS_H
#define NX_MODEL_COLUMNS_H

#include <stddef.h>

#include "model/query.h"

#define F_NONE F_COUNT	/* a column no search field reads */

#define INSTRUCTION_COLUMNS(C) \
	C(id, ID, id, IDS, "id", F_ID) \
	C(subgroup, STR, subgroup, INSTRUCTION, "engine (subgroup)", F_NONE) \
	C(operands, TEXT, operands, OPERANDS, "operands", F_OPERANDS) \
	C(pc, INT, pc, IDS, "pc", F_PC) \
	C(compiler_pc, INT, compiler_pc, IDS, "compiler_pc", F_NONE) \
	C(evt_wait_time, TIME, evt_wait_time, TIMING, "evt_wait_time", F_WAIT) \
	C(hlo_name, STR, hlo_name, HLO, "hlo_name", F_HLO) \
	C(layer, STR, layer, HLO, "layer", F_LAYER) \
	C(subgraph, STR, subgraph, HLO, "subgraph", F_NONE) \
	C(bir_id, TEXT, bir_id, IDS, "bir_id", F_NONE) \
	C(penguin_id, TEXT, penguin_id, IDS, "penguin_id", F_NONE) \
	C(bir_instruction_name, TEXT, bir_instruction_name, IDS, \
	  "bir_instruction_name", F_NONE) \
	C(instruction_type, STR, instruction_type, INSTRUCTION, \
	  "instruction_type", F_NONE) \
	C(activation_fn, STR, activation_fn, INSTRUCTION, "activation_fn", \
	  F_NONE) \
	C(compiler_opcode, STR, compiler_opcode, INSTRUCTION, \
	  "compiler_opcode", F_NONE) \
	C(compiler_operands, TEXT, compiler_operands, OPERANDS, \
	  "compiler_operands", F_NONE) \
	C(pcore_idx, NUM, pcore_idx, IDS, "pcore_idx", F_NONE) \
	C(raw_penguin_id, NUM, raw_penguin_id, IDS, "raw_penguin_id", F_NONE) \
	C(raw_bir_id, NUM, raw_bir_id, IDS, "raw_bir_id", F_NONE) \
	C(kernel_instruction_name, TEXT, kernel_instruction_name, IDS, \
	  "kernel_instruction_name", F_NONE) \
	C(crc_in, NUM, crc_in, IDS, "crc_in", F_NONE) \
	C(crc_out, NUM, crc_out, IDS, "crc_out", F_NONE) \
	C(dma_wait_time, TIME, dma_wait_time, TIMING, "dma_wait_time", F_NONE) \
	C(instruction_chain, TEXT, instruction_chain, INSTRUCTION, \
	  "instruction_chain", F_NONE) \
	C(hlo_attrs, STR, hlo_attrs, HLO, "hlo_attrs", F_NONE) \
	C(raw_hlo_id, NUM, raw_hlo_id, HLO, "raw_hlo_id", F_NONE) \
	C(raw_framework_id, NUM, raw_framework_id, HLO, "raw_framework_id", \
	  F_NONE) \
	C(stack_frame_ids, TEXT, stack_frame_ids, HLO, "stack_frame_ids", \
	  F_NONE) \
	C(nki_source_location, STR, nki_source_location, HLO, \
	  "nki_source_location", F_NONE) \
	C(bir_debug_info_source_location, STR, bir_debug_info_source_location, \
	  HLO, "bir_debug_info_source_location", F_NONE) \
	INSTRUCTION_BYTES(C) \
	C(performance_mode, STR, performance_mode, TENSOR, "performance_mode", \
	  F_NONE) \
	C(tensor_instruction_type, STR, tensor_instruction_type, TENSOR, \
	  "tensor_instruction_type", F_NONE) \
	C(tensor_elements, NUM, tensor_elements, TENSOR, "tensor_elements", \
	  F_NONE) \
	C(raw_flops, NUM, raw_flops, TENSOR, "raw_flops", F_NONE) \
	C(adjusted_flops, NUM, adjusted_flops, TENSOR, "adjusted_flops", \
	  F_NONE) \
	C(tensor_elements_transpose, NUM, tensor_elements_transpose, TENSOR, \
	  "tensor_elements_transpose", F_NONE) \
	C(flops_transpose, NUM, flops_transpose, TENSOR, "flops_transpose", \
	  F_NONE) \
	C(adjusted_flops_transpose, NUM, adjusted_flops_transpose, TENSOR, \
	  "adjusted_flops_transpose", F_NONE)

/* The bytes an instruction moves, by memory (FORMATS.md §1.5). */
#define INSTRUCTION_BYTES(C) \
	C(hbm_read_bytes, NUM, hbm_read_bytes, TRAFFIC, "hbm_read_bytes", \
	  F_NONE) \
	C(hbm_write_bytes, NUM, hbm_write_bytes, TRAFFIC, "hbm_write_bytes", \
	  F_NONE) \
	C(sbuf_read_bytes, NUM, sbuf_read_bytes, TRAFFIC, "sbuf_read_bytes", \
	  F_NONE) \
	C(sbuf_write_bytes, NUM, sbuf_write_bytes, TRAFFIC, \
	  "sbuf_write_bytes", F_NONE) \
	C(spill_save_bytes, NUM, spill_save_bytes, TRAFFIC, \
	  "spill_save_bytes", F_NONE) \
	C(spill_reload_bytes, NUM, spill_reload_bytes, TRAFFIC, \
	  "spill_reload_bytes", F_NONE) \
	C(psum_read_bytes, NUM, psum_read_bytes, TRAFFIC, "psum_read_bytes", \
	  F_NONE) \
	C(psum_write_bytes, NUM, psum_write_bytes, TRAFFIC, \
	  "psum_write_bytes", F_NONE) \
	C(psum_read_sbuf_write_bytes, NUM, psum_read_sbuf_write_bytes, \
	  TRAFFIC, "psum_read_sbuf_write_bytes", F_NONE) \
	C(input_queue_bytes, NUM, input_queue_bytes, TRAFFIC, \
	  "input_queue_bytes", F_NONE) \
	C(output_queue_bytes, NUM, output_queue_bytes, TRAFFIC, \
	  "output_queue_bytes", F_NONE) \
	C(weight_queue_bytes, NUM, weight_queue_bytes, TRAFFIC, \
	  "weight_queue_bytes", F_NONE)

/* The columns a DMA packet and an aggregated transfer share. */
#define DMA_COLUMNS(C) \
	C(queue, STR, queue, DMA, "queue", F_QUEUE) \
	C(queue_type, STR, queue_type, DMA, "queue_type", F_QUEUE_TYPE) \
	C(variable, STR, variable, DMA, "variable", F_VARIABLE) \
	C(transfer_size, INT, transfer_size, DMA, "transfer_size", \
	  F_TRANSFER_SIZE) \
	C(read_size, INT, read_size, DMA, "read_size", F_READ_SIZE) \
	C(write_size, INT, write_size, DMA, "write_size", F_WRITE_SIZE) \
	C(transfer_rate, INT, transfer_rate, DMA, "transfer_rate (B/s)", \
	  F_NONE) \
	C(dma_engine, INT, dma_engine, DMA, "dma_engine", F_NONE) \
	C(dma_queue, INT, dma_queue, DMA, "dma_queue", F_NONE) \
	C(semaphore_id, TEXT, semaphore_id, DMA, "semaphore_id", F_NONE) \
	C(op, STR, op, DMA, "op", F_NONE) \
	C(source, TEXT, source, DMA, "source", F_NONE) \
	C(dest, TEXT, dest, DMA, "dest", F_NONE) \
	C(block_id, INT, block_id, IDS, "block_id", F_NONE)

#define DMA_PACKET_COLUMNS(C) \
	C(id, ID, id, IDS, "id", F_ID) \
	C(packet_aggregation_id, ID, packet_aggregation_id, IDS, \
	  "packet_aggregation_id", F_NONE) \
	C(packet_idx, INT, packet_idx, IDS, "packet_idx", F_NONE) \
	DMA_COLUMNS(C)

#define DMA_TRANSFER_COLUMNS(C) \
	C(id, ID, id, IDS, "id", F_ID) \
	DMA_COLUMNS(C) \
	C(trigger_ts, TIME, trigger_ts, TIMING, \
	  "trigger (start of triggering instruction)", F_NONE)

#define SYS_EVENT_COLUMNS(C) \
	C(id, ID, id, IDS, "id", F_ID) \
	C(parent, ID, parent, IDS, "parent_id", F_NONE) \
	C(source, STR, source, SYSTEM, "trace_event_source", F_SOURCE) \
	C(grp, STR, group, SYSTEM, "group", F_NONE) \
	C(type, FLAG, type, SYSTEM, "type", F_NONE) \
	C(instance_id, STR, instance_id, SYSTEM, "instance_id", F_INSTANCE) \
	C(process_id, STR, process_id, SYSTEM, "process_id", F_PROCESS) \
	C(thread_id, INT, thread_id, SYSTEM, "thread_id", F_THREAD) \
	C(nc_idx, INT, nc_idx, SYSTEM, "nc_idx", F_NC) \
	C(lnc_idx, INT, lnc_idx, SYSTEM, "lnc_idx", F_LNC) \
	C(worker_gid, INT, worker_gid, SYSTEM, "worker_gid", F_NONE) \
	C(device_core_idx, INT, device_core_idx, SYSTEM, "device_core_idx", \
	  F_NONE) \
	C(exec_id, INT, exec_id, IDS, "exec_id", F_NONE) \
	C(model_id, TEXT, model_id, SYSTEM, "model_id", F_NONE) \
	C(model_name, STR, model_name, SYSTEM, "model_name", F_MODEL) \
	C(device_profile, STR, device_profile, SYSTEM, "device_profile", \
	  F_NONE)

/* T(table, alias in queries, columns) */
#define TYPED_TABLES(T) \
	T(instruction, i, INSTRUCTION_COLUMNS) \
	T(dma_packet, dp, DMA_PACKET_COLUMNS) \
	T(dma_transfer, dt, DMA_TRANSFER_COLUMNS) \
	T(sys_event, se, SYS_EVENT_COLUMNS)

/* SQL declarations of the kinds. */
#define COL_SQL_ID ""
#define COL_SQL_STR " INTEGER"
#define COL_SQL_TEXT " TEXT"
#define COL_SQL_INT " INTEGER"
#define COL_SQL_TIME " INTEGER"
#define COL_SQL_FLAG " INTEGER"
#define COL_SQL_NUM " INTEGER"

/* ", name TYPE" and ",?" for each column, for CREATE and INSERT. */
#define COL_DDL(col, kind, member, group, label, field) ", " #col COL_SQL_##kind
#define COL_NAME(col, kind, member, group, label, field) ", " #col
#define COL_PARAM(col, kind, member, group, label, field) ",?"

#define TYPED_TABLE_DDL(table, alias, COLS) \
	"CREATE TABLE " #table "(slice_id INTEGER PRIMARY KEY" \
	COLS(COL_DDL) ");\n"
#define TYPED_TABLE_INSERT(table, COLS) \
	"INSERT INTO " #table "(slice_id" COLS(COL_NAME) ") VALUES(?" \
	COLS(COL_PARAM) ")"

enum col_kind { CK_ID, CK_STR, CK_TEXT, CK_INT, CK_TIME, CK_FLAG, CK_NUM };

/* Groups of the details pane, in the order it shows them. */
enum col_group { CG_IDS, CG_TIMING, CG_INSTRUCTION, CG_TENSOR, CG_TRAFFIC,
		 CG_DMA, CG_SYSTEM, CG_HLO, CG_OPERANDS, CG_COUNT };

struct column {
	const char *name;
	enum col_kind kind;
	enum col_group group;
	const char *label;
	enum qfield field;	/* F_NONE: none */
};

struct typed_table {
	const char *name, *alias;
	const struct column *cols;
	size_t ncols;
};

#define TT_ENUM(table, alias, COLS) TT_##table,
enum typed_table_id { TYPED_TABLES(TT_ENUM) TT_COUNT };
#undef TT_ENUM

extern const struct typed_table typed_tables[TT_COUNT];
extern const char *const col_group_names[CG_COUNT];

#endif
