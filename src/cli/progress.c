#include "config.h"

#include "src/cli/progress.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
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

/* A line wider than the terminal wraps, and "\r\033[K" then clears only
 * its last part: every update would leave the rest on the screen. So
 * the line is cut in the middle to the terminal's width (less the last
 * column, where some terminals wrap at once), its numbers kept at the
 * end; it is left out on a terminal too narrow for that. */
static void fit_line(struct strbuf *line)
{
	struct winsize ws;
	struct strbuf cut;
	int cols;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) || !ws.ws_col)
		return;
	cols = ws.ws_col - 1;
	if (text_width(sb_cstr(line)) <= cols)
		return;
	sb_init(&cut);
	if (cols >= 3)
		text_shorten(&cut, sb_cstr(line), cols);
	sb_reset(line);
	sb_adds(line, sb_cstr(&cut));
	sb_free(&cut);
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
	sb_adds(&p->line, "nxtop: ");
	text_sanitize(&p->line, what, 0);
	if (pct >= 0)
		sb_printf(&p->line, " %d%%", pct);
	if (events)
		sb_printf(&p->line, ", %" PRIu64 " event%s", events,
			  events == 1 ? "" : "s");
	fit_line(&p->line);
	/* one write: the terminal never shows the line cleared and not
	 * yet written again (stderr writes each call at once) */
	fprintf(stderr, "\r\033[K%s", sb_cstr(&p->line));
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
