/* Fuzzes the streaming JSON splitter, the records the importers read
 * from it (cJSON in the pipe's reader) and the reading ahead of system
 * events, fed in chunks whose size the first byte chooses, so that
 * tokens are cut at every place a buffer can cut them. */
#include "config.h"

#include <string.h>

#include "tests/fuzz/fuzz.h"
#include "src/import/system.h"
#include "src/json/jsonpipe.h"
#include "src/json/jsonsplit.h"
#include "src/json/jsonval.h"

struct chunks {
	const uint8_t *p;
	size_t left, step;
};

static long chunk_read(void *ctx, void *buf, size_t len)
{
	struct chunks *c = ctx;
	size_t n = NX_MIN(NX_MIN(len, c->step), c->left);

	memcpy(buf, c->p, n);
	c->p += n;
	c->left -= n;
	return (long)n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct chunks c;
	struct jsplit *s;
	struct jpipe *pipe;
	struct strbuf sb;
	struct jrec r;
	const cJSON *v;
	void *prep;

	if (!size)
		return 0;
	c.step = (size_t)(data[0] & 0x3f) + 1;
	c.p = data + 1;
	c.left = size - 1;
	s = jsplit_open_reader(chunk_read, &c, "fuzz.json");
	pipe = jpipe_open(s, 0, sysimp_prep);
	sb_init(&sb);
	while (jpipe_next(pipe, &r, &v, &prep) == 1) {
		if (!v)
			continue;
		sb_reset(&sb);
		jv_write(&sb, v);
		sb_reset(&sb);
		jv_flatten(&sb, v);
	}
	sb_free(&sb);
	jpipe_close(pipe);
	jsplit_close(s);
	err_clear();
	return 0;
}
