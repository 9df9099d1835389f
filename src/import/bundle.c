#include "config.h"

#include "src/import/bundle.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "model/cache/cache.h"
#include "model/file.h"
#include "model/text.h"
#include "model/util.h"
#include "src/import/sysfilter.h"

/* Each part cache's ids start at (index + 1) << PART_SHIFT. */
#define PART_SHIFT 40
#define MAX_FILES 4096

/* The system profile's names, in the order they are looked for. */
static const char *const system_names[] = {
	"system_profile.json", "system_profile.json.gz", "profile.json",
	"profile.json.gz",
};

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static int is_json_name(const char *name)
{
	return has_suffix(name, ".json") || has_suffix(name, ".json.gz");
}

/* The name without ".json", ".json.gz" or a Parquet folder's "@latest"
 * (malloc'd). */
static char *stem(const char *name)
{
	size_t n = strlen(name);

	if (has_suffix(name, ".json.gz"))
		n -= 8;
	else if (has_suffix(name, ".json"))
		n -= 5;
	else if (has_suffix(name, "@latest"))
		n -= 7;
	return xstrndup(name, n);
}

/* What a device file's name says about it. */
struct devname {
	char *instance_id, *process_id, *model_id;
	int64_t nc_idx;
};

static void devname_free(struct devname *d)
{
	free(d->instance_id);
	free(d->process_id);
	free(d->model_id);
	memset(d, 0, sizeof(*d));
	d->nc_idx = -1;
}

/* Digits at s (at most 19); their count, 0 if none. */
static size_t digits(const char *s, int64_t *v)
{
	size_t n = 0;

	while (s[n] >= '0' && s[n] <= '9' && n < 19)
		n++;
	if (n && parse_i64(s, n, v))
		return 0;
	return n;
}

/* device_profile_model_<id> or i-<instance>_pid_<pid>_nc_<N>_<what>:
 * 1 if the name is one of these. */
static int parse_devname(const char *name, struct devname *d)
{
	char *s = stem(name);
	const char *p;
	int64_t v;
	size_t n;
	int ok = 0;

	devname_free(d);
	if (!strncmp(s, "device_profile_model_", 21) && s[21]) {
		d->model_id = xstrdup(s + 21);
		ok = 1;
	} else if (!strncmp(s, "i-", 2) && (p = strstr(s, "_pid_"))) {
		const char *pid = p + 5;

		if ((n = digits(pid, &v)) && !strncmp(pid + n, "_nc_", 4) &&
		    digits(pid + n + 4, &d->nc_idx)) {
			const char *rest = pid + n + 4;

			rest += digits(rest, &v);
			d->instance_id = xstrndup(s, (size_t)(p - s));
			d->process_id = xstrndup(pid, n);
			if (!strncmp(rest, "_model_", 7) && rest[7])
				d->model_id = xstrdup(rest + 7);
			ok = 1;
		}
	}
	if (!ok)
		devname_free(d);
	free(s);
	return ok;
}

/* A file name from a profile, resolved inside the folder. 0: *path is
 * the file's real path; 1: no such file; -1: refused, *why says so.
 * want_dir: a folder (a Parquet device profile) rather than a file. */
static int resolve_as(int dirfd, const char *dir_real, const char *name,
		      int want_dir, char **path, const char **why)
{
	struct stat sb;
	char *full, real[PATH_MAX];
	size_t dl = strlen(dir_real);

	*path = NULL;
	if (!*name || strchr(name, '/') || !strcmp(name, ".") ||
	    !strcmp(name, "..") || strlen(name) >= NAME_MAX) {
		*why = "not a file name in the folder";
		return -1;
	}
	for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
		if (*c < 0x20 || *c == 0x7f) {
			*why = "has control characters";
			return -1;
		}
	}
	if (fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW))
		return 1;
	full = xasprintf("%s/%s", dir_real, name);
	if (!realpath(full, real)) {
		free(full);
		return 1;	/* a dangling link */
	}
	free(full);
	/* a link may point at another file of the folder, not out of it */
	if (strncmp(real, dir_real, dl) || (real[dl] != '/' && dl != 1) ||
	    strchr(real + dl + 1, '/')) {
		*why = "a link to outside the folder";
		return -1;
	}
	if (stat(real, &sb) || (want_dir ? !S_ISDIR(sb.st_mode) :
				!S_ISREG(sb.st_mode))) {
		*why = want_dir ? "not a folder" : "not a regular file";
		return -1;
	}
	*path = xstrdup(real);
	return 0;
}

