/* Small helpers every layer relies on: exact integer parsing, time
 * formatting and parsing without floating point, the sanitiser that
 * keeps control bytes and invalid UTF-8 away from the terminal (also in
 * notes and the progress line on stderr), export tables (CSV that no
 * spreadsheet evaluates), lock files whose wait is bounded, and the
 * Profile Manager's sizes, kinds and order. */
#include "config.h"

#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "model/report/report.h"
#include "model/table.h"
#include "model/file.h"
#include "model/proflist.h"
#include "model/text.h"
#include "model/timefmt.h"
#include "model/util.h"
#include "src/cli/progress.h"
#include "tests/testutil.h"

/* Warning texts are matched by word, whatever the case. */
static void test_mentions(void **state)
{
	(void)state;
	assert_true(text_mentions("Events were DROPPED here", "dropped"));
	assert_true(text_mentions("dropped", "dropped"));
	assert_false(text_mentions("drop", "dropped"));
	assert_false(text_mentions(NULL, "dropped"));
	assert_false(text_mentions("", "x"));
}

/* Sums of hostile durations stop at the ends of int64 instead of
 * wrapping (expected values by hand). */
static void test_saturate(void **state)
{
	(void)state;
	assert_int_equal(sat_add(INT64_MAX - 1, 5), INT64_MAX);
	assert_int_equal(sat_add(INT64_MIN + 1, -5), INT64_MIN);
	assert_int_equal(sat_add(40, -2), 38);
	assert_int_equal(sat_sub(INT64_MIN + 1, 5), INT64_MIN);
	assert_int_equal(sat_sub(INT64_MAX - 1, -5), INT64_MAX);
	assert_int_equal(sat_sub(0, INT64_MIN), INT64_MAX);
	assert_int_equal(sat_sub(-1, INT64_MIN), INT64_MAX);
	assert_int_equal(sat_sub(40, 2), 38);
}

static void test_parse_int(void **state)
{
	int64_t i;
	uint64_t u;

	(void)state;
	assert_int_equal(parse_i64("9223372036854775807", 19, &i), 0);
	assert_true(i == INT64_MAX);
	assert_int_equal(parse_i64("-9223372036854775808", 20, &i), 0);
	assert_true(i == INT64_MIN);
	assert_int_not_equal(parse_i64("9223372036854775808", 19, &i), 0);
	assert_int_equal(parse_u64("18446744073709551615", 20, &u), 0);
	assert_true(u == UINT64_MAX);
	assert_int_not_equal(parse_u64("18446744073709551616", 20, &u), 0);
	assert_int_not_equal(parse_i64("", 0, &i), 0);
	assert_int_not_equal(parse_i64("-", 1, &i), 0);
	assert_int_not_equal(parse_i64("12a", 3, &i), 0);
	assert_int_not_equal(parse_i64("--1", 3, &i), 0);
}

/* Thresholds in plain decimal: digits and one '.', nothing strtod alone
 * would also take (hex, exponents, signs, inf, nan). */
static void test_parse_plain_real(void **state)
{
	static const char *const bad[] = { "", ".", "0x10", "1e2", "-1", "+1",
					   "inf", "nan", "1.2.3", " 1", "1 " };
	double v;

	(void)state;
	assert_int_equal(parse_plain_real("5", &v), 0);
	assert_true(v == 5);
	assert_int_equal(parse_plain_real("2.5", &v), 0);
	assert_true(v == 2.5);
	assert_int_equal(parse_plain_real(".5", &v), 0);
	assert_true(v == 0.5);
	assert_int_equal(parse_plain_real("10.", &v), 0);
	assert_true(v == 10);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		assert_int_not_equal(parse_plain_real(bad[i], &v), 0);
}

/* fmt_i64 against printf's "%" PRId64: the ends of the range, zero and
 * a spread of values of every length and sign. */
