#include "config.h"

#include "model/drill.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "model/util.h"


/* A system event as drilldown needs it. */
struct ev {
	int64_t slice, ts, dur, profile;
	char *name, *devprof, *model_id, *model_name, *instance, *process;
	int64_t nc, lnc, core;	/* -1: absent */
};

static void ev_free(struct ev *e)
{
	free(e->name);
	free(e->devprof);
	free(e->model_id);
	free(e->model_name);
	free(e->instance);
	free(e->process);
	memset(e, 0, sizeof(*e));
}

static char *col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s && *s ? xstrdup((const char *)s) : NULL;
}

static int64_t col_opt(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? -1 :
							   sqlite3_column_int64(st, i);
}

/* 0: loaded; 1: not a system event. */
static int ev_load(struct model *m, int64_t slice, struct ev *e)
{
	sqlite3_stmt *st;
	int rc = 1;

	memset(e, 0, sizeof(*e));
	if (sqlite3_prepare_v2(model_db(m),
			       "SELECT s.ts, s.dur, t.profile_id, n.str, dp.str,"
			       " e.model_id, mn.str, i.str, p.str, e.nc_idx,"
			       " e.lnc_idx, e.device_core_idx FROM slice s"
			       " JOIN track t ON t.id = s.track_id"
			       " JOIN sys_event e ON e.slice_id = s.id"
			       " LEFT JOIN string n ON n.id = s.name"
			       " LEFT JOIN string dp ON dp.id = e.device_profile"
			       " LEFT JOIN string mn ON mn.id = e.model_name"
			       " LEFT JOIN string i ON i.id = e.instance_id"
			       " LEFT JOIN string p ON p.id = e.process_id"
			       " WHERE s.id = ?", -1, &st, NULL) != SQLITE_OK)
		return model_fail(m, "drilldown");
	sqlite3_bind_int64(st, 1, slice);
	if (sqlite3_step(st) == SQLITE_ROW) {
		e->slice = slice;
		e->ts = sqlite3_column_int64(st, 0);
		e->dur = sqlite3_column_int64(st, 1);
		e->profile = sqlite3_column_int64(st, 2);
		e->name = col_dup(st, 3);
		e->devprof = col_dup(st, 4);
		e->model_id = col_dup(st, 5);
		e->model_name = col_dup(st, 6);
		e->instance = col_dup(st, 7);
		e->process = col_dup(st, 8);
		e->nc = col_opt(st, 9);
		e->lnc = col_opt(st, 10);
		e->core = col_opt(st, 11);
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

static int64_t ev_core(const struct ev *e)
{
	return e->lnc >= 0 ? e->lnc : e->nc;
}

/* Tracks of kind in the system profile that share the event's instance,
 * process and NeuronCore (as far as the event names them). */
static int tracks_like(struct model *m, const struct ev *e, const char *kind,
		       int64_t **ids, size_t *n)
{
	sqlite3_stmt *st;

	*ids = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(model_db(m),
			       "SELECT id FROM track WHERE profile_id = ?1 AND"
			       " kind = ?2 AND json_valid(args) AND"
			       " (?3 IS NULL OR json_extract(args, '$.instance_id') = ?3)"
			       " AND (?4 IS NULL OR json_extract(args, '$.process_id') = ?4)"
			       " AND (?5 < 0 OR coalesce(json_extract(args, '$.lnc_idx'),"
			       " json_extract(args, '$.nc_idx')) = ?5) ORDER BY sort_key",
			       -1, &st, NULL) != SQLITE_OK)
		return model_fail(m, "drilldown");
	sqlite3_bind_int64(st, 1, e->profile);
	sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
	if (e->instance)
		sqlite3_bind_text(st, 3, e->instance, -1, SQLITE_STATIC);
	if (e->process)
		sqlite3_bind_text(st, 4, e->process, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, ev_core(e));
	while (sqlite3_step(st) == SQLITE_ROW) {
		*ids = xreallocarray(*ids, *n + 1, sizeof(**ids));
		(*ids)[(*n)++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	return 0;
}

/* Deepest nesting level of a track's events; 0 if unknown. */
static int64_t max_depth(struct model *m, int64_t track)
{
	sqlite3_stmt *st;
	int64_t d = 0;

	if (sqlite3_prepare_v2(model_db(m), "SELECT max_depth FROM track"
			       " WHERE id = ?", -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_int64(st, 1, track);
	if (sqlite3_step(st) == SQLITE_ROW)
		d = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return d;
}

/* The first event named name on track starting in [lo, hi] (dir > 0),
 * or the last one starting at or before hi (dir < 0). Read depth by
 * depth, in the order of the index on (track_id, depth, ts), so the
 * search stops at the nearest match instead of sorting the track. */
static int64_t find_named(struct model *m, int64_t track, const char *name,
			  int64_t lo, int64_t hi, int dir)
{
	int64_t *ids, found = 0, found_ts = 0, depths = max_depth(m, track);
	size_t n;
	sqlite3_stmt *st;

	if (model_string_ids(m, name, &ids, &n))
		return 0;
	if (sqlite3_prepare_v2(model_db(m), dir > 0 ?
			       "SELECT id, ts FROM slice WHERE track_id = ? AND"
			       " depth = ? AND ts >= ? AND ts <= ? AND name = ?"
			       " ORDER BY ts LIMIT 1" :
			       "SELECT id, ts FROM slice WHERE track_id = ? AND"
			       " depth = ? AND ts >= ? AND ts <= ? AND name = ?"
			       " ORDER BY ts DESC LIMIT 1", -1, &st, NULL) != SQLITE_OK) {
		free(ids);
		return 0;
	}
	for (int64_t d = 0; d <= depths; d++) {
		for (size_t i = 0; i < n; i++) {
			sqlite3_bind_int64(st, 1, track);
			sqlite3_bind_int64(st, 2, d);
			sqlite3_bind_int64(st, 3, lo);
			sqlite3_bind_int64(st, 4, hi);
			sqlite3_bind_int64(st, 5, ids[i]);
			if (sqlite3_step(st) == SQLITE_ROW) {
				int64_t ts = sqlite3_column_int64(st, 1);

				if (!found || (dir > 0 ? ts < found_ts :
							 ts > found_ts)) {
					found = sqlite3_column_int64(st, 0);
					found_ts = ts;
				}
			}
			sqlite3_reset(st);
		}
	}
	sqlite3_finalize(st);
	free(ids);
	return found;
}

/* The nrt_execute an event without model fields runs in. */
static int enclosing_execute(struct model *m, const struct ev *e,
			     struct ev *out)
{
	int64_t *tracks;
	size_t n;
	int rc = 1;

	if (tracks_like(m, e, "nrt", &tracks, &n))
		return -1;
	for (size_t i = 0; i < n && rc == 1; i++) {
		int64_t id = find_named(m, tracks[i], "nrt_execute", INT64_MIN,
					e->ts, -1);

		if (id && id != e->slice && !ev_load(m, id, out)) {
			if (out->ts + out->dur >= e->ts + e->dur)
				rc = 0;
			else
				ev_free(out);
		}
	}
	free(tracks);
	return rc;
}

/* A file name without folders and extensions: device_profile args name
 * .pftrace or .json files, the bundle's rows name .json files. */
static char *stem(const char *s)
{
	static const char *const ext[] = { ".json.gz", ".json", ".pftrace" };
	const char *b = strrchr(s, '/');
	size_t n;

	b = b ? b + 1 : s;
	n = strlen(b);
	for (size_t i = 0; i < NX_ARRAY_SIZE(ext); i++) {
		size_t k = strlen(ext[i]);

		if (n > k && !strcmp(b + n - k, ext[i])) {
			n -= k;
			break;
		}
	}
	return xstrndup(b, n);
}

static int same_stem(const char *a, const char *b)
{
	char *x = stem(a), *y = stem(b);
	int eq = !strcmp(x, y);

	free(x);
	free(y);
	return eq;
}

static int is_named(const struct ev *e, const char *name)
{
	return e->name && !strcmp(e->name, name);
}

/* An execution of a model on a NeuronCore. */
static int is_exec(const struct ev *e)
{
	return is_named(e, "nrt_execute") || is_named(e, "nc_exec_running");
}

/* An instance, process or NeuronCore both sides know: adds hit to *s
 * if they agree, else takes miss off when the event names the file.
 * -1: they disagree and it does not (another device profile). */
static int agree(int *s, int eq, int by_file, int hit, int miss)
{
	if (!eq && !by_file)
		return -1;
	*s += eq ? hit : -miss;
	return 0;
}

/* How well device d fits event e; < 0: it does not. by_file: e's
 * device_profile names one of the bundle's files. */
static int score(const struct ev *e, const struct mdevice *d, int by_file)
{
	int s = 0, named = 0;

	if (by_file && d->path) {
		if (!same_stem(e->devprof, d->path))
			return -1;
		s += 1000;
		named = 1;
	}
	if (e->model_id && d->model) {
		if (strcmp(e->model_id, d->model))
			return -1;
		s += 100;
		named = 1;
	}
	if (e->model_name && d->neff) {
		/* the same NEFF path, or at least the same file name */
		int eq = strchr(e->model_name, '/') && strchr(d->neff, '/') ?
			 !strcmp(e->model_name, d->neff) :
			 same_stem(e->model_name, d->neff);

		if (eq) {
			s += 50;
			named = 1;
		} else if (!named) {
			return -1;
		} else {
			s -= 20;
		}
	}
	/* an execution without model fields still names its NeuronCore */
	if (!named && !is_exec(e))
		return -1;
	/* a device profile is one NeuronCore of one process of one
	 * instance, as the bundle says */
	if (d->nc_idx >= 0 && (e->lnc >= 0 || e->nc >= 0 || e->core >= 0)) {
		if (agree(&s, d->nc_idx == e->lnc || d->nc_idx == e->nc ||
			  d->nc_idx == e->core, by_file, 10, 5))
			return -1;
	} else if (!named) {
		return -1;
	}
	if (e->instance && d->instance_id &&
	    agree(&s, !strcmp(e->instance, d->instance_id), by_file, 5, 3))
		return -1;
	if (e->process && d->process_id &&
	    agree(&s, !strcmp(e->process, d->process_id), by_file, 2, 1))
		return -1;
	if (d->state && !strcmp(d->state, "ready"))
		s += 1;
	return s < 0 ? 0 : s;
}

int model_devices(struct model *m, int64_t system, struct mdevice **out,
		  size_t *n)
{
	sqlite3_stmt *st;

	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(model_db(m),
			       "SELECT id, name, path, model, instance_id,"
			       " process_id, state, nc_idx, (SELECT"
			       " coalesce(sum(n_events), 0) FROM track t WHERE"
			       " t.profile_id = p.id AND t.kind != 'counter'),"
			       " coalesce(end_ns - start_ns, 0), (SELECT value"
			       " FROM info i WHERE i.profile_id = p.id AND"
			       " ((section = 'neff_header' AND key = 'network_name')"
			       " OR (section = 'profile_info' AND key = 'neff_name'))"
			       " ORDER BY section LIMIT 1) FROM profile p"
			       " WHERE parent_id = ? AND kind = 'device'"
			       " ORDER BY nc_idx IS NULL, nc_idx, model, path, id",
			       -1, &st, NULL) != SQLITE_OK)
		return model_fail(m, "device list");
	sqlite3_bind_int64(st, 1, system);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct mdevice *d;

		*out = xreallocarray(*out, *n + 1, sizeof(**out));
		d = &(*out)[(*n)++];
		d->profile = sqlite3_column_int64(st, 0);
		d->name = col_dup(st, 1);
		d->path = col_dup(st, 2);
		d->model = col_dup(st, 3);
		d->instance_id = col_dup(st, 4);
		d->process_id = col_dup(st, 5);
		d->state = col_dup(st, 6);
		d->nc_idx = col_opt(st, 7);
		d->n_events = sqlite3_column_int64(st, 8);
		d->duration = sqlite3_column_int64(st, 9);
		d->neff = col_dup(st, 10);
	}
	sqlite3_finalize(st);
	return 0;
}

void model_devices_free(struct mdevice *d, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(d[i].name);
		free(d[i].path);
		free(d[i].model);
		free(d[i].instance_id);
		free(d[i].process_id);
		free(d[i].state);
		free(d[i].neff);
	}
	free(d);
}

/* The best device for a loaded event. */
static int device_for(struct model *m, const struct ev *e, int64_t *device)
{
	struct mdevice *d;
	size_t n;
	int best = -1, by_file = 0;

	if (model_devices(m, e->profile, &d, &n))
		return -1;
	/* a device_profile that names none of the files (a .pftrace of
	 * another naming) says nothing */
	for (size_t i = 0; i < n && e->devprof && !by_file; i++)
		by_file = d[i].path && same_stem(e->devprof, d[i].path);
	for (size_t i = 0; i < n; i++) {
		int s = score(e, &d[i], by_file);

		if (s > best) {
			best = s;
			*device = d[i].profile;
		}
	}
	model_devices_free(d, n);
	return best >= 0 ? 0 : 1;
}

int model_device_for_slice(struct model *m, int64_t slice, int64_t *device)
{
	struct ev e, x;
	int rc;

	rc = ev_load(m, slice, &e);
	if (rc)
		return rc;
	if (!e.devprof && !e.model_id) {
		/* a kbl_exec_* or nc_exec_running: its nrt_execute says */
		rc = enclosing_execute(m, &e, &x);
		if (rc < 0) {
			ev_free(&e);
			return -1;
		}
		if (!rc) {
			e.devprof = x.devprof;
			e.model_id = x.model_id;
			if (!e.model_name) {
				e.model_name = x.model_name;
				x.model_name = NULL;
			}
			x.devprof = x.model_id = NULL;
			ev_free(&x);
		}
	}
	rc = device_for(m, &e, device);
	ev_free(&e);
	return rc;
}

static void set_align(struct malign *out, const struct ev *x,
		      const struct mprofile *dev)
{
	out->exec_slice = x->slice;
	out->exec_ts = x->ts;
	out->exec_dur = x->dur;
	out->offset = x->ts - dev->start;
}

/* The nc_exec_running an nrt_execute (or any slice) holds, if any. */
static int64_t exec_in(struct model *m, const struct ev *e)
{
	int64_t *tracks, found = 0;
	size_t n;

	if (tracks_like(m, e, "hw", &tracks, &n))
		return 0;
	for (size_t i = 0; i < n && !found; i++)
		found = find_named(m, tracks[i], "nc_exec_running", e->ts,
				   e->ts + e->dur, 1);
	free(tracks);
	return found;
}

/* The earliest execution in the system profile that drills into dev. */
static int first_exec(struct model *m, const struct mprofile *dev,
		      int64_t *slice)
{
	static const char *const names[] = { "nc_exec_running", "nrt_execute" };
	static const char *const kinds[] = { "hw", "nrt" };
	struct ev any;
	int64_t best_ts = 0;

	*slice = 0;
	memset(&any, 0, sizeof(any));
	any.profile = dev->parent_id;
	any.nc = any.lnc = any.core = -1;
	for (int k = 0; k < 2 && !*slice; k++) {
		int64_t *tracks, *ids;
		size_t n, nids;
		sqlite3_stmt *st;

		if (tracks_like(m, &any, kinds[k], &tracks, &n))
			return -1;
		if (model_string_ids(m, names[k], &ids, &nids) ||
		    sqlite3_prepare_v2(model_db(m), "SELECT id, ts FROM slice"
				       " WHERE track_id = ? AND depth = ? AND"
				       " name = ?"
				       /* executions scanned per row and depth,
					* in the index's order */
				       " ORDER BY ts LIMIT 256",
				       -1, &st, NULL) != SQLITE_OK) {
			free(tracks);
			free(ids);
			return -1;
		}
		for (size_t t = 0; t < n; t++) {
			int64_t depths = max_depth(m, tracks[t]);

			for (size_t i = 0; i < nids * (size_t)(depths + 1); i++) {
				sqlite3_bind_int64(st, 1, tracks[t]);
				sqlite3_bind_int64(st, 2, (int64_t)(i / nids));
				sqlite3_bind_int64(st, 3, ids[i % nids]);
				while (sqlite3_step(st) == SQLITE_ROW) {
					int64_t id = sqlite3_column_int64(st, 0);
					int64_t ts = sqlite3_column_int64(st, 1);
					int64_t d;

					if (*slice && ts >= best_ts)
						break;
					if (!model_device_for_slice(m, id, &d) &&
					    d == dev->id) {
						*slice = id;
						best_ts = ts;
						break;
					}
				}
				sqlite3_reset(st);
			}
		}
		sqlite3_finalize(st);
		free(tracks);
		free(ids);
	}
	return *slice ? 0 : 1;
}

int model_device_align(struct model *m, int64_t device, int64_t slice,
		       struct malign *out)
{
	struct mprofile dev;
	struct ev e, x, run;
	int64_t exec = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = model_profile(m, device, &dev);
	if (rc)
		return rc;
	if (!slice && (rc = first_exec(m, &dev, &slice))) {
		model_profile_clear(&dev);
		return rc;
	}
	rc = ev_load(m, slice, &e);
	if (rc) {
		model_profile_clear(&dev);
		return rc;
	}
	if (is_named(&e, "nc_exec_running")) {
		set_align(out, &e, &dev);
	} else {
		/* a call inside an execution: the execution's nrt_execute */
		const struct ev *outer = &e;

		if (!is_named(&e, "nrt_execute") &&
		    !enclosing_execute(m, &e, &run))
			outer = &run;
		exec = exec_in(m, outer);
		if (exec && !ev_load(m, exec, &x)) {
			set_align(out, &x, &dev);
			ev_free(&x);
		} else {
			set_align(out, outer, &dev);
		}
		if (outer == &run)
			ev_free(&run);
	}
	ev_free(&e);
	model_profile_clear(&dev);
	return 0;
}

int model_device_failure(struct model *m, const struct mprofile *p,
			 char **why)
{
	/* the warning src/import/bundle.c writes for a device file that failed */
	char *head = xasprintf("device profile %s was not imported: ",
			       p->path ? p->path : "");
	sqlite3_stmt *st;
	int rc = 1;

	*why = NULL;
	if (sqlite3_prepare_v2(model_db(m),
			       "SELECT substr(message, length(?2) + 1) FROM warning"
			       " WHERE profile_id = ?1 AND category = 'Device profile'"
			       " AND substr(message, 1, length(?2)) = ?2 LIMIT 1",
			       -1, &st, NULL) != SQLITE_OK) {
		free(head);
		return model_fail(m, "device profile warnings");
	}
	sqlite3_bind_int64(st, 1, p->parent_id);
	sqlite3_bind_text(st, 2, head, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*why = col_dup(st, 0);
		rc = *why ? 0 : 1;
	}
	sqlite3_finalize(st);
	free(head);
	return rc;
}
