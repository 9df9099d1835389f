/* Per-sequence state of a Perfetto trace: interned strings, packet
 * defaults and the legacy thread descriptor. A producer resets it with
 * SEQ_INCREMENTAL_STATE_CLEARED; until then interning ids are only
 * meaningful on their own sequence. */
#ifndef NX_PF_INTERN_H
#define NX_PF_INTERN_H

#include <stddef.h>
#include <stdint.h>

#include "model/hmap.h"
#include "proto/nxpf_trace.pb-c.h"

/* Interned tables read (InternedData field in brackets). */
enum pf_table {
	PF_NAMES,		/* event_names (2) */
	PF_CATS,		/* event_categories (1) */
	PF_ANN_NAMES,		/* debug_annotation_names (3) */
	PF_ANN_STRINGS,		/* debug_annotation_string_values (29) */
	PF_NTABLES
};

struct pf_str {
	char *s;		/* NUL-terminated copy; may hold NULs */
	size_t len;
	int64_t sid;		/* writer string id, 0 until first used */
};

struct pf_seq {
	uint32_t id;
	int valid;		/* incremental state is usable */
	struct u64map tab[PF_NTABLES];	/* iid -> pf_str */
	size_t bytes;		/* interned bytes held */
	size_t *total;		/* ... by all sequences */
	/* TracePacketDefaults */
	int has_clock, has_track;
	uint32_t clock_id;
	uint64_t track_uuid;
	uint64_t *extra_counter, *extra_double;
	size_t n_extra_counter, n_extra_double;
	/* legacy ThreadDescriptor on this sequence */
	int has_thread;
	int32_t pid;
	int64_t tid;
	int64_t ref_us;		/* last legacy absolute timestamp, µs */
};

/* Interned data beyond this many bytes in all is an error. */
#define PF_MAX_INTERNED (256u << 20)

/* total counts the interned bytes of every sequence. */
void pfseq_init(struct pf_seq *q, uint32_t id, size_t *total);
/* Drops interned data and defaults (incremental state cleared). */
void pfseq_clear(struct pf_seq *q);
void pfseq_free(struct pf_seq *q);

/* Adds a packet's interned data. -1 when the sequences hold too much. */
int pfseq_intern(struct pf_seq *q, const Nxpf__InternedData *d);
void pfseq_defaults(struct pf_seq *q, const Nxpf__TracePacketDefaults *d);

/* NULL when iid is unknown on this sequence. */
struct pf_str *pfseq_lookup(const struct pf_seq *q, enum pf_table t,
				  uint64_t iid);

#endif
