/* Rows of a system profile, grouped at view time the way neuron-explorer
 * groups its Perfetto export (--system-trace-primary-group and
 * --system-trace-secondary-group): groups by some fields (default
 * instance_id,process_id), rows within a group by others (default
 * worker_gid,lnc_idx,thread_id), and always by source (neuron_rt,
 * neuron_hw, framework). The cache keeps one track per distinct set of
 * keys (track.args); a row is every track that shares the row's keys,
 * so changing the grouping needs no import. Counter tracks (CPU and
 * memory) are rows of their own in their instance's group. */
#ifndef NX_SYSROWS_H
#define NX_SYSROWS_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/util.h"

enum sysfield {
	SYSF_INSTANCE,	/* instance_id */
	SYSF_PROCESS,	/* process_id */
	SYSF_THREAD,	/* thread_id */
	SYSF_LNC,	/* lnc_idx: the process's logical NeuronCore */
	SYSF_WORKER,	/* worker_gid: NeuronCore across instances */
	SYSF_COUNT
};

struct sysgroup {
	enum sysfield group[SYSF_COUNT];
	int ngroup;		/* 0: no group headings */
	enum sysfield row[SYSF_COUNT];
	int nrow;
};

/* instance_id,process_id / worker_gid,lnc_idx,thread_id */
void sysgroup_default(struct sysgroup *g);
/* A comma-separated field list: instance_id (or instance), process_id
 * (process, pid), thread_id (thread, tid), lnc_idx (lnc, nc), worker_gid
 * (worker, gid). "" is an empty list. 0 on success; err_set() names the
 * bad field. what names the option in the message. */
int sysgroup_parse(const char *list, const char *what, enum sysfield *out,
		   int *n);
/* "instance_id,process_id" */
void sysgroup_fields_text(const enum sysfield *f, int n, struct strbuf *out);

/* One line of the grouped list. */
struct mrow {
	int heading;		/* a group heading, no events of its own */
	int group;		/* index of its heading, -1 if none */
	char *name;		/* "i-0f2..-pid1627711", "gid35-nc3-tid7-neuron_rt" */
	char *kind;		/* group, nrt, hw, framework, thread, counter */
	struct mtrack *tracks;	/* the tracks drawn in this row */
	size_t ntracks;
	int64_t n_events, busy_ns, max_depth;
};

/* The rows of a system profile under grouping g, headings first in each
 * group, in display order. */
int model_sysrows(struct model *m, int64_t profile, const struct sysgroup *g,
		  struct mrow **out, size_t *n);
void model_sysrows_free(struct mrow *rows, size_t n);

/* One frame of a row made of several tracks: counts add up, busy time
 * adds up (capped at the column), the top event is the busiest track's. */
int model_row_frame(struct model *m, const struct mrow *r, int64_t t0,
		    int64_t colw, int ncols, struct mcell *out);

#endif
