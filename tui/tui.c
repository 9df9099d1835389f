/* The screen loop: starts curses (or a virtual terminal when headless),
 * keeps the stack of views, turns keys into requests, runs ':' commands
 * and draws a frame after each key. Curses sends only the cells that
 * changed, so a full redraw into stdscr does not flicker. */
#include "config.h"

#include "tui/tui.h"

#include <curses.h>
#include <langinfo.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "tui/draw.h"
#include "tui/exportfile.h"
#include "tui/headless.h"
#include "model/devqueue.h"
#include "tui/help.h"
#include "tui/keys.h"
#include "tui/manager_view.h"
#include "tui/mouse.h"
#include "tui/pager.h"
#include "model/model.h"
#include "model/text.h"
#include "model/timefmt.h"
#include "model/userdata.h"
#include "tui/prompt.h"
#include "tui/timeline/timeline.h"
#include "tui/view.h"

#define TUI_MAX_VIEWS 16
#define TUI_MIN_COLS 40		/* below this, only a notice is drawn */
#define TUI_MIN_ROWS 8
#define TUI_ESCDELAY_MS 25
#define TUI_MAX_ARGS 16
#define TUI_HISTORY 100		/* lines of history a prompt recalls */
#define TUI_POLL_MS 200		/* looks at background work while idle */
#define TUI_TICK (-3)		/* no key came while background work ran */
#define TUI_MAX_MOUSE 4		/* events one report can complete */
#define CRUMB_MIN 16		/* a breadcrumb entry cut shows this much */

struct tui {
	struct view *views[TUI_MAX_VIEWS];
	int nviews;
	int crumb_w[TUI_MAX_VIEWS];	/* columns of each breadcrumb entry
					   as the header last drew it */
	struct prompt prompt;
	struct prompt_spec spec;	/* of the open prompt */
	int prompting;
	/* the help opened by '?' from the prompt: closing it gives the
	 * prompt back */
	struct view *prompt_help;
	char word[PROMPT_LABEL_MAX];	/* of tui_command_word */
	struct strbuf prompt_err;	/* why the last Enter did not run */
	struct strbuf ask;		/* the open one-key question */
	const char *ask_keys;
	void (*ask_fn)(struct view *v, int key);
	struct userdata *ud;
	struct strbuf ud_err;
	struct strbuf msg;
	int msg_error;
	int msg_keep;		/* the message outlives the next key */
	int quit;
	struct headless *hl;
	struct model *m;	/* of the views on top, or NULL */
	const char *profile;	/* of tui_profile() */
	int osc52;		/* y also sets the terminal's clipboard */
	int mouse_on;		/* clicks and the wheel reach the views */
	struct mouse mouse;
	struct mouse_event mev[TUI_MAX_MOUSE];	/* of the last KEY_MOUSE */
	int nmev;
	struct model *compare;	/* B of nxtop A B, or NULL */
	struct devqueue *devq;	/* device profiles imported meanwhile */
	uint64_t devq_seen;	/* its changes drawn so far */
	size_t devq_left;	/* of its imports, when last looked at */
	int compare_owned;	/* opened by :compare PATH: closed here */
	char *compare_path;	/* of tui_compare_path() */
	char *compare_named;	/* of tui_compare_named() */
	struct model *(*open_compare)(void *ctx, const char *path);
	void *open_ctx;
	SCREEN *screen;
	FILE *null_out, *null_in;
	int winch_noted;	/* note_winch handles SIGWINCH */
};

/* A SIGWINCH that no frame has answered yet. Curses' own handler, which
 * note_winch calls too, only queues KEY_RESIZE for the next key read,
 * and a long reading reads none: it looks here to redraw its busy line
 * at the new size. */
static volatile sig_atomic_t winched;
static struct sigaction curses_winch;	/* the handler before note_winch */

static struct view *top_view(struct tui *t)
{
	return t->nviews ? t->views[t->nviews - 1] : NULL;
}

static void set_area(struct view *v)
{
	v->top = 1;
	v->height = NX_MAX(LINES - 2, 1);
	v->width = NX_MAX(COLS, 1);
}

void tui_push(struct tui *t, struct view *v)
{
	if (t->nviews == TUI_MAX_VIEWS) {
		v->ops->close(v);
		tui_error(t, "too many views open");
		return;
	}
	v->tui = t;
	set_area(v);
	t->views[t->nviews++] = v;
}

void tui_pop(struct tui *t)
{
	struct view *v = top_view(t);

	if (!v)
		return;
	if (v == t->prompt_help) {
		t->prompt_help = NULL;
		t->prompting = 1;
	}
	t->nviews--;
	v->ops->close(v);
	if (!t->nviews)
		t->quit = 1;
}

void tui_set_model(struct tui *t, struct model *m)
{
	t->m = m;
	/* its device profiles' imports, drawn as they go */
	t->devq = m ? model_devqueue(m) : NULL;
	t->devq_seen = 0;
	t->devq_left = t->devq ? devq_pending(t->devq) : 0;
}

