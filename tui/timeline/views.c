/* Views to come back to: the timeline opened where the command line
 * says (--at, --zoom, --search, --select with --tracks), and views saved
 * by name in the user data (:view save NAME, :view NAME, :view). */
#include "config.h"

#include "tui/timeline/timeline.h"

#include <stdlib.h>
#include <string.h>

#include "model/text.h"
#include "tui/list.h"
#include "tui/tui.h"
#include "tui/timeline/timeline_int.h"

static struct view *views_list_open(struct timeline *tl);

/* The box of --select: over the rows of the tracks given (all rows
 * without), unfolded, with the cursor on its first row. */
static void start_select(struct timeline *tl, const struct tui_start *s)
{
	size_t first = tl->tr.rows[0], last = tl->tr.rows[tl->tr.nrows - 1];
	int64_t t0 = tl->origin + s->sel0, t1 = tl->origin + s->sel1;

	for (size_t k = 0; k < s->ntracks; k++) {
		size_t i = timeline_track_index(tl, s->tracks[k]);

		if (i == SIZE_MAX)
			continue;
		first = k ? NX_MIN(first, i) : i;
		last = k ? NX_MAX(last, i) : i;
	}
	timeline_goto(tl, t0, last);
	timeline_goto(tl, t0, first);
	tl->box = (struct box){ .on = 1, .fixed = 1, .t0 = t0, .t1 = t1,
				.track = first, .track_end = last };
	timeline_zoom_range(tl, t0, t1);
}

void timeline_start(struct view *v, const struct tui_start *s)
{
	struct timeline *tl = (struct timeline *)v;

	timeline_layout(tl);
	/* the first screen's folding now, so that rows chosen stay shown */
	tl->first_drawn = 1;
	tracks_fold_to_fit(&tl->tr, (size_t)tl->track_rows);
	tl->row = 0;
	timeline_layout(tl);
	if (s->has_align)
		timeline_stack_move(tl, s->align);
	timeline_zoom_fit(tl);
	if (s->search && timeline_search(tl, s->search))
		tui_error(v->tui, "%s", err_get());
	if (s->has_select)
		start_select(tl, s);
	if (s->has_zoom)
		timeline_zoom_range(tl, tl->origin + s->zoom0,
				    tl->origin + s->zoom1);
	if (s->has_at) {
		tl->cur = tl->origin + s->at;
		tl->fitted = 0;
		timeline_show_cursor(tl);
	}
}

/* Saved views (:view): what the screen shows, by name, in the user data
 * beside the markers. */

/* Line i's key in a saved view: its track id, "b" first on B's side;
 * a heading (no id) is "h" and the key of its first row, so that A's
 * and B's headings and a system profile's group headings differ. */
static void row_key(const struct timeline *tl, size_t i, struct strbuf *sb)
{
	const struct tracks *tr = &tl->tr;

	sb_adds(sb, tr->st[i].side ? "b" : "");
	while (!tr->t[i].id && i + 1 < tr->n && tr->st[i + 1].parent == i) {
		sb_adds(sb, "h");
		i++;
	}
	sb_printf(sb, "%lld", (long long)tr->t[i].id);
}

/* "3,7,b3,": the keys of the lines whose flag is set. */
static char *key_list(const struct timeline *tl, int lanes)
{
	struct strbuf sb;

	sb_init(&sb);
	for (size_t i = 0; i < tl->tr.n; i++) {
		const struct track_state *st = &tl->tr.st[i];

		if (lanes ? st->lanes_folded : st->is_group && st->folded) {
			row_key(tl, i, &sb);
			sb_adds(&sb, ",");
		}
	}
	return sb_detach(&sb);
}

static char *key_of(const struct timeline *tl, size_t i)
{
	struct strbuf sb;

	sb_init(&sb);
	row_key(tl, i, &sb);
	return sb_detach(&sb);
}

/* The line of key k (a view saved before keys: track id on A's side);
 * SIZE_MAX if none. */
