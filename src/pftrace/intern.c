#include "config.h"

#include "src/pftrace/intern.h"

#include <stdlib.h>
#include <string.h>

#include "model/util.h"

void pfseq_init(struct pf_seq *q, uint32_t id, size_t *total)
{
	memset(q, 0, sizeof(*q));
	q->id = id;
	q->total = total;
	for (int t = 0; t < PF_NTABLES; t++)
		u64map_init(&q->tab[t]);
}

static void str_free(void *p)
{
	struct pf_str *s = p;

	free(s->s);
	free(s);
}

void pfseq_clear(struct pf_seq *q)
{
	for (int t = 0; t < PF_NTABLES; t++)
		u64map_free(&q->tab[t], str_free);
	*q->total -= q->bytes;
	q->bytes = 0;
	q->has_clock = q->has_track = 0;
	free(q->extra_counter);
	free(q->extra_double);
	q->extra_counter = q->extra_double = NULL;
	q->n_extra_counter = q->n_extra_double = 0;
}

void pfseq_free(struct pf_seq *q)
{
	pfseq_clear(q);
}

static int put(struct pf_seq *q, enum pf_table t, uint64_t iid, const char *s,
	       size_t len)
{
	struct pf_str *v, *old;

	if (!iid)
		return 0;
	if (*q->total + len + sizeof(*v) > PF_MAX_INTERNED)
		return -1;
	v = xmalloc(sizeof(*v));
	v->s = xmalloc(len + 1);
	memcpy(v->s, s ? s : "", len);
	v->s[len] = '\0';
	v->len = len;
	v->sid = 0;
	q->bytes += len + sizeof(*v);
	*q->total += len + sizeof(*v);
	old = u64map_put(&q->tab[t], iid, v);
	if (old) {
		q->bytes -= old->len + sizeof(*old);
		*q->total -= old->len + sizeof(*old);
		str_free(old);
	}
	return 0;
}

static size_t slen(const char *s)
{
	return s ? strlen(s) : 0;
}

int pfseq_intern(struct pf_seq *q, const Nxpf__InternedData *d)
{
	int rc = 0;

	for (size_t i = 0; i < d->n_event_names; i++)
		rc |= put(q, PF_NAMES, d->event_names[i]->iid,
			  d->event_names[i]->name, slen(d->event_names[i]->name));
	for (size_t i = 0; i < d->n_event_categories; i++)
		rc |= put(q, PF_CATS, d->event_categories[i]->iid,
			  d->event_categories[i]->name,
			  slen(d->event_categories[i]->name));
	for (size_t i = 0; i < d->n_debug_annotation_names; i++)
		rc |= put(q, PF_ANN_NAMES, d->debug_annotation_names[i]->iid,
			  d->debug_annotation_names[i]->name,
			  slen(d->debug_annotation_names[i]->name));
	for (size_t i = 0; i < d->n_debug_annotation_string_values; i++) {
		const Nxpf__InternedString *v =
			d->debug_annotation_string_values[i];

		rc |= put(q, PF_ANN_STRINGS, v->iid, (const char *)v->str.data,
			  v->has_str ? v->str.len : 0);
	}
	return rc;
}

static uint64_t *copy_u64(const uint64_t *v, size_t n)
{
	uint64_t *c;

	if (!n)
		return NULL;
	c = xreallocarray(NULL, n, sizeof(*c));
	memcpy(c, v, n * sizeof(*c));
	return c;
}

void pfseq_defaults(struct pf_seq *q, const Nxpf__TracePacketDefaults *d)
{
	const Nxpf__TrackEventDefaults *te = d->track_event_defaults;

	q->has_clock = d->has_timestamp_clock_id;
	q->clock_id = d->timestamp_clock_id;
	q->has_track = te && te->has_track_uuid;
	q->track_uuid = te ? te->track_uuid : 0;
	free(q->extra_counter);
	free(q->extra_double);
	q->extra_counter = te ? copy_u64(te->extra_counter_track_uuids,
					 te->n_extra_counter_track_uuids) : NULL;
	q->n_extra_counter = te ? te->n_extra_counter_track_uuids : 0;
	q->extra_double = te ? copy_u64(te->extra_double_counter_track_uuids,
					te->n_extra_double_counter_track_uuids) :
			       NULL;
	q->n_extra_double = te ? te->n_extra_double_counter_track_uuids : 0;
}

struct pf_str *pfseq_lookup(const struct pf_seq *q, enum pf_table t,
				  uint64_t iid)
{
	return u64map_get(&q->tab[t], iid);
}
