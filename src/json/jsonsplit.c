#include "config.h"

#include "src/json/jsonsplit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/text.h"
#include "src/json/jtext.h"

#define BUF_SIZE (1u << 20)

enum state { ST_START, ST_OBJ_NEXT, ST_OBJ_KEY, ST_ITEMS, ST_ITEMS_NEXT,
	     ST_END, ST_DONE };

struct jsplit {
	jsplit_read_fn read;
	void *ctx;
	int fd;
	const unsigned char *mem;	/* whole input when reading memory */
	unsigned char *buf;
	size_t pos, end;
	uint64_t base;			/* file offset of buf[0] */
	int eof;
	char *name;
	enum state state;
	int root_array;
	int have_key;
	char kraw[JSPLIT_MAX_KEY];	/* the key as written */
	struct strbuf key;		/* decoded and cleaned */
	uint64_t index;
	struct strbuf rec;
	int uesc;			/* rec holds a \\u escape */
	int depth;			/* brackets open in rec */
	unsigned expect;		/* tokens rec may go on with (T_*) */
	char stack[JSPLIT_MAX_DEPTH];
};

static long fd_read(void *ctx, void *buf, size_t len)
{
	int fd = *(int *)ctx;

	for (;;) {
		ssize_t n = read(fd, buf, len);

		if (n >= 0)
			return (long)n;
		if (errno != EINTR) {
			err_set("%s", strerror(errno));
			return -1;
		}
	}
}

static struct jsplit *alloc(const char *name)
{
	struct jsplit *s = xcalloc(1, sizeof(*s));

	s->name = xstrdup(name);
	sb_init(&s->rec);
	sb_init(&s->key);
	s->state = ST_START;
	return s;
}

struct jsplit *jsplit_open(int fd, const char *name)
{
	struct jsplit *s = alloc(name);

	s->fd = fd;
	s->ctx = &s->fd;
	s->read = fd_read;
	s->buf = xmalloc(BUF_SIZE);
	return s;
}

struct jsplit *jsplit_open_reader(jsplit_read_fn fn, void *ctx,
				  const char *name)
{
	struct jsplit *s = alloc(name);

	s->read = fn;
	s->ctx = ctx;
	s->buf = xmalloc(BUF_SIZE);
	return s;
}

struct jsplit *jsplit_open_mem(const void *buf, size_t len, const char *name)
{
	struct jsplit *s = alloc(name);

	s->mem = buf;
	s->buf = (unsigned char *)buf;
	s->end = len;
	s->eof = 1;
	return s;
}

void jsplit_close(struct jsplit *s)
{
	if (!s)
		return;
	if (!s->mem)
		free(s->buf);
	sb_free(&s->rec);
	sb_free(&s->key);
	free(s->name);
	free(s);
}

/* Bytes consumed so far. */
static uint64_t jsplit_offset(const struct jsplit *s)
{
	return s->base + s->pos;
}

void *jsplit_reader_ctx(const struct jsplit *s)
{
	return s->ctx;
}

int jsplit_root_is_array(const struct jsplit *s)
{
	return s->root_array;
}

/* Where we are, for error messages: "instruction"[12]. */
static const char *where(struct jsplit *s)
{
	/* a cleaned byte takes up to 3 (U+FFFD) */
	static _Thread_local char w[3 * JSPLIT_MAX_KEY + 64];

	if (s->have_key && (s->state == ST_ITEMS || s->state == ST_ITEMS_NEXT))
		snprintf(w, sizeof(w), " in \"%s\"[%llu]", s->key.buf,
			 (unsigned long long)s->index);
	else if (s->have_key)
		snprintf(w, sizeof(w), " in \"%s\"", s->key.buf);
	else if (s->root_array)
		snprintf(w, sizeof(w), " in [%llu]",
			 (unsigned long long)s->index);
	else
		w[0] = '\0';
	return w;
}

