/* The Thrift compact protocol, as much as Parquet's footer and page
 * headers need: structs, integers, binaries and lists, with unknown
 * fields skipped by type. Nesting and every length are checked against
 * the buffer, so a hostile footer cannot recurse or allocate without
 * bound. */
#include "config.h"

#include "src/parquet/pq_int.h"

void th_init(struct thrift *t, const void *buf, size_t n)
{
	t->p = t->start = buf;
	t->end = t->p + n;
	t->depth = 0;
	t->err = NULL;
}

int th_fail(struct thrift *t, const char *why)
{
	if (!t->err)
		t->err = why;
	t->p = t->end;
	return -1;
}

size_t th_offset(const struct thrift *t)
{
	return (size_t)(t->p - t->start);
}

int pq_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	uint64_t x = 0;

	for (int sh = 0; sh < 70; sh += 7) {
		if (*p >= end)
			return -1;
		uint8_t b = *(*p)++;
		if (sh == 63 && b > 1)
			return -1;
		x |= (uint64_t)(b & 0x7f) << sh;
		if (!(b & 0x80)) {
			*v = x;
			return 0;
		}
	}
	return -1;
}

static int th_varint(struct thrift *t, uint64_t *v)
{
	if (t->err)
		return -1;
	if (pq_varint(&t->p, t->end, v))
		return th_fail(t, "bad or truncated varint");
	return 0;
}

static int64_t unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

int th_begin(struct thrift *t)
{
	if (t->err)
		return -1;
	if (++t->depth > PQ_MAX_DEPTH)
		return th_fail(t, "structures nested too deep");
	return 0;
}

void th_end(struct thrift *t)
{
	t->depth--;
}

int th_field(struct thrift *t, int *last_id, int *id, int *type)
{
	uint8_t b;

	if (t->err)
		return -1;
	if (t->p >= t->end)
		return th_fail(t, "truncated structure");
	b = *t->p++;
	*type = b & 0x0f;
	if (*type == TH_STOP)
		return 0;
	if (b >> 4) {
		*id = *last_id + (b >> 4);
	} else {
		uint64_t v;

		if (th_varint(t, &v))
			return -1;
		*id = (int)unzigzag(v);
	}
	if (*type > TH_STRUCT)
		return th_fail(t, "unknown field type");
	*last_id = *id;
	return 1;
}

int th_int(struct thrift *t, int type, int64_t *v)
{
	uint64_t u;

	if (type == TH_BYTE) {
		if (t->p >= t->end)
			return th_fail(t, "truncated byte");
		*v = (int8_t)*t->p++;
		return 0;
	}
	if (type != TH_I16 && type != TH_I32 && type != TH_I64)
		return th_skip(t, type);
	if (th_varint(t, &u))
		return -1;
	*v = unzigzag(u);
	return 0;
}

int th_binary(struct thrift *t, const uint8_t **p, size_t *n)
{
	uint64_t len;

	if (th_varint(t, &len))
		return -1;
	if (len > (uint64_t)(t->end - t->p))
		return th_fail(t, "string longer than its structure");
	*p = t->p;
	*n = (size_t)len;
	t->p += len;
	return 0;
}

int th_list(struct thrift *t, int *etype, size_t *n)
{
	uint8_t b;
	uint64_t len;

	if (t->err)
		return -1;
	if (t->p >= t->end)
		return th_fail(t, "truncated list");
	b = *t->p++;
	*etype = b & 0x0f;
	len = b >> 4;
	if (len == 15 && th_varint(t, &len))
		return -1;
	/* every element takes at least one byte */
	if (len > (uint64_t)(t->end - t->p))
		return th_fail(t, "list longer than its structure");
	if (*etype == TH_STOP || *etype > TH_STRUCT)
		return th_fail(t, "unknown list element type");
	*n = (size_t)len;
	return 0;
}

static int th_skip_struct(struct thrift *t)
{
	int last = 0, id, type, r;

	if (th_begin(t))
		return -1;
	while ((r = th_field(t, &last, &id, &type)) > 0)
		if (th_skip(t, type))
			return -1;
	th_end(t);
	return r;
}

/* Booleans inside lists and maps take one byte each. */
static int one_byte(int type)
{
	return type == TH_TRUE || type == TH_FALSE ? TH_BYTE : type;
}

static int th_skip_list(struct thrift *t)
{
	int etype;
	size_t n;

	if (th_list(t, &etype, &n) || th_begin(t))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (th_skip(t, one_byte(etype)))
			return -1;
	th_end(t);
	return 0;
}

static int th_skip_map(struct thrift *t)
{
	uint64_t n;
	uint8_t kv;

	if (th_varint(t, &n))
		return -1;
	if (!n)
		return 0;
	if (t->p >= t->end || n > (uint64_t)(t->end - t->p))
		return th_fail(t, "map longer than its structure");
	kv = *t->p++;
	if (th_begin(t))
		return -1;
	for (uint64_t i = 0; i < n; i++)
		if (th_skip(t, one_byte(kv >> 4)) ||
		    th_skip(t, one_byte(kv & 0x0f)))
			return -1;
	th_end(t);
	return 0;
}

int th_skip(struct thrift *t, int type)
{
	uint64_t v;
	const uint8_t *p;
	size_t n;

	if (t->err)
		return -1;
	switch (type) {
	case TH_TRUE:
	case TH_FALSE:
		return 0;
	case TH_BYTE:
		if (t->p >= t->end)
			return th_fail(t, "truncated byte");
		t->p++;
		return 0;
	case TH_I16:
	case TH_I32:
	case TH_I64:
		return th_varint(t, &v);
	case TH_DOUBLE:
		if (t->end - t->p < 8)
			return th_fail(t, "truncated double");
		t->p += 8;
		return 0;
	case TH_BINARY:
		return th_binary(t, &p, &n);
	case TH_LIST:
	case TH_SET:
		return th_skip_list(t);
	case TH_MAP:
		return th_skip_map(t);
	case TH_STRUCT:
		return th_skip_struct(t);
	}
	return th_fail(t, "unknown field type");
}
