/* Views to come back to: the timeline opened where the command line
 * says (--at, --zoom, --search, --select with --tracks). */
#include "config.h"

#include "tui/timeline/timeline.h"

#include "tui/tui.h"
#include "tui/timeline/timeline_int.h"

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
