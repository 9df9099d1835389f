/* Fuzzes the Neuron system-profile importer and the bundle around it:
 * the input is system_profile.json in a folder that also holds a device
 * profile, a link to a profile outside the folder, a folder and a FIFO
 * named like device profiles. The folder is imported as one cache,
 * finished and read back; a source file outside the folder is a
 * finding. */
#include "config.h"

#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/fuzz/fuzz.h"
#include "model/util.h"

static const char device[] =
	"{\"instruction\":[{\"timestamp\":10,\"duration\":5,\"opcode\":\"MATMUL\","
	"\"label\":\"Tensor\"}],\"model_info\":[{\"nc_idx\":0}]}";

static char *bundle, bundle_real[PATH_MAX];

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f))
		abort();
}

static void make_bundle(void)
{
	char *p;

	bundle = fuzz_path("bundle");
	mkdir(bundle, 0700);
	p = xasprintf("%s/device_profile_model_1.json", bundle);
	put(p, device);
	free(p);
	p = fuzz_path("outside.json");
	put(p, device);
	free(p);
	p = xasprintf("%s/link.json", bundle);
	if (symlink("../outside.json", p))
		abort();
	free(p);
	p = xasprintf("%s/dir.json", bundle);
	mkdir(p, 0700);
	free(p);
	p = xasprintf("%s/fifo.json", bundle);
	if (mkfifo(p, 0600))
		abort();
	free(p);
	if (!realpath(bundle, bundle_real))
		abort();
}

/* Every file the cache was built from lies in the bundle folder. */
static void check_sources(const char *cache)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	size_t n = strlen(bundle_real);

	if (sqlite3_open_v2(cache, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT path FROM source", -1, &st,
			       NULL) != SQLITE_OK)
		abort();
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *path = (const char *)sqlite3_column_text(st, 0);

		if (!path || strncmp(path, bundle_real, n) || path[n] != '/' ||
		    strchr(path + n + 1, '/')) {
			fprintf(stderr, "fuzz: source outside the bundle: %s\n",
				path ? path : "(null)");
			abort();
		}
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct import_opts o = { .quiet = 1 };
	char *path, *cache;

	if (!bundle)
		make_bundle();
	path = xasprintf("bundle/system_profile.json");
	free(fuzz_write(path, data, size));
	free(path);
	cache = fuzz_path("bundle.nxdb");
	if (!import_build(bundle, cache, &o)) {
		check_sources(cache);
		fuzz_read_back(cache);
	}
	err_clear();
	unlink(cache);
	free(cache);
	return 0;
}
