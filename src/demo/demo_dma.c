#include "config.h"

#include "src/demo/demo_int.h"

/* `dma[]` rows (FORMATS.md §2.4): one row per packet
 * ("aggregated":"no") and, for static transfers, one aggregated row whose
 * id is its packets' packet_aggregation_id.  Numeric-looking engine,
 * queue and semaphore fields are strings, as in real exports. */

static char *put_qname(char *p, const struct demo_xfer *x)
{
	return dput_str(p, demo_queues[x->queue].name);
}

static char *put_subgroup(char *p, const struct demo_xfer *x,
			  const struct demo_pkt *pk)
{
	const struct demo_queueinfo *q = &demo_queues[x->queue];

	p = DLIT(p, "\"subgroup\":\"");
	if (!pk) {
		p = put_qname(p, x);
		return DLIT(p, "\",");
	}
	if (q->name) {
		p = put_qname(p, x);
		*p++ = '-';
	}
	*p++ = 'Q';
	p = dput_u64(p, q->idx);
	p = DLIT(p, "-E");
	p = dput_u64(p, pk->eng);
	return DLIT(p, "\",");
}

static char *put_route(char *p, const struct demo_model *m,
		       const struct demo_xfer *x, const struct demo_pkt *pk)
{
	const struct demo_queueinfo *q = &demo_queues[x->queue];

	p = DKV_STR(p, "op", x->aggregated ? "copy" : "");
	p = DKV_STR(p, "variable", x->var >= 0 ? m->var[x->var].name : "unknown");
	p = DLIT(p, "\"source\":[[\"");
	p = dput_str(p, demo_loc_name[x->src]);
	p = DLIT(p, "\"]],\"dest\":[\"");
	p = dput_str(p, demo_loc_name[x->dst]);
	p = DLIT(p, "\"],");
	p = DKV_STR(p, "queue_type", demo_qtype_name[x->qtype]);
	p = put_subgroup(p, x, pk);
	p = DLIT(p, "\"dma_engine\":\"");
	p = dput_u64(p, pk ? pk->eng : q->eng);
	p = DLIT(p, "\",\"dma_queue\":\"");
	p = dput_u64(p, q->idx);
	p = DLIT(p, "\",\"semaphore_id\":\"");
	if (x->aggregated) {
		p = DLIT(p, "S[");
		p = dput_u64(p, demo_sems[q->sem].num);
		p = DLIT(p, "] (");
		p = put_qname(p, x);
		*p++ = ')';
	} else {
		p = DLIT(p, "-1");
	}
	return DLIT(p, "\",");
}

static char *put_sizes(char *p, uint64_t size, uint64_t dur)
{
	p = DKV_U64(p, "transfer_size", size);
	p = DKV_U64(p, "read_size", size);
	p = DKV_U64(p, "write_size", size);
	return DKV_U64(p, "transfer_rate", demo_rate(size, dur));
}

static char *put_flags(char *p, const struct demo_xfer *x, uint64_t crc,
		       int agg)
{
	p = DKV_U64(p, "crc", crc & 0xffff);
	if (x->aggregated)
		p = DKV_U64(p, "block_id", x->block);
	p = agg ? DKV_RAW(p, "aggregated", "\"yes\"")
		: DKV_RAW(p, "aggregated", "\"no\"");
	return DLIT(p, "\"duplicate\":\"no\",\"is_cc_dma\":\"no\",");
}

static void write_packet(struct dout *o, const struct demo_model *m,
			 const struct demo_xfer *x, const struct demo_pkt *pk)
{
	char *p = dout_rec(o);
	int alt = (pk->id >> 7) & 1;

	if (alt)
		p = put_route(p, m, x, pk);
	p = DKV_U64(p, "id", pk->id);
	p = DKV_U64(p, "packet_aggregation_id", x->id);
	p = DKV_U64(p, "packet_idx", pk->idx);
	p = put_sizes(p, pk->size, pk->dur);
	p = DKV_U64(p, "timestamp", pk->ts);
	p = DKV_U64(p, "duration", pk->dur);
	if (!alt)
		p = put_route(p, m, x, pk);
	p = put_flags(p, x, pk->id >> 13, 0);
	dout_done(o, p);
}

