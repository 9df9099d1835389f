/* The footer's FileMetaData: the schema elements, the row groups and
 * their column chunks. Statistics, page indexes, bloom filters and
 * key/value metadata are skipped; so is every field this reader does
 * not know. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "src/parquet/pq_int.h"

/* TimeUnit: MILLIS 1, MICROS 2, NANOS 3 (empty structs). */
static int parse_unit(struct thrift *t, int *unit)
{
	int last = 0, id, type, r;

	if (th_begin(t))
		return -1;
	while ((r = th_field(t, &last, &id, &type)) > 0) {
		if (type == TH_STRUCT && id >= 1 && id <= 3)
			*unit = id * 3;
		if (th_skip(t, type))
			return -1;
	}
	th_end(t);
	return r;
}

/* DECIMAL, TIME, TIMESTAMP and INTEGER carry parameters. */
static int parse_logical_args(struct thrift *t, int kind,
			      struct pq_schema_el *el)
{
	int last = 0, id, type, r;
	int64_t v = 0;

	if (th_begin(t))
		return -1;
	while ((r = th_field(t, &last, &id, &type)) > 0) {
		if ((kind == 7 || kind == 8) && id == 2 && type == TH_STRUCT) {
			r = parse_unit(t, &el->unit);
		} else if (kind == 10 && id == 2) {
			el->is_signed = type == TH_TRUE;
			r = 0;
		} else if ((kind == 5 || kind == 10) && id <= 2) {
			r = th_int(t, type, &v);
			if (kind == 10)
				el->bit_width = (int)v;
			else if (id == 1)
				el->scale = (int)v;
			else
				el->precision = (int)v;
		} else {
			r = th_skip(t, type);
		}
		if (r)
			return -1;
	}
	th_end(t);
	return r;
}

static enum pq_logical logical_of(int id)
{
	switch (id) {
	case 1: return PQ_L_STRING;
	case 4: return PQ_L_ENUM;
	case 5: return PQ_L_DECIMAL;
	case 6: return PQ_L_DATE;
	case 7: return PQ_L_TIME;
	case 8: return PQ_L_TIMESTAMP;
	case 10: return PQ_L_INT;
	case 12: return PQ_L_JSON;
	case 14: return PQ_L_UUID;
	}
	return PQ_L_OTHER;
}

/* The LogicalType union: one struct field whose id says the kind. */
static int parse_logical(struct thrift *t, struct pq_schema_el *el)
{
	int last = 0, id, type, r;

	if (th_begin(t))
		return -1;
	while ((r = th_field(t, &last, &id, &type)) > 0) {
		if (type != TH_STRUCT) {
			r = th_skip(t, type);
		} else {
			el->logical = logical_of(id);
			r = parse_logical_args(t, id, el);
		}
		if (r)
			return -1;
	}
	th_end(t);
	return r;
}

static int parse_el_field(struct thrift *t, int id, int type,
			  struct pq_schema_el *el)
{
	const uint8_t *s;
	size_t n;
	int64_t v = -1;
	int r;

	if (id == 4 && type == TH_BINARY) {
		if (th_binary(t, &s, &n))
			return -1;
		free(el->name);
		el->name = xstrndup((const char *)s, n);
		return 0;
	}
	if (id == 10 && type == TH_STRUCT)
		return parse_logical(t, el);
	if (id > 8)
		return th_skip(t, type);
	r = th_int(t, type, &v);
	if (v < INT32_MIN || v > INT32_MAX)
		return th_fail(t, "schema number out of range");
	switch (id) {
	case 1: el->type = (int)v; break;
	case 2: el->type_length = (int)v; break;
	case 3: el->repetition = (int)v; break;
	case 5: el->num_children = (int)v; break;
	case 6: el->converted = (int)v; break;
	case 7: el->scale = (int)v; break;
	case 8: el->precision = (int)v; break;
	}
	return r;
}

static int parse_el(struct thrift *t, struct pq_schema_el *el)
{
	int last = 0, id, type, r;

	memset(el, 0, sizeof(*el));
	el->type = el->converted = -1;
	if (th_begin(t))
		return -1;
	while ((r = th_field(t, &last, &id, &type)) > 0)
		if (parse_el_field(t, id, type, el))
			return -1;
	th_end(t);
	if (!r && !el->name)
		return th_fail(t, "schema element without a name");
	return r;
}

