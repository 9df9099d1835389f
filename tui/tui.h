/* The terminal UI's one entry point. */
#ifndef NX_TUI_H
#define NX_TUI_H

#include "model/model.h"
#include "model/sysrows.h"
#include "tui/profiles.h"

enum tui_color { TUI_COLOR_AUTO, TUI_COLOR_ALWAYS, TUI_COLOR_NEVER };

/* Where the timeline opens (--at, --zoom, --search, --select with
 * --tracks), checked against the profile; times in ns from its start. */
struct tui_start {
	int has_at, has_zoom, has_select;
	int64_t at, zoom0, zoom1, sel0, sel1;
	const char *search;	/* NULL: none */
	int64_t *tracks;	/* the --select rows' track ids (NULL: all) */
	size_t ntracks;
	/* nxtop A B --align: how far B moves from its start on A's, ns */
	int has_align;
	int64_t align;
};

struct tui_opts {
	enum tui_color color;
	int ascii;		/* ASCII glyphs even in a UTF-8 locale */
	int no_mouse;		/* leave the mouse to the terminal */
	const char *headless;	/* key script: run without a terminal */
	const char *dump_dir;	/* where headless dumps go ("." if NULL) */
	/* how a system profile's rows are grouped at the start; NULL: the
	 * default */
	const struct sysgroup *group;
	/* B of nxtop A B: the Compare view opens over A's timeline and
	 * :compare opens it again; NULL: nothing to compare */
	struct model *compare;
	const char *compare_path;	/* its path, absolute, or NULL */
	/* A's and B's paths as the user named them: the exports of the
	 * Compare view name them as nxtop diff does */
	const char *profile_named, *compare_named;
	/* :compare PATH opens B as `nxtop PATH` would (the terminal is the
	 * caller's meanwhile); NULL: :compare takes no profile. NULL with
	 * err_set(). */
	struct model *(*open_compare)(void *ctx, const char *path);
	void *open_ctx;
	/* said on the status line at the start (which JAX run), or NULL */
	const char *note;
	/* NULL: the whole profile (and with a B, the Compare view over
	 * the stacked timeline) */
	const struct tui_start *start;
	const char *profile;	/* as y writes it: absolute */
};

/* Runs the UI on an open cache until the user quits. 0 on success; -1
 * with err_set(). */
int tui_run(struct model *m, const struct tui_opts *o);

/* Runs the UI on the Profile Manager until the user quits. */
int tui_run_manager(const struct tui_profiles *p, const struct tui_opts *o);

#endif
