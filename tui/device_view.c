/* The device list: one line per device profile of a system profile
 * (NeuronCore, file, state, model, instance, process, events and
 * duration), as `nxtop export --what devices` prints it; the NeuronCore,
 * process and instance are the bundle's, and the file tells two
 * profiles of one model apart. Enter opens the
 * device profile's timeline over the list; q comes back. The list is
 * small: the generic list filters and sorts it. */
#include "config.h"

#include "tui/device_view.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tui/draw.h"
#include "tui/list.h"
#include "model/devqueue.h"
#include "model/report/report.h"
#include "model/timefmt.h"
#include "tui/timeline/timeline.h"

enum { DC_NC, DC_FILE, DC_STATE, DC_MODEL, DC_MODEL_ID, DC_INSTANCE,
       DC_PROCESS, DC_EVENTS, DC_DURATION, DC_COUNT };

static const struct list_col cols[DC_COUNT] = {
	[DC_NC] = { "NC", 3, 1, 0 },
	[DC_FILE] = { "File", 40, 0, 1 },
	[DC_STATE] = { "State", 13, 0, 0 },
	[DC_MODEL] = { "Model", 16, 0, 0 },
	[DC_MODEL_ID] = { "Model id", 16, 0, 0 },
	[DC_INSTANCE] = { "Instance", 19, 0, 0 },
	[DC_PROCESS] = { "Process", 8, 1, 0 },
	[DC_EVENTS] = { "Events", 10, 1, 0 },
	[DC_DURATION] = { "Duration", 11, 1, 0 },
};

struct devices {
	struct list list;
	struct model *m;
	struct mprofile sys;
	struct mdevice *d;
	size_t n;
	uint64_t seen;		/* the import queue's changes read */
};

/* File names of NEFFs that say nothing about the model. */
static int generic(const char *s, size_t n)
{
	static const char *const names[] = { "graph", "model", "file", "neff",
					     "compiled", "output", "out" };

	for (size_t i = 0; i < NX_ARRAY_SIZE(names); i++)
		if (strlen(names[i]) == n && !strncmp(s, names[i], n))
			return 1;
	return 0;
}

/* The model's name from its NEFF path: the file name without ".neff",
 * or when that is generic the nearest folder that is not
 * ("/home/ubuntu/bert-large/compiled/graph.neff": "bert-large"). */
static char *neff_name(const char *path)
{
	const char *end = path + strlen(path);

	if (end - path > 5 && !strcmp(end - 5, ".neff"))
		end -= 5;
	while (end > path) {
		const char *b = end;

		while (b > path && b[-1] != '/')
			b--;
		if (b < end && !generic(b, (size_t)(end - b)))
			return xstrndup(b, (size_t)(end - b));
		end = b > path ? b - 1 : path;
	}
	return NULL;
}

char *device_label(const struct mdevice *d)
{
	char *name = d->neff ? neff_name(d->neff) : NULL;
	struct strbuf sb;

	sb_init(&sb);
	sb_adds(&sb, name ? name : d->model ? d->model :
		     d->name ? d->name : "device");
	if (d->nc_idx >= 0)
		sb_printf(&sb, " nc%" PRId64, d->nc_idx);
	/* the file: two processes may run one model on one core */
	if (d->path)
		sb_printf(&sb, " (%s)", d->path);
	free(name);
	return sb_detach(&sb);
}

/* The Model cell: the NEFF's name, else the profile's once it is read.
 * Until then (queued, importing, missing, failed) the name is only its
 * file's or folder's, which the File cell says: the name it will have
 * comes from its header. */
static const char *model_cell(const struct mdevice *d, const char *neff)
{
	if (neff)
		return neff;
	if (!d->name || (d->state && strcmp(d->state, "ready")))
		return "";
	return d->name;
}

/* Its state as the list shows it: "ready", "queued", "importing" (with
 * its percentage in *pct), "missing", "failed". */
static const char *device_live_state(struct model *m,
				     const struct mdevice *d, int *pct)
{
	struct devqueue *q = model_devqueue(m);

	*pct = 0;
	if (q && d->state && !strcmp(d->state, "queued") &&
	    devq_state(q, d->profile, pct) == DQ_IMPORTING)
		return "importing";
	return d->state ? d->state : "";
}

static void device_state(struct model *m, const struct mdevice *d,
			 struct strbuf *out)
{
	int pct;
	const char *st = device_live_state(m, d, &pct);

	if (!strcmp(st, "importing"))
		sb_printf(out, "importing %d%%", pct);
	else
		sb_adds(out, st);
}

