#include "config.h"

#include "src/import/parquet/folder.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/cache/cache.h"
#include "model/util.h"
#include "model/writer/writer.h"
#include "src/import/base.h"

#define SUFFIX ".parquet"

/* A hostile folder may hold many files: beyond this it is refused. */
#define MAX_FILES 100000

struct part {
	char *table;
	long num;		/* -1: NAME.parquet, else NAME_<num>.parquet */
	char *file;
};

/* Splits "NAME.parquet" or "NAME_<digits>.parquet"; 0 if neither. */
static int parse_name(const char *file, char **table, long *num)
{
	size_t n = strlen(file), m = strlen(SUFFIX), stem;
	const char *u;

	if (n <= m || strcmp(file + n - m, SUFFIX) || file[0] == '.')
		return 0;
	stem = n - m;
	*num = -1;
	u = memrchr(file, '_', stem);
	if (u && u > file && (size_t)(u - file) + 1 < stem &&
	    stem - (size_t)(u - file) - 1 <= 9 &&
	    strspn(u + 1, "0123456789") == stem - (size_t)(u - file) - 1) {
		*num = strtol(u + 1, NULL, 10);
		stem = (size_t)(u - file);
	}
	*table = xstrndup(file, stem);
	return 1;
}

int pqfolder_takes_name(const char *name)
{
	char *table;
	long num;

	if (!parse_name(name, &table, &num))
		return 0;
	free(table);
	return 1;
}

static int part_cmp(const void *a, const void *b)
{
	const struct part *x = a, *y = b;
	int c = strcmp(x->table, y->table);

	if (c)
		return c;
	return x->num < y->num ? -1 : x->num > y->num;
}

static int is_regular(int dfd, const char *name)
{
	struct stat sb;

	return !fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW) &&
	       S_ISREG(sb.st_mode);
}

static void skip(struct pqfolder *f, const char *dir, const char *name)
{
	struct pqtable *t = &f->skipped;

	t->files = xreallocarray(t->files, t->nfiles + 1, sizeof(*t->files));
	t->files[t->nfiles++] = xasprintf("%s/%s", dir, name);
}

static void group_parts(struct pqfolder *f, struct part *p, size_t n)
{
	if (n)
		qsort(p, n, sizeof(*p), part_cmp);
	for (size_t i = 0; i < n; i++) {
		struct pqtable *t = f->n ? &f->tables[f->n - 1] : NULL;

		if (!t || strcmp(t->name, p[i].table)) {
			f->tables = xreallocarray(f->tables, f->n + 1,
						  sizeof(*f->tables));
			t = &f->tables[f->n++];
			memset(t, 0, sizeof(*t));
			t->name = p[i].table;
		} else {
			free(p[i].table);
		}
		t->files = xreallocarray(t->files, t->nfiles + 1,
					 sizeof(*t->files));
		t->files[t->nfiles++] = p[i].file;
	}
}

int pqfolder_scan(const char *dir, struct pqfolder *out)
{
	DIR *d = opendir(dir);
	struct part *parts = NULL;
	size_t n = 0;
	struct dirent *e;

	memset(out, 0, sizeof(*out));
	if (!d) {
		err_set("%s: %s", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		char *table;
		long num;

		if (!parse_name(e->d_name, &table, &num))
			continue;
		if (n >= MAX_FILES)
			free(table);
		if (n >= MAX_FILES)
			break;
		if (!is_regular(dirfd(d), e->d_name)) {
			free(table);
			if (out->skipped.nfiles < MAX_FILES)
				skip(out, dir, e->d_name);
			continue;
		}
		parts = xreallocarray(parts, n + 1, sizeof(*parts));
		parts[n].table = table;
		parts[n].num = num;
		parts[n++].file = xasprintf("%s/%s", dir, e->d_name);
	}
	closedir(d);
	out->dir = xstrdup(dir);
	group_parts(out, parts, n);
	free(parts);
	if (n >= MAX_FILES) {
		err_set("%s: more than %d Parquet files", dir, MAX_FILES);
		pqfolder_free(out);
		return -1;
	}
	return 0;
}

const struct pqtable *pqfolder_find(const struct pqfolder *f,
				    const char *name)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->tables[i].name, name))
			return &f->tables[i];
	return NULL;
}

void pqfolder_free(struct pqfolder *f)
{
	for (size_t i = 0; i < f->n; i++) {
		for (size_t j = 0; j < f->tables[i].nfiles; j++)
			free(f->tables[i].files[j]);
		free(f->tables[i].files);
		free(f->tables[i].stamps);
		free(f->tables[i].name);
	}
	for (size_t j = 0; j < f->skipped.nfiles; j++)
		free(f->skipped.files[j]);
	free(f->skipped.files);
	free(f->tables);
	free(f->dir);
	memset(f, 0, sizeof(*f));
}

