/* Nesting on the timeline: folding a track's lanes (one per depth) and
 * setting how many a track takes; moving to the parent, the first
 * child, the next or previous sibling, the view following (zoomed out
 * when the event is wider than the screen). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "tui/timeline/timeline_int.h"

#include "model/nest.h"
#include "model/util.h"
#include "tui/tui.h"

/* s on the model m's own axis. */
static int nest_target(struct model *m, enum request req,
		       const struct mslice *s, struct mslice *out)
{
	switch (req) {
	case REQ_PARENT:
		return s->parent ? model_slice(m, s->parent, out) : 1;
	case REQ_FIRST_CHILD:
		return nest_first_child(m, s, out);
	default:
		return nest_sibling(m, s, req == REQ_NEXT_SIBLING ? 1 : -1,
				    out);
	}
}

static const char *const nest_none[] = {
	[REQ_PARENT - REQ_PARENT] = "the event has no parent",
	[REQ_FIRST_CHILD - REQ_PARENT] = "the event has no children",
	[REQ_NEXT_SIBLING - REQ_PARENT] = "no later event with the same parent",
	[REQ_PREV_SIBLING - REQ_PARENT] = "no earlier event with the same parent",
};

/* Rows changed: the cursor stays on track i, on its first lane. */
static void lanes_changed(struct timeline *tl, size_t i)
{
	tracks_update_rows(&tl->tr);
	tl->row = tracks_row_of(&tl->tr, i);
	timeline_layout(tl);
}

static void fold_lanes(struct timeline *tl)
{
	size_t i = timeline_cur_track(tl);
	struct track_state *st = &tl->tr.st[i];

	if (st->is_group || tl->tr.t[i].is_counter ||
	    tl->tr.t[i].max_depth < 1) {
		tui_message(tl->view.tui, "this track has no nested events");
		return;
	}
	if (!st->lanes_folded && tracks_lanes(&tl->tr, i) < 2) {
		tui_message(tl->view.tui, "this row is drawn on one line (:lanes N"
			    " sets how many lanes, merged rows have one)");
		return;
	}
	st->lanes_folded = !st->lanes_folded;
	lanes_changed(tl, i);
}

int timeline_lanes_command(struct timeline *tl, int argc, char **argv)
{
	char *end;
	long n;

	errno = 0;
	n = argc == 2 ? strtol(argv[1], &end, 10) : 0;
	if (argc != 2 || *end || errno || n < 1 || n > LANES_MAX) {
		err_set("lanes: expected a number of lanes from 1 to %d",
			LANES_MAX);
		return -1;
	}
	tl->tr.lanes = (int)n;
	lanes_changed(tl, timeline_cur_track(tl));
	return 0;
}

/* Selects t, found from an event of track index i: a system event's
 * parent or child may be on another row, whose group then unfolds. */
static void nest_go(struct timeline *tl, const struct mslice *t, size_t i)
{
	size_t k = tracks_find_side(&tl->tr, tl->tr.st[i].side, t->track_id);

	if (k == SIZE_MAX) {
		tui_message(tl->view.tui, "that event is on a row not shown");
		return;
	}
	if (k != i)
		timeline_goto(tl, t->ts, k);
	timeline_select(tl, t, k);
}

int timeline_nest_request(struct timeline *tl, enum request req)
{
	size_t i = timeline_cur_track(tl);
	struct model *m = tracks_model(&tl->tr, i);
	int64_t sh = tracks_shift(&tl->tr, i);
	struct mslice s = { 0 }, t;
	int rc;

	if (req == REQ_FOLD_LANES) {
		fold_lanes(tl);
		return 0;
	}
	if (req < REQ_PARENT || req > REQ_PREV_SIBLING)
		return 1;
	rc = timeline_event_at(tl, i, &s);
	if (rc == 0)
		rc = model_slice(m, s.id, &s);	/* with its parent */
	if (rc == 0)
		rc = nest_target(m, req, &s, &t);
	t.ts += sh;
	if (rc < 0)
		tui_error(tl->view.tui, "%s", err_get());
	else if (rc > 0)
		tui_message(tl->view.tui, "%s", s.id ?
			    nest_none[req - REQ_PARENT] :
			    "no event under the cursor");
	else
		nest_go(tl, &t, i);
	return 0;
}