static size_t line_of(const struct timeline *tl, const struct saved_view *sv)
{
	for (size_t i = 0; sv->track_key && i < tl->tr.n; i++) {
		char *k = key_of(tl, i);
		int same = !strcmp(k, sv->track_key);

		free(k);
		if (same)
			return i;
	}
	return sv->track_key ? SIZE_MAX : tracks_find(&tl->tr, sv->track);
}

/* Whether line i's key is in list. */
static int in_list(const struct timeline *tl, const char *list, size_t i)
{
	char *key = key_of(tl, i);
	size_t n = strlen(key), w;
	int found = 0;

	for (const char *p = list ? list : ""; *p && !found; p += w + !!p[w]) {
		w = strcspn(p, ",");
		found = w == n && !strncmp(p, key, n);
	}
	free(key);
	return found;
}

static void capture(struct timeline *tl, char *name, struct saved_view *sv)
{
	size_t i = timeline_cur_track(tl);

	*sv = (struct saved_view){
		.name = name,
		.t0 = tl->t0,
		.t1 = timeline_end(tl),
		.cur = tl->cur,
		.track = tl->tr.t[i].id,
		.track_key = key_of(tl, i),
		.folded = key_list(tl, 0),
		.lanes_folded = key_list(tl, 1),
		.color = (int)tl->color_by,
		.lanes = tl->tr.lanes,
		.search = tl->hl.kind == HL_SEARCH ? tl->hl.text : NULL,
		.compare = tl->tr.mb ? (char *)tui_compare_path(tl->view.tui) :
				       NULL,
		.compare_offset = timeline_stack_offset(tl),
	};
}

static void restore_rows(struct timeline *tl, const struct saved_view *sv)
{
	for (size_t i = 0; i < tl->tr.n; i++) {
		struct track_state *st = &tl->tr.st[i];

		if (st->is_group)
			st->folded = in_list(tl, sv->folded, i);
		st->lanes_folded = in_list(tl, sv->lanes_folded, i);
	}
	if (sv->lanes >= 1)
		tl->tr.lanes = sv->lanes;
	tracks_update_rows(&tl->tr);
}

/* Profile B as sv had it: opened and stacked when it is not yet, moved
 * as it was; -1 with err_set() when another B is stacked. */
static int restore_b(struct timeline *tl, const struct saved_view *sv)
{
	struct tui *t = tl->view.tui;
	const char *path = tui_compare_path(t);
	struct model *b;

	if (!sv->compare)
		return 0;
	if (tl->tr.mb && (!path || strcmp(path, sv->compare))) {
		err_set("view \"%s\" stacks %s; this timeline stacks %s",
			sv->name, sv->compare, path ? path : "another B");
		return -1;
	}
	if (!tl->tr.mb) {
		if (tui_compare_model(t)) {
			err_set("view \"%s\" stacks %s; B here is open and "
				"not stacked", sv->name, sv->compare);
			return -1;
		}
		if (!(b = tui_open_compare(t, sv->compare)) ||
		    timeline_stack(&tl->view, b))
			return -1;
	}
	timeline_stack_move(tl, sv->compare_offset);
	return 0;
}

/* Puts the timeline back as sv saw it; -1 with err_set() when its
 * search no longer parses, or its B cannot be stacked. */
static int restore(struct timeline *tl, const struct saved_view *sv)
{
	size_t i;
	int rc = restore_b(tl, sv);

	if (rc)
		return rc;
	i = line_of(tl, sv);
	restore_rows(tl, sv);
	tl->first_drawn = 1;
	if (sv->color >= 0 && sv->color < BY_COUNT)
		tl->color_by = (enum color_by)sv->color;
	if (sv->search)
		rc = timeline_search(tl, sv->search);
	else if (tl->hl.kind == HL_SEARCH)
		timeline_hl_clear(tl);
	tl->row = i == SIZE_MAX ? 0 : tracks_row_of(&tl->tr, i);
	timeline_layout(tl);
	tl->cur = sv->cur;
	timeline_zoom_range(tl, sv->t0, sv->t1);
	return rc;
}

