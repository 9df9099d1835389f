/* Perfetto protobuf traces (.pftrace): a bare sequence of Trace.packet
 * records (0x0a <varint length> <TracePacket>), read one packet at a
 * time; see FORMATS.md "Perfetto protobuf traces". This file reads and
 * unpacks packets and keeps each sequence's incremental state;
 * events.c turns them into rows. */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "src/pftrace/arena.h"
#include "src/import/pftrace/pftrace.h"
#include "src/import/formats.h"

/* A packet larger than this is refused (real ones are under 1 MiB). */
#define MAX_PACKET (256u << 20)
/* Decompressed bundles larger than this are refused (spec: < 512 KiB). */
#define MAX_INFLATED (64u << 20)
/* Debug annotations nested deeper are refused before protobuf-c recurses. */
#define MAX_NESTING 64
#define READ_CHUNK (1u << 20)

/* TracePacket fields that carry something this importer reads. */
static const unsigned char wanted_field[140] = {
	[6] = 1, [11] = 1, [12] = 1, [13] = 1, [41] = 1, [42] = 1, [43] = 1,
	[44] = 1, [50] = 1, [59] = 1, [60] = 1, [133] = 1,
};

enum { WT_VARINT = 0, WT_I64 = 1, WT_LEN = 2, WT_I32 = 5 };

struct reader {
	struct import_in *in;	/* the file, or its gzip data inflated */
	unsigned char *buf;
	size_t cap, pos, end;
	uint64_t base;		/* file offset of buf[0] */
	uint64_t size;		/* bytes to read, 0 if unknown */
	int eof;
};

struct pfimport {
	struct pftrace p;
	struct reader r;
	struct pb_arena outer, inner;
	unsigned char *inflated;
	size_t inflated_cap;
};

int pf_fail(struct pftrace *p, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return import_fail(p->im, &p->where, "%s", msg);
}

/* Makes n bytes readable at buf + pos. 1: ok, 0: end of file first,
 * -1: read error (err_get() says which). */
static int reader_need(struct reader *r, size_t n)
{
	while (r->end - r->pos < n) {
		long got;

		if (r->eof)
			return 0;
		if (r->pos) {
			memmove(r->buf, r->buf + r->pos, r->end - r->pos);
			r->base += r->pos;
			r->end -= r->pos;
			r->pos = 0;
		}
		r->buf = xgrow(r->buf, &r->cap, r->end + READ_CHUNK, 1);
		/* in steps, so that a gzip bomb is told before it fills
		 * much more than the limit */
		got = import_read(r->in, r->buf + r->end,
				  NX_MIN(r->cap - r->end, READ_CHUNK));
		if (got < 0)
			return -1;
		if (got == 0)
			r->eof = 1;
		r->end += (size_t)got;
	}
	return 1;
}

static uint64_t reader_offset(const struct reader *r)
{
	return r->base + r->pos;
}

/* A varint at *p (before end); NULL if malformed or cut. */
static const unsigned char *varint(const unsigned char *p,
				   const unsigned char *end, uint64_t *v)
{
	uint64_t x = 0;

	for (int shift = 0; shift < 64 && p < end; shift += 7) {
		unsigned char b = *p++;

		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = x;
			return p;
		}
	}
	return NULL;
}

/* Skips one field's value; NULL if malformed. */
static const unsigned char *skip_value(const unsigned char *p,
				       const unsigned char *end, int wt,
				       const unsigned char **val, size_t *len)
{
	uint64_t n;

	switch (wt) {
	case WT_VARINT:
		return varint(p, end, &n);
	case WT_I64:
		return end - p >= 8 ? p + 8 : NULL;
	case WT_I32:
		return end - p >= 4 ? p + 4 : NULL;
	case WT_LEN:
		p = varint(p, end, &n);
		if (!p || n > (uint64_t)(end - p))
			return NULL;
		*val = p;
		*len = (size_t)n;
		return p + n;
	default:
		return NULL;
	}
}

/* Calls fn on each length-delimited field of a message; -1 if the bytes
 * are not a message, else the largest value fn returned. */
