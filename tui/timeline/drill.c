/* From a system profile to its device profiles and back. Enter on an
 * event shows its details; Enter again on the same event opens the
 * device profile it ran (model_device_for_slice) as a new timeline on
 * the view stack, so the system view under it keeps its cursor, zoom,
 * folds and selection, and Backspace (or q) comes back to it. D lists
 * every device profile. :align reads a device profile's times on the
 * system profile's clock: its execution's place in system time
 * (model_device_align) becomes the axis's origin. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tui/device_view.h"
#include "model/devqueue.h"
#include "model/timefmt.h"
#include "tui/draw.h"
#include "tui/timeline/timeline.h"
#include "tui/timeline/timeline_int.h"
#include "tui/wait_view.h"

/* "bert-large nc3 (FILE)", from the system profile's device list. */
static char *label_of(struct model *m, const struct mprofile *p)
{
	struct mdevice *d;
	size_t n;
	char *label = NULL;

	if (!model_devices(m, p->parent_id, &d, &n)) {
		for (size_t i = 0; i < n && !label; i++)
			if (d[i].profile == p->id)
				label = device_label(&d[i]);
		model_devices_free(d, n);
	}
	return label ? label : xstrdup(p->name ? p->name : "device");
}

/* Why a device profile has nothing to show, in err_set(); 0 when it
 * has. */
static int unusable(struct model *m, const struct mprofile *p)
{
	const char *file = p->path ? p->path : "";
	const char *reason;
	char *why = NULL;
	size_t n = strlen(file);

	if (!p->state || !strcmp(p->state, "ready"))
		return 0;
	if (!strcmp(p->state, "queued")) {
		err_set("%s is not imported yet: open the bundle itself to"
			" import it", file);
		return -1;
	}
	if (!strcmp(p->state, "missing")) {
		err_set("%s is missing from the bundle folder", file);
		return -1;
	}
	if (model_device_failure(m, p, &why)) {
		free(why);
		err_set("%s could not be imported; the info panels' Warnings "
			"(i) say why", file);
		return -1;
	}
	/* the reason names the file again: "FILE: byte 12: ..." */
	reason = !strncmp(why, file, n) && !strncmp(why + n, ": ", 2) ?
			 why + n + 2 : why;
	err_set("%s could not be imported: %s", file, reason);
	free(why);
	return -1;
}

/* Queued, or being imported in the background right now. */
static int still_importing(struct model *m, const struct mprofile *p)
{
	struct devqueue *q = model_devqueue(m);
	int st = q && p->state && !strcmp(p->state, "queued") ?
		 devq_state(q, p->id, NULL) : -1;

	return st == DQ_QUEUED || st == DQ_IMPORTING;
}

struct view *timeline_open_device(struct model *m, int64_t device,
				  int64_t slice)
{
	struct mprofile p;
	struct view *v = NULL;
	char *label;
	int rc = model_profile(m, device, &p);

	if (rc) {
		if (rc > 0)
			err_set("%s: no profile %" PRId64, model_path(m), device);
		return NULL;
	}
	label = label_of(m, &p);
	if (still_importing(m, &p)) {
		v = wait_view_open(m, device, slice, label);
		free(label);
		model_profile_clear(&p);
		return v;
	}
	if (!unusable(m, &p))
		v = timeline_open(m, device, NULL);
	if (v) {
		free(v->title);
		v->title = label;
		((struct timeline *)v)->drill_slice = slice;
	} else {
		free(label);
	}
	model_profile_clear(&p);
	return v;
}

/* The model of one side's system profile: A's, or B's stacked. */
static struct model *side_model(const struct timeline *tl, int side)
{
	return side ? tl->tr.mb : tl->m;
}

/* " of B" when stacked: whose bundle a device profile is in. */
static const char *side_word(const struct timeline *tl, int side)
{
	return !tl->tr.mb ? "" : side ? " of B" : " of A";
}

/* The device profile of system event s: 0 found, 1 none, -1 error. */
static int device_of(struct model *m, const struct mslice *s,
		     struct mprofile *p, char **label)
{
	int64_t dev;
	int rc = model_device_for_slice(m, s->id, &dev);

	if (rc)
		return rc;
	rc = model_profile(m, dev, p);
	if (rc)
		return rc;
	*label = label_of(m, p);
	return 0;
}

