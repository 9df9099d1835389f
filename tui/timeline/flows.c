/* Flows on the timeline: F follows the flow of the event under the
 * cursor to its other end (a list chooses when there are several), and
 * Backspace comes back along the jumps, most recent first. Stacked, a
 * flow of B's rows is B's, its times moved as B is. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tui/timeline/timeline_int.h"

#include "model/flow.h"
#include "model/timefmt.h"
#include "model/util.h"
#include "tui/draw.h"
#include "tui/list.h"
#include "tui/tui.h"

/* Jumps kept to come back along; older ones are forgotten. */
#define JUMPS_MAX 64

struct tl_jump {
	int64_t t0, colw, cur;
	size_t row;
	struct mslice sel;	/* the event followed from, on the axis */
	int side;		/* its side */
};

static void jump_push(struct timeline *tl, const struct mslice *from,
		      int side)
{
	struct tl_jump j = { tl->t0, tl->colw, tl->cur, tl->row, *from, side };

	if (tl->njumps == JUMPS_MAX) {
		memmove(tl->jumps, tl->jumps + 1,
			(JUMPS_MAX - 1) * sizeof(*tl->jumps));
		tl->njumps--;
	}
	if (!tl->jumps)
		tl->jumps = xcalloc(JUMPS_MAX, sizeof(*tl->jumps));
	tl->jumps[tl->njumps++] = j;
}

static void jump_restore(struct timeline *tl, const struct tl_jump *j)
{
	size_t k = tracks_find_side(&tl->tr, j->side, j->sel.track_id);

	tl->colw = j->colw;
	tl->t0 = j->t0;
	tl->fitted = 0;
	if (k != SIZE_MAX) {
		timeline_goto(tl, j->cur, k);
		timeline_select(tl, &j->sel, k);
		return;
	}
	tl->row = NX_MIN(j->row, tl->tr.nrows ? tl->tr.nrows - 1 : 0);
	tl->cur = j->cur;
	timeline_layout(tl);
	timeline_show_cursor(tl);
}

/* Jumps to event to (a flow's other end, on side's own axis),
 * remembering the view and the event from (on the axis). */
static void flow_go(struct timeline *tl, const struct mslice *from,
		    const struct mslice *to, int side)
{
	size_t k = tracks_find_side(&tl->tr, side, to->track_id);
	struct mslice at = *to;

	if (k == SIZE_MAX) {
		tui_message(tl->view.tui, "the other end is on a row this view"
			    " does not show");
		return;
	}
	at.ts = sat_add(at.ts, tracks_shift(&tl->tr, k));
	jump_push(tl, from, side);
	timeline_goto(tl, at.ts, k);
	timeline_select(tl, &at, k);
	tui_message(tl->view.tui, "Backspace comes back");
}

void timeline_jumps_clear(struct timeline *tl)
{
	free(tl->jumps);
	tl->jumps = NULL;
	tl->njumps = 0;
}

/* The chooser of several flows: the other end of each. */
struct flow_list {
	struct list list;
	struct timeline *tl;
	int side;		/* the flows' side */
	struct mslice from;	/* the event followed from */
	struct mflow *f;
	size_t n;
};

enum { FC_DIR, FC_NAME, FC_ROW, FC_START, FC_KIND, FC_LINK, FC_COUNT };

static const struct list_col cols[FC_COUNT] = {
	{ "", 4, 0, 0 }, { "Name", 30, 0, 0 }, { "Row", 24, 0, 0 },
	{ "Start", 14, 1, 0 }, { "Kind", 12, 0, 0 }, { "Link", 8, 0, 0 },
};

static size_t fl_count(struct list *l)
{
	return ((struct flow_list *)l)->n;
}

