/* Exports of every summary the UI shows, as text for people, JSON and
 * CSV for programs. The UI's `e`/`E` and `nxtop export` both call these,
 * so the numbers they print are the same. Formats: man nxtop, EXPORT
 * FORMATS. */
#ifndef NX_EXPORT_H
#define NX_EXPORT_H

#include <stdio.h>

#include "model/info.h"
#include "model/layers.h"
#include "model/model.h"
#include "model/report/report.h"
#include "model/search.h"
#include "model/searchdist.h"
#include "model/selection.h"
#include "model/userdata.h"

void export_selection(const struct selection *s, const struct mprofile *p,
		      enum out_format fmt, FILE *f);
/* The same summary of the time on screen over every row (the viewer's
 * Current Window summary), titled so. */
void export_window(const struct selection *s, const struct mprofile *p,
		   enum out_format fmt, FILE *f);
void export_layers(const struct layer_table *t, const struct mprofile *p,
		   enum out_format fmt, FILE *f);
/* The matches of a search starting in [t0, t1): totals, the durations'
 * shortest, average, longest and distribution (text and JSON), per-row
 * counts and every match in time order. */
int export_search(struct model *m, struct search *s, const struct mprofile *p,
		  int64_t t0, int64_t t1, enum out_format fmt, FILE *f);
/* One profile's search in [t0, t1) of its own axis; times from p.start. */
struct export_side {
	struct model *m;
	struct search *s;	/* NULL: the query does not apply to it */
	struct mprofile p;
	int64_t t0, t1;
};
/* Two stacked profiles' matches: text, profile A's report then B's;
 * JSON, {"A": ..., "B": ...} each as export_search writes it; CSV, one
 * table with a first column side (A or B). */
int export_search_sides(const struct export_side x[2], enum out_format fmt,
			FILE *f);
/* Every event of the profile's rows (or of ids[0..nids) when nids > 0)
 * overlapping [t0, t1): id, row, start and duration (ns from the profile
 * start), depth and parent id, streamed in row order then by start. */
int export_events(struct model *m, const struct mprofile *p, int64_t t0,
		  int64_t t1, const int64_t *ids, size_t nids,
		  enum out_format fmt, FILE *f);
/* Every flow of the profile with both ends (name, row, start in ns from
 * the profile start; a missing end of an unpaired flow as such), then
 * the paired and unpaired totals. */
int export_flows(struct model *m, const struct mprofile *p,
		 enum out_format fmt, FILE *f);
/* unit: "ns", "us", "ms" or "s" for times and differences; NULL: chosen
 * per value. */
void export_markers(const struct marker *mk, size_t n, const struct mprofile *p,
		    const char *unit, enum out_format fmt, FILE *f);
void export_info(struct model *m, const struct mprofile *p,
		 const char *section, enum out_format fmt, FILE *f);

struct proflist;
/* The Profile Manager's list (nxtop list); where: the folders and lists
 * it came from, NULL-terminated. */
void export_profiles(const struct proflist *pl, const char *const *where,
		     enum out_format fmt, FILE *f);

/* The marker a marker's "diff vs" refers to: its ref, else the one
 * before it in time; -1 for none. */
long export_marker_base(const struct marker *mk, size_t n, size_t i);

#endif
