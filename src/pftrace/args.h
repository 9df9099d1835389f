/* Perfetto debug annotations as slice args: a JSON object for generic
 * tracks, or a cJSON object for Neuron tracks whose fields feed typed
 * rows. Names and string values may be interned on the sequence. Nesting
 * is bounded, and every string ends up valid JSON whatever its bytes. */
#ifndef NX_PF_ARGS_H
#define NX_PF_ARGS_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "model/util.h"
#include "src/pftrace/intern.h"
#include "proto/nxpf_trace.pb-c.h"

/* Deeper nesting is written as null. */
#define PF_ARGS_MAX_DEPTH 32
/* Args text beyond this many bytes is cut (marked "…truncated": true). */
#define PF_ARGS_MAX_BYTES (1u << 20)

/* Appends the annotations as members to an args object in sb: "" becomes
 * {...}; an existing {...} gets the new members before its '}'. */
void pfargs_json(struct strbuf *sb, Nxpf__DebugAnnotation *const *a, size_t n,
		 const struct pf_seq *q);

/* Adds the annotations as members of obj. 64-bit integers that a double
 * cannot hold are tagged strings (see src/json/jsonsplit.h), as src/json/jsonval.h reads. */
void pfargs_cjson(cJSON *obj, Nxpf__DebugAnnotation *const *a, size_t n,
		  const struct pf_seq *q);

/* An integer as a cJSON value: a number if a double holds it exactly,
 * else a tagged string. */
cJSON *pfargs_int(int64_t v);

#endif
