/* gzip input inflated with zlib, for the importers and for telling a
 * file's format: a file of several members (gzip -c a b > ab, or
 * chunks appended to a log) reads as their concatenation, and bytes
 * after the last member that start no other one are an error, never
 * dropped without a word (zlib's gzread() drops them). */
#ifndef NX_GUNZIP_H
#define NX_GUNZIP_H

#include <stddef.h>
#include <stdint.h>

struct gunzip;

/* Reads the gzip data of fd from its current offset; fd stays the
 * caller's. */
struct gunzip *gunzip_open(int fd);
void gunzip_close(struct gunzip *g);

/* Inflates up to len bytes into buf, fewer only at the end: the count,
 * 0 at the end, -1 when the data is damaged (gunzip_why() says how). */
long gunzip_read(struct gunzip *g, void *buf, size_t len);
/* What was wrong, in words: "bad checksum", "bad length", "cut short",
 * "corrupt data", "trailing garbage after the compressed data", or why
 * the file could not be read. */
const char *gunzip_why(const struct gunzip *g);
/* Bytes of the file inflated so far: after an error, where it is. */
uint64_t gunzip_in(const struct gunzip *g);
/* Bytes given so far. */
uint64_t gunzip_out(const struct gunzip *g);

#endif