/* path_in_schema: a list of names, joined with dots. */
static int parse_path(struct thrift *t, struct pq_chunk *ch)
{
	struct strbuf sb;
	int etype;
	size_t n, len;
	const uint8_t *s;

	if (th_list(t, &etype, &n))
		return -1;
	if (etype != TH_BINARY)
		return th_fail(t, "path_in_schema is not a list of strings");
	sb_init(&sb);
	for (size_t i = 0; i < n; i++) {
		if (th_binary(t, &s, &len)) {
			sb_free(&sb);
			return -1;
		}
		if (i)
			sb_addc(&sb, '.');
		sb_add(&sb, s, len);
	}
	free(ch->path);
	ch->path = sb_detach(&sb);
	return 0;
}

static int parse_colmeta(struct thrift *t, struct pq_chunk *ch)
{
	int last = 0, id, type, r;
	int64_t v, data = -1, dict = -1;

	if (th_begin(t))
		return -1;
	while ((r = th_field(t, &last, &id, &type)) > 0) {
		v = -1;
		if (id == 3 && type == TH_LIST)
			r = parse_path(t, ch);
		else if (id == 1 || id == 4 || id == 5 || id == 7 || id == 9 ||
			 id == 11)
			r = th_int(t, type, &v);
		else
			r = th_skip(t, type);
		if (r)
			return -1;
		switch (id) {
		case 1: ch->type = (int)v; break;
		case 4: ch->codec = (int)v; break;
		case 5: ch->num_values = v; break;
		case 7: ch->compressed = v; break;
		case 9: data = v; break;
		case 11: dict = v; break;
		}
	}
	th_end(t);
	/* a dictionary offset of 0 (the magic) means none */
	ch->start = dict > 0 && dict < data ? dict : data;
	return r;
}

static int parse_chunk(struct thrift *t, struct pq_chunk *ch)
{
	int last = 0, id, type, r, has_meta = 0;

	memset(ch, 0, sizeof(*ch));
	ch->start = ch->num_values = ch->compressed = ch->type = -1;
	if (th_begin(t))
		return -1;
	while ((r = th_field(t, &last, &id, &type)) > 0) {
		if (id == 1 && type == TH_BINARY) {
			ch->has_external = 1;
			r = th_skip(t, type);
		} else if (id == 3 && type == TH_STRUCT) {
			has_meta = 1;
			r = parse_colmeta(t, ch);
		} else {
			r = th_skip(t, type);
		}
		if (r)
			return -1;
	}
	th_end(t);
	if (!r && !has_meta)
		return th_fail(t, "column chunk without metadata");
	return r;
}

static int parse_chunks(struct thrift *t, struct pq_rowgroup *rg)
{
	int etype;
	size_t n;

	if (th_list(t, &etype, &n))
		return -1;
	if (etype != TH_STRUCT)
		return th_fail(t, "row group columns are not structures");
	if (rg->chunks || n > PQ_MAX_SCHEMA)
		return th_fail(t, "too many column chunks in a row group");
	rg->chunks = xcalloc(n ? n : 1, sizeof(*rg->chunks));
	for (size_t i = 0; i < n; i++) {
		rg->nchunks = (int)i + 1;
		if (parse_chunk(t, &rg->chunks[i]))
			return -1;
	}
	return 0;
}

static int parse_rowgroup(struct thrift *t, struct pq_rowgroup *rg)
{
	int last = 0, id, type, r;

	rg->num_rows = -1;
	if (th_begin(t))
		return -1;
	while ((r = th_field(t, &last, &id, &type)) > 0) {
		if (id == 1 && type == TH_LIST)
			r = parse_chunks(t, rg);
		else if (id == 3)
			r = th_int(t, type, &rg->num_rows);
		else
			r = th_skip(t, type);
		if (r)
			return -1;
	}
	th_end(t);
	return r;
}

static int parse_rowgroups(struct thrift *t, struct pq_file *f)
{
	int etype;
	size_t n;

	if (th_list(t, &etype, &n))
		return -1;
	if (etype != TH_STRUCT)
		return th_fail(t, "row groups are not structures");
	if (f->rgs || n > INT32_MAX)
		return th_fail(t, "more than one list of row groups");
	/* each row group takes at least 2 bytes: no allocation beyond that */
	f->rgs = xcalloc(n ? n : 1, sizeof(*f->rgs));
	for (size_t i = 0; i < n; i++) {
		f->nrg = (int)i + 1;
		if (parse_rowgroup(t, &f->rgs[i]))
			return -1;
	}
	return 0;
}

struct schema_list {
	struct pq_schema_el *el;
	size_t n;
};