static struct userdata *views_store(struct timeline *tl)
{
	struct userdata *u = tui_userdata(tl->view.tui);

	if (!u)
		err_set("views: %s", tui_userdata_error(tl->view.tui));
	return u;
}

static int view_save(struct timeline *tl, char *name)
{
	struct userdata *u = views_store(tl);
	struct saved_view sv;
	int rc;

	if (!u)
		return -1;
	capture(tl, name, &sv);
	rc = saved_view_put(u, tl->ud_key, &sv);
	free(sv.track_key);
	free(sv.folded);
	free(sv.lanes_folded);
	if (!rc)
		tui_message(tl->view.tui, "saved view \"%s\"", name);
	return rc;
}

static int view_load(struct timeline *tl, const char *name)
{
	struct userdata *u = views_store(tl);
	struct saved_view *v;
	size_t n, k;
	int rc;

	if (!u || saved_view_list(u, tl->ud_key, &v, &n))
		return -1;
	for (k = 0; k < n && strcmp(v[k].name, name); k++)
		;
	if (k == n) {
		err_set("no view named \"%s\" (:view lists them)", name);
		rc = -1;
	} else if (!(rc = restore(tl, &v[k]))) {
		tui_message(tl->view.tui, "view \"%s\"", name);
	}
	saved_view_list_free(v, n);
	return rc;
}

static int view_delete(struct timeline *tl, const char *name)
{
	struct userdata *u = views_store(tl);

	if (!u || saved_view_delete(u, tl->ud_key, name))
		return -1;
	tui_message(tl->view.tui, "deleted view \"%s\"", name);
	return 0;
}

/* ARGS from argv[from] on, joined by spaces: a name may have some. */
static char *rest(int argc, char **argv, int from)
{
	return tui_command_rest(argc - from + 1, argv + from - 1);
}

int timeline_view_command(struct timeline *tl, int argc, char **argv)
{
	int save = argc > 1 && !strcmp(argv[1], "save");
	int del = argc > 1 && !strcmp(argv[1], "delete");
	char *name;
	int rc;

	if (argc == 1) {
		struct view *l = views_list_open(tl);

		if (!l)
			return -1;
		tui_push(tl->view.tui, l);
		return 0;
	}
	if ((save || del) && argc == 2) {
		err_set("view %s: expected a NAME", argv[1]);
		return -1;
	}
	name = rest(argc, argv, save || del ? 2 : 1);
	rc = save ? view_save(tl, name) : del ? view_delete(tl, name) :
		    view_load(tl, name);
	free(name);
	return rc;
}

/* The list of :view: Enter restores a view, x deletes one (asking). */
struct views_list {
	struct list list;
	struct timeline *tl;
	struct saved_view *v;
	size_t n;
	char *chosen;		/* the view the question is about */
};

static const struct list_col views_cols[] = {
	{ "View", 24, 0, 0 }, { "From", 12, 1, 0 }, { "To", 12, 1, 0 },
	{ "Cursor", 12, 1, 0 }, { "Search", 30, 0, 0 },
};

static void views_reload(struct views_list *l)
{
	struct userdata *u = tui_userdata(l->tl->view.tui);

	saved_view_list_free(l->v, l->n);
	l->v = NULL;
	l->n = 0;
	if (u && saved_view_list(u, l->tl->ud_key, &l->v, &l->n))
		tui_error(l->tl->view.tui, "%s", err_get());
	list_changed(&l->list);
}

static size_t views_count(struct list *l)
{
	return ((struct views_list *)l)->n;
}

static void views_line(struct list *l, size_t i, struct list_line *out)
{
	struct views_list *vl = (struct views_list *)l;
	const struct saved_view *v = &vl->v[i];
	const int64_t t[3] = { v->t0, v->t1, v->cur };
	char buf[48];

	sb_adds(&out->cells[0], v->name);
	for (int k = 0; k < 3; k++) {
		timeline_fmt_rel(vl->tl, t[k], buf, sizeof(buf));
		sb_adds(&out->cells[1 + k], buf);
	}
	sb_adds(&out->cells[4], v->search ? v->search : "");
}

