/* The summary of a system profile behind `nxtop summary` on a bundle or
 * a system profile: its rows as grouped (events, event time, busy time),
 * its event names, counters, device profiles, warnings (dropped events
 * first) and the files it was read from. Figures come from the same
 * selection aggregates the UI uses. */
#ifndef NX_SYSSUMMARY_H
#define NX_SYSSUMMARY_H

#include <stdint.h>

#include "model/drill.h"
#include "model/model.h"
#include "model/summary.h"
#include "model/sysrows.h"

struct sys_row {
	char *group;		/* the heading it sits under, or "" */
	char *name, *kind;
	int64_t n, dur, busy;	/* events, their total duration, busy ns */
};

struct sys_name {
	char *name;
	int64_t n, dur, dmin, dmax;
};

struct sys_counter {
	char *group, *name, *unit;
	int64_t n;
	double vmin, vmax, mean;
};

struct syssummary {
	struct mprofile prof;
	char *group_by, *row_by;	/* "instance_id,process_id", ... */
	int64_t n_events, n_samples;
	int64_t dropped;		/* dropped-event warnings */
	struct sys_row *rows;
	size_t nrows;
	struct sys_name *names;		/* by total duration, longest first */
	size_t nnames;
	struct sys_counter *counters;
	size_t ncounters;
	struct mdevice *devices;
	size_t ndevices;
	struct sum_warning *warnings;	/* dropped events first */
	size_t nwarnings;
	struct msource *sources;
	size_t nsources;
};

int syssummary_compute(struct model *m, int64_t profile,
		       const struct sysgroup *g, struct syssummary *s);
void syssummary_free(struct syssummary *s);

/* How many "Dropped events" warnings a profile has, for a header flag. */
int64_t model_dropped_warnings(struct model *m, int64_t profile);

#endif
