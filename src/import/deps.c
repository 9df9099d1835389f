/* Dependencies of device rows, as the profile states or implies them.
 * Operands name semaphores as "S[2] (Tensor)>=1" or "$S[2]==1" (waits)
 * and "S[4] (Scalar)++@complete" or "$S[2]+=1@complete" (signals, at
 * the instruction's end); a transfer's semaphore_id "S[8] (queue)" is
 * set when it ends. */
#include "config.h"

#include "src/import/deps.h"

#include <ctype.h>
#include <string.h>

#include "model/writer/writer.h"
#include "src/json/jsonval.h"

/* Semaphores read from one operand string at most: real ones name two
 * or three, a hostile one may name thousands. */
#define MAX_SEMS 16

static int64_t end_of(int64_t ts, int64_t dur)
{
	return dur > 0 && ts <= INT64_MAX - dur ? ts + dur : ts;
}

static void dep_init(struct wdep *d, struct import *im, enum wdep_kind kind,
		     int64_t slice)
{
	memset(d, 0, sizeof(*d));
	d->kind = kind;
	d->profile = im->profile;
	d->slice = slice;
	d->ts = d->ts2 = -1;
}

static int predecessors(struct import *im, int64_t slice, const cJSON *o)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, "predecessors");
	const cJSON *p, *type;
	struct wdep d;

	if (!a)
		return 0;
	if (!cJSON_IsArray(a))
		return import_bad_field(im, "predecessors", jv_type_name(a),
					"an array of {\"id\": ...}");
	cJSON_ArrayForEach(p, a) {
		dep_init(&d, im, WD_PRED, slice);
		if (!cJSON_IsObject(p))
			return import_bad_field(im, "predecessors[]",
						jv_type_name(p), "an object");
		if (import_opt_id(im, cJSON_GetObjectItemCaseSensitive(p, "id"),
				  "predecessors.id", &d.key))
			return -1;
		if (!d.key.set)
			return import_fail(im, im->rec, "a predecessor without"
					   " \"id\"");
		type = cJSON_GetObjectItemCaseSensitive(p, "type");
		d.type = cJSON_IsString(type) && *type->valuestring ?
			  type->valuestring : NULL;
		writer_dep(im->w, &d);
	}
	return 0;
}

/* One semaphore at s ("S[" just read before it): its number into sem,
 * then what follows: a wait ('=' or '>' with its value) or a signal
 * ('+'), else 0. Returns where scanning goes on. */
static const char *sem_at(const char *s, char *sem, size_t len, int *op,
			  int64_t *value)
{
	size_t n = 0;

	*op = 0;
	while (isdigit((unsigned char)s[n]) && n + 1 < len) {
		sem[n] = s[n];
		n++;
	}
	sem[n] = 0;
	if (!n || s[n] != ']')
		return s + n;
	s += n + 1;
	if (s[0] == ' ' && s[1] == '(' && (s = strchr(s, ')')))
		s++;
	if (!s)
		return "";
	if ((s[0] == '=' || s[0] == '>') && s[1] == '=' &&
	    isdigit((unsigned char)s[2])) {
		*op = s[0];
		*value = 0;
		for (s += 2; isdigit((unsigned char)*s); s++)
			if (*value < INT64_MAX / 10 - 9)
				*value = *value * 10 + (*s - '0');
	} else if (s[0] == '+' && (s[1] == '+' || s[1] == '=')) {
		*op = '+';
		s += 2;
	}
	return s;
}

static void semaphores(struct import *im, int64_t slice, const char *ops,
		       int64_t wait_end, int64_t end)
{
	char sem[24];
	struct wdep d;
	int found = 0;

	for (const char *s = ops; s && (s = strstr(s, "S[")) &&
	     found < MAX_SEMS;) {
		int op;
		int64_t value = 0;

		/* "$S[" or "S[" standing alone, not inside a longer name */
		if (s > ops && s[-1] != '$' && !isspace((unsigned char)s[-1])) {
			s += 2;
			continue;
		}
		s = sem_at(s + 2, sem, sizeof(sem), &op, &value);
		if (!op)
			continue;
		dep_init(&d, im, op == '+' ? WD_SIGNAL : WD_WAIT, slice);
		d.sem = sem;
		d.op = op;
		d.value = value;
		d.ts = op == '+' ? end : wait_end;
		writer_dep(im->w, &d);
		found++;
	}
}