void tui_suspend(struct tui *t)
{
	if (t->hl)
		return;
	def_prog_mode();
	endwin();
}

void tui_resume(struct tui *t)
{
	if (t->hl)
		return;
	reset_prog_mode();
	clearok(curscr, TRUE);
	if (t->mouse_on)
		mouse_enable(1);	/* endwin() turned the reports off */
}

struct userdata *tui_userdata(struct tui *t)
{
	return t->ud;
}

const char *tui_profile(struct tui *t)
{
	return t->profile;
}

static void base64(struct strbuf *out, const unsigned char *s, size_t n)
{
	static const char digits[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		"0123456789+/";

	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)s[i] << 16;

		v |= i + 1 < n ? (uint32_t)s[i + 1] << 8 : 0;
		v |= i + 2 < n ? s[i + 2] : 0;
		sb_printf(out, "%c%c%c%c", digits[v >> 18 & 63],
			  digits[v >> 12 & 63],
			  i + 1 < n ? digits[v >> 6 & 63] : '=',
			  i + 2 < n ? digits[v & 63] : '=');
	}
}

void tui_copy(struct tui *t, const char *text, const char *lines)
{
	struct pager_part p = {
		"Reopens the view (one command over these lines):", lines,
		strlen(lines) };
	int clip = t->osc52 && !t->hl;
	struct strbuf sb;

	/* a command cut short at the screen's edge is of no use: without
	 * OSC 52, what is read here is all y gives */
	if (text_width(text) < COLS) {
		tui_message(t, "%s", text);
	} else {
		tui_push(t, pager_open_words("command line", &p, 1));
		tui_message(t, "y: the command line in full, one option a "
			    "line%s", clip ? "; also in the clipboard" : "");
	}
	if (!clip)
		return;
	/* base64: nothing of the text reaches the terminal as it is */
	sb_init(&sb);
	sb_adds(&sb, "\033]52;c;");
	base64(&sb, (const unsigned char *)text, strlen(text));
	sb_adds(&sb, "\a");
	fputs(sb_cstr(&sb), stdout);
	fflush(stdout);
	sb_free(&sb);
}

/* Off, the terminal's own text selection works again. */
static int set_mouse(struct tui *t, int on)
{
	if (mouse_enable(on)) {
		err_set("set: this terminal reports no mouse");
		return -1;
	}
	t->mouse_on = on;
	memset(&t->mouse, 0, sizeof(t->mouse));
	return 0;
}

/* :set osc52 on|off, :set mouse on|off */
static int set_command(struct tui *t, int argc, char **argv)
{
	int on = argc == 3 && !strcmp(argv[2], "on");

	if (argc != 3 || (!on && strcmp(argv[2], "off")) ||
	    (strcmp(argv[1], "osc52") && strcmp(argv[1], "mouse"))) {
		err_set("set: expected osc52 on|off or mouse on|off");
		return -1;
	}
	if (!strcmp(argv[1], "osc52"))
		t->osc52 = on;
	else if (set_mouse(t, on))
		return -1;
	tui_message(t, "%s %s", argv[1], argv[2]);
	return 0;
}

const char *tui_userdata_error(struct tui *t)
{
	return t->ud_err.len ? sb_cstr(&t->ud_err) : "no user data";
}

void tui_prompt(struct tui *t, const struct prompt_spec *spec,
		const char *text)
{
	char **hist = NULL;
	size_t n = 0;

	t->spec = *spec;
	t->prompt_help = NULL;
	prompt_free(&t->prompt);
	prompt_start(&t->prompt, spec->lead);
	if (text)
		prompt_set(&t->prompt, text);
	if (spec->history && t->ud &&
	    !history_list(t->ud, spec->history, TUI_HISTORY, &hist, &n))
		prompt_set_history(&t->prompt, hist, n);
	sb_reset(&t->prompt_err);
	t->prompting = 1;
}

void tui_ask(struct tui *t, const char *question, const char *keys,
	     void (*fn)(struct view *v, int key))
{
	sb_reset(&t->ask);
	sb_adds(&t->ask, question);
	t->ask_keys = keys;
	t->ask_fn = fn;
}

struct view *tui_below(struct tui *t, struct view *v)
{
	for (int i = 1; i < t->nviews; i++)
		if (t->views[i] == v)
			return t->views[i - 1];
	return NULL;
}

static void vmessage(struct tui *t, int error, const char *fmt, va_list ap)
{
	sb_reset(&t->msg);
	sb_vprintf(&t->msg, fmt, ap);
	t->msg_error = error;
	t->msg_keep = 0;
}

/* A key or click ends the message, unless it came in answer to one. */
static void message_seen(struct tui *t)
{
	if (t->msg_keep)
		t->msg_keep = 0;
	else
		sb_reset(&t->msg);
}

void tui_message(struct tui *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(t, 0, fmt, ap);
	va_end(ap);
}

void tui_error(struct tui *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(t, 1, fmt, ap);
	va_end(ap);
}

void tui_message_past_key(struct tui *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(t, 0, fmt, ap);
	va_end(ap);
	t->msg_keep = 1;
}