static void test_fmt_int(void **state)
{
	int64_t v[] = { INT64_MIN, INT64_MIN + 1, -1, 0, 1, 9, 10, INT64_MAX };
	uint64_t r = 1;
	char got[21], want[32];

	(void)state;
	for (int k = 0; k < 1000 + (int)NX_ARRAY_SIZE(v); k++) {
		int64_t x;

		r = r * 6364136223846793005ull + 1442695040888963407ull;
		x = k < (int)NX_ARRAY_SIZE(v) ? v[k] :
		    (int64_t)(r >> (1 + r % 63)) * (k % 2 ? -1 : 1);
		snprintf(want, sizeof(want), "%" PRId64, x);
		assert_int_equal(fmt_i64(got, x), strlen(want));
		assert_string_equal(got, want);
	}
}

/* 1 while the dur() checks expect ASCII units */
static int ascii_units;

static void dur(int64_t ns, int prec, const char *want)
{
	char buf[64];

	timefmt_dur(buf, sizeof(buf), ns, prec, ascii_units ? TF_ASCII : 0);
	assert_string_equal(buf, want);
}

static void test_timefmt(void **state)
{
	(void)state;
	ascii_units = 1;
	dur(0, 3, "0 ns");
	dur(999, 3, "999 ns");
	dur(1000, 3, "1 us");
	dur(1250000, 3, "1.25 ms");
	dur(1763, 6, "1.763 us");
	dur(1874861, 6, "1.874861 ms");
	dur(2000000000, 3, "2 s");
	dur(-1500, 3, "-1.5 us");
	dur(1999999, 2, "2 ms");
	ascii_units = 0;
	dur(1500, 1, "1.5 \xc2\xb5s");
	/* fixed units keep every digit */
	{
		char buf[48];

		timefmt_exact(buf, sizeof(buf), 1597, "s");
		assert_string_equal(buf, "0.000001597");
		timefmt_exact(buf, sizeof(buf), 1597, "us");
		assert_string_equal(buf, "1.597");
		timefmt_exact(buf, sizeof(buf), -4250, "ms");
		assert_string_equal(buf, "-0.004250");
		timefmt_exact(buf, sizeof(buf), 42, "ns");
		assert_string_equal(buf, "42");
	}
}

static void parse(const char *s, int64_t want)
{
	int64_t v = -12345;

	if (timefmt_parse(s, &v))
		fail_msg("\"%s\" not parsed", s);
	assert_true(v == want);
}

static void test_timeparse(void **state)
{
	int64_t v;

	(void)state;
	parse("1.25ms", 1250000);
	parse("100us", 100000);
	parse("100\xc2\xb5s", 100000);
	parse("3s", 3000000000);
	parse("250ns", 250);
	parse("1500", 1500);
	parse("0.000000001s", 1);
	parse("1.25 ms", 1250000);
	parse("-2us", -2000);
	assert_int_not_equal(timefmt_parse("ms", &v), 0);
	assert_int_not_equal(timefmt_parse("1.5 parsecs", &v), 0);
	assert_int_not_equal(timefmt_parse("99999999999s", &v), 0);
}

static void clean(const char *in, size_t n, int ascii, const char *want)
{
	struct strbuf sb;

	sb_init(&sb);
	text_sanitize_n(&sb, in, n, ascii);
	assert_string_equal(sb_cstr(&sb), want);
	sb_free(&sb);
}

static void test_sanitize(void **state)
{
	static const char esc[] = "a\x1b]52;c;ZXZpbA==\x07z";

	(void)state;
	clean("plain", 5, 0, "plain");
	/* OSC 52 clipboard write and a CSI colour: no ESC survives */
	clean(esc, sizeof(esc) - 1, 1, "a?]52;c;ZXZpbA==?z");
	clean("\x1b[31mred", 8, 0, "\xef\xbf\xbd[31mred");
	/* C1 control U+009B (CSI) in UTF-8, invalid bytes, a NUL */
	clean("x\xc2\x9by\xff\xfe", 6, 1, "x?y??");
	clean("a\0b", 3, 1, "a?b");
	/* bidi override and a tab */
	clean("\xe2\x80\xae" "abc\t", 7, 1, "?abc ");
	clean("caf\xc3\xa9", 5, 0, "caf\xc3\xa9");
	clean("caf\xc3\xa9", 5, 1, "caf?");
	/* overlong encoding of '/' */
	clean("\xc0\xaf", 2, 1, "??");
	/* emoji joined by U+200D: each part as itself, the joiner replaced
	 * (terminals disagree with wcwidth() on the width of the whole) */
	clean("\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9", 11, 0,
	      "\xf0\x9f\x91\xa8\xef\xbf\xbd\xf0\x9f\x91\xa9");
}

