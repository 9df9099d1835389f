/* What the commands share: exit statuses, error reporting, the options
 * every command takes, and opening a profile into the model. */
#ifndef NX_CLI_H
#define NX_CLI_H

#include <getopt.h>

#include "src/import/import.h"
#include "model/report/report.h"
#include "model/model.h"
#include "model/sysrows.h"
#include "model/util.h"
#include "tui/tui.h"

#define EXIT_BAD_INPUT 1
#define EXIT_USAGE 2
/* nxtop diff --fail-if-slower: B's total time grew past the limit */
#define EXIT_SLOWER 3

/* Long-only common options; commands number their own from 256. */
enum {
	CLI_OPT_FILTER_NC = 1000, CLI_OPT_FILTER_TYPE, CLI_OPT_FILTER_INSTANCE,
	CLI_OPT_GROUP, CLI_OPT_ROW, CLI_OPT_RUN,
};

/* Long options every command accepts; commands append their own. The
 * filters change what a system profile's cache holds; --group and --row
 * only how its rows are shown. */
#define CLI_COMMON_OPTIONS \
	{ "force", no_argument, NULL, 'f' }, \
	{ "quiet", no_argument, NULL, 'q' }, \
	{ "help", no_argument, NULL, 'h' }, \
	{ "version", no_argument, NULL, 'V' }, \
	{ "filter-nc", required_argument, NULL, CLI_OPT_FILTER_NC }, \
	{ "filter-event-type", required_argument, NULL, CLI_OPT_FILTER_TYPE }, \
	{ "filter-instance", required_argument, NULL, CLI_OPT_FILTER_INSTANCE }, \
	{ "group", required_argument, NULL, CLI_OPT_GROUP }, \
	{ "row", required_argument, NULL, CLI_OPT_ROW }, \
	{ "run", required_argument, NULL, CLI_OPT_RUN }
#define CLI_COMMON_SHORT "fqhV"

/* Viewer options, taken by the commands that open the viewer. */
enum { CLI_OPT_COLOR = 512, CLI_OPT_ASCII, CLI_OPT_HEADLESS, CLI_OPT_DUMP,
       CLI_OPT_DATA_PATH, CLI_OPT_NO_MOUSE };
#define CLI_VIEW_OPTIONS \
	{ "color", required_argument, NULL, CLI_OPT_COLOR }, \
	{ "colour", required_argument, NULL, CLI_OPT_COLOR }, \
	{ "ascii", no_argument, NULL, CLI_OPT_ASCII }, \
	{ "no-mouse", no_argument, NULL, CLI_OPT_NO_MOUSE }, \
	{ "headless", required_argument, NULL, CLI_OPT_HEADLESS }, \
	{ "dump", required_argument, NULL, CLI_OPT_DUMP }, \
	{ "data-path", required_argument, NULL, CLI_OPT_DATA_PATH }

struct cli {
	const char *cmd;	/* "import", ... or NULL for the UI */
	struct import_opts imp;
	struct tui_opts ui;
	struct sysgroup group;	/* a system profile's rows */
	const char *data_path;	/* Neuron Explorer's --data-path */
	/* where the timeline opens, as given */
	const char *at, *zoom, *search, *select, *tracks;
	const char *align;	/* nxtop A B: B moved from its start */
};

/* Handles a common option; 1 if it was one. A bad filter or grouping is
 * a usage error: it exits with EXIT_USAGE. */
int cli_common(struct cli *c, int opt);
int cli_usage_error(const char *fmt, ...) NX_PRINTF(1, 2);
/* The option getopt_long() just rejected. */
int cli_bad_option(char **argv);
/* Prints err_get() as "nxtop: ..." and returns EXIT_BAD_INPUT. */
int cli_fail(void);
/* The exit status rc once standard output is flushed: output cut short
 * (a full disk, a file size limit) is a failure, said in one line. */
int cli_finish(int rc);
/* Exactly one PROFILE argument left after the options. */
int cli_profile_arg(int argc, char **argv, const char **profile);
/* Imports if needed and opens the cache. NULL with err_get() set. */
struct model *cli_open(const char *profile, const struct import_opts *o);

/* --range "A:B" from the profile start (either side may be empty) to
 * [t0, t1); the whole profile when s is NULL. -1 with err_get() set,
 * also when the range is all before or after the profile. */
int cli_range(const char *s, const struct mprofile *p, int64_t *t0,
	      int64_t *t1);
/* The same for option opt ("--zoom"), named in the errors. */
int cli_span(const char *opt, const char *s, const struct mprofile *p,
	     int64_t *t0, int64_t *t1);
/* Before the profile is read: whether s is a span cli_span may take (a
 * usage error, told, when it is not): 0, EXIT_USAGE; 0 for none. */
int cli_span_syntax(const char *opt, const char *s);
/* err_set() for a time arg of option opt outside a profile of len ns. */
void cli_outside(const char *opt, const char *arg, int64_t len);
/* Before the profile is read: whether list is one cli_tracks may take,
 * names with no empty one among them (a usage error, told, when it is
 * not): 0, EXIT_USAGE; 0 for none. */
int cli_tracks_syntax(const char *list);
/* --tracks: row or group names to track ids (NULL list: none). -1 with
 * err_get() set. */
int cli_tracks(struct model *m, int64_t profile, const char *list,
	       int64_t **ids, size_t *n);

int cmd_analyze(struct cli *c, int argc, char **argv);
int cmd_import(struct cli *c, int argc, char **argv);
int cmd_summary(struct cli *c, int argc, char **argv);
int cmd_export(struct cli *c, int argc, char **argv);
int cmd_demo(struct cli *c, int argc, char **argv);
int cmd_diff(struct cli *c, int argc, char **argv);
int cmd_view(struct cli *c, int argc, char **argv);
int cmd_list(struct cli *c, int argc, char **argv);
/* Handles a viewer option: 1 if it was one, 0 if not, or a usage
 * error's exit status (2). */
int cli_view_option(struct cli *c, int opt);
/* Opens a profile for the user to look at: the timeline. */
int cli_view(struct cli *c, const char *profile, const char *compare);

struct background;
/* A profile open in the viewer: a bundle's device profiles import in
 * the background meanwhile (bg, q). */
struct viewed {
	struct model *m;
	struct devqueue *q;
	struct background *bg;
};
/* Opens profile as the viewer does: a bundle's system profile first,
 * its device profiles then imported in the background (when a headless
 * script says so). -1 with err_get() set. */
int cli_view_open(struct cli *c, const char *profile, struct viewed *v);
/* Stops its imports, closes it and lets the cache leave WAL mode. */
void cli_view_close(struct viewed *v);

struct userdata;
/* Adds profile, just opened from cache, to the recent list (in u, or
 * the user's store when u is NULL); a failure only costs the entry. */
void cli_remember(struct userdata *u, const char *profile, const char *cache);
/* The Profile Manager on the profiles in folder dir, or with dir NULL
 * on the data path's and the recent ones. */
int cli_manager(struct cli *c, const char *dir);
/* The same list printed (nxtop list). */
int cli_print_profiles(struct cli *c, const char *dir, enum out_format fmt);
/* 1 if dir is a folder that is not itself a profile but holds some. */
int cli_has_profiles(const char *dir);

#endif