int tui_headless(const struct tui *t)
{
	return t->hl != NULL;
}

int tui_key_waiting(struct tui *t)
{
	struct pollfd p = { STDIN_FILENO, POLLIN, 0 };

	if (t->hl)
		return headless_typeahead(t->hl);
	return poll(&p, 1, 0) > 0;
}

static void note_winch(int sig, siginfo_t *info, void *ctx)
{
	winched = 1;
	if (curses_winch.sa_flags & SA_SIGINFO)
		curses_winch.sa_sigaction(sig, info, ctx);
	else if (curses_winch.sa_handler != SIG_DFL &&
		 curses_winch.sa_handler != SIG_IGN)
		curses_winch.sa_handler(sig);
}

/* Puts note_winch before the handler curses installed. */
static void winch_watch(struct tui *t)
{
	struct sigaction sa = { .sa_sigaction = note_winch };

	if (sigaction(SIGWINCH, NULL, &curses_winch))
		return;
	sigemptyset(&sa.sa_mask);
	/* as curses asked: a key read that a resize interrupts ends */
	sa.sa_flags = SA_SIGINFO | (curses_winch.sa_flags & SA_RESTART);
	t->winch_noted = !sigaction(SIGWINCH, &sa, NULL);
}

static void winch_unwatch(struct tui *t)
{
	if (t->winch_noted)
		sigaction(SIGWINCH, &curses_winch, NULL);
	t->winch_noted = 0;
}

int tui_resized(const struct tui *t)
{
	return !t->hl && winched;
}

/* After a SIGWINCH: curses takes the terminal's new size (if it has not
 * yet) and 1, else 0. */
static int take_resize(void)
{
	struct winsize ws;

	if (!winched)
		return 0;
	winched = 0;
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row &&
	    ws.ws_col && is_term_resized(ws.ws_row, ws.ws_col))
		resize_term(ws.ws_row, ws.ws_col);
	return 1;
}

void tui_busy(struct tui *t, const char *text)
{
	WINDOW *w;
	int resized;

	if (t->hl)
		return;
	resized = take_resize();
	if (COLS < TUI_MIN_COLS || LINES < TUI_MIN_ROWS)
		return;
	/* the terminal moved or dropped the frame as it resized: the line
	 * stands alone until the reading ends and a frame is drawn */
	w = resized ? newwin(0, 0, 0, 0) : newwin(1, COLS, LINES - 1, 0);
	if (!w)
		return;
	if (resized)
		clearok(curscr, TRUE);
	werase(w);
	draw_fill(w, getmaxy(w) - 1, 0, COLS, draw_style(S_STATUS));
	draw_text(w, getmaxy(w) - 1, 0, COLS, text, draw_style(S_STATUS), 0);
	wnoutrefresh(w);
	doupdate();
	delwin(w);
}

/* Columns of each breadcrumb entry (t->crumb_w) in a header line of
 * room columns whose view header takes hw: the widest entries give way
 * first, down to CRUMB_MIN columns, so that every view's name and up to
 * half the line of the header on top stay in sight. */
static void crumb_fit(struct tui *t, struct strbuf *titles, int room, int hw)
{
	int sep = 2 + text_width(draw_glyph(G_CRUMB));
	int excess = text_width("nxtop") + NX_MIN(hw, room / 2) - room;

	for (int i = 0; i < t->nviews; i++) {
		t->crumb_w[i] = text_width(sb_cstr(&titles[i]));
		excess += sep + t->crumb_w[i];
	}
	while (excess > 0) {
		int widest = -1;

		for (int i = 0; i < t->nviews; i++)
			if (t->crumb_w[i] > CRUMB_MIN && (widest < 0 ||
			    t->crumb_w[i] > t->crumb_w[widest]))
				widest = i;
		if (widest < 0)
			break;
		t->crumb_w[widest]--;
		excess--;
	}
}

/* "nxtop › a › b" into out, each entry cut to its t->crumb_w. */
static void crumb_text(struct tui *t, struct strbuf *titles,
		       struct strbuf *out)
{
	sb_adds(out, "nxtop");
	for (int i = 0; i < t->nviews; i++) {
		const char *s = sb_cstr(&titles[i]);

		sb_printf(out, " %s ", draw_glyph(G_CRUMB));
		if (text_width(s) <= t->crumb_w[i]) {
			sb_adds(out, s);
			continue;
		}
		sb_add(out, s, text_fit(s, t->crumb_w[i] - 1));
		sb_adds(out, draw_glyph(G_ELLIPSIS));
	}
}

/* The breadcrumb, cut to t->crumb_w, then the view's header, which
 * fits itself to the room the breadcrumb leaves. */
static void header_text(struct tui *t, struct strbuf *titles,
			struct strbuf *out)
{
	struct view *v = top_view(t);

	sb_reset(out);
	crumb_text(t, titles, out);
	if (v->ops->header) {
		sb_adds(out, "  ");
		v->ops->header(v, out);
	}
}