static int views_enter(struct list *l, size_t i)
{
	struct views_list *vl = (struct views_list *)l;
	struct timeline *tl = vl->tl;
	char *name = xstrdup(vl->v[i].name);
	int rc;

	tui_pop(tl->view.tui);	/* frees vl: back to the timeline */
	rc = view_load(tl, name);
	free(name);
	return rc;
}

static void delete_answer(struct view *v, int key)
{
	struct views_list *vl = (struct views_list *)v;

	(void)key;
	if (view_delete(vl->tl, vl->chosen))
		tui_error(v->tui, "%s", err_get());
	views_reload(vl);
}

static int views_request(struct list *l, enum request req)
{
	struct views_list *vl = (struct views_list *)l;
	size_t i = list_current(l);
	char *q;

	if (req != REQ_DELETE)
		return 1;
	if (i == SIZE_MAX)
		return 0;
	free(vl->chosen);
	vl->chosen = xstrdup(vl->v[i].name);
	q = xasprintf("Delete view \"%s\"? y/n", vl->chosen);
	tui_ask(l->view.tui, q, "y", delete_answer);
	free(q);
	return 0;
}

static void views_free(struct list *l)
{
	struct views_list *vl = (struct views_list *)l;

	saved_view_list_free(vl->v, vl->n);
	free(vl->chosen);
	free(vl);
}

static const struct list_ops views_ops = {
	.count = views_count,
	.line = views_line,
	.enter = views_enter,
	.request = views_request,
	.free = views_free,
};

static const struct view_ops views_vops = LIST_VIEW_OPS("views", KM_LIST,
	"? help  Enter restore  x delete  q back", list_cmds);

static struct view *views_list_open(struct timeline *tl)
{
	struct views_list *vl;

	if (!views_store(tl))
		return NULL;
	vl = xcalloc(1, sizeof(*vl));
	vl->tl = tl;
	list_init(&vl->list, &views_vops, &views_ops, LIST_SMALL, "views");
	list_set_cols(&vl->list, views_cols, (int)NX_ARRAY_SIZE(views_cols));
	views_reload(vl);
	return &vl->list.view;
}

/* y: the command line that reopens the view, built in pieces (nxtop and
 * the profile, then B and each option) that are joined by blanks on
 * the status line, or on lines of their own continued by a backslash
 * when the line is too long for it. */
struct cmdline {
	struct strbuf sb;	/* the pieces, a '\n' before each but the first */
	int control;		/* a word holds a character not shown as is */
};

/* A control character would reach the terminal raw when the line is
 * pasted; one the screen shows as U+FFFD (a C1 control, a bidi
 * override, bytes that are not UTF-8) would make the line on the
 * screen another path: such a part is not copied. */
static int has_control(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str);

	for (size_t i = 0; i < n;) {
		unsigned cp;
		size_t len = text_utf8_char(s + i, n - i, &cp);

		if (!len || !text_shown(cp))
			return 1;
		i += len;
	}
	return 0;
}

/* s as one shell word: bare when it is safe so, else in single quotes
 * (a quote inside as '\''). */
static void shell_quote(struct cmdline *c, const char *s)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyz"
				   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				   "_./:=,@%+-";

	c->control |= has_control(s);
	if (*s && strspn(s, safe) == strlen(s)) {
		sb_adds(&c->sb, s);
		return;
	}
	sb_adds(&c->sb, "'");
	for (; *s; s++) {
		if (*s == '\'')
			sb_adds(&c->sb, "'\\''");
		else
			sb_printf(&c->sb, "%c", *s);
	}
	sb_adds(&c->sb, "'");
}

/* s as a piece of its own: one shell word. */
static void shell_word(struct cmdline *c, const char *s)
{
	sb_addc(&c->sb, '\n');
	shell_quote(c, s);
}