int deps_instruction(struct import *im, int64_t slice, const cJSON *o,
		     int64_t ts, int64_t dur, const char *opcode,
		     const char *operands)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "trigger");
	const char *tname = "trigger";
	struct wdep d;

	if (!slice)
		return 0;
	if (!t) {
		tname = "dma_trigger_start_ts";
		t = cJSON_GetObjectItemCaseSensitive(o, tname);
	}
	dep_init(&d, im, WD_TRIGGERED, slice);
	if (predecessors(im, slice, o) ||
	    import_opt_i64(im, t, tname, FIELD_NEG_ABSENT, &d.ts))
		return -1;
	if (d.ts >= 0)
		writer_dep(im->w, &d);
	/* an EVENT_SEMAPHORE is the wait itself; other instructions wait
	 * before they start */
	if (operands)
		semaphores(im, slice, operands,
			   opcode && !strcmp(opcode, "EVENT_SEMAPHORE") ?
			   end_of(ts, dur) : ts, end_of(ts, dur));
	return 0;
}

int deps_dma(struct import *im, int64_t slice, const struct wdma *dma,
	     int64_t ts, int64_t dur, const cJSON *o)
{
	struct wdep d;
	char sem[24];
	int op;
	int64_t value;
	const char *s;

	if (!slice)
		return 0;
	if (!dma->aggregated) {
		if (!dma->packet_aggregation_id.set)
			return 0;
		dep_init(&d, im, WD_PACKET, slice);
		d.key = dma->packet_aggregation_id;
		writer_dep(im->w, &d);
		return 0;
	}
	if (dma->trigger_ts >= 0) {
		dep_init(&d, im, WD_TRIGGER, slice);
		d.ts = dma->trigger_ts;
		d.value = ts;
		if (import_opt_i64(im, cJSON_GetObjectItemCaseSensitive(o,
				   "completion"), "completion", FIELD_NEG_ABSENT,
				   &d.ts2))
			return -1;
		writer_dep(im->w, &d);
	}
	s = dma->semaphore_id ? strstr(dma->semaphore_id, "S[") : NULL;
	if (s) {
		sem_at(s + 2, sem, sizeof(sem), &op, &value);
		if (*sem) {
			dep_init(&d, im, WD_SIGNAL, slice);
			d.sem = sem;
			d.ts = end_of(ts, dur);
			writer_dep(im->w, &d);
		}
	}
	return 0;
}

int deps_flow_row(struct import *im, const cJSON *o)
{
	struct wdep d;

	dep_init(&d, im, WD_ROW, 0);
	if (import_opt_id(im, cJSON_GetObjectItemCaseSensitive(o, "out_id"),
			  "out_id", &d.key) ||
	    import_opt_id(im, cJSON_GetObjectItemCaseSensitive(o, "in_id"),
			  "in_id", &d.key2) ||
	    import_opt_str(im, cJSON_GetObjectItemCaseSensitive(o, "out_table"),
			   "out_table", FIELD_EMPTY_ABSENT, &d.table, NULL, 0) ||
	    import_opt_str(im, cJSON_GetObjectItemCaseSensitive(o, "in_table"),
			   "in_table", FIELD_EMPTY_ABSENT, &d.table2, NULL, 0) ||
	    import_opt_str(im, cJSON_GetObjectItemCaseSensitive(o,
			   "dependency_type"), "dependency_type",
			   FIELD_EMPTY_ABSENT, &d.type, NULL, 0))
		return -1;
	if (!d.key.set || !d.key2.set)
		return import_fail(im, im->rec, "missing \"%s\"",
				   d.key.set ? "in_id" : "out_id");
	writer_dep(im->w, &d);
	return 0;
}