/* The error what at byte off of the file. */
static int fail_at(struct jsplit *s, uint64_t off, const char *what)
{
	err_set("%s: byte %llu: %s%s", s->name, (unsigned long long)off, what,
		where(s));
	s->state = ST_DONE;
	return -1;
}

static int fail(struct jsplit *s, const char *what)
{
	return fail_at(s, jsplit_offset(s), what);
}

/* Make buf[pos] readable. 1: ok; 0: end of input; -1: read error. */
static int fill(struct jsplit *s)
{
	long n;

	if (s->pos < s->end)
		return 1;
	if (s->eof)
		return 0;
	s->base += s->end;
	s->pos = s->end = 0;
	n = s->read(s->ctx, s->buf, BUF_SIZE);
	if (n < 0) {
		char msg[256];

		snprintf(msg, sizeof(msg), "read error: %s", err_get());
		return fail(s, msg);
	}
	if (n == 0) {
		s->eof = 1;
		return 0;
	}
	s->end = (size_t)n;
	return 1;
}

/* Next byte that is not white space, not consumed; -1 at end, -2 error. */
static int peek_token(struct jsplit *s)
{
	for (;;) {
		int r = fill(s);

		if (r <= 0)
			return r < 0 ? -2 : -1;
		unsigned char c = s->buf[s->pos];
		if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
			s->pos++;
			continue;
		}
		return c;
	}
}

static int unexpected_end(struct jsplit *s, const char *expected)
{
	char msg[128];

	snprintf(msg, sizeof(msg), "unexpected end of file, expected %s",
		 expected);
	return fail(s, msg);
}

static int expected(struct jsplit *s, const char *what, int c)
{
	char msg[160];

	if (c >= 0x20 && c < 0x7f)
		snprintf(msg, sizeof(msg), "expected %s, found '%c'", what, c);
	else
		snprintf(msg, sizeof(msg), "expected %s, found byte 0x%02x",
			 what, c);
	return fail(s, msg);
}

/* Escapes JSON has besides \u (RFC 8259 §7). */
static int is_escape(int c)
{
	return c == '"' || c == '\\' || c == '/' || c == 'b' || c == 'f' ||
	       c == 'n' || c == 'r' || c == 't';
}

