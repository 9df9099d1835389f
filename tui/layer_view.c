#include "config.h"

#include "tui/layer_view.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tui/draw.h"
#include "tui/list.h"
#include "model/report/export.h"
#include "model/dist.h"
#include "model/layers.h"
#include "model/timefmt.h"

struct layers {
	struct list list;
	struct timeline *tl;
	struct layer_table t;
	int depth;		/* 0: full names */
};

static int col_width(int c)
{
	if (c == LC_NAME)
		return 40;
	if (c >= LC_TENSOR && c <= LC_SYNC)
		return 7;
	if (c == LC_FLOPS)
		return 14;
	if (c == LC_MFU)
		return 7;
	if (c == LC_HIST)
		return DIST_COLS;
	return 12;
}

static void set_cols(struct layers *ly)
{
	struct list_col c[LC_COUNT];

	for (int k = 0; k < LC_COUNT; k++)
		c[k] = (struct list_col){ layer_col_names[k], col_width(k),
					  k != LC_NAME && k != LC_HIST,
					  k == LC_NAME };
	list_set_cols(&ly->list, c, LC_COUNT);
}

static int load(struct layers *ly)
{
	struct layer_table t;

	if (layers_load(ly->tl->m, ly->tl->prof.id, ly->depth, ly->list.filter,
			&t))
		return -1;
	if (layers_dists(ly->tl->m, ly->tl->prof.id, &t)) {
		layers_free(&t);
		return -1;
	}
	layers_free(&ly->t);
	ly->t = t;
	if (ly->list.sort_col >= 0)
		layers_sort(&ly->t, (enum layer_col)ly->list.sort_col,
			    ly->list.sort_desc);
	list_changed(&ly->list);
	return 0;
}

static size_t layers_count(struct list *l)
{
	return ((struct layers *)l)->t.n;
}

static void dur(struct strbuf *out, int64_t ns, int prec)
{
	char b[48];

	timefmt_dur(b, sizeof(b), ns, prec, draw_tf());
	sb_adds(out, b);
}

static void layers_line(struct list *l, size_t i, struct list_line *out)
{
	struct layers *ly = (struct layers *)l;
	const struct layer_row *r = &ly->t.rows[i];
	char b[32], h[DIST_GLYPHS_SIZE];

	sb_adds(&out->cells[LC_NAME], r->name);
	dur(&out->cells[LC_START], r->start - ly->tl->origin, 6);
	dur(&out->cells[LC_DUR], r->dur, 3);
	for (int e = 0; e < ENG_COUNT; e++) {
		sb_printf(&out->cells[LC_TENSOR + e], "%" PRId64, r->count[e]);
		if (r->active[e] >= 0)
			dur(&out->cells[LC_TENSOR_ACT + e], r->active[e], 3);
	}
	if (r->flops >= 0)
		sb_printf(&out->cells[LC_FLOPS], "%" PRId64, r->flops);
	if (r->mfu >= 0)
		sb_adds(&out->cells[LC_MFU], report_pct(b, sizeof(b),
							r->mfu * 100));
	if (r->dist.measured) {
		dur(&out->cells[LC_P50], r->dist.p50, 3);
		dur(&out->cells[LC_P90], r->dist.p90, 3);
		dur(&out->cells[LC_P99], r->dist.p99, 3);
		sb_adds(&out->cells[LC_HIST], dist_glyphs(&r->dist, draw_ascii(),
							  h));
	} else {
		for (int c = LC_P50; c <= LC_P99; c++)
			sb_adds(&out->cells[c], "-");
	}
	if (r->merged)
		out->style = S_GROUP;
}

static void layers_sort_by(struct list *l, int col, int desc)
{
	layers_sort(&((struct layers *)l)->t, (enum layer_col)col, desc);
}

static int layers_filter(struct list *l, const char *text)
{
	(void)text;	/* the list keeps it in l->filter */
	return load((struct layers *)l);
}

static int zoom(struct list *l, size_t i, int colour)
{
	struct layers *ly = (struct layers *)l;
	struct timeline *tl = ly->tl;
	const struct layer_row *r = &ly->t.rows[i];
	int64_t t0 = r->start, t1 = NX_MAX(r->end, r->start + r->dur);
	char *name = xstrdup(r->name);
	int rc = 0;

	tui_pop(l->view.tui);
	timeline_zoom_range(tl, t0, NX_MAX(t1, t0 + 1));
	tl->cur = t0;
	timeline_show_cursor(tl);
	if (colour)
		rc = timeline_layer(tl, name);
	free(name);
	return rc;
}