/* Error messages quote files: they are cleaned where they are set, and
 * cut on a character boundary when too long. */
/* The one JSON string escaper: quotes and backslashes, control bytes
 * (NUL included) as \u00XX, invalid UTF-8 as U+FFFD, the rest as is;
 * expected literals written by hand. */
static void test_json_str(void **state)
{
	static const char in[] = "a\"b\\c\n\x01\0d\xff\xc3\xa9\xf0\x9f\x98\x80";
	struct strbuf sb;

	(void)state;
	sb_init(&sb);
	text_json_str(&sb, in, sizeof(in) - 1);
	assert_string_equal(sb_cstr(&sb), "\"a\\\"b\\\\c\\u000a\\u0001"
			    "\\u0000d\xef\xbf\xbd\xc3\xa9\xf0\x9f\x98\x80\"");
	sb_reset(&sb);
	text_json_str(&sb, "", 0);
	assert_string_equal(sb_cstr(&sb), "\"\"");
	sb_free(&sb);
}

static void test_err_clean(void **state)
{
	char big[2000];
	const char *e;

	(void)state;
	err_set("%s: bad name \"%s\"", "p.json", "x\x1b]52;c;eA==\x07\xc2\x9b\xff");
	assert_string_equal(err_get(), "p.json: bad name \"x\xef\xbf\xbd]52;c;eA=="
			    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
	memset(big, '\x01', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	err_set("%s", big);
	e = err_get();
	/* 341 replacement characters of 3 bytes fit in 1023 bytes */
	assert_int_equal(strlen(e), 1023);
	assert_memory_equal(e + 1020, "\xef\xbf\xbd", 3);
}

static void test_width(void **state)
{
	(void)state;
	assert_int_equal(text_width("abc"), 3);
	assert_int_equal(text_width("\xe6\x97\xa5\xe6\x9c\xac"), 4);
	assert_int_equal(text_fit("\xe6\x97\xa5\xe6\x9c\xac", 3), 3);
	assert_int_equal(text_fit("abcdef", 4), 4);
}

static void pct(double v, const char *want)
{
	char buf[32];

	assert_string_equal(report_pct(buf, sizeof(buf), v), want);
}

/* Percentages: two decimals; below 0.01% two significant digits. */
static void test_pct(void **state)
{
	(void)state;
	pct(0, "0.00%");
	pct(50, "50.00%");
	pct(100, "100.00%");
	pct(12.3449, "12.34%");
	pct(0.01, "0.01%");
	pct(0.5, "0.50%");
	pct(0.0024483892183027106, "0.0024%");
	pct(0.0099, "0.0099%");
	pct(0.00002, "0.000020%");
	pct(-0.003, "-0.0030%");
	/* too small for two significant digits in 9 decimals: not 0 */
	pct(0.000000012, "0.000000012%");
	pct(0.0000000012, "1.2e-09%");
	pct(2.2204460492503131e-14, "2.2e-14%");
	pct(-3e-300, "-3e-300%");
}

/* The CSV of a table, as a string (malloc'd). */
static char *csv_of(const struct table *t)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	assert_non_null(f);
	table_write_csv(t, f);
	fclose(f);
	return buf;
}

/* Text cells that start like a formula (= + - @, tab, CR) get a leading
 * ' (OWASP's advice against CSV injection), quoted when they need it;
 * plain numbers, in text cells or written as numbers, stay numbers. */
static void test_csv_formulas(void **state)
{
	static const char *const cells[] = {
		"=HYPERLINK(\"http://x\",\"y\")", "+cmd|' /C calc'!A0",
		"-2+3", "@SUM(A1:A9)", "\t=1", "=1,2", "-5", "+1.5", "-2e3",
		"-", "-e5", "a=b", "",
	};
	static const char want[] =
		"name,n\r\n"
		"\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",1\r\n"
		"'+cmd|' /C calc'!A0,1\r\n"
		"'-2+3,1\r\n"
		"'@SUM(A1:A9),1\r\n"
		/* the sanitiser makes the tab a space, which is quoted */
		"\" =1\",1\r\n"
		"\"'=1,2\",1\r\n"
		"-5,1\r\n"
		"+1.5,1\r\n"
		"-2e3,1\r\n"
		"'-,1\r\n"
		"'-e5,1\r\n"
		"a=b,1\r\n"
		",1\r\n"
		"-7,-7\r\n";
	struct table *t = table_new();
	char *got;

	(void)state;
	table_col(t, "name", 0);
	table_col(t, "n", 1);
	for (size_t i = 0; i < NX_ARRAY_SIZE(cells); i++) {
		table_row(t);
		table_text(t, cells[i]);
		table_int(t, 1);
	}
	table_row(t);
	table_num(t, -7, "-7");
	table_int(t, -7);
	got = csv_of(t);
	assert_string_equal(got, want);
	free(got);
	table_free(t);
}

/* A name with an escape sequence, C1 controls (CSI, NEL) and a bidi
 * override, as a folder listing or a system profile may give it. */
static const char hostile_name[] =
	"dir/a\x1b]52;c;eA==\x07\xc2\x9b" "31m\xc2\x85\xe2\x80\xae" "nosj.json";

/* Bytes a terminal would act on, other than nxtop's own "\r\033[K". */
static void assert_inert(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == 0x1b && i + 2 < n && s[i + 1] == '[' && s[i + 2] == 'K') {
			i += 2;
			continue;
		}
		if ((c < 0x20 && c != '\r' && c != '\n') || c == 0x7f)
			fail_msg("control byte 0x%02x at %zu in: %.*s", c, i,
				 (int)n, s);
		if (c == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 &&
		    (unsigned char)s[i + 1] < 0xa0)
			fail_msg("C1 control at %zu in: %.*s", i, (int)n, s);
		if (c == 0xe2 && i + 2 < n && !memcmp(s + i, "\xe2\x80\xae", 3))
			fail_msg("bidi override at %zu in: %.*s", i, (int)n, s);
	}
}

