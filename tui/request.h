/* The one table of requests: every action a key can trigger, with its
 * name (also a ':' command), default keys and help text. It builds the
 * request enum, the keymaps (keys.c), the '?' screen (help.c) and the
 * KEYS section of man/nxtop.1 (kept equal by tests/test_tui.c).
 *
 * Requests come in groups, and each group belongs to a keymap: generic
 * keys work in every view, the others only in the views that use that
 * keymap (tig's way), so 'G' can be "last line" in a list and something
 * else in the timeline. A key is bound once per keymap, generic included.
 *
 * Keys are separated by spaces: a printable character stands for itself;
 * <Up>, <Down>, <Left>, <Right>, <Home>, <End>, <PgUp>, <PgDown>,
 * <Enter>, <Tab>, <Space>, <Esc>, <Backspace> and <C-x> (Control-x) name
 * the others. */
#ifndef NX_TUI_REQUEST_H
#define NX_TUI_REQUEST_H

#include <stddef.h>

enum keymap {
	KM_GENERIC,	/* every view */
	KM_TIMELINE,
	KM_LINES,	/* views of lines: every list and the pager */
	KM_LIST,	/* every list: layers, markers, matches, panels, ...,
			   over KM_LINES */
	KM_MARKERS,	/* the marker list, over KM_LIST */
	KM_LAYERS,	/* the layer table, over KM_LIST */
	KM_PAGER,	/* the pager of a long text, over KM_LINES */
	KM_PROFILES,	/* the Profile Manager, over KM_LIST */
	KM_COUNT
};

