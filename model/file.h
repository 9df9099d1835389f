/* Files nxtop writes, often in folders other users share (/tmp, a team
 * share): never opened through a link, never under a name another user
 * could guess and plant first, never one that belongs to someone else. */
#ifndef NX_FILE_H
#define NX_FILE_H

#include <stdio.h>
#include <sys/types.h>

/* Temporary files are "nxtop-XXXXXXXX.tmp" (random letters and digits);
 * a bundle's parts add "-XXXXXXXX" to their cache's temporary name. */
#define FILE_TEMP_PREFIX "nxtop-"
#define FILE_TEMP_SUFFIX ".tmp"
#define FILE_TEMP_NEW ".new"	/* for an instant, while it is made */
#define FILE_RANDOM_CHARS 8

/* What is at a path nxtop wants to use, without following a link. */
enum file_owner {
	FILE_NONE,		/* nothing */
	FILE_MINE,		/* a regular file of this user */
	FILE_LINK,		/* a symbolic link */
	FILE_OTHERS,		/* another user's file */
	FILE_NOT_REGULAR,	/* a folder, FIFO, device... */
};

enum file_owner file_owner(const char *path);
/* A short phrase for a state other than FILE_NONE and FILE_MINE. */
const char *file_owner_why(enum file_owner o);

/* Creates a new empty file dir/<prefix>XXXXXXXX<suffix> with
 * O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600. Returns its descriptor and
 * *path (malloc'd), or -1 with err_get() set. */
int file_new(const char *dir, const char *prefix, const char *suffix,
	     char **path);

/* A temporary file beside path, "nxtop-XXXXXXXX.tmp", made by file_new
 * and locked (flock) for as long as the descriptor is open, so that a
 * cleanup can tell it from one whose process died. -1 with err_get()
 * set. */
int file_temp_beside(const char *path, char **tmp);

/* 1 if a leftover temporary file named name in the folder dirfd is this
 * user's, no process holds it (for a part: its cache's temporary file)
 * and it holds nothing but an SQLite file (or nothing), or is one's
 * "-wal", "-shm" or "-journal" file: safe to remove. */
int file_temp_abandoned(int dirfd, const char *name);

/* 1 while path is still the file open as fd (nothing replaced it). */
int file_same(int fd, const char *path);

/* Removes SQLite's "-wal", "-shm" and "-journal" files beside the
 * database at path: they belong to that file, and SQLite would replay
 * them into another one put at its name. */
void file_unlink_sqlite_sides(const char *path);

/* 1 if path names a file that starts like an SQLite database. */
int file_is_sqlite(const char *path);
/* 1 if paths a and b (links followed) are one file. */
int file_same_file(const char *a, const char *b);
/* Whether others can add files to the folder path is in (/tmp, a team
 * share): what is there may have been put there by someone else. */
int file_dir_shared(const char *path);

/* The folder of path (malloc'd): "." or "/" when it has none. */
char *file_dir(const char *path);
/* path with its folder's links resolved (malloc'd), for opening with
 * SQLite's NOFOLLOW, which refuses a link anywhere in a path; path
 * itself when the folder cannot be resolved. */
char *file_real_dir(const char *path);

/* Makes sure dir is a folder of this user that no one else can write
 * to, rename or replace (creating it, mode 0700, when missing): every
 * folder above it is this user's or root's, and sticky where others
 * can write to it. 0 on success, else -1 with err_get() set. */
int file_private_dir(const char *dir);

/* An exclusive lock (flock) on the file path, which is created (mode
 * 0600) and must be a regular file of this user's, waiting at most
 * wait_ms for another process to let go. Returns the descriptor that
 * holds it, or -1: *busy is set when another process held it all that
 * time, else it could not be taken (no such folder, no flock). */
int file_lock(const char *path, int wait_ms, int *busy);
/* Removes the lock file and lets go of it. */
void file_unlock(const char *path, int fd);

/* The process of another user holding a lock (fcntl) on the file open
 * as fd, or 0 when there is none or it cannot be told. */
long file_locked_by_other(int fd);

/* Opens path to be written over (created, mode 0666 before the umask),
 * as fopen(path, "w") would, except in a folder others can write to:
 * there, a link or a file another user put at that name is refused.
 * *created (may be NULL) says whether the file is new. NULL with
 * err_get() set ("PATH: why"). */
FILE *file_open_write(const char *path, int *created);

/* A file written whole or not at all: into a temporary file beside
 * path, renamed over path when complete. */
struct file_out {
	FILE *f;
	char *tmp, *path;
};

/* Opens o->f; mode is the new file's permissions before the umask.
 * NULL with err_get() set. */
FILE *file_out_open(struct file_out *o, const char *path, mode_t mode);
/* Closes and renames into place; on failure (a write error) nothing is
 * left. 0 on success, else -1 with err_get() set. */
int file_out_commit(struct file_out *o);
void file_out_abort(struct file_out *o);

#endif
