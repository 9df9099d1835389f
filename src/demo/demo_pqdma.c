#include "config.h"

#include "src/demo/demo_int.h"
#include "src/demo/demo_pqinst.h"

#include <inttypes.h>
#include <stdio.h>

/* DmaPacket and DmaPacketAggregated: the demo's dma[] rows, packets
 * ("aggregated":"no") in the first, transfers ("yes") in the second,
 * with the Parquet names of FORMATS.md §1.5 (transfer_size →
 * transfer_bytes, read_size/write_size → read_bytes/write_bytes,
 * transfer_rate → throughput, subgroup → queue_name, dma_queue →
 * queue_idx, dma_engine → engine_idx, source_* → read_*, dest_* →
 * write_*). */

enum {
	P_START, P_END, P_DUR, P_ID, P_IDX, P_AGG_ID, P_ENGINE, P_READ,
	P_WRITE, P_TRANSFER, P_THROUGHPUT, P_QTYPE, P_VARIABLE, P_QNAME,
	P_QIDX, P_CRC, P_N
};

static const struct pqw_field pkt_fields[P_N] = {
	{ "start_ts", PQW_INT64, 0 }, { "end_ts", PQW_INT64, 0 },
	{ "duration_ns", PQW_INT64, 0 }, { "id", PQW_INT64, 0 },
	{ "packet_idx", PQW_INT32, 0 },
	{ "packet_aggregation_id", PQW_INT64, 0 },
	{ "engine_idx", PQW_INT64, 1 }, { "read_bytes", PQW_INT64, 0 },
	{ "write_bytes", PQW_INT64, 0 }, { "transfer_bytes", PQW_INT64, 0 },
	{ "throughput", PQW_DOUBLE, 0 }, { "queue_type", PQW_STRING, 0 },
	{ "variable", PQW_STRING, 1 }, { "queue_name", PQW_STRING, 1 },
	{ "queue_idx", PQW_INT64, 1 }, { "crc", PQW_INT64, 0 },
};

enum {
	A_START, A_END, A_DUR, A_ID, A_BLOCK, A_QIDX, A_QNAME, A_QTYPE, A_OP,
	A_VARIABLE, A_READ, A_WRITE, A_TRANSFER, A_THROUGHPUT, A_SOURCE,
	A_DEST, A_SEM, A_R_PARTS, A_R_NPARTS, A_R_SHAPE, A_R_OFFSET,
	A_R_STEPS, A_W_PARTS, A_W_NPARTS, A_W_SHAPE, A_W_OFFSET, A_W_STEPS,
	A_TRIGGER, A_N
};

static const struct pqw_field agg_fields[A_N] = {
	{ "start_ts", PQW_INT64, 0 }, { "end_ts", PQW_INT64, 0 },
	{ "duration_ns", PQW_INT64, 0 }, { "id", PQW_INT64, 0 },
	{ "block_id", PQW_INT32, 0 }, { "queue_idx", PQW_INT64, 0 },
	{ "queue_name", PQW_STRING, 0 }, { "queue_type", PQW_STRING, 1 },
	{ "op", PQW_STRING, 0 }, { "variable", PQW_STRING, 0 },
	{ "read_bytes", PQW_INT64, 0 }, { "write_bytes", PQW_INT64, 0 },
	{ "transfer_bytes", PQW_INT64, 0 }, { "throughput", PQW_DOUBLE, 0 },
	{ "source", PQW_STRING, 0 }, { "dest", PQW_STRING, 0 },
	{ "semaphore_id", PQW_STRING, 0 },
	{ "read_sbuf_partitions", PQW_STRING, 0 },
	{ "read_num_sbuf_partitions", PQW_INT64, 0 },
	{ "read_shape", PQW_STRING, 0 }, { "read_offset", PQW_STRING, 0 },
	{ "read_steps", PQW_STRING, 0 },
	{ "write_sbuf_partitions", PQW_STRING, 0 },
	{ "write_num_sbuf_partitions", PQW_INT64, 0 },
	{ "write_shape", PQW_STRING, 0 }, { "write_offset", PQW_STRING, 0 },
	{ "write_steps", PQW_STRING, 0 }, { "trigger", PQW_INT64, 1 },
};

const struct pqw_field *demo_pq_pkt_fields(int *n)
{
	*n = P_N;
	return pkt_fields;
}

const struct pqw_field *demo_pq_agg_fields(int *n)
{
	*n = A_N;
	return agg_fields;
}

static const char *variable(const struct demo_model *m,
			    const struct demo_xfer *x)
{
	return x->var >= 0 ? m->var[x->var].name : "unknown";
}

/* A packet's queue: <name>-Q<idx>-E<engine>, or Q<idx>-E<engine>. */
static void put_queue(struct pqw *w, const struct demo_xfer *x,
		      const struct demo_pkt *pk)
{
	const struct demo_queueinfo *q = &demo_queues[x->queue];
	char buf[128];

	snprintf(buf, sizeof(buf), "%s%sQ%u-E%u", q->name ? q->name : "",
		 q->name ? "-" : "", q->idx, pk->eng);
	pqw_str(w, P_QNAME, buf);
	pqw_i64(w, P_QIDX, q->idx);
	pqw_i64(w, P_ENGINE, pk->eng);
}

