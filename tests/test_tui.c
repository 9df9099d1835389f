/* The viewer's parts that need no terminal: the request table against
 * the man page's KEYS section, keymaps, key names, time-axis ticks, the
 * command line editor and its history, the frame cache (a shifted
 * frame equals a fresh one) and a system profile's rows regrouped at
 * view time; and, drawn into a curses screen on /dev/null, the details
 * pane's layout of a value of megabytes and the pager's wrapping; and
 * the mouse's clicks, double-clicks and drags told apart by time and
 * place.
 * With --print-man-keys it prints the KEYS section for man/nxtop.1. */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "model/model.h"
#include "model/sysrows.h"
#include "model/util.h"
#include "tests/testutil.h"
#include "tui/axis.h"
#include "tui/details.h"
#include "tui/draw.h"
#include "tui/keys.h"
#include "tui/mouse.h"
#include "tui/pager.h"
#include "tui/prompt.h"
#include "tui/tracks.h"
#include "tui/wrap.h"

#define MAN_BEGIN ".\\\" keys: generated"
#define MAN_END ".\\\" keys: end"

static void test_man_keys(void **state)
{
	char *man = tu_read_man(), *b, *e;
	struct strbuf want;

	(void)state;
	assert_non_null(man);
	b = strstr(man, MAN_BEGIN);
	assert_non_null(b);
	b = strchr(b, '\n') + 1;
	e = strstr(b, MAN_END);
	assert_non_null(e);
	*e = '\0';
	sb_init(&want);
	keys_man(&want);
	if (strcmp(b, sb_cstr(&want)))
		fail_msg("man/nxtop.1 KEYS differs from tui/request.h; run "
			 "'make man-keys'. Expected:\n%s", sb_cstr(&want));
	sb_free(&want);
	free(man);
}

/* Every key in the table reaches its own request in every keymap that
 * has it: no key is bound twice in a keymap and the keymaps under it,
 * and every name parses. */
static void test_keys_unique(void **state)
{
	size_t n;
	const struct req_info *r = req_table(&n);

	(void)state;
	for (size_t i = 0; i < n; i++) {
		if (r[i].req == REQ_NONE)
			continue;
		assert_int_equal(req_by_name(r[i].name), r[i].req);
		assert_ptr_equal(req_info(r[i].req), &r[i]);
		for (int km = 0; km < KM_COUNT; km++) {
			const char *p = r[i].keys;

			if (!keymap_covers((enum keymap)km, r[i].keymap))
				continue;
			while (*p) {
				int key;

				if (*p == ' ') {
					p++;
					continue;
				}
				assert_int_equal(keys_parse(&p, &key), 0);
				if (keys_request(key, (enum keymap)km) != r[i].req)
					fail_msg("key of %s also bound elsewhere",
						 r[i].name);
			}
		}
	}
	assert_int_equal(req_by_name("no-such-request"), REQ_NONE);
	/* one key, a request per keymap */
	assert_int_equal(keys_request('G', KM_LIST), REQ_LAST_LINE);
	assert_int_equal(keys_request('G', KM_MARKERS), REQ_LAST_LINE);
	assert_int_equal(keys_request('/', KM_TIMELINE), REQ_SEARCH);
	assert_int_equal(keys_request('/', KM_LIST), REQ_FILTER);
	assert_int_equal(keys_request('w', KM_TIMELINE), REQ_ZOOM_IN);
	assert_int_equal(keys_request('w', KM_MARKERS), REQ_SAVE_SET);
	assert_int_equal(keys_request('w', KM_LIST), REQ_NONE);
	assert_int_equal(keys_request('q', KM_LAYERS), REQ_VIEW_CLOSE);
	/* the pager: the keys of lines, its own / and n/N, no list's */
	assert_int_equal(keys_request('/', KM_PAGER), REQ_FIND);
	assert_int_equal(keys_request('N', KM_PAGER), REQ_FIND_PREV);
	assert_int_equal(keys_request('G', KM_PAGER), REQ_LAST_LINE);
	assert_int_equal(keys_request('o', KM_PAGER), REQ_NONE);
	assert_int_equal(keys_request('t', KM_LAYERS), REQ_SHOW_TEXT);
}