static void draw_header(struct tui *t)
{
	struct strbuf sb, flag, crumbs, titles[TUI_MAX_VIEWS];
	struct view *v = top_view(t);
	attr_t a = draw_style(S_HEADER);
	int fw = 0;

	sb_init(&sb);
	sb_init(&flag);
	sb_init(&crumbs);
	if (v->ops->flag)
		v->ops->flag(v, &flag);
	if (flag.len) {
		/* " TEXT " at the right end; the header gives way */
		fw = NX_MIN(text_width(sb_cstr(&flag)) + 2, COLS / 2);
		draw_fill(stdscr, 0, COLS - fw, fw, draw_style(S_ERROR));
		draw_text(stdscr, 0, COLS - fw + 1, fw - 1, sb_cstr(&flag),
			  draw_style(S_ERROR), 0);
	}
	for (int i = 0; i < t->nviews; i++) {
		sb_init(&titles[i]);
		text_sanitize(&titles[i], t->views[i]->title, draw_ascii());
	}
	/* the header as it reads after the whole breadcrumb, then again
	 * after the breadcrumb cut to leave it room */
	crumb_fit(t, titles, INT_MAX / 2, 0);
	header_text(t, titles, &sb);
	crumb_text(t, titles, &crumbs);
	crumb_fit(t, titles, COLS - fw, text_width(sb_cstr(&sb)) -
					text_width(sb_cstr(&crumbs)));
	header_text(t, titles, &sb);
	draw_text(stdscr, 0, 0, COLS - fw, sb_cstr(&sb), a, 1);
	for (int i = 0; i < t->nviews; i++)
		sb_free(&titles[i]);
	sb_free(&crumbs);
	sb_free(&flag);
	sb_free(&sb);
}

static void draw_status(struct tui *t)
{
	struct view *v = top_view(t);
	struct strbuf right;
	attr_t a = draw_style(S_STATUS);
	int rw = 0, y = LINES - 1;

	if (t->prompting) {
		if (t->prompt_err.len)
			draw_text(stdscr, y - 1, 0, COLS, sb_cstr(&t->prompt_err),
				  draw_style(S_ERROR), 1);
		prompt_draw(&t->prompt, stdscr, y, COLS);
		return;
	}
	draw_fill(stdscr, y, 0, COLS, a);
	if (t->ask.len) {
		draw_str(stdscr, y, 0, COLS, sb_cstr(&t->ask),
			 draw_style(S_HELP_KEY) | A_REVERSE);
		return;
	}
	sb_init(&right);
	if (v->ops->status)
		v->ops->status(v, &right);
	/* a message that needs the room takes it */
	if (t->msg.len && text_width(sb_cstr(&t->msg)) + 1 +
			  text_width(sb_cstr(&right)) + 1 > COLS)
		sb_reset(&right);
	if (right.len) {
		struct strbuf clean;

		sb_init(&clean);
		text_sanitize(&clean, sb_cstr(&right), draw_ascii());
		rw = NX_MIN(text_width(sb_cstr(&clean)) + 1, COLS / 2);
		draw_str(stdscr, y, COLS - rw, rw, sb_cstr(&clean), a);
		sb_free(&clean);
	}
	sb_free(&right);
	if (t->msg.len)
		draw_text(stdscr, y, 0, COLS - rw - 1, sb_cstr(&t->msg),
			  t->msg_error ? draw_style(S_ERROR) : a, 0);
	else if (v->ops->hints)
		draw_str(stdscr, y, 0, COLS - rw - 1, v->ops->hints, a);
}

static void draw_frame(struct tui *t)
{
	struct view *v = top_view(t);

	werase(stdscr);
	if (!v)
		return;
	if (COLS < TUI_MIN_COLS || LINES < TUI_MIN_ROWS) {
		draw_str(stdscr, 0, 0, COLS, "nxtop needs a bigger terminal",
			 A_BOLD);
	} else {
		/* the view first: it settles its layout for header and status */
		set_area(v);
		v->ops->draw(v, stdscr);
		draw_header(t);
		draw_status(t);
	}
	curs_set(t->prompting ? 1 : 0);
	wnoutrefresh(stdscr);
	doupdate();
}

static int run_command(struct view *v, const char *text);

static const struct prompt_spec command_spec = {
	.lead = ':',
	.history = "command",
	.done = run_command,
};

static int run_word(struct view *v, const char *text)
{
	char *line = xasprintf("%s %s", v->tui->word, text);
	int rc = run_command(v, line);

	free(line);
	return rc;
}

/* Each word keeps a history of its own texts, so Up recalls names or
 * groupings, not whole command lines. */
char *tui_command_rest(int argc, char **argv)
{
	struct strbuf sb;

	sb_init(&sb);
	for (int i = 1; i < argc; i++)
		sb_printf(&sb, "%s%s", i > 1 ? " " : "", argv[i]);
	return sb_detach(&sb);
}

void tui_command_word(struct tui *t, const char *word, const char *text)
{
	struct prompt_spec spec = { .lead = ':', .history = t->word,
				    .done = run_word };
	char label[PROMPT_LABEL_MAX];

	snprintf(t->word, sizeof(t->word), "%s", word);
	snprintf(label, sizeof(label), "%s ", word);
	tui_prompt(t, &spec, text);
	prompt_set_label(&t->prompt, label);
}

