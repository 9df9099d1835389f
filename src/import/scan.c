/* Profiles on disk, told apart by their names and first bytes: Parquet
 * folders by their table files (FORMATS.md §1.5a), bundles as the
 * importer finds them, files as the dispatcher detects them (a system
 * profile JSON as the importer takes it). */
#include "config.h"

#include "src/import/scan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/cache/cache.h"
#include "model/userdata.h"
#include "model/util.h"
#include "src/import/bundle.h"
#include "src/import/dispatch.h"
#include "src/import/jax.h"
#include "src/import/parquet/folder.h"

/* Entries of a folder looked at, as in a bundle. */
#define SCAN_MAX 4096

char *scan_data_path(const char *data_path)
{
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");

	if (data_path)
		return xasprintf("%s/profiles/global", data_path);
	if (xdg && *xdg == '/')
		return xasprintf("%s/neuron-profile/profiles/global", xdg);
	return xasprintf("%s/.local/share/neuron-profile/profiles/global",
			 home && *home ? home : "/");
}

/* "TABLE.parquet" or "TABLE_<digits>.parquet": a part of TABLE, not of
 * another table whose name starts the same (DmaPacketAggregated). */
static int table_file(const char *name, const char *table)
{
	size_t n = strlen(table);
	const char *p = name + n;

	if (strncmp(name, table, n))
		return 0;
	if (*p == '_' && p[1] >= '0' && p[1] <= '9') {
		p++;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return !strcmp(p, ".parquet");
}

/* A Parquet profile folder, by its table files: 0 and *kind, else -1. */
static int parquet_kind(const char *dir, enum prof_kind *kind)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int dev = 0, sys = 0;

	for (size_t i = 0; d && i < SCAN_MAX && (e = readdir(d)); i++) {
		dev |= table_file(e->d_name, "Instruction");
		sys |= table_file(e->d_name, "SystemProfileEvents");
	}
	if (d)
		closedir(d);
	if (!dev && !sys)
		return -1;
	*kind = sys ? PK_PQ_SYSTEM : PK_PQ_DEVICE;
	return 0;
}

static int folder_kind(const char *dir, enum prof_kind *kind)
{
	char *sys = NULL;

	if (!parquet_kind(dir, kind))
		return 0;
	if (jax_is_folder(dir)) {
		*kind = PK_JAX;
		return 0;
	}
	/* a bundle: a system profile JSON, or else a folder of profiles
	 * with one system profile folder */
	if (bundle_find_system(dir, &sys) && pqfolder_find_system(dir, &sys))
		return -1;
	free(sys);
	*kind = PK_BUNDLE;
	return 0;
}

static int fresh(const char *cache, const char *input)
{
	char *why = NULL;
	int ok = cache && cache_check(cache, input, &why) == CACHE_FRESH;

	free(why);
	return ok;
}

/* The cache that opening input finds ready: known (where the recent
 * list saw it), the one beside input, or this user's own (src/cli/open.c
 * picks between them), looked for once, when first asked. */
struct ready {
	const char *input, *known;
	int looked;
	char *path;		/* NULL: none is ready */
};

static const char *ready_path(struct ready *r)
{
	char *c[3];

	if (r->looked)
		return r->path;
	r->looked = 1;
	c[0] = r->known ? xstrdup(r->known) : NULL;
	c[1] = cache_path_for(r->input);
	c[2] = cache_path_private(r->input);
	for (int i = 0; i < 3; i++) {
		if (!r->path && fresh(c[i], r->input))
			r->path = c[i];
		else
			free(c[i]);
	}
	return r->path;
}

/* A Neuron profile JSON's kind from its ready cache: the kind the
 * import took, which its keys say unless the file changed since. */
static int cached_kind(struct ready *r, enum prof_kind *kind)
{
	char *k = ready_path(r) ? cache_root_kind(r->path) : NULL;
	int rc = -1;

	if (k && (!strcmp(k, "system") || !strcmp(k, "device"))) {
		*kind = !strcmp(k, "system") ? PK_SYSTEM : PK_DEVICE;
		rc = 0;
	}
	free(k);
	return rc;
}