static int parse1(const char *s)
{
	int key = -1;

	assert_int_equal(keys_parse(&s, &key), 0);
	assert_int_equal(*s, '\0');
	return key;
}

static void test_key_names(void **state)
{
	const char *bad = "<Bogus>";
	char buf[32];
	int key;

	(void)state;
	assert_int_equal(parse1("j"), 'j');
	assert_int_equal(parse1("<C-l>"), 12);
	assert_int_equal(parse1("<lt>"), '<');
	assert_int_equal(parse1("<"), '<');
	assert_int_equal(keys_request(parse1("<Enter>"), KM_TIMELINE), REQ_ENTER);
	assert_int_equal(keys_request('\r', KM_LIST), REQ_ENTER);
	assert_int_equal(parse1("\xc2\xb5"), KEY_UNICODE(0xb5));
	assert_int_equal(keys_parse(&bad, &key), -1);
	keys_name(parse1("<PgDown>"), buf, sizeof(buf));
	assert_string_equal(buf, "<PgDown>");
	keys_name(' ', buf, sizeof(buf));
	assert_string_equal(buf, "<Space>");
	keys_name(KEY_UNICODE(0xb5), buf, sizeof(buf));
	assert_string_equal(buf, "\xc2\xb5");
	keys_name(KEY_UNICODE(0x1b), buf, sizeof(buf));
	assert_string_equal(buf, "\xef\xbf\xbd");
}

/* Ticks are multiples of a 1-2-5 step, in their columns, labels fit. */
static void check_axis(int64_t t0, int64_t colw, int ncols, int64_t origin)
{
	struct axis a;
	int64_t s;

	axis_compute(&a, t0, colw, ncols, origin, 0);
	for (s = a.step; s % 10 == 0; s /= 10)
		;
	assert_true(s == 1 || s == 2 || s == 5);
	assert_true(a.n > 0);
	for (int k = 0; k < a.n; k++) {
		char l[64];

		assert_int_equal(a.t[k] % a.step, 0);
		assert_true(origin + a.t[k] >= t0 + a.col[k] * colw);
		assert_true(origin + a.t[k] < t0 + (a.col[k] + 1) * colw);
		axis_label(&a, a.t[k], l, sizeof(l));
		if (k + 1 < a.n)
			assert_true(a.col[k + 1] - a.col[k] >= (int)strlen(l));
	}
}

static void test_axis(void **state)
{
	struct axis a;
	char l[64];

	(void)state;
	axis_compute(&a, 0, 1000, 60, 0, 0);
	assert_int_equal(a.step, 10000);
	assert_int_equal(a.n, 6);
	assert_int_equal(a.col[1], 10);
	axis_label(&a, a.t[1], l, sizeof(l));
	assert_string_equal(l, "10\xc2\xb5s");
	/* deep in, far from the origin: the unit follows the time */
	axis_compute(&a, 1868000, 10, 60, 0, 0);
	assert_int_equal(a.step, 100);
	axis_label(&a, a.t[1], l, sizeof(l));
	assert_string_equal(l, "1.8681ms");
	check_axis(0, 1, 60, 0);
	check_axis(-5000, 1000, 60, 0);
	check_axis(123456789, 3, 180, 1000);
	check_axis(0, 987654321, 280, 0);
	check_axis(1729888371056597613, 1000, 200, 1729888371000000000);
}

static void type(struct prompt *p, const char *keys)
{
	while (*keys) {
		int key;

		assert_int_equal(keys_parse(&keys, &key), 0);
		assert_int_equal(prompt_key(p, key), PROMPT_EDITING);
	}
}

static void test_prompt(void **state)
{
	struct prompt p;

	(void)state;
	prompt_start(&p, ':');
	type(&p, "goto 1\xc2\xb5s");
	assert_string_equal(p.text, "goto 1\xc2\xb5s");
	type(&p, "<Left><Backspace>");
	assert_string_equal(p.text, "goto 1s");
	type(&p, "<Home>x<End>y");
	assert_string_equal(p.text, "xgoto 1sy");
	type(&p, "<Left><C-u>");
	assert_string_equal(p.text, "y");
	assert_int_equal(prompt_key(&p, '\r'), PROMPT_DONE);
	assert_int_equal(prompt_key(&p, KEY_ESC), PROMPT_CANCEL);
	prompt_start(&p, ':');
	assert_int_equal(prompt_key(&p, 127), PROMPT_CANCEL);
	/* a fixed word (":rename M2"): Ctrl-U clears the name only */
	prompt_start(&p, ':');
	prompt_set_label(&p, "rename ");
	prompt_set(&p, "M2");
	type(&p, "<C-u>start");
	assert_string_equal(p.text, "start");
	assert_string_equal(p.label, "rename ");
}

