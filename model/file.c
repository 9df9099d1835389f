#include "config.h"

#include "model/file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "model/util.h"

/* A leftover empty temporary file is removed only once it is this old:
 * its maker takes the lock just after creating it. */
#define TEMP_GRACE_S 60

enum file_owner file_owner(const char *path)
{
	struct stat sb;

	if (lstat(path, &sb))
		return FILE_NONE;
	if (S_ISLNK(sb.st_mode))
		return FILE_LINK;
	if (!S_ISREG(sb.st_mode))
		return FILE_NOT_REGULAR;
	return sb.st_uid == geteuid() ? FILE_MINE : FILE_OTHERS;
}

const char *file_owner_why(enum file_owner o)
{
	switch (o) {
	case FILE_LINK:
		return "a symbolic link";
	case FILE_OTHERS:
		return "owned by another user";
	case FILE_NOT_REGULAR:
		return "not a regular file";
	default:
		return "usable";
	}
}

static void random_chars(char *out, size_t n)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyz"
				  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char r[32];

	/* without the kernel's randomness, still unique: O_EXCL retries */
	if (getrandom(r, n, GRND_NONBLOCK) != (ssize_t)n) {
		uint64_t x = (uint64_t)time(NULL) ^ (uint64_t)getpid() << 32 ^
			     (uint64_t)(uintptr_t)out ^ (uint64_t)clock();

		for (size_t i = 0; i < n; i++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			r[i] = (unsigned char)(x >> 56);
		}
	}
	for (size_t i = 0; i < n; i++)
		out[i] = set[r[i] % (sizeof(set) - 1)];
}

int file_new(const char *dir, const char *prefix, const char *suffix,
	     char **path)
{
	char rnd[FILE_RANDOM_CHARS + 1];

	rnd[FILE_RANDOM_CHARS] = '\0';
	for (int tries = 0; tries < 100; tries++) {
		int fd;

		random_chars(rnd, FILE_RANDOM_CHARS);
		*path = xasprintf("%s/%s%s%s", dir, prefix, rnd, suffix);
		fd = open(*path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
			  O_CLOEXEC, 0600);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST) {
			err_set("cannot create a file in %s: %s", dir,
				strerror(errno));
			break;
		}
		free(*path);
		*path = NULL;
	}
	if (*path) {
		free(*path);
		*path = NULL;
	} else {
		err_set("cannot create a file in %s: every name tried exists",
			dir);
	}
	return -1;
}

/* Created as "nxtop-XXXXXXXX.new" and renamed once locked, a ".tmp"
 * file is locked from the moment it has that name; rename replaces
 * whatever (a link) may have been put at the new name, never follows it. */
int file_temp_beside(const char *path, char **tmp)
{
	char *dir = file_dir(path), *fresh = NULL;
	size_t n;
	int fd = -1;

	*tmp = NULL;
	for (int tries = 0; tries < 10 && fd < 0; tries++) {
		fd = file_new(dir, FILE_TEMP_PREFIX, FILE_TEMP_NEW, &fresh);
		if (fd < 0)
			break;
		/* where there is no flock, a cleanup never takes it for dead */
		flock(fd, LOCK_EX | LOCK_NB);
		n = strlen(fresh) - strlen(FILE_TEMP_NEW);
		*tmp = xasprintf("%.*s%s", (int)n, fresh, FILE_TEMP_SUFFIX);
		if (rename(fresh, *tmp)) {
			err_set("cannot create a file in %s: %s", dir,
				strerror(errno));
			unlink(fresh);
			close(fd);
			fd = -1;
			free(*tmp);
			*tmp = NULL;
		}
		free(fresh);
	}
	free(dir);
	return fd;
}

/* The length of "nxtop-XXXXXXXX" at the start of name, else 0. */
static size_t temp_name_len(const char *name)
{
	size_t p = strlen(FILE_TEMP_PREFIX), n = p + FILE_RANDOM_CHARS;

	if (strncmp(name, FILE_TEMP_PREFIX, p) || strlen(name) < n)
		return 0;
	for (size_t i = p; i < n; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789", name[i]))
			return 0;
	return n;
}

/* Whether the temporary file name (in dirfd) is held by a live process;
 * a missing one is not. */
static int temp_held(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
			O_CLOEXEC);
	int held;

	if (fd < 0)
		return errno != ENOENT;
	held = flock(fd, LOCK_EX | LOCK_NB) != 0;
	close(fd);
	return held;
}

/* A file of this user holding an SQLite file, or nothing (for long, if
 * young says that it may be being made); for side, any content (an
 * SQLite file's WAL, shared memory or journal). */
static int temp_content_ours(int dirfd, const char *name, int young,
			     int side)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
			O_CLOEXEC);
	struct stat sb;
	char head[16];
	int ok = 0;

	if (fd < 0)
		return 0;
	if (!fstat(fd, &sb) && S_ISREG(sb.st_mode) && sb.st_uid == geteuid()) {
		if (side)
			ok = 1;
		else if (sb.st_size == 0)
			ok = !young || time(NULL) - sb.st_mtime > TEMP_GRACE_S;
		else
			ok = pread(fd, head, sizeof(head), 0) == sizeof(head) &&
			     !memcmp(head, "SQLite format 3", 16);
	}
	close(fd);
	return ok;
}

