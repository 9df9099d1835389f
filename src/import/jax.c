/* JAX / XProf profile folders: finding the runs, picking one, and
 * importing its host files into one profile. */
#include "config.h"

#include "src/import/jax.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/cache/cache.h"
#include "model/file.h"
#include "model/model.h"
#include "model/util.h"
#include "src/import/dispatch.h"

#define TRACE_SUFFIX ".trace.json.gz"
#define PERFETTO_NAME "perfetto_trace.json.gz"
#define XPLANE_SUFFIX ".xplane.pb"
/* Sort keys of one host's rows: more than a file's rows use (at most
 * WRITER_MAX_TRACKS processes of 2^24 rows, src/import/trace_rows.c). */
#define HOST_KEYS ((int64_t)1 << 41)

struct jax {
	char *root;		/* the plugins/profile folder */
	char *named;		/* the run the input folder is, or NULL */
	char **runs;		/* run folders, by name */
	size_t nruns;
	const char *run;	/* the one opened */
	char **files;		/* its trace files, by name */
	size_t nfiles, nxplane;
};

static int is_dir(const char *path)
{
	struct stat sb;

	return !stat(path, &sb) && S_ISDIR(sb.st_mode);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && !strcmp(s + n - m, suffix);
}

static const char *base_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static int is_link(const char *path)
{
	struct stat sb;

	return !lstat(path, &sb) && S_ISLNK(sb.st_mode);
}

/* The first link among the folders from dir down to root (dir/plugins,
 * dir/plugins/profile or dir/profile), or NULL. */
static char *link_below(const char *dir, const char *root)
{
	size_t n = strlen(dir);
	char *p, *s, c;

	if (strncmp(root, dir, n) || root[n] != '/')
		return NULL;
	p = xstrdup(root);
	for (s = p + n + 1;; s++) {
		if (*s && *s != '/')
			continue;
		c = *s;
		*s = '\0';
		if (is_link(p))
			return p;
		if (!c)
			break;
		*s = c;
	}
	free(p);
	return NULL;
}

/* The plugins/profile folder of dir (real path), and the run dir is.
 * A plugins or profile folder below dir that is a link is not followed,
 * as a linked run is not: NULL, with *link (when link is not NULL) the
 * link's path. */
static char *root_of(const char *dir, char **named, char **link)
{
	char *p, *up = file_dir(dir), *top = file_dir(up), *l = NULL;

	*named = NULL;
	p = xasprintf("%s/plugins/profile", dir);
	if (!is_dir(p)) {
		free(p);
		p = NULL;
		if (!strcmp(base_of(dir), "plugins"))
			p = xasprintf("%s/profile", dir);
		else if (!strcmp(base_of(dir), "profile") &&
			 !strcmp(base_of(up), "plugins"))
			p = xstrdup(dir);
		else if (!strcmp(base_of(up), "profile") &&
			 !strcmp(base_of(top), "plugins")) {
			p = xstrdup(up);
			*named = xstrdup(base_of(dir));
		}
	}
	free(up);
	free(top);
	if (p && (!is_dir(p) || (l = link_below(dir, p)))) {
		free(p);
		free(*named);
		*named = NULL;
		p = NULL;
	}
	if (link)
		*link = l;
	else
		free(l);
	return p;
}

int jax_is_folder(const char *dir)
{
	char real[PATH_MAX], *named, *root;

	if (!realpath(dir, real))
		return 0;
	root = root_of(real, &named, NULL);
	free(named);
	free(root);
	return root != NULL;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir that keep() takes, sorted. */
static char **list(const char *dir, int (*keep)(const char *path,
						const char *name),
		   size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL, *path;

	*n = 0;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		if (keep(path, e->d_name)) {
			v = xreallocarray(v, *n + 1, sizeof(*v));
			v[(*n)++] = xstrdup(e->d_name);
		}
		free(path);
	}
	if (d)
		closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), cmp_name);
	return v;
}

/* A run is a real folder: a link could lead out of the log folder. */
static int keep_run(const char *path, const char *name)
{
	struct stat sb;

	(void)name;
	return !lstat(path, &sb) && S_ISDIR(sb.st_mode);
}

static int keep_link(const char *path, const char *name)
{
	struct stat sb;

	(void)name;
	return !lstat(path, &sb) && S_ISLNK(sb.st_mode);
}

int jax_takes_name(const char *name)
{
	return ends_with(name, TRACE_SUFFIX) || !strcmp(name, PERFETTO_NAME);
}

static int keep_trace(const char *path, const char *name)
{
	struct stat sb;

	return jax_takes_name(name) && !lstat(path, &sb) && S_ISREG(sb.st_mode);
}

