/* User data that is not disposable: markers, marker sets, saved views, search
 * history and the profiles opened recently. It lives in its own SQLite file, apart from every cache, so
 * it survives re-imports and cache rebuilds; every change is its own
 * transaction, so two nxtop processes on one profile keep each other's
 * markers. */
#ifndef NX_USERDATA_H
#define NX_USERDATA_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

struct userdata;

struct marker {
	int64_t id;
	char *name;
	int64_t ts;		/* ns on the profile's axis */
	int64_t ref;		/* "diff vs" marker id; 0: the previous one */
};

/* $XDG_DATA_HOME/nxtop/userdata.db (~/.local/share/nxtop). */
char *userdata_default_path(void);
struct userdata *userdata_open(const char *path);
void userdata_close(struct userdata *u);

/* 1 if another process changed the store since the last call (or since
 * it was opened), else 0: time to read the markers again. Cheap enough
 * to ask before every frame. */
int userdata_changed(struct userdata *u);

/* The key user data of a profile is filed under: the profile's source
 * file (absolute); in a bundle, its own file in the bundle's folder, as
 * when it is opened alone (a profile without a file of its own: the
 * bundle's input, "::", its name). */
char *userdata_profile_key(struct model *m, int64_t profile);
/* Moves the markers and saved views a bundle's profile had under the key
 * of older versions ("<bundle>::<file>") to key. 0, or -1 with
 * err_get() set. */
int userdata_adopt(struct userdata *u, struct model *m, int64_t profile,
		   const char *key);

/* Markers of the working set, by time. */
int marker_list(struct userdata *u, const char *profile, struct marker **out,
		size_t *n);
void marker_list_free(struct marker *m, size_t n);
/* name NULL: "M<n>" with the next free number. */
int marker_add(struct userdata *u, const char *profile, const char *name,
	       int64_t ts, int64_t *id);
int marker_rename(struct userdata *u, int64_t id, const char *name);
int marker_set_ref(struct userdata *u, int64_t id, int64_t ref);
int marker_delete(struct userdata *u, int64_t id);
int marker_clear(struct userdata *u, const char *profile);

/* Named sets: save copies the working markers under a name (replacing
 * a set of that name), load replaces the working markers with a copy. */
int marker_set_save(struct userdata *u, const char *profile, const char *set);
int marker_set_load(struct userdata *u, const char *profile, const char *set);
int marker_set_delete(struct userdata *u, const char *profile, const char *set);
int marker_sets(struct userdata *u, const char *profile, char ***names,
		size_t *n);

/* A named view of a profile's timeline, to come back to. */
struct saved_view {
	char *name;
	int64_t t0, t1;		/* the time on screen, ns on the axis */
	int64_t cur;		/* the cursor */
	int64_t track;		/* the cursor row's track id */
	/* keys of the folded groups ("3,7"; B's "b3"; a heading "h" and
	 * its first row's key) */
	char *folded;
	char *lanes_folded;	/* keys of the tracks drawn on one line */
	int color;		/* what the colours stand for */
	int lanes;		/* most lanes a nested track takes */
	char *search;		/* the search, NULL if none */
	/* stacked: profile B's path (NULL: none) and how far B was moved
	 * from its start on A's, ns */
	char *compare;
	int64_t compare_offset;
	char *track_key;	/* the cursor's row, keyed as folded is */
};

/* Saves v under its name, replacing a view of that name. */
int saved_view_put(struct userdata *u, const char *profile,
		   const struct saved_view *v);
/* The profile's views, by name. */
int saved_view_list(struct userdata *u, const char *profile,
		    struct saved_view **out, size_t *n);
void saved_view_list_free(struct saved_view *v, size_t n);
/* -1 with err_set() when there is no such view. */
int saved_view_delete(struct userdata *u, const char *profile,
		      const char *name);

/* Search and command history, most recent first. */
int history_add(struct userdata *u, const char *kind, const char *text);
int history_list(struct userdata *u, const char *kind, size_t max,
		 char ***out, size_t *n);
void strings_free(char **v, size_t n);

/* A profile nxtop opened (the viewer or `nxtop import`), for the
 * Profile Manager. */
struct recent {
	char *path;		/* absolute */
	char *kind;		/* "device", "bundle", ... (model/proflist.h) */
	char *cache;		/* the cache it was opened from */
	int64_t opened;		/* Unix ns */
};

/* Records an open (again: it becomes the most recent). The list keeps
 * the last 100 profiles. */
int recent_add(struct userdata *u, const char *path, const char *kind,
	       const char *cache);
/* Most recent first. */
int recent_list(struct userdata *u, struct recent **out, size_t *n);
void recent_list_free(struct recent *r, size_t n);
int recent_forget(struct userdata *u, const char *path);

#endif
