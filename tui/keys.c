/* The request table, key names and the keymap built from the table. */
#include "config.h"

#include "tui/keys.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "model/text.h"

#define REQ_ROW_(id, name, keys, help) { REQ_##id, name, keys, help, KM_COUNT },
#define REQ_GROUP_(title, km) { REQ_NONE, title, NULL, NULL, km },
/* Rows get their group's keymap on first use (the X-macro cannot pass
 * it down). */
static struct req_info requests[] = { REQ_INFO(REQ_GROUP_, REQ_ROW_) };
#undef REQ_ROW_
#undef REQ_GROUP_

static void table_init(void)
{
	static int done;
	enum keymap km = KM_GENERIC;

	if (done)
		return;
	done = 1;
	for (size_t i = 0; i < NX_ARRAY_SIZE(requests); i++) {
		if (requests[i].req == REQ_NONE)
			km = requests[i].keymap;
		else
			requests[i].keymap = km;
	}
}

/* Named keys; the first name of a code is the one shown. */
static const struct {
	const char *name;
	int key;
} key_names[] = {
	{ "Up", KEY_UP },
	{ "Down", KEY_DOWN },
	{ "Left", KEY_LEFT },
	{ "Right", KEY_RIGHT },
	{ "Home", KEY_HOME },
	{ "End", KEY_END },
	/* what some terminfo entries call \e[1~ and \e[4~ */
	{ "Home", KEY_FIND },
	{ "End", KEY_SELECT },
	{ "PgUp", KEY_PPAGE },
	{ "PgDown", KEY_NPAGE },
	{ "Enter", '\n' },
	{ "Enter", '\r' },
	{ "Enter", KEY_ENTER },
	{ "Tab", '\t' },
	{ "Space", ' ' },
	{ "Esc", KEY_ESC },
	{ "Backspace", KEY_BACKSPACE },
	{ "Backspace", 127 },
	{ "Backspace", KEY_CTRL('h') },
	{ "lt", '<' },
};

/* Home and End as terminals send them, whatever their terminfo entry
 * says: tmux and the Linux console (\e[1~ \e[4~, so TERM=xterm-256color
 * under tmux), rxvt (\e[7~ \e[8~), xterm (\e[H \e[F, \eOH \eOF). */
static const struct {
	const char *seq;
	int key;
} home_end[] = {
	{ "\033[1~", KEY_HOME }, { "\033[4~", KEY_END },
	{ "\033[7~", KEY_HOME }, { "\033[8~", KEY_END },
	{ "\033[H", KEY_HOME }, { "\033[F", KEY_END },
	{ "\033OH", KEY_HOME }, { "\033OF", KEY_END },
};

void keys_define_terminal(void)
{
	for (size_t i = 0; i < NX_ARRAY_SIZE(home_end); i++)
		if (!key_defined(home_end[i].seq))
			define_key(home_end[i].seq, home_end[i].key);
}

const struct req_info *req_table(size_t *n)
{
	table_init();
	*n = NX_ARRAY_SIZE(requests);
	return requests;
}

const struct req_info *req_info(enum request req)
{
	table_init();
	for (size_t i = 0; i < NX_ARRAY_SIZE(requests); i++)
		if (requests[i].req == req && req != REQ_NONE)
			return &requests[i];
	return NULL;
}

enum request req_by_name(const char *name)
{
	for (size_t i = 0; i < NX_ARRAY_SIZE(requests); i++)
		if (requests[i].req != REQ_NONE &&
		    !strcmp(requests[i].name, name))
			return requests[i].req;
	return REQ_NONE;
}

int keys_parse(const char **s, int *key)
{
	const char *p = *s, *e;
	size_t len;

	if ((unsigned char)*p >= 0x80) {
		unsigned cp;
		size_t n = text_utf8_char((const unsigned char *)p, strlen(p),
					  &cp);

		if (!n)
			return -1;
		*key = KEY_UNICODE(cp);
		*s = p + n;
		return 0;
	}
	if (*p != '<' || !(e = strchr(p, '>')) || e == p + 1) {
		*key = (unsigned char)*p;
		*s = p + 1;
		return 0;
	}
	p++;
	len = (size_t)(e - p);
	if (len == 3 && p[0] == 'C' && p[1] == '-' && p[2] >= 'a' &&
	    p[2] <= 'z') {
		*key = KEY_CTRL(p[2]);
		*s = e + 1;
		return 0;
	}
	for (size_t i = 0; i < NX_ARRAY_SIZE(key_names); i++) {
		if (strlen(key_names[i].name) == len &&
		    !strncmp(key_names[i].name, p, len)) {
			*key = key_names[i].key;
			*s = e + 1;
			return 0;
		}
	}
	return -1;
}

