/* Markers live in the user data store (model/userdata.h); the timeline
 * keeps the list, and every change here is written at once, then read
 * back. The list is reread when another nxtop changed the store. */
#include "config.h"

#include "tui/marker_view.h"

#include <stdlib.h>
#include <string.h>

#include "tui/draw.h"
#include "tui/list.h"
#include "model/report/export.h"
#include "model/timefmt.h"

/* Units u cycles through; NULL: one chosen per value. */
static const char *const units[] = { NULL, "ns", "us", "ms", "s" };

struct markers {
	struct list list;
	struct timeline *tl;
	int unit;		/* index in units */
	const struct marker *seen;	/* tl->marks when last counted */
};

static const struct list_col cols[] = {
	{ "Marker", 16, 0, 0 }, { "Time", 16, 1, 0 }, { "Diff vs", 16, 0, 0 },
	{ "Diff", 16, 1, 0 },
};

static struct userdata *store(struct list *l)
{
	return tui_userdata(l->view.tui);
}

/* The list after its markers or times changed: columns as wide as
 * their names and times. */
static void changed(struct markers *m)
{
	m->seen = m->tl->marks;
	list_changed(&m->list);
	list_fit_cols(&m->list);
}

/* Rereads the markers after a change here. */
static void reload(struct markers *m)
{
	m->tl->marks_loaded = 0;
	timeline_marks_load(m->tl);
	changed(m);
}

static void markers_reload(struct list *l)
{
	struct markers *m = (struct markers *)l;

	timeline_marks_load(m->tl);
	if (m->tl->marks != m->seen)
		changed(m);
}

static size_t markers_count(struct list *l)
{
	return ((struct markers *)l)->tl->nmarks;
}

static void fmt_time(const struct markers *m, int64_t ns, struct strbuf *out)
{
	char b[48];

	if (units[m->unit])
		timefmt_exact(b, sizeof(b), ns, units[m->unit]);
	else
		timefmt_dur(b, sizeof(b), ns, 6, draw_tf());
	sb_adds(out, b);
}

static void markers_line(struct list *l, size_t i, struct list_line *out)
{
	struct markers *m = (struct markers *)l;
	const struct marker *mk = m->tl->marks;
	long b = export_marker_base(mk, m->tl->nmarks, i);

	sb_adds(&out->cells[0], mk[i].name);
	fmt_time(m, mk[i].ts - m->tl->origin, &out->cells[1]);
	out->keys[1] = (double)mk[i].ts;
	if (b >= 0) {
		sb_printf(&out->cells[2], "%s%s", mk[b].name,
			  mk[i].ref ? "" : " (previous)");
		fmt_time(m, mk[i].ts - mk[b].ts, &out->cells[3]);
		out->keys[3] = (double)(mk[i].ts - mk[b].ts);
	}
}

static const struct marker *find(struct markers *m, const char *name)
{
	for (size_t k = 0; k < m->tl->nmarks; k++)
		if (!strcmp(m->tl->marks[k].name, name))
			return &m->tl->marks[k];
	return NULL;
}

static int check(int rc, struct markers *m)
{
	reload(m);
	return rc;
}

static int markers_enter(struct list *l, size_t i)
{
	struct markers *m = (struct markers *)l;
	struct timeline *tl = m->tl;
	int64_t ts = tl->marks[i].ts;

	tui_pop(l->view.tui);
	tl->cur = ts;
	tl->mark_on = tl->marks[i].id;
	tl->fitted = 0;
	timeline_show_cursor(tl);
	return 0;
}

/* f: the span from the marker it is diffed against to this one. */
static int markers_zoom(struct list *l, size_t i)
{
	struct markers *m = (struct markers *)l;
	struct timeline *tl = m->tl;
	long b = export_marker_base(tl->marks, tl->nmarks, i);
	int64_t a, z;

	if (b < 0) {
		err_set("%s has no marker to diff against", tl->marks[i].name);
		return -1;
	}
	a = NX_MIN(tl->marks[b].ts, tl->marks[i].ts);
	z = NX_MAX(tl->marks[b].ts, tl->marks[i].ts);
	tui_pop(l->view.tui);
	timeline_zoom_range(tl, a, z + 1);
	tl->cur = a;
	timeline_show_cursor(tl);
	return 0;
}

static void clear_answer(struct view *v, int key)
{
	struct markers *m = (struct markers *)v;

	(void)key;
	if (marker_clear(store(&m->list), m->tl->ud_key))
		tui_error(v->tui, "%s", err_get());
	else
		tui_message(v->tui, "markers cleared");
	reload(m);
}

static void ask_clear(struct markers *m)
{
	char *q;

	if (!m->tl->nmarks) {
		tui_message(m->list.view.tui, "no markers");
		return;
	}
	q = m->tl->nmarks == 1 ? xstrdup("Delete the marker? y/n") :
	    xasprintf("Delete all %zu markers? y/n", m->tl->nmarks);
	tui_ask(m->list.view.tui, q, "y", clear_answer);
	free(q);
}