static void export(struct view *v, enum out_format fmt)
{
	char *path = exportfile_write(v, fmt);

	if (path)
		tui_message(v->tui, "wrote %s", path);
	else
		tui_error(v->tui, "%s", err_get());
	free(path);
}

static void export_chosen(struct view *v, int key)
{
	export(v, key == 'c' ? OUT_CSV : OUT_JSON);
}

/* A request of other views' keys (":sort" in the timeline) says where
 * it works; 1 if it did. */
static int elsewhere(struct view *v, enum request req)
{
	const struct req_info *r = req_info(req);

	if (!r || keymap_covers(v->ops->keymap, r->keymap))
		return 0;
	tui_error(v->tui, "%s: only in %s", r->name, keymap_name(r->keymap));
	return 1;
}

/* Requests every view may leave to the loop. */
static void request(struct tui *t, enum request req)
{
	struct view *v = top_view(t);

	set_area(v);
	if (elsewhere(v, req))
		return;
	if (v->ops->request && !v->ops->request(v, req))
		return;
	switch (req) {
	case REQ_HELP:
		tui_push(t, help_open(v->ops->keymap, v->ops->commands));
		break;
	case REQ_PROMPT:
		tui_prompt(t, &command_spec, NULL);
		break;
	case REQ_EXPORT:
		export(v, OUT_TEXT);
		break;
	case REQ_EXPORT_DATA:
		if (!v->ops->export_name || !v->ops->export_name(v))
			tui_message(t, "nothing to export here");
		else
			tui_ask(t, "Export as j JSON or c CSV?", "jc",
				export_chosen);
		break;
	case REQ_VIEW_CLOSE:
		tui_pop(t);
		break;
	case REQ_QUIT:
		t->quit = 1;
		break;
	case REQ_REDRAW:
		clearok(curscr, TRUE);
		break;
	default:
		tui_message(t, "%s: nothing to do here", req_info(req)->name);
		break;
	}
}

/* Errors of a ':' command go to the status line, not the prompt: the
 * line has done what it could. */
static int run_command(struct view *v, const char *text)
{
	struct tui *t = v->tui;
	char *argv[TUI_MAX_ARGS + 1];
	char *line = xstrdup(text);
	int argc = 0, rc;
	enum request req;

	for (char *tok = strtok(line, " \t"); tok && argc < TUI_MAX_ARGS;
	     tok = strtok(NULL, " \t"))
		argv[argc++] = tok;
	argv[argc] = NULL;
	if (!argc) {
		free(line);
		return 0;
	}
	if (!strcmp(argv[0], "q") || !strcmp(argv[0], "quit")) {
		t->quit = 1;
		free(line);
		return 0;
	}
	req = req_by_name(argv[0]);
	if (!strcmp(argv[0], "set")) {
		if (set_command(t, argc, argv))
			tui_error(t, "%s", err_get());
	} else if (req != REQ_NONE && argc == 1 &&
		   !(v->ops->bare_command &&
		     !strcmp(v->ops->bare_command, argv[0]))) {
		request(t, req);
	} else if (req == REQ_NONE || !elsewhere(v, req)) {
		const char *home = timeline_command_home(argv[0]);

		rc = v->ops->command ? v->ops->command(v, argc, argv) : 1;
		if (rc > 0 && home)
			tui_error(t, "%s: only in %s", argv[0], home);
		else if (rc > 0)
			tui_error(t, "unknown command '%s' (? lists them)",
				  argv[0]);
		else if (rc < 0)
			tui_error(t, "%s", err_get());
	}
	free(line);
	return 0;
}

static void prompt_done(struct tui *t)
{
	struct view *v = top_view(t);
	struct prompt_spec spec = t->spec;
	char *text = xstrdup(t->prompt.text);

	t->prompting = 0;
	sb_reset(&t->prompt_err);
	err_clear();
	set_area(v);
	if (spec.done(v, text) < 0) {
		/* the line stays, with the reason above it */
		t->prompting = 1;
		sb_adds(&t->prompt_err, err_get());
	} else if (spec.history && *text && t->ud &&
		   history_add(t->ud, spec.history, text)) {
		tui_error(t, "%s", err_get());
	}
	free(text);
}

static void prompt_input(struct tui *t, int key)
{
	if (key == '?' && !t->prompt.len && t->spec.help) {
		struct view *h = t->spec.help(top_view(t));

		t->prompting = 0;
		tui_push(t, h);
		if (top_view(t) == h)
			t->prompt_help = h;
		return;
	}
	switch (prompt_key(&t->prompt, key)) {
	case PROMPT_DONE:
		prompt_done(t);
		break;
	case PROMPT_CANCEL:
		t->prompting = 0;
		break;
	case PROMPT_EDITING:
		break;
	}
}

