/* Fuzzes building queries from parts and writing them as text. The input
 * is records separated by NUL bytes: a record's first byte picks the
 * field, its second the operator and a leading '-', the rest is the
 * value (as a summary takes it from a profile). Each built query, shown
 * as query_format writes it, must hold nothing a terminal interprets,
 * parse back to the same terms and find what the terms find. The whole
 * input is also parsed as typed text: when it parses, its written form
 * must read back the same. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"
#include "model/query.h"
#include "model/search.h"

#define MAX_TERMS 8

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

static void setup(void)
{
	char *cache = fuzz_fixture_cache("device_small.json");

	m = model_open(cache);
	free(cache);
	if (!m || model_profile(m, 1, &prof) ||
	    model_tracks(m, prof.id, &tracks, &ntracks))
		abort();
	atexit(done);
}

static void same_terms(const struct query *a, const struct query *b)
{
	if (a->n != b->n)
		abort();
	for (size_t i = 0; i < a->n; i++) {
		const struct qterm *x = &a->terms[i], *y = &b->terms[i];

		if (x->field != y->field || x->op != y->op ||
		    x->negate != y->negate || strcmp(x->value, y->value) ||
		    x->num != y->num || (x->arg != NULL) != (y->arg != NULL) ||
		    (x->arg && strcmp(x->arg, y->arg)))
			abort();
	}
}

/* q written as text parses back to the same terms, and writing those
 * gives the same text; the text is left in out. */
static void round_trip(const struct query *q, struct strbuf *out)
{
	struct strbuf again;
	struct query back;
	char *err = NULL;

	query_format(q, out);
	if (query_parse(sb_cstr(out), &back, &err))
		abort();
	same_terms(q, &back);
	sb_init(&again);
	query_format(&back, &again);
	if (strcmp(sb_cstr(out), sb_cstr(&again)))
		abort();
	sb_free(&again);
	query_free(&back);
}

static int64_t matches(struct search *s)
{
	struct search_stats st;
	int64_t n;

	if (!s)
		abort();
	if (search_stats(s, tracks, ntracks, prof.start, prof.end + 1, &st))
		return -1;
	n = st.count;
	search_stats_free(&st);
	search_free(s);
	return n;
}

/* The built terms and their text find the same events. */
static void same_matches(struct query *q, const char *text)
{
	char *err = NULL;
	int64_t a = matches(search_new(m, prof.id, text, &err));
	int64_t b = matches(search_new_query(m, prof.id, q, &err));

	if (a != b)
		abort();
	err_clear();
}

static void built(const uint8_t *data, size_t size)
{
	struct query q = { NULL, 0 };
	struct strbuf text;
	size_t i = 0;

	while (i + 2 <= size && q.n < MAX_TERMS) {
		const uint8_t *end = memchr(data + i + 2, 0, size - i - 2);
		size_t n = end ? (size_t)(end - data) - i - 2 : size - i - 2;
		char *value = xstrndup((const char *)data + i + 2, n);
		char *err = NULL;

		if (query_add(&q, (enum qfield)(data[i] % F_COUNT),
			      (enum qop)((data[i + 1] & 0x7f) % (Q_NRE + 1)),
			      data[i + 1] >> 7, value, &err)) {
			fuzz_check_text("query_add error", err, strlen(err));
			free(err);
		}
		free(value);
		i += n + 3;
	}
	if (!q.n) {
		query_free(&q);	/* a refused term may leave room allocated */
		return;
	}
	sb_init(&text);
	round_trip(&q, &text);
	fuzz_check_text("built query", sb_cstr(&text), text.len);
	same_matches(&q, sb_cstr(&text));
	sb_free(&text);
	query_free(&q);
}

static void typed(const uint8_t *data, size_t size)
{
	char *text = xstrndup((const char *)data, size);
	struct strbuf out;
	struct query q;
	char *err = NULL;

	if (query_parse(text, &q, &err)) {
		free(err);
		free(text);
		return;
	}
	sb_init(&out);
	round_trip(&q, &out);
	sb_free(&out);
	query_free(&q);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!m)
		setup();
	built(data, size);
	typed(data, size);
	return 0;
}
