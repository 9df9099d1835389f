/* The Profile Manager's source, given by tui_run_manager's caller. */
#ifndef NX_TUI_PROFILES_H
#define NX_TUI_PROFILES_H

struct model;
struct proflist;
struct userdata;

/* What the Profile Manager lists and how it opens a line: finding and
 * importing profiles is the caller's work, not the UI's. */
struct tui_profiles {
	const char *title;	/* where the profiles come from */
	/* Fills pl (empty) with the profiles; u, the UI's user data (the
	 * recent list), may be NULL. -1 with err_set() when the folder
	 * cannot be read (pl holds what could be found). */
	int (*scan)(void *ctx, struct userdata *u, struct proflist *pl);
	/* Opens path as `nxtop PATH` would (a bundle's device profiles
	 * then import in the background, model_devqueue() says how far)
	 * and records it in u; NULL with err_set(). The terminal is the
	 * caller's meanwhile (a progress line on stderr). */
	struct model *(*open)(void *ctx, struct userdata *u, const char *path);
	/* Closes the model open() gave, its imports stopped first. */
	void (*close)(void *ctx, struct model *m);
	void *ctx;
};

#endif
