/* Writer API: the only way importers put rows into a new cache.
 *
 * Usage: writer_open() on a temporary path, add profiles, tracks, slices,
 * counters and typed rows, then writer_finish() builds indexes, nesting
 * depths, per-track statistics and level-of-detail summaries and commits.
 * Nothing is visible under the final name until cache_build() renames the
 * finished file into place. */
#ifndef NX_WRITER_H
#define NX_WRITER_H

#include <stddef.h>
#include <stdint.h>

struct writer;
struct cache_stamp;

/* Track kinds (track.kind in the cache). */
#define TK_GROUP "group"	/* holds other tracks, no events */
#define TK_ENGINE "engine"	/* NeuronCore engine instructions */
#define TK_DMA "dma"		/* DMA packets of one queue */
#define TK_DMA_XFER "dma_xfer"	/* aggregated DMA transfers of one queue */
#define TK_COUNTER "counter"	/* sampled values */
#define TK_NRT "nrt"		/* Neuron runtime API calls */
#define TK_HW "hw"		/* hardware execution events */
#define TK_FRAMEWORK "framework"
#define TK_THREAD "thread"	/* a generic trace thread */
#define TK_ASYNC "async"	/* async slices of a trace */
#define TK_INSTANT "instant"	/* process-wide or global events of a trace */

/* Times the cache holds, in ns from the axis' zero: from 2^59 before
 * (about 18 years) to 3 * 2^60 after (about 109 years: epoch ns stay in
 * range until 2079). Any span is then below 3.5 * 2^60, so that twice a
 * span, and any time plus a span, fit in 64 bits: the viewer zooms out
 * to twice the profile and pans half a view past its ends. Slices and
 * counter samples starting outside are left out and counted in an
 * import warning of their profile; ends beyond are clipped
 * (SF_CLIPPED); other times are clamped. */
#define WRITER_TIME_MIN (-(INT64_C(1) << 59))
#define WRITER_TIME_MAX (INT64_C(3) * (INT64_C(1) << 60) - 1)

/* Rows (tracks, groups included) one writer makes at most: the viewer
 * stays responsive up to here. writer_track() gives 0 beyond, and the
 * import fails (writer_failed()). */
#define WRITER_MAX_TRACKS 65536

/* Deepest nesting kept; deeper slices are stored at this depth. */
#define WRITER_MAX_DEPTH 255

/* Slice flags. */
#define SF_UNTERMINATED 1	/* begin without end: closed at trace end */
#define SF_INSTANT 2		/* zero-duration instant event */
#define SF_CLIPPED 4		/* duration clamped (negative or overflowing) */

/* Track flags for writer_track_set_flags(). */
#define TF_NEST_BY_TIME 1	/* depth is derived from time containment */

/* An id exactly as it appeared in the input. Values that fit in int64
 * are stored as INTEGER, larger ones as decimal TEXT, and an id that is
 * no number as its own TEXT. */
struct wid {
	int set;
	int big;		/* value > INT64_MAX: text holds it, else v */
	int64_t v;
	char text[24];
	const char *str;	/* no number: the id, borrowed until the
				 * writer call that takes it */
};

void wid_from_i64(struct wid *id, int64_t v);
void wid_from_u64(struct wid *id, uint64_t v);
void wid_from_text(struct wid *id, const char *s);

struct wprofile {
	int64_t id;		/* 0: the next id (see writer_profile_id) */
	const char *kind;	/* device | system | trace */
	const char *format;	/* neuron-json | neuron-system-json | pftrace | chrome-json */
	const char *name;
	const char *path;	/* file relative to the bundle folder */
	int64_t parent_id;	/* 0: none */
	int epoch;		/* times are Unix-epoch ns */
	int64_t nc_idx;		/* -1: unknown */
	const char *instance_id, *instance_type, *process_id, *model;
	const char *state;	/* NULL: ready; "queued": imported later */
};

/* An integer that may be absent, any int64 value included. */
struct wnum {
	int64_t v;
	int has;
};

