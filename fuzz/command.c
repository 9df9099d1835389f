/* Fuzzes the viewer's ':' command line: each line of the input is typed
 * after ':' and entered, in the viewer running headless on a small
 * profile; control bytes become editing keys. The screen afterwards
 * must hold nothing a terminal would interpret. */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "model/text.h"
#include "model/util.h"
#include "tui/tui.h"

#define MAX_LINES 8
#define MAX_LINE 300

static struct model *m;

/* Keys for one byte of a line, as the headless script writes them. */
static void key(struct strbuf *sb, const uint8_t *p, size_t n, size_t *used)
{
	static const char *const arrows[] = { "<Left>", "<Right>", "<Up>",
					      "<Down>" };
	unsigned cp;
	uint8_t c = p[0];

	*used = 1;
	if (c >= 0x80) {
		*used = text_utf8_char(p, n, &cp);
		if (*used)
			sb_add(sb, p, *used);
		else
			*used = 1;
	} else if (c == '<') {
		sb_adds(sb, "<lt>");
	} else if (c >= 0x20 && c < 0x7f) {
		sb_addc(sb, (char)c);
	} else if (c == 0x7f) {
		sb_adds(sb, "<Backspace>");
	} else if (c == '\t') {
		sb_adds(sb, "<Tab>");
	} else if (c == 0x1b) {
		sb_adds(sb, "<Esc>");
	} else if (c >= 0x1c) {
		sb_adds(sb, arrows[c - 0x1c]);
	} else if (c && c != '\r') {
		sb_printf(sb, "<C-%c>", 'a' + c - 1);
	}
}

static char *script(const uint8_t *data, size_t size)
{
	struct strbuf sb;
	size_t i = 0;

	sb_init(&sb);
	for (int line = 0; line < MAX_LINES && i < size; line++) {
		size_t start = i, used;

		sb_adds(&sb, "keys :");
		for (; i < size && data[i] != '\n' && i - start < MAX_LINE;
		     i += used)
			key(&sb, data + i, size - i, &used);
		sb_adds(&sb, "<Enter>\n");
		while (i < size && data[i] != '\n')
			i++;
		i++;
	}
	sb_adds(&sb, "dump screen\n");
	return sb_detach(&sb);
}

static void check_screen(void)
{
	char *path = fuzz_path("screen");
	struct strbuf sb;
	char buf[4096];
	size_t n;
	FILE *f = fopen(path, "r");

	sb_init(&sb);
	while (f && (n = fread(buf, 1, sizeof(buf), f)) > 0)
		sb_add(&sb, buf, n);
	if (f)
		fclose(f);
	fuzz_check_text("screen", sb_cstr(&sb), sb.len);
	sb_free(&sb);
	remove(path);
	free(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tui_opts o = { .color = TUI_COLOR_NEVER };
	char *text, *path;

	if (!m) {
		char *cache = fuzz_fixture_cache("device_small.json");

		setlocale(LC_ALL, "C.UTF-8");
		setenv("XDG_DATA_HOME", fuzz_dir(), 1);
		setenv("NXTOP_EXPORT_DIR", fuzz_dir(), 1);
		m = model_open(cache);
		free(cache);
		if (!m)
			abort();
	}
	text = script(data, size);
	path = fuzz_write("keys", (const uint8_t *)text, strlen(text));
	o.headless = path;
	o.dump_dir = fuzz_dir();
	if (tui_run(m, &o))
		fprintf(stderr, "fuzz: %s\n", err_get());
	else
		check_screen();
	err_clear();
	free(path);
	free(text);
	return 0;
}