/* scan_kind, with r the cache of path when one is looked for. */
static int path_kind(const char *path, struct ready *r, enum prof_kind *kind)
{
	struct stat sb;
	int system;

	if (stat(path, &sb))
		return -1;
	if (S_ISDIR(sb.st_mode))
		return folder_kind(path, kind);
	if (!S_ISREG(sb.st_mode))
		return -1;
	switch (import_detect_system(path, &system)) {
	case FMT_NEURON_JSON:
		/* as the importer took it, or will take it */
		if (!cached_kind(r, kind))
			return 0;
		*kind = system ? PK_SYSTEM : PK_DEVICE;
		return 0;
	case FMT_CHROME_JSON:
	case FMT_PFTRACE:
		*kind = PK_TRACE;
		return 0;
	default:
		return -1;
	}
}

int scan_kind(const char *path, enum prof_kind *kind)
{
	struct ready r = { .input = path };
	int rc = path_kind(path, &r, kind);

	free(r.path);
	return rc;
}

/* The size of a file, or of the files directly in a folder; the newest
 * modification time of them. */
static void size_when(const char *path, int64_t *size, int64_t *when)
{
	struct stat sb;
	struct dirent *e;
	DIR *d;

	*size = 0;
	*when = 0;
	if (stat(path, &sb))
		return;
	*when = stat_mtime_ns(&sb);
	if (!S_ISDIR(sb.st_mode)) {
		*size = (int64_t)sb.st_size;
		return;
	}
	d = opendir(path);
	for (size_t i = 0; d && i < SCAN_MAX && (e = readdir(d)); i++) {
		if (fstatat(dirfd(d), e->d_name, &sb, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(sb.st_mode))
			continue;
		*size += (int64_t)sb.st_size;
		*when = NX_MAX(*when, stat_mtime_ns(&sb));
	}
	if (d)
		closedir(d);
}

/* A bundle's size and time: its files' and those of its Parquet
 * profile folders (NAME@latest/), where a Parquet bundle keeps all. */
static void bundle_size_when(const char *path, int64_t *size, int64_t *when)
{
	enum prof_kind kind;
	struct dirent *e;
	DIR *d;

	size_when(path, size, when);
	d = opendir(path);
	for (size_t i = 0; d && i < SCAN_MAX && (e = readdir(d)); i++) {
		char *sub;
		int64_t s, w;

		if (e->d_name[0] == '.')
			continue;
		sub = xasprintf("%s/%s", path, e->d_name);
		if (!parquet_kind(sub, &kind)) {
			size_when(sub, &s, &w);
			*size += s;
			*when = NX_MAX(*when, w);
		}
		free(sub);
	}
	if (d)
		closedir(d);
}

/* The entry's size, time and state; r is its cache, looked for once
 * whether its kind needed it or not. */
static void fill(struct prof_entry *e, struct ready *r)
{
	int64_t when;

	if (e->kind == PK_JAX)
		jax_size_when(e->path, &e->size, &when);
	else if (e->kind == PK_BUNDLE)
		bundle_size_when(e->path, &e->size, &when);
	else
		size_when(e->path, &e->size, &when);
	e->when = NX_MAX(e->when, when);
	e->state = ready_path(r) ? PS_READY : PS_IMPORT;
}

int scan_folder(const char *dir, int quiet_missing, struct proflist *pl)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	enum prof_kind kind;
	char real[PATH_MAX];

	if (!d) {
		if (errno == ENOENT && quiet_missing)
			return 0;
		err_set("%s: %s", dir, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < SCAN_MAX && (e = readdir(d)); i++) {
		/* the cache of the path the list opens */
		struct ready r = { .input = real };
		char *path;

		if (e->d_name[0] == '.')
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		if (realpath(path, real) && !path_kind(real, &r, &kind))
			fill(proflist_add(pl, e->d_name, real, kind), &r);
		free(r.path);
		free(path);
	}
	closedir(d);
	return 0;
}

static void add_recent(struct proflist *pl, const struct recent *r)
{
	const char *base = strrchr(r->path, '/');
	struct ready cache = { .input = r->path, .known = r->cache };
	struct prof_entry *e;
	enum prof_kind kind = PK_DEVICE;
	struct stat sb;

	prof_kind_parse(r->kind, &kind);
	e = proflist_add(pl, base && base[1] ? base + 1 : r->path, r->path,
			 kind);
	e->recent = 1;
	e->when = NX_MAX(e->when, r->opened);
	if (stat(r->path, &sb)) {
		e->state = PS_MISSING;
		return;
	}
	fill(e, &cache);
	free(cache.path);
}

void scan_recent(struct userdata *u, struct proflist *pl)
{
	struct recent *r;
	size_t n;

	if (!u || recent_list(u, &r, &n))
		return;
	for (size_t i = 0; i < n; i++)
		add_recent(pl, &r[i]);
	recent_list_free(r, n);
}
