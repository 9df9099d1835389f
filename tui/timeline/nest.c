/* Moving along the nesting of events: to the parent, the first child,
 * the next or previous sibling; the view follows, zooming out when the
 * event is wider than the screen. */
#include "config.h"

#include "tui/timeline/timeline_int.h"

#include "model/nest.h"
#include "model/util.h"
#include "tui/tui.h"

static int nest_target(struct timeline *tl, enum request req,
		       const struct mslice *s, struct mslice *out)
{
	switch (req) {
	case REQ_PARENT:
		return s->parent ? model_slice(tl->m, s->parent, out) : 1;
	case REQ_FIRST_CHILD:
		return nest_first_child(tl->m, s, out);
	default:
		return nest_sibling(tl->m, s, req == REQ_NEXT_SIBLING ? 1 : -1,
				    out);
	}
}

static const char *const nest_none[] = {
	[REQ_PARENT - REQ_PARENT] = "the event has no parent",
	[REQ_FIRST_CHILD - REQ_PARENT] = "the event has no children",
	[REQ_NEXT_SIBLING - REQ_PARENT] = "no later event with the same parent",
	[REQ_PREV_SIBLING - REQ_PARENT] = "no earlier event with the same parent",
};

int timeline_nest_request(struct timeline *tl, enum request req)
{
	size_t i = timeline_cur_track(tl);
	struct mslice s = { 0 }, t;
	int rc;

	if (req < REQ_PARENT || req > REQ_PREV_SIBLING)
		return 1;
	rc = timeline_event_at(tl, i, &s);
	if (rc == 0)
		rc = model_slice(tl->m, s.id, &s);	/* with its parent */
	if (rc == 0)
		rc = nest_target(tl, req, &s, &t);
	if (rc < 0)
		tui_error(tl->view.tui, "%s", err_get());
	else if (rc > 0)
		tui_message(tl->view.tui, "%s", s.id ?
			    nest_none[req - REQ_PARENT] :
			    "no event under the cursor");
	else
		timeline_select(tl, &t, i);
	return 0;
}
