/* Fuzzes the search query parser and the search built from a query:
 * SQL, regular expressions and counts over a small cache. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"
#include "model/query.h"
#include "model/search.h"

static struct model *m;
static struct mprofile prof;
static struct mtrack *tracks;
static size_t ntracks;

static void done(void)
{
	model_tracks_free(tracks, ntracks);
	model_profile_clear(&prof);
	model_close(m);
}

static void count(void *ctx, const struct mslice *s)
{
	(void)s;
	++*(int *)ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xstrndup((const char *)data, size);
	struct search_stats st;
	struct query q;
	struct search *s;
	char *err = NULL;
	int n = 0;

	if (!m) {
		char *cache = fuzz_fixture_cache("device_small.json");

		m = model_open(cache);
		free(cache);
		if (!m || model_profile(m, 1, &prof) ||
		    model_tracks(m, prof.id, &tracks, &ntracks))
			abort();
		atexit(done);
	}
	if (query_parse(text, &q, &err)) {
		fuzz_check_text("query error", err, strlen(err));
		free(err);
		free(text);
		return 0;
	}
	query_free(&q);
	s = search_new(m, prof.id, text, &err);
	if (!s) {
		free(err);
		free(text);
		return 0;
	}
	if (!search_stats(s, tracks, ntracks, prof.start, prof.end + 1, &st))
		search_stats_free(&st);
	search_list(s, prof.start, prof.end + 1, 0, 20, count, &n);
	search_free(s);
	free(text);
	err_clear();
	return 0;
}
