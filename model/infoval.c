#include "config.h"

#include "model/infoval.h"

#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>

/* The value of key in a section's first record; 1 if absent, -1 on a
 * query error. */
static int first_value(struct model *m, int64_t profile, const char *section,
		       const char *key, sqlite3_stmt **out)
{
	if (sqlite3_prepare_v2(model_db(m), "SELECT value FROM info WHERE"
			       " profile_id = ?1 AND section = ?2 AND key = ?3"
			       " ORDER BY idx LIMIT 1", -1, out,
			       NULL) != SQLITE_OK)
		return model_fail(m, "info");
	sqlite3_bind_int64(*out, 1, profile);
	sqlite3_bind_text(*out, 2, section, -1, SQLITE_STATIC);
	sqlite3_bind_text(*out, 3, key, -1, SQLITE_STATIC);
	if (sqlite3_step(*out) == SQLITE_ROW)
		return 0;
	sqlite3_finalize(*out);
	return 1;
}

int infoval_int(struct model *m, int64_t profile, const char *section,
		const char *key, int64_t *out)
{
	sqlite3_stmt *st;
	int rc = first_value(m, profile, section, key, &st);
	const char *txt;
	char *end;

	if (rc)
		return rc;
	rc = 1;
	txt = (const char *)sqlite3_column_text(st, 0);
	if (sqlite3_column_type(st, 0) == SQLITE_INTEGER) {
		*out = sqlite3_column_int64(st, 0);
		rc = 0;
	} else if (sqlite3_column_type(st, 0) == SQLITE_TEXT && txt && *txt) {
		errno = 0;
		*out = strtoll(txt, &end, 10);
		rc = (*end || errno) ? 1 : 0;
	}
	sqlite3_finalize(st);
	return rc;
}

int infoval_real(struct model *m, int64_t profile, const char *section,
		 const char *key, double *out)
{
	sqlite3_stmt *st;
	int rc = first_value(m, profile, section, key, &st);
	const char *txt;
	char *end;
	int t;

	if (rc)
		return rc;
	rc = 1;
	t = sqlite3_column_type(st, 0);
	txt = (const char *)sqlite3_column_text(st, 0);
	if (t == SQLITE_INTEGER || t == SQLITE_FLOAT) {
		*out = sqlite3_column_double(st, 0);
		rc = 0;
	} else if (t == SQLITE_TEXT && txt && *txt) {
		errno = 0;
		*out = strtod(txt, &end);
		rc = (*end || errno) ? 1 : 0;
	}
	sqlite3_finalize(st);
	return rc || !isfinite(*out);
}
