#include "config.h"

#include "src/pftrace/args.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "model/text.h"
#include "src/json/jsonsplit.h"
#include "src/json/jtext.h"

/* Exactly representable in a double. */
#define DOUBLE_EXACT 9007199254740992.0

static const char *ann_name(const Nxpf__DebugAnnotation *a,
			    const struct pf_seq *q, size_t *len)
{
	if (a->name_field_case == NXPF__DEBUG_ANNOTATION__NAME_FIELD_NAME &&
	    a->name) {
		*len = strlen(a->name);
		return a->name;
	}
	if (a->name_field_case == NXPF__DEBUG_ANNOTATION__NAME_FIELD_NAME_IID) {
		const struct pf_str *s = pfseq_lookup(q, PF_ANN_NAMES, a->name_iid);

		if (s) {
			*len = s->len;
			return s->s;
		}
	}
	*len = 0;
	return "";
}

static void nested_json(struct strbuf *sb, const Nxpf__DebugAnnotation__NestedValue *v,
			int depth)
{
	if (depth > PF_ARGS_MAX_DEPTH) {
		sb_adds(sb, "null");
		return;
	}
	switch (v->nested_type) {
	case 1:	/* DICT */
		sb_addc(sb, '{');
		for (size_t i = 0; i < v->n_dict_values; i++) {
			const char *k = i < v->n_dict_keys && v->dict_keys[i] ?
					v->dict_keys[i] : "";

			if (i)
				sb_addc(sb, ',');
			text_json_str(sb, k, strlen(k));
			sb_addc(sb, ':');
			nested_json(sb, v->dict_values[i], depth + 1);
		}
		sb_addc(sb, '}');
		return;
	case 2:	/* ARRAY */
		sb_addc(sb, '[');
		for (size_t i = 0; i < v->n_array_values; i++) {
			if (i)
				sb_addc(sb, ',');
			nested_json(sb, v->array_values[i], depth + 1);
		}
		sb_addc(sb, ']');
		return;
	}
	if (v->has_int_value)
		jt_i64(sb, v->int_value);
	else if (v->has_double_value)
		jt_f64(sb, v->double_value);
	else if (v->has_bool_value)
		sb_adds(sb, v->bool_value ? "true" : "false");
	else if (v->string_value)
		text_json_str(sb, v->string_value, strlen(v->string_value));
	else
		sb_adds(sb, "null");
}

static void value_json(struct strbuf *sb, const Nxpf__DebugAnnotation *a,
		       const struct pf_seq *q, int depth);

static void members_json(struct strbuf *sb, Nxpf__DebugAnnotation *const *a,
			 size_t n, const struct pf_seq *q, int depth)
{
	for (size_t i = 0; i < n; i++) {
		size_t len;
		const char *name = ann_name(a[i], q, &len);

		if (i)
			sb_addc(sb, ',');
		text_json_str(sb, name, len);
		sb_addc(sb, ':');
		value_json(sb, a[i], q, depth);
	}
}

static void value_json(struct strbuf *sb, const Nxpf__DebugAnnotation *a,
		       const struct pf_seq *q, int depth)
{
	const struct pf_str *s;

	if (depth > PF_ARGS_MAX_DEPTH) {
		sb_adds(sb, "null");
		return;
	}
	switch (a->value_case) {
	case NXPF__DEBUG_ANNOTATION__VALUE_BOOL_VALUE:
		sb_adds(sb, a->bool_value ? "true" : "false");
		return;
	case NXPF__DEBUG_ANNOTATION__VALUE_UINT_VALUE:
		jt_u64(sb, a->uint_value);
		return;
	case NXPF__DEBUG_ANNOTATION__VALUE_INT_VALUE:
		jt_i64(sb, a->int_value);
		return;
	case NXPF__DEBUG_ANNOTATION__VALUE_DOUBLE_VALUE:
		jt_f64(sb, a->double_value);
		return;
	case NXPF__DEBUG_ANNOTATION__VALUE_STRING_VALUE:
		text_json_str(sb, (const char *)a->string_value.data,
			      a->string_value.len);
		return;
	case NXPF__DEBUG_ANNOTATION__VALUE_STRING_VALUE_IID:
		s = pfseq_lookup(q, PF_ANN_STRINGS, a->string_value_iid);
		if (s)
			text_json_str(sb, s->s, s->len);
		else
			sb_adds(sb, "null");
		return;
	case NXPF__DEBUG_ANNOTATION__VALUE_POINTER_VALUE:
		sb_printf(sb, "\"0x%" PRIx64 "\"", a->pointer_value);
		return;
	case NXPF__DEBUG_ANNOTATION__VALUE_NESTED_VALUE:
		nested_json(sb, a->nested_value, depth + 1);
		return;
	case NXPF__DEBUG_ANNOTATION__VALUE_LEGACY_JSON_VALUE: {
		/* kept as JSON when it is JSON, else as a string */
		cJSON *j = a->legacy_json_value ? cJSON_Parse(a->legacy_json_value) :
			   NULL;

		if (j) {
			char *t = cJSON_PrintUnformatted(j);

			sb_adds(sb, t ? t : "null");
			cJSON_free(t);
			cJSON_Delete(j);
		} else if (a->legacy_json_value) {
			text_json_str(sb, a->legacy_json_value,
			       strlen(a->legacy_json_value));
		} else {
			sb_adds(sb, "null");
		}
		return;
	}
	default:
		break;
	}
	if (a->n_dict_entries) {
		sb_addc(sb, '{');
		members_json(sb, a->dict_entries, a->n_dict_entries, q, depth + 1);
		sb_addc(sb, '}');
	} else if (a->n_array_values) {
		sb_addc(sb, '[');
		for (size_t i = 0; i < a->n_array_values; i++) {
			if (i)
				sb_addc(sb, ',');
			value_json(sb, a->array_values[i], q, depth + 1);
		}
		sb_addc(sb, ']');
	} else if (a->has_proto_value) {
		sb_printf(sb, "\"<%zu bytes of protobuf>\"", a->proto_value.len);
	} else {
		sb_adds(sb, "null");
	}
}

