#include "config.h"

#include "tui/compare_view.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tui/draw.h"
#include "tui/list.h"
#include "model/layers.h"
#include "model/report/report.h"
#include "model/timefmt.h"

struct compare {
	struct list list;
	struct timeline *tl;
	struct model *b;
	struct diff d;
	/* column titles: group, name, 4 per figure, status */
	char names[3 + 4 * DIFF_MAX_COLS][40];
};

static void add_col(struct compare *cv, struct list_col *c, int *n,
		    const char *title, const char *suffix, int right)
{
	snprintf(cv->names[*n], sizeof(cv->names[*n]), "%s%s", title, suffix);
	c[*n] = (struct list_col){ cv->names[*n], right ? 11 : 24, right, 0 };
	(*n)++;
}

static void set_cols(struct compare *cv)
{
	const struct diff_layout *l = cv->d.lay;
	struct list_col c[3 + 4 * DIFF_MAX_COLS];
	int n = 0;

	if (l->group_key)
		add_col(cv, c, &n, l->group_title, "", 0);
	add_col(cv, c, &n, l->name_title, "", 0);
	for (int k = 0; k < l->ncols; k++) {
		add_col(cv, c, &n, l->cols[k].title, " A", 1);
		add_col(cv, c, &n, l->cols[k].title, " B", 1);
		add_col(cv, c, &n, l->cols[k].title, " B-A", 1);
		if (l->cols[k].pct)
			add_col(cv, c, &n, l->cols[k].title, " %", 1);
	}
	add_col(cv, c, &n, "Status", "", 0);
	list_set_cols(&cv->list, c, n);
	list_fit_cols(&cv->list);
}

static int load(struct compare *cv, enum diff_what w)
{
	struct diff d;

	if (diff_compute(cv->tl->m, cv->b, w, &d))
		return -1;
	timeline_diff_files(cv->tl, &d);
	diff_free(&cv->d);
	cv->d = d;
	set_cols(cv);
	list_changed(&cv->list);
	return 0;
}

static size_t compare_count(struct list *l)
{
	return ((struct compare *)l)->d.n;
}

/* A figure as the views show one: times with units, a sign on deltas. */
static void figure(struct strbuf *out, double *key, enum diff_unit u,
		   struct diff_int x, double real, int delta)
{
	char b[48];
	int64_t v;

	if (u == DU_REAL) {
		sb_printf(out, delta && real > 0 ? "%+.6g" : "%.6g", real);
		*key = real;
		return;
	}
	*key = diff_int_real(x);
	/* past int64 (a profile's own number, or B-A of two): digits */
	if (diff_int_i64(x, &v)) {
		sb_adds(out, diff_int_text(b, sizeof(b), x, delta));
		return;
	}
	if (delta && v > 0)
		sb_addc(out, '+');
	if (u == DU_NS) {
		timefmt_dur(b, sizeof(b), v, 3, draw_tf());
		sb_adds(out, b);
	} else {
		sb_printf(out, "%" PRId64, v);
	}
}

static int figure_line(const struct diff *d, const struct diff_row *r,
		       int k, struct list_line *out, int c)
{
	enum diff_unit u = diff_cell_unit(d, r, k, 2);
	struct diff_int x;
	char b[40];
	double pct;

	for (int s = 0; s < 2; s++, c++) {
		diff_cell_int(r, k, s, &x);
		if (r->has[s])
			figure(&out->cells[c], &out->keys[c],
			       diff_cell_unit(d, r, k, s), x, r->real[s], 0);
		else
			sb_adds(&out->cells[c], "-");
	}
	/* a delta only the real gives is DU_REAL (diff_cell_unit) */
	diff_cell_int(r, k, 2, &x);
	figure(&out->cells[c], &out->keys[c], u, x, diff_real_delta(r), 1);
	out->keys[c] = fabs(out->keys[c]);
	c++;
	if (!d->lay->cols[k].pct)
		return c;
	if (diff_pct(d, r, k, &pct)) {
		sb_adds(&out->cells[c], "n/a");
	} else {
		sb_adds(&out->cells[c], report_pct_change(b, sizeof(b), pct));
		out->keys[c] = fabs(pct);
	}
	return c + 1;
}

static void compare_line(struct list *l, size_t i, struct list_line *out)
{
	struct compare *cv = (struct compare *)l;
	const struct diff_row *r = &cv->d.rows[i];
	int c = 0;

	if (cv->d.lay->group_key)
		sb_adds(&out->cells[c++], r->group ? r->group : "");
	sb_adds(&out->cells[c++], r->name);
	for (int k = 0; k < cv->d.lay->ncols; k++)
		c = figure_line(&cv->d, r, k, out, c);
	if (!(r->has[0] && r->has[1]))
		sb_adds(&out->cells[c], diff_status(r));
}

/* Where layer name runs in profile prof of m: 0 found, 1 not, -1
 * error. */
static int layer_range(struct model *m, int64_t prof, const char *name,
		       int64_t *t0, int64_t *t1)
{
	struct layer_table t;
	int rc = 1;

	if (layers_load(m, prof, 0, NULL, &t))
		return -1;
	for (size_t k = 0; k < t.n && rc; k++) {
		if (strcmp(t.rows[k].name, name))
			continue;
		*t0 = t.rows[k].start;
		*t1 = NX_MAX(t.rows[k].end, *t0 + t.rows[k].dur);
		rc = 0;
	}
	layers_free(&t);
	return rc;
}

