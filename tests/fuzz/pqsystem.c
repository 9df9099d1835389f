/* Fuzzes the system profile Parquet folder importer: the input is the
 * folder's SystemProfileEvents.parquet, imported into a cache that is
 * finished and read back. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "tests/fuzz/fuzz.h"
#include "model/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *dir = fuzz_path("s@latest");
	char *file = xasprintf("%s/SystemProfileEvents.parquet", dir);
	FILE *f;

	mkdir(dir, 0700);
	f = fopen(file, "wb");
	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f))
		abort();
	fuzz_import(dir, FMT_PARQUET_SYSTEM);
	free(file);
	free(dir);
	return 0;
}
