#include "config.h"

#include "src/import/sysfilter.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Limits keep a hostile command line from costing much. */
#define MAX_ITEMS 4096
#define MAX_NC 1000000

static int cmp_range(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int parse_index(const char *s, size_t n, int64_t *out)
{
	return parse_i64(s, n, out) || *out < 0 || *out > MAX_NC ? -1 : 0;
}

/* "0,2-3" -> sorted, merged ranges. */
static int parse_nc(struct sysfilter *f, const char *spec)
{
	const char *p = spec;

	while (*p) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		const char *dash = memchr(p, '-', n);
		int64_t lo, hi;

		if (dash ? parse_index(p, (size_t)(dash - p), &lo) ||
			   parse_index(dash + 1, n - (size_t)(dash - p) - 1, &hi) :
			   parse_index(p, n, &lo)) {
			err_set("--filter-nc: '%.*s' is not a NeuronCore index or"
				" range (like 0,2-3)", (int)NX_MIN(n, 64), p);
			return -1;
		}
		if (!dash)
			hi = lo;
		if (hi < lo) {
			err_set("--filter-nc: bad range '%.*s'", (int)NX_MIN(n, 64), p);
			return -1;
		}
		if (f->nnc == MAX_ITEMS) {
			err_set("--filter-nc: more than %d NeuronCores or ranges",
				MAX_ITEMS);
			return -1;
		}
		f->nc = xreallocarray(f->nc, f->nnc + 1, sizeof(*f->nc));
		f->nc[f->nnc][0] = lo;
		f->nc[f->nnc++][1] = hi;
		p += n + (end ? 1 : 0);
	}
	if (f->nnc)
		qsort(f->nc, f->nnc, sizeof(*f->nc), cmp_range);
	size_t k = 0;
	for (size_t i = 0; i < f->nnc; i++) {
		if (k && f->nc[i][0] <= f->nc[k - 1][1] + 1) {
			f->nc[k - 1][1] = NX_MAX(f->nc[k - 1][1], f->nc[i][1]);
			continue;
		}
		f->nc[k][0] = f->nc[i][0];
		f->nc[k++][1] = f->nc[i][1];
	}
	f->nnc = k;
	if (!k) {
		err_set("--filter-nc: no NeuronCore given");
		return -1;
	}
	return 0;
}

/* A comma-separated list of names -> sorted, without repeats. */
static int parse_names(const char *opt, const char *spec, char ***out,
		       size_t *nout)
{
	const char *p = spec;
	size_t n = 0;
	char **v = NULL;

	while (*p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len && n == MAX_ITEMS) {
			err_set("%s: more than %d names", opt, MAX_ITEMS);
			while (n)
				free(v[--n]);
			free(v);
			return -1;
		}
		if (len) {
			v = xreallocarray(v, n + 1, sizeof(*v));
			v[n++] = xstrndup(p, len);
		}
		p += len + (end ? 1 : 0);
	}
	if (!n) {
		err_set("%s: no names given", opt);
		free(v);
		return -1;
	}
	qsort(v, n, sizeof(*v), cmp_str);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (k && !strcmp(v[k - 1], v[i])) {
			free(v[i]);
			continue;
		}
		v[k++] = v[i];
	}
	*out = v;
	*nout = k;
	return 0;
}

int sysfilter_parse(struct sysfilter *f, const char *nc, const char *types,
		    const char *instances)
{
	memset(f, 0, sizeof(*f));
	if ((nc && parse_nc(f, nc)) ||
	    (types && parse_names("--filter-event-type", types, &f->types,
				  &f->ntypes)) ||
	    (instances && parse_names("--filter-instance", instances,
				      &f->instances, &f->ninstances))) {
		sysfilter_free(f);
		return -1;
	}
	return 0;
}

void sysfilter_free(struct sysfilter *f)
{
	for (size_t i = 0; i < f->ntypes; i++)
		free(f->types[i]);
	for (size_t i = 0; i < f->ninstances; i++)
		free(f->instances[i]);
	free(f->types);
	free(f->instances);
	free(f->nc);
	memset(f, 0, sizeof(*f));
}

int sysfilter_nc(const struct sysfilter *f, int64_t nc)
{
	if (!f->nnc || nc < 0)
		return 1;
	for (size_t i = 0; i < f->nnc; i++)
		if (nc >= f->nc[i][0] && nc <= f->nc[i][1])
			return 1;
	return 0;
}

static int in_sorted(char *const *v, size_t n, const char *s)
{
	return bsearch(&s, v, n, sizeof(*v), cmp_str) != NULL;
}

int sysfilter_type(const struct sysfilter *f, const char *name)
{
	return !f->ntypes || in_sorted(f->types, f->ntypes, name ? name : "");
}

int sysfilter_instance(const struct sysfilter *f, const char *instance)
{
	return !f->ninstances || !instance ||
	       in_sorted(f->instances, f->ninstances, instance);
}

static void add_names(struct strbuf *out, const char *label, char *const *v,
		      size_t n)
{
	if (!n)
		return;
	sb_printf(out, "%s%s=", out->len ? ";" : "", label);
	for (size_t i = 0; i < n; i++)
		sb_printf(out, "%s%s", i ? "," : "", v[i]);
}

void sysfilter_key(const struct sysfilter *f, struct strbuf *out)
{
	sb_reset(out);
	if (f->nnc) {
		sb_adds(out, "nc=");
		for (size_t i = 0; i < f->nnc; i++) {
			sb_printf(out, "%s%" PRId64, i ? "," : "", f->nc[i][0]);
			if (f->nc[i][1] != f->nc[i][0])
				sb_printf(out, "-%" PRId64, f->nc[i][1]);
		}
	}
	add_names(out, "type", f->types, f->ntypes);
	add_names(out, "instance", f->instances, f->ninstances);
	sb_cstr(out);
}