/* Enter on a layer: the timeline zoomed to it, its instructions
 * coloured, as in the layer table; stacked, to its runs in A and in B
 * (shifted) both. */
static int compare_enter(struct list *l, size_t i)
{
	struct compare *cv = (struct compare *)l;
	struct timeline *tl = cv->tl;
	const struct diff_row *r = &cv->d.rows[i];
	int64_t a0 = 0, a1 = 0, b0, b1, t0, t1;
	int stacked = tl->tr.mb != NULL, rc;
	char *name;

	if (cv->d.what != DW_LAYERS || !(r->has[0] || (stacked && r->has[1]))) {
		err_set("Enter zooms to a layer of A (:what layers)");
		return -1;
	}
	name = xstrdup(r->name);
	rc = layer_range(tl->m, tl->prof.id, name, &a0, &a1);
	if (rc >= 0 && stacked) {
		int rb = layer_range(tl->tr.mb, tl->prof_b.id, name, &b0, &b1);

		if (rb < 0)
			rc = -1;
		else if (!rb) {
			b0 += tl->tr.shift;
			b1 += tl->tr.shift;
			a0 = rc ? b0 : NX_MIN(a0, b0);
			a1 = rc ? b1 : NX_MAX(a1, b1);
			rc = 0;
		}
	}
	if (!rc) {
		t0 = a0;
		t1 = NX_MAX(a1, a0 + 1);
		tui_pop(l->view.tui);
		timeline_zoom_range(tl, t0, t1);
		tl->cur = t0;
		timeline_show_cursor(tl);
		rc = timeline_layer(tl, name);
	}
	free(name);
	return rc < 0 ? -1 : 0;
}

static int compare_command(struct list *l, int argc, char **argv)
{
	struct compare *cv = (struct compare *)l;
	enum diff_what w;

	if (strcmp(argv[0], "what"))
		return 1;
	if (!cv->b) {
		err_set("what: these are the %s's figures", cv->d.scope);
		return -1;
	}
	if (argc != 2) {
		err_set("what: expected overall, engines, layers, opcodes, hlo,"
			" dma or executions");
		return -1;
	}
	if (diff_what_parse(argv[1], &w))
		return -1;
	l->sort_col = -1;
	return load(cv, w);
}

static const char *compare_export_name(struct list *l)
{
	const struct diff *d = &((struct compare *)l)->d;

	return d->scope ? d->scope : "compare";
}

static int compare_export(struct list *l, enum out_format fmt, FILE *f)
{
	report_diff(&((struct compare *)l)->d, fmt, f);
	return 0;
}

static void compare_header(struct list *l, struct strbuf *out)
{
	const struct diff *d = &((struct compare *)l)->d;
	char b[48];
	double pct;

	sb_printf(out, "%s, B: ", d->scope ? d->scope : diff_what_names[d->what]);
	sb_adds(out, d->prof[1].name);
	timefmt_dur(b, sizeof(b), d->total[1] - d->total[0], 3, draw_tf());
	sb_printf(out, ", %s %s%s", d->scope ? "active" : "total",
		  d->total[1] > d->total[0] ? "+" : "", b);
	if (!diff_total_pct(d, &pct))
		sb_printf(out, " (%s)", report_pct_change(b, sizeof(b), pct));
}

static void compare_free(struct list *l)
{
	struct compare *cv = (struct compare *)l;

	diff_free(&cv->d);
	free(cv);
}

static const struct list_ops compare_ops = {
	.count = compare_count,
	.line = compare_line,
	.enter = compare_enter,
	.command = compare_command,
	.export_name = compare_export_name,
	.export = compare_export,
	.header = compare_header,
	.free = compare_free,
};

const struct view_cmd compare_cmds[] = {
	{ "what", "overall|engines|layers|opcodes|hlo|dma|executions",
	  "Compare these figures (as nxtop diff --what)" },
	{ "sort", "COLUMN [asc|desc]", "Sort by a column" },
	{ "filter", "TEXT", "Keep the lines containing TEXT" },
	{ NULL, NULL, NULL },
};

static const struct view_ops compare_vops = LIST_VIEW_OPS("compare", KM_LIST,
	"? help  Enter zoom to layer  :what engines|opcodes|layers  o/O sort  "
	"/ filter  e/E export  q back", compare_cmds);

/* A box's or the window's figures over the stacked timeline. */
static const struct view_ops pair_vops = LIST_VIEW_OPS("compare", KM_LIST,
	"? help  o/O sort  / filter  e/E export  q back", list_cmds);

struct view *compare_view_open(struct timeline *tl, struct model *b,
			       enum diff_what w)
{
	struct compare *cv = xcalloc(1, sizeof(*cv));

	cv->tl = tl;
	cv->b = b;
	list_init(&cv->list, &compare_vops, &compare_ops, LIST_SMALL,
		  "compare");
	if (load(cv, w)) {
		list_close(&cv->list.view);
		return NULL;
	}
	return &cv->list.view;
}

struct view *compare_view_open_diff(struct timeline *tl, struct diff *d)
{
	struct compare *cv = xcalloc(1, sizeof(*cv));

	cv->tl = tl;
	cv->d = *d;
	memset(d, 0, sizeof(*d));
	list_init(&cv->list, &pair_vops, &compare_ops, LIST_SMALL,
		  cv->d.scope);
	set_cols(cv);
	list_changed(&cv->list);
	return &cv->list.view;
}