/* Up and Down walk the history and come back to the line being typed;
 * text put on the line is cut on a character boundary. */
static void test_prompt_history(void **state)
{
	struct prompt p;
	char **hist = xcalloc(2, sizeof(*hist));
	char *long_text = xcalloc(PROMPT_MAX + 8, 1);

	(void)state;
	memset(&p, 0, sizeof(p));
	hist[0] = xstrdup("opcode=MATMUL");
	hist[1] = xstrdup("dur>2us");
	prompt_start(&p, '/');
	prompt_set_history(&p, hist, 2);
	type(&p, "lay");
	type(&p, "<Up>");
	assert_string_equal(p.text, "opcode=MATMUL");
	type(&p, "<Up><Up>");
	assert_string_equal(p.text, "dur>2us");
	type(&p, "<Down><Down>");
	assert_string_equal(p.text, "lay");
	type(&p, "er<Down>");
	assert_string_equal(p.text, "layer");
	/* 'é' is two bytes: a cut in its middle drops it */
	memset(long_text, 'a', PROMPT_MAX - 2);
	strcat(long_text, "\xc3\xa9");
	prompt_set(&p, long_text);
	assert_int_equal(p.len, PROMPT_MAX - 2);
	prompt_free(&p);
	free(long_text);
}

static void expect_same(struct model *m, struct tracks *tr, size_t i,
			int64_t t0, int64_t colw, int n)
{
	struct mcell *fresh = xcalloc((size_t)n, sizeof(*fresh));
	struct mccell *cfresh = xcalloc((size_t)n, sizeof(*cfresh));

	if (tr->t[i].is_counter) {
		const struct mccell *got =
			tracks_counter_frame(tr, i, t0, colw, n);

		assert_non_null(got);
		assert_int_equal(model_counter_frame(m, &tr->t[i], t0, colw,
						     n, cfresh), 0);
		assert_memory_equal(got, cfresh, (size_t)n * sizeof(*cfresh));
	} else {
		const struct mcell *got = tracks_frame(tr, i, t0, colw, n);

		assert_non_null(got);
		assert_int_equal(model_frame(m, &tr->t[i], t0, colw, n, fresh),
				 0);
		assert_memory_equal(got, fresh, (size_t)n * sizeof(*fresh));
	}
	free(fresh);
	free(cfresh);
}

/* Panning reuses cached columns; what comes out must equal a frame read
 * from scratch, for event and counter tracks, zoomed in and out. */
static void test_frame_cache(void **state)
{
	char *fx = tu_fixture("device_screen.json");
	char *cache = tu_import(fx);
	struct model *m;
	struct tracks tr;
	static const int64_t colws[] = { 7, 150, 4000 };
	static const int shifts[] = { 0, 3, -5, 40, -1, 79, -79, 200 };

	(void)state;
	assert_non_null(cache);
	m = model_open(cache);
	assert_non_null(m);
	assert_int_equal(tracks_load(&tr, m, 1), 0);
	for (size_t i = 0; i < tr.n; i++) {
		if (tr.st[i].is_group)
			continue;
		for (size_t z = 0; z < NX_ARRAY_SIZE(colws); z++) {
			int64_t t0 = 20000;

			for (size_t k = 0; k < NX_ARRAY_SIZE(shifts); k++) {
				t0 += shifts[k] * colws[z];
				expect_same(m, &tr, i, t0, colws[z], 80);
			}
		}
	}
	/* a folded group shows the busiest of its tracks */
	assert_true(tr.st[0].is_group);
	tr.st[0].folded = 1;
	tracks_update_rows(&tr);
	assert_int_equal(tracks_row_of(&tr, 1), 0);
	{
		const struct mcell *g = tracks_frame(&tr, 0, 0, 3000, 80);
		int64_t busy = 0;

		assert_non_null(g);
		for (size_t j = 1; j < tr.n && tr.st[j].parent == 0; j++)
			busy = NX_MAX(busy, tracks_frame(&tr, j, 0, 3000, 80)[5].busy);
		assert_int_equal(tracks_frame(&tr, 0, 0, 3000, 80)[5].busy, busy);
	}
	tracks_free(&tr);
	model_close(m);
	free(cache);
	free(fx);
}

