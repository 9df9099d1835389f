/* Shared parts of the fuzz harnesses: a scratch folder, importing a
 * file into a throw-away cache, and reading a cache back through the
 * model the way the viewer and the exports do. */
#include "config.h"

#include "tests/fuzz/fuzz.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/report/export.h"
#include "model/model.h"
#include "model/report/report.h"
#include "model/selection.h"
#include "model/summary.h"
#include "model/syssummary.h"
#include "model/sysrows.h"
#include "model/text.h"
#include "model/util.h"
#include "model/writer/writer.h"

static char *dir;

static int rm_one(const char *path, const struct stat *sb, int flag,
		  struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void rm_dir(void)
{
	if (dir)
		nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(dir);
	dir = NULL;
}

const char *fuzz_dir(void)
{
	const char *tmp = getenv("TMPDIR");

	if (dir)
		return dir;
	dir = xasprintf("%s/nxtop-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		fprintf(stderr, "fuzz: %s: %s\n", dir, strerror(errno));
		abort();
	}
	atexit(rm_dir);
	return dir;
}

char *fuzz_path(const char *name)
{
	return xasprintf("%s/%s", fuzz_dir(), name);
}

char *fuzz_write(const char *name, const uint8_t *data, size_t size)
{
	char *path = fuzz_path(name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size)) {
		fprintf(stderr, "fuzz: %s: %s\n", path, strerror(errno));
		abort();
	}
	close(fd);
	return path;
}

void fuzz_check_text(const char *what, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;

	for (size_t i = 0; i < n;) {
		unsigned cp;
		size_t len = text_utf8_char(s + i, n - i, &cp);

		/* CSV lines end in "\r\n" */
		if (cp == '\r' && i + 1 < n && s[i + 1] == '\n') {
			i++;
			continue;
		}
		if (!len || (cp < 0x20 && cp != '\n' && cp != '\t') ||
		    cp == 0x7f || (cp >= 0x80 && cp < 0xa0)) {
			fprintf(stderr, "fuzz: %s: byte %zu (0x%02x) would reach"
				" the terminal raw\n", what, i, s[i]);
			abort();
		}
		i += len;
	}
}

/* Output of one export, checked, then dropped. */
struct out {
	char *buf;
	size_t len;
	FILE *f;
};

static FILE *out_open(struct out *o)
{
	o->buf = NULL;
	o->len = 0;
	o->f = open_memstream(&o->buf, &o->len);
	if (!o->f)
		abort();
	return o->f;
}

static void out_check(struct out *o, const char *what)
{
	fclose(o->f);
	fuzz_check_text(what, o->buf, o->len);
	free(o->buf);
}

/* Every track at the zoom the viewer opens with: 80 columns over the
 * profile, as level of detail or events. */
static void frames(struct model *m, const struct mprofile *p)
{
	struct mtrack *t;
	size_t n;
	enum { COLS = 80 };
	struct mcell cells[COLS];
	struct mccell cc[COLS];
	uint64_t span;
	int64_t colw;

	if (model_tracks(m, p->id, &t, &n))
		return;
	span = (uint64_t)p->end - (uint64_t)p->start;
	colw = p->end > p->start ? (int64_t)(span / COLS + 1) : 1;
	for (size_t i = 0; i < n && i < 64; i++) {
		if (t[i].is_counter)
			model_counter_frame(m, &t[i], p->start, colw, COLS, cc);
		else
			model_frame(m, &t[i], p->start, colw, COLS, cells);
	}
	model_tracks_free(t, n);
}

static void device_reports(struct model *m, const struct mprofile *p)
{
	static const enum out_format fmts[] = { OUT_TEXT, OUT_JSON, OUT_CSV };
	struct summary s;
	struct selection sel;
	struct layer_table lt;
	struct out o;

	if (!summary_compute(m, p->id, &s)) {
		report_summary_text(&s, out_open(&o));
		out_check(&o, "summary text");
		report_summary_json(&s, out_open(&o));
		out_check(&o, "summary json");
		summary_free(&s);
	}
	if (p->end >= p->start &&
	    !selection_compute(m, p->id, p->start, p->end, NULL, 0, &sel)) {
		for (size_t i = 0; i < NX_ARRAY_SIZE(fmts); i++) {
			export_selection(&sel, p, fmts[i], out_open(&o));
			out_check(&o, "selection export");
		}
		selection_free(&sel);
	}
	if (!layers_load(m, p->id, 0, NULL, &lt)) {
		for (size_t i = 0; i < NX_ARRAY_SIZE(fmts); i++) {
			export_layers(&lt, p, fmts[i], out_open(&o));
			out_check(&o, "layers export");
		}
		layers_free(&lt);
	}
	for (size_t i = 0; i < NX_ARRAY_SIZE(fmts); i++) {
		export_info(m, p, NULL, fmts[i], out_open(&o));
		out_check(&o, "info export");
	}
}

static void system_reports(struct model *m, const struct mprofile *p)
{
	struct syssummary s;
	struct sysgroup g;
	struct out o;

	sysgroup_default(&g);
	if (syssummary_compute(m, p->id, &g, &s))
		return;
	report_syssummary_text(&s, out_open(&o));
	out_check(&o, "system summary text");
	report_syssummary_json(&s, out_open(&o));
	out_check(&o, "system summary json");
	syssummary_free(&s);
}

void fuzz_read_back(const char *cache)
{
	struct model *m = model_open(cache);
	struct mprofile *p;
	size_t n;

	if (!m)
		return;
	if (!model_profiles(m, &p, &n)) {
		for (size_t i = 0; i < n && i < 8; i++) {
			if (p[i].kind && !strcmp(p[i].kind, "system"))
				system_reports(m, &p[i]);
			else
				device_reports(m, &p[i]);
			frames(m, &p[i]);
		}
		model_profiles_free(p, n);
	}
	model_close(m);
}

void fuzz_import(const char *path, enum input_format f)
{
	struct import_opts o = { .quiet = 1 };
	char *cache = fuzz_path("cache.nxdb");
	struct writer *w;
	int rc;

	unlink(cache);
	w = writer_open(cache);
	if (!w)
		abort();
	rc = import_file_as(w, path, "input", &o, 0, NULL, f);
	fuzz_check_text("error message", err_get(), strlen(err_get()));
	if (rc) {
		writer_abort(w);
	} else if (!writer_finish(w)) {
		fuzz_read_back(cache);
	}
	err_clear();
	unlink(cache);
	free(cache);
}

char *fuzz_fixture_cache(const char *name)
{
	struct import_opts o = { .quiet = 1 };
	char *src = xasprintf("%s/%s", FUZZ_FIXTURES, name);
	char *cache = xasprintf("%s/%s.nxdb", fuzz_dir(), name);

	if (access(cache, F_OK) && import_build(src, cache, &o)) {
		fprintf(stderr, "fuzz: %s\n", err_get());
		abort();
	}
	free(src);
	return cache;
}