/* [[bytes per partition, partitions]] */
static char *put_shape(char *p, uint64_t size)
{
	int spread = size >= 128 && size % 128 == 0;

	*p++ = '[';
	*p++ = '[';
	p = dput_u64(p, spread ? size / 128 : size);
	*p++ = ',';
	p = dput_u64(p, spread ? 128 : 1);
	p = DLIT(p, "]],");
	return p;
}

/* Access pattern of each side. */
static char *put_layout(char *p, const struct demo_xfer *x)
{
	struct demo_layout l;

	demo_xfer_layout(x, &l);
	p = DLIT(p, "\"source_offset\":\"[[");
	p = dput_hex(p, l.store ? l.sb : l.dram);
	p = DLIT(p, "]]\",\"dest_offset\":\"[");
	p = dput_hex(p, l.store ? l.dram : l.sb);
	p = DLIT(p, "]\",\"source_steps\":\"[[1, ");
	p = dput_u64(p, l.store ? 262144 : l.per);
	p = DLIT(p, "]]\",\"dest_steps\":\"[1, ");
	p = dput_u64(p, l.store ? l.per : 262144);
	p = DLIT(p, "]\",");
	p = DKV_STR(p, "source_sb_partitions", l.store ? "0-127" : "");
	p = DKV_STR(p, "dest_sb_partitions", l.store ? "" : "0-127");
	p = DKV_U64(p, "source_num_sb_partitions", l.store ? 128 : 0);
	return DKV_U64(p, "dest_num_sb_partitions", l.store ? 0 : 128);
}

static void write_aggregated(struct dout *o, const struct demo_model *m,
			     const struct demo_xfer *x)
{
	char *p = dout_rec(o);
	uint64_t dur = x->end - x->ts;

	p = DKV_U64(p, "id", x->id);
	p = DKV_U64(p, "timestamp", x->ts);
	if (x->aux & 1)
		p = put_route(p, m, x, NULL);
	p = DKV_U64(p, "duration", dur);
	p = DKV_U64(p, "trigger", x->trigger);
	p = put_sizes(p, x->size, dur);
	p = DKEY(p, "read_shape");
	p = put_shape(p, x->size);
	p = DKEY(p, "write_shape");
	p = put_shape(p, x->size);
	p = put_layout(p, x);
	if (!(x->aux & 1))
		p = put_route(p, m, x, NULL);
	p = put_flags(p, x, x->aux >> 16, 1);
	dout_done(o, p);
}

void demo_write_xfer(struct dout *o, const struct demo_model *m,
		     const struct demo_xfer *x)
{
	if (x->aggregated)
		write_aggregated(o, m, x);
	for (int i = 0; i < x->npkt; i++)
		write_packet(o, m, x, &x->pkt[i]);
}

void demo_sec_dma_queues_info(struct dout *o)
{
	dout_array_begin(o, "dma_queues_info");
	for (int i = 0; i < Q_N; i++) {
		const struct demo_queueinfo *q = &demo_queues[i];
		char *p;

		if (!q->info_name)
			continue;
		p = dout_rec(o);
		p = DKV_U64(p, "q_eng_idx", q->eng);
		p = DKV_U64(p, "q_idx", q->idx);
		p = DKV_STR(p, "q_type", q->q_type);
		p = DKV_STR(p, "q_name", q->info_name);
		p = DKV_RAW(p, "q_event_id", "-1");
		p = DKV_U64(p, "q_axi_port", (uint64_t)i & 1);
		p = DKV_U64(p, "q_dram_channel", (uint64_t)i & 1);
		p = DKV_RAW(p, "subgraph", "\"sg00\"");
		dout_done(o, p);
	}
	dout_array_end(o);
}