typedef int (*field_fn)(uint32_t field, const unsigned char *v, size_t n,
			int depth);

static int each_len_field(const unsigned char *p, size_t n, int depth,
			  field_fn fn)
{
	const unsigned char *end = p + n;
	int worst = 0;

	while (p < end) {
		const unsigned char *val = NULL;
		size_t len = 0;
		uint64_t tag;

		p = varint(p, end, &tag);
		if (!p || !(tag >> 3))
			return -1;
		p = skip_value(p, end, (int)(tag & 7), &val, &len);
		if (!p)
			return -1;
		if (val && fn) {
			int d = fn((uint32_t)(tag >> 3), val, len, depth);

			if (d > worst)
				worst = d;
		}
	}
	return worst;
}

/* Nesting depth of DebugAnnotation (dict 11, array 12, nested 8) and
 * NestedValue (dict values 3, array values 4) messages. */
static int annotation_depth(uint32_t field, const unsigned char *v, size_t n,
			    int depth)
{
	if (field != 11 && field != 12 && field != 8 && field != 3 && field != 4)
		return depth;
	if (depth >= MAX_NESTING)
		return depth + 1;
	return each_len_field(v, n, depth + 1, annotation_depth);
}

static int event_depth(uint32_t field, const unsigned char *v, size_t n,
		       int depth)
{
	return field == 4 ? each_len_field(v, n, depth + 1, annotation_depth) :
			    depth;
}

static int packet_depth(uint32_t field, const unsigned char *v, size_t n,
			int depth)
{
	return field == 11 ? each_len_field(v, n, depth + 1, event_depth) :
			     depth;
}

/* 1 if the packet holds a field worth unpacking. */
static int packet_wanted(const unsigned char *p, size_t n)
{
	const unsigned char *end = p + n;

	while (p < end) {
		const unsigned char *val;
		size_t len;
		uint64_t tag;

		p = varint(p, end, &tag);
		if (!p)
			return 1;	/* let the unpacker report it */
		if ((tag >> 3) < sizeof(wanted_field) && wanted_field[tag >> 3])
			return 1;
		p = skip_value(p, end, (int)(tag & 7), &val, &len);
		if (!p)
			return 1;
	}
	return 0;
}

static struct pf_seq *seq_get(struct pftrace *p, uint32_t id)
{
	struct pf_seq *q = u64map_get(&p->seqs, id);

	if (!q) {
		if (p->seqs.n >= PF_MAX_SEQUENCES) {
			pf_fail(p, "more than %u packet sequences",
				PF_MAX_SEQUENCES);
			return NULL;
		}
		q = xmalloc(sizeof(*q));
		pfseq_init(q, id, &p->interned);
		u64map_put(&p->seqs, id, q);
	}
	return q;
}

static int packets(struct pfimport *pi, const unsigned char *p, size_t n);

/* compressed_packets: deflate data (zlib or raw) holding Trace framing. */
static int compressed(struct pfimport *pi, const ProtobufCBinaryData *d)
{
	z_stream z;
	/* a zlib header: deflate method, check bits divisible by 31 */
	int zlib = d->len >= 2 && (d->data[0] & 0x0f) == 8 &&
		   ((d->data[0] << 8) | d->data[1]) % 31 == 0;
	int rc;

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, zlib ? 15 : -15) != Z_OK)
		return pf_fail(&pi->p, "cannot start zlib");
	z.next_in = d->data;
	z.avail_in = (uInt)d->len;
	for (;;) {
		if (pi->inflated_cap - z.total_out < 65536) {
			if (pi->inflated_cap >= MAX_INFLATED) {
				inflateEnd(&z);
				return pf_fail(&pi->p, "compressed packets inflate"
					       " to more than 64 MiB");
			}
			pi->inflated = xgrow(pi->inflated, &pi->inflated_cap,
					     NX_MAX(z.total_out + 65536, 1u << 20),
					     1);
		}
		z.next_out = pi->inflated + z.total_out;
		z.avail_out = (uInt)(pi->inflated_cap - z.total_out);
		rc = inflate(&z, Z_NO_FLUSH);
		if (rc == Z_STREAM_END)
			break;
		if (rc != Z_OK && rc != Z_BUF_ERROR) {
			inflateEnd(&z);
			return pf_fail(&pi->p, "corrupt compressed packets (%s)",
				       z.msg ? z.msg : "zlib error");
		}
		if (rc == Z_BUF_ERROR && z.avail_in == 0) {
			inflateEnd(&z);
			return pf_fail(&pi->p, "compressed packets are cut short");
		}
	}
	inflateEnd(&z);
	return packets(pi, pi->inflated, z.total_out);
}

