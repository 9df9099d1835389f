#include "config.h"

#include "tui/keywatch.h"

#include <stdlib.h>
#include <time.h>

#include "model/util.h"
#include "tui/view.h"

static double ms_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) * 1e3 +
	       (double)(now.tv_nsec - t->tv_nsec) / 1e6;
}

/* Tests may ask that a watched reading last at least
 * NXTOP_TEST_READING_MS ms, checked as a long one is, so that they can
 * type or resize the terminal while it runs. */
static void test_lengthen(struct keywatch *w)
{
	const char *v = getenv("NXTOP_TEST_READING_MS");
	const struct timespec tick = { 0, 10 * 1000 * 1000 };
	long ms;

	if (!v || !*v)
		return;
	ms = strtol(v, NULL, 10);
	while (ms_since(&w->since) < (double)ms && !keywatch_check(w))
		nanosleep(&tick, NULL);
}

int keywatch_begin(struct keywatch *w, struct tui *t, const char *doing,
		   const char *what)
{
	if (w->stopped)
		return -1;
	if (!w->watching) {
		w->watching = 1;
		w->tui = t;
		free(w->busy);
		w->busy = xasprintf("%s %s (any key stops)...", doing, what);
		clock_gettime(CLOCK_MONOTONIC, &w->since);
		test_lengthen(w);
	}
	return keywatch_check(w) ? -1 : 0;
}

int keywatch_check(void *arg)
{
	struct keywatch *w = arg;

	if (w->stopped)
		return 1;
	if (!tui_headless(w->tui) && ms_since(&w->since) < KEYWATCH_AFTER_MS)
		return 0;
	if (!w->shown || tui_resized(w->tui)) {
		w->shown = 1;
		tui_busy(w->tui, w->busy);
	}
	w->stopped = tui_key_waiting(w->tui);
	return w->stopped;
}

int keywatch_end(struct keywatch *w)
{
	int stopped = w->stopped;

	w->watching = w->shown = w->stopped = 0;
	return stopped;
}

void keywatch_free(struct keywatch *w)
{
	free(w->busy);
	*w = (struct keywatch){ 0 };
}
