/* Every field of one event, grouped the way the details pane and the
 * exports show them: Event, Timing, IDs, Instruction or DMA or System
 * fields, HLO and layer, Operands, then the remaining fields as stored. */
#include "config.h"

#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "model/model.h"
#include "model/timefmt.h"
#include "model/util.h"

struct emit {
	struct model *m;
	mfield_fn fn;
	void *ctx;
};

/* Columns of a typed table and the group each belongs to. String ids
 * are marked so their text is shown. */
struct colspec {
	const char *col, *group, *label;
	int is_string;
	int is_time;
};

static const struct colspec instruction_cols[] = {
	{ "id", "IDs", "id", 0, 0 },
	{ "pc", "IDs", "pc", 0, 0 },
	{ "compiler_pc", "IDs", "compiler_pc", 0, 0 },
	{ "bir_id", "IDs", "bir_id", 0, 0 },
	{ "penguin_id", "IDs", "penguin_id", 0, 0 },
	{ "bir_instruction_name", "IDs", "bir_instruction_name", 0, 0 },
	{ "evt_wait_time", "Timing", "evt_wait_time", 0, 1 },
	{ "subgroup", "Instruction", "engine (subgroup)", 1, 0 },
	{ "instruction_type", "Instruction", "instruction_type", 1, 0 },
	{ "activation_fn", "Instruction", "activation_fn", 1, 0 },
	{ "compiler_opcode", "Instruction", "compiler_opcode", 1, 0 },
	{ "hlo_name", "HLO and layer", "hlo_name", 1, 0 },
	{ "layer", "HLO and layer", "layer", 1, 0 },
	{ "subgraph", "HLO and layer", "subgraph", 1, 0 },
	{ "operands", "Operands", "operands", 0, 0 },
	{ "compiler_operands", "Operands", "compiler_operands", 0, 0 },
};

static const struct colspec dma_packet_cols[] = {
	{ "id", "IDs", "id", 0, 0 },
	{ "packet_aggregation_id", "IDs", "packet_aggregation_id", 0, 0 },
	{ "packet_idx", "IDs", "packet_idx", 0, 0 },
	{ "block_id", "IDs", "block_id", 0, 0 },
	{ "queue", "DMA", "queue", 1, 0 },
	{ "queue_type", "DMA", "queue_type", 1, 0 },
	{ "variable", "DMA", "variable", 1, 0 },
	{ "transfer_size", "DMA", "transfer_size", 0, 0 },
	{ "read_size", "DMA", "read_size", 0, 0 },
	{ "write_size", "DMA", "write_size", 0, 0 },
	{ "transfer_rate", "DMA", "transfer_rate (B/s)", 0, 0 },
	{ "dma_engine", "DMA", "dma_engine", 0, 0 },
	{ "dma_queue", "DMA", "dma_queue", 0, 0 },
	{ "semaphore_id", "DMA", "semaphore_id", 0, 0 },
	{ "op", "DMA", "op", 1, 0 },
	{ "source", "DMA", "source", 0, 0 },
	{ "dest", "DMA", "dest", 0, 0 },
};

static const struct colspec dma_transfer_cols[] = {
	{ "id", "IDs", "id", 0, 0 },
	{ "block_id", "IDs", "block_id", 0, 0 },
	{ "queue", "DMA", "queue", 1, 0 },
	{ "queue_type", "DMA", "queue_type", 1, 0 },
	{ "variable", "DMA", "variable", 1, 0 },
	{ "transfer_size", "DMA", "transfer_size", 0, 0 },
	{ "read_size", "DMA", "read_size", 0, 0 },
	{ "write_size", "DMA", "write_size", 0, 0 },
	{ "transfer_rate", "DMA", "transfer_rate (B/s)", 0, 0 },
	{ "dma_engine", "DMA", "dma_engine", 0, 0 },
	{ "dma_queue", "DMA", "dma_queue", 0, 0 },
	{ "semaphore_id", "DMA", "semaphore_id", 0, 0 },
	{ "op", "DMA", "op", 1, 0 },
	{ "source", "DMA", "source", 0, 0 },
	{ "dest", "DMA", "dest", 0, 0 },
	{ "trigger_ts", "Timing", "trigger (start of triggering instruction)", 0, 1 },
};

static const struct colspec sys_cols[] = {
	{ "id", "IDs", "id", 0, 0 },
	{ "parent", "IDs", "parent_id", 0, 0 },
	{ "exec_id", "IDs", "exec_id", 0, 0 },
	{ "source", "System", "trace_event_source", 1, 0 },
	{ "grp", "System", "group", 1, 0 },
	{ "type", "System", "type", 0, 0 },
	{ "instance_id", "System", "instance_id", 1, 0 },
	{ "process_id", "System", "process_id", 1, 0 },
	{ "thread_id", "System", "thread_id", 0, 0 },
	{ "nc_idx", "System", "nc_idx", 0, 0 },
	{ "lnc_idx", "System", "lnc_idx", 0, 0 },
	{ "worker_gid", "System", "worker_gid", 0, 0 },
	{ "device_core_idx", "System", "device_core_idx", 0, 0 },
	{ "model_id", "System", "model_id", 0, 0 },
	{ "model_name", "System", "model_name", 1, 0 },
	{ "device_profile", "System", "device_profile", 1, 0 },
};