/* B's tracks under A's: two headings, each side's tree one level down,
 * ids found per side; a B frame at t0 is B's own frame at t0 - shift
 * with its top events moved by shift, panned or not. */
static void test_stacked(void **state)
{
	char *fa = tu_fixture("device_small.json");
	char *fb = tu_fixture("device_screen.json");
	char *ca = tu_import(fa), *cb = tu_import(fb);
	struct model *ma, *mb;
	struct tracks tr, b, ref;
	static const int64_t shift = -12345;
	size_t na, nb;

	(void)state;
	assert_non_null(ca);
	assert_non_null(cb);
	ma = model_open(ca);
	mb = model_open(cb);
	assert_non_null(ma);
	assert_non_null(mb);
	assert_int_equal(tracks_load(&tr, ma, 1), 0);
	assert_int_equal(tracks_load(&b, mb, 1), 0);
	assert_int_equal(tracks_load(&ref, mb, 1), 0);
	na = tr.n;
	nb = b.n;
	tracks_stack(&tr, &b, mb, "A: a", "B: b");
	assert_int_equal(b.n, 0);
	assert_int_equal(tr.n, na + nb + 2);
	assert_string_equal(tr.t[0].name, "A: a");
	assert_string_equal(tr.t[na + 1].name, "B: b");
	assert_int_equal(tr.st[na + 1].side, 1);
	assert_int_equal(tr.st[na + 1].parent, SIZE_MAX);
	for (size_t j = 0; j < nb; j++) {
		size_t i = na + 2 + j;

		assert_int_equal(tr.st[i].side, 1);
		assert_int_equal(tr.st[i].depth, ref.st[j].depth + 1);
		assert_int_equal(tr.st[i].parent, ref.st[j].parent == SIZE_MAX ?
				 na + 1 : ref.st[j].parent + na + 2);
		assert_int_equal(tracks_find_side(&tr, 1, ref.t[j].id) ==
				 SIZE_MAX, ref.st[j].is_group && !ref.t[j].id);
		assert_true(tracks_model(&tr, i) == mb);
	}
	for (size_t j = 0; j < na; j++)
		assert_true(tracks_model(&tr, j + 1) == ma);
	tracks_set_shift(&tr, shift);
	for (size_t j = 0; j < nb; j++) {
		size_t i = na + 2 + j;
		int64_t t0 = 20000;

		if (ref.st[j].is_group || ref.t[j].is_counter)
			continue;
		for (int k = 0; k < 3; k++, t0 += 7 * 150) {
			struct mcell want[80];
			const struct mcell *got = tracks_frame(&tr, i, t0, 150, 80);

			assert_non_null(got);
			assert_int_equal(model_frame(mb, &ref.t[j], t0 - shift,
						     150, 80, want), 0);
			for (int c = 0; c < 80; c++)
				if (want[c].top_slice)
					want[c].top_ts += shift;
			assert_memory_equal(got, want, sizeof(want));
		}
	}
	tracks_free(&ref);
	tracks_free(&tr);
	model_close(mb);
	model_close(ma);
	free(ca);
	free(cb);
	free(fa);
	free(fb);
}

/* A system profile regrouped at view time: one line per row, a row
 * merging the tracks that share its keys, every track in exactly one
 * row; merged frames and panned frames equal frames read from scratch;
 * a heading selects the tracks of its rows. */
