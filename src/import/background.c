#include "config.h"

#include "src/import/background.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "model/util.h"
#include "model/writer/writer.h"
#include "src/import/bundle.h"

struct background {
	char *path;		/* the cache */
	struct import_opts opts;
	struct devqueue *q;
	struct wqueued *jobs;
	size_t n;
	pthread_t thread;
};

/* The importer's progress, as the device's percent in the queue. */
static void to_queue(void *ctx, const char *what, int pct, uint64_t events)
{
	struct background *bg = ctx;
	int64_t profile;

	(void)events;
	if (!what || pct < 0)
		return;
	/* reading the file is most of it; indexing and summaries end it */
	pct = strncmp(what, "importing", 9) ? 80 + pct / 5 : pct * 4 / 5;
	/* the one importing is the one that says so */
	for (size_t i = 0; i < bg->n; i++) {
		profile = bg->jobs[i].profile;
		if (devq_state(bg->q, profile, NULL) == DQ_IMPORTING)
			devq_progress(bg->q, profile, pct);
	}
}

static const struct wqueued *job(const struct background *bg, int64_t profile)
{
	for (size_t i = 0; i < bg->n; i++)
		if (bg->jobs[i].profile == profile)
			return &bg->jobs[i];
	return NULL;
}

static void *run(void *arg)
{
	struct background *bg = arg;
	int64_t profile;

	while (!devq_take(bg->q, &profile)) {
		const struct wqueued *j = job(bg, profile);
		int rc = j ? bundle_import_queued(bg->path, j, &bg->opts,
						  devq_stop_flag(bg->q)) : -1;

		devq_done(bg->q, profile, rc == 0);
	}
	return NULL;
}

struct background *background_start(const char *path,
				    const struct import_opts *o,
				    struct devqueue *q)
{
	struct background *bg = xcalloc(1, sizeof(*bg));

	if (writer_queued(path, &bg->jobs, &bg->n) || !bg->n) {
		free(bg->jobs);
		free(bg);
		return NULL;
	}
	bg->path = xstrdup(path);
	bg->q = q;
	bg->opts = *o;
	bg->opts.quiet = 0;	/* progress goes to the queue, nothing else */
	bg->opts.progress.fn = to_queue;
	bg->opts.progress.ctx = bg;
	for (size_t i = 0; i < bg->n; i++)
		devq_add(q, bg->jobs[i].profile);
	if (pthread_create(&bg->thread, NULL, run, bg)) {
		err_set("cannot start the import of the device profiles");
		writer_queued_free(bg->jobs, bg->n);
		free(bg->path);
		free(bg);
		return NULL;
	}
	return bg;
}

void background_stop(struct background *bg)
{
	if (!bg)
		return;
	devq_stop(bg->q);
	pthread_join(bg->thread, NULL);
	writer_queued_free(bg->jobs, bg->n);
	free(bg->path);
	free(bg);
}

int background_finish(const char *path, const struct import_opts *o)
{
	struct wqueued *v;
	size_t n;

	if (writer_queued(path, &v, &n))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (bundle_import_queued(path, &v[i], o, NULL) && !o->quiet)
			err_note("device profile not imported: %s", err_get());
	import_show(o, NULL, -1, 0);
	writer_queued_free(v, n);
	return 0;
}