struct winstruction {
	struct wid id;
	int64_t subgroup, hlo_name, layer, subgraph;	/* string ids, 0: none */
	int64_t instruction_type, activation_fn, compiler_opcode;
	int64_t hlo_attrs, nki_source_location, bir_debug_info_source_location;
	int64_t performance_mode, tensor_instruction_type;
	const char *operands, *compiler_operands;
	const char *bir_id, *penguin_id, *bir_instruction_name;
	const char *kernel_instruction_name, *instruction_chain;
	const char *stack_frame_ids;
	int64_t pc, compiler_pc, evt_wait_time;	/* -1: absent */
	int64_t dma_wait_time;			/* ns, -1: absent */
	struct wnum pcore_idx, raw_penguin_id, raw_bir_id, crc_in, crc_out;
	struct wnum raw_hlo_id, raw_framework_id;
	/* bytes moved (FORMATS.md §1.5) */
	struct wnum hbm_read_bytes, hbm_write_bytes, sbuf_read_bytes;
	struct wnum sbuf_write_bytes, spill_save_bytes, spill_reload_bytes;
	struct wnum psum_read_bytes, psum_write_bytes;
	struct wnum psum_read_sbuf_write_bytes, input_queue_bytes;
	struct wnum output_queue_bytes, weight_queue_bytes;
	struct wnum tensor_elements, raw_flops, adjusted_flops;
	struct wnum tensor_elements_transpose, flops_transpose;
	struct wnum adjusted_flops_transpose;
};

struct wdma {
	int aggregated;		/* 1: an aggregated transfer, 0: a packet */
	struct wid id, packet_aggregation_id;
	int64_t packet_idx;	/* -1: absent */
	int64_t queue, queue_type, variable, op;	/* string ids */
	int64_t transfer_size, read_size, write_size, transfer_rate;
	int64_t dma_engine, dma_queue, block_id, trigger_ts;	/* -1: absent */
	const char *semaphore_id, *source, *dest;
};

struct wsys_event {
	struct wid id, parent;
	/* string ids, 0: absent */
	int64_t source, instance_id, process_id, model_name, device_profile;
	int64_t group;		/* the exporter's row label ("nrt-nc-000") */
	/* -1: absent */
	int64_t thread_id, nc_idx, lnc_idx, worker_gid, device_core_idx;
	int64_t exec_id;
	int64_t type;		/* the exporter's event type, if has_type */
	int has_type;
	const char *model_id;
};

struct wlayer {
	const char *name, *subgraph;
	int64_t start, end, dur;
	/* per engine: tensor, vector, scalar, gpsimd, sync */
	int64_t count[5], time[5], active[5];
	int64_t flops, model_flops;	/* -1: absent */
	double mfu, hfu;		/* < 0: absent */
};

enum wvalue_type { WV_NULL, WV_INT, WV_REAL, WV_TEXT };

struct wvalue {
	enum wvalue_type type;
	int64_t i;
	double d;
	const char *s;
};

/* Creates a new cache at path (which must not exist). NULL on error. */
struct writer *writer_open(const char *path);
/* Builds indexes and summaries, commits and closes. 0 on success; the
 * writer is freed either way. */
int writer_finish(struct writer *w);
/* Abandons the cache (the caller removes the file). */
void writer_abort(struct writer *w);

/* Parts of one cache built apart (in other threads) and merged: every id
 * a writer gives (profiles, tracks, slices, strings) is above base. Set
 * before anything is written. */
void writer_set_id_base(struct writer *w, int64_t base);
/* A finished cache written with another id base, whose rows join this
 * one's when it finishes (its tracks keep their level of detail). The
 * writer then removes the file, also when abandoned. */
void writer_merge(struct writer *w, const char *path);

/* The first profile id of a writer whose id base is base: a profile
 * written elsewhere ahead of its rows (state "queued") takes the id the
 * part importing it later gives it. */
int64_t writer_profile_id(int64_t base);

/* Merges the finished part cache at part into the finished cache at
 * cache, in one transaction: the rows of profile (a "queued" row of the
 * cache, with its sources and warnings) give way to the part's. The
 * cache may be read meanwhile (it is in WAL mode). 0 on success, -1
 * with err_get() set. */