static void test_system_rows(void **state)
{
	char *fx = tu_fixture("system_small.json"), *text, *cache;
	struct sysgroup g;
	struct model *m;
	struct tracks tr;
	size_t len, merged = 0;

	(void)state;
	text = tu_read_file(fx);
	assert_non_null(text);
	len = strlen(text);
	cache = tu_import(tu_write("system_profile.json", text, len));
	assert_non_null(cache);
	m = model_open(cache);
	assert_non_null(m);
	sysgroup_default(&g);
	assert_int_equal(sysgroup_parse("instance", "--group", g.group,
					&g.ngroup), 0);
	/* a row per source: each merges the threads of every core */
	assert_int_equal(sysgroup_parse("", "--row", g.row, &g.nrow), 0);
	assert_int_equal(tracks_load_rows(&tr, m, 1, &g), 0);
	assert_true(tr.st[0].is_group);
	for (size_t k = 0; k < tr.nall; k++) {
		size_t i = tracks_find(&tr, tr.all[k].id), n, hits = 0;
		const struct mtrack *t = tracks_members(&tr, i, &n);

		assert_true(i < tr.n);
		for (size_t j = 0; j < n; j++)
			hits += t[j].id == tr.all[k].id;
		assert_int_equal(hits, 1);
	}
	for (size_t i = 0; i < tr.n; i++) {
		struct mcell *fresh = xcalloc(60, sizeof(*fresh));
		const struct mcell *got;
		size_t n;

		if (tr.st[i].is_group || tr.t[i].is_counter) {
			free(fresh);
			continue;
		}
		tracks_members(&tr, i, &n);
		merged += n > 1;
		for (int shift = 0; shift < 3; shift++) {
			int64_t t0 = tr.t[i].min_ts + shift * 7 * 50000;

			got = tracks_frame(&tr, i, t0, 50000, 60);
			assert_non_null(got);
			assert_int_equal(model_row_frame(m, tr.st[i].row, t0,
							 50000, 60, fresh), 0);
			assert_memory_equal(got, fresh, 60 * sizeof(*fresh));
		}
		free(fresh);
	}
	assert_true(merged > 0);
	{
		int64_t *ids = NULL;
		size_t n = 0, want = 0;

		tracks_ids(&tr, 0, &ids, &n);
		for (size_t i = 1; i < tr.n && tr.st[i].parent == 0; i++)
			want += tr.st[i].row->ntracks;
		assert_int_equal(n, want);
		free(ids);
	}
	tracks_free(&tr);
	model_close(m);
	free(cache);
	free(text);
	free(fx);
}

/* A curses screen writing to /dev/null, ASCII glyphs, no colours. */
static SCREEN *screen_start(FILE **out, FILE **in)
{
	static const char *const terms[] = { "xterm", "vt100", "ansi" };
	SCREEN *scr = NULL;

	*out = fopen("/dev/null", "w");
	*in = fopen("/dev/null", "r");
	assert_non_null(*out);
	assert_non_null(*in);
	for (size_t i = 0; i < NX_ARRAY_SIZE(terms) && !scr; i++)
		scr = newterm(terms[i], *out, *in);
	assert_non_null(scr);
	resize_term(30, 100);
	draw_setup(1, COLORS_NONE);
	return scr;
}

static void screen_stop(SCREEN *scr, FILE *out, FILE *in)
{
	endwin();
	delscreen(scr);
	fclose(out);
	fclose(in);
}

/* Row y of stdscr as ASCII, w columns, trailing blanks kept. */
static char *row_text(int y, int w)
{
	wchar_t *wrow = xcalloc((size_t)w + 1, sizeof(*wrow));
	char *row = xcalloc((size_t)w + 1, 1);

	if (mvwinnwstr(stdscr, y, 0, wrow, w) == ERR)
		wrow[0] = L'\0';
	for (int x = 0; x < w && wrow[x]; x++)
		row[x] = wrow[x] < 128 ? (char)wrow[x] : '?';
	free(wrow);
	return row;
}

/* Home and End arrive whatever the terminal sends: under tmux with
 * TERM=xterm-256color, \e[1~ and \e[4~ are not in the entry (they were
 * read as Escape, '[', '1', '~'); with those taught to curses, and Find
 * and Select (other entries' names for them) read as Home and End, they
 * reach zoom-fit, last-event and last-line. */
