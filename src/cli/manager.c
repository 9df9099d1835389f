/* The Profile Manager's side that reads disk: what it lists (a folder's
 * profiles, Neuron Explorer's data path, the recent list) and opening
 * one as `nxtop PATH` does. The recent list is kept here too: every
 * profile the viewer or `nxtop import` opens is recorded. */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/proflist.h"
#include "model/report/export.h"
#include "model/userdata.h"
#include "src/cli/cli.h"
#include "src/import/scan.h"

void cli_remember(struct userdata *u, const char *profile, const char *cache)
{
	struct userdata *own = NULL;
	char path[PATH_MAX], cpath[PATH_MAX];
	enum prof_kind kind;
	char *store;

	/* a cache opened by name is not a profile to list */
	if (scan_kind(profile, &kind) || !realpath(profile, path))
		return;
	if (!realpath(cache, cpath))
		snprintf(cpath, sizeof(cpath), "%s", cache);
	if (!u) {
		store = userdata_default_path();
		u = own = userdata_open(store);
		free(store);
	}
	/* a list of conveniences: a store that cannot be written (another
	 * nxtop holding it) costs the entry, not the open */
	if (u)
		recent_add(u, path, prof_kind_name(kind), cpath);
	userdata_close(own);
}

/* What the manager shows: a folder's profiles, or with dir NULL the
 * data path's and the recent ones. where[] names the sources. */
struct listing {
	const char *dir;
	char *data_path;
	const char *where[3];
};

static void listing_init(struct listing *ls, const char *dir,
			 const char *data_path)
{
	memset(ls, 0, sizeof(*ls));
	ls->dir = dir;
	if (dir) {
		ls->where[0] = dir;
		return;
	}
	ls->data_path = scan_data_path(data_path);
	ls->where[0] = ls->data_path;
	ls->where[1] = "recent profiles";
}

/* An unreadable data path still leaves the recent profiles. */
static int listing_scan(struct listing *ls, struct userdata *u,
			struct proflist *pl)
{
	int rc = scan_folder(ls->dir ? ls->dir : ls->data_path, !ls->dir, pl);

	if (!ls->dir)
		scan_recent(u, pl);
	proflist_sort(pl);
	return rc;
}

struct manager_ctx {
	struct cli *c;
	struct listing ls;
	struct viewed open;	/* the one profile opened from the list */
};

static int manager_scan(void *ctx, struct userdata *u, struct proflist *pl)
{
	struct manager_ctx *mc = ctx;

	return listing_scan(&mc->ls, u, pl);
}

static struct model *manager_open(void *ctx, struct userdata *u,
				  const char *path)
{
	struct manager_ctx *mc = ctx;

	cli_view_close(&mc->open);
	if (cli_view_open(mc->c, path, &mc->open))
		return NULL;
	cli_remember(u, path, model_path(mc->open.m));
	return mc->open.m;
}

/* m is mc->open's: open() gives no other */
static void manager_close(void *ctx, struct model *m)
{
	struct manager_ctx *mc = ctx;

	(void)m;
	cli_view_close(&mc->open);
}

int cli_manager(struct cli *c, const char *dir)
{
	struct manager_ctx mc = { .c = c };
	struct tui_profiles p = { .scan = manager_scan, .open = manager_open,
				  .close = manager_close, .ctx = &mc };
	int rc;

	listing_init(&mc.ls, dir, c->data_path);
	p.title = dir ? dir : "the data path and recent profiles";
	c->ui.group = &c->group;
	rc = tui_run_manager(&p, &c->ui) ? cli_fail() : 0;
	cli_view_close(&mc.open);
	free(mc.ls.data_path);
	return rc;
}

int cli_print_profiles(struct cli *c, const char *dir, enum out_format fmt)
{
	struct listing ls;
	struct proflist pl = { 0 };
	struct userdata *u = NULL;
	char *store;
	int rc;

	listing_init(&ls, dir, c->data_path);
	if (!dir) {
		store = userdata_default_path();
		u = userdata_open(store);
		free(store);
	}
	rc = listing_scan(&ls, u, &pl);
	if (!rc)
		export_profiles(&pl, ls.where, fmt, stdout);
	userdata_close(u);
	proflist_free(&pl);
	free(ls.data_path);
	return rc ? cli_fail() : 0;
}

int cli_has_profiles(const char *dir)
{
	struct proflist pl = { 0 };
	enum prof_kind kind;
	int n;

	if (!scan_kind(dir, &kind) || scan_folder(dir, 0, &pl))
		return 0;
	n = pl.n > 0;
	proflist_free(&pl);
	return n;
}
