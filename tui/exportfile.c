#include "config.h"

#include "tui/exportfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/util.h"

#define EXPORT_MAX_TRIES 10000

static const char *ext(enum out_format fmt)
{
	return fmt == OUT_JSON ? "json" : fmt == OUT_CSV ? "csv" : "txt";
}

/* WHAT may come from a profile (an info section's key): only letters,
 * digits, '-' and '_' reach the file name. */
static char *safe_name(const char *what)
{
	char *s = xstrdup(what);

	for (char *p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '-' || *p == '_'))
			*p = '_';
	return s;
}

/* Creates the first free DIR/nxtop-WHAT-N.EXT; O_EXCL so that two
 * nxtop processes never write into one file. */
static FILE *create(const char *what, enum out_format fmt, char **path)
{
	const char *dir = getenv("NXTOP_EXPORT_DIR");

	if (!dir || !*dir)
		dir = ".";
	for (int n = 1; n <= EXPORT_MAX_TRIES; n++) {
		char *p = xasprintf("%s/nxtop-%s-%d.%s", dir, what, n, ext(fmt));
		int fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0644);
		FILE *f;

		if (fd < 0 && errno == EEXIST) {
			free(p);
			continue;
		}
		if (fd < 0 || !(f = fdopen(fd, "w"))) {
			err_set("%s: %s", p, strerror(errno));
			if (fd >= 0)
				close(fd);
			free(p);
			return NULL;
		}
		*path = p;
		return f;
	}
	err_set("%s: %d export files already", dir, EXPORT_MAX_TRIES);
	return NULL;
}

char *exportfile_write(struct view *v, enum out_format fmt)
{
	const char *what = v->ops->export_name ? v->ops->export_name(v) : NULL;
	char *path = NULL;
	FILE *f;
	int rc;

	if (!what || !v->ops->export) {
		err_set("nothing to export here");
		return NULL;
	}
	{
		char *safe = safe_name(what);

		f = create(safe, fmt, &path);
		free(safe);
	}
	if (!f)
		return NULL;
	rc = v->ops->export(v, fmt, f);
	if (!rc && stream_check(f, path))
		rc = -1;
	if (fclose(f) && !rc) {
		err_set("%s: %s", path, strerror(errno));
		rc = -1;
	}
	if (rc) {
		unlink(path);
		free(path);
		return NULL;
	}
	return path;
}
