/* The screen is read back from curses' own copy of the terminal
 * (curscr), so a dump shows exactly what a terminal would. */
#include "config.h"

#include "tui/headless.h"

#include <curses.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include "tui/keys.h"
#include "model/file.h"
#include "model/text.h"
#include "model/util.h"

struct ktime {
	char key[16];
	double ms;
};

struct headless {
	char *path, *dir;
	char *text;		/* the script, lines NUL-terminated in place */
	char *next;		/* next line to read */
	const char *keys;	/* rest of the current keys line */
	int typeahead;		/* a key counts as typed during the next frame */
	int lineno, cols, rows;
	struct timespec t_key;	/* when the last key was handed out */
	char last_key[16];
	struct ktime *times;
	size_t ntimes, cap;
	/* the reports of the last mouse line, and a clock that keys move
	 * on by a second, so double-clicks are the script's to say */
	struct mouse_raw mouse[4];
	int nmouse, imouse;
	char mouse_word[8];	/* click, wheel, ...: for the key times */
	double ms;
	void (*settle)(void *arg);	/* headless_on_settle() */
	void *settle_arg;
	void (*wait)(void *arg, int n, int wait);	/* headless_on_wait() */
	void *wait_arg;
};

static double ms_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) * 1e3 +
	       (double)(now.tv_nsec - t->tv_nsec) / 1e6;
}

static void settle(struct headless *h)
{
	if (h->settle)
		h->settle(h->settle_arg);
}

static char *read_all(const char *path)
{
	struct strbuf sb;
	char buf[4096];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f) {
		err_set("%s: %s", path, strerror(errno));
		return NULL;
	}
	sb_init(&sb);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sb_add(&sb, buf, n);
	if (ferror(f)) {
		err_set("%s: %s", path, strerror(errno));
		fclose(f);
		sb_free(&sb);
		return NULL;
	}
	fclose(f);
	return sb_detach(&sb);
}

static int parse_size(struct headless *h, const char *arg);

/* A size line before the first key sets the size the UI starts with, so
 * the first frame is drawn at that size. */
static int first_size(struct headless *h)
{
	int n = 0;

	for (char *p = h->text; *p; n++) {
		char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char *line = xstrndup(p, len);
		int rc = 0, skip = !*line || *line == '#' || *line == '\r';

		if (!skip && !strncmp(line, "size ", 5)) {
			h->lineno = n + 1;
			rc = parse_size(h, line + 5);
			h->next = p + len + (e ? 1 : 0);
		}
		free(line);
		if (!skip || !e)
			return rc;
		p = e + 1;
	}
	return 0;
}

struct headless *headless_open(const char *script, const char *dump_dir)
{
	struct headless *h = xcalloc(1, sizeof(*h));

	h->text = read_all(script);
	if (!h->text) {
		free(h);
		return NULL;
	}
	h->path = xstrdup(script);
	h->dir = xstrdup(dump_dir ? dump_dir : ".");
	h->next = h->text;
	h->cols = 80;
	h->rows = 24;
	if (first_size(h)) {
		headless_close(h);
		return NULL;
	}
	clock_gettime(CLOCK_MONOTONIC, &h->t_key);
	snprintf(h->last_key, sizeof(h->last_key), "start");
	return h;
}

void headless_close(struct headless *h)
{
	if (!h)
		return;
	free(h->text);
	free(h->path);
	free(h->dir);
	free(h->times);
	free(h);
}

void headless_size(const struct headless *h, int *cols, int *rows)
{
	*cols = h->cols;
	*rows = h->rows;
}

static char *next_line(struct headless *h)
{
	char *line = h->next, *e;

	if (!line || !*line)
		return NULL;
	e = strchr(line, '\n');
	if (e) {
		*e = '\0';
		h->next = e + 1;
	} else {
		h->next = line + strlen(line);
	}
	if (e && e > line && e[-1] == '\r')
		e[-1] = '\0';
	h->lineno++;
	return line;
}

static FILE *out_file(struct headless *h, const char *name, char **path)
{
	FILE *f;

	if (!*name || strchr(name, '/')) {
		err_set("%s:%d: expected a file name without '/'", h->path,
			h->lineno);
		return NULL;
	}
	*path = xasprintf("%s/%s", h->dir, name);
	f = file_open_write(*path, NULL);
	if (!f)
		free(*path);
	return f;
}

static int close_out(FILE *f, char *path)
{
	int bad = ferror(f);

	if (fclose(f) || bad) {
		err_set("%s: write failed", path);
		free(path);
		return -1;
	}
	free(path);
	return 0;
}

static void put_utf8(FILE *f, wchar_t wc)
{
	char enc[4];
	unsigned cp = (unsigned)wc;

	if (cp >= 0x110000)
		cp = 0xfffd;
	fwrite(enc, 1, text_utf8_put(cp, enc), f);
}