/* Notes on stderr go through the sanitiser whole. */
static void test_note_clean(void **state)
{
	char buf[512];
	FILE *f = tmpfile();
	int saved = dup(STDERR_FILENO);
	size_t n;

	(void)state;
	assert_non_null(f);
	fflush(stderr);
	dup2(fileno(f), STDERR_FILENO);
	err_note("rebuilding %s.nxdb (%s changed)", hostile_name, hostile_name);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_true(n > 0 && !memcmp(buf, "nxtop: rebuilding dir/a", 23));
	assert_inert(buf, n);
}

/* A pty that stderr writes to: its master end (-1 where ptys cannot be
 * had), the slave in *slave, stderr's own descriptor in *saved. */
static int pty_stderr(int *slave, int *saved)
{
	int master = posix_openpt(O_RDWR | O_NOCTTY);

	if (master < 0 || grantpt(master) || unlockpt(master)) {
		if (master >= 0)
			close(master);
		return -1;
	}
	*slave = open(ptsname(master), O_RDWR | O_NOCTTY);
	assert_true(*slave >= 0);
	*saved = dup(STDERR_FILENO);
	fflush(stderr);
	dup2(*slave, STDERR_FILENO);
	return master;
}

/* What the pty's slave end has been written so far, into buf (at most
 * cap - 1 bytes, NUL-ended): read until nothing more comes for 200 ms.
 * One read may get part of it, and once the slave is closed what was
 * not read yet may be lost. */
