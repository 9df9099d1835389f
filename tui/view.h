/* Views and the services the screen loop gives them. Every screen is a
 * view on a stack (timeline, help, lists, summaries); the loop knows a
 * view only through its struct view_ops. The loop draws the header
 * (breadcrumb of the stack) and the status line; a view draws the rows
 * between them. */
#ifndef NX_TUI_VIEW_H
#define NX_TUI_VIEW_H

#include <curses.h>
#include <stdio.h>

#include "model/report/report.h"
#include "model/util.h"
#include "tui/mouse.h"
#include "tui/request.h"

struct tui;
struct view;
struct userdata;
struct model;

/* A ':' command a view understands, for the help screen. */
struct view_cmd {
	const char *name, *args, *help;
};

/* What a view's background work is doing, in the order of urgency. */
enum view_poll {
	VIEW_IDLE,	/* none, or ended before */
	VIEW_DONE,	/* ended since the last look */
	VIEW_BUSY,	/* running */
};

struct view_ops {
	const char *name;
	enum keymap keymap;	/* which keys the view takes (request.h) */
	/* Draws rows [v->top, v->top + v->height) of the screen. */
	void (*draw)(struct view *v, WINDOW *win);
	/* Text after the breadcrumb in the header line. */
	void (*header)(struct view *v, struct strbuf *out);
	/* A warning shown at the right end of the header line, in the error
	 * colours (the profile dropped events); NULL or nothing: none. */
	void (*flag)(struct view *v, struct strbuf *out);
	/* Right side of the status line (cursor position and the like). */
	void (*status)(struct view *v, struct strbuf *out);
	/* 0 when the view handled the request, 1 to let the loop do its
	 * default (help, prompt, close, quit, export). */
	int (*request)(struct view *v, enum request req);
	/* A click, double-click, drag or wheel step on the view's rows
	 * (screen cells): 0 handled, 1 to let the loop do its default (a
	 * wheel step moves the cursor, a double-click is Enter). NULL:
	 * always the default. */
	int (*mouse)(struct view *v, const struct mouse_event *ev);
	/* Work the view does in the background (wait: until it ends):
	 * enum view_poll; the frame after VIEW_DONE shows what it found.
	 * NULL: none. */
	int (*poll)(struct view *v, int wait);
	/* A ':' command split into words: 0 done, 1 unknown command,
	 * -1 failed with err_set(). */
	int (*command)(struct view *v, int argc, char **argv);
	/* What e and E write: a short name for the file ("selection",
	 * "layers", ...), NULL when there is nothing to export. */
	const char *(*export_name)(struct view *v);
	/* Writes it; 0 on success, -1 with err_set(). */
	int (*export)(struct view *v, enum out_format fmt, FILE *f);
	/* Key hints for the status line when there is no message. */
	const char *hints;
	/* The view's ':' commands; NULL-terminated. */
	const struct view_cmd *commands;
	/* A command whose name alone runs the command, not the request of
	 * that name (:search clears the search, / asks for one); NULL:
	 * none. */
	const char *bare_command;
	void (*close)(struct view *v);
};

struct view {
	const struct view_ops *ops;
	struct tui *tui;
	char *title;		/* breadcrumb entry */
	int top, height, width;	/* screen area, set before each call */
};

/* Pushes a view; the stack owns it from now on. */
void tui_push(struct tui *t, struct view *v);
/* Closes the top view; the UI ends when none is left. */
void tui_pop(struct tui *t);
/* The view under v on the stack, NULL for the first. */
struct view *tui_below(struct tui *t, struct view *v);
/* One line on the status line until the next key. */
void tui_message(struct tui *t, const char *fmt, ...) NX_PRINTF(2, 3);
void tui_error(struct tui *t, const char *fmt, ...) NX_PRINTF(2, 3);
/* A message that stays past the next key: one a key caused while it
 * was waiting to be read. */
void tui_message_past_key(struct tui *t, const char *fmt, ...)
	NX_PRINTF(2, 3);
/* Whether the screen is a headless run's (--headless). */
int tui_headless(const struct tui *t);
/* Whether the user has typed something not yet read (headless: a
 * typeahead line): a long search stops for it. */
int tui_key_waiting(struct tui *t);
/* Shows text (untrusted) on the status line at once, before a long
 * computation ends the frame being drawn (not when headless). After a
 * resize (tui_resized) curses takes the new size, and the line shows
 * alone on the new bottom line until the next frame. */
void tui_busy(struct tui *t, const char *text);
/* Whether the terminal was resized since a frame or tui_busy last took
 * the size: a long computation shows its tui_busy line again. */
int tui_resized(const struct tui *t);

/* A line editor on the status line. */
struct prompt_spec {
	char lead;		/* shown before the text: ':', '/' */
	const char *history;	/* history kind in user data, NULL: none */
	/* Runs the text on Enter: 0 done, -1 with err_set() keeps the
	 * line open and shows the message above it. */
	int (*done)(struct view *v, const char *text);
	/* '?' typed on an empty line opens this view instead. */
	struct view *(*help)(struct view *v);
};

/* Opens the editor over the status line with text already typed. */
void tui_prompt(struct tui *t, const struct prompt_spec *spec,
		const char *text);
/* Opens the ':' command line for one command: word stays fixed before
 * the line, text (may be NULL) is typed, and Enter runs "word text". */
void tui_command_word(struct tui *t, const char *word, const char *text);
/* The words of a ':' command after its name, joined by blanks
 * (malloc'd). */
char *tui_command_rest(int argc, char **argv);
/* Asks a one-key question on the status line: a key in keys calls fn
 * with it, any other key cancels. */
void tui_ask(struct tui *t, const char *question, const char *keys,
	     void (*fn)(struct view *v, int key));

/* The model the views on top use, checked for damage after each key;
 * NULL: none (the Profile Manager alone). */
void tui_set_model(struct tui *t, struct model *m);
/* Profile B of nxtop A B, for the Compare view; NULL: none. */
struct model *tui_compare_model(struct tui *t);
/* Opens profile B for :compare PATH (once: it stays B); NULL with
 * err_set(). */
struct model *tui_open_compare(struct tui *t, const char *path);
/* Profile B's path, absolute as given; NULL without a B, or when it
 * is not known. */
const char *tui_compare_path(struct tui *t);
/* Profile B's path as the user named it (nxtop A B, :compare B), as
 * nxtop diff names its files; NULL without a B. */
const char *tui_compare_named(struct tui *t);
/* Hands the terminal back to the shell (an import's progress line) and
 * takes it again; nothing to do when headless. */
void tui_suspend(struct tui *t);
void tui_resume(struct tui *t);

/* Markers and history; NULL when the store cannot be opened (the
 * reason is in tui_userdata_error). */
struct userdata *tui_userdata(struct tui *t);
/* The profile the viewer was started on, absolute; NULL if it started
 * on the Profile Manager. */
const char *tui_profile(struct tui *t);
/* Shows the command line text on the status line, or when it is too
 * long for it, lines (the same command over lines continued by a
 * backslash) in the pager; after :set osc52 on also sends text to the
 * terminal's clipboard (OSC 52). */
void tui_copy(struct tui *t, const char *text, const char *lines);
const char *tui_userdata_error(struct tui *t);

#endif