static void answer(struct tui *t, int key)
{
	void (*fn)(struct view *v, int key) = t->ask_fn;
	int ok = key > 0 && key < 128 && key != ' ' &&
		 strchr(t->ask_keys, key);

	sb_reset(&t->ask);
	if (ok)
		fn(top_view(t), key);
	else
		tui_message(t, "cancelled");
}

/* The view whose breadcrumb entry is at column x of the header, -1 if
 * none: the entries as draw_header lays them out. */
static int crumb_at(struct tui *t, int x)
{
	int pos = text_width("nxtop");
	int sep = 2 + text_width(draw_glyph(G_CRUMB));

	for (int i = 0; i < t->nviews; i++) {
		int start = pos;

		pos += sep + t->crumb_w[i];
		if (x >= start && x < pos)
			return i;
	}
	return -1;
}

/* A click on the breadcrumb goes back to that view. */
static void click_header(struct tui *t, int x)
{
	int i = crumb_at(t, x);

	if (i < 0 || i == t->nviews - 1)
		return;
	while (t->nviews > i + 1)
		tui_pop(t);
}

static void mouse_event(struct tui *t, const struct mouse_event *ev)
{
	struct view *v = top_view(t);

	if (ev->y == 0) {
		if (ev->kind == MOUSE_CLICK)
			click_header(t, ev->x);
		return;
	}
	if (ev->y >= LINES - 1 || (ev->kind == MOUSE_DRAG && ev->y0 == 0))
		return;	/* the status line */
	set_area(v);
	if (v->ops->mouse && !v->ops->mouse(v, ev))
		return;
	if (ev->kind == MOUSE_DOUBLE) {
		request(t, REQ_ENTER);
	} else if (ev->kind == MOUSE_WHEEL_UP || ev->kind == MOUSE_WHEEL_DOWN) {
		for (int k = 0; k < MOUSE_WHEEL_LINES; k++)
			request(t, ev->kind == MOUSE_WHEEL_UP ? REQ_MOVE_UP :
								REQ_MOVE_DOWN);
	}
}

/* The events of the last KEY_MOUSE, while the mouse is on; a line
 * being typed or a question asked takes none. */
static void handle_mouse(struct tui *t)
{
	int n = t->nmev;

	t->nmev = 0;
	if (!t->mouse_on || t->prompting || t->ask.len)
		return;
	message_seen(t);
	for (int i = 0; i < n && t->nviews && !t->quit; i++)
		mouse_event(t, &t->mev[i]);
}