/* Sequence flags, then the packet's data. */
static int handle(struct pfimport *pi, const Nxpf__TracePacket *pk, int nested)
{
	struct pftrace *p = &pi->p;
	uint32_t id = pk->has_trusted_packet_sequence_id ?
		      pk->trusted_packet_sequence_id : 0;
	struct pf_seq *q = seq_get(p, id);

	if (!q)
		return -1;
	if (pk->has_previous_packet_dropped && pk->previous_packet_dropped)
		q->valid = 0;
	if ((pk->sequence_flags & 1) ||
	    (pk->has_incremental_state_cleared && pk->incremental_state_cleared)) {
		pfseq_clear(q);
		q->valid = 1;
	}
	if ((pk->sequence_flags & 2) && !q->valid) {
		p->n_skipped_state++;
		return 0;
	}
	if (pk->trace_packet_defaults)
		pfseq_defaults(q, pk->trace_packet_defaults);
	if (pk->interned_data && pfseq_intern(q, pk->interned_data))
		return pf_fail(p, "more than 256 MiB of interned strings");
	switch (pk->data_case) {
	case NXPF__TRACE_PACKET__DATA_CLOCK_SNAPSHOT:
		pfclk_snapshot(p->clocks, id, pk->clock_snapshot);
		return 0;
	case NXPF__TRACE_PACKET__DATA_COMPRESSED_PACKETS:
		if (!nested)
			return compressed(pi, &pk->compressed_packets);
		/* read, a bundle in a bundle could expand a small file
		 * without bound: skipped, and said */
		if (!p->n_nested_bundles++)
			p->first_nested = p->where;
		return 0;
	case NXPF__TRACE_PACKET__DATA_ZSTD_COMPRESSED_PACKETS:
		p->n_zstd++;
		return 0;
	default:
		return pfev_packet(p, pk, q);
	}
}

static int packet(struct pfimport *pi, const unsigned char *data, size_t len,
		  int nested)
{
	struct pb_arena *a = nested ? &pi->inner : &pi->outer;
	Nxpf__TracePacket *pk;

	if (!packet_wanted(data, len))
		return 0;
	if (each_len_field(data, len, 0, packet_depth) > MAX_NESTING)
		return pf_fail(&pi->p, "debug annotations nested deeper than"
			       " %d levels", MAX_NESTING);
	arena_reset(&a->mem);
	pk = nxpf__trace_packet__unpack(&a->pc, len, data);
	if (!pk)
		return pf_fail(&pi->p, "malformed TracePacket of %zu bytes", len);
	return handle(pi, pk, nested);
}

/* Packets in Trace framing inside a decompressed bundle. */
static int packets(struct pfimport *pi, const unsigned char *p, size_t n)
{
	const unsigned char *end = p + n;

	while (p < end) {
		const unsigned char *val = NULL;
		size_t len = 0;
		uint64_t tag;

		p = varint(p, end, &tag);
		if (!p)
			return pf_fail(&pi->p, "malformed compressed packets");
		p = skip_value(p, end, (int)(tag & 7), &val, &len);
		if (!p)
			return pf_fail(&pi->p, "malformed compressed packets");
		if (tag == (1 << 3 | WT_LEN) && packet(pi, val, len, 1))
			return -1;
	}
	return 0;
}

/* Reads the tag and length of the next top-level record. 1: a packet of
 * *len bytes follows; 0: end of file; -1: error. */