static int keep_xplane(const char *path, const char *name)
{
	(void)path;
	return ends_with(name, XPLANE_SUFFIX);
}

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void jax_free(struct jax *j)
{
	free(j->root);
	free(j->named);
	free_names(j->runs, j->nruns);
	free_names(j->files, j->nfiles);
}

/* The runs as "a, b, c", for messages. */
/* The runs, but (when not NULL) skip. */
static char *run_list_but(const struct jax *j, const char *skip)
{
	struct strbuf sb;

	sb_init(&sb);
	for (size_t i = 0; i < j->nruns; i++)
		if (!skip || strcmp(j->runs[i], skip))
			sb_printf(&sb, "%s%s", sb.len ? ", " : "", j->runs[i]);
	return sb_detach(&sb);
}

static char *run_list(const struct jax *j)
{
	return run_list_but(j, NULL);
}

/* Says which links in dir were passed over, unless quiet: nxtop reads
 * no file outside the log folder through a link. */
static void warn_links(const char *dir, const struct import_opts *o)
{
	size_t n;
	char **v;

	if (o->quiet)
		return;
	v = list(dir, keep_link, &n);

	if (n)
		err_note("%s: %zu link(s) skipped (%s%s): a JAX run and its trace"
			 " files must be real folders and files", dir, n, v[0],
			 n > 1 ? ", ..." : "");
	free_names(v, n);
}

void jax_warn_link(const char *dir, const struct import_opts *o)
{
	char real[PATH_MAX], *named, *root, *link = NULL, *up;

	if (o->quiet || !realpath(dir, real))
		return;
	root = root_of(real, &named, &link);
	if (link) {
		up = file_dir(link);
		err_note("%s: 1 link(s) skipped (%s): a JAX log folder's plugins"
			 " and plugins/profile must be real folders", up,
			 base_of(link));
		free(up);
	}
	free(link);
	free(named);
	free(root);
}

/* Picks the run: --run, else the one the input names, else the newest. */
static int pick_run(struct jax *j, const struct import_opts *o)
{
	const char *want = o->run ? o->run : j->named;
	char *all;

	if (!j->nruns) {
		err_set("%s: no run folders in this JAX profile folder", j->root);
		return -1;
	}
	j->run = j->runs[j->nruns - 1];
	if (!want)
		return 0;
	for (size_t i = 0; i < j->nruns; i++)
		if (!strcmp(j->runs[i], want))
			j->run = j->runs[i];
	if (!strcmp(j->run, want))
		return 0;
	all = run_list(j);
	err_set("%s: no run '%s' (runs: %s)", j->root, want, all);
	free(all);
	return -1;
}

/* The run's trace files; an XPlane-only run is refused, saying why. */
static int find_files(struct jax *j, const char *dir)
{
	char **x = list(dir, keep_xplane, &j->nxplane);
	char hint[320] = "", *others;

	free_names(x, j->nxplane);
	j->files = list(dir, keep_trace, &j->nfiles);
	if (j->nfiles)
		return 0;
	/* the runs that may hold a trace, and how to open one */
	others = run_list_but(j, j->run);
	if (*others)
		snprintf(hint, sizeof(hint), "; other runs: %.200s%s (--run NAME"
			 " opens one)", others, strlen(others) > 200 ? "..." : "");
	free(others);
	if (j->nxplane)
		err_set("%s: only XPlane (.xplane.pb) files, which nxtop does not"
			" read yet; record a trace JSON too with"
			" jax.profiler.trace(log_dir, create_perfetto_trace=True)%s",
			dir, hint);
	else
		err_set("%s: no *" TRACE_SUFFIX " or " PERFETTO_NAME " file in"
			" this JAX run%s", dir, hint);
	return -1;
}

static int keep_file(const char *path, const char *name)
{
	struct stat sb;

	(void)name;
	return !lstat(path, &sb) && S_ISREG(sb.st_mode);
}

void jax_size_when(const char *dir, int64_t *size, int64_t *when)
{
	struct jax j;
	struct stat sb;
	char real[PATH_MAX], *run, *path;
	size_t n;
	char **files;

	*size = 0;
	*when = 0;
	memset(&j, 0, sizeof(j));
	if (!realpath(dir, real) || !(j.root = root_of(real, &j.named, NULL)))
		return;
	j.runs = list(j.root, keep_run, &j.nruns);
	if (j.nruns) {
		run = xasprintf("%s/%s", j.root, j.named ? j.named :
			        j.runs[j.nruns - 1]);
		files = list(run, keep_file, &n);
		for (size_t i = 0; i < n; i++) {
			path = xasprintf("%s/%s", run, files[i]);
			if (!stat(path, &sb)) {
				*size += (int64_t)sb.st_size;
				*when = NX_MAX(*when, stat_mtime_ns(&sb));
			}
			free(path);
		}
		free_names(files, n);
		free(run);
	}
	jax_free(&j);
}

