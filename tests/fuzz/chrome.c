/* Fuzzes the Chrome trace-event JSON importer (plain or gzip, as the
 * input's first bytes say), imported, finished and read back. */
#include "config.h"

#include <stdlib.h>

#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *path = fuzz_write("trace.json", data, size);

	fuzz_import(path, FMT_CHROME_JSON);
	free(path);
	return 0;
}