/* The pieces joined by sep (malloc'd); no word holds a '\n'. */
static char *joined(const struct cmdline *c, const char *sep)
{
	struct strbuf out;

	sb_init(&out);
	for (size_t i = 0; i < c->sb.len; i++) {
		if (c->sb.buf[i] == '\n')
			sb_adds(&out, sep);
		else
			sb_addc(&out, c->sb.buf[i]);
	}
	return sb_detach(&out);
}

static void option_times(struct cmdline *c, const struct timeline *tl,
			 const char *opt, int64_t t0, int64_t t1)
{
	char *w = xasprintf("%s=%lldns:%lldns", opt,
			    (long long)(t0 - tl->origin),
			    (long long)(t1 - tl->origin));

	shell_word(c, w);
	free(w);
}

/* A row --tracks names: A's own (--tracks reads profile A's rows). */
static int named_row(const struct timeline *tl, size_t r)
{
	size_t i = tl->tr.rows[r];

	return !tl->tr.st[i].side && (!tl->tr.mb || i > 0);
}

/* --select and --tracks of the box: every row its summary counts, by
 * name, so that nxtop export --tracks reads those rows and the viewer
 * the same first and last; stacked, a box reaching B's rows or a
 * heading is over every row. */
static void option_select(struct cmdline *c, struct timeline *tl)
{
	int64_t t0, t1;
	size_t r0, r1, n = 0;
	struct strbuf names;

	if (timeline_box_range(tl, &t0, &t1, &r0, &r1))
		return;
	option_times(c, tl, "--select", t0, t1);
	if (!named_row(tl, r0) || !named_row(tl, r1))
		return;
	sb_init(&names);
	sb_adds(&names, "--tracks=");
	for (int pass = 0; pass < 2 && !n; pass++) {
		for (size_t r = r0; r <= r1; r++) {
			if (!timeline_box_row_counts(tl, r, r0, pass))
				continue;
			if (n++)
				sb_addc(&names, ',');
			model_track_label(tl->tr.t, tl->tr.n, tl->tr.rows[r],
					  &names);
		}
	}
	shell_word(c, sb_cstr(&names));
	sb_free(&names);
}

static int copy_line(struct timeline *tl, const char *profile,
		     struct cmdline *c)
{
	char at[48];

	sb_adds(&c->sb, "nxtop ");
	shell_quote(c, profile);
	if (tl->tr.mb) {
		const char *b = tui_compare_path(tl->view.tui);

		if (!b) {
			err_set("y: profile B's path is not known");
			return -1;
		}
		shell_word(c, b);
		snprintf(at, sizeof(at), "--align=%lldns",
			 (long long)timeline_stack_offset(tl));
		shell_word(c, at);
	}
	if (tl->hl.kind == HL_SEARCH) {
		sb_adds(&c->sb, "\n--search ");
		shell_quote(c, tl->hl.text);
	}
	option_select(c, tl);
	if (!tl->fitted)
		option_times(c, tl, "--zoom", tl->t0, timeline_end(tl));
	snprintf(at, sizeof(at), "--at=%lldns", (long long)(tl->cur - tl->origin));
	shell_word(c, at);
	if (c->control) {
		err_set("y: not copied: a control or bad UTF-8 in a path, "
			"search or row name");
		return -1;
	}
	return 0;
}

void timeline_copy_view(struct timeline *tl)
{
	struct tui *t = tl->view.tui;
	const char *profile = tui_profile(t);
	struct cmdline c = { .control = 0 };
	char *line, *lines;

	if (!profile || tui_below(t, &tl->view)) {
		tui_error(t, "y: only in the timeline nxtop PROFILE (or "
			  "nxtop A B) opened");
		return;
	}
	sb_init(&c.sb);
	if (copy_line(tl, profile, &c)) {
		tui_error(t, "%s", err_get());
	} else {
		line = joined(&c, " ");
		lines = joined(&c, " \\\n  ");
		tui_copy(t, line, lines);
		free(line);
		free(lines);
	}
	sb_free(&c.sb);
}