static void field(struct emit *e, const char *group, const char *key,
		  const char *value)
{
	e->fn(e->ctx, group, key, value);
}

static void time_field(struct emit *e, const char *group, const char *key,
		       int64_t ns)
{
	char d[48], buf[96];

	timefmt_dur(d, sizeof(d), ns, 6, 0);
	snprintf(buf, sizeof(buf), "%s (%" PRId64 " ns)", d, ns);
	field(e, group, key, buf);
}

/* Emits the non-NULL columns of the typed row for this slice, if any.
 * Returns 1 if the row exists. */
static int typed(struct emit *e, const char *table, const struct colspec *cols,
		 size_t ncols, int64_t slice)
{
	struct strbuf sql;
	sqlite3_stmt *st;
	int found = 0;

	sb_init(&sql);
	sb_adds(&sql, "SELECT ");
	for (size_t i = 0; i < ncols; i++)
		sb_printf(&sql, "%s%s", i ? ", " : "", cols[i].col);
	sb_printf(&sql, " FROM %s WHERE slice_id=?", table);
	if (sqlite3_prepare_v2(model_db(e->m), sb_cstr(&sql), -1, &st, NULL) !=
	    SQLITE_OK) {
		sb_free(&sql);
		return 0;
	}
	sqlite3_bind_int64(st, 1, slice);
	if (sqlite3_step(st) == SQLITE_ROW) {
		found = 1;
		for (size_t i = 0; i < ncols; i++) {
			const struct colspec *c = &cols[i];
			const char *v;

			if (sqlite3_column_type(st, (int)i) == SQLITE_NULL)
				continue;
			if (c->is_time) {
				time_field(e, c->group, c->label,
					   sqlite3_column_int64(st, (int)i));
				continue;
			}
			v = c->is_string ?
				model_string(e->m, sqlite3_column_int64(st, (int)i)) :
				(const char *)sqlite3_column_text(st, (int)i);
			if (v && *v)
				field(e, c->group, c->label, v);
		}
	}
	sqlite3_finalize(st);
	sb_free(&sql);
	return found;
}

static void args(struct emit *e, int64_t slice)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(model_db(e->m),
			       "SELECT key, CASE WHEN type IN ('object','array')"
			       " THEN json(value) ELSE value END FROM json_each("
			       "(SELECT args FROM arg WHERE slice_id=?))", -1, &st,
			       NULL) != SQLITE_OK)
		return;
	sqlite3_bind_int64(st, 1, slice);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(st, 0);
		const char *v = (const char *)sqlite3_column_text(st, 1);

		field(e, "Other fields", k ? k : "", v ? v : "null");
	}
	sqlite3_finalize(st);
}

int model_slice_fields(struct model *m, int64_t id, mfield_fn fn, void *ctx)
{
	struct emit e = { m, fn, ctx };
	struct mslice s;
	struct mprofile p;
	sqlite3_stmt *st;
	int rc = model_slice(m, id, &s);

	if (rc)
		return rc;
	field(&e, "Event", "name", model_string(m, s.name));
	if (sqlite3_prepare_v2(model_db(m), "SELECT t.name, t.kind, t.profile_id"
			       " FROM track t WHERE t.id=?", -1, &st, NULL) ==
	    SQLITE_OK) {
		sqlite3_bind_int64(st, 1, s.track_id);
		if (sqlite3_step(st) == SQLITE_ROW) {
			const char *tn = (const char *)sqlite3_column_text(st, 0);
			const char *tk = (const char *)sqlite3_column_text(st, 1);
			char buf[256];

			snprintf(buf, sizeof(buf), "%s (%s)", tn ? tn : "",
				 tk ? tk : "");
			field(&e, "Event", "row", buf);
			memset(&p, 0, sizeof(p));
			if (!model_profile(m, sqlite3_column_int64(st, 2), &p)) {
				if (p.epoch) {
					char abs[32];

					snprintf(abs, sizeof(abs), "%" PRId64, s.ts);
					field(&e, "Timing", "timestamp (epoch ns)", abs);
				}
				time_field(&e, "Timing", "start", s.ts - p.start);
				model_profile_clear(&p);
			}
		}
		sqlite3_finalize(st);
	}
	time_field(&e, "Timing", "duration", s.dur);
	if (s.flags & 1)
		field(&e, "Timing", "note", "no end event: closed at the end of the trace");
	if (s.flags & 4)
		field(&e, "Timing", "note", "duration was negative or overflowing; clamped");
	if (s.cat)
		field(&e, "Event", "category", model_string(m, s.cat));
	if (s.depth) {
		char d[16];

		snprintf(d, sizeof(d), "%d", s.depth);
		field(&e, "Event", "depth", d);
	}
	if (!typed(&e, "instruction", instruction_cols,
		   NX_ARRAY_SIZE(instruction_cols), id) &&
	    !typed(&e, "dma_packet", dma_packet_cols,
		   NX_ARRAY_SIZE(dma_packet_cols), id) &&
	    !typed(&e, "dma_transfer", dma_transfer_cols,
		   NX_ARRAY_SIZE(dma_transfer_cols), id))
		typed(&e, "sys_event", sys_cols, NX_ARRAY_SIZE(sys_cols), id);
	args(&e, id);
	return 0;
}