static void test_home_end(void **state)
{
	static const char *const homes[] = { "\033[1~", "\033[7~", "\033[H",
					     "\033OH" };
	static const char *const ends[] = { "\033[4~", "\033[8~", "\033[F",
					    "\033OF" };
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	SCREEN *scr = newterm("xterm-256color", out, in);

	(void)state;
	if (!scr) {
		fclose(out);
		fclose(in);
		skip();
	}
	keypad(stdscr, TRUE);
	assert_int_equal(key_defined("\033[1~"), 0);
	keys_define_terminal();
	for (size_t i = 0; i < NX_ARRAY_SIZE(homes); i++) {
		assert_int_equal(key_defined(homes[i]), KEY_HOME);
		assert_int_equal(key_defined(ends[i]), KEY_END);
	}
	assert_int_equal(keys_request(KEY_HOME, KM_TIMELINE), REQ_ZOOM_FIT);
	assert_int_equal(keys_request(KEY_END, KM_TIMELINE), REQ_LAST_EVENT);
	assert_int_equal(keys_request(KEY_FIND, KM_TIMELINE), REQ_ZOOM_FIT);
	assert_int_equal(keys_request(KEY_SELECT, KM_MARKERS), REQ_LAST_LINE);
	assert_int_equal(keys_request(KEY_END, KM_PAGER), REQ_LAST_LINE);
	screen_stop(scr, out, in);
}

/* A name of 4 MiB, every 8 bytes different ("0000000/0000001/..."). */
static char *long_name(size_t *len)
{
	size_t n = 4 << 20;
	char *s = xmalloc(n + 1);

	for (size_t i = 0; i < n / 8; i++)
		snprintf(s + 8 * i, 9, "%07zu/", i);
	*len = n;
	return s;
}

/* The details pane shows a value of megabytes in a few lines that are
 * its first characters (nothing added at the breaks), then its length;
 * laying it out is linear (a quadratic one took minutes here). */
static void test_details_long_value(void **state)
{
	size_t len;
	char *name = long_name(&len), *json, *cache, *rows[29];
	struct details *d = details_new();
	struct strbuf got;
	struct model *m;
	FILE *out, *in;
	SCREEN *scr;
	int y, col = -1, nvalue = 0;

	(void)state;
	json = xasprintf("{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"%s\","
			 "\"ts\":1,\"dur\":5,\"pid\":1,\"tid\":1}]}", name);
	cache = tu_import(tu_write("long.json", json, strlen(json)));
	assert_non_null(cache);
	m = model_open(cache);
	assert_non_null(m);
	scr = screen_start(&out, &in);
	assert_int_equal(details_load(d, m, tu_query_int(cache, "select min(id) "
				      "from slice"), "the long one"), 0);
	details_draw(d, stdscr, 0, 29, 80, 1);
	for (y = 0; y < 29; y++)
		rows[y] = row_text(y, 80);
	/* the value starts after "  name" and blanks */
	for (y = 0; y < 29 && col < 0; y++)
		if (!strncmp(rows[y], "  name ", 7))
			col = (int)strspn(rows[y] + 6, " ") + 6;
	assert_true(col > 0);
	sb_init(&got);
	for (y--; y < 29 && strncmp(rows[y] + col, "~ ", 2); y++) {
		size_t n = strlen(rows[y]);

		while (n > (size_t)col && rows[y][n - 1] == ' ')
			n--;
		sb_add(&got, rows[y] + col, n - (size_t)col);
		nvalue++;
	}
	/* 8 lines of 80 - 8 (the widest key, "duration") - 5 columns */
	assert_int_equal(nvalue, 8);
	assert_int_equal(got.len, 8 * 67);
	assert_memory_equal(sb_cstr(&got), name, got.len);
	assert_true(y < 29);
	assert_non_null(strstr(rows[y], "4194304 characters in all"));
	for (y = 0; y < 29; y++)
		free(rows[y]);
	sb_free(&got);
	screen_stop(scr, out, in);
	details_free(d);
	model_close(m);
	free(cache);
	free(json);
	free(name);
}

/* The pager's lines are the text cut at every newline and wherever a
 * line is full, nothing added: the same lines as a plain hard wrap
 * computed here. */
