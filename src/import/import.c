/* Building a cache: a file, or a bundle folder's system profile and
 * the device profiles beside it, into a temporary file renamed into
 * place when whole. */
#include "config.h"

#include "src/import/import.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/import/bundle.h"
#include "src/import/jax.h"
#include "src/import/parquet/folder.h"
#include "model/cache/cache.h"
#include "model/file.h"
#include "model/model.h"
#include "model/util.h"
#include "src/import/sysfilter.h"

void import_remove_stale(const char *cache_path)
{
	char *dir = file_dir(cache_path);
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		if (!strncmp(e->d_name, FILE_TEMP_PREFIX,
			     strlen(FILE_TEMP_PREFIX)) &&
		    file_temp_abandoned(dirfd(d), e->d_name))
			unlinkat(dirfd(d), e->d_name, 0);
	}
	if (d)
		closedir(d);
	free(dir);
}

/* The writer's finishing pass, on the import's progress line; ctx is
 * the import's options, only read. */
static void finish_progress(void *ctx, const char *what, int pct)
{
	import_show(ctx, what, pct, 0);
}

int import_filter_key(const struct import_opts *o, struct strbuf *key)
{
	struct sysfilter f;

	sb_reset(key);
	if (sysfilter_parse(&f, o->filter_nc, o->filter_event_type,
			    o->filter_instance))
		return -1;
	sysfilter_key(&f, key);
	sysfilter_free(&f);
	/* another JAX run is another cache */
	if (o->run)
		sb_printf(key, "%srun=%s", key->len ? ";" : "", o->run);
	return 0;
}

/* A system profile folder of Parquet tables and its device profiles,
 * the sibling folders it lists. */
static int import_pq_system(struct writer *w, char *sys, const char *tmp,
			    const struct import_opts *o)
{
	struct import_result res;
	char *dir;
	int rc;

	/* "a@latest/" names the folder "a@latest" */
	for (size_t n = strlen(sys); n > 1 && sys[n - 1] == '/'; n--)
		sys[n - 1] = '\0';
	rc = import_file_as(w, sys, sys, o, 0, &res, FMT_PARQUET_SYSTEM);
	if (!rc) {
		dir = file_dir(sys);
		if (!o->quiet)
			err_note("%s: system profile %s", dir, sys);
		rc = bundle_import_devices(w, dir, &res, o, tmp, 1);
		import_result_free(&res);
		free(dir);
	}
	return rc;
}

/* The system profile of a folder: its JSON file (*file), else the one
 * Parquet system folder in it (*pqsys); -1 with the JSON bundle's error
 * when neither. */
static int folder_system(const char *dir, char **file, char **pqsys)
{
	char *why;
	int rc;

	*pqsys = NULL;
	if (!bundle_find_system(dir, file))
		return 0;
	why = xstrdup(err_get());
	rc = pqfolder_find_system(dir, pqsys);
	if (rc == 1)
		err_set("%s", why);
	free(why);
	return rc ? -1 : 0;
}

/* The profile in input: a file, a JAX profile folder, a Parquet profile
 * folder, or a bundle folder's system profile. */
static int import_input(struct writer *w, const char *input,
			const char *tmp, const struct import_opts *o)
{
	struct import_result res;
	struct stat sb;
	char *file = NULL, *name = NULL, *dir = NULL, *pqsys = NULL;
	int rc;

	if (!stat(input, &sb) && S_ISDIR(sb.st_mode)) {
		if (jax_is_folder(input))
			return import_jax(w, input, o);
		jax_warn_link(input, o);
	}
	if (o->run) {
		err_set("%s: --run opens a run of a JAX log folder, and this is"
			" not one", input);
		return -1;
	}
	if (!stat(input, &sb) && S_ISDIR(sb.st_mode)) {
		if (pqfolder_is_device(input))
			return import_file_as(w, input, input, o, 0, NULL,
					      FMT_PARQUET_DEVICE);
		if (pqfolder_is_system(input))
			pqsys = xstrdup(input);
		else if (folder_system(input, &file, &pqsys))
			return -1;
		if (pqsys) {
			rc = import_pq_system(w, pqsys, tmp, o);
			free(pqsys);
			return rc;
		}
		dir = xstrdup(input);
		name = xasprintf("%s/%s", input, strrchr(file, '/') + 1);
	}
	rc = import_file(w, file ? file : input, name ? name : input, o, 0,
			 &res);
	if (!rc) {
		/* a system profile brings the device profiles beside it */
		if (res.is_system) {
			if (!dir)
				dir = file_dir(input);
			if (!o->quiet)
				err_note("%s: system profile %s", dir,
					 name ? name : input);
			rc = bundle_import_devices(w, dir, &res, o, tmp, 0);
		}
		import_result_free(&res);
	}
	free(file);
	free(name);
	free(dir);
	return rc;
}