int file_temp_abandoned(int dirfd, const char *name)
{
	static const char *const sides[] = { "-wal", "-shm", "-journal" };
	size_t n = temp_name_len(name), rest;
	char *main;
	int held, side = 0;

	if (!n)
		return 0;
	/* being made (or its maker died in the moment it took) */
	if (!strcmp(name + n, FILE_TEMP_NEW))
		return temp_content_ours(dirfd, name, 1, 0);
	if (strncmp(name + n, FILE_TEMP_SUFFIX, strlen(FILE_TEMP_SUFFIX)))
		return 0;
	n += strlen(FILE_TEMP_SUFFIX);
	rest = strlen(name + n);
	/* SQLite's files beside one, while it was being finished */
	for (size_t i = 0; i < NX_ARRAY_SIZE(sides) && !side; i++) {
		size_t k = strlen(sides[i]);

		side = rest >= k && !strcmp(name + n + rest - k, sides[i]);
		if (side)
			rest -= k;
	}
	/* a part: "-" and random characters */
	if (rest && (name[n] != '-' || rest != 1 + FILE_RANDOM_CHARS))
		return 0;
	if (!temp_content_ours(dirfd, name, 0, side))
		return 0;
	main = xstrndup(name, n);
	held = temp_held(dirfd, main);
	free(main);
	return !held;
}

int file_same(int fd, const char *path)
{
	struct stat a, b;

	return !fstat(fd, &a) && !lstat(path, &b) && a.st_ino == b.st_ino &&
	       a.st_dev == b.st_dev;
}

void file_unlink_sqlite_sides(const char *path)
{
	static const char *const sides[] = { "-wal", "-shm", "-journal" };

	for (size_t i = 0; i < NX_ARRAY_SIZE(sides); i++) {
		char *side = xasprintf("%s%s", path, sides[i]);

		unlink(side);
		free(side);
	}
}

/* Reads the first n bytes of name in the folder dirfd (AT_FDCWD: here),
 * opened with flags added to O_RDONLY: the bytes read, or -1 when it
 * cannot be read or is not a regular file (opening a FIFO for reading
 * would wait for a writer for ever). */
static long file_head(int dirfd, const char *name, int flags, void *buf,
		      size_t n)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | flags);
	struct stat sb;
	ssize_t got = -1;

	if (fd < 0)
		return -1;
	if (!fstat(fd, &sb) && S_ISREG(sb.st_mode))
		got = read(fd, buf, n);
	close(fd);
	return (long)got;
}

char *file_dir(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

char *file_real_dir(const char *path)
{
	char *dir = file_dir(path), *out;
	const char *slash = strrchr(path, '/');
	char real[PATH_MAX];

	if (!realpath(dir, real))
		out = xstrdup(path);
	else
		out = xasprintf("%s/%s", strcmp(real, "/") ? real : "",
				slash ? slash + 1 : path);
	free(dir);
	return out;
}

/* A folder no one else can rename or replace: it and every folder
 * above it belong to this user or to root, and those others can write
 * to are sticky (like /tmp), where no one removes another's entries. */
static int dir_chain_safe(const char *dir, char **why)
{
	char real[PATH_MAX];
	struct stat sb;
	char *slash;

	if (!realpath(dir, real)) {
		*why = xasprintf("%s", strerror(errno));
		return 0;
	}
	for (;;) {
		if (stat(*real ? real : "/", &sb)) {
			*why = xasprintf("%s: %s", real, strerror(errno));
			return 0;
		}
		if ((sb.st_uid != geteuid() && sb.st_uid != 0) ||
		    ((sb.st_mode & (S_IWGRP | S_IWOTH)) &&
		     !(sb.st_mode & S_ISVTX))) {
			*why = xasprintf("%s is %s", *real ? real : "/",
					 sb.st_uid != geteuid() && sb.st_uid ?
					 "another user's" :
					 "writable by others");
			return 0;
		}
		if (!*real)
			return 1;
		slash = strrchr(real, '/');
		*slash = '\0';
	}
}

int file_private_dir(const char *dir)
{
	struct stat sb;
	char *why = NULL;

	if (mkdirs(dir))
		return -1;
	if (lstat(dir, &sb)) {
		err_set("%s: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(sb.st_mode) || sb.st_uid != geteuid() ||
	    (sb.st_mode & (S_IWGRP | S_IWOTH))) {
		err_set("%s: not used: %s", dir, !S_ISDIR(sb.st_mode) ?
			"not a folder (a link?)" : sb.st_uid != geteuid() ?
			"owned by another user" : "others can write to it");
		return -1;
	}
	if (!dir_chain_safe(dir, &why)) {
		err_set("%s: not used: %s", dir, why);
		free(why);
		return -1;
	}
	return 0;
}

static int64_t ms_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)(now.tv_sec - t0->tv_sec) * 1000 +
	       (now.tv_nsec - t0->tv_nsec) / 1000000;
}

