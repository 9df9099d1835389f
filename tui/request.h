/* The one table of requests: every action a key can trigger, with its
 * name (also a ':' command), default keys and help text. It builds the
 * request enum, the keymap (keys.c), the '?' screen (help.c) and the KEYS
 * section of man/nxtop.1 (kept equal by tests/test_keys.c).
 *
 * Keys are separated by spaces: a printable character stands for itself;
 * <Up>, <Down>, <Left>, <Right>, <Home>, <End>, <PgUp>, <PgDown>,
 * <Enter>, <Tab>, <Space>, <Esc>, <Backspace> and <C-x> (Control-x) name
 * the others. */
#ifndef NX_TUI_REQUEST_H
#define NX_TUI_REQUEST_H

#define REQ_INFO(GROUP, REQ) \
	GROUP("Moving in time") \
	REQ(ZOOM_IN, "zoom-in", "w + =", "Zoom in around the cursor") \
	REQ(ZOOM_OUT, "zoom-out", "s -", "Zoom out around the cursor") \
	REQ(ZOOM_FIT, "zoom-fit", "0 <Home>", "Zoom to fit the whole profile") \
	REQ(PAN_LEFT, "pan-left", "a", "Pan left by a quarter of the view") \
	REQ(PAN_RIGHT, "pan-right", "d", "Pan right by a quarter of the view") \
	REQ(SCROLL_LEFT, "scroll-left", "<Left>", \
	    "Pan left by a sixteenth of the view") \
	REQ(SCROLL_RIGHT, "scroll-right", "<Right>", \
	    "Pan right by a sixteenth of the view") \
	REQ(CURSOR_LEFT, "cursor-left", "h", \
	    "Move the cursor one column left") \
	REQ(CURSOR_RIGHT, "cursor-right", "l", \
	    "Move the cursor one column right") \
	REQ(NEXT_EVENT, "next-event", ".", \
	    "Jump to the next event on the track") \
	REQ(PREV_EVENT, "prev-event", ",", \
	    "Jump to the previous event on the track") \
	GROUP("Moving between tracks and lines") \
	REQ(MOVE_DOWN, "move-down", "j <Down>", "Next track or line") \
	REQ(MOVE_UP, "move-up", "k <Up>", "Previous track or line") \
	REQ(PAGE_DOWN, "page-down", "<PgDown> <C-f>", "One page down") \
	REQ(PAGE_UP, "page-up", "<PgUp> <C-b>", "One page up") \
	REQ(FOLD, "fold", "<Space>", "Fold or unfold the track's group") \
	GROUP("Panes and views") \
	REQ(ENTER, "enter", "<Enter>", \
	    "Show the event under the cursor in the details pane") \
	REQ(FOCUS, "focus", "<Tab>", \
	    "Move the focus between the timeline and the details pane") \
	REQ(CLOSE_PANE, "close-pane", "<Esc>", "Close the details pane") \
	REQ(COLOR, "color", "c", "Colour by opcode, by layer or by engine") \
	REQ(PROMPT, "prompt", ":", "Open the command line") \
	REQ(HELP, "help", "?", "Show this help") \
	REQ(REDRAW, "redraw", "<C-l>", "Redraw the screen") \
	REQ(VIEW_CLOSE, "view-close", "q", \
	    "Close the view; in the timeline, quit") \
	REQ(QUIT, "quit", "Q", "Quit")

#define REQ_ENUM_(id, name, keys, help) REQ_##id,
#define REQ_NOGROUP_(title)
enum request {
	REQ_NONE,
	REQ_INFO(REQ_NOGROUP_, REQ_ENUM_)
	REQ_COUNT
};
#undef REQ_ENUM_
#undef REQ_NOGROUP_

struct req_info {
	enum request req;	/* REQ_NONE for a group heading */
	const char *name, *keys, *help;
};

/* The table in order, group headings included; n entries. */
const struct req_info *req_table(size_t *n);
/* The entry of a request; NULL for REQ_NONE. */
const struct req_info *req_info(enum request req);
/* The request of a name ("zoom-in"), REQ_NONE if unknown. */
enum request req_by_name(const char *name);

#endif
