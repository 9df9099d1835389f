/* Both lists are small: the generic list filters and sorts them. */
#include "config.h"

#include "tui/info_view.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tui/list.h"
#include "model/report/export.h"
#include "model/info.h"

/* One section as a list of its records. */
struct panel {
	struct list list;
	struct model *m;
	const struct mprofile *p;
	char *key;
	struct info_table t;
	struct list_col *cols;
};

static size_t panel_count(struct list *l)
{
	return ((struct panel *)l)->t.nrows;
}

static void panel_line(struct list *l, size_t i, struct list_line *out)
{
	struct panel *pn = (struct panel *)l;

	for (size_t c = 0; c < pn->t.ncols && (int)c < l->ncols; c++)
		sb_adds(&out->cells[c], pn->t.cells[i * pn->t.ncols + c]);
}

static const char *panel_export_name(struct list *l)
{
	return ((struct panel *)l)->key;
}

static int panel_export(struct list *l, enum out_format fmt, FILE *f)
{
	struct panel *pn = (struct panel *)l;

	export_info(pn->m, pn->p, pn->key, fmt, f);
	return 0;
}

static void panel_header(struct list *l, struct strbuf *out)
{
	struct panel *pn = (struct panel *)l;

	/* one record's fields are its lines: count them as fields */
	sb_printf(out, "%s, %zu %s%s", pn->t.title, pn->t.nrows,
		  pn->t.by_key ? "field" : "record",
		  pn->t.nrows == 1 ? "" : "s");
}

static void panel_free(struct list *l)
{
	struct panel *pn = (struct panel *)l;

	info_free(&pn->t);
	free(pn->cols);
	free(pn->key);
	free(pn);
}

static const struct list_ops panel_ops = {
	.count = panel_count,
	.line = panel_line,
	.export_name = panel_export_name,
	.export = panel_export,
	.header = panel_header,
	.free = panel_free,
};

static const struct view_ops panel_vops = LIST_VIEW_OPS("panel", KM_LIST,
	"? help  j/k move  / filter  o/O sort  h/l columns  e/E export  q back",
	list_cmds);

static struct view *panel_open(struct model *m, const struct mprofile *p,
			       const char *key)
{
	struct panel *pn = xcalloc(1, sizeof(*pn));

	pn->m = m;
	pn->p = p;
	pn->key = xstrdup(key);
	if (info_load(m, p->id, key, draw_ascii(), &pn->t)) {
		free(pn->key);
		free(pn);
		return NULL;
	}
	pn->cols = xcalloc(pn->t.ncols + 1, sizeof(*pn->cols));
	for (size_t c = 0; c < pn->t.ncols; c++)
		pn->cols[c] = (struct list_col){ pn->t.cols[c], 8, 0, 0 };
	list_init(&pn->list, &panel_vops, &panel_ops, LIST_SMALL, pn->t.title);
	list_set_cols(&pn->list, pn->cols, (int)NX_MIN(pn->t.ncols, 64));
	list_fit_cols(&pn->list);
	return &pn->list.view;
}

/* The chooser: one line per section. */
struct panels {
	struct list list;
	struct model *m;
	const struct mprofile *p;
	struct info_section *s;
	size_t n;
};

static const struct list_col chooser_cols[] = {
	{ "Panel", 28, 0, 0 }, { "Records", 8, 1, 0 }, { "Key", 24, 0, 0 },
};

static size_t panels_count(struct list *l)
{
	return ((struct panels *)l)->n;
}

static void panels_line(struct list *l, size_t i, struct list_line *out)
{
	const struct info_section *s = &((struct panels *)l)->s[i];

	sb_adds(&out->cells[0], s->title);
	sb_printf(&out->cells[1], "%" PRId64, s->records);
	sb_adds(&out->cells[2], s->key);
}

static int panels_enter(struct list *l, size_t i)
{
	struct panels *ps = (struct panels *)l;
	struct view *v = panel_open(ps->m, ps->p, ps->s[i].key);

	if (!v)
		return -1;
	tui_push(l->view.tui, v);
	return 0;
}

static const char *panels_export_name(struct list *l)
{
	(void)l;
	return "info";
}

static int panels_export(struct list *l, enum out_format fmt, FILE *f)
{
	struct panels *ps = (struct panels *)l;

	export_info(ps->m, ps->p, NULL, fmt, f);
	return 0;
}

static void panels_free(struct list *l)
{
	struct panels *ps = (struct panels *)l;

	info_sections_free(ps->s, ps->n);
	free(ps);
}

static const struct list_ops panels_ops = {
	.count = panels_count,
	.line = panels_line,
	.enter = panels_enter,
	.export_name = panels_export_name,
	.export = panels_export,
	.free = panels_free,
};

static const struct view_ops panels_vops = LIST_VIEW_OPS("panels", KM_LIST,
	"? help  j/k move  Enter open  e/E export all  q back", list_cmds);

struct view *panels_open(struct model *m, const struct mprofile *p)
{
	struct panels *ps = xcalloc(1, sizeof(*ps));

	ps->m = m;
	ps->p = p;
	if (info_sections(m, p->id, &ps->s, &ps->n)) {
		free(ps);
		return NULL;
	}
	list_init(&ps->list, &panels_vops, &panels_ops, LIST_SMALL, "info");
	list_set_cols(&ps->list, chooser_cols, (int)NX_ARRAY_SIZE(chooser_cols));
	return &ps->list.view;
}