/* A device profile imported meanwhile: the list reads its row again. */
static void devices_reload(struct list *l)
{
	struct devices *ds = (struct devices *)l;
	struct devqueue *q = model_devqueue(ds->m);
	struct mdevice *d;
	size_t n;

	if (!q || devq_changes(q) == ds->seen)
		return;
	ds->seen = devq_changes(q);
	if (model_devices(ds->m, ds->sys.id, &d, &n))
		return;
	model_devices_free(ds->d, ds->n);
	ds->d = d;
	ds->n = n;
	list_changed(l);
	list_fit_cols(l);
}

static size_t devices_count(struct list *l)
{
	return ((struct devices *)l)->n;
}

static void devices_line(struct list *l, size_t i, struct list_line *out)
{
	struct devices *ds = (struct devices *)l;
	const struct mdevice *d = &ds->d[i];
	char *name = d->neff ? neff_name(d->neff) : NULL;
	char b[48];

	if (d->nc_idx >= 0)
		sb_printf(&out->cells[DC_NC], "%" PRId64, d->nc_idx);
	out->keys[DC_NC] = (double)d->nc_idx;
	sb_adds(&out->cells[DC_MODEL], model_cell(d, name));
	sb_adds(&out->cells[DC_MODEL_ID], d->model ? d->model : "");
	sb_adds(&out->cells[DC_INSTANCE], d->instance_id ? d->instance_id : "");
	sb_adds(&out->cells[DC_PROCESS], d->process_id ? d->process_id : "");
	sb_printf(&out->cells[DC_EVENTS], "%" PRId64, d->n_events);
	out->keys[DC_EVENTS] = (double)d->n_events;
	timefmt_dur(b, sizeof(b), d->duration, 3, draw_tf());
	sb_adds(&out->cells[DC_DURATION], b);
	out->keys[DC_DURATION] = (double)d->duration;
	device_state(ds->m, d, &out->cells[DC_STATE]);
	sb_adds(&out->cells[DC_FILE], d->path ? d->path : "");
	if (d->state && strcmp(d->state, "ready"))
		out->style = S_DIM;
	free(name);
}

static int devices_enter(struct list *l, size_t i)
{
	struct devices *ds = (struct devices *)l;
	struct view *v = timeline_open_device(ds->m, ds->d[i].profile, 0);

	if (!v)
		return -1;
	tui_push(l->view.tui, v);
	return 0;
}

static const char *devices_export_name(struct list *l)
{
	(void)l;
	return "devices";
}

static int devices_export(struct list *l, enum out_format fmt, FILE *f)
{
	struct devices *ds = (struct devices *)l;

	export_devices(ds->d, ds->n, &ds->sys, fmt, f);
	return 0;
}

static void devices_header(struct list *l, struct strbuf *out)
{
	static const char *const states[] = { "ready", "importing", "queued",
					      "missing", "failed" };
	struct devices *ds = (struct devices *)l;
	const char *sep = ": ";

	sb_printf(out, "%zu device profile%s", ds->n, ds->n == 1 ? "" : "s");
	for (size_t k = 0; k < NX_ARRAY_SIZE(states); k++) {
		size_t n = 0;

		for (size_t i = 0; i < ds->n; i++) {
			int pct;

			n += !strcmp(device_live_state(ds->m, &ds->d[i], &pct),
				     states[k]);
		}
		if (n && n < ds->n) {
			sb_printf(out, "%s%zu %s", sep, n, states[k]);
			sep = ", ";
		}
	}
}

static void devices_free(struct list *l)
{
	struct devices *ds = (struct devices *)l;

	model_devices_free(ds->d, ds->n);
	model_profile_clear(&ds->sys);
	free(ds);
}

static const struct list_ops devices_ops = {
	.count = devices_count,
	.line = devices_line,
	.enter = devices_enter,
	.export_name = devices_export_name,
	.export = devices_export,
	.header = devices_header,
	.reload = devices_reload,
	.free = devices_free,
};

static const struct view_ops devices_vops = LIST_VIEW_OPS("devices", KM_LIST,
	"? help  j/k move  Enter open  / filter  o/O sort  e/E export  q back",
	list_cmds);

struct view *device_view_open(struct model *m, int64_t sys)
{
	struct devices *ds = xcalloc(1, sizeof(*ds));
	int rc = model_profile(m, sys, &ds->sys);

	ds->m = m;
	if (rc > 0)
		err_set("%s: no profile %" PRId64, model_path(m), sys);
	if (rc || model_devices(m, sys, &ds->d, &ds->n)) {
		model_profile_clear(&ds->sys);
		free(ds);
		return NULL;
	}
	list_init(&ds->list, &devices_vops, &devices_ops, LIST_SMALL,
		  "devices");
	list_set_cols(&ds->list, cols, DC_COUNT);
	list_fit_cols(&ds->list);
	return &ds->list.view;
}