/* The group a file's rows go under: its host, from "HOST.trace.json.gz",
 * or "perfetto_trace" for the run's Perfetto trace. */
static char *host_of(const char *file)
{
	if (ends_with(file, TRACE_SUFFIX))
		return xstrndup(file, strlen(file) - strlen(TRACE_SUFFIX));
	return xstrndup(file, strlen(file) - strlen(".json.gz"));
}

/* The run opened and the others, as the profile's info section "jax":
 * what the summary and the status line say. */
static void write_info(struct writer *w, int64_t profile, const struct jax *j)
{
	struct wvalue v = { .type = WV_TEXT, .s = j->run };
	int64_t idx = 0;

	writer_info(w, profile, "jax", idx++, "run", &v);
	for (size_t i = 0; i < j->nruns; i++) {
		if (j->runs[i] == j->run)
			continue;
		v.s = j->runs[i];
		writer_info(w, profile, "jax", idx++, "other_run", &v);
	}
}

/* The cache is bound to the list of runs, the run's list of files, the
 * input folder, and (by the importer) each file read. */
static void write_sources(struct writer *w, int64_t profile,
			  const struct jax *j, const char *run,
			  const char *input)
{
	writer_source(w, profile, j->root, "folder");
	writer_source(w, profile, run, "folder");
	if (strcmp(input, j->root) && strcmp(input, run))
		writer_source(w, profile, input, "folder");
}

static int import_run(struct writer *w, const struct jax *j, const char *run,
		      const char *input, const struct import_opts *o)
{
	struct wprofile p = { .kind = "trace", .format = "chrome-json",
			      .name = j->run, .nc_idx = -1 };
	int64_t profile = writer_profile(w, &p), group;
	char *path, *host;
	int rc = 0;

	if (!o->quiet)
		err_note("%s: JAX run %s (of %zu runs), %zu trace file(s)",
			 j->root, j->run, j->nruns, j->nfiles);
	for (size_t i = 0; !rc && i < j->nfiles; i++) {
		path = xasprintf("%s/%s", run, j->files[i]);
		host = host_of(j->files[i]);
		group = writer_track(w, profile, 0, TK_GROUP, host,
				     HOST_KEYS * (int64_t)i);
		rc = import_file_into(w, path, path, o, profile, group,
				      HOST_KEYS * (int64_t)i + 1);
		free(host);
		free(path);
	}
	if (!rc) {
		write_info(w, profile, j);
		write_sources(w, profile, j, run, input);
	}
	return rc;
}

void jax_plan(const char *dir, const struct import_opts *o,
	      struct msource **v, size_t *n)
{
	struct jax j;
	char real[PATH_MAX], *run, *path;

	memset(&j, 0, sizeof(j));
	if (!realpath(dir, real) || !(j.root = root_of(real, &j.named, NULL)))
		return;
	j.runs = list(j.root, keep_run, &j.nruns);
	if (!pick_run(&j, o)) {
		run = xasprintf("%s/%s", j.root, j.run);
		j.files = list(run, keep_trace, &j.nfiles);
		model_sources_add(v, n, j.root, "folder");
		model_sources_add(v, n, run, "folder");
		if (strcmp(real, j.root) && strcmp(real, run))
			model_sources_add(v, n, real, "folder");
		for (size_t i = 0; i < j.nfiles; i++) {
			path = xasprintf("%s/%s", run, j.files[i]);
			model_sources_add(v, n, path, "profile");
			free(path);
		}
		free(run);
	}
	jax_free(&j);
}

int import_jax(struct writer *w, const char *dir, const struct import_opts *o)
{
	struct jax j;
	char real[PATH_MAX], *run = NULL;
	int rc = -1;

	memset(&j, 0, sizeof(j));
	if (!realpath(dir, real) || !(j.root = root_of(real, &j.named, NULL))) {
		err_set("%s: not a JAX profile folder", dir);
		return -1;
	}
	j.runs = list(j.root, keep_run, &j.nruns);
	warn_links(j.root, o);
	if (!pick_run(&j, o)) {
		run = xasprintf("%s/%s", j.root, j.run);
		warn_links(run, o);
		if (!find_files(&j, run))
			rc = import_run(w, &j, run, real, o);
	}
	free(run);
	jax_free(&j);
	return rc;
}
