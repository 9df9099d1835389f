/* From a system profile to its device profiles: the list of device
 * profiles (the device list view), the device profile a system event is
 * about (drilldown from an nrt_execute or nc_exec_running), and where a
 * device profile's execution sits on the system profile's epoch-ns axis
 * (:align). */
#ifndef NX_DRILL_H
#define NX_DRILL_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

struct mdevice {
	int64_t profile;
	char *name;		/* the profile's name (its NEFF, or the file) */
	char *path;		/* file in the bundle folder */
	char *model;		/* model id, or NULL */
	char *instance_id, *process_id;	/* or NULL */
	char *state;		/* "ready", "missing" or "failed" */
	char *neff;		/* the NEFF path the profile names, or NULL */
	int64_t nc_idx;		/* -1: unknown */
	int64_t n_events;	/* slices: instructions, DMA packets and transfers;
				 * not counter samples */
	int64_t duration;	/* ns */
};

/* Device profiles of a system profile, by NeuronCore, then model. */
int model_devices(struct model *m, int64_t system, struct mdevice **out,
		  size_t *n);
void model_devices_free(struct mdevice *d, size_t n);

/* The device profile a system event names: by its device_profile arg
 * when that names a file of the bundle, else by its model (model_id,
 * model_name) and NeuronCore (lnc_idx, nc_idx, device_core_idx),
 * instance and process, which must be those the bundle gives the device
 * profile (its device_profile_list, its file's name); an event without
 * a device_profile or model_id (a kbl_exec_* or nc_exec_running) takes
 * those of the nrt_execute it runs in. Only an execution (nrt_execute,
 * nc_exec_running) may match by its NeuronCore alone. 0: found (*device,
 * maybe not "ready"); 1: none; -1: error. */
int model_device_for_slice(struct model *m, int64_t slice, int64_t *device);

/* Why device profile p (state "failed") was not imported: the reason
 * the bundle's import gave in the system profile's warnings. 0 with
 * *why (malloc'd, untrusted), 1 if none is recorded, -1 on error. */
int model_device_failure(struct model *m, const struct mprofile *p,
			 char **why);

struct malign {
	int64_t exec_slice;	/* the system event of the execution */
	int64_t exec_ts, exec_dur;	/* its start (epoch ns) and length */
	int64_t offset;		/* system ns = device ns + offset */
};

/* Where device's execution sits in system time: slice if it is an
 * nc_exec_running, else the nc_exec_running in its nrt_execute (slice
 * itself, or the one it runs in), else that nrt_execute or slice; with
 * slice 0 the first execution that drills into device. 0: found; 1:
 * none. */
int model_device_align(struct model *m, int64_t device, int64_t slice,
		       struct malign *out);

#endif
