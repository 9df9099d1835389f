#include "config.h"

#include "model/proflist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/util.h"

static const char *const kind_names[PK_COUNT] = {
	[PK_DEVICE] = "device",
	[PK_SYSTEM] = "system",
	[PK_BUNDLE] = "bundle",
	[PK_TRACE] = "trace",
	[PK_PQ_DEVICE] = "parquet device",
	[PK_PQ_SYSTEM] = "parquet system",
	[PK_JAX] = "jax",
};

const char *prof_kind_name(enum prof_kind k)
{
	return k < PK_COUNT ? kind_names[k] : "";
}

int prof_kind_parse(const char *s, enum prof_kind *k)
{
	for (int i = 0; i < PK_COUNT; i++) {
		if (!strcmp(s, kind_names[i])) {
			*k = (enum prof_kind)i;
			return 0;
		}
	}
	return -1;
}

const char *prof_state_name(enum prof_state s)
{
	switch (s) {
	case PS_READY:
		return "ready";
	case PS_MISSING:
		return "missing";
	default:
		return "import";
	}
}

struct prof_entry *proflist_add(struct proflist *pl, const char *name,
				const char *path, enum prof_kind kind)
{
	struct prof_entry *e;

	for (size_t i = 0; i < pl->n; i++)
		if (!strcmp(pl->v[i].path, path))
			return &pl->v[i];
	pl->v = xreallocarray(pl->v, pl->n + 1, sizeof(*pl->v));
	e = &pl->v[pl->n++];
	memset(e, 0, sizeof(*e));
	e->name = xstrdup(name);
	e->path = xstrdup(path);
	e->kind = kind;
	return e;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct prof_entry *x = a, *y = b;

	if (x->when != y->when)
		return x->when > y->when ? -1 : 1;
	return strcmp(x->name, y->name);
}

void proflist_sort(struct proflist *pl)
{
	if (pl->n)
		qsort(pl->v, pl->n, sizeof(*pl->v), cmp_entry);
}

void proflist_free(struct proflist *pl)
{
	for (size_t i = 0; i < pl->n; i++) {
		free(pl->v[i].name);
		free(pl->v[i].path);
	}
	free(pl->v);
	pl->v = NULL;
	pl->n = 0;
}

const char *prof_size_text(char *buf, size_t n, int64_t bytes)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes;
	size_t u = 0;

	if (bytes < 1024) {
		snprintf(buf, n, "%lld B", (long long)bytes);
		return buf;
	}
	v /= 1024;
	while (v >= 1024 && u + 1 < NX_ARRAY_SIZE(units)) {
		v /= 1024;
		u++;
	}
	snprintf(buf, n, "%.1f %s", v, units[u]);
	return buf;
}

const char *prof_when_text(char *buf, size_t n, int64_t when)
{
	time_t t = (time_t)(when / 1000000000);
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, n, "%Y-%m-%d %H:%M", &tm))
		snprintf(buf, n, "-");
	return buf;
}
