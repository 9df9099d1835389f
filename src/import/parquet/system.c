/* A Neuron Explorer system profile folder (FORMATS.md §1.5, §1.5a):
 * SystemProfileEvents.parquet, DeviceProfileList.parquet, CpuUsage,
 * HostMemUsage, SystemProfileHbmUsage, Warning, SystemProfileMetadata,
 * whichever exist. Each row is renamed into the record the system JSON
 * export writes for it and goes through the JSON importer's system
 * handlers (src/import/system.c), so both formats give the same rows.
 * The device profiles it lists are sibling folders, brought in by the
 * bundle code (src/import/bundle.c). */
#include "config.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/util.h"
#include "src/import/formats.h"
#include "src/import/neuron.h"
#include "src/import/parquet/folder.h"
#include "src/import/parquet/rows.h"
#include "src/json/jsonsplit.h"

/* Rows, and values, of a table nxtop does not know kept in its info
 * table at most. */
#define MAX_INFO_ROWS 10000
#define MAX_INFO_CELLS 1000000

/* Device profile names a plan takes from the list, at most (a bundle
 * imports no more device profiles than this). */
#define MAX_LISTED 4096

/* Parquet's nc_idx is the logical NeuronCore (the JSON's lnc_idx), its
 * pcore_idx the physical core of the device (the JSON's
 * device_core_idx). */
static const struct pqrename event_names[] = {
	{ "start_ts", "timestamp" }, { "duration_ns", "duration" },
	{ "end_ts", NULL }, { "nc_idx", "lnc_idx" },
	{ "pcore_idx", "device_core_idx" }, { NULL, NULL },
};

static const struct pqrename cpu_names[] = {
	{ "util_percent", "util" }, { NULL, NULL },
};

static const struct pqrename mem_names[] = {
	{ "used_bytes", "usage" }, { "used_percent", "percent_usage" },
	{ NULL, NULL },
};

/* Documented columns (§1.5) besides the renamed ones: the others of a
 * file are listed in a warning. */
static const struct pqrename event_doc[] = {
	{ "id", 0 }, { "name", 0 }, { "trace_event_source", 0 },
	{ "instance_id", 0 }, { "process_id", 0 }, { "thread_id", 0 },
	{ "worker_gid", 0 }, { "flow_id", 0 }, { "framework_stream_id", 0 },
	{ "extra_attributes_json", 0 }, { NULL, NULL },
};

static const struct pqrename sample_doc[] = {
	{ "timestamp", 0 }, { "cpu_id", 0 }, { "instance_id", 0 },
	{ NULL, NULL },
};

struct sysspec {
	const char *table, *section;
	const struct pqrename *names, *doc;
	const char *required;	/* a column the table needs, or NULL */
	const char *unknown;	/* what becomes of the columns not in doc */
};

/* The list first: a bad one fails before the events are read. */
static const struct sysspec specs[] = {
	{ "SystemProfileMetadata", "system_profile_metadata", NULL, NULL, NULL,
	  NULL },
	{ "DeviceProfileList", "device_profile_list", NULL, NULL,
	  "device_profile_name", NULL },
	{ "SystemProfileEvents", "trace_event", event_names, event_doc,
	  "start_ts", "kept with each event" },
	{ "CpuUsage", "cpu_util", cpu_names, sample_doc, "timestamp",
	  "not read" },
	{ "HostMemUsage", "mem_usage", mem_names, sample_doc, "timestamp",
	  "not read" },
	{ "SystemProfileHbmUsage", "device_mem_usage", NULL, NULL, "timestamp",
	  NULL },
	{ "Warning", "warnings", NULL, NULL, NULL, NULL },
};

struct sysfolder {
	struct import *im;
	struct neuron *n;
	struct pqfolder folder;
	const char *user_dir;	/* the folder as named to the user */
	char *file_name;	/* "<folder>/<file>" of the table read */
};

static const struct sysspec *spec_of(const char *table)
{
	for (size_t i = 0; i < NX_ARRAY_SIZE(specs); i++)
		if (!strcmp(specs[i].table, table))
			return &specs[i];
	return NULL;
}

static void name_file(struct sysfolder *f, const char *file)
{
	free(f->file_name);
	f->file_name = xasprintf("%s/%s", f->user_dir, pqfolder_base(file));
	f->im->name = f->file_name;
}

/* The members of extra_attributes_json (JSON inside a string: model_id,
 * parent_id, ...), lent to a row behind its own columns. */