/* Its last holder removes the file as it lets go: a lock taken on a
 * file that is no longer at path is taken again on the new one. */
int file_lock(const char *path, int wait_ms, int *busy)
{
	struct timespec t0;

	*busy = 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
			      0600);
		struct stat sb;
		int e;

		if (fd < 0)
			return -1;
		if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) ||
		    sb.st_uid != geteuid()) {
			close(fd);
			return -1;
		}
		if (!flock(fd, LOCK_EX | LOCK_NB)) {
			if (file_same(fd, path))
				return fd;
			close(fd);
			continue;
		}
		e = errno;
		close(fd);
		if (e != EWOULDBLOCK)
			return -1;
		if (ms_since(&t0) >= wait_ms) {
			*busy = 1;
			return -1;
		}
		usleep(20000);
	}
}

void file_unlock(const char *path, int fd)
{
	if (fd < 0)
		return;
	unlink(path);
	close(fd);
}

long file_locked_by_other(int fd)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	struct stat sb;
	char proc[32];

	if (fcntl(fd, F_GETLK, &fl) || fl.l_type == F_UNLCK || fl.l_pid <= 0)
		return 0;
	snprintf(proc, sizeof(proc), "/proc/%ld", (long)fl.l_pid);
	if (stat(proc, &sb) || sb.st_uid == geteuid())
		return 0;
	return (long)fl.l_pid;
}

int file_is_sqlite(const char *path)
{
	char head[16];

	return file_head(AT_FDCWD, path, 0, head, sizeof(head)) == 16 &&
	       !memcmp(head, "SQLite format 3", 16);
}

int file_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

int file_dir_shared(const char *path)
{
	char *dir = file_dir(path);
	struct stat sb;
	int shared = stat(dir, &sb) || (sb.st_mode & (S_IWGRP | S_IWOTH));

	free(dir);
	return shared;
}

FILE *file_open_write(const char *path, int *created)
{
	struct stat sb;
	int flags = O_WRONLY | O_NOCTTY | O_CLOEXEC, fd;
	FILE *f;

	/* a new file: nothing of anyone else's can be at the name */
	fd = open(path, flags | O_CREAT | O_EXCL | O_NOFOLLOW, 0666);
	if (created)
		*created = fd >= 0;
	if (fd >= 0)
		goto opened;
	if (errno == EISDIR && stat(path, &sb) && errno == ENOENT) {
		/* "dir/" names a folder, which is not there */
		err_set("%s: the folder does not exist", path);
		return NULL;
	}
	if (errno != EEXIST) {
		err_set("%s: %s", path, strerror(errno));
		return NULL;
	}
	/* a link is followed only where no one else could have put it
	 * (/dev/stdout), or when it is this user's own */
	if (lstat(path, &sb) || !S_ISLNK(sb.st_mode))
		flags |= O_NOFOLLOW;
	else if (sb.st_uid != geteuid() && file_dir_shared(path)) {
		err_set("%s: a link another user may have put there: not"
			" written", path);
		return NULL;
	}
	fd = open(path, flags);
	if (fd < 0) {
		err_set("%s: %s", path, strerror(errno));
		return NULL;
	}
	if (!fstat(fd, &sb) && S_ISREG(sb.st_mode) && sb.st_uid != geteuid() &&
	    file_dir_shared(path)) {
		err_set("%s: another user's file: not written", path);
		close(fd);
		return NULL;
	}
	if (S_ISREG(sb.st_mode) && ftruncate(fd, 0)) {
		err_set("%s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
opened:
	if (!(f = fdopen(fd, "w"))) {
		err_set("%s: %s", path, strerror(errno));
		close(fd);
		if (created && *created)
			unlink(path);
		return NULL;
	}
	return f;
}

FILE *file_out_open(struct file_out *o, const char *path, mode_t mode)
{
	mode_t mask = umask(0);
	int fd;

	umask(mask);
	o->f = NULL;
	o->path = xstrdup(path);
	fd = file_temp_beside(path, &o->tmp);
	if (fd < 0) {
		err_set("%s: %s", path, err_get());
		free(o->path);
		o->path = NULL;
		return NULL;
	}
	if (fchmod(fd, mode & ~mask) || !(o->f = fdopen(fd, "w"))) {
		err_set("%s: %s", o->tmp, strerror(errno));
		close(fd);
		file_out_abort(o);
		return NULL;
	}
	return o->f;
}

int file_out_commit(struct file_out *o)
{
	int same = file_same(fileno(o->f), o->tmp);
	int bad = ferror(o->f) || fflush(o->f) || fsync(fileno(o->f));
	int rc = 0;

	bad |= fclose(o->f);
	o->f = NULL;
	if (bad || !same) {
		err_set("%s: write failed", o->path);
		rc = -1;
	} else if (rename(o->tmp, o->path)) {
		err_set("%s: %s", o->path, strerror(errno));
		rc = -1;
	}
	if (rc)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	return rc;
}

void file_out_abort(struct file_out *o)
{
	if (o->tmp)
		unlink(o->tmp);
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
}