static void test_pager_wrap(void **state)
{
	static const char text[] =
		"/home/ubuntu/bert-large/profile/i-02862e5b6ef822469_pid_48126/"
		"f7e49d87321432969e02da1e298f0180_instid_0_vnc_0.ntff\n"
		"\n"
		"two words  at the end of a line and some more words after them";
	const int w = 37, h = 12;
	FILE *out, *in;
	SCREEN *scr = screen_start(&out, &in);
	struct pager_part part = { NULL, text, strlen(text) };
	struct view *v = pager_open("t", &part, 1);
	size_t off = 0;

	(void)state;
	v->top = 0;
	v->height = h;
	v->width = w;
	v->ops->draw(v, stdscr);
	/* row 0 is the column title */
	for (int y = 1; y < h && off <= part.len; y++) {
		const char *nl = strchr(text + off, '\n');
		size_t end = nl ? (size_t)(nl - text) : part.len;
		size_t n = NX_MIN(end - off, (size_t)w);
		char *row = row_text(y, w), want[64];

		snprintf(want, sizeof(want), "%-*.*s", w, (int)n, text + off);
		assert_string_equal(row, want);
		off += n;
		if (off == end)
			off++;	/* the newline ends the line */
		free(row);
	}
	assert_true(off > part.len);
	v->ops->close(v);
	screen_stop(scr, out, in);
}

/* Prose breaks at blanks, the blanks at a break on neither line; a word
 * wider than the line is cut; widths count characters, not bytes. The
 * expected lines are laid out by hand. */
static void test_wrap_words(void **state)
{
	static const struct {
		const char *text;
		int w;
		const char *lines[6];
	} cases[] = {
		{ "Follow the flow of the event to its other end", 12,
		  { "Follow the", "flow of the", "event to its", "other end" } },
		{ "abcdefghijklmnop qr", 5,
		  { "abcde", "fghij", "klmno", "p qr" } },
		{ "h\xc3\xa9llo w\xc3\xb6rld", 5,
		  { "h\xc3\xa9llo", "w\xc3\xb6rld" } },
		{ "fits   exactly", 14, { "fits   exactly" } },
		{ "two  blanks", 4, { "two", "blan", "ks" } },
		{ "", 8, { "" } },
	};

	(void)state;
	for (size_t c = 0; c < NX_ARRAY_SIZE(cases); c++) {
		struct wrap wr = { 0 };
		const char *t = cases[c].text;
		size_t n = wrap_words(&wr, t, strlen(t), cases[c].w), want = 0;

		while (want < 6 && cases[c].lines[want])
			want++;
		assert_int_equal(n, want);
		assert_int_equal(wr.n, want);
		for (size_t i = 0; i < want; i++) {
			char *got = xstrndup(t + wr.lines[i].off,
					     wr.lines[i].len);

			assert_string_equal(got, cases[c].lines[i]);
			free(got);
		}
		wrap_free(&wr);
	}
}

/* With a column kept for a mark, a line the text goes on from is laid
 * out one column narrower, one that ends its paragraph uses the whole
 * width; a newline ends a line; an indented word too wide is cut after
 * its indent, not broken at it into an empty line; wrap_goes_on tells
 * the lines broken to fit (at a blank or in a word) from those the
 * text ends or breaks. Laid out by hand. */
static void test_wrap_marked(void **state)
{
	static const char text[] =
		"nxtop 'a b' \\\n  --tracks=abcdefghijklm \\\n\nend";
	static const struct {
		const char *line;
		int goes_on;
	} want[] = {
		{ "nxtop", 1 }, { "'a b' \\", 0 }, { "  --tr", 1 },
		{ "acks=a", 1 }, { "bcdefg", 1 }, { "hijklm", 1 }, { "\\", 0 },
		{ "", 0 }, { "end", 0 },
	};
	struct wrap wr = { .mark = 1 };
	size_t n;

	(void)state;
	n = wrap_words(&wr, text, strlen(text), 7);
	assert_int_equal(n, NX_ARRAY_SIZE(want));
	for (size_t i = 0; i < n; i++) {
		char *got = xstrndup(text + wr.lines[i].off, wr.lines[i].len);

		assert_string_equal(got, want[i].line);
		assert_int_equal(wrap_goes_on(&wr, text, i), want[i].goes_on);
		free(got);
	}
	wrap_free(&wr);
}

/* One report; the kind of event it completes, -1 for none. */
static int feed(struct mouse *m, enum mouse_raw_kind kind, int x, int y,
		double ms, struct mouse_event *ev)
{
	struct mouse_raw r = { kind, x, y, 0, ms };

	return mouse_feed(m, &r, ev) ? (int)ev->kind : -1;
}

/* A press at ms and its release 20 ms later (the double-click time
 * counts from the releases). */