static void handle_key(struct tui *t, int key)
{
	enum request req;
	char name[32];

	if (key == KEY_RESIZE) {
		/* a terminal may have moved or dropped what was on it while
		 * it resized: the next frame repaints every cell */
		clearok(curscr, TRUE);
		winched = 0;
		return;
	}
	if (key == KEY_MOUSE) {
		handle_mouse(t);
		return;
	}
	message_seen(t);
	if (t->prompting) {
		prompt_input(t, key);
		return;
	}
	if (t->ask.len) {
		answer(t, key);
		return;
	}
	req = keys_request(key, top_view(t)->ops->keymap);
	if (req == REQ_NONE) {
		keys_name(key, name, sizeof(name));
		tui_message(t, "%s: no such key (? shows the keys)", name);
		return;
	}
	request(t, req);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Feeds one report; 1 when it completed an event. */
static int mouse_raw(struct tui *t, const struct mouse_raw *r)
{
	struct mouse_event ev;

	if (!mouse_feed(&t->mouse, r, &ev) || t->nmev == TUI_MAX_MOUSE)
		return 0;
	t->mev[t->nmev++] = ev;
	return 1;
}

/* The terminal's mouse reports; 1 when they completed an event (a press
 * alone waits for its release, and draws nothing). Reports that came
 * in one read (a quick drag or double-click over a slow link) are all
 * queued behind one KEY_MOUSE, and getmouse() hands out the newest
 * first. */
static int read_mouse(struct tui *t)
{
	MEVENT me[TUI_MAX_MOUSE * 2];
	struct mouse_raw r[2];
	int n = 0, got = 0;
	double ms = now_ms();

	while (n < (int)NX_ARRAY_SIZE(me) && getmouse(&me[n]) == OK)
		n++;
	while (n-- > 0) {
		int k = mouse_from_curses(&me[n], ms, r);

		for (int i = 0; i < k; i++)
			got |= mouse_raw(t, &r[i]);
	}
	return got;
}

/* A key; while busy, TUI_TICK after TUI_POLL_MS without one. */
static int read_key(struct tui *t, int busy)
{
	wint_t wc;

	wtimeout(stdscr, busy ? TUI_POLL_MS : -1);
	for (;;) {
		switch (wget_wch(stdscr, &wc)) {
		case KEY_CODE_YES:
			if (wc == KEY_MOUSE && !read_mouse(t))
				break;
			return (int)wc;
		case OK:
			return wc < 128 ? (int)wc : KEY_UNICODE((unsigned)wc);
		default:
			if (busy)
				return TUI_TICK;
			break;	/* interrupted: read again */
		}
	}
}

/* The device profiles imported in the background: VIEW_BUSY while some
 * are left (a headless run never waits for them here: its script says
 * when), else VIEW_DONE when one moved on since the last frame. */
static int imports_poll(struct tui *t, int *done)
{
	uint64_t c;
	size_t n;

	if (!t->devq)
		return VIEW_IDLE;
	c = devq_changes(t->devq);
	n = devq_pending(t->devq);
	/* one landed: the views' next queries see it */
	if (n != t->devq_left)
		model_refresh(t->m);
	t->devq_left = n;
	*done |= c != t->devq_seen;
	t->devq_seen = c;
	if (n && !t->hl)
		return VIEW_BUSY;
	return *done ? VIEW_DONE : VIEW_IDLE;
}

/* Headless "wait N" and "start N": lets N more device imports run
 * (all: N < 0), and waits for them to end if wait, else for one to
 * begin (so that the next key finds it under way). */
static void imports_wait(void *arg, int n, int wait)
{
	struct tui *t = arg;

	if (!t->devq)
		return;
	devq_allow(t->devq, n);
	if (wait)
		devq_wait(t->devq);
	else
		devq_wait_started(t->devq);
}

/* The background work of every view on the stack: VIEW_BUSY while some
 * runs (wait: until all of it ends), else VIEW_DONE if some ended;
 * *done: some ended, busy or not. */
static int views_poll(struct tui *t, int wait, int *done)
{
	int r = VIEW_IDLE, vr;

	*done = 0;
	for (int i = 0; i < t->nviews; i++) {
		struct view *v = t->views[i];

		vr = v->ops->poll ? v->ops->poll(v, wait) : VIEW_IDLE;
		*done |= vr == VIEW_DONE;
		r = NX_MAX(r, vr);
	}
	vr = imports_poll(t, done);
	return NX_MAX(r, vr);
}

/* Headless, before a dump or a key: the views' background work done
 * and drawn. */
static void settle(void *arg)
{
	struct tui *t = arg;
	int done;

	views_poll(t, 1, &done);
	if (done)
		draw_frame(t);
}

/* The next key; while background work runs, a frame shows what it
 * found as soon as it is done. */
static int next_key(struct tui *t)
{
	int r, done;

	if (t->hl) {
		struct mouse_raw mr;
		int key = headless_key(t->hl);

		while (key == KEY_MOUSE && headless_mouse(t->hl, &mr))
			mouse_raw(t, &mr);
		return key;
	}
	r = views_poll(t, 0, &done);
	/* what one view found shows while others still work */
	if (done)
		draw_frame(t);
	return read_key(t, r == VIEW_BUSY);
}

static int utf8_locale(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"));
}

static enum color_level color_level(const struct tui_opts *o)
{
	const char *no = getenv("NO_COLOR");

	if (o->color == TUI_COLOR_NEVER)
		return COLORS_NONE;
	if (o->color == TUI_COLOR_AUTO && no && *no)
		return COLORS_NONE;
	return COLORS_256;	/* draw_setup lowers it to what there is */
}

/* TERM=dumb (an editor's shell buffer): curses starts, and every line
 * lands on the last one. 1 if the terminal can, else 0 with the screen
 * given back and err_get() set. */
static int moves_cursor(struct tui *t)
{
	char *cup = tigetstr("cup");

	if (cup && cup != (char *)-1)
		return 1;
	err_set("terminal type '%s' cannot move the cursor: the viewer"
		" needs one that can (for text, try 'nxtop summary')",
		termname());
	endwin();
	delscreen(t->screen);
	t->screen = NULL;
	return 0;
}

static int start_curses(struct tui *t, const struct tui_opts *o)
{
	static const char *const virt[] = { "xterm-256color", "xterm",
					    "vt100", "ansi" };

	if (o->headless) {
		int cols, rows;

		t->hl = headless_open(o->headless, o->dump_dir);
		if (!t->hl)
			return -1;
		headless_on_settle(t->hl, settle, t);
		headless_on_wait(t->hl, imports_wait, t);
		t->null_out = fopen("/dev/null", "w");
		t->null_in = fopen("/dev/null", "r");
		if (!t->null_out || !t->null_in) {
			err_set("/dev/null: cannot open");
			return -1;
		}
		for (size_t i = 0; i < NX_ARRAY_SIZE(virt) && !t->screen; i++)
			t->screen = newterm(virt[i], t->null_out, t->null_in);
		if (!t->screen) {
			err_set("no terminal description for a headless run "
				"(install ncurses-base)");
			return -1;
		}
		headless_size(t->hl, &cols, &rows);
		resize_term(rows, cols);
	} else {
		if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
			err_set("the viewer needs a terminal (for text, try "
				"'nxtop summary')");
			return -1;
		}
		set_escdelay(TUI_ESCDELAY_MS);
		t->screen = newterm(NULL, stdout, stdin);
		if (!t->screen) {
			err_set("cannot use terminal type '%s'",
				getenv("TERM") ? getenv("TERM") : "(unset)");
			return -1;
		}
		if (!moves_cursor(t))
			return -1;
		set_escdelay(TUI_ESCDELAY_MS);	/* the screen's own copy */
		winch_watch(t);
	}
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	keys_define_terminal();
	curs_set(0);
	/* headless, the script's clicks stand for the terminal's */
	t->mouse_on = !o->no_mouse && (!mouse_enable(1) || t->hl);
	return 0;
}