static void fl_line(struct list *l, size_t i, struct list_line *out)
{
	struct flow_list *fl = (struct flow_list *)l;
	const struct mflow *f = &fl->f[i];
	const char *row;
	const struct mslice *o = flow_other(f, fl->from.id, &row);
	char b[48];

	sb_adds(&out->cells[FC_DIR], f->out.id == fl->from.id ? "to" : "from");
	sb_adds(&out->cells[FC_KIND], f->kind);
	sb_adds(&out->cells[FC_LINK], f->exact ? "exact" : "inferred");
	if (!o) {
		sb_adds(&out->cells[FC_NAME], "(unpaired)");
		out->style = S_DIM;
		return;
	}
	struct timeline *tl = fl->tl;
	int64_t ts = sat_add(o->ts, fl->side ? tl->tr.shift : 0);

	sb_adds(&out->cells[FC_NAME],
		model_string(fl->side ? tl->tr.mb : tl->m, o->name));
	sb_adds(&out->cells[FC_ROW], row);
	timefmt_dur(b, sizeof(b), ts - tl->origin, 6, draw_tf());
	sb_adds(&out->cells[FC_START], b);
	out->keys[FC_START] = (double)ts;
}

static int fl_enter(struct list *l, size_t i)
{
	struct flow_list *fl = (struct flow_list *)l;
	struct timeline *tl = fl->tl;
	const char *row;
	const struct mslice *o = flow_other(&fl->f[i], fl->from.id, &row);
	struct mslice from = fl->from, to;
	int side = fl->side;

	if (!o) {
		tui_message(l->view.tui, "this flow has no other end");
		return 0;
	}
	to = *o;
	tui_pop(l->view.tui);	/* frees fl */
	flow_go(tl, &from, &to, side);
	return 0;
}

static void fl_header(struct list *l, struct strbuf *out)
{
	struct flow_list *fl = (struct flow_list *)l;

	sb_printf(out, "%zu flow%s: Enter follows one", fl->n,
		  fl->n == 1 ? "" : "s");
}

static void fl_free(struct list *l)
{
	struct flow_list *fl = (struct flow_list *)l;

	flow_free(fl->f, fl->n);
	free(fl);
}

static const struct list_ops fl_ops = {
	.count = fl_count,
	.line = fl_line,
	.enter = fl_enter,
	.header = fl_header,
	.free = fl_free,
};

static const struct view_ops fl_vops = LIST_VIEW_OPS("flows", KM_LIST,
	"? help  j/k move  Enter follow  / filter  o/O sort  q back", list_cmds);

static void choose(struct timeline *tl, const struct mslice *from, int side,
		   struct mflow *f, size_t n)
{
	struct flow_list *fl = xcalloc(1, sizeof(*fl));

	fl->tl = tl;
	fl->side = side;
	fl->from = *from;
	fl->f = f;
	fl->n = n;
	list_init(&fl->list, &fl_vops, &fl_ops, LIST_SMALL, "flows");
	list_set_cols(&fl->list, cols, FC_COUNT);
	list_fit_cols(&fl->list);
	tui_push(tl->view.tui, &fl->list.view);
}

static void follow(struct timeline *tl)
{
	struct mslice s;
	struct mflow *f;
	const char *row;
	size_t n, i = timeline_cur_track(tl);
	int side = tl->tr.st[i].side;
	int rc = timeline_event_at(tl, i, &s);

	if (rc == 0)
		rc = flow_of_slice(tracks_model(&tl->tr, i), s.id, &f, &n);
	if (rc) {
		if (rc < 0)
			tui_error(tl->view.tui, "%s", err_get());
		else
			tui_message(tl->view.tui, "no event under the cursor");
		return;
	}
	if (n == 1 && flow_other(&f[0], s.id, &row)) {
		struct mslice to = *flow_other(&f[0], s.id, &row);

		flow_free(f, n);
		flow_go(tl, &s, &to, side);
	} else if (n) {
		choose(tl, &s, side, f, n);
	} else {
		flow_free(f, n);
		tui_message(tl->view.tui, "no flows leave or enter this event");
	}
}

int timeline_flow_request(struct timeline *tl, enum request req)
{
	if (req == REQ_FOLLOW_FLOW) {
		follow(tl);
		return 0;
	}
	if (req != REQ_BACK || !tl->njumps)
		return 1;
	jump_restore(tl, &tl->jumps[--tl->njumps]);
	return 0;
}
