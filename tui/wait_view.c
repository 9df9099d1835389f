#include "config.h"

#include "tui/wait_view.h"

#include <stdlib.h>
#include <string.h>

#include "model/devqueue.h"
#include "model/util.h"
#include "tui/draw.h"
#include "tui/timeline/timeline.h"

struct waiting {
	struct view view;
	struct model *m;
	int64_t device, slice;
	char *label;
	char *failed;		/* why it cannot be opened, once known */
};

static void wait_draw(struct view *v, WINDOW *win)
{
	struct waiting *w = (struct waiting *)v;
	struct devqueue *q = model_devqueue(w->m);
	int pct = 0, st = q ? devq_state(q, w->device, &pct) : -1;
	int y = v->top + NX_MAX(v->height / 2 - 2, 0), x = 2;
	char line[96];

	for (int i = 0; i < v->height; i++)
		draw_fill(win, v->top + i, 0, v->width, A_NORMAL);
	if (w->failed) {
		draw_text(win, y, x, v->width - 4, w->failed,
			  draw_style(S_ERROR), 0);
	} else {
		if (st == DQ_IMPORTING)
			snprintf(line, sizeof(line), "Importing: %d%%", pct);
		else
			snprintf(line, sizeof(line), "Queued: it is imported next");
		draw_str(win, y, x, v->width - 4, line, A_BOLD);
	}
	draw_text(win, y + 1, x, v->width - 4, w->label, A_NORMAL, 0);
	draw_str(win, y + 3, x, v->width - 4, w->failed ? "q goes back." :
		 "It opens here when it is ready; q goes back.",
		 draw_style(S_DIM));
}

/* Ready: the timeline takes this view's place; failed: why. */
/* What the drill put before the label ("B: " when stacked) goes before
 * the timeline's title too. */
static void keep_prefix(const struct view *v, const struct waiting *w,
			struct view *tl)
{
	size_t n = strlen(v->title), k = strlen(w->label);
	char *title;

	if (n <= k || strcmp(v->title + n - k, w->label))
		return;
	title = xasprintf("%.*s%s", (int)(n - k), v->title, tl->title);
	free(tl->title);
	tl->title = title;
}

static int wait_poll(struct view *v, int wait)
{
	struct waiting *w = (struct waiting *)v;
	struct devqueue *q = model_devqueue(w->m);
	struct tui *t = v->tui;
	struct view *tl;
	int st = q ? devq_state(q, w->device, NULL) : -1;

	(void)wait;
	if (w->failed)
		return VIEW_IDLE;
	if (st == DQ_READY || st == DQ_FAILED || st < 0) {
		tl = timeline_open_device(w->m, w->device, w->slice);
		if (!tl) {
			w->failed = xstrdup(err_get());
			return VIEW_DONE;
		}
		keep_prefix(v, w, tl);
		tui_pop(t);	/* frees w */
		tui_push(t, tl);
		return VIEW_DONE;
	}
	/* the frames of its progress come with the queue's changes */
	return VIEW_BUSY;
}

static int wait_request(struct view *v, enum request req)
{
	if (req == REQ_CLOSE_PANE || req == REQ_BACK) {
		tui_pop(v->tui);
		return 0;
	}
	return 1;
}

static void wait_close(struct view *v)
{
	struct waiting *w = (struct waiting *)v;

	free(w->label);
	free(w->failed);
	free(v->title);
	free(w);
}

static const struct view_ops wait_ops = {
	.name = "waiting",
	.keymap = KM_GENERIC,
	.draw = wait_draw,
	.request = wait_request,
	.poll = wait_poll,
	.hints = "? help  q back (the import goes on)",
	.close = wait_close,
};

struct view *wait_view_open(struct model *m, int64_t device, int64_t slice,
			    const char *label)
{
	struct waiting *w = xcalloc(1, sizeof(*w));

	w->view.ops = &wait_ops;
	w->view.title = xstrdup(label);
	w->m = m;
	w->device = device;
	w->slice = slice;
	w->label = xstrdup(label);
	devq_prefer(model_devqueue(m), device);
	return &w->view;
}