struct extra {
	cJSON *obj;		/* parsed; NULL: none */
	cJSON *row, *last;	/* the row, and its last member before */
};

static int extra_lend(struct sysfolder *f, cJSON *row, const struct jrec *rec,
		      struct extra *x)
{
	cJSON *v = cJSON_GetObjectItemCaseSensitive(row, "extra_attributes_json");

	memset(x, 0, sizeof(*x));
	if (!v)
		return 0;
	cJSON_DetachItemViaPointer(row, v);
	if (!cJSON_IsString(v) || !*v->valuestring)
		return 0;
	x->obj = cJSON_Parse(v->valuestring);
	if (!cJSON_IsObject(x->obj)) {
		cJSON_Delete(x->obj);
		x->obj = NULL;
		return import_fail(f->im, rec, "\"extra_attributes_json\" is not"
				   " a JSON object");
	}
	/* the columns win over attributes of the same name */
	for (cJSON *c = row->child; c; c = c->next)
		cJSON_DeleteItemFromObjectCaseSensitive(x->obj, c->string);
	if (!x->obj->child)
		return 0;
	x->row = row;
	for (x->last = row->child; x->last && x->last->next; x->last = x->last->next)
		;
	if (x->last)
		x->last->next = x->obj->child;
	else
		row->child = x->obj->child;
	return 0;
}

/* Gives the lent members back and frees them. */
static void extra_return(struct extra *x)
{
	if (x->row && x->last)
		x->last->next = NULL;
	else if (x->row)
		x->row->child = NULL;
	cJSON_Delete(x->obj);
}

/* One row through the JSON handlers. */
static int one_row(struct sysfolder *f, struct pqrows *r, cJSON *row,
		   const char *section)
{
	struct jrec rec = { .kind = JREC_ITEM, .key = section,
			    .index = pqrows_index(r), .offset = IMPORT_AT_ROW };
	struct extra x;
	int rc;

	if (extra_lend(f, row, &rec, &x))
		return -1;
	rc = neuron_record(f->n, &rec, row);
	extra_return(&x);
	return rc;
}

static void capped(struct sysfolder *f, const struct pqtable *t,
		   uint64_t rows)
{
	char *msg = xasprintf("table \"%s\": only its first %" PRIu64 " rows"
			      " are kept in its info table", t->name, rows);

	writer_warning(f->im->w, f->im->profile, "import", "Import", msg);
	free(msg);
}

/* The columns of a part file nxtop does not know, in one warning. */
static void unknown_columns(struct sysfolder *f, const struct sysspec *sp,
			    struct pqrows *r)
{
	struct strbuf names;
	char *msg;

	sb_init(&names);
	pqrows_unmapped(r, sp->names, sp->doc, &names);
	if (names.len) {
		msg = xasprintf("%s: columns nxtop does not know, %s: %s",
				pqfolder_base(pqrows_file(r)), sp->unknown,
				sb_cstr(&names));
		writer_warning(f->im->w, f->im->profile, "import", "Import", msg);
		free(msg);
	}
	sb_free(&names);
}

/* Every row of one table. */
static int read_table(struct sysfolder *f, const struct pqtable *t,
		      const struct sysspec *sp)
{
	struct pqrows *r = pqrows_open(t, sp ? sp->names : NULL);
	const char *open_file = NULL;
	cJSON *row;
	int rc;

	name_file(f, t->files[0]);
	neuron_set_table(f->n, t->name);
	f->im->renames = sp ? sp->names : NULL;
	while ((rc = pqrows_next(r, &row)) == 1) {
		if (pqrows_file(r) != open_file) {
			open_file = pqrows_file(r);
			name_file(f, open_file);
			if (sp && sp->required && !pqrows_has(r, sp->required))
				break;
			if (sp && sp->doc)
				unknown_columns(f, sp, r);
		}
		if (!sp && (pqrows_index(r) >= MAX_INFO_ROWS ||
			    pqrows_index(r) * (uint64_t)pqrows_columns(r) >=
			    MAX_INFO_CELLS)) {
			capped(f, t, pqrows_index(r));
			rc = 0;
			break;
		}
		if (one_row(f, r, row, sp ? sp->section : t->name) ||
		    writer_failed(f->im->w))
			break;
		if (pqrows_index(r) % 65536 == 0)
			import_progress(f->im, 0);
	}
	if (rc == 1 && sp && sp->required && !pqrows_has(r, sp->required))
		import_fail(f->im, NULL, "no column \"%s\" (the %s table needs"
			    " it)", sp->required, sp->table);
	if (rc < 0) {
		/* the reader's error: said with the file it was reading */
		name_file(f, pqrows_file(r));
		import_fail(f->im, NULL, "%s", err_get());
	}
	pqrows_close(r);
	neuron_set_table(f->n, NULL);
	f->im->renames = NULL;
	return rc == 0 ? 0 : -1;
}