#define REQ_INFO(GROUP, REQ) \
	GROUP("Moving in time (timeline)", KM_TIMELINE) \
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
	REQ(LAST_EVENT, "last-event", "<End>", \
	    "Jump to the last event on the track") \
	GROUP("Moving between tracks and lines", KM_GENERIC) \
	REQ(MOVE_DOWN, "move-down", "j <Down>", "Next track or line") \
	REQ(MOVE_UP, "move-up", "k <Up>", "Previous track or line") \
	REQ(PAGE_DOWN, "page-down", "<PgDown> <C-f>", "One page down") \
	REQ(PAGE_UP, "page-up", "<PgUp> <C-b>", "One page up") \
	GROUP("Nesting: lanes, parents and children (timeline)", KM_TIMELINE) \
	REQ(PARENT, "parent", "{", \
	    "Move to the enclosing event (its parent)") \
	REQ(FIRST_CHILD, "first-child", "}", \
	    "Move to the event's first child") \
	REQ(NEXT_SIBLING, "next-sibling", "]", \
	    "Move to the next event with the same parent") \
	REQ(PREV_SIBLING, "prev-sibling", "[", \
	    "Move to the previous event with the same parent") \
	REQ(FOLD_LANES, "fold-lanes", "z", \
	    "Fold the track's nesting lanes onto one line, or unfold them " \
	    "(:lanes N sets how many a track takes)") \
	GROUP("Flows and dependencies (timeline)", KM_TIMELINE) \
	REQ(FOLLOW_FLOW, "follow-flow", "F", \
	    "Follow the flow or dependency of the event to its other end " \
	    "(a list chooses when there are several; on B's rows, B's " \
	    "flows); Backspace comes back") \
	GROUP("Tracks and panes (timeline)", KM_TIMELINE) \
	REQ(FOLD, "fold", "<Space>", "Fold or unfold the track's group") \
	REQ(FOCUS, "focus", "<Tab>", \
	    "Move the focus between the timeline and the details pane") \
	REQ(COLOR, "color", "c", "Colour by opcode, by layer or by engine") \
	GROUP("Search (timeline)", KM_TIMELINE) \
	REQ(SEARCH, "search", "/", \
	    "Search events: matches are highlighted (? on the empty prompt " \
	    "explains queries)") \
	REQ(NEXT_MATCH, "next-match", "n", \
	    "Jump to the next match in time order") \
	REQ(PREV_MATCH, "prev-match", "N", \
	    "Jump to the previous match in time order") \
	REQ(MATCHES, "matches", "R", "List the matches in view (stacked: " \
	    "both profiles', each under a heading with its figures)") \
	GROUP("Selections, markers and panels (timeline)", KM_TIMELINE) \
	REQ(BOX, "box", "v", \
	    "Start a box selection at the cursor; moving stretches it") \
	REQ(WINDOW, "window", "W", \
	    "Summarise what is on screen (Current Window summary)") \
	REQ(MARK, "mark", "m", \
	    "Drop a marker at the cursor, on the nearest event edge") \
	REQ(NEXT_MARKER, "next-marker", "'", "Jump to the next marker") \
	REQ(PREV_MARKER, "prev-marker", "\"", "Jump to the previous marker") \
	REQ(MARKERS, "markers", "M", "List the markers") \
	REQ(COPY_VIEW, "copy-view", "y", \
	    "Show the command line that reopens this view (profile, --zoom, " \
	    "--at, --search, --select and --tracks; stacked, nxtop A B " \
	    "--align=OFFSET ...), in the pager when too long for the " \
	    "status line; after :set osc52 on " \
	    "also copy it to the terminal's clipboard") \
	REQ(LAYERS, "layers", "L", "Show the layer table") \
	REQ(PANELS, "panels", "i", \
	    "Choose an info panel (Summary, NEFF, model, DMA queues, ...)") \
	REQ(INSIGHTS, "insights", "I", \
	    "List the findings of the analysis rules (Insights); Enter " \
	    "zooms to one and selects its rows (stacked: both profiles')") \
	GROUP("System and device profiles (timeline)", KM_TIMELINE) \
	REQ(DEVICES, "devices", "D", \
	    "List the device profiles of the system profile and their " \
	    "state (queued, importing, ready); Enter opens one") \
	REQ(BACK, "back", "<Backspace>", \
	    "Come back from a flow followed, to the event it was followed " \
	    "from; else go back to the view this one was opened from (from " \
	    "a device profile, to the system profile as it was left)") \
	REQ(REGROUP, "group", "G", \
	    "Group the system profile's rows, as --group and --row do " \
	    "(asks)") \
	REQ(ALIGN, "align", "A", \
	    "Read the device profile's times in system time, from its " \
	    "execution (again: its own time); with nxtop A B, mark the " \
	    "event or marker under the cursor, then one on the other " \
	    "profile's rows: B moves so they line up (:align)") \
	GROUP("Every view", KM_GENERIC) \
	REQ(ENTER, "enter", "<Enter>", \
	    "Show the event under the cursor (on a group's row: fold or " \
	    "unfold it), summarise the box; Enter " \
	    "again on an execution of a system profile opens its device " \
	    "profile; in the details pane, read the field in full in a " \
	    "pager; in a list, open the line") \
	REQ(ZOOM_TO, "zoom-to", "f", \
	    "Zoom the timeline to the box, or to the line of a list (a " \
	    "layer, a match, a marker and the one it is diffed against)") \
	REQ(CLOSE_PANE, "close-pane", "<Esc>", \
	    "Close the details pane, else clear the box, else the search " \
	    "or layer colours; in a list, clear the filter or close it") \
	REQ(EXPORT, "export", "e", \
	    "Export what the view shows as text to a file") \
	REQ(EXPORT_DATA, "export-data", "E", \
	    "Export what the view shows as JSON or CSV (asks which)") \
	REQ(PROMPT, "prompt", ":", "Open the command line") \
	REQ(HELP, "help", "?", "Show this help") \
	REQ(REDRAW, "redraw", "<C-l>", "Redraw the screen") \
	REQ(VIEW_CLOSE, "view-close", "q", \
	    "Close the view (a device profile: back to the system " \
	    "profile; a profile opened from the Profile Manager: back to " \
	    "it); in the first view, quit") \
	REQ(QUIT, "quit", "Q", "Quit") \
	GROUP("Lists and the pager", KM_LINES) \
	REQ(FIRST_LINE, "first-line", "g <Home>", "Go to the first line") \
	REQ(LAST_LINE, "last-line", "G <End>", "Go to the last line") \
	GROUP("Lists", KM_LIST) \
	REQ(SHOW_TEXT, "show-text", "t", \
	    "Read every cell of the line in full, in the pager") \
	REQ(FILTER, "filter", "/", \
	    "Keep the lines containing a text (empty: all)") \
	REQ(SORT, "sort", "o", "Sort by the next column") \
	REQ(SORT_REVERSE, "sort-reverse", "O", "Reverse the sort order") \
	REQ(COLUMNS_LEFT, "columns-left", "h <Left>", \
	    "Scroll the columns left") \
	REQ(COLUMNS_RIGHT, "columns-right", "l <Right>", \
	    "Scroll the columns right") \
	REQ(DELETE, "delete", "x", \
	    "Delete the marker, or (asking first) the marker set or saved " \
	    "view") \
	REQ(OTHER_SIDE, "other-side", "<Tab>", \
	    "In the matches of two stacked profiles (nxtop A B), go to the " \
	    "other profile's heading") \
	GROUP("Marker list", KM_MARKERS) \
	REQ(RENAME, "rename", "r", "Rename the marker") \
	REQ(DIFF_VS, "diff-vs", "b", \
	    "Choose the marker this one is diffed against") \
	REQ(UNIT, "unit", "u", "Show times in ns, us, ms, s or auto") \
	REQ(CLEAR, "clear", "X", "Delete every marker (asks first)") \
	REQ(SAVE_SET, "save-set", "w", "Save the markers as a named set") \
	REQ(SETS, "sets", "S", \
	    "List the marker sets (Enter loads one, x deletes it)") \
	GROUP("Layer table", KM_LAYERS) \
	REQ(DEEPER, "deeper", "+ ]", \
	    "Group layers one path level deeper (full names after the " \
	    "deepest)") \
	REQ(SHALLOWER, "shallower", "- [", \
	    "Group layers one path level shallower") \
	GROUP("Profile Manager", KM_PROFILES) \
	REQ(FORGET, "forget", "d", \
	    "Forget the recent profile (its files and cache stay)") \
	GROUP("Pager", KM_PAGER) \
	REQ(FIND, "find", "/", "Find a text (ignoring case) from the cursor " \
	    "on") \
	REQ(FIND_NEXT, "find-next", "n", "Find the text again, further on") \
	REQ(FIND_PREV, "find-prev", "N", "Find the text again, further back")

#define REQ_ENUM_(id, name, keys, help) REQ_##id,
#define REQ_NOGROUP_(title, keymap)
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
	enum keymap keymap;	/* of the group */
};

/* The table in order, group headings included; n entries. */
const struct req_info *req_table(size_t *n);
/* The entry of a request; NULL for REQ_NONE. */
const struct req_info *req_info(enum request req);
/* The request of a name ("zoom-in"), REQ_NONE if unknown. */
enum request req_by_name(const char *name);

#endif
