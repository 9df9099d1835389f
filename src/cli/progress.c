#include "config.h"

#include "src/cli/progress.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "model/text.h"
#include "model/util.h"

struct progress {
	int enabled;
	int shown;
	double start, last;
	struct strbuf line;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct progress *progress_new(int enabled)
{
	struct progress *p = xcalloc(1, sizeof(*p));

	p->enabled = enabled && isatty(STDERR_FILENO);
	p->start = now();
	sb_init(&p->line);
	return p;
}

void progress_free(struct progress *p)
{
	if (p) {
		progress_done(p);
		sb_free(&p->line);
	}
	free(p);
}

void progress_update(struct progress *p, const char *what, int pct,
		     uint64_t events)
{
	double t;

	if (!p || !p->enabled)
		return;
	t = now();
	if (t - p->start < 1.0 || t - p->last < 0.25)
		return;
	p->last = t;
	p->shown = 1;
	/* what names files, some found by listing a folder: cleaned */
	sb_reset(&p->line);
	text_sanitize(&p->line, what, 0);
	if (pct >= 0)
		sb_printf(&p->line, " %d%%", pct);
	if (events)
		sb_printf(&p->line, ", %" PRIu64 " event%s", events,
			  events == 1 ? "" : "s");
	fprintf(stderr, "\r\033[Knxtop: %s", sb_cstr(&p->line));
	fflush(stderr);
}

void progress_done(struct progress *p)
{
	if (p && p->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		p->shown = 0;
	}
}
