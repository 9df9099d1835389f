/* The Profile Manager's list. It owns the model of the profile opened
 * from it: once the manager is on top again, the views over that model
 * are gone, so it closes the model and scans again (a cache is now
 * ready, the profile is the most recent). The list is small: the
 * generic list filters and sorts it. */
#include "config.h"

#include "tui/manager_view.h"

#include <stdlib.h>
#include <string.h>

#include "model/proflist.h"
#include "model/report/export.h"
#include "model/userdata.h"
#include "tui/list.h"
#include "tui/timeline/timeline.h"

enum { MC_NAME, MC_KIND, MC_SIZE, MC_WHEN, MC_STATE, MC_PATH, MC_COUNT };

static const struct list_col cols[MC_COUNT] = {
	[MC_NAME] = { "Name", 28, 0, 0 },
	[MC_KIND] = { "Kind", 14, 0, 0 },
	[MC_SIZE] = { "Size", 9, 1, 0 },
	[MC_WHEN] = { "When", 16, 0, 0 },
	[MC_STATE] = { "State", 7, 0, 0 },
	[MC_PATH] = { "Path", 40, 0, 1 },
};

struct manager {
	struct list list;
	const struct tui_profiles *src;
	const struct sysgroup *group;
	struct proflist pl;
	struct model *m;	/* of the profile opened over the list */
};

static void rescan(struct manager *ms)
{
	proflist_free(&ms->pl);
	if (ms->src->scan(ms->src->ctx, tui_userdata(ms->list.view.tui),
			  &ms->pl))
		tui_error(ms->list.view.tui, "%s", err_get());
	list_changed(&ms->list);
	list_fit_cols(&ms->list);
}

static void manager_reload(struct list *l)
{
	struct manager *ms = (struct manager *)l;

	if (!ms->m)
		return;
	tui_set_model(l->view.tui, NULL);
	ms->src->close(ms->src->ctx, ms->m);
	ms->m = NULL;
	rescan(ms);
}

static size_t manager_count(struct list *l)
{
	return ((struct manager *)l)->pl.n;
}

static void manager_line(struct list *l, size_t i, struct list_line *out)
{
	const struct prof_entry *e = &((struct manager *)l)->pl.v[i];
	char b[64];

	sb_adds(&out->cells[MC_NAME], e->name);
	sb_adds(&out->cells[MC_KIND], prof_kind_name(e->kind));
	sb_adds(&out->cells[MC_SIZE], prof_size_text(b, sizeof(b), e->size));
	out->keys[MC_SIZE] = (double)e->size;
	sb_adds(&out->cells[MC_WHEN], prof_when_text(b, sizeof(b), e->when));
	out->keys[MC_WHEN] = (double)e->when;
	sb_adds(&out->cells[MC_STATE], prof_state_name(e->state));
	sb_adds(&out->cells[MC_PATH], e->path);
	if (e->state == PS_MISSING)
		out->style = S_DIM;
}

static int manager_enter(struct list *l, size_t i)
{
	struct manager *ms = (struct manager *)l;
	const struct prof_entry *e = &ms->pl.v[i];
	struct tui *t = l->view.tui;
	struct view *v;
	struct model *m;

	if (e->state == PS_MISSING) {
		err_set("%s is gone (d forgets it)", e->path);
		return -1;
	}
	tui_suspend(t);
	m = ms->src->open(ms->src->ctx, tui_userdata(t), e->path);
	tui_resume(t);
	if (!m)
		return -1;
	v = timeline_open(m, 0, ms->group);
	if (!v) {
		ms->src->close(ms->src->ctx, m);
		return -1;
	}
	timeline_set_file(v, e->path);
	ms->m = m;
	tui_set_model(t, m);
	tui_push(t, v);
	return 0;
}

static int manager_request(struct list *l, enum request req)
{
	struct manager *ms = (struct manager *)l;
	struct userdata *u = tui_userdata(l->view.tui);
	size_t i = list_current(l);

	if (req != REQ_FORGET)
		return 1;
	if (i == SIZE_MAX || !ms->pl.v[i].recent) {
		tui_message(l->view.tui, "not a recent profile: nothing to forget");
		return 0;
	}
	if (!u) {
		tui_error(l->view.tui, "%s", tui_userdata_error(l->view.tui));
		return 0;
	}
	if (recent_forget(u, ms->pl.v[i].path))
		tui_error(l->view.tui, "%s", err_get());
	rescan(ms);
	return 0;
}

static const char *manager_export_name(struct list *l)
{
	(void)l;
	return "profiles";
}

static int manager_export(struct list *l, enum out_format fmt, FILE *f)
{
	struct manager *ms = (struct manager *)l;
	const char *where[] = { ms->src->title, NULL };

	export_profiles(&ms->pl, where, fmt, f);
	return 0;
}

static void manager_header(struct list *l, struct strbuf *out)
{
	struct manager *ms = (struct manager *)l;

	sb_printf(out, "%zu profile%s in %s", ms->pl.n, ms->pl.n == 1 ? "" : "s",
		  ms->src->title);
}

static void manager_free(struct list *l)
{
	struct manager *ms = (struct manager *)l;

	if (ms->m) {
		tui_set_model(l->view.tui, NULL);
		ms->src->close(ms->src->ctx, ms->m);
	}
	proflist_free(&ms->pl);
	free(ms);
}

static const struct list_ops manager_ops = {
	.count = manager_count,
	.line = manager_line,
	.enter = manager_enter,
	.request = manager_request,
	.export_name = manager_export_name,
	.export = manager_export,
	.reload = manager_reload,
	.header = manager_header,
	.free = manager_free,
};

static const struct view_ops manager_vops = LIST_VIEW_OPS("profiles",
	KM_PROFILES, "? help  j/k move  Enter open  / filter  o/O sort  "
	"d forget  q quit", list_cmds);

struct view *manager_view_open(struct tui *t, const struct tui_profiles *p,
			       const struct sysgroup *group)
{
	struct manager *ms = xcalloc(1, sizeof(*ms));

	ms->src = p;
	ms->group = group;
	list_init(&ms->list, &manager_vops, &manager_ops, LIST_SMALL,
		  "profiles");
	ms->list.view.tui = t;
	list_set_cols(&ms->list, cols, MC_COUNT);
	rescan(ms);
	return &ms->list.view;
}
