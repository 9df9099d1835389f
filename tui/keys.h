/* Key names and the keymap built from the request table. */
#ifndef NX_TUI_KEYS_H
#define NX_TUI_KEYS_H

#include <stddef.h>

#include "model/util.h"
#include "tui/request.h"

/* Key codes are curses codes: characters, KEY_* values, control codes. */
#define KEY_ESC 27
#define KEY_CTRL(c) ((c) & 0x1f)
/* Characters beyond ASCII, kept apart from the KEY_* codes. */
#define KEY_UNICODE(cp) ((int)(0x1000000 | (cp)))
#define KEY_IS_UNICODE(k) (((k) & 0x1000000) != 0)
#define KEY_UNICODE_CP(k) ((unsigned)(k) & 0xffffff)

/* Parses one key name at *s ("j", "<Down>", "<C-l>") and advances *s
 * past it. 0 on success; -1 on an unknown <name> or bad UTF-8. */
int keys_parse(const char **s, int *key);
/* The name of a key as keys_parse reads it. */
void keys_name(int key, char *buf, size_t n);
/* Teaches curses the Home and End sequences of common terminals that
 * TERM's entry may lack; after keypad(). */
void keys_define_terminal(void);
/* The request a key triggers in a view with keymap km (then the
 * keymaps under it, then the generic one); REQ_NONE if none. */
enum request keys_request(int key, enum keymap km);
/* Where a keymap's keys work, for messages: "lists", "the pager". */
const char *keymap_name(enum keymap km);
/* 1 if a view with keymap km uses the keys of group. */
int keymap_covers(enum keymap km, enum keymap group);
/* The KEYS section of man/nxtop.1 (roff), generated from the table. */
void keys_man(struct strbuf *out);

#endif
