/* A system profile's grouping, chosen at view time: G fills the command
 * line with the current choice, written as the --group and --row
 * options write it, to edit (Up recalls earlier lines); :group regroups
 * the rows (model_sysrows) without importing again, keeping the cursor
 * on the row of the same track, the time and the zoom. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tui/timeline/timeline_int.h"

/* "--group instance_id,process_id --row worker_gid,lnc_idx,thread_id" */
static void choice_text(const struct sysgroup *g, struct strbuf *out)
{
	struct strbuf f;

	sb_init(&f);
	sysgroup_fields_text(g->group, g->ngroup, &f);
	sb_printf(out, g->ngroup ? "--group %s" : "--group=%s", sb_cstr(&f));
	sysgroup_fields_text(g->row, g->nrow, &f);
	sb_printf(out, g->nrow ? " --row %s" : " --row=%s", sb_cstr(&f));
	sb_free(&f);
}

void timeline_group_prompt(struct timeline *tl)
{
	struct strbuf sb;

	if (!tl->is_system) {
		tui_message(tl->view.tui, "G groups the rows of a system "
			    "profile; a device profile's rows are its own");
		return;
	}
	sb_init(&sb);
	choice_text(&tl->group, &sb);
	tui_command_word(tl->view.tui, "group", sb_cstr(&sb));
	sb_free(&sb);
}

/* "--group=LIST", or "--group" then LIST: the list, or NULL. */
static const char *option(const char *name, int argc, char **argv, int *i)
{
	size_t n = strlen(name);

	if (strncmp(argv[*i], name, n))
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] || *i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

static int parse(struct timeline *tl, int argc, char **argv,
		 struct sysgroup *g)
{
	for (int i = 1; i < argc; i++) {
		const char *list;

		if (!strcmp(argv[i], "default")) {
			*g = tl->group_default;
		} else if ((list = option("--group", argc, argv, &i))) {
			if (sysgroup_parse(list, "--group", g->group, &g->ngroup))
				return -1;
		} else if ((list = option("--row", argc, argv, &i))) {
			if (sysgroup_parse(list, "--row", g->row, &g->nrow))
				return -1;
		} else if (argv[i][0] != '-') {
			if (sysgroup_parse(argv[i], "--group", g->group,
					   &g->ngroup))
				return -1;
		} else {
			err_set("group: expected --group FIELDS, --row FIELDS "
				"or default, not '%s'", argv[i]);
			return -1;
		}
	}
	return 0;
}

/* A track of the cursor's row (a heading: of its first row). */
static int64_t cursor_track(const struct timeline *tl)
{
	size_t i = timeline_cur_track(tl), n;

	if (tl->tr.st[i].is_group && i + 1 < tl->tr.n &&
	    tl->tr.st[i + 1].parent == i)
		i++;
	return tracks_members(&tl->tr, i, &n)[0].id;
}

static int regroup(struct timeline *tl, const struct sysgroup *g)
{
	struct tracks tr;
	struct strbuf sb;
	size_t old_n = tl->tr.n, k, groups = 0;
	int64_t id = cursor_track(tl);
	int side = tl->tr.st[timeline_cur_track(tl)].side;

	if (tracks_load_rows(&tr, tl->m, tl->prof.id, g))
		return -1;
	if (tl->tr.mb) {
		if (timeline_stack_tracks(tl, &tr, tl->tr.mb, g)) {
			tracks_free(&tr);
			return -1;
		}
		tracks_set_shift(&tr, tl->tr.shift);
	}
	tr.lanes = tl->tr.lanes;	/* :lanes holds across groupings */
	tracks_free(&tl->tr);
	tl->tr = tr;
	tracks_update_rows(&tl->tr);
	tl->group = *g;
	timeline_rows_changed(tl, old_n);
	k = tracks_find_side(&tl->tr, side, id);
	tl->row = k == SIZE_MAX ? 0 : tracks_row_of(&tl->tr, k);
	timeline_layout(tl);
	for (size_t i = 0; i < tl->tr.n; i++)
		groups += tl->tr.st[i].is_group;
	sb_init(&sb);
	choice_text(g, &sb);
	tui_message(tl->view.tui, "%zu row%s in %zu group%s: %s",
		    tl->tr.n - groups, tl->tr.n - groups == 1 ? "" : "s",
		    groups, groups == 1 ? "" : "s", sb_cstr(&sb));
	sb_free(&sb);
	return 0;
}

int timeline_group_command(struct timeline *tl, int argc, char **argv)
{
	struct sysgroup g = tl->group;

	if (!tl->is_system) {
		err_set("group: only the rows of a system profile can be "
			"grouped");
		return -1;
	}
	if (parse(tl, argc, argv, &g))
		return -1;
	return regroup(tl, &g);
}
