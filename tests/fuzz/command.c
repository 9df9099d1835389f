/* Fuzzes the viewer's ':' command line: each line of the input is typed
 * after ':' and entered, in the viewer running headless on a small
 * profile, or with a leading '!' on a hostile one (times at the ends of
 * the range the cache keeps, huge counter values, escape sequences in
 * names); control bytes become editing keys. The screen afterwards must
 * hold nothing a terminal would interpret. */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"
#include "model/text.h"
#include "model/util.h"
#include "tui/tui.h"

#define MAX_LINES 8
#define MAX_LINE 300

static struct model *small, *hostile;

static const char hostile_json[] =
	"{\"instruction\":["
	"{\"timestamp\":-576460752303423488,\"duration\":1,"
	"\"opcode\":\"\\u001b]52;c;aGk=\\u0007\",\"label\":\"Tensor\"},"
	"{\"timestamp\":3458764513820540000,\"duration\":9223372036854775807,"
	"\"opcode\":\"B\\u009b31m\",\"label\":\"\\u001b[2J\"},"
	"{\"timestamp\":0,\"duration\":0,\"opcode\":\"Z\",\"label\":\"Tensor\","
	"\"layer\":\"a/\\u001b[5m/b\"}],"
	"\"dma_throughput\":[{\"timestamp\":5,\"transfer_rate\":1e308,"
	"\"hbm_transfer_rate\":-1e308}]}";

static struct model *open_cache(char *cache)
{
	struct model *m = model_open(cache);

	free(cache);
	if (!m)
		abort();
	return m;
}

static void done(void)
{
	model_close(small);
	model_close(hostile);
}

static void setup(void)
{
	struct import_opts o = { .quiet = 1 };
	char *json = fuzz_write("hostile.json", (const uint8_t *)hostile_json,
				strlen(hostile_json));
	char *cache = fuzz_path("hostile.nxdb");

	setlocale(LC_ALL, "C.UTF-8");
	setenv("XDG_DATA_HOME", fuzz_dir(), 1);
	setenv("NXTOP_EXPORT_DIR", fuzz_dir(), 1);
	small = open_cache(fuzz_fixture_cache("device_small.json"));
	if (import_build(json, cache, &o)) {
		fprintf(stderr, "fuzz: %s\n", err_get());
		abort();
	}
	free(json);
	hostile = open_cache(cache);
	atexit(done);
}

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
	struct model *m;
	char *text, *path;

	if (!small)
		setup();
	m = size && data[0] == '!' ? hostile : small;
	if (m == hostile) {
		data++;
		size--;
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