/* Each table file of the Parquet folder dir, by its real path. */
static void plan_tables(const char *dir, struct msource **v, size_t *n)
{
	struct pqfolder f;
	char real[PATH_MAX];

	if (pqfolder_scan(dir, &f))
		return;
	for (size_t i = 0; i < f.n; i++)
		for (size_t j = 0; j < f.tables[i].nfiles; j++)
			if (realpath(f.tables[i].files[j], real))
				model_sources_add(v, n, real, "table");
	pqfolder_free(&f);
}

/* The table files of the system folder sys, then of each device
 * folder beside it that it lists. */
static void plan_system(const char *sys, struct msource **v, size_t *n)
{
	char **names, *dir, *dev, real[PATH_MAX];
	size_t nnames;

	/* "a@latest/" names the folder "a@latest" */
	if (!realpath(sys, real))
		return;
	dir = file_dir(real);
	plan_tables(sys, v, n);
	pqfolder_listed_devices(sys, &names, &nnames);
	for (size_t i = 0; i < nnames; i++) {
		dev = bundle_device_folder(dir, names[i]);
		if (dev)
			plan_tables(dev, v, n);
		free(dev);
	}
	pqfolder_names_free(names, nnames);
	free(dir);
}

void import_plan(const char *input, const struct import_opts *o,
		 struct msource **v, size_t *n)
{
	struct stat sb;
	char real[PATH_MAX], *file = NULL, *pqsys = NULL;

	*v = NULL;
	*n = 0;
	if (stat(input, &sb))
		return;
	if (S_ISDIR(sb.st_mode) && jax_is_folder(input)) {
		jax_plan(input, o, v, n);
	} else if (o->run) {
		return;
	} else if (!S_ISDIR(sb.st_mode)) {
		if (realpath(input, real))
			model_sources_add(v, n, real, "profile");
	} else if (pqfolder_is_device(input)) {
		plan_tables(input, v, n);
	} else if (pqfolder_is_system(input)) {
		plan_system(input, v, n);
	} else if (!folder_system(input, &file, &pqsys)) {
		if (pqsys)
			plan_system(pqsys, v, n);
		else if (realpath(file, real))
			model_sources_add(v, n, real, "profile");
	}
	free(file);
	free(pqsys);
}

/* A cache whose device profiles are imported later is read while they
 * are merged into it: it goes in WAL mode. */
static int wal_if_queued(const char *tmp)
{
	struct wqueued *v;
	size_t n;
	int rc;

	if (writer_queued(tmp, &v, &n))
		return -1;
	rc = n ? writer_wal(tmp) : 0;
	writer_queued_free(v, n);
	return rc;
}

int import_build(const char *input, const char *cache_path,
		 const struct import_opts *o)
{
	char *tmp = NULL;
	char real[4096];
	struct strbuf key;
	struct writer *w;
	int rc = -1, fd = -1;

	sb_init(&key);
	import_remove_stale(cache_path);
	if (import_filter_key(o, &key))
		goto out;
	fd = cache_temp_create(cache_path, &tmp);
	if (fd < 0)
		goto out;
	w = writer_open(tmp);
	if (!w)
		goto out;
	if (!realpath(input, real))
		snprintf(real, sizeof(real), "%s", input);
	writer_meta(w, "nxtop_version", PACKAGE_VERSION);
	writer_meta(w, "input", real);
	writer_meta(w, "filter", sb_cstr(&key));
	if (import_input(w, input, tmp, o)) {
		writer_abort(w);
		goto out;
	}
	writer_set_progress(w, finish_progress, (void *)o);
	rc = writer_finish(w);
	import_show(o, NULL, -1, 0);
	if (!rc && o->defer_devices)
		rc = wal_if_queued(tmp);
	if (!rc && o->check)
		rc = o->check(tmp, o->check_ctx);
	if (!rc)
		rc = cache_commit(tmp, fd, cache_path);
out:
	if (rc && tmp)
		unlink(tmp);
	/* the lock on the temporary file goes last */
	if (fd >= 0)
		close(fd);
	free(tmp);
	sb_free(&key);
	return rc;
}