/* A table the profile can do without is left out with a warning when
 * it cannot be read: the rest is still worth showing. */
static int optional_failed(struct sysfolder *f, const struct pqtable *t)
{
	char *msg = xasprintf("%s (the %s table is left out)", err_get(),
			      t->name);

	writer_warning(f->im->w, f->im->profile, "import", "Import", msg);
	free(msg);
	return 0;
}

static int is_essential(const char *table)
{
	return !strcmp(table, "SystemProfileEvents") ||
	       !strcmp(table, "DeviceProfileList");
}

/* The known tables in their order, then the others, kept as info
 * tables and listed by the summary. */
static int read_tables(struct sysfolder *f)
{
	const struct pqtable *t;

	for (size_t i = 0; i < NX_ARRAY_SIZE(specs); i++) {
		t = pqfolder_find(&f->folder, specs[i].table);
		if (t && read_table(f, t, &specs[i])) {
			if (is_essential(t->name) || writer_failed(f->im->w))
				return -1;
			optional_failed(f, t);
		}
	}
	for (size_t i = 0; i < f->folder.n; i++) {
		t = &f->folder.tables[i];
		if (!spec_of(t->name) && read_table(f, t, NULL)) {
			if (writer_failed(f->im->w))
				return -1;
			optional_failed(f, t);
		}
	}
	return 0;
}

int import_parquet_system(struct import *im)
{
	struct wprofile p = { .kind = "system", .format = "neuron-system-parquet",
			      .name = im->name, .parent_id = im->parent,
			      .epoch = 1, .nc_idx = -1 };
	struct sysfolder f = { .im = im, .user_dir = im->name };
	int rc;

	if (pqfolder_scan(im->path, &f.folder))
		return -1;
	if (pqfolder_check_needed(&f.folder, im, "SystemProfileEvents") ||
	    pqfolder_check_needed(&f.folder, im, "DeviceProfileList")) {
		pqfolder_free(&f.folder);
		return -1;
	}
	if (!pqfolder_find(&f.folder, "SystemProfileEvents")) {
		pqfolder_free(&f.folder);
		return import_fail(im, NULL, "no SystemProfileEvents.parquet: not"
				   " a system profile folder");
	}
	im->profile = writer_profile(im->w, &p);
	im->res->is_system = 1;
	pqfolder_sources(&f.folder, im->w, im->profile);
	pqfolder_warn_skipped(&f.folder, im);
	f.n = neuron_new(im);
	neuron_set_noun(f.n, "table");
	rc = read_tables(&f);
	im->name = f.user_dir;
	if (rc == 0)
		rc = pqfolder_changed(&f.folder, im);
	if (rc == 0)
		rc = neuron_finish(f.n);
	else
		neuron_end(f.n);
	/* the system handlers name the JSON format */
	if (rc == 0)
		writer_profile_set(im->w, im->profile, "format",
				   "neuron-system-parquet");
	free(f.file_name);
	pqfolder_free(&f.folder);
	return rc;
}

void pqfolder_listed_devices(const char *sys, char ***names, size_t *n)
{
	struct pqfolder f;
	const struct pqtable *t;
	struct pqrows *r;
	cJSON *row, *name;

	*names = NULL;
	*n = 0;
	if (pqfolder_scan(sys, &f))
		return;
	t = pqfolder_find(&f, "DeviceProfileList");
	r = t ? pqrows_open(t, NULL) : NULL;
	while (r && *n < MAX_LISTED && pqrows_next(r, &row) == 1) {
		name = cJSON_GetObjectItemCaseSensitive(row,
							"device_profile_name");
		if (!cJSON_IsString(name))
			continue;
		*names = xreallocarray(*names, *n + 1, sizeof(**names));
		(*names)[(*n)++] = xstrdup(name->valuestring);
	}
	if (r)
		pqrows_close(r);
	pqfolder_free(&f);
}

void pqfolder_names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