static int parse_schema(struct thrift *t, struct schema_list *s)
{
	int etype;
	size_t n;

	if (th_list(t, &etype, &n))
		return -1;
	if (etype != TH_STRUCT)
		return th_fail(t, "schema is not a list of structures");
	if (s->el || n > PQ_MAX_SCHEMA)
		return th_fail(t, "too many schema elements");
	s->el = xcalloc(n ? n : 1, sizeof(*s->el));
	for (size_t i = 0; i < n; i++) {
		s->n = i + 1;
		if (parse_el(t, &s->el[i]))
			return -1;
	}
	return 0;
}

static int parse_file(struct thrift *t, struct pq_file *f,
		      struct schema_list *s)
{
	int last = 0, id, type, r;
	const uint8_t *p;
	size_t n;

	f->num_rows = -1;
	if (th_begin(t))
		return -1;
	while ((r = th_field(t, &last, &id, &type)) > 0) {
		if (id == 2 && type == TH_LIST) {
			r = parse_schema(t, s);
		} else if (id == 3) {
			r = th_int(t, type, &f->num_rows);
		} else if (id == 4 && type == TH_LIST) {
			r = parse_rowgroups(t, f);
		} else if (id == 6 && type == TH_BINARY) {
			r = th_binary(t, &p, &n);
			if (!r && !f->created_by)
				f->created_by = xstrndup((const char *)p, n);
		} else {
			r = th_skip(t, type);
		}
		if (r)
			return -1;
	}
	th_end(t);
	return r;
}

/* The byte range of a chunk lies before the footer. */
static int check_chunk(struct pq_file *f, int rg, int c, uint64_t limit)
{
	const struct pq_chunk *ch = &f->rgs[rg].chunks[c];
	const struct pq_column *col = &f->cols[c];
	char path[128];

	pq_clean(path, sizeof(path), col->path, strlen(col->path));
	if (!ch->path || strcmp(ch->path, col->path) || ch->type != (int)col->type) {
		pq_fail(f, "row group %d: column chunk %d does not match column '%s'"
			" of the schema", rg, c, path);
		return -1;
	}
	if (ch->start < 4 || ch->compressed < 0 || ch->num_values < 0 ||
	    (uint64_t)ch->start > limit ||
	    (uint64_t)ch->compressed > limit - (uint64_t)ch->start) {
		pq_fail(f, "row group %d: column '%s': pages at byte %lld, %lld"
			" bytes, lie outside the data (%llu bytes)", rg, path,
			(long long)ch->start, (long long)ch->compressed,
			(unsigned long long)limit);
		return -1;
	}
	return 0;
}

/* Row groups agree with the schema and the file's row count. */
static int check_rowgroups(struct pq_file *f, uint64_t limit)
{
	int64_t rows = 0;

	if (f->num_rows < 0) {
		pq_fail(f, "footer: no or negative row count");
		return -1;
	}
	for (int i = 0; i < f->nrg; i++) {
		const struct pq_rowgroup *rg = &f->rgs[i];

		if (rg->num_rows < 0 || rg->num_rows > f->num_rows - rows) {
			pq_fail(f, "row group %d: row count %lld is negative or"
				" beyond the file's %lld", i,
				(long long)rg->num_rows, (long long)f->num_rows);
			return -1;
		}
		rows += rg->num_rows;
		if (rg->nchunks != f->ncols) {
			pq_fail(f, "row group %d: %d column chunks for %d columns",
				i, rg->nchunks, f->ncols);
			return -1;
		}
		for (int c = 0; c < f->ncols; c++)
			if (check_chunk(f, i, c, limit))
				return -1;
	}
	if (rows != f->num_rows) {
		pq_fail(f, "row groups hold %lld rows, the file says %lld",
			(long long)rows, (long long)f->num_rows);
		return -1;
	}
	return 0;
}

int pq_meta_parse(struct pq_file *f, const uint8_t *buf, size_t n)
{
	struct thrift t;
	struct schema_list s = { NULL, 0 };
	int rc;

	th_init(&t, buf, n);
	rc = parse_file(&t, f, &s);
	if (rc) {
		pq_fail(f, "footer: byte %zu: %s", th_offset(&t),
			t.err ? t.err : "bad metadata");
		pq_schema_free_els(s.el, s.n);
		return -1;
	}
	rc = pq_schema_build(f, s.el, s.n);
	pq_schema_free_els(s.el, s.n);
	if (rc)
		return -1;
	/* pages lie between the head magic and the footer */
	return check_rowgroups(f, f->size - 8 - n);
}

void pq_meta_free(struct pq_file *f)
{
	for (int i = 0; i < f->nrg; i++) {
		for (int c = 0; c < f->rgs[i].nchunks; c++)
			free(f->rgs[i].chunks[c].path);
		free(f->rgs[i].chunks);
	}
	free(f->rgs);
	free(f->created_by);
	f->rgs = NULL;
	f->nrg = 0;
}