static ssize_t pty_drain(int master, char *buf, size_t cap)
{
	struct pollfd pf = { .fd = master, .events = POLLIN };
	size_t n = 0;
	ssize_t got;

	fflush(stderr);
	while (n + 1 < cap && poll(&pf, 1, 200) == 1 &&
	       (got = read(master, buf + n, cap - 1 - n)) > 0)
		n += (size_t)got;
	buf[n] = 0;
	return (ssize_t)n;
}

/* stderr back where it was. */
static void pty_stderr_end(int slave, int saved)
{
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	close(slave);
}

/* The progress line, in a real terminal (a pty): shown after a second,
 * with the name cleaned. */
static void test_progress_clean(void **state)
{
	struct timespec wait = { 1, 100000000 };
	char buf[1024];
	int slave, saved, master = pty_stderr(&slave, &saved);
	struct progress *p;
	ssize_t n;

	(void)state;
	if (master < 0)
		skip();
	p = progress_new(1);
	nanosleep(&wait, NULL);
	progress_update(p, hostile_name, 42, 7);
	progress_free(p);
	n = pty_drain(master, buf, sizeof(buf));
	pty_stderr_end(slave, saved);
	close(master);
	assert_true(n > 0);
	assert_non_null(memmem(buf, (size_t)n, "nxtop: dir/a", 12));
	assert_non_null(memmem(buf, (size_t)n, "nosj.json 42%, 7 events", 23));
	assert_inert(buf, (size_t)n);
}

/* ... and in a terminal 40 columns wide, a longer line cut in the
 * middle to 39 (a wrapped line would stay on the screen at the next
 * update, "\r\033[K" clearing only its last part), its numbers kept;
 * in one 3 columns wide, no line. */
static void test_progress_fits(void **state)
{
	static const char name[] = "/home/user/profiles/run-with-a-long-name/"
		"i-0a1b2c3d4e5f6a7b0_pid_2000_nc_0_model_1578576049.json";
	struct timespec wait = { 1, 100000000 };
	struct winsize ws = { .ws_row = 24, .ws_col = 40 };
	char buf[1024], *line;
	int slave, saved, master = pty_stderr(&slave, &saved);
	struct progress *p;
	ssize_t n;

	(void)state;
	if (master < 0)
		skip();
	for (int cols = 40; cols >= 3; cols -= 37) {
		ws.ws_col = (unsigned short)cols;
		assert_int_equal(ioctl(slave, TIOCSWINSZ, &ws), 0);
		p = progress_new(1);
		nanosleep(&wait, NULL);
		progress_update(p, name, 42, 1234567);
		n = pty_drain(master, buf, sizeof(buf));
		progress_free(p);
		assert_true(n > 3);
		assert_memory_equal(buf, "\r\033[K", 4);
		line = xstrndup(buf + 4, strcspn(buf + 4, "\r"));
		if (cols == 40) {
			assert_int_equal(text_width(line), 39);
			assert_non_null(strstr(line, "42%, 1234567 events"));
			assert_memory_equal(line, "nxtop: /home", 12);
		} else {
			assert_string_equal(line, "");
		}
		free(line);
		pty_drain(master, buf, sizeof(buf));
	}
	pty_stderr_end(slave, saved);
	close(master);
}

static void shorten(const char *s, int cols, const char *want)
{
	struct strbuf sb;

	sb_init(&sb);
	text_shorten(&sb, s, cols);
	assert_string_equal(sb_cstr(&sb), want);
	assert_true(text_width(sb_cstr(&sb)) <= cols);
	sb_free(&sb);
}

/* Long names lose their middle: the start and the end stay. */
static void test_shorten(void **state)
{
	(void)state;
	shorten("short", 10, "short");
	shorten("0123456789", 10, "0123456789");
	shorten("0123456789a", 10, "01234\xe2\x80\xa6" "789a");
	shorten("abcdefghijklmnopqrstuvwxyz", 9, "abcd\xe2\x80\xa6" "wxyz");
	/* wide characters count two columns and are never split */
	shorten("\xe6\x97\xa5\xe6\x97\xa5\xe6\x97\xa5\xe6\x97\xa5\xe6\x97\xa5", 6,
		"\xe6\x97\xa5\xe2\x80\xa6\xe6\x97\xa5");
}