int writer_merge_finished(const char *cache, const char *part,
			  int64_t profile);
/* A device profile of a finished cache left for later (state
 * "queued"), with what its import needs. */
struct wqueued {
	int64_t profile, parent, nc_idx;
	char *file;		/* the name in the bundle folder */
	char *path;		/* its real path (the cache's source) */
	char *instance_id, *process_id, *model;	/* or NULL */
	int folders;		/* a Parquet folder, not a JSON file */
};

/* The queued profiles of the cache at path, by id. 0, or -1 with
 * err_get() set. */
int writer_queued(const char *path, struct wqueued **out, size_t *n);
void writer_queued_free(struct wqueued *v, size_t n);

/* Marks the queued profile of the finished cache "failed", with a
 * warning of its system profile saying message; with retry (the cache
 * could not be written, not the input read) the cache is also marked
 * to be built again at its next open (cache_check). */
int writer_fail_queued(const char *cache, int64_t profile,
		       const char *message, int retry);
/* After finishing, the cache is kept in WAL mode, so that parts can be
 * merged into it while it is read. */
int writer_wal(const char *path);
/* A cache left in WAL mode goes back to rollback-journal mode once no
 * device profile of it is queued, so that it reads in a folder the
 * reader cannot write to; a cache still queued is only checkpointed.
 * Does nothing while another nxtop has it open, or where it cannot be
 * written. 1 if it went back. */
int writer_settle(const char *path);

/* With *stop set (by another thread), writer_failed() says the import
 * was stopped: importers give up at their next check, and
 * writer_finish() in its next pass. */
void writer_set_stop(struct writer *w, const int *stop);

/* Reports progress of the final build step, in percent. */
void writer_set_progress(struct writer *w, void (*fn)(void *, const char *, int),
			 void *ctx);

void writer_meta(struct writer *w, const char *key, const char *value);
/* Records an input file for the cache's freshness check; a missing file
 * is recorded too, and its arrival makes the cache stale. */
int64_t writer_source(struct writer *w, int64_t profile, const char *path,
		      const char *role);
/* The same with the file's stamp as it was when it was read (NULL:
 * missing). */
int64_t writer_source_as(struct writer *w, int64_t profile, const char *path,
			 const char *role, const struct cache_stamp *st);
int64_t writer_profile(struct writer *w, const struct wprofile *p);
/* Sets one column of a profile (name, instance_type, nc_idx, kind,
 * format, instance_id, process_id, model, state, path, epoch). */
void writer_profile_set(struct writer *w, int64_t profile, const char *column,
			const char *value);
void writer_profile_extent(struct writer *w, int64_t profile, int64_t start,
			   int64_t end);

/* Interned string id (never 0). */
int64_t writer_string(struct writer *w, const char *s);
int64_t writer_stringn(struct writer *w, const char *s, size_t n);

int64_t writer_track(struct writer *w, int64_t profile, int64_t parent,
		     const char *kind, const char *name, int64_t sort_key);
void writer_track_set_unit(struct writer *w, int64_t track, const char *unit);
void writer_track_set_args(struct writer *w, int64_t track, const char *json);
void writer_track_set_flags(struct writer *w, int64_t track, unsigned flags);
/* Names and order often arrive after a track's first events (trace
 * metadata events, late descriptors). */
void writer_track_set_name(struct writer *w, int64_t track, const char *name);
void writer_track_set_sort(struct writer *w, int64_t track, int64_t sort_key);

/* Slices. dur < 0 is stored as 0 with SF_CLIPPED. Returns the slice id,
 * or 0 when the slice is left out (its track unknown, its time out of
 * range); the typed-row and args functions ignore slice 0. */
int64_t writer_slice(struct writer *w, int64_t track, int64_t ts, int64_t dur,
		     int64_t name, int64_t cat, int depth, unsigned flags);
/* A DMA slice (depth 0, no flags) with its queue type as category and
 * its transfer size (-1: absent): searches on queue_type and size read
 * them from the slice. */
