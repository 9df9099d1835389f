/* Two profiles stacked (nxtop A B): profile B's rows under A's on one
 * time axis, B's times shifted so the starts line up, or two chosen
 * events or markers (:align on each side). */
#include "config.h"

#include "tui/timeline/timeline.h"

#include <stdlib.h>
#include <string.h>

#include "tui/draw.h"
#include "model/timefmt.h"
#include "model/util.h"
#include "tui/timeline/timeline_int.h"

/* Where a side's events begin, on its own axis. */
static int64_t side_start(const struct mprofile *p, const struct tracks *tr,
			  int side)
{
	int64_t s = p->start;

	for (size_t i = 0; i < tr->n; i++)
		if (tr->st[i].side == side && tr->t[i].n_events)
			s = NX_MIN(s, tr->t[i].min_ts);
	return s;
}

static void set_shift(struct timeline *tl, int64_t shift)
{
	tracks_set_shift(&tl->tr, shift);
	timeline_extent(tl);
	tl->marked[0] = tl->marked[1] = 0;
	tl->nmemo = 0;		/* B's counter labels read B's samples again */
	/* the density strip spans the new extent and counts B's too */
	tl->hl.dvalid = tl->hl.svalid = 0;
	if (tl->hl.kind != HL_NONE)
		for (size_t i = 0; i < tl->tr.n; i++)
			tl->hl.frames[i].valid = 0;
	timeline_clamp(tl);
}

/* B's start placed on A's. */
static int64_t start_shift(const struct timeline *tl)
{
	return side_start(&tl->prof, &tl->tr, 0) -
	       side_start(&tl->prof_b, &tl->tr, 1);
}

/* Stacks profile B's tracks (of mb, as A's are: a system profile's
 * rows under grouping g) under a's; a is left as it was on an error. */
int timeline_stack_tracks(struct timeline *tl, struct tracks *a,
			  struct model *mb, const struct sysgroup *g)
{
	struct tracks b;
	char *na, *nb;

	if (tl->is_system ? tracks_load_rows(&b, mb, tl->prof_b.id, g) :
			    tracks_load(&b, mb, tl->prof_b.id))
		return -1;
	na = xasprintf("A: %s", tl->prof.name ? tl->prof.name : "profile");
	nb = xasprintf("B: %s", tl->prof_b.name ? tl->prof_b.name : "profile");
	tracks_stack(a, &b, mb, na, nb);
	free(na);
	free(nb);
	return 0;
}

int timeline_stack(struct view *v, struct model *mb)
{
	struct timeline *tl = (struct timeline *)v;
	int64_t id;
	size_t old_n = tl->tr.n, cur = timeline_cur_track(tl);

	if (timeline_first_profile(mb, &id) ||
	    model_profile(mb, id, &tl->prof_b))
		return -1;
	/* a system profile and a device profile: the Compare view says
	 * why they do not compare */
	if (tl->is_system != (tl->prof_b.kind &&
			      !strcmp(tl->prof_b.kind, "system")))
		return 0;
	if (timeline_stack_tracks(tl, &tl->tr, mb, &tl->group))
		return -1;
	/* A's track i is line i + 1 now, under its heading */
	timeline_rows_changed(tl, old_n);
	tl->row = tracks_row_of(&tl->tr, cur + 1);
	tl->sel.id = 0;
	set_shift(tl, start_shift(tl));
	tl->first_drawn = 0;
	return timeline_hl_side_b(tl);
}

/* The time :align takes on the cursor's row: the event under the
 * cursor, else the marker in its column; on the axis. 0 found. */
static int align_point(struct timeline *tl, size_t i, int64_t *t)
{
	const struct marker *mk = timeline_mark_at_cursor(tl);
	struct mslice s;
	int rc = timeline_event_at(tl, i, &s);

	if (rc < 0)
		return -1;
	if (!rc) {
		*t = s.ts;
		return 0;
	}
	if (mk) {
		*t = mk->ts;
		return 0;
	}
	err_set("align: no event or marker under the cursor");
	return -1;
}

static int align_reset(struct timeline *tl)
{
	set_shift(tl, start_shift(tl));
	tui_message(tl->view.tui, "B's start aligned with A's");
	return 0;
}

/* :align on one side marks the point; on the other side then, B moves
 * so both points meet. Marks are kept on their side's own axis. */
int timeline_stack_align(struct timeline *tl, int argc, char **argv)
{
	size_t i = timeline_cur_track(tl);
	int side = tl->tr.st[i].side;
	int64_t t;
	char when[48];

	if (argc == 2 && !strcmp(argv[1], "start"))
		return align_reset(tl);
	if (argc > 1) {
		err_set("align: expected start, or no word: the event under "
			"the cursor");
		return -1;
	}
	if (align_point(tl, i, &t))
		return -1;
	tl->mark_at[side] = t - tracks_shift(&tl->tr, i);
	tl->marked[side] = 1;
	if (!tl->marked[!side]) {
		timeline_fmt_rel(tl, t, when, sizeof(when));
		tui_message(tl->view.tui, "align: %c marked at %s; :align on "
			    "an event of %c lines them up", 'A' + side, when,
			    'B' - side);
		return 0;
	}
	set_shift(tl, tl->mark_at[0] - tl->mark_at[1]);
	tl->cur = tl->mark_at[0];
	timeline_show_cursor(tl);
	timeline_fmt_rel(tl, tl->cur, when, sizeof(when));
	tui_message(tl->view.tui, "align: B's event moved to A's, at %s", when);
	return 0;
}

int64_t timeline_stack_offset(const struct timeline *tl)
{
	return tl->tr.mb ? tl->tr.shift - start_shift(tl) : 0;
}

void timeline_stack_move(struct timeline *tl, int64_t offset)
{
	if (tl->tr.mb)
		set_shift(tl, sat_add(start_shift(tl), offset));
}

void timeline_stack_header(const struct timeline *tl, struct strbuf *out)
{
	char b[48];
	int64_t d;

	if (!tl->tr.mb)
		return;
	d = timeline_stack_offset(tl);
	if (!d) {
		sb_adds(out, "  B at start");
		return;
	}
	timefmt_dur(b, sizeof(b), d < 0 ? -d : d, 3, draw_tf());
	sb_printf(out, "  B %s%s", d < 0 ? "-" : "+", b);
}