/* The skipped file i names a part of table. */
static int skipped_is(const struct pqfolder *f, size_t i, const char *table)
{
	char *name;
	long num;
	int yes;

	if (!parse_name(pqfolder_base(f->skipped.files[i]), &name, &num))
		return 0;
	yes = !strcmp(name, table);
	free(name);
	return yes;
}

/* A file named as a part of table, read or skipped. */
static int has_table(const char *dir, const char *table)
{
	struct pqfolder f;
	int yes;

	if (pqfolder_scan(dir, &f))
		return 0;
	yes = pqfolder_find(&f, table) != NULL;
	for (size_t i = 0; !yes && i < f.skipped.nfiles; i++)
		yes = skipped_is(&f, i, table);
	pqfolder_free(&f);
	return yes;
}

int pqfolder_is_device(const char *dir)
{
	return has_table(dir, "Instruction");
}

int pqfolder_is_system(const char *dir)
{
	return has_table(dir, "SystemProfileEvents");
}

/* Subfolders looked at in a folder of profiles. */
#define MAX_SUBDIRS 4096

int pqfolder_find_system(const char *dir, char **sys)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct strbuf names;
	size_t seen = 0, found = 0;
	struct stat sb;

	*sys = NULL;
	if (!d)
		return 1;
	sb_init(&names);
	while ((e = readdir(d)) && seen++ < MAX_SUBDIRS) {
		char *sub;

		/* only folders of this one, not links out of it */
		if (e->d_name[0] == '.' ||
		    fstatat(dirfd(d), e->d_name, &sb, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISDIR(sb.st_mode))
			continue;
		sub = xasprintf("%s/%s", dir, e->d_name);
		if (!pqfolder_is_system(sub)) {
			free(sub);
			continue;
		}
		sb_printf(&names, "%s%s", found ? ", " : "", e->d_name);
		if (!found++)
			*sys = sub;
		else
			free(sub);
	}
	closedir(d);
	if (found > 1) {
		err_set("%s: several system profile folders (%s); open one of"
			" them", dir, sb_cstr(&names));
		free(*sys);
		*sys = NULL;
	}
	sb_free(&names);
	return found == 1 ? 0 : found ? -1 : 1;
}

/* What the file at path is, when it is no regular file. */
static const char *what_is(const char *path)
{
	struct stat sb;

	if (lstat(path, &sb))
		return strerror(errno);
	return S_ISLNK(sb.st_mode) ? "a link" : S_ISDIR(sb.st_mode) ?
	       "a folder" : "not a regular file";
}

int pqfolder_check_needed(const struct pqfolder *f, struct import *im,
			  const char *table)
{
	const char *name = im->name;

	for (size_t i = 0; i < f->skipped.nfiles; i++) {
		if (!skipped_is(f, i, table))
			continue;
		/* the message names the file, not the folder */
		im->name = f->skipped.files[i];
		import_fail(im, NULL, "%s: nxtop reads only the regular files"
			    " of a profile folder",
			    what_is(f->skipped.files[i]));
		im->name = name;
		return -1;
	}
	return 0;
}

void pqfolder_warn_skipped(const struct pqfolder *f, struct import *im)
{
	for (size_t i = 0; i < f->skipped.nfiles; i++) {
		const char *file = f->skipped.files[i];
		char *msg = xasprintf("%s: %s, left out: nxtop reads only the"
				      " regular files of a profile folder",
				      file, what_is(file));

		writer_warning(im->w, im->profile, "import", "Import", msg);
		free(msg);
	}
}

const char *pqfolder_base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

void pqfolder_sources(struct pqfolder *f, struct writer *w, int64_t profile)
{
	char real[PATH_MAX];

	for (size_t i = 0; i < f->n; i++) {
		struct pqtable *t = &f->tables[i];

		free(t->stamps);
		t->stamps = xcalloc(t->nfiles, sizeof(*t->stamps));
		for (size_t j = 0; j < t->nfiles; j++) {
			struct cache_stamp *st = &t->stamps[j];

			if (!realpath(t->files[j], real))
				snprintf(real, sizeof(real), "%s", t->files[j]);
			cache_stamp_of(real, st);
			writer_source_as(w, profile, real, "table",
					 st->size < 0 ? NULL : st);
		}
	}
}

int pqfolder_changed(const struct pqfolder *f, struct import *im)
{
	for (size_t i = 0; i < f->n; i++) {
		const struct pqtable *t = &f->tables[i];

		for (size_t j = 0; t->stamps && j < t->nfiles; j++) {
			struct cache_stamp now;
			const struct cache_stamp *was = &t->stamps[j];

			const char *name = im->name;

			cache_stamp_of(t->files[j], &now);
			if (now.size == was->size && now.hash == was->hash &&
			    now.mtime_ns == was->mtime_ns &&
			    now.ctime_ns == was->ctime_ns)
				continue;
			im->name = t->files[j];
			import_fail(im, NULL, "the file changed while it was"
				    " read (is it still being written?); nothing"
				    " was kept");
			im->name = name;
			return -1;
		}
	}
	return 0;
}