char *timeline_drill_hint(struct timeline *tl, const struct mslice *s,
			  int side)
{
	struct model *m = side_model(tl, side);
	struct mprofile p;
	char *label, *hint;

	if (device_of(m, s, &p, &label))
		return NULL;
	if (unusable(m, &p))
		hint = xasprintf("%s: %s", model_string(m, s->name), err_get());
	else
		hint = xasprintf("Enter again opens %s, the device profile of "
				 "this %s%s", label, model_string(m, s->name),
				 side_word(tl, side));
	free(label);
	model_profile_clear(&p);
	return hint;
}

void timeline_drill(struct timeline *tl, const struct mslice *s, int side)
{
	struct tui *t = tl->view.tui;
	struct model *m = side_model(tl, side);
	const char *name = model_string(m, s->name);
	struct mprofile p;
	struct view *v;
	char *label;
	int rc = device_of(m, s, &p, &label);

	if (rc < 0) {
		tui_error(t, "%s", err_get());
		return;
	}
	if (rc > 0) {
		tui_message(t, "%s: no device profile of the bundle%s matches "
			    "it", name, side_word(tl, side));
		return;
	}
	free(label);
	v = timeline_open_device(m, p.id, s->id);
	model_profile_clear(&p);
	if (!v) {
		tui_error(t, "%s: %s", name, err_get());
		return;
	}
	if (tl->tr.mb) {	/* the breadcrumb says whose it is */
		char *title = xasprintf("%c: %s", 'A' + side, v->title);

		free(v->title);
		v->title = title;
	}
	tui_push(t, v);
	tui_message(t, "the device profile of this %s%s; Backspace goes back, "
		    "A: system time", name, side_word(tl, side));
}

void timeline_back(struct timeline *tl)
{
	if (!tui_below(tl->view.tui, &tl->view))
		tui_message(tl->view.tui, "nothing to go back to (q quits)");
	else
		tui_pop(tl->view.tui);
}

void timeline_devices(struct timeline *tl)
{
	int64_t sys = tl->is_system ? tl->prof.id : tl->prof.parent_id;
	struct view *v;

	if (!sys) {
		tui_message(tl->view.tui, "no device list: D lists the device "
			    "profiles of a system profile");
		return;
	}
	v = device_view_open(tl->m, sys);
	if (v)
		tui_push(tl->view.tui, v);
	else
		tui_error(tl->view.tui, "%s", err_get());
}

/* Finds the execution to align on, once. */
static int find_execution(struct timeline *tl)
{
	int rc;

	if (tl->align.exec_slice)
		return 0;
	rc = model_device_align(tl->m, tl->prof.id, tl->drill_slice,
				&tl->align);
	if (rc > 0)
		err_set("align: no execution in the system profile opens this "
			"device profile");
	return rc ? -1 : 0;
}

/* The name of the execution aligned on ("nc_exec_running"). */
static const char *exec_name(struct timeline *tl)
{
	struct mslice s;

	if (model_slice(tl->m, tl->align.exec_slice, &s))
		return "the execution";
	return model_string(tl->m, s.name);
}

int timeline_align(struct timeline *tl, int on)
{
	struct mprofile sys;
	char a[48], b[48];

	if (!tl->prof.parent_id) {
		err_set("align: only a device profile of a system profile has "
			"system time");
		return -1;
	}
	if (on < 0)
		on = !tl->aligned;
	if (!on) {
		tl->aligned = 0;
		tl->origin = tl->start;
		tui_message(tl->view.tui, "times count from the device "
			    "profile's start");
		return 0;
	}
	if (find_execution(tl))
		return -1;
	if (model_profile(tl->m, tl->prof.parent_id, &sys)) {
		err_set("align: no system profile %" PRId64, tl->prof.parent_id);
		return -1;
	}
	/* system ns = device ns + offset; the axis counts from the system
	 * profile's start */
	tl->origin = sys.start - tl->align.offset;
	tl->aligned = 1;
	timefmt_dur(a, sizeof(a), tl->align.exec_ts - sys.start, 6, draw_tf());
	timefmt_dur(b, sizeof(b), tl->align.exec_dur, 3, draw_tf());
	tui_message(tl->view.tui, "system time: its %s starts at %s of the "
		    "system profile, for %s", exec_name(tl), a, b);
	model_profile_clear(&sys);
	return 0;
}