void pfargs_json(struct strbuf *sb, Nxpf__DebugAnnotation *const *a, size_t n,
		 const struct pf_seq *q)
{
	size_t start;

	if (!n)
		return;
	if (sb->len) {
		sb->len--;	/* reopen the object */
		sb_addc(sb, ',');
	} else {
		sb_addc(sb, '{');
	}
	start = sb->len;
	members_json(sb, a, n, q, 0);
	if (sb->len > PF_ARGS_MAX_BYTES) {
		/* whole members only: rewrite from the start, stopping early */
		sb->len = start;
		for (size_t i = 0; i < n; i++) {
			size_t before = sb->len;

			members_json(sb, a + i, 1, q, 0);
			if (sb->len > PF_ARGS_MAX_BYTES) {
				sb->len = before;
				break;
			}
			sb_addc(sb, ',');
		}
		sb_adds(sb, "\"\xe2\x80\xa6truncated\":true");
	}
	sb_addc(sb, '}');
	sb_cstr(sb);
}

cJSON *pfargs_int(int64_t v)
{
	char buf[32];

	if (v >= -DOUBLE_EXACT && v <= DOUBLE_EXACT)
		return cJSON_CreateNumber((double)v);
	snprintf(buf, sizeof(buf), "%c%" PRId64, JSPLIT_NUMTEXT, v);
	return cJSON_CreateString(buf);
}

static cJSON *pfargs_uint(uint64_t v)
{
	char buf[32];

	if (v <= (uint64_t)DOUBLE_EXACT)
		return cJSON_CreateNumber((double)v);
	snprintf(buf, sizeof(buf), "%c%" PRIu64, JSPLIT_NUMTEXT, v);
	return cJSON_CreateString(buf);
}

/* Nested values become JSON text parsed back: rare, and it keeps one
 * way of writing them. */
static cJSON *value_cjson(const Nxpf__DebugAnnotation *a,
			  const struct pf_seq *q, struct strbuf *tmp)
{
	const struct pf_str *s;

	switch (a->value_case) {
	case NXPF__DEBUG_ANNOTATION__VALUE_BOOL_VALUE:
		return cJSON_CreateBool(a->bool_value);
	case NXPF__DEBUG_ANNOTATION__VALUE_UINT_VALUE:
		return pfargs_uint(a->uint_value);
	case NXPF__DEBUG_ANNOTATION__VALUE_INT_VALUE:
		return pfargs_int(a->int_value);
	case NXPF__DEBUG_ANNOTATION__VALUE_DOUBLE_VALUE:
		return cJSON_CreateNumber(a->double_value);
	case NXPF__DEBUG_ANNOTATION__VALUE_STRING_VALUE:
		sb_reset(tmp);
		sb_add(tmp, a->string_value.data, a->string_value.len);
		return cJSON_CreateString(sb_cstr(tmp));
	case NXPF__DEBUG_ANNOTATION__VALUE_STRING_VALUE_IID:
		s = pfseq_lookup(q, PF_ANN_STRINGS, a->string_value_iid);
		return s ? cJSON_CreateString(s->s) : cJSON_CreateNull();
	default:
		break;
	}
	sb_reset(tmp);
	value_json(tmp, a, q, 0);
	return cJSON_Parse(sb_cstr(tmp));
}

void pfargs_cjson(cJSON *obj, Nxpf__DebugAnnotation *const *a, size_t n,
		  const struct pf_seq *q)
{
	struct strbuf tmp;

	sb_init(&tmp);
	for (size_t i = 0; i < n; i++) {
		size_t len;
		const char *name = ann_name(a[i], q, &len);
		cJSON *v = value_cjson(a[i], q, &tmp);

		if (!v)
			v = cJSON_CreateNull();
		cJSON_DeleteItemFromObjectCaseSensitive(obj, name);
		cJSON_AddItemToObject(obj, name, v);
	}
	sb_free(&tmp);
}