static void stop_curses(struct tui *t)
{
	winch_unwatch(t);
	if (t->screen) {
		endwin();
		delscreen(t->screen);
	}
	if (t->null_out)
		fclose(t->null_out);
	if (t->null_in)
		fclose(t->null_in);
	headless_close(t->hl);
}

/* A damaged cache ends the viewer: what it shows could be wrong. */
static int check_model(struct tui *t)
{
	return t->m ? model_check(t->m) : 0;
}

static int main_loop(struct tui *t)
{
	draw_frame(t);
	if (t->hl)
		headless_frame_done(t->hl);
	if (check_model(t))
		return -1;
	while (!t->quit && t->nviews) {
		int key = next_key(t);

		if (key == TUI_TICK)
			continue;
		if (key == -1)
			break;
		if (key == -2)
			return -1;
		handle_key(t, key);
		if (t->quit || !t->nviews)
			break;
		draw_frame(t);
		if (check_model(t))
			return -1;
		if (t->hl)
			headless_frame_done(t->hl);
	}
	return 0;
}

/* Without a user data store (another process holding it, say) the
 * viewer still starts, saying so; markers and history say why they are
 * missing. */
static void open_userdata(struct tui *t)
{
	char *path = userdata_default_path();

	t->ud = userdata_open(path);
	if (!t->ud) {
		sb_adds(&t->ud_err, err_get());
		tui_error(t, "markers and history are off: %s",
			  sb_cstr(&t->ud_err));
	}
	free(path);
}

static void tui_free(struct tui *t)
{
	while (t->nviews)
		tui_pop(t);
	if (t->compare_owned)
		model_close(t->compare);
	free(t->compare_path);
	free(t->compare_named);
	stop_curses(t);
	prompt_free(&t->prompt);
	userdata_close(t->ud);
	sb_free(&t->ud_err);
	sb_free(&t->prompt_err);
	sb_free(&t->ask);
	sb_free(&t->msg);
}

/* Curses, the user data and the drawing set up for o; -1 with
 * err_set(). */
static int tui_start(struct tui *t, const struct tui_opts *o)
{
	int ascii = o->ascii || !utf8_locale();

	memset(t, 0, sizeof(*t));
	if (start_curses(t, o))
		return -1;
	open_userdata(t);
	draw_setup(ascii, color_level(o));
	return 0;
}

struct model *tui_compare_model(struct tui *t)
{
	return t->compare;
}

struct model *tui_open_compare(struct tui *t, const char *path)
{
	struct model *m;

	if (!t->open_compare) {
		err_set("compare: open two profiles to compare them: nxtop A B");
		return NULL;
	}
	tui_suspend(t);
	m = t->open_compare(t->open_ctx, path);
	tui_resume(t);
	if (m) {
		char *abs = realpath(path, NULL);

		t->compare = m;
		t->compare_owned = 1;
		t->compare_path = abs ? abs : xstrdup(path);
		t->compare_named = xstrdup(path);
	}
	return m;
}

const char *tui_compare_path(struct tui *t)
{
	return t->compare_path;
}

const char *tui_compare_named(struct tui *t)
{
	return t->compare_named;
}

int tui_run(struct model *m, const struct tui_opts *o)
{
	struct tui t;
	struct view *tl;
	int rc = -1;

	if (!tui_start(&t, o)) {
		tl = timeline_open(m, 0, o->group);
		if (tl && o->compare && timeline_stack(tl, o->compare)) {
			tui_push(&t, tl);	/* closed with the others */
			tl = NULL;
		}
		if (tl) {
			tui_set_model(&t, m);
			t.profile = o->profile;
			t.compare = o->compare;
			if (o->compare_path)
				t.compare_path = xstrdup(o->compare_path);
			if (o->compare_named)
				t.compare_named = xstrdup(o->compare_named);
			timeline_set_file(tl, o->profile_named);
			t.open_compare = o->open_compare;
			t.open_ctx = o->open_ctx;
			tui_push(&t, tl);
			if (o->start)
				timeline_start(tl, o->start);
			if (o->note)
				tui_message(&t, "%s", o->note);
			/* start options: the stacked timeline they say */
			if (!o->compare || o->start ||
			    !timeline_compare(tl, NULL))
				rc = main_loop(&t);
		}
	}
	tui_free(&t);
	return rc;
}

int tui_run_manager(const struct tui_profiles *p, const struct tui_opts *o)
{
	struct tui t;
	struct view *v;
	int rc = -1;

	if (!tui_start(&t, o)) {
		v = manager_view_open(&t, p, o->group);
		if (v) {
			tui_push(&t, v);
			rc = main_loop(&t);
		}
	}
	tui_free(&t);
	return rc;
}