static int next_record(struct pfimport *pi, uint64_t *len, int *is_packet)
{
	struct reader *r = &pi->r;
	const unsigned char *p, *e;
	uint64_t tag;
	int rc;

	rc = reader_need(r, 1);
	if (rc <= 0)
		return rc < 0 ? pf_fail(&pi->p, "read error: %s",
					err_get()) : 0;
	/* a tag and a length take at most 20 bytes */
	if (reader_need(r, 20) < 0)
		return pf_fail(&pi->p, "read error: %s", err_get());
	p = r->buf + r->pos;
	e = r->buf + r->end;
	p = varint(p, e, &tag);
	if (!p || !(tag >> 3))
		return pf_fail(&pi->p, "expected a Trace.packet record,"
			       " found byte 0x%02x", r->buf[r->pos]);
	*is_packet = tag == (1 << 3 | WT_LEN);
	if ((tag & 7) != WT_LEN) {
		const unsigned char *val;
		size_t n;
		const unsigned char *q = skip_value(p, e, (int)(tag & 7), &val, &n);

		if (!q)
			return pf_fail(&pi->p, "file ends inside a record");
		*len = 0;
		r->pos = (size_t)(q - r->buf);
		return 1;
	}
	p = varint(p, e, len);
	if (!p)
		return pf_fail(&pi->p, r->eof && e - (r->buf + r->pos) < 20 ?
			       "file ends inside a packet header" :
			       "malformed packet length");
	r->pos = (size_t)(p - r->buf);
	return 1;
}

static int read_all(struct pfimport *pi)
{
	struct pftrace *p = &pi->p;
	struct reader *r = &pi->r;

	for (;;) {
		uint64_t len = 0, off = reader_offset(r);
		int is_packet = 0, rc;

		p->where.offset = off;
		rc = next_record(pi, &len, &is_packet);
		if (rc <= 0)
			return rc;
		if (r->size && len > r->size - reader_offset(r))
			return pf_fail(p, "packet of %" PRIu64 " bytes runs past"
				       " the end of the file (%" PRIu64 " bytes)",
				       len, r->size);
		if (len > MAX_PACKET)
			return pf_fail(p, "packet of %" PRIu64 " bytes is larger"
				       " than 256 MiB", len);
		rc = reader_need(r, (size_t)len);
		if (rc < 0)
			return pf_fail(p, "read error: %s", err_get());
		if (rc == 0)
			return pf_fail(p, "packet of %" PRIu64 " bytes runs past"
				       " the end of the file", len);
		if (is_packet && packet(pi, r->buf + r->pos, (size_t)len, 0))
			return -1;
		r->pos += (size_t)len;
		if (++p->where.index % 4096 == 0) {
			if (writer_failed(p->w))
				return -1;
			import_progress(p->im, reader_offset(r));
		}
	}
}

static int open_input(struct pfimport *pi)
{
	pi->r.in = import_open_in(pi->p.im);
	if (!pi->r.in)
		return -1;
	pi->r.size = pi->p.im->size;
	return 0;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

int import_pftrace(struct import *im)
{
	struct wprofile prof = { .kind = "trace", .format = "pftrace",
				 .name = base_name(im->name),
				 .parent_id = im->parent, .nc_idx = -1 };
	struct pfimport *pi = xcalloc(1, sizeof(*pi));
	struct pftrace *p = &pi->p;
	int rc;

	p->im = im;
	p->w = im->w;
	p->where.kind = JREC_ITEM;
	p->where.key = "packet";
	pfev_init(p);
	pb_arena_init(&pi->outer);
	pb_arena_init(&pi->inner);
	rc = open_input(pi);
	if (!rc) {
		im->profile = writer_profile(im->w, &prof);
		p->rows = trows_new(im->w, im->profile);
		p->clocks = pfclk_new();
		rc = read_all(pi);
	}
	if (!rc)
		rc = pfev_finish(p);
	pfev_free(p);
	pfclk_free(p->clocks);
	arena_free(&pi->outer.mem);
	arena_free(&pi->inner.mem);
	free(pi->inflated);
	free(pi->r.buf);
	import_close_in(pi->r.in);
	free(pi);
	return rc;
}