static int layers_enter(struct list *l, size_t i)
{
	return zoom(l, i, 1);
}

static int layers_zoom(struct list *l, size_t i)
{
	return zoom(l, i, 0);
}

static void set_depth(struct layers *ly, int depth)
{
	int old = ly->depth;

	ly->depth = depth;
	if (load(ly)) {
		ly->depth = old;
		tui_error(ly->list.view.tui, "%s", err_get());
		return;
	}
	if (depth)
		tui_message(ly->list.view.tui, "layers grouped by their first %d "
			    "path level%s", depth, depth == 1 ? "" : "s");
	else
		tui_message(ly->list.view.tui, "full layer names");
}

/* + goes deeper: 1, 2, ... the deepest, then full names; - back up. */
static int layers_request(struct list *l, enum request req)
{
	struct layers *ly = (struct layers *)l;
	int max = NX_MAX(ly->t.max_depth, 1);

	switch (req) {
	case REQ_DEEPER:
		set_depth(ly, ly->depth == 0 ? 0 : ly->depth >= max - 1 ? 0 :
			  ly->depth + 1);
		return 0;
	case REQ_SHALLOWER:
		set_depth(ly, ly->depth == 0 ? max - 1 > 0 ? max - 1 : 1 :
			  ly->depth > 1 ? ly->depth - 1 : 1);
		return 0;
	default:
		return 1;
	}
}

static int layers_command(struct list *l, int argc, char **argv)
{
	struct layers *ly = (struct layers *)l;
	char *end;
	long d;

	if (strcmp(argv[0], "depth"))
		return 1;
	d = argc == 2 ? strtol(argv[1], &end, 10) : -1;
	if (argc != 2 || *end || d < 0 || d > 64) {
		err_set("depth: expected 0 (full names) to 64");
		return -1;
	}
	set_depth(ly, (int)d);
	return 0;
}

static const char *layers_export_name(struct list *l)
{
	(void)l;
	return "layers";
}

static int layers_export(struct list *l, enum out_format fmt, FILE *f)
{
	struct layers *ly = (struct layers *)l;

	struct mprofile p = timeline_axis_profile(ly->tl);

	export_layers(&ly->t, &p, fmt, f);
	return 0;
}

static void layers_header(struct list *l, struct strbuf *out)
{
	struct layers *ly = (struct layers *)l;

	sb_printf(out, "%zu layer%s", ly->t.n, ly->t.n == 1 ? "" : "s");
	if (ly->depth)
		sb_printf(out, ", grouped at depth %d", ly->depth);
}

static void layers_free_view(struct list *l)
{
	struct layers *ly = (struct layers *)l;

	layers_free(&ly->t);
	free(ly);
}

static const struct list_ops layers_ops = {
	.count = layers_count,
	.line = layers_line,
	.sort = layers_sort_by,
	.filter = layers_filter,
	.enter = layers_enter,
	.zoom = layers_zoom,
	.request = layers_request,
	.command = layers_command,
	.export_name = layers_export_name,
	.export = layers_export,
	.header = layers_header,
	.free = layers_free_view,
};

const struct view_cmd layers_cmds[] = {
	{ "depth", "N", "Group layers by their first N path levels (0: full "
			"names)" },
	{ "sort", "COLUMN [asc|desc]", "Sort by a column" },
	{ "filter", "TEXT", "Keep layers whose name contains TEXT" },
	{ NULL, NULL, NULL },
};

static const struct view_ops layers_vops = LIST_VIEW_OPS("layers", KM_LAYERS,
	"? help  Enter zoom+colour  f zoom  o/O sort  / filter  +/- depth  "
	"h/l columns  e/E export", layers_cmds);

struct view *layer_view_open(struct timeline *tl)
{
	struct layers *ly = xcalloc(1, sizeof(*ly));

	ly->tl = tl;
	list_init(&ly->list, &layers_vops, &layers_ops, 0, "layers");
	set_cols(ly);
	if (load(ly)) {
		list_close(&ly->list.view);
		return NULL;
	}
	if (!ly->t.n) {
		list_close(&ly->list.view);
		err_set("the profile has no layer summary");
		return NULL;
	}
	return &ly->list.view;
}