static struct view *sets_open(struct markers *m);

static int markers_request(struct list *l, enum request req)
{
	struct markers *m = (struct markers *)l;
	size_t i = list_current(l);
	const struct marker *mk = i == SIZE_MAX ? NULL : &m->tl->marks[i];

	switch (req) {
	case REQ_RENAME:
		if (mk)
			tui_command_word(l->view.tui, "rename", mk->name);
		return 0;
	case REQ_DIFF_VS:
		if (mk)
			tui_command_word(l->view.tui, "diff-vs", NULL);
		return 0;
	case REQ_DELETE:
		if (mk && check(marker_delete(store(l), mk->id), m))
			tui_error(l->view.tui, "%s", err_get());
		return 0;
	case REQ_CLEAR:
		ask_clear(m);
		return 0;
	case REQ_UNIT:
		m->unit = (m->unit + 1) % (int)NX_ARRAY_SIZE(units);
		changed(m);
		tui_message(l->view.tui, "times in %s",
			    units[m->unit] ? units[m->unit] : "a unit per value");
		return 0;
	case REQ_SAVE_SET:
		tui_command_word(l->view.tui, "save-set", NULL);
		return 0;
	case REQ_SETS:
		tui_push(l->view.tui, sets_open(m));
		return 0;
	default:
		return 1;
	}
}

static int cmd_marker(struct markers *m, const char *cmd, const char *arg)
{
	size_t i = list_current(&m->list);
	const struct marker *mk = i == SIZE_MAX ? NULL : &m->tl->marks[i];
	struct userdata *u = store(&m->list);

	if (!mk) {
		err_set("%s: no marker here", cmd);
		return -1;
	}
	if (!strcmp(cmd, "rename")) {
		if (!*arg) {
			err_set("rename: a marker needs a name");
			return -1;
		}
		return check(marker_rename(u, mk->id, arg), m);
	}
	if (!*arg || !strcmp(arg, "previous"))
		return check(marker_set_ref(u, mk->id, 0), m);
	if (!find(m, arg) || find(m, arg) == mk) {
		err_set("diff-vs: no other marker named \"%s\"", arg);
		return -1;
	}
	return check(marker_set_ref(u, mk->id, find(m, arg)->id), m);
}

static int cmd_unit(struct markers *m, const char *arg)
{
	for (size_t k = 0; k < NX_ARRAY_SIZE(units); k++) {
		if (units[k] ? !strcmp(arg, units[k]) : !strcmp(arg, "auto")) {
			m->unit = (int)k;
			changed(m);
			return 0;
		}
	}
	err_set("unit: expected ns, us, ms, s or auto");
	return -1;
}

static int cmd_set(struct markers *m, const char *cmd, const char *arg)
{
	struct userdata *u = store(&m->list);
	const char *key = m->tl->ud_key;
	int rc;

	if (!strcmp(cmd, "save-set"))
		rc = marker_set_save(u, key, arg);
	else if (!strcmp(cmd, "load-set"))
		rc = marker_set_load(u, key, arg);
	else
		rc = marker_set_delete(u, key, arg);
	if (!rc)
		tui_message(m->list.view.tui, "%s \"%s\"", !strcmp(cmd, "save-set") ?
			    "saved the markers as" : !strcmp(cmd, "load-set") ?
			    "loaded the markers of" : "deleted the set", arg);
	return check(rc, m);
}

static int markers_command(struct list *l, int argc, char **argv)
{
	struct markers *m = (struct markers *)l;
	char *arg = tui_command_rest(argc, argv);
	int rc = 1;

	if (!strcmp(argv[0], "rename") || !strcmp(argv[0], "diff-vs"))
		rc = cmd_marker(m, argv[0], arg);
	else if (!strcmp(argv[0], "unit"))
		rc = cmd_unit(m, arg);
	else if (!strcmp(argv[0], "save-set") || !strcmp(argv[0], "load-set") ||
		 !strcmp(argv[0], "delete-set"))
		rc = cmd_set(m, argv[0], arg);
	free(arg);
	return rc;
}

static const char *markers_export_name(struct list *l)
{
	(void)l;
	return "markers";
}

static int markers_export(struct list *l, enum out_format fmt, FILE *f)
{
	struct markers *m = (struct markers *)l;
	struct mprofile p = timeline_axis_profile(m->tl);

	export_markers(m->tl->marks, m->tl->nmarks, &p, units[m->unit], fmt, f);
	return 0;
}

static void markers_header(struct list *l, struct strbuf *out)
{
	struct markers *m = (struct markers *)l;

	sb_printf(out, "%zu marker%s, times in %s", m->tl->nmarks,
		  m->tl->nmarks == 1 ? "" : "s",
		  units[m->unit] ? units[m->unit] : "auto units");
}

static void markers_free(struct list *l)
{
	free(l);
}

static const struct list_ops markers_ops = {
	.count = markers_count,
	.line = markers_line,
	.enter = markers_enter,
	.zoom = markers_zoom,
	.request = markers_request,
	.command = markers_command,
	.export_name = markers_export_name,
	.export = markers_export,
	.reload = markers_reload,
	.header = markers_header,
	.free = markers_free,
};