/* One line per screen row, trailing blanks dropped. */
static int dump(struct headless *h, const char *name)
{
	char *path;
	FILE *f = out_file(h, name, &path);
	wchar_t *row = xcalloc((size_t)COLS + 1, sizeof(*row));

	if (!f) {
		free(row);
		return -1;
	}
	for (int y = 0; y < LINES; y++) {
		int n;

		if (mvwinnwstr(curscr, y, 0, row, COLS) == ERR)
			row[0] = L'\0';
		n = (int)wcslen(row);
		while (n > 0 && row[n - 1] == L' ')
			n--;
		for (int x = 0; x < n; x++)
			put_utf8(f, row[x]);
		fputc('\n', f);
	}
	free(row);
	return close_out(f, path);
}

/* The process's peak resident set (Linux), for benchmarks. */
static void peak_rss(FILE *out)
{
	char line[128];
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		long kb;

		if (sscanf(line, "VmHWM: %ld kB", &kb) == 1)
			fprintf(out, "#rss_kb %ld\n", kb);
	}
	fclose(f);
}

/* One character per cell: its colour pair (0-9, a-z, A-Z), or '*' for a
 * reversed cell without colour; so tests can see the colours. */
static int dump_attrs(struct headless *h, const char *name)
{
	static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz"
				     "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
	char *path;
	FILE *f = out_file(h, name, &path);

	if (!f)
		return -1;
	for (int y = 0; y < LINES; y++) {
		for (int x = 0; x < COLS; x++) {
			cchar_t cc;
			wchar_t wc[CCHARW_MAX + 1];
			attr_t a = 0;
			short pair = 0;

			if (mvwin_wch(curscr, y, x, &cc) != ERR)
				getcchar(&cc, wc, &a, &pair, NULL);
			if (!pair && (a & A_REVERSE))
				fputc('*', f);
			else
				fputc(pair >= 0 && pair < 62 ? digits[pair] : '?', f);
		}
		fputc('\n', f);
	}
	return close_out(f, path);
}

static int write_times(struct headless *h, const char *name)
{
	char *path;
	FILE *f = out_file(h, name, &path);

	if (!f)
		return -1;
	for (size_t i = 0; i < h->ntimes; i++)
		fprintf(f, "%s %.3f\n", h->times[i].key, h->times[i].ms);
	peak_rss(f);
	return close_out(f, path);
}

static int parse_size(struct headless *h, const char *arg)
{
	int c, r;
	char tail;

	if (sscanf(arg, "%dx%d%c", &c, &r, &tail) != 2 || c < 10 ||
	    c > 1000 || r < 5 || r > 500) {
		err_set("%s:%d: expected a size like 80x24", h->path, h->lineno);
		return -1;
	}
	h->cols = c;
	h->rows = r;
	return 0;
}

/* "wait [N]" and "start [N]". */
static int run_wait(struct headless *h, const char *cmd, const char *arg)
{
	int n = -1;
	char tail;

	if (*arg && (sscanf(arg, "%d%c", &n, &tail) != 1 || n < 1)) {
		err_set("%s:%d: expected %s or %s N (N > 0)", h->path,
			h->lineno, cmd, cmd);
		return -2;
	}
	if (h->wait)
		h->wait(h->wait_arg, n, !strcmp(cmd, "wait"));
	return 0;
}

static void mouse_add(struct headless *h, enum mouse_raw_kind kind, int x,
		      int y, int zoom)
{
	struct mouse_raw *r = &h->mouse[h->nmouse++];

	r->kind = kind;
	r->x = x;
	r->y = y;
	r->zoom = zoom;
	r->ms = h->ms;
}

static int mouse_error(struct headless *h)
{
	err_set("%s:%d: expected mouse click|double|press|release COL ROW, "
		"mouse drag COL ROW COL2 ROW2 or mouse wheel up|down COL ROW "
		"[zoom], inside the screen", h->path, h->lineno);
	return -1;
}

/* The numbers of words w[from..n) into v; 0 if all are numbers. */
static int numbers(char **w, int from, int n, int *v)
{
	for (int i = from; i < n; i++) {
		char *end;
		long x = strtol(w[i], &end, 10);

		if (*end || end == w[i] || x < 0 || x > 1000)
			return -1;
		v[i - from] = (int)x;
	}
	return 0;
}