static int is_hex(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

/* A byte of a string that is not plain text (a backslash, what follows
 * one, or a raw control byte), in escape state *esc: 0 outside an
 * escape, 1 after a backslash, 2 to 5 at the hex digits of \u. 0 if
 * JSON allows it there, else the error at it: a string that is not
 * JSON is refused, never read as something it does not say. */
static int string_byte(struct jsplit *s, int c, int *esc)
{
	char msg[128];

	if (*esc == 1) {
		*esc = c == 'u' ? 2 : 0;
		if (c == 'u' || is_escape(c))
			return 0;
		return expected(s, "one of \" \\ / b f n r t u after \\ in a"
				" string", c);
	}
	if (*esc) {
		*esc = *esc == 5 ? 0 : *esc + 1;
		return is_hex(c) ? 0 :
		       expected(s, "4 hex digits after \\u in a string", c);
	}
	if (c == '\\') {
		*esc = 1;
		return 0;
	}
	snprintf(msg, sizeof(msg), "raw control byte 0x%02x in a string,"
		 " expected it escaped as \\u%04x", c, c);
	return fail(s, msg);
}

/* Copies a string token (opening quote at buf[pos]) into out, or with
 * out == NULL its text as written into s->kraw, klen bytes of it. */
static int scan_string(struct jsplit *s, struct strbuf *out, size_t *klen)
{
	int esc = 0;

	s->pos++;
	if (out)
		sb_addc(out, '"');
	for (;;) {
		int r = fill(s);

		if (r <= 0)
			return r < 0 ? -1 : unexpected_end(s, "'\"'");
		const unsigned char *p = s->buf + s->pos;
		const unsigned char *e = s->buf + s->end;
		const unsigned char *q = p;

		if (!esc) {
			while (q < e && *q != '"' && *q != '\\' && *q >= 0x20)
				q++;
		}
		if (out) {
			if (out->len + (size_t)(q - p) > JSPLIT_MAX_RECORD)
				return fail(s, "record larger than 64 MiB");
			sb_add(out, p, (size_t)(q - p));
		} else {
			size_t n = (size_t)(q - p);

			if (*klen + n > JSPLIT_MAX_KEY)
				return fail(s, "key longer than 256 bytes");
			memcpy(s->kraw + *klen, p, n);
			*klen += n;
		}
		s->pos += (size_t)(q - p);
		if (q == e)
			continue;
		unsigned char c = *q;
		if (c == '"' && !esc) {
			s->pos++;
			if (out)
				sb_addc(out, '"');
			return 0;
		}
		if (string_byte(s, c, &esc))
			return -1;
		s->pos++;
		s->uesc |= out && esc == 2;
		if (out)
			sb_addc(out, (char)c);
		else if (*klen < JSPLIT_MAX_KEY)
			s->kraw[(*klen)++] = (char)c;
		else
			return fail(s, "key longer than 256 bytes");
	}
}

/* A top-level key: its text as written, decoded ("ab\u001bcd" names
 * "ab", ESC, "cd"), and cleaned of what a terminal would act on
 * (model/text.h), as the key is quoted in messages and names tables. */
static int scan_key(struct jsplit *s)
{
	struct strbuf raw;
	size_t klen = 0;

	if (scan_string(s, NULL, &klen))
		return -1;
	sb_init(&raw);
	jt_unescape(s->kraw, klen, &raw);
	sb_reset(&s->key);
	text_sanitize_n(&s->key, raw.buf, raw.len, 0);
	sb_cstr(&s->key);
	sb_free(&raw);
	return 0;
}

static int is_num_char(int c)
{
	return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' ||
	       c == 'e' || c == 'E';
}

static int is_lower(int c)
{
	return c >= 'a' && c <= 'z';
}

/* Copies the run of bytes at pos that ok() accepts into w, NUL-ended
 * (cap bytes with the NUL): its length, -1 on a read error, -2 when it
 * does not fit. */
static long take_run(struct jsplit *s, int (*ok)(int), char *w, size_t cap)
{
	size_t n = 0;

	for (;;) {
		int r = fill(s);

		if (r < 0)
			return -1;
		if (r == 0 || !ok(s->buf[s->pos]))
			break;
		if (n + 1 >= cap)
			return -2;
		w[n++] = (char)s->buf[s->pos++];
	}
	w[n] = '\0';
	return (long)n;
}

/* A double holds every integer of up to 15 digits exactly (2^53 has
 * 16); anything longer, or with a fraction or an exponent, is kept as
 * its text. */
static int needs_text(const char *lit, size_t n)
{
	size_t digits = 0;

	for (size_t i = 0; i < n; i++) {
		if (lit[i] >= '0' && lit[i] <= '9')
			digits++;
		else if (lit[i] != '-')
			return 1;
	}
	return digits > 15;
}

/* Copies the number literal lit, which is JSON, into out: as its
 * tagged text when a double may not hold it. */
static void put_number(struct strbuf *out, const char *lit, size_t n)
{
	if (needs_text(lit, n)) {
		sb_addc(out, '"');
		sb_addc(out, JSPLIT_NUMTEXT);
		sb_add(out, lit, n);
		sb_addc(out, '"');
	} else {
		sb_add(out, lit, n);
	}
}

/* A number that is not JSON ("01", "1.", "1e+") is refused at the byte
 * where it goes wrong, never read as the number it resembles. */
static int scan_number(struct jsplit *s, struct strbuf *out)
{
	char lit[400], msg[160];
	long n = take_run(s, is_num_char, lit, sizeof(lit));
	const char *why;
	size_t at;

	if (n == -2)
		return fail(s, "number longer than 400 characters");
	if (n < 0)
		return -1;
	why = jt_number_error(lit, (size_t)n, &at);
	if (why) {
		int k = snprintf(msg, sizeof(msg), "malformed number \"%.40s\":"
				 " expected %s", lit, why);

		if (at < (size_t)n && k > 0 && (size_t)k < sizeof(msg))
			snprintf(msg + k, sizeof(msg) - (size_t)k,
				 ", found '%c'", lit[at]);
		return fail_at(s, jsplit_offset(s) - (uint64_t)n + at, msg);
	}
	put_number(out, lit, (size_t)n);
	return 0;
}

static int scan_literal(struct jsplit *s, struct strbuf *out)
{
	static const char *const words[] = { "true", "false", "null" };
	char w[6];
	long n = take_run(s, is_lower, w, sizeof(w));

	if (n == -1)
		return -1;
	for (size_t i = 0; n >= 0 && i < NX_ARRAY_SIZE(words); i++) {
		if (!strcmp(w, words[i])) {
			sb_add(out, w, (size_t)n);
			return 0;
		}
	}
	return fail(s, "expected a JSON value");
}

/* The tokens a record may go on with, as RFC 8259's grammar has it. */
enum {
	T_VALUE = 1,		/* a string, number, literal, '{' or '[' */
	T_KEY = 2,		/* a string before ':' */
	T_COLON = 4,
	T_COMMA = 8,
	T_END_OBJ = 16,		/* '}' */
	T_END_ARR = 32,		/* ']' */
};

/* What may follow a value with depth brackets open: ',' or the bracket
 * that closes the innermost; none (0) when the value is the record. */
static unsigned after_value(const struct jsplit *s, int depth)
{
	if (!depth)
		return 0;
	return T_COMMA | (s->stack[depth - 1] == '{' ? T_END_OBJ : T_END_ARR);
}

/* The tokens x, in words. */
static const char *expect_what(unsigned x)
{
	switch (x) {
	case T_VALUE:
		return "a JSON value";
	case T_VALUE | T_END_ARR:
		return "a JSON value or ']'";
	case T_KEY:
		return "a quoted key";
	case T_KEY | T_END_OBJ:
		return "a quoted key or '}'";
	case T_COLON:
		return "':'";
	case T_COMMA | T_END_OBJ:
		return "',' or '}'";
	default:
		return "',' or ']'";
	}
}

/* End of the number at p when the buffer holds all of it and it is
 * JSON, else NULL: scan_number reads it, or says what is wrong with it.
 * *text says whether it goes as tagged text. Integers, most numbers,
 * are checked in the pass that finds their end. */
static const unsigned char *number_end(const unsigned char *p,
				       const unsigned char *e, int *text)
{
	const unsigned char *d = p + (*p == '-'), *q = d;
	size_t at;

	while (q < e && *q >= '0' && *q <= '9')
		q++;
	if (q < e && is_num_char(*q)) {
		/* a fraction or an exponent */
		while (q < e && is_num_char(*q))
			q++;
		if (q == e || jt_number_error((const char *)p,
					      (size_t)(q - p), &at))
			return NULL;
		*text = 1;
		return q;
	}
	if (q == e || q == d || (*d == '0' && q - d > 1))
		return NULL;
	*text = q - d > 15;
	return q;
}

/* The closing quote of the string whose text starts at p, when the
 * buffer holds all of it and it is plain JSON; else NULL: scan_string
 * reads it (split by the buffer), or says what is wrong with it. */
static const unsigned char *string_end(struct jsplit *s,
				       const unsigned char *p,
				       const unsigned char *e)
{
	unsigned cp;

	for (; p < e; p++) {
		if (*p == '"')
			return p;
		if (*p < 0x20)
			return NULL;
		if (*p != '\\')
			continue;
		if (++p == e)
			return NULL;
		if (*p == 'u') {
			if (e - p < 5 || jt_hex4((const char *)p + 1, &cp))
				return NULL;
			s->uesc = 1;
			p += 4;
		} else if (!is_escape(*p)) {
			return NULL;
		}
	}
	return NULL;
}

/* Scans what is already buffered, copying runs of bytes into s->rec
 * in bulk and checking each token against the grammar (s->expect): a
 * record that is not JSON is refused at the token that is wrong, never
 * read as something else ([1 2] is not [12], blanks being dropped).
 * Returns 1 when the value is complete, 0 when more input or the
 * careful path (scan_token) is needed at s->pos, -1 on error. */
static int scan_fast(struct jsplit *s)
{
	const unsigned char *b = s->buf;
	const unsigned char *p = b + s->pos, *e = b + s->end, *run = p;
	unsigned x = s->expect;
	int depth = s->depth;

#define FLUSH() sb_add(&s->rec, run, (size_t)(p - run))
	while (p < e && x) {
		const unsigned char *q;
		int text;

		switch (*p) {
		case ' ':
		case '\n':
		case '\r':
		case '\t':
			FLUSH();
			while (p < e && (*p == ' ' || *p == '\n' || *p == '\r' ||
					 *p == '\t'))
				p++;
			run = p;
			continue;
		case '{':
		case '[':
			if (!(x & T_VALUE))
				goto bad;
			if (depth == JSPLIT_MAX_DEPTH)
				goto deep;
			s->stack[depth++] = (char)*p;
			x = *p++ == '{' ? T_KEY | T_END_OBJ : T_VALUE | T_END_ARR;
			continue;
		case '}':
		case ']':
			if (!(x & (*p == '}' ? T_END_OBJ : T_END_ARR)))
				goto bad;
			p++;
			x = after_value(s, --depth);
			continue;
		case ',':
			if (!(x & T_COMMA))
				goto bad;
			p++;
			x = s->stack[depth - 1] == '{' ? T_KEY : T_VALUE;
			continue;
		case ':':
			if (!(x & T_COLON))
				goto bad;
			p++;
			x = T_VALUE;
			continue;
		case '"':
			if (!(x & (T_KEY | T_VALUE)))
				goto bad;
			q = string_end(s, p + 1, e);
			if (!q)
				goto careful;
			p = q + 1;
			x = x & T_KEY ? T_COLON : after_value(s, depth);
			continue;
		case 't':
		case 'f':
		case 'n':
			goto careful;
		default:
			if (!(x & T_VALUE) || (*p != '-' && (*p < '0' || *p > '9')))
				goto bad;
			q = number_end(p, e, &text);
			if (!q)
				goto careful;
			if (text) {
				FLUSH();
				put_number(&s->rec, (const char *)p,
					   (size_t)(q - p));
				run = q;
			}
			p = q;
			x = after_value(s, depth);
			continue;
		}
	}
careful:
	FLUSH();
	s->pos = (size_t)(p - b);
	s->expect = x;
	s->depth = depth;
	if (s->rec.len > JSPLIT_MAX_RECORD)
		return fail(s, "record larger than 64 MiB");
	return !x;
deep:
	s->pos = (size_t)(p - b);
	return fail(s, "nesting deeper than 512 levels");
bad:
	s->pos = (size_t)(p - b);
	return expected(s, expect_what(x), *p);
#undef FLUSH
}

/* A string, number or literal read by the careful path (it is cut by
 * the buffer, or there is something to say about it), where the
 * grammar allows one. */
static int scan_token(struct jsplit *s, int c)
{
	unsigned x = s->expect;
	int key = c == '"' && (x & T_KEY), rc;

	if (!key && !(x & T_VALUE))
		return expected(s, expect_what(x), c);
	if (c == '"')
		rc = scan_string(s, &s->rec, NULL);
	else if (c == 't' || c == 'f' || c == 'n')
		rc = scan_literal(s, &s->rec);
	else
		rc = scan_number(s, &s->rec);
	if (rc)
		return -1;
	s->expect = key ? T_COLON : after_value(s, s->depth);
	return 0;
}

/* Copies one whole JSON value starting at the next token into s->rec. */
static int scan_value(struct jsplit *s)
{
	sb_reset(&s->rec);
	s->uesc = 0;
	s->depth = 0;
	s->expect = T_VALUE;
	for (;;) {
		int c = peek_token(s), rc;

		if (c == -2)
			return -1;
		if (c == -1)
			return unexpected_end(s, expect_what(s->expect));
		if (s->rec.len > JSPLIT_MAX_RECORD)
			return fail(s, "record larger than 64 MiB");
		if (c == '"' || c == 't' || c == 'f' || c == 'n' || c == '-' ||
		    (c >= '0' && c <= '9')) {
			if (scan_token(s, c))
				return -1;
			if (!s->expect)
				return 0;
		}
		/* brackets and separators, and runs of whole tokens */
		rc = scan_fast(s);
		if (rc)
			return rc < 0 ? -1 : 0;
	}
}

/* \u escapes that name no character (a lone surrogate, U+0000) become
 * \ufffd in place, as browsers and Perfetto read them: the record is
 * kept, and every reader of it agrees. So does \u0001, which cJSON would
 * decode into the number tag ("\u00015" read as the number 5), where
 * the Chrome scanner reads the text: every reader shows it as U+FFFD
 * anyway. Backslashes stand only in strings of a record the splitter
 * has checked. */
static void fix_escapes(char *p, size_t n)
{
	char *e = p + n;

	while ((p = memchr(p, '\\', (size_t)(e - p))) && e - p >= 2) {
		unsigned cp, lo;

		if (p[1] != 'u' || e - p < 6 || jt_hex4(p + 2, &cp)) {
			p += 2;
			continue;
		}
		if (cp >= 0xd800 && cp <= 0xdbff && e - p >= 12 &&
		    p[6] == '\\' && p[7] == 'u' && !jt_hex4(p + 8, &lo) &&
		    lo >= 0xdc00 && lo <= 0xdfff) {
			p += 12;
			continue;
		}
		if (cp == 0 || cp == JSPLIT_NUMTEXT ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			memcpy(p + 2, "fffd", 4);
		p += 6;
	}
}

static int emit(struct jsplit *s, struct jrec *r, enum jrec_kind kind,
		uint64_t offset)
{
	if (s->uesc)
		fix_escapes(s->rec.buf, s->rec.len);
	s->uesc = 0;
	r->kind = kind;
	r->key = s->have_key ? s->key.buf : NULL;
	r->index = s->index;
	r->offset = offset;
	r->text = sb_cstr(&s->rec);
	r->len = s->rec.len;
	return 1;
}

static int start(struct jsplit *s)
{
	int c;

	/* UTF-8 byte order mark */
	if (fill(s) > 0 && s->end - s->pos >= 3 &&
	    !memcmp(s->buf + s->pos, "\xef\xbb\xbf", 3))
		s->pos += 3;
	c = peek_token(s);
	if (c == -2)
		return -1;
	if (c == -1)
		return fail(s, "empty file, expected a JSON object or array");
	s->pos++;
	if (c == '{') {
		s->state = ST_OBJ_KEY;
		return 0;
	}
	if (c == '[') {
		s->root_array = 1;
		s->index = 0;
		s->state = ST_ITEMS;
		return 0;
	}
	return expected(s, "'{' or '[' at the start of a JSON file", c);
}

/* After an array element: ',' or ']'. 1 if the array ended. */
static int items_next(struct jsplit *s)
{
	int c = peek_token(s);

	if (c == -2)
		return -1;
	if (c == -1)
		return unexpected_end(s, "',' or ']'");
	s->pos++;
	if (c == ',') {
		s->index++;
		s->state = ST_ITEMS;
		return 0;
	}
	if (c == ']')
		return 1;
	s->pos--;
	return expected(s, "',' or ']'", c);
}

/* Each step of the state machine returns what jsplit_next() returns (1 a
 * record, 0 the end, -1 an error) or AGAIN to take the next step. */
enum { AGAIN = 2 };

/* After a key's ':': an array opens its items, any other value is one
 * record. */
static int obj_value(struct jsplit *s, struct jrec *r)
{
	uint64_t off;
	int c = peek_token(s);

	if (c == -2)
		return -1;
	if (c == '[') {
		off = jsplit_offset(s);
		s->pos++;
		s->index = 0;
		c = peek_token(s);
		if (c == ']') {
			/* the key's only record: at its value, as a
			 * JREC_VALUE is, so that what is said of the key
			 * points at it and not past it */
			s->pos++;
			s->state = ST_OBJ_NEXT;
			return emit(s, r, JREC_ARRAY_END, off);
		}
		s->state = ST_ITEMS;
		return AGAIN;
	}
	off = jsplit_offset(s);
	if (scan_value(s))
		return -1;
	s->state = ST_OBJ_NEXT;
	return emit(s, r, JREC_VALUE, off);
}

static int obj_key(struct jsplit *s, struct jrec *r)
{
	int c = peek_token(s);

	if (c == -2)
		return -1;
	if (c == -1)
		return unexpected_end(s, "a key or '}'");
	if (c == '}' && !s->have_key) {
		s->pos++;
		s->state = ST_END;
		return AGAIN;
	}
	if (c != '"')
		return expected(s, "a quoted key", c);
	if (scan_key(s))
		return -1;
	s->have_key = 1;
	c = peek_token(s);
	if (c == -2)
		return -1;
	if (c != ':')
		return c == -1 ? unexpected_end(s, "':'") : expected(s, "':'", c);
	s->pos++;
	return obj_value(s, r);
}

/* After a value of the root object: ',' or '}'. */
static int obj_next(struct jsplit *s)
{
	int c = peek_token(s);

	if (c == -2)
		return -1;
	if (c == -1)
		return unexpected_end(s, "',' or '}'");
	s->pos++;
	if (c == ',') {
		s->state = ST_OBJ_KEY;
		s->have_key = 0;
		/* a trailing ',' before '}' is an error */
		c = peek_token(s);
		if (c == '}')
			return expected(s, "a quoted key", c);
		return AGAIN;
	}
	if (c == '}') {
		s->have_key = 0;
		s->state = ST_END;
		return AGAIN;
	}
	s->pos--;
	return expected(s, "',' or '}'", c);
}

static int item(struct jsplit *s, struct jrec *r)
{
	uint64_t off;
	int c = peek_token(s);

	if (c == -2)
		return -1;
	if (c == ']' && s->root_array && s->index == 0) {
		s->pos++;
		s->state = ST_END;
		return emit(s, r, JREC_ARRAY_END, jsplit_offset(s));
	}
	off = jsplit_offset(s);
	if (scan_value(s))
		return -1;
	s->state = ST_ITEMS_NEXT;
	return emit(s, r, JREC_ITEM, off);
}

static int item_next(struct jsplit *s, struct jrec *r)
{
	int c = items_next(s);

	if (c < 0)
		return -1;
	if (c == 1) {
		s->index++;
		s->state = s->root_array ? ST_END : ST_OBJ_NEXT;
		return emit(s, r, JREC_ARRAY_END, jsplit_offset(s));
	}
	return AGAIN;
}

/* After the root value: only whitespace. */
static int end(struct jsplit *s)
{
	int c = peek_token(s);

	if (c == -2)
		return -1;
	if (c != -1)
		return expected(s, "end of file", c);
	s->state = ST_DONE;
	return 0;
}

static int step(struct jsplit *s, struct jrec *r)
{
	switch (s->state) {
	case ST_START:
		return start(s) ? -1 : AGAIN;
	case ST_OBJ_KEY:
		return obj_key(s, r);
	case ST_OBJ_NEXT:
		return obj_next(s);
	case ST_ITEMS:
		return item(s, r);
	case ST_ITEMS_NEXT:
		return item_next(s, r);
	case ST_END:
		return end(s);
	case ST_DONE:
		break;
	}
	return 0;
}

int jsplit_next(struct jsplit *s, struct jrec *r)
{
	int ret;

	do
		ret = step(s, r);
	while (ret == AGAIN);
	return ret;
}
