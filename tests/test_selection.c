/* The Selection Summary equals brute-force sums over the events: per
 * row and per value of each field (count, duration sum, min, max), the
 * events without a value as "(none)" so that every field's table sums
 * to its row, the rows' active time and the union over rows, for ranges
 * that cut through level-of-detail buckets, that reach past the events,
 * and for the whole profile. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/model.h"
#include "model/selection.h"
#include "model/util.h"
#include "model/writer/writer.h"
#include "tests/testutil.h"

#define NEV 40000
#define NTR 3

/* A field's index NONE: the event has no value for it. */
#define NONE 3

struct ev {
	int track;		/* 0..NTR-1 */
	int64_t ts, dur;
	int name, layer, size;	/* layer, size: NONE for none */
};

static struct ev evs[NEV];
static char *cache;
static const char *const names[] = { "MATMUL", "COPY", "ACTIVATE", "NOP" };
static const char *const layers[] = { "enc/l0/attn", "enc/l0/mlp", "enc/l1/attn" };
static const int sizes[] = { 2048, 4096, 65536 };

static int setup(void **state)
{
	struct wprofile p = { .kind = "device", .format = "test", .name = "s",
			      .nc_idx = -1 };
	struct writer *w;
	int64_t tr[NTR], ts[NTR] = { 0, 0, 0 };
	uint64_t r = 99;

	(void)state;
	cache = xasprintf("%s/sel.nxdb", tu_dir());
	unlink(cache);
	w = writer_open(cache);
	writer_profile(w, &p);
	tr[0] = writer_track(w, 1, 0, TK_ENGINE, "Vector", 1);
	tr[1] = writer_track(w, 1, 0, TK_ENGINE, "Scalar", 2);
	tr[2] = writer_track(w, 1, 0, TK_DMA, "qSyncIO0", 3);
	for (int i = 0; i < NEV; i++) {
		struct ev *e = &evs[i];
		int64_t slice;

		r = r * 6364136223846793005ull + 1442695040888963407ull;
		e->track = (int)((r >> 20) % NTR);
		/* rows do not overlap themselves, but do each other */
		ts[e->track] += 1 + (int64_t)((r >> 40) % 300);
		e->ts = ts[e->track];
		e->dur = (int64_t)((r >> 30) % 250);
		ts[e->track] += e->dur;
		e->name = (int)((r >> 50) % 4);
		e->layer = (int)((r >> 45) % 4);
		e->size = (int)((r >> 35) % 4);
		if (e->track < 2) {
			struct winstruction in;

			memset(&in, 0, sizeof(in));
			in.pc = in.compiler_pc = in.evt_wait_time = -1;
			if (e->layer != NONE)
				in.layer = writer_string(w, layers[e->layer]);
			/* NOPs have no HLO */
			if (e->name != NONE)
				in.hlo_name = writer_string(w, names[e->name]);
			slice = writer_slice(w, tr[e->track], e->ts, e->dur,
					     writer_string(w, names[e->name]),
					     in.layer, 0, 0);
			writer_instruction(w, slice, &in);
		} else {
			struct wdma d;

			memset(&d, 0, sizeof(d));
			d.packet_idx = d.read_size = d.write_size = -1;
			d.transfer_rate = d.dma_engine = d.dma_queue = -1;
			d.block_id = d.trigger_ts = -1;
			d.transfer_size = e->size == NONE ? -1 : sizes[e->size];
			slice = writer_slice_sized(w, tr[2], e->ts, e->dur,
						   writer_string(w, names[e->name]),
						   0, d.transfer_size);
			writer_dma(w, slice, &d);
		}
	}
	assert_int_equal(writer_finish(w), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(cache);
	return 0;
}

static const struct sel_value *find(const struct sel_field *f, const char *v)
{
	for (size_t i = 0; i < f->nrows; i++)
		if (!strcmp(f->rows[i].value, v))
			return &f->rows[i];
	return NULL;
}

enum { BY_NAME, BY_LAYER, BY_SIZE, BY_HLO };

/* which: BY_*; idx: the value's index, NONE for "(none)". */
static void check_value(const struct sel_field *f, const char *v, int track,
			int64_t t0, int64_t t1, int which, int idx)
{
	int64_t n = 0, dur = 0, dmin = INT64_MAX, dmax = 0;
	const struct sel_value *got = find(f, v);

	for (int i = 0; i < NEV; i++) {
		const struct ev *e = &evs[i];
		int key = which == BY_LAYER ? e->layer :
			  which == BY_SIZE ? e->size : e->name;

		if (e->track != track || e->ts < t0 || e->ts >= t1 || key != idx)
			continue;
		n++;
		dur += e->dur;
		dmin = NX_MIN(dmin, e->dur);
		dmax = NX_MAX(dmax, e->dur);
	}
	if (!n) {
		assert_null(got);
		return;
	}
	assert_non_null(got);
	assert_int_equal(got->none, which != BY_NAME && idx == NONE);
	assert_int_equal(got->n, n);
	assert_int_equal(got->dur, dur);
	assert_int_equal(got->dmin, dmin);
	assert_int_equal(got->dmax, dmax);
}

/* Each of a row's field tables sums to the row. */
static void check_sums(const struct sel_group *g)
{
	for (size_t k = 0; k < g->nfields; k++) {
		int64_t n = 0, dur = 0;

		for (size_t r = 0; r < g->fields[k].nrows; r++) {
			n += g->fields[k].rows[r].n;
			dur += g->fields[k].rows[r].dur;
		}
		assert_int_equal(n, g->n);
		assert_int_equal(dur, g->dur);
	}
}

static int64_t brute_active(int track, int64_t t0, int64_t t1)
{
	int64_t busy = 0, covered = t0;

	/* events are in start order per track and do not overlap */
	for (int i = 0; i < NEV; i++) {
		const struct ev *e = &evs[i];
		int64_t a, b;

		if (track >= 0 && e->track != track)
			continue;
		a = NX_MAX(e->ts, covered);
		b = NX_MIN(e->ts + e->dur, t1);
		if (track < 0) {
			/* union over rows: merge by start order below */
			continue;
		}
		if (b > a) {
			busy += b - a;
			covered = b;
		}
	}
	return busy;
}

static int cmp_ev(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static int64_t brute_union(int64_t t0, int64_t t1)
{
	struct ev *s = xmalloc(sizeof(evs));
	int64_t busy = 0, covered = t0;

	memcpy(s, evs, sizeof(evs));
	qsort(s, NEV, sizeof(*s), cmp_ev);
	for (int i = 0; i < NEV; i++) {
		int64_t a = NX_MAX(s[i].ts, covered);
		int64_t b = NX_MIN(s[i].ts + s[i].dur, t1);

		if (b > a) {
			busy += b - a;
			covered = b;
		}
	}
	free(s);
	return busy;
}

static void check_range(struct model *m, int64_t t0, int64_t t1)
{
	struct selection s;

	assert_int_equal(selection_compute(m, 1, t0, t1, NULL, 0, &s), 0);
	assert_int_equal(s.ngroups, NTR);
	for (int g = 0; g < NTR; g++) {
		const struct sel_group *gr = &s.groups[g];

		assert_int_equal(gr->nfields, 3);
		for (int k = 0; k < 4; k++)
			check_value(&gr->fields[0], names[k], g, t0, t1, BY_NAME, k);
		if (g < 2) {
			for (int k = 0; k <= NONE; k++) {
				check_value(&gr->fields[1], k == NONE ? "(none)" :
					    layers[k], g, t0, t1, BY_LAYER, k);
				check_value(&gr->fields[2], k == NONE ? "(none)" :
					    names[k], g, t0, t1, BY_HLO, k);
			}
		} else {
			char v[16];

			for (int k = 0; k <= NONE; k++) {
				snprintf(v, sizeof(v), "%d", k == NONE ? 0 : sizes[k]);
				check_value(&gr->fields[2], k == NONE ? "(none)" : v,
					    g, t0, t1, BY_SIZE, k);
			}
		}
		check_sums(gr);
		assert_int_equal(gr->active, brute_active(g, t0, t1));
	}
	assert_true(s.active_exact);
	assert_int_equal(s.active, brute_union(t0, t1));
	selection_free(&s);
}

static void test_ranges(void **state)
{
	struct model *m = model_open(cache);
	int64_t end = evs[NEV - 1].ts + 1000;

	(void)state;
	check_range(m, 0, end);
	check_range(m, 12345, 987654);
	check_range(m, end / 3 + 7, end / 3 + 5000);
	check_range(m, 1, 2);
	/* ranges past a row's first or last event: buckets wider than what
	 * is left of the range count whole */
	check_range(m, -5000, 777777);
	check_range(m, 333333, end + 99999);
	check_range(m, -((int64_t)1 << 40), (int64_t)1 << 40);
	model_close(m);
}

/* Selecting a row keeps only that row; its group selects its children. */
static void test_rows(void **state)
{
	struct model *m = model_open(cache);
	struct selection s;
	int64_t ids[] = { 2 };

	(void)state;
	assert_int_equal(selection_compute(m, 1, 0, INT64_MAX / 4, ids, 1, &s), 0);
	assert_int_equal(s.ngroups, 1);
	assert_string_equal(s.groups[0].name, "Scalar");
	selection_free(&s);
	model_close(m);
}

/* In a selection of more than SEL_NONE_EXACT_MAX events the "(none)"
 * line keeps its count and time and its shortest and longest come from
 * the counting pass, with estimated percentiles; in a shorter one they
 * are read value by value. Every third event has no layer: 3, 6, 9, ...
 * ns long. */
static void test_none_long_row(void **state)
{
	struct wprofile p = { .kind = "device", .format = "test", .name = "l",
			      .nc_idx = -1 };
	char *path = xasprintf("%s/long.nxdb", tu_dir());
	const int64_t n = SEL_NONE_EXACT_MAX + 2;
	int64_t none_n = 0, none_dur = 0, none_min = 0, none_max = 0, track;
	struct writer *w;
	struct model *m;
	struct selection s;
	const struct sel_value *v;

	(void)state;
	unlink(path);
	w = writer_open(path);
	writer_profile(w, &p);
	track = writer_track(w, 1, 0, TK_ENGINE, "Vector", 1);
	for (int64_t i = 1; i <= n; i++) {
		int64_t layer = i % 3 ? writer_string(w, "l") : 0;
		struct winstruction in;

		memset(&in, 0, sizeof(in));
		in.pc = in.compiler_pc = in.evt_wait_time = -1;
		in.layer = layer;
		writer_instruction(w, writer_slice(w, track, 10 * i, i,
						   writer_string(w, "OP"), layer,
						   0, 0), &in);
		if (!layer) {
			none_n++;
			none_dur += i;
			none_min = none_min ? none_min : i;
			none_max = i;
		}
	}
	assert_int_equal(writer_finish(w), 0);
	m = model_open(path);
	assert_int_equal(selection_compute(m, 1, 0, INT64_MAX / 4, NULL, 0, &s), 0);
	v = find(&s.groups[0].fields[1], "(none)");
	assert_non_null(v);
	assert_int_equal(v->n, none_n);
	assert_int_equal(v->dur, none_dur);
	/* counted in one pass: exact extremes, estimated percentiles */
	assert_int_equal(v->dmin, none_min);
	assert_int_equal(v->dmax, none_max);
	assert_int_equal(v->dist.measured, 1);
	assert_int_equal(v->dist.estimated, 1);
	selection_free(&s);
	/* events 1..100: the (none) ones are 3 .. 99 ns long */
	assert_int_equal(selection_compute(m, 1, 0, 1001, NULL, 0, &s), 0);
	v = find(&s.groups[0].fields[1], "(none)");
	assert_non_null(v);
	assert_int_equal(v->n, 33);
	assert_int_equal(v->dmin, 3);
	assert_int_equal(v->dmax, 99);
	selection_free(&s);
	model_close(m);
	free(path);
}

/* Bucket bounds at the powers of two, the last bucket up to INT64_MAX,
 * and nearest-rank percentiles counted by hand. */
static void test_dist(void **state)
{
	/* ranks ceil(p/100 x 10): 5, 9, 10 */
	const int64_t d[10] = { 0, 1, 2, 3, 4, 7, 8, 1023, 1024, INT64_MAX };
	struct dist x;

	(void)state;
	assert_int_equal(dist_bucket(0), 0);
	assert_int_equal(dist_bucket(1), 0);
	assert_int_equal(dist_bucket(2), 1);
	assert_int_equal(dist_bucket(1023), 9);
	assert_int_equal(dist_bucket(1024), 10);
	assert_int_equal(dist_bucket(INT64_MAX), 62);
	assert_int_equal(dist_lo(0), 0);
	assert_int_equal(dist_hi(0), 1);
	assert_int_equal(dist_lo(10), 1024);
	assert_int_equal(dist_hi(10), 2047);
	assert_int_equal(dist_hi(62), INT64_MAX);
	dist_from_sorted(d, 10, &x);
	assert_int_equal(x.p50, 4);
	assert_int_equal(x.p90, 1024);
	assert_int_equal(x.p99, INT64_MAX);
	assert_int_equal(x.hist[0], 2);
	assert_int_equal(x.hist[1], 2);
	assert_int_equal(x.hist[2], 2);
	assert_int_equal(x.hist[3], 1);
	assert_int_equal(x.hist[9], 1);
	assert_int_equal(x.hist[10], 1);
	assert_int_equal(x.hist[62], 1);
	assert_int_equal(x.estimated, 0);
}

/* Counted, not kept: the percentiles are the bounds of the buckets
 * holding ranks 5, 9 and 10, no more than the longest. */
static void test_dist_estimate(void **state)
{
	const int64_t d[10] = { 0, 1, 2, 3, 4, 7, 8, 1023, 1024, 1500 };
	struct dist x;

	(void)state;
	memset(&x, 0, sizeof(x));
	for (int i = 9; i >= 0; i--)
		dist_add(&x, d[i]);
	dist_estimate(&x, 1500);
	assert_int_equal(x.estimated, 1);
	assert_int_equal(x.hist[2], 2);
	assert_int_equal(x.hist[10], 2);
	assert_int_equal(x.p50, 7);		/* rank 5, 4 in [4, 7] */
	assert_int_equal(x.p90, 1500);		/* rank 9, 1024 in [1024, 2047] */
	assert_int_equal(x.p99, 1500);
	dist_estimate(&x, -1);
	assert_int_equal(x.p90, 2047);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_dist),
		cmocka_unit_test(test_dist_estimate),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_none_long_row),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
