/* Rule quality: the profile's own warnings, and the importer's, said
 * with what they mean for the figures and how to capture a better one. */
#include "config.h"

#include "model/analyze/rules.h"

#include <sqlite3.h>
#include <string.h>

#include "model/text.h"

struct explain {
	const char *word;	/* in the category or message */
	const char *meaning, *advice;
};

static const struct explain explains[] = {
	{ "dynamic DMA metadata",
	  "DMAs of dynamic (DGE) queues were captured without their"
	  " notifications: their variables and sizes are unknown, so DMA"
	  " figures and the reload rule undercount",
	  "capture again with --enable-dge-notifs or"
	  " NEURON_RT_ENABLE_DGE_NOTIFICATIONS=1" },
	{ "dropped",
	  "the ring buffer filled and events were lost: the timeline has"
	  " holes, and counts and busy times are low",
	  "capture a shorter run or fewer event types, so the buffer does"
	  " not fill" },
	{ "newer than",
	  "the Parquet schema is newer than this nxtop knows: renamed tables"
	  " or fields may be missing from every figure",
	  "use a newer nxtop; what was not recognised is listed in the"
	  " Warnings panel" },
};

static const struct explain *explain_of(const char *cat, const char *msg)
{
	for (size_t i = 0; i < sizeof(explains) / sizeof(*explains); i++)
		if (text_mentions(cat, explains[i].word) ||
		    text_mentions(msg, explains[i].word))
			return &explains[i];
	return NULL;
}

static void finding(struct an_ctx *c, const char *origin, const char *cat,
		    const char *msg)
{
	const struct explain *e = explain_of(cat, msg);
	const char *who = strcmp(origin, "import") ? "the profile" : "the import";

	if (e)
		an_add(c, e->advice, "%s warns [%s] \"%s\": %s", who, cat, msg,
		       e->meaning);
	else
		an_add(c, "read the profile's Warnings panel", "%s warns [%s]"
		       " \"%s\"", who, cat, msg);
}

int rule_quality(struct an_ctx *c)
{
	sqlite3_stmt *st;
	int rc, n = 0;

	if (sqlite3_prepare_v2(model_db(c->m), "SELECT origin,"
			       " coalesce(category, ''), message FROM warning"
			       " WHERE profile_id = ?1 ORDER BY id", -1, &st,
			       NULL) != SQLITE_OK)
		return model_fail(c->m, "analyze quality");
	sqlite3_bind_int64(st, 1, c->profile);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && ++n)
		finding(c, (const char *)sqlite3_column_text(st, 0),
			(const char *)sqlite3_column_text(st, 1),
			(const char *)sqlite3_column_text(st, 2));
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return model_fail(c->m, "analyze quality");
	if (!n)
		an_note(c, "no finding: neither the profile nor the import"
			" warns of missing data");
	return 0;
}
