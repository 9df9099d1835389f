/* Opening a cache for reading whatever its journal mode. A cache in
 * SQLite's WAL mode (while the viewer imports device profiles into it,
 * or left so by a viewer that was killed) needs its -shm file, which
 * SQLite creates beside it: in a folder this user cannot write to, that
 * fails unless both files are already there. */
#include "config.h"

#include "model/cache/db.h"

#include <limits.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/file.h"
#include "model/util.h"

/* Bytes 18 and 19 of the header (write and read versions): 2 in WAL mode. */
#define HEADER_WAL_AT 18

/* An SQLite URI naming path, read as a file nothing changes. */
static char *immutable_uri(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	struct strbuf sb;

	sb_init(&sb);
	sb_adds(&sb, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (strchr("?#%", *p) || *p < 0x20 || *p >= 0x7f)
			sb_printf(&sb, "%%%c%c", hex[*p >> 4], hex[*p & 15]);
		else
			sb_addc(&sb, (char)*p);
	}
	sb_adds(&sb, "?immutable=1");
	return sb_detach(&sb);
}

/* Closing a descriptor of a file drops every lock this process holds on
 * it, the locks of its SQLite connections too: another nxtop closing
 * its own connection would then take the cache for unused and delete
 * its -wal file under them. So the header is read through SQLite, which
 * keeps the descriptor open while its connections hold locks. */
long db_head(const char *path, void *buf, size_t n)
{
	char *uri = immutable_uri(path);
	sqlite3_file *f = NULL;
	sqlite3 *db = NULL;
	struct stat sb;
	long got = -1;

	/* a FIFO would block the open until a writer comes */
	if (stat(path, &sb) || !S_ISREG(sb.st_mode) || n > INT_MAX) {
		free(uri);
		return -1;
	}
	if ((off_t)n > sb.st_size)
		n = (size_t)sb.st_size;
	if (sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
			    NULL) == SQLITE_OK &&
	    sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER,
				 &f) == SQLITE_OK && f && f->pMethods &&
	    f->pMethods->xRead(f, buf, (int)n, 0) == SQLITE_OK)
		got = (long)n;
	sqlite3_close(db);
	free(uri);
	return got;
}

int db_in_wal(const char *path)
{
	unsigned char head[HEADER_WAL_AT + 2];

	return db_head(path, head, sizeof(head)) == (long)sizeof(head) &&
	       !memcmp(head, "SQLite format 3", 16) &&
	       head[HEADER_WAL_AT] == 2 && head[HEADER_WAL_AT + 1] == 2;
}

int db_dir_writable(const char *path)
{
	char *dir = file_dir(path);
	int ok = !access(dir, W_OK);

	free(dir);
	return ok;
}

/* The size of path's sibling path+suffix, -1 when there is none. */
static long long sibling_size(const char *path, const char *suffix)
{
	char *p = xasprintf("%s%s", path, suffix);
	struct stat sb;
	long long n = lstat(p, &sb) ? -1 : (long long)sb.st_size;

	free(p);
	return n;
}

int db_open_read(const char *path, int flags, sqlite3 **db)
{
	char *uri = NULL, *dir;
	int rc;

	*db = NULL;
	flags |= SQLITE_OPEN_READONLY;
	if (db_in_wal(path) && !db_dir_writable(path)) {
		/* with nothing in its -wal the file holds every row, and no
		 * one can write there without write access to the folder */
		if (sibling_size(path, "-wal") <= 0) {
			uri = immutable_uri(path);
			flags |= SQLITE_OPEN_URI;
		} else if (sibling_size(path, "-shm") < 0) {
			dir = file_dir(path);
			err_set("in WAL mode with changes in its -wal file, and"
				" its folder %s is not writable: open it once"
				" with write access to that folder", dir);
			free(dir);
			return -1;
		}
	}
	rc = sqlite3_open_v2(uri ? uri : path, db, flags, NULL);
	free(uri);
	if (rc != SQLITE_OK) {
		err_set("cannot be opened: %s", sqlite3_errmsg(*db));
		sqlite3_close(*db);
		*db = NULL;
		return -1;
	}
	return 0;
}
