#include "config.h"

#include "src/pftrace/clock.h"

#include <stdlib.h>
#include <string.h>

#include "model/hmap.h"
#include "model/util.h"

/* Snapshots kept for finding conversions; older ones are dropped. */
#define MAX_SNAPSHOTS 1024
/* Clocks 64..127 belong to one sequence. */
#define SEQ_CLOCK_FIRST 64
#define SEQ_CLOCK_LAST 127

struct snap_clock {
	uint64_t key;
	int64_t ns;		/* the snapshot's value in ns */
};

struct snapshot {
	struct snap_clock *v;
	size_t n;
};

/* What is known about one clock domain. */
struct clock {
	uint64_t mult;		/* ns per unit */
	int incremental;
	int64_t last;		/* incremental: last value, in units */
	uint64_t gen;		/* snapshot generation of offset */
	int convertible;
	int64_t offset;		/* trace-clock ns minus this clock's ns */
};

struct pf_clocks {
	struct u64map clocks;	/* key -> struct clock */
	struct snapshot *snaps;	/* oldest first */
	size_t nsnaps;
	uint64_t gen;
	uint32_t target;
	int target_set;
	uint64_t unconverted;
};

static uint64_t clock_key(uint32_t seq, uint32_t id)
{
	if (id >= SEQ_CLOCK_FIRST && id <= SEQ_CLOCK_LAST)
		return (uint64_t)seq << 32 | id;
	return id;
}

struct pf_clocks *pfclk_new(void)
{
	struct pf_clocks *c = xcalloc(1, sizeof(*c));

	u64map_init(&c->clocks);
	c->target = PF_CLOCK_BOOTTIME;
	return c;
}

void pfclk_free(struct pf_clocks *c)
{
	if (!c)
		return;
	u64map_free(&c->clocks, free);
	for (size_t i = 0; i < c->nsnaps; i++)
		free(c->snaps[i].v);
	free(c->snaps);
	free(c);
}

uint64_t pfclk_unconverted(const struct pf_clocks *c)
{
	return c->unconverted;
}

static struct clock *clock_get(struct pf_clocks *c, uint64_t key)
{
	struct clock *k = u64map_get(&c->clocks, key);

	if (!k) {
		k = xcalloc(1, sizeof(*k));
		k->mult = 1;
		u64map_put(&c->clocks, key, k);
	}
	return k;
}

/* units * mult without overflow; -1 if it does not fit. */
static int to_ns(int64_t units, uint64_t mult, int64_t *ns)
{
	if (mult > INT64_MAX)
		return -1;
	return __builtin_mul_overflow(units, (int64_t)mult, ns) ? -1 : 0;
}

void pfclk_snapshot(struct pf_clocks *c, uint32_t seq,
		    const Nxpf__ClockSnapshot *s)
{
	struct snapshot snap = { xcalloc(s->n_clocks + 1, sizeof(*snap.v)), 0 };

	if (s->has_primary_trace_clock && s->primary_trace_clock &&
	    !c->target_set) {
		c->target = s->primary_trace_clock;
		c->target_set = 1;
	}
	for (size_t i = 0; i < s->n_clocks; i++) {
		const Nxpf__ClockSnapshot__Clock *k = s->clocks[i];
		uint64_t key = clock_key(seq, k->clock_id);
		struct clock *ck = clock_get(c, key);
		int64_t ns;

		ck->mult = k->has_unit_multiplier_ns && k->unit_multiplier_ns ?
			   k->unit_multiplier_ns : 1;
		ck->incremental = k->has_is_incremental && k->is_incremental;
		if (k->timestamp > INT64_MAX ||
		    to_ns((int64_t)k->timestamp, ck->mult, &ns))
			continue;
		ck->last = (int64_t)k->timestamp;
		snap.v[snap.n].key = key;
		snap.v[snap.n++].ns = ns;
	}
	if (c->nsnaps == MAX_SNAPSHOTS) {
		free(c->snaps[0].v);
		memmove(c->snaps, c->snaps + 1, (c->nsnaps - 1) * sizeof(*c->snaps));
		c->nsnaps--;
	}
	c->snaps = xreallocarray(c->snaps, c->nsnaps + 1, sizeof(*c->snaps));
	c->snaps[c->nsnaps++] = snap;
	c->gen++;
}

static int snap_value(const struct snapshot *s, uint64_t key, int64_t *ns)
{
	for (size_t i = 0; i < s->n; i++) {
		if (s->v[i].key == key) {
			*ns = s->v[i].ns;
			return 1;
		}
	}
	return 0;
}

/* The latest snapshot holding both clocks gives to - from. */
static int direct(const struct pf_clocks *c, uint64_t from, uint64_t to,
		  int64_t *offset)
{
	for (size_t i = c->nsnaps; i-- > 0;) {
		int64_t a, b;

		if (snap_value(&c->snaps[i], from, &a) &&
		    snap_value(&c->snaps[i], to, &b)) {
			*offset = b - a;
			return 1;
		}
	}
	return 0;
}

/* Direct, or through one clock that a later snapshot relates to the
 * target (Chrome: sequence clock 64 -> MONOTONIC -> BOOTTIME). */
static int find_offset(const struct pf_clocks *c, uint64_t from, uint64_t to,
		       int64_t *offset)
{
	if (direct(c, from, to, offset))
		return 1;
	for (size_t i = c->nsnaps; i-- > 0;) {
		const struct snapshot *s = &c->snaps[i];
		int64_t a, b, hop;

		if (!snap_value(s, from, &a))
			continue;
		for (size_t j = 0; j < s->n; j++) {
			if (s->v[j].key == from || !direct(c, s->v[j].key, to, &hop))
				continue;
			b = s->v[j].ns;
			*offset = (b - a) + hop;
			return 1;
		}
	}
	return 0;
}

int pfclk_convert(struct pf_clocks *c, uint32_t seq, uint32_t clock_id,
		  uint64_t ts, int64_t *out)
{
	uint64_t key = clock_key(seq, clock_id);
	struct clock *k = clock_get(c, key);
	int64_t units = (int64_t)ts, ns;

	/* past INT64_MAX the cast would wrap round to a negative time */
	if (ts > INT64_MAX)
		return -1;
	if (k->incremental) {
		if (__builtin_add_overflow(k->last, (int64_t)ts, &units))
			return -1;
		k->last = units;
	}
	if (to_ns(units, k->mult, &ns))
		return -1;
	if (key == c->target) {
		*out = ns;
		return 0;
	}
	if (k->gen != c->gen + 1) {
		k->convertible = find_offset(c, key, c->target, &k->offset);
		k->gen = c->gen + 1;
	}
	if (!k->convertible) {
		c->unconverted++;
		*out = ns;
		return 0;
	}
	return __builtin_add_overflow(ns, k->offset, out) ? -1 : 0;
}
