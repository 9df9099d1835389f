/* What the fuzz harnesses share. Each harness is one libFuzzer entry
 * point (LLVMFuzzerTestOneInput); `make fuzz` links it with libFuzzer,
 * and make check links it with replay.c, which feeds the saved inputs
 * of tests/fuzz/regress/ through the same function without clang. */
#ifndef NX_FUZZ_H
#define NX_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "src/import/import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* Optional setup, run once before the first input. */
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* A private folder for this process's files, removed at exit. */
const char *fuzz_dir(void);
/* fuzz_dir()/name (malloc'd). */
char *fuzz_path(const char *name);
/* Writes size bytes to fuzz_dir()/name; returns the path (malloc'd). */
char *fuzz_write(const char *name, const uint8_t *data, size_t size);

/* Imports path as format f into a new cache, finishes it and reads it
 * back the way the viewer and the exports do; the cache is removed. */
void fuzz_import(const char *path, enum input_format f);
/* Reads a finished cache back: summaries, exports, frames of every
 * track. Output that would put a control character, an invalid UTF-8
 * byte or a C1 code on a terminal aborts (a finding). */
void fuzz_read_back(const char *cache);
/* A cache of the fixture tests/fixtures/NAME, built on first use into
 * fuzz_dir() (path malloc'd). */
char *fuzz_fixture_cache(const char *name);
/* Aborts if n bytes of output hold anything but printable UTF-8, '\n',
 * '\t' and the "\r\n" of CSV (what a terminal shows without
 * interpreting). */
void fuzz_check_text(const char *what, const char *s, size_t n);

#endif