static long ms_between(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1000 +
	       (b->tv_nsec - a->tv_nsec) / 1000000;
}

/* A lock held elsewhere is waited for only as long as asked, then said
 * busy; a released one is taken; a link put in its place is refused. */
static void test_file_lock(void **state)
{
	char *path = xasprintf("%s/x.lock", tu_dir());
	char *link = xasprintf("%s/link.lock", tu_dir());
	struct timespec t0, t1;
	int fd, again, busy;

	(void)state;
	fd = file_lock(path, 0, &busy);
	assert_true(fd >= 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(file_lock(path, 300, &busy), -1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_int_equal(busy, 1);
	assert_true(ms_between(&t0, &t1) >= 300);
	assert_true(ms_between(&t0, &t1) < 3000);
	file_unlock(path, fd);
	again = file_lock(path, 0, &busy);
	assert_true(again >= 0);
	file_unlock(path, again);
	assert_int_equal(symlink(path, link), 0);
	assert_int_equal(file_lock(link, 0, &busy), -1);
	assert_int_equal(busy, 0);
	unlink(link);
	free(link);
	free(path);
}

/* Sizes in binary units with one decimal; kinds by name both ways;
 * newest first, equal times by name, one entry per path. */
static void test_proflist(void **state)
{
	struct proflist pl = { 0 };
	enum prof_kind k;
	char b[32];

	(void)state;
	assert_string_equal(prof_size_text(b, sizeof(b), 1023), "1023 B");
	assert_string_equal(prof_size_text(b, sizeof(b), 1024), "1.0 KiB");
	assert_string_equal(prof_size_text(b, sizeof(b), 1536), "1.5 KiB");
	assert_string_equal(prof_size_text(b, sizeof(b), 3 << 20), "3.0 MiB");
	assert_string_equal(prof_size_text(b, sizeof(b), INT64_C(5) << 40),
			    "5.0 TiB");
	for (int i = 0; i < PK_COUNT; i++) {
		assert_int_equal(prof_kind_parse(prof_kind_name(i), &k), 0);
		assert_int_equal(k, i);
	}
	assert_int_equal(prof_kind_parse("parquet", &k), -1);
	proflist_add(&pl, "b", "/x/b", PK_DEVICE)->when = 5;
	proflist_add(&pl, "a", "/x/a", PK_TRACE)->when = 5;
	proflist_add(&pl, "c", "/x/c", PK_BUNDLE)->when = 9;
	assert_int_equal(proflist_add(&pl, "b2", "/x/b", PK_SYSTEM)->kind,
			 PK_DEVICE);
	proflist_sort(&pl);
	assert_int_equal(pl.n, 3);
	assert_string_equal(pl.v[0].name, "c");
	assert_string_equal(pl.v[1].name, "a");
	assert_string_equal(pl.v[2].name, "b");
	proflist_free(&pl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mentions),
		cmocka_unit_test(test_saturate),
		cmocka_unit_test(test_parse_int),
		cmocka_unit_test(test_parse_plain_real),
		cmocka_unit_test(test_fmt_int),
		cmocka_unit_test(test_timefmt),
		cmocka_unit_test(test_timeparse),
		cmocka_unit_test(test_sanitize),
		cmocka_unit_test(test_json_str),
		cmocka_unit_test(test_err_clean),
		cmocka_unit_test(test_width),
		cmocka_unit_test(test_pct),
		cmocka_unit_test(test_shorten),
		cmocka_unit_test(test_csv_formulas),
		cmocka_unit_test(test_note_clean),
		cmocka_unit_test(test_progress_clean),
		cmocka_unit_test(test_progress_fits),
		cmocka_unit_test(test_file_lock),
		cmocka_unit_test(test_proflist),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