static int click_at(struct mouse *m, int x, int y, double ms,
		    struct mouse_event *ev)
{
	assert_int_equal(feed(m, MR_PRESS, x, y, ms, ev), -1);
	return feed(m, MR_RELEASE, x, y, ms + 20, ev);
}

static void test_mouse(void **state)
{
	struct mouse m = { 0 };
	struct mouse_event ev;
	struct mouse_raw r[2];
	MEVENT me = { 0, 7, 3, 0, BUTTON1_CLICKED };

	(void)state;
	/* a release with no press (the mouse turned on in between) */
	assert_int_equal(feed(&m, MR_RELEASE, 1, 1, 0, &ev), -1);
	assert_int_equal(click_at(&m, 5, 6, 1000, &ev), MOUSE_CLICK);
	assert_int_equal(ev.x, 5);
	assert_int_equal(ev.y, 6);
	/* 300 ms from the first release: still a double-click */
	assert_int_equal(click_at(&m, 5, 6, 1300, &ev), MOUSE_DOUBLE);
	/* a third click is a click, then a late one is a click again */
	assert_int_equal(click_at(&m, 5, 6, 1400, &ev), MOUSE_CLICK);
	assert_int_equal(click_at(&m, 5, 6, 1801, &ev), MOUSE_CLICK);
	/* quick, but on another cell */
	assert_int_equal(click_at(&m, 6, 6, 1850, &ev), MOUSE_CLICK);
	/* a drag from the press to the release, and no double after it */
	assert_int_equal(feed(&m, MR_PRESS, 6, 6, 1900, &ev), -1);
	assert_int_equal(feed(&m, MR_RELEASE, 20, 9, 2000, &ev), MOUSE_DRAG);
	assert_int_equal(ev.x0, 6);
	assert_int_equal(ev.y0, 6);
	assert_int_equal(ev.x, 20);
	assert_int_equal(ev.y, 9);
	assert_int_equal(click_at(&m, 20, 9, 2050, &ev), MOUSE_CLICK);
	assert_int_equal(feed(&m, MR_WHEEL_DOWN, 3, 4, 2100, &ev),
			 MOUSE_WHEEL_DOWN);

	/* what curses reports: a whole click is a press and a release; the
	 * wheel with Ctrl or Shift zooms; other buttons are not ours */
	assert_int_equal(mouse_from_curses(&me, 5, r), 2);
	assert_int_equal(r[0].kind, MR_PRESS);
	assert_int_equal(r[1].kind, MR_RELEASE);
	assert_int_equal(r[1].x, 7);
	assert_int_equal(r[1].y, 3);
	me.bstate = BUTTON4_PRESSED | BUTTON_CTRL;
	assert_int_equal(mouse_from_curses(&me, 5, r), 1);
	assert_int_equal(r[0].kind, MR_WHEEL_UP);
	assert_int_equal(r[0].zoom, 1);
	me.bstate = BUTTON5_PRESSED;
	assert_int_equal(mouse_from_curses(&me, 5, r), 1);
	assert_int_equal(r[0].kind, MR_WHEEL_DOWN);
	assert_int_equal(r[0].zoom, 0);
	me.bstate = BUTTON3_PRESSED;
	assert_int_equal(mouse_from_curses(&me, 5, r), 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_man_keys),
		cmocka_unit_test(test_keys_unique),
		cmocka_unit_test(test_key_names),
		cmocka_unit_test(test_axis),
		cmocka_unit_test(test_prompt),
		cmocka_unit_test(test_prompt_history),
		cmocka_unit_test(test_frame_cache),
		cmocka_unit_test(test_system_rows),
		cmocka_unit_test(test_stacked),
		cmocka_unit_test(test_details_long_value),
		cmocka_unit_test(test_pager_wrap),
		cmocka_unit_test(test_wrap_words),
		cmocka_unit_test(test_wrap_marked),
		cmocka_unit_test(test_home_end),
		cmocka_unit_test(test_mouse),
	};

	if (argc > 1 && !strcmp(argv[1], "--print-man-keys")) {
		struct strbuf sb;

		sb_init(&sb);
		keys_man(&sb);
		fputs(sb_cstr(&sb), stdout);
		sb_free(&sb);
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
