/* Fuzzes the Parquet reader: arbitrary bytes opened as a file, every
 * column read to its end (at most ROWS rows each: a footer may claim
 * any number of rows, and reading them takes time in proportion), and
 * every message checked for what would reach a terminal raw. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"
#include "src/parquet/parquet.h"

#define ROWS 100000

static void read_column(struct pq_file *f, int col)
{
	struct pq_cursor *c = pq_cursor_open(f, col);
	struct pq_batch b;
	size_t rows = 0;
	volatile size_t sink = 0;
	int rc;

	if (!c)
		return;
	while (rows < ROWS && (rc = pq_cursor_next(c, 1000, &b)) > 0) {
		rows += b.rows;
		/* touch every value, so that the sanitizers see each byte */
		for (size_t i = 0; i < b.slots; i++)
			if (b.valid[i] && b.bytes)
				sink += b.bytes[i].len ? (unsigned char)b.bytes[i].ptr[b.bytes[i].len - 1] : 0;
			else if (b.valid[i])
				sink += b.i64 ? (size_t)b.i64[i] : (size_t)(b.f64[i] != 0);
	}
	(void)sink;
	fuzz_check_text("error message", pq_error(f), strlen(pq_error(f)));
	pq_cursor_close(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *path = fuzz_write("t.parquet", data, size);
	char err[1024];
	struct pq_file *f = pq_open(path, err, sizeof(err));

	if (!f) {
		fuzz_check_text("error message", err, strlen(err));
	} else {
		for (int i = 0; i < pq_num_columns(f) && i < 64; i++)
			read_column(f, i);
		pq_close(f);
	}
	free(path);
	return 0;
}
