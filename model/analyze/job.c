/* The rules on a thread of their own, over their own connection to the
 * cache: a viewer draws its first frame at once and shows the findings
 * when they are ready. */
#include "config.h"

#include "model/analyze/analyze.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "model/util.h"

/* Virtual machine steps between two looks at the cancel flag. */
#define CANCEL_STEPS 10000

struct an_job {
	pthread_t thread;
	struct model *m;	/* the thread's connection */
	int64_t profile, t0, t1;
	struct an_opts opts;
	struct an_result res;
	int rc, joined;
	char *error;
	atomic_int done, cancel;
};

static int cancelled(void *arg)
{
	return atomic_load(&((struct an_job *)arg)->cancel);
}

static void *job_main(void *arg)
{
	struct an_job *j = arg;

	j->rc = analyze_run(j->m, j->profile, j->t0, j->t1, &j->opts, &j->res);
	if (!j->rc)
		j->rc = model_check(j->m);
	if (j->rc)
		j->error = xstrdup(err_get());
	atomic_store(&j->done, 1);
	return NULL;
}

struct an_job *an_job_start(struct model *m, int64_t profile, int64_t t0,
			    int64_t t1)
{
	struct an_job *j = xcalloc(1, sizeof(*j));

	j->m = model_open_more(m);
	if (!j->m) {
		free(j);
		return NULL;
	}
	j->profile = profile;
	j->t0 = t0;
	j->t1 = t1;
	an_opts_init(&j->opts);
	sqlite3_progress_handler(model_db(j->m), CANCEL_STEPS, cancelled, j);
	if (pthread_create(&j->thread, NULL, job_main, j)) {
		err_set("analyze: cannot start a thread");
		j->joined = 1;
		an_job_free(j);
		return NULL;
	}
	return j;
}

int an_job_poll(struct an_job *j, int wait)
{
	if (!wait && !atomic_load(&j->done))
		return 0;
	if (!j->joined) {
		pthread_join(j->thread, NULL);
		j->joined = 1;
	}
	return 1;
}

const struct an_result *an_job_result(const struct an_job *j, const char **error)
{
	*error = j->error;
	return j->joined && !j->rc ? &j->res : NULL;
}

void an_job_free(struct an_job *j)
{
	if (!j)
		return;
	atomic_store(&j->cancel, 1);
	an_job_poll(j, 1);
	analyze_free(&j->res);
	an_opts_free(&j->opts);
	model_close(j->m);
	free(j->error);
	free(j);
}