void keys_name(int key, char *buf, size_t n)
{
	struct strbuf sb;

	for (size_t i = 0; i < NX_ARRAY_SIZE(key_names); i++) {
		if (key_names[i].key == key) {
			snprintf(buf, n, "<%s>", key_names[i].name);
			return;
		}
	}
	if (KEY_IS_UNICODE(key) && n > 4) {
		unsigned cp = KEY_UNICODE_CP(key);
		char ch[5];

		/* through the sanitiser: a bad code point stays harmless */
		ch[cp < 0x110000 ? text_utf8_put(cp, ch) : 0] = '\0';
		sb_init(&sb);
		text_sanitize(&sb, ch, 0);
		snprintf(buf, n, "%s", sb_cstr(&sb));
		sb_free(&sb);
		return;
	}
	if (key > 0 && key < 32)
		snprintf(buf, n, "<C-%c>", key + 'a' - 1);
	else if (key > 32 && key < 127)
		snprintf(buf, n, "%c", key);
	else
		snprintf(buf, n, "<%d>", key);
}

/* Every name of the key (Enter is '\n', '\r' and KEY_ENTER) maps. */
static int key_matches(int key, int bound)
{
	char a[32], b[32];

	if (key == bound)
		return 1;
	keys_name(key, a, sizeof(a));
	keys_name(bound, b, sizeof(b));
	return a[0] == '<' && !strcmp(a, b);
}

/* The keymap km falls back to (KM_GENERIC for itself). */
static enum keymap keymap_parent(enum keymap km)
{
	switch (km) {
	case KM_MARKERS:
	case KM_LAYERS:
	case KM_PROFILES:
		return KM_LIST;
	case KM_LIST:
	case KM_PAGER:
		return KM_LINES;
	default:
		return KM_GENERIC;
	}
}

const char *keymap_name(enum keymap km)
{
	static const char *const names[KM_COUNT] = {
		[KM_GENERIC] = "every view",
		[KM_TIMELINE] = "the timeline",
		[KM_LINES] = "lists and the pager",
		[KM_LIST] = "lists",
		[KM_MARKERS] = "the marker list",
		[KM_LAYERS] = "the layer table",
		[KM_PAGER] = "the pager",
		[KM_PROFILES] = "the Profile Manager",
	};

	return km < KM_COUNT ? names[km] : "";
}

int keymap_covers(enum keymap km, enum keymap group)
{
	for (;;) {
		if (km == group)
			return 1;
		if (km == KM_GENERIC)
			return 0;
		km = keymap_parent(km);
	}
}

/* The request key triggers among the requests of one keymap. */
static enum request lookup(int key, enum keymap km)
{
	for (size_t i = 0; i < NX_ARRAY_SIZE(requests); i++) {
		const char *p = requests[i].keys;

		if (requests[i].req == REQ_NONE || requests[i].keymap != km)
			continue;

		while (p && *p) {
			int k;

			if (*p == ' ') {
				p++;
				continue;
			}
			if (keys_parse(&p, &k))
				break;
			if (key_matches(key, k))
				return requests[i].req;
		}
	}
	return REQ_NONE;
}

enum request keys_request(int key, enum keymap km)
{
	enum request r;

	table_init();
	for (;;) {
		if ((r = lookup(key, km)) != REQ_NONE || km == KM_GENERIC)
			return r;
		km = keymap_parent(km);
	}
}

/* roff needs "\&" before a leading dot or apostrophe, "\-" for a minus,
 * and named glyphs for a backslash and for a double quote (which would
 * otherwise open a quoted macro argument). */
static void roff_text(struct strbuf *out, const char *s)
{
	if (*s == '.' || *s == '\'')
		sb_adds(out, "\\&");
	for (; *s; s++) {
		if (*s == '\\')
			sb_adds(out, "\\(rs");
		else if (*s == '"')
			sb_adds(out, "\\(dq");
		else if (*s == '-')
			sb_adds(out, "\\-");
		else
			sb_addc(out, *s);
	}
}

void keys_man(struct strbuf *out)
{
	table_init();
	for (size_t i = 0; i < NX_ARRAY_SIZE(requests); i++) {
		const struct req_info *r = &requests[i];

		if (r->req == REQ_NONE) {
			sb_adds(out, ".SS ");
			roff_text(out, r->name);
			sb_addc(out, '\n');
			continue;
		}
		sb_adds(out, ".TP\n.B ");
		roff_text(out, r->keys);
		sb_adds(out, "\n");
		roff_text(out, r->help);
		sb_adds(out, " (");
		roff_text(out, r->name);
		sb_adds(out, ").\n");
	}
}
