/* Fuzzes the Perfetto protobuf importer: packets, interning, clocks,
 * compressed packets, tracks and Neuron's own rows. */
#include "config.h"

#include <stdlib.h>

#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *path = fuzz_write("trace.pftrace", data, size);

	fuzz_import(path, FMT_PFTRACE);
	free(path);
	return 0;
}