/* A mouse line into the reports a terminal would send. */
static int parse_mouse(struct headless *h, char *arg)
{
	char *w[7];
	int n = 0, v[4], wheel;

	for (char *tok = strtok(arg, " \t"); tok && n < 7;
	     tok = strtok(NULL, " \t"))
		w[n++] = tok;
	h->nmouse = h->imouse = 0;
	if (!n)
		return mouse_error(h);
	wheel = !strcmp(w[0], "wheel");
	snprintf(h->mouse_word, sizeof(h->mouse_word), "%s", w[0]);
	if (wheel && (n == 4 || (n == 5 && !strcmp(w[4], "zoom"))) &&
	    (!strcmp(w[1], "up") || !strcmp(w[1], "down")) &&
	    !numbers(w, 2, 4, v))
		mouse_add(h, *w[1] == 'u' ? MR_WHEEL_UP : MR_WHEEL_DOWN, v[0],
			  v[1], n == 5);
	else if (!strcmp(w[0], "drag") && n == 5 && !numbers(w, 1, 5, v)) {
		mouse_add(h, MR_PRESS, v[0], v[1], 0);
		mouse_add(h, MR_RELEASE, v[2], v[3], 0);
	} else if (n == 3 && !wheel && !numbers(w, 1, 3, v)) {
		int twice = !strcmp(w[0], "double");
		int click = twice || !strcmp(w[0], "click");

		for (int i = 0; i <= twice; i++) {
			if (click || !strcmp(w[0], "press"))
				mouse_add(h, MR_PRESS, v[0], v[1], 0);
			if (click || !strcmp(w[0], "release"))
				mouse_add(h, MR_RELEASE, v[0], v[1], 0);
		}
	}
	for (int i = 0; i < h->nmouse; i++)
		if (h->mouse[i].x >= h->cols || h->mouse[i].y >= h->rows)
			h->nmouse = 0;
	return h->nmouse ? 0 : mouse_error(h);
}

int headless_mouse(struct headless *h, struct mouse_raw *r)
{
	if (h->imouse >= h->nmouse)
		return 0;
	*r = h->mouse[h->imouse++];
	return 1;
}

/* Runs lines up to the next key; 1 when a key is ready in *key. */
static int run_line(struct headless *h, int *key)
{
	char *line = next_line(h), *arg;

	if (!line)
		return -1;
	while (*line == ' ' || *line == '\t')
		line++;
	if (!*line || *line == '#')
		return 0;
	arg = strchr(line, ' ');
	if (arg)
		*arg++ = '\0';
	else
		arg = line + strlen(line);
	if (!strcmp(line, "keys")) {
		h->keys = arg;
		return 0;
	}
	if (!strcmp(line, "dump") || !strcmp(line, "attrs"))
		settle(h);
	if (!strcmp(line, "dump"))
		return dump(h, arg) ? -2 : 0;
	if (!strcmp(line, "attrs"))
		return dump_attrs(h, arg) ? -2 : 0;
	if (!strcmp(line, "times"))
		return write_times(h, arg) ? -2 : 0;
	if (!strcmp(line, "wait") || !strcmp(line, "start"))
		return run_wait(h, line, arg);
	if (!strcmp(line, "typeahead")) {
		h->typeahead = 1;
		return 0;
	}
	if (!strcmp(line, "mouse")) {
		if (parse_mouse(h, arg))
			return -2;
		*key = KEY_MOUSE;
		return 1;
	}
	if (!strcmp(line, "size")) {
		if (parse_size(h, arg))
			return -2;
		resize_term(h->rows, h->cols);
		*key = KEY_RESIZE;
		return 1;
	}
	err_set("%s:%d: unknown script command '%s' (keys, dump, attrs, size,"
		" times, wait, start, typeahead, mouse)",
		h->path, h->lineno, line);
	return -2;
}

int headless_key(struct headless *h)
{
	int key = -1, rc;

	for (;;) {
		if (h->keys && *h->keys) {
			if (keys_parse(&h->keys, &key)) {
				err_set("%s:%d: unknown key name at '%s'",
					h->path, h->lineno, h->keys);
				return -2;
			}
			break;
		}
		h->keys = NULL;
		rc = run_line(h, &key);
		if (rc == 1)
			break;
		if (rc < 0)
			return rc;
	}
	if (key == KEY_RESIZE)
		snprintf(h->last_key, sizeof(h->last_key), "size");
	else if (key == KEY_MOUSE)
		snprintf(h->last_key, sizeof(h->last_key), "mouse-%s",
			 h->mouse_word);
	else
		keys_name(key, h->last_key, sizeof(h->last_key));
	if (key != KEY_MOUSE)
		h->ms += 1000;
	settle(h);
	clock_gettime(CLOCK_MONOTONIC, &h->t_key);
	return key;
}

int headless_typeahead(struct headless *h)
{
	int was = h->typeahead;

	h->typeahead = 0;
	return was;
}

void headless_on_settle(struct headless *h, void (*fn)(void *arg),
			void *arg)
{
	h->settle = fn;
	h->settle_arg = arg;
}

void headless_on_wait(struct headless *h,
		      void (*fn)(void *arg, int n, int wait), void *arg)
{
	h->wait = fn;
	h->wait_arg = arg;
}

void headless_frame_done(struct headless *h)
{
	h->times = xgrow(h->times, &h->cap, h->ntimes + 1, sizeof(*h->times));
	snprintf(h->times[h->ntimes].key, sizeof(h->times[0].key), "%s",
		 h->last_key);
	h->times[h->ntimes].ms = ms_since(&h->t_key);
	h->ntimes++;
}
