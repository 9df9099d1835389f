#include "config.h"

#include "src/json/jtext.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/text.h"

int jt_hex4(const char *p, unsigned *out)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

void jt_i64(struct strbuf *sb, int64_t v)
{
	sb_printf(sb, "%" PRId64, v);
}

void jt_u64(struct strbuf *sb, uint64_t v)
{
	sb_printf(sb, "%" PRIu64, v);
}

void jt_f64(struct strbuf *sb, double v)
{
	char buf[32];

	if (!isfinite(v)) {
		sb_adds(sb, "null");
		return;
	}
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	sb_adds(sb, buf);
}