void demo_pq_packet(struct pqw *w, const struct demo_model *m,
		    const struct demo_xfer *x, const struct demo_pkt *pk)
{
	pqw_i64(w, P_START, (int64_t)pk->ts);
	pqw_i64(w, P_END, (int64_t)(pk->ts + pk->dur));
	pqw_i64(w, P_DUR, pk->dur);
	pqw_i64(w, P_ID, (int64_t)pk->id);
	pqw_i32(w, P_IDX, pk->idx);
	pqw_i64(w, P_AGG_ID, (int64_t)x->id);
	pqw_i64(w, P_READ, pk->size);
	pqw_i64(w, P_WRITE, pk->size);
	pqw_i64(w, P_TRANSFER, pk->size);
	pqw_double(w, P_THROUGHPUT, (double)demo_rate(pk->size, pk->dur));
	pqw_str(w, P_QTYPE, demo_qtype_name[x->qtype]);
	pqw_str(w, P_VARIABLE, variable(m, x));
	put_queue(w, x, pk);
	pqw_i64(w, P_CRC, (int64_t)((pk->id >> 13) & 0xffff));
}

/* A string of two numbers. */
static void put_str(struct pqw *w, int col, const char *fmt, uint64_t a,
		    uint64_t b)
{
	char buf[96];

	snprintf(buf, sizeof(buf), fmt, a, b);
	pqw_str(w, col, buf);
}

/* Each side's partitions, shape, offset and steps, as the JSON's
 * source_* and dest_* strings. */
static void put_sides(struct pqw *w, const struct demo_xfer *x)
{
	struct demo_layout l;
	int spread = x->size >= 128 && x->size % 128 == 0;
	uint64_t rows = spread ? x->size / 128 : x->size;
	uint64_t parts = spread ? 128 : 1;
	char buf[48];

	demo_xfer_layout(x, &l);
	put_str(w, A_R_SHAPE, "[[%" PRIu64 ", %" PRIu64 "]]", rows, parts);
	put_str(w, A_W_SHAPE, "[[%" PRIu64 ", %" PRIu64 "]]", rows, parts);
	snprintf(buf, sizeof(buf), "[[0x%" PRIx64 "]]", l.store ? l.sb : l.dram);
	pqw_str(w, A_R_OFFSET, buf);
	snprintf(buf, sizeof(buf), "[0x%" PRIx64 "]", l.store ? l.dram : l.sb);
	pqw_str(w, A_W_OFFSET, buf);
	put_str(w, A_R_STEPS, "[[%" PRIu64 ", %" PRIu64 "]]", 1,
		l.store ? 262144 : l.per);
	put_str(w, A_W_STEPS, "[%" PRIu64 ", %" PRIu64 "]", 1,
		l.store ? l.per : 262144);
	pqw_str(w, A_R_PARTS, l.store ? "0-127" : "");
	pqw_str(w, A_W_PARTS, l.store ? "" : "0-127");
	pqw_i64(w, A_R_NPARTS, l.store ? 128 : 0);
	pqw_i64(w, A_W_NPARTS, l.store ? 0 : 128);
}

void demo_pq_aggregated(struct pqw *w, const struct demo_model *m,
			const struct demo_xfer *x)
{
	const struct demo_queueinfo *q = &demo_queues[x->queue];
	uint64_t dur = x->end - x->ts;
	char buf[128];

	pqw_i64(w, A_START, (int64_t)x->ts);
	pqw_i64(w, A_END, (int64_t)x->end);
	pqw_i64(w, A_DUR, (int64_t)dur);
	pqw_i64(w, A_ID, (int64_t)x->id);
	pqw_i32(w, A_BLOCK, (int32_t)x->block);
	pqw_i64(w, A_QIDX, q->idx);
	pqw_str(w, A_QNAME, q->name);
	pqw_str(w, A_QTYPE, demo_qtype_name[x->qtype]);
	pqw_str(w, A_OP, "copy");
	pqw_str(w, A_VARIABLE, variable(m, x));
	pqw_i64(w, A_READ, (int64_t)x->size);
	pqw_i64(w, A_WRITE, (int64_t)x->size);
	pqw_i64(w, A_TRANSFER, (int64_t)x->size);
	pqw_double(w, A_THROUGHPUT, (double)demo_rate(x->size, dur));
	snprintf(buf, sizeof(buf), "[%s]", demo_loc_name[x->src]);
	pqw_str(w, A_SOURCE, buf);
	snprintf(buf, sizeof(buf), "[%s]", demo_loc_name[x->dst]);
	pqw_str(w, A_DEST, buf);
	snprintf(buf, sizeof(buf), "S[%u] (%s)", demo_sems[q->sem].num, q->name);
	pqw_str(w, A_SEM, buf);
	put_sides(w, x);
	pqw_i64(w, A_TRIGGER, (int64_t)x->trigger);
}