int64_t writer_slice_sized(struct writer *w, int64_t track, int64_t ts,
			   int64_t dur, int64_t name, int64_t cat, int64_t size);
void writer_slice_args(struct writer *w, int64_t slice, const char *json);
void writer_instruction(struct writer *w, int64_t slice,
			const struct winstruction *in);
/* The row of a DMA slice, written by writer_slice_sized with the same
 * queue_type and transfer_size (searches read the slice's copies). */
void writer_dma(struct writer *w, int64_t slice, const struct wdma *d);
void writer_sys_event(struct writer *w, int64_t slice,
		      const struct wsys_event *e);
/* A flow from slice out to slice in; out or in 0 is an unpaired end
 * (its partner never came), kept so that it is counted. */
void writer_flow(struct writer *w, const struct wid *flow_id, int64_t out,
		 int64_t in, const char *kind);

/* One end of a flow given as a place rather than a slice: the deepest
 * slice of the track enclosing ts, or with next set the first slice
 * starting at or after ts (else the enclosing one). */
struct wflow_end {
	int64_t track, ts;
	int next;
};

/* A flow whose ends are found when the cache is finished, once every
 * slice is written and nested. An end with track 0 is missing; a flow
 * with one end that finds no slice is kept as an unpaired end. */
void writer_flow_at(struct writer *w, const struct wid *flow_id,
		    const struct wflow_end *out, const struct wflow_end *in,
		    const char *kind);

/* Neuron device dependencies, linked into flows when the cache is
 * finished (model/writer/deps.c). Exact ones are stated by the profile
 * (an id names the other end); inferred ones are matched by times or
 * semaphore values. */
enum wdep_kind {
	WD_PRED,	/* slice needs the instruction with id key first */
	WD_PACKET,	/* slice is a packet of the transfer with id key */
	WD_ROW,		/* a Flow table row: key in table to key2 in table2 */
	WD_TRIGGER,	/* transfer slice, starting at value, started by the
			 * instruction running from ts to ts2 (-1: unknown) */
	WD_TRIGGERED,	/* instruction slice says its transfer starts at ts */
	WD_WAIT,	/* slice waits, until ts, for semaphore sem to be
			 * value (op '=') or at least value (op '>') */
	WD_SIGNAL,	/* slice sets semaphore sem at ts */
};

struct wdep {
	enum wdep_kind kind;
	int64_t profile, slice;
	int64_t ts, ts2;
	struct wid key, key2;
	const char *sem, *table, *table2;
	const char *type;	/* the profile's name for the link, or NULL */
	int op;
	int64_t value;
};

void writer_dep(struct writer *w, const struct wdep *d);

void writer_counter(struct writer *w, int64_t track, int64_t ts, double value);

void writer_layer(struct writer *w, int64_t profile, const struct wlayer *l);
void writer_active_time(struct writer *w, int64_t profile, const char *engine,
			int64_t start, int64_t end, int64_t pcore_idx);
void writer_semaphore(struct writer *w, int64_t profile, int64_t ts,
		      const char *sem_id, int64_t value);
void writer_info(struct writer *w, int64_t profile, const char *section,
		 int64_t idx, const char *key, const struct wvalue *v);
void writer_warning(struct writer *w, int64_t profile, const char *origin,
		    const char *category, const char *message);

/* Places every slice waiting in the window (their depths decided): the
 * slices that follow start over from an earlier time (another thread's,
 * sorted apart), and get the whole window to come in slightly out of
 * order, as a B/E thread's parents do after their children. */
void writer_place_window(struct writer *w);

/* Rows written so far (slices + counter samples), for progress. */
uint64_t writer_rows(const struct writer *w);
/* 1 after an SQLite error (a full disk) or a limit, with err_get()
 * saying which; else 0. Importers stop early on it. */
int writer_failed(const struct writer *w);
/* 1 after an SQLite error writing the cache (a full disk, a file size
 * limit, a write error: not the input's fault), err_get() untouched. */
int writer_broken(const struct writer *w);

#endif
