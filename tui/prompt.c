/* A small line editor: insert, delete, move by character, kill line.
 * Text is UTF-8; keys beyond ASCII arrive as KEY_UNICODE(cp). */
#include "config.h"

#include "tui/prompt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/draw.h"
#include "tui/keys.h"
#include "model/text.h"
#include "model/userdata.h"

void prompt_free(struct prompt *p)
{
	strings_free(p->hist, p->nhist);
	p->hist = NULL;
	p->nhist = 0;
}

void prompt_start(struct prompt *p, char lead)
{
	memset(p, 0, sizeof(*p));
	p->lead = lead;
}

void prompt_set_label(struct prompt *p, const char *label)
{
	snprintf(p->label, sizeof(p->label), "%s", label);
}

void prompt_set(struct prompt *p, const char *text)
{
	size_t n = strlen(text);

	/* too long: cut before the character that does not fit */
	if (n >= PROMPT_MAX) {
		n = PROMPT_MAX - 1;
		while (n > 0 && ((unsigned char)text[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(p->text, text, n);
	p->text[n] = '\0';
	p->len = p->pos = n;
	p->hpos = 0;
}

void prompt_set_history(struct prompt *p, char **hist, size_t n)
{
	strings_free(p->hist, p->nhist);
	p->hist = hist;
	p->nhist = n;
	p->hpos = 0;
}

/* Up (dir 1) goes back in the history, Down (dir -1) forward, to the
 * line being typed at last. */
static void history_move(struct prompt *p, int dir)
{
	size_t to = p->hpos;

	if (dir > 0 && p->hpos < p->nhist)
		to++;
	else if (dir < 0 && p->hpos > 0)
		to--;
	if (to == p->hpos)
		return;
	if (p->hpos == 0)
		memcpy(p->typed, p->text, sizeof(p->typed));
	p->hpos = to;
	prompt_set(p, to ? p->hist[to - 1] : p->typed);
	p->hpos = to;	/* prompt_set starts a new line */
}

static void insert(struct prompt *p, unsigned cp)
{
	char enc[4];
	size_t n = text_utf8_put(cp, enc);

	if (p->len + n >= PROMPT_MAX)
		return;
	memmove(p->text + p->pos + n, p->text + p->pos, p->len - p->pos);
	memcpy(p->text + p->pos, enc, n);
	p->len += n;
	p->pos += n;
	p->text[p->len] = '\0';
}

static size_t prev_char(const struct prompt *p, size_t pos)
{
	while (pos > 0 && ((unsigned char)p->text[--pos] & 0xc0) == 0x80)
		;
	return pos;
}

static size_t next_char(const struct prompt *p, size_t pos)
{
	while (pos < p->len && ((unsigned char)p->text[++pos] & 0xc0) == 0x80)
		;
	return pos;
}

static void delete_range(struct prompt *p, size_t from, size_t to)
{
	memmove(p->text + from, p->text + to, p->len - to);
	p->len -= to - from;
	p->pos = from;
	p->text[p->len] = '\0';
}

enum prompt_result prompt_key(struct prompt *p, int key)
{
	switch (key) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		return PROMPT_DONE;
	case KEY_ESC:
	case KEY_CTRL('g'):
		return PROMPT_CANCEL;
	case KEY_BACKSPACE:
	case 127:
	case KEY_CTRL('h'):
		if (!p->len)
			return PROMPT_CANCEL;
		if (p->pos)
			delete_range(p, prev_char(p, p->pos), p->pos);
		break;
	case KEY_DC:
	case KEY_CTRL('d'):
		if (p->pos < p->len)
			delete_range(p, p->pos, next_char(p, p->pos));
		break;
	case KEY_LEFT:
	case KEY_CTRL('b'):
		p->pos = prev_char(p, p->pos);
		break;
	case KEY_RIGHT:
	case KEY_CTRL('f'):
		p->pos = next_char(p, p->pos);
		break;
	case KEY_HOME:
	case KEY_FIND:
	case KEY_CTRL('a'):
		p->pos = 0;
		break;
	case KEY_END:
	case KEY_SELECT:
	case KEY_CTRL('e'):
		p->pos = p->len;
		break;
	case KEY_CTRL('u'):
		delete_range(p, 0, p->pos);
		break;
	case KEY_CTRL('k'):
		delete_range(p, p->pos, p->len);
		break;
	case KEY_UP:
	case KEY_CTRL('p'):
		history_move(p, 1);
		break;
	case KEY_DOWN:
	case KEY_CTRL('n'):
		history_move(p, -1);
		break;
	default:
		if (key >= 32 && key < 127)
			insert(p, (unsigned)key);
		else if (KEY_IS_UNICODE(key))
			insert(p, KEY_UNICODE_CP(key));
		break;
	}
	return PROMPT_EDITING;
}

void prompt_draw(const struct prompt *p, WINDOW *win, int y, int w)
{
	struct strbuf sb;
	char lead[PROMPT_LABEL_MAX + 2];
	int before, skip = 0, x;

	snprintf(lead, sizeof(lead), "%c%s", p->lead, p->label);
	sb_init(&sb);
	text_sanitize_n(&sb, p->text, p->pos, draw_ascii());
	before = text_width(sb_cstr(&sb));
	draw_fill(win, y, 0, w, A_NORMAL);
	x = draw_str(win, y, 0, w / 2, lead, A_BOLD);
	w -= x;
	/* keep the cursor on screen: scroll the text left */
	while (before - skip > w - 2)
		skip += NX_MAX(w / 4, 1);
	sb_reset(&sb);
	text_sanitize(&sb, p->text, draw_ascii());
	{
		const char *s = sb_cstr(&sb);
		size_t off = text_fit(s, skip);

		char *head = xstrndup(s, off);

		draw_str(win, y, x, w, s + off, A_NORMAL);
		wmove(win, y, x + before - text_width(head));
		free(head);
	}
	sb_free(&sb);
}
