/* Numbers from a profile's own sections (summary, metadata): what the
 * analysis rules and the performance bounds read the profile's figures
 * with. */
#ifndef NX_INFOVAL_H
#define NX_INFOVAL_H

#include <stdint.h>

#include "model/model.h"

/* The value of key in the first record of a section: 0 with *out set;
 * 1 if absent or not a number (integers may arrive as strings of
 * digits); -1 on a query error. */
int infoval_int(struct model *m, int64_t profile, const char *section,
		const char *key, int64_t *out);
int infoval_real(struct model *m, int64_t profile, const char *section,
		 const char *key, double *out);

#endif