static int resolve(int dirfd, const char *dir_real, const char *name,
		   char **path, const char **why)
{
	return resolve_as(dirfd, dir_real, name, 0, path, why);
}

char *bundle_device_folder(const char *dir, const char *name)
{
	char dir_real[PATH_MAX], *file = xasprintf("%s@latest", name);
	char *path = NULL;
	const char *why;
	int dirfd;

	if (realpath(dir, dir_real) &&
	    (dirfd = open(dir_real, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		resolve_as(dirfd, dir_real, file, 1, &path, &why);
		close(dirfd);
	}
	free(file);
	return path;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names in the folder, sorted. */
static char **list_dir(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d)) && *n < MAX_FILES) {
		if (e->d_name[0] == '.')
			continue;
		v = xreallocarray(v, *n + 1, sizeof(*v));
		v[(*n)++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), cmp_str);
	return v;
}

static void free_list(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int bundle_takes_name(const char *name)
{
	struct devname dn = { .nc_idx = -1 };
	int yes;

	for (size_t i = 0; i < NX_ARRAY_SIZE(system_names); i++)
		if (!strcmp(name, system_names[i]))
			return 1;
	yes = is_json_name(name) && parse_devname(name, &dn);
	devname_free(&dn);
	return yes;
}

int bundle_find_system(const char *dir, char **path)
{
	char dir_real[PATH_MAX], **names;
	struct devname dn = { .nc_idx = -1 };
	struct strbuf found, json;
	size_t n, nfound = 0;
	const char *why;
	char *p = NULL, *first = NULL;
	int dirfd, rc = -1;

	*path = NULL;
	if (!realpath(dir, dir_real) ||
	    (dirfd = open(dir_real, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		err_set("%s: %s", dir, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < NX_ARRAY_SIZE(system_names); i++) {
		if (!resolve(dirfd, dir_real, system_names[i], path, &why)) {
			close(dirfd);
			return 0;
		}
	}
	sb_init(&found);
	sb_init(&json);
	names = list_dir(dir_real, &n);
	for (size_t i = 0; i < n; i++) {
		if (is_json_name(names[i]) && json.len < 200)
			sb_printf(&json, "%s%s", json.len ? ", " : "", names[i]);
		if (!is_json_name(names[i]) || parse_devname(names[i], &dn) ||
		    !import_is_system_json(dirfd, names[i], O_NOFOLLOW) ||
		    resolve(dirfd, dir_real, names[i], &p, &why))
			continue;
		sb_printf(&found, "%s%s", nfound ? ", " : "", names[i]);
		if (!nfound++)
			first = p;
		else
			free(p);
	}
	devname_free(&dn);
	if (nfound == 1) {
		*path = first;
		rc = 0;
	} else if (nfound > 1) {
		err_set("%s: several system profiles (%s); open one of them",
			dir, sb_cstr(&found));
		free(first);
	} else if (!json.len) {
		err_set("%s: a folder with nothing nxtop reads (expected a"
			" bundle with system_profile.json from neuron-profile"
			" view -d or neuron-explorer view --output-format json,"
			" or a device profile folder with Instruction.parquet,"
			" or a system profile folder with"
			" SystemProfileEvents.parquet)",
			dir);
	} else {
		err_set("%s: no system profile in this folder; open one of its"
			" files instead: %s", dir, sb_cstr(&json));
	}
	sb_free(&found);
	sb_free(&json);
	free_list(names, n);
	close(dirfd);
	return rc;
}

/* One device profile to import. */
struct devjob {
	char *file;		/* name in the folder */
	char *path;		/* its real path, NULL when missing */
	struct devname dn;	/* what the list entry and the name say */
	int listed;		/* a list entry named it */
	int64_t *ncs;		/* the NeuronCores the list's entries give */
	size_t nncs;
	char *part;		/* the part cache */
	int64_t profile;	/* in the part */
	int rc;
	int changed;		/* the file changed while it was read */
	int broken;		/* it failed writing the cache (a full disk),
				 * not reading the file */
	char *error;
	/* how far its import is, under the pool's lock: percent of the
	 * file read (100 once done), events written */
	int pct;
	uint64_t events;
};

struct pool {
	struct devjob *jobs;
	size_t *todo;		/* indexes of the jobs with a file */
	size_t njobs, next, done;
	const struct import_opts *o;
	const char *tmp;	/* the cache's temporary file */
	int folders;		/* Parquet device profile folders */
	int64_t parent;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

static void set_col(struct writer *w, int64_t p, const char *col,
		    const char *v)
{
	if (v)
		writer_profile_set(w, p, col, v);
}

/* A new part cache "<tmp>-XXXXXXXX": the random end keeps anyone who
 * sees the temporary file's name from planting its parts. */
static struct writer *part_open(const char *tmp, char **part)
{
	char *dir = file_dir(tmp), *prefix = xasprintf("%s-", strrchr(tmp, '/') ?
						      strrchr(tmp, '/') + 1 : tmp);
	int fd = file_new(dir, prefix, "", part);

	free(prefix);
	free(dir);
	if (fd < 0)
		return NULL;
	close(fd);
	return writer_open(*part);
}

/* Imports device file j into w, a part cache with id base from idx,
 * and finishes it; j->rc and j->error say how it went. */
static void import_part(struct writer *w, struct devjob *j, size_t idx,
			const struct import_opts *o, int64_t parent,
			int folders)
{
	struct import_result res;

	writer_set_id_base(w, (int64_t)(idx + 1) << PART_SHIFT);
	j->rc = folders ?
		import_file_as(w, j->path, j->file, o, parent, &res,
			       FMT_PARQUET_DEVICE) :
		import_file(w, j->path, j->file, o, parent, &res);
	if (!j->rc) {
		char buf[32];

		j->profile = res.profile;
		set_col(w, res.profile, "path", j->file);
		set_col(w, res.profile, "instance_id", j->dn.instance_id);
		set_col(w, res.profile, "process_id", j->dn.process_id);
		set_col(w, res.profile, "model", j->dn.model_id);
		/* the file itself says NeuronCore 0 whichever core it
		 * profiled: the bundle's list and the file's name know,
		 * and where they do not (or the list gives the file to
		 * several), it is not known */
		snprintf(buf, sizeof(buf), "%" PRId64, j->dn.nc_idx);
		writer_profile_set(w, res.profile, "nc_idx",
				   j->dn.nc_idx >= 0 ? buf : NULL);
		if (res.is_system) {
			j->rc = -1;
			err_set("%s: a system profile, not a device profile",
				j->file);
		}
		import_result_free(&res);
	}
	if (!j->rc) {
		j->rc = writer_finish(w);
		j->broken = j->rc != 0;
	} else {
		j->broken = writer_broken(w);
		writer_abort(w);
	}
	if (j->rc)
		j->error = xstrdup(err_get());
}

/* A job's progress, for the pool's line. */
struct job_at {
	struct pool *pl;
	struct devjob *j;
};

static void job_progress(void *ctx, const char *what, int pct,
			 uint64_t events)
{
	struct job_at *at = ctx;

	(void)what;
	pthread_mutex_lock(&at->pl->mu);
	at->j->pct = NX_MAX(at->j->pct, pct);
	at->j->events = NX_MAX(at->j->events, events);
	pthread_mutex_unlock(&at->pl->mu);
}

/* Imports one device file into its own part cache. */
static void run_job(struct pool *pl, size_t idx)
{
	struct devjob *j = &pl->jobs[idx];	/* its index makes its id base */
	struct import_opts o = *pl->o;
	struct job_at at = { pl, j };
	struct writer *w;
	struct import_mark before;
	int have = !import_mark(j->path, &before);

	/* one progress line, the bundle's: the job says how far it is */
	if (!o.quiet && o.progress.fn)
		o.progress = (struct import_progress){ job_progress, &at };
	w = part_open(pl->tmp, &j->part);
	if (!w) {
		j->rc = -1;
		j->broken = 1;
		j->error = xstrdup(err_get());
		return;
	}
	import_part(w, j, idx, &o, pl->parent, pl->folders);
	j->changed = have && import_changed(j->path, &before);
	if (j->rc)
		unlink(j->part);
}

static void *worker(void *arg)
{
	struct pool *pl = arg;

	for (;;) {
		size_t i;

		pthread_mutex_lock(&pl->mu);
		i = pl->next++;
		pthread_mutex_unlock(&pl->mu);
		if (i >= pl->njobs)
			return NULL;
		run_job(pl, pl->todo[i]);
		pthread_mutex_lock(&pl->mu);
		pl->jobs[pl->todo[i]].pct = 100;
		pl->done++;
		pthread_cond_broadcast(&pl->cv);
		pthread_mutex_unlock(&pl->mu);
	}
}

/* Runs the jobs on up to one worker per core. */
static void run_pool(struct pool *pl)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	size_t nthreads = (size_t)NX_MAX(1, NX_MIN(ncpu, 8));
	pthread_t th[8];
	size_t started = 0;

	nthreads = NX_MIN(nthreads, pl->njobs);
	for (size_t i = 0; i < nthreads; i++)
		if (!pthread_create(&th[started], NULL, worker, pl))
			started++;
	if (!started) {
		worker(pl);
		return;
	}
	pthread_mutex_lock(&pl->mu);
	while (pl->done < pl->njobs) {
		char what[96];
		uint64_t events = 0;
		int64_t sum = 0;

		snprintf(what, sizeof(what), "importing device profiles %zu/%zu",
			 pl->done, pl->njobs);
		/* each job's share: what it has read of its file */
		for (size_t i = 0; i < pl->njobs; i++) {
			sum += NX_MAX(pl->jobs[pl->todo[i]].pct, 0);
			events += pl->jobs[pl->todo[i]].events;
		}
		pthread_mutex_unlock(&pl->mu);
		import_show(pl->o, what, (int)(sum / (int64_t)pl->njobs),
			    events);
		pthread_mutex_lock(&pl->mu);
		if (pl->done < pl->njobs) {
			struct timespec ts;

			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 250000000;
			if (ts.tv_nsec >= 1000000000) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000;
			}
			pthread_cond_timedwait(&pl->cv, &pl->mu, &ts);
		}
	}
	pthread_mutex_unlock(&pl->mu);
	for (size_t i = 0; i < started; i++)
		pthread_join(th[i], NULL);
}

struct plan {
	const struct sysfilter *filter;	/* --filter-nc, --filter-instance */
	int folders;		/* the list names <name>@latest/ folders */
	struct devjob *jobs;
	size_t n;
	char **refused;		/* why files were ignored, for stderr */
	size_t nrefused;
};

static struct devjob *add_job(struct plan *pl, const char *file)
{
	struct devjob *j;

	for (size_t i = 0; i < pl->n; i++)
		if (!strcmp(pl->jobs[i].file, file))
			return &pl->jobs[i];
	pl->jobs = xreallocarray(pl->jobs, pl->n + 1, sizeof(*j));
	j = &pl->jobs[pl->n++];
	memset(j, 0, sizeof(*j));
	j->file = xstrdup(file);
	j->dn.nc_idx = -1;
	return j;
}

static void keep(char **dst, const char *src)
{
	if (src && !*dst)
		*dst = xstrdup(src);
}

static void refuse(struct writer *w, const struct import_result *sys,
		   struct plan *pl, const char *name, const char *why)
{
	char *msg = xasprintf("device profile \"%s\" ignored: %s", name, why);

	writer_warning(w, sys->profile, "bundle", "Device profile", msg);
	pl->refused = xreallocarray(pl->refused, pl->nrefused + 1,
				    sizeof(*pl->refused));
	pl->refused[pl->nrefused++] = msg;
}

/* The file or folder of a listed device profile; see resolve_as(). */
static int resolve_listed(int dirfd, const char *dir_real, const char *name,
			  const struct plan *pl, char **file, char **path,
			  const char **why)
{
	char *gz;
	int rc;

	if (pl->folders) {
		*file = xasprintf("%s@latest", name);
		return resolve_as(dirfd, dir_real, *file, 1, path, why);
	}
	*file = xasprintf("%s.json", name);
	rc = resolve(dirfd, dir_real, *file, path, why);
	gz = xasprintf("%s.json.gz", name);
	if (rc == 1 && !resolve(dirfd, dir_real, gz, path, why)) {
		free(*file);
		*file = gz;
		return 0;
	}
	free(gz);
	return rc;
}

/* The NeuronCore of a list entry naming job j. One file that several
 * entries give to several NeuronCores (one compiled model run on each)
 * is one device profile for all of them: its NeuronCore is not known
 * (every one's executions drill into it), and a warning says so. */
static void listed_nc(struct devjob *j, int64_t nc)
{
	if (nc < 0)
		return;
	for (size_t k = 0; k < j->nncs; k++)
		if (j->ncs[k] == nc)
			return;
	j->ncs = xreallocarray(j->ncs, j->nncs + 1, sizeof(*j->ncs));
	j->ncs[j->nncs++] = nc;
	if (j->nncs == 1 && j->dn.nc_idx < 0)
		j->dn.nc_idx = nc;
	else if (j->nncs > 1)
		j->dn.nc_idx = -1;
}

static void shared_warnings(struct writer *w, const struct import_result *sys,
			    const struct plan *pl)
{
	for (size_t i = 0; i < pl->n; i++) {
		const struct devjob *j = &pl->jobs[i];
		struct strbuf msg;

		if (j->nncs < 2)
			continue;
		sb_init(&msg);
		sb_printf(&msg, "device profile %s is listed for NeuronCores",
			  j->file);
		for (size_t k = 0; k < j->nncs; k++)
			sb_printf(&msg, "%s %" PRId64, k ? "," : "", j->ncs[k]);
		sb_adds(&msg, ": one device profile for all of them, their"
			" executions drill into it");
		writer_warning(w, sys->profile, "bundle", "Device profile",
			       sb_cstr(&msg));
		sb_free(&msg);
	}
}

/* Device files from the system profile's list (one job per file,
 * however many entries name it), then by their names. */
static void plan_jobs(struct writer *w, int dirfd, const char *dir_real,
		      const struct import_result *sys, struct plan *pl)
{
	char **names;
	size_t n;
	const char *why;

	for (size_t i = 0; i < sys->ndevices && pl->n < MAX_FILES; i++) {
		const struct devref *d = &sys->devices[i];
		char *file, *path = NULL;
		struct devjob *j;
		int rc = resolve_listed(dirfd, dir_real, d->name, pl, &file,
					&path, &why);

		if (rc < 0) {
			refuse(w, sys, pl, d->name, why);
		} else {
			j = add_job(pl, file);
			/* the first entry naming the file says what it is */
			if (!j->listed) {
				j->listed = 1;
				j->path = path;
				path = NULL;
				parse_devname(pl->folders ? d->name : file, &j->dn);
				keep(&j->dn.instance_id, d->instance_id);
				keep(&j->dn.process_id, d->process_id);
				keep(&j->dn.model_id, d->model_id);
			}
			listed_nc(j, d->nc_idx);
		}
		free(path);
		free(file);
	}
	shared_warnings(w, sys, pl);
	if (pl->folders)
		return;
	names = list_dir(dir_real, &n);
	for (size_t i = 0; i < n && pl->n < MAX_FILES; i++) {
		struct devname dn = { .nc_idx = -1 };
		char *path;
		struct devjob *j;

		if (!is_json_name(names[i]) || !parse_devname(names[i], &dn) ||
		    !sysfilter_nc(pl->filter, dn.nc_idx) ||
		    !sysfilter_instance(pl->filter, dn.instance_id)) {
			devname_free(&dn);
			continue;
		}
		if (resolve(dirfd, dir_real, names[i], &path, &why) < 0) {
			refuse(w, sys, pl, names[i], why);
		} else if (path) {
			j = add_job(pl, names[i]);
			if (!j->path) {
				j->path = path;
				j->dn = dn;
				dn.instance_id = dn.process_id = dn.model_id = NULL;
			} else {
				free(path);
			}
		}
		devname_free(&dn);
	}
	free_list(names, n);
}

static void missing_row(struct writer *w, const struct import_result *sys,
			const struct devjob *j, const char *state, int64_t id)
{
	char *name = stem(j->file);
	struct wprofile p = {
		.id = id, .kind = "device", .name = name,
		.format = has_suffix(j->file, "@latest") ? "neuron-parquet" :
							  "neuron-json",
		.path = j->file, .parent_id = sys->profile,
		.nc_idx = j->dn.nc_idx, .instance_id = j->dn.instance_id,
		.process_id = j->dn.process_id, .model = j->dn.model_id,
		.state = state,
	};

	writer_profile(w, &p);
	free(name);
}

static void report(const char *dir, const struct plan *pl)
{
	struct strbuf used_names;
	size_t used = 0;

	sb_init(&used_names);
	for (size_t i = 0; i < pl->n; i++) {
		if (pl->jobs[i].path && !pl->jobs[i].rc) {
			sb_printf(&used_names, " %s", pl->jobs[i].file);
			used++;
		}
	}
	if (used)
		err_note("%s: %zu device profile%s:%s", dir, used,
			 used == 1 ? "" : "s", sb_cstr(&used_names));
	sb_free(&used_names);
	for (size_t i = 0; i < pl->n; i++) {
		const struct devjob *j = &pl->jobs[i];

		if (!j->path)
			err_note("%s: missing device profile %s (listed in"
				 " device_profile_list)", dir, j->file);
		else if (j->rc)
			err_note("%s: device profile not imported: %s", dir,
				 j->error);
	}
	for (size_t i = 0; i < pl->nrefused; i++)
		err_note("%s: %s", dir, pl->refused[i]);
}

/* Listed but not there: a warning, a row in state "missing", and a
 * source whose arrival makes the cache stale. */
static void missing(struct writer *w, const struct import_result *sys,
		    const char *dir_real, const struct devjob *j)
{
	char *msg = xasprintf("device profile %s is listed in"
			      " device_profile_list but is not in the folder",
			      j->file);
	char *where = xasprintf("%s/%s", dir_real, j->file);

	writer_warning(w, sys->profile, "bundle", "Missing device profile", msg);
	writer_source(w, sys->profile, where, "device");
	missing_row(w, sys, j, "missing", 0);
	free(where);
	free(msg);
}

/* The parts that imported go to the writer, which merges them when it
 * finishes; the others become warnings and rows in state "failed". */
static void merge_parts(struct writer *w, const struct import_result *sys,
			struct plan *pl)
{
	for (size_t i = 0; i < pl->n; i++) {
		struct devjob *j = &pl->jobs[i];

		if (!j->path)
			continue;
		if (j->rc) {
			/* model_device_failure reads the reason back */
			char *msg = xasprintf("device profile %s was not imported:"
					      " %s", j->file, j->error);

			writer_warning(w, sys->profile, "bundle", "Device profile",
				       msg);
			/* fixing the file makes the cache stale */
			writer_source(w, sys->profile, j->path, "device");
			missing_row(w, sys, j, "failed", 0);
			free(msg);
			continue;
		}
		writer_merge(w, j->part);
		free(j->part);
		j->part = NULL;
	}
}

static void plan_free(struct plan *pl)
{
	for (size_t i = 0; i < pl->n; i++) {
		struct devjob *j = &pl->jobs[i];

		if (j->part)
			unlink(j->part);
		free(j->part);
		free(j->file);
		free(j->path);
		free(j->error);
		free(j->ncs);
		devname_free(&j->dn);
	}
	free(pl->jobs);
	for (size_t i = 0; i < pl->nrefused; i++)
		free(pl->refused[i]);
	free(pl->refused);
}

/* The device files to import, and what the folder lacks or refuses. */
static int plan_bundle(struct writer *w, const char *dir, char *dir_real,
		       const struct import_result *sys,
		       const struct import_opts *o, struct plan *pl)
{
	struct sysfilter filter;
	int dirfd, folders = pl->folders;

	memset(pl, 0, sizeof(*pl));
	pl->folders = folders;
	if (!realpath(dir, dir_real) ||
	    (dirfd = open(dir_real, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		err_set("%s: %s", dir, strerror(errno));
		return -1;
	}
	if (sysfilter_parse(&filter, o->filter_nc, o->filter_event_type,
			    o->filter_instance)) {
		close(dirfd);
		return -1;
	}
	pl->filter = &filter;
	plan_jobs(w, dirfd, dir_real, sys, pl);
	pl->filter = NULL;
	close(dirfd);
	sysfilter_free(&filter);
	return 0;
}

/* The viewer imports the device profiles later (bundle_import_queued):
 * each gets its row now, in state "queued", under the id its part will
 * give it, and its file as a source of the cache. */
static void queue_jobs(struct writer *w, const struct import_result *sys,
		       const struct plan *pl)
{
	for (size_t i = 0; i < pl->n; i++) {
		const struct devjob *j = &pl->jobs[i];
		int64_t id = writer_profile_id((int64_t)(i + 1) << PART_SHIFT);

		if (!j->path)
			continue;
		missing_row(w, sys, j, "queued", id);
		writer_source(w, id, j->path, "device");
	}
}

int bundle_import_devices(struct writer *w, const char *dir,
			  const struct import_result *sys,
			  const struct import_opts *o, const char *tmp,
			  int folders)
{
	char dir_real[PATH_MAX];
	struct plan pl = { .folders = folders };
	struct pool pool;
	int rc = 0;

	if (plan_bundle(w, dir, dir_real, sys, o, &pl)) {
		plan_free(&pl);
		return -1;
	}
	memset(&pool, 0, sizeof(pool));
	pool.o = o;
	pool.parent = sys->profile;
	pool.jobs = pl.jobs;
	pool.todo = xcalloc(pl.n + 1, sizeof(*pool.todo));
	pool.tmp = tmp;
	pool.folders = folders;
	pthread_mutex_init(&pool.mu, NULL);
	pthread_cond_init(&pool.cv, NULL);
	for (size_t i = 0; i < pl.n; i++) {
		struct devjob *j = &pl.jobs[i];

		if (!j->path) {
			missing(w, sys, dir_real, j);
			continue;
		}
		pool.todo[pool.njobs++] = i;
	}
	if (o->defer_devices)
		queue_jobs(w, sys, &pl);
	else if (pool.njobs)
		run_pool(&pool);
	import_show(o, NULL, -1, 0);
	/* a torn read is never kept, nor a cache short of a device
	 * profile that did not fit: the whole import fails */
	for (size_t i = 0; i < pl.n && !rc; i++) {
		if (pl.jobs[i].changed) {
			err_set("%s/%s: the file changed while it was read (is it"
				" still being written?); nothing was kept", dir,
				pl.jobs[i].file);
			rc = -1;
		} else if (pl.jobs[i].rc && pl.jobs[i].broken) {
			err_set("%s", pl.jobs[i].error);
			rc = -1;
		}
	}
	if (!rc && !o->defer_devices) {
		merge_parts(w, sys, &pl);
		if (!o->quiet)
			report(dir, &pl);
	}
	plan_free(&pl);
	free(pool.todo);
	pthread_mutex_destroy(&pool.mu);
	pthread_cond_destroy(&pool.cv);
	return rc;
}

/* A queued device profile as a job: its file, and what the bundle said
 * of it. */
static void job_of(const struct wqueued *q, struct devjob *j)
{
	memset(j, 0, sizeof(*j));
	j->file = xstrdup(q->file);
	j->path = xstrdup(q->path);
	j->dn.nc_idx = q->nc_idx;
	j->dn.instance_id = q->instance_id ? xstrdup(q->instance_id) : NULL;
	j->dn.process_id = q->process_id ? xstrdup(q->process_id) : NULL;
	j->dn.model_id = q->model ? xstrdup(q->model) : NULL;
}

static void job_free(struct devjob *j)
{
	free(j->file);
	free(j->path);
	free(j->error);
	devname_free(&j->dn);
}

/* The part's finishing pass (indexes, level of detail) on o's progress;
 * ctx is o, only read. */
static void finishing(void *ctx, const char *what, int pct)
{
	import_show(ctx, what, pct, 0);
}

/* Imports j into a new part beside cache and merges it in; 0 or -1
 * with j->error. */
static int import_queued(const char *cache, const struct wqueued *q,
			 struct devjob *j, const struct import_opts *o,
			 const int *stop)
{
	struct import_mark before;
	struct writer *w;
	char *part = NULL;
	int fd = cache_temp_create(cache, &part);
	size_t idx = (size_t)(q->profile >> PART_SHIFT) - 1;

	if (fd < 0 || !(w = writer_open(part))) {
		j->rc = -1;
		j->broken = 1;
		j->error = xstrdup(err_get());
	} else {
		int have = !import_mark(j->path, &before);

		writer_set_stop(w, stop);
		writer_set_progress(w, finishing, (void *)o);
		import_part(w, j, idx, o, q->parent, q->folders);
		if (!j->rc && have && import_changed(j->path, &before)) {
			j->rc = -1;
			j->error = xasprintf("%s: the file changed while it was"
					     " read (is it still being"
					     " written?)", j->file);
		}
		if (!j->rc && writer_merge_finished(cache, part, q->profile)) {
			j->rc = -1;
			j->broken = 1;
			j->error = xstrdup(err_get());
		}
	}
	if (part)
		unlink(part);
	free(part);
	if (fd >= 0)
		close(fd);
	return j->rc;
}

int bundle_import_queued(const char *cache, const struct wqueued *q,
			 const struct import_opts *o, const int *stop)
{
	struct devjob j;
	int rc;

	if (q->profile >> PART_SHIFT < 1 ||
	    writer_profile_id(q->profile & ~((INT64_C(1) << PART_SHIFT) - 1)) !=
	    q->profile) {
		err_set("%s: device profile %s has an id no import gives",
			cache, q->file);
		return -1;
	}
	job_of(q, &j);
	rc = import_queued(cache, q, &j, o, stop);
	if (rc && stop && __atomic_load_n(stop, __ATOMIC_RELAXED)) {
		rc = 1;
	} else if (rc) {
		char *msg = xasprintf("device profile %s was not imported: %s%s",
				      j.file, j.error, j.broken ? " (nxtop"
				      " imports it again at the next open)" :
				      "");

		err_set("%s", j.error);
		writer_fail_queued(cache, q->profile, msg, j.broken);
		free(msg);
	}
	job_free(&j);
	return rc;
}
