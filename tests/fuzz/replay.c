/* Runs a fuzz harness without libFuzzer: every file named on the
 * command line (or found in a folder named there) goes through
 * LLVMFuzzerTestOneInput once. make check replays the saved inputs of
 * tests/fuzz/regress/ this way, so a fixed finding stays fixed. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/fuzz/fuzz.h"
#include "model/util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int replay(const char *path)
{
	struct strbuf sb;
	char buf[65536];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	sb_init(&sb);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sb_add(&sb, buf, n);
	fclose(f);
	LLVMFuzzerTestOneInput((const uint8_t *)sb_cstr(&sb), sb.len);
	sb_free(&sb);
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of a folder, in name order. */
static int replay_dir(const char *dir, int *count)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;
	int rc = 0;

	if (!d) {
		fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		names = xreallocarray(names, n + 1, sizeof(*names));
		names[n++] = xasprintf("%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_name);
	for (size_t i = 0; i < n; i++) {
		if (replay(names[i]))
			rc = -1;
		else
			++*count;
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	int count = 0, rc = 0;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		struct stat sb;

		if (!stat(argv[i], &sb) && S_ISDIR(sb.st_mode))
			rc |= replay_dir(argv[i], &count);
		else if (replay(argv[i]))
			rc = -1;
		else
			count++;
	}
	printf("%s: %d input(s) replayed\n", argv[0], count);
	return rc ? 1 : 0;
}