const struct view_cmd markers_cmds[] = {
	{ "rename", "NAME", "Rename the marker" },
	{ "diff-vs", "NAME|previous", "Diff the marker against another" },
	{ "unit", "ns|us|ms|s|auto", "Show times in a unit" },
	{ "save-set", "NAME", "Save the markers as a set" },
	{ "load-set", "NAME", "Replace the markers with a set's" },
	{ "delete-set", "NAME", "Delete a marker set" },
	{ "sort", "COLUMN [asc|desc]", "Sort by a column" },
	{ "filter", "TEXT", "Keep lines containing TEXT" },
	{ NULL, NULL, NULL },
};

static const struct view_ops markers_vops = LIST_VIEW_OPS("markers",
	KM_MARKERS, "? help  Enter go  f zoom  r rename  b diff vs  u unit  "
	"x delete  w save set  S sets  q back", markers_cmds);

struct view *marker_view_open(struct timeline *tl)
{
	struct markers *m;

	if (!tui_userdata(tl->view.tui)) {
		err_set("markers: %s", tui_userdata_error(tl->view.tui));
		return NULL;
	}
	m = xcalloc(1, sizeof(*m));
	m->tl = tl;
	timeline_marks_load(tl);
	list_init(&m->list, &markers_vops, &markers_ops, LIST_SMALL, "markers");
	list_set_cols(&m->list, cols, (int)NX_ARRAY_SIZE(cols));
	changed(m);
	return &m->list.view;
}

/* The marker sets: Enter loads one (replacing the markers), x deletes
 * one; both ask first. */
struct sets {
	struct list list;
	struct markers *m;
	char **names;
	size_t n;
	char *chosen;		/* the set a question is about */
};

static const struct list_col set_cols[] = { { "Marker set", 40, 0, 0 } };

static void sets_reload(struct sets *s)
{
	strings_free(s->names, s->n);
	s->names = NULL;
	s->n = 0;
	/* before it is pushed, the list has no tui yet: use the markers' */
	if (marker_sets(store(&s->m->list), s->m->tl->ud_key, &s->names, &s->n))
		tui_error(s->m->list.view.tui, "%s", err_get());
	list_changed(&s->list);
}

static size_t sets_count(struct list *l)
{
	return ((struct sets *)l)->n;
}

static void sets_line(struct list *l, size_t i, struct list_line *out)
{
	sb_adds(&out->cells[0], ((struct sets *)l)->names[i]);
}

static void load_answer(struct view *v, int key)
{
	struct sets *s = (struct sets *)v;
	struct markers *m = s->m;
	char *name = s->chosen;

	(void)key;
	s->chosen = NULL;
	tui_pop(v->tui);	/* back to the markers */
	if (cmd_set(m, "load-set", name))
		tui_error(m->list.view.tui, "%s", err_get());
	free(name);
}

static void delete_answer(struct view *v, int key)
{
	struct sets *s = (struct sets *)v;

	(void)key;
	if (cmd_set(s->m, "delete-set", s->chosen))
		tui_error(v->tui, "%s", err_get());
	sets_reload(s);
}

static void ask(struct sets *s, size_t i, const char *fmt,
		void (*fn)(struct view *, int))
{
	char *q;

	free(s->chosen);
	s->chosen = xstrdup(s->names[i]);
	q = xasprintf(fmt, s->names[i], s->m->tl->nmarks,
		      s->m->tl->nmarks == 1 ? "" : "s");
	tui_ask(s->list.view.tui, q, "y", fn);
	free(q);
}

static int sets_enter(struct list *l, size_t i)
{
	ask((struct sets *)l, i, "Load set \"%s\", replacing the %zu "
	    "marker%s? y/n", load_answer);
	return 0;
}

static int sets_request(struct list *l, enum request req)
{
	size_t i = list_current(l);

	if (req != REQ_DELETE)
		return 1;
	if (i != SIZE_MAX)
		ask((struct sets *)l, i, "Delete set \"%s\"? y/n", delete_answer);
	return 0;
}

static void sets_free(struct list *l)
{
	struct sets *s = (struct sets *)l;

	strings_free(s->names, s->n);
	free(s->chosen);
	free(s);
}

static const struct list_ops sets_ops = {
	.count = sets_count,
	.line = sets_line,
	.enter = sets_enter,
	.request = sets_request,
	.free = sets_free,
};

static const struct view_ops sets_vops = LIST_VIEW_OPS("marker sets", KM_LIST,
	"? help  Enter load  x delete  q back", list_cmds);

static struct view *sets_open(struct markers *m)
{
	struct sets *s = xcalloc(1, sizeof(*s));

	s->m = m;
	list_init(&s->list, &sets_vops, &sets_ops, LIST_SMALL, "sets");
	list_set_cols(&s->list, set_cols, 1);
	sets_reload(s);
	return &s->list.view;
}
