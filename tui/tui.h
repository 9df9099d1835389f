/* The terminal UI's one entry point. */
#ifndef NX_TUI_H
#define NX_TUI_H

#include "model/model.h"
#include "model/sysrows.h"

enum tui_color { TUI_COLOR_AUTO, TUI_COLOR_ALWAYS, TUI_COLOR_NEVER };

struct tui_opts {
	enum tui_color color;
	int ascii;		/* ASCII glyphs even in a UTF-8 locale */
	const char *headless;	/* key script: run without a terminal */
	const char *dump_dir;	/* where headless dumps go ("." if NULL) */
	/* how a system profile's rows are grouped at the start; NULL: the
	 * default */
	const struct sysgroup *group;
};

/* Runs the UI on an open cache until the user quits. 0 on success; -1
 * with err_set(). */
int tui_run(struct model *m, const struct tui_opts *o);

struct proflist;
struct userdata;

/* What the Profile Manager lists and how it opens a line: finding and
 * importing profiles is the caller's work, not the UI's. */
struct tui_profiles {
	const char *title;	/* where the profiles come from */
	/* Fills pl (empty) with the profiles; u, the UI's user data (the
	 * recent list), may be NULL. */
	void (*scan)(void *ctx, struct userdata *u, struct proflist *pl);
	/* Opens path as `nxtop PATH` would and records it in u; NULL with
	 * err_set(). The terminal is the caller's meanwhile (a progress
	 * line on stderr). */
	struct model *(*open)(void *ctx, struct userdata *u, const char *path);
	void *ctx;
};

/* Runs the UI on the Profile Manager until the user quits. */
int tui_run_manager(const struct tui_profiles *p, const struct tui_opts *o);

#endif
