/* Fuzzes the Neuron device-profile JSON importer: the input is a
 * profile file, imported into a cache that is finished and read back. */
#include "config.h"

#include <stdlib.h>

#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *path = fuzz_write("profile.json", data, size);

	fuzz_import(path, FMT_NEURON_JSON);
	free(path);
	return 0;
}
