/* Time values as people read and type them. All times are int64 ns. */
#ifndef NX_TIMEFMT_H
#define NX_TIMEFMT_H

#include <stddef.h>
#include <stdint.h>

/* How timefmt_dur() writes: "1.25ms" rather than "1.25 ms"; "us" rather
 * than "µs" (for a terminal without UTF-8). */
enum { TF_COMPACT = 1, TF_ASCII = 2 };

/* A duration with a unit chosen for it and up to prec decimals, e.g.
 * "1.25 ms", "850 ns", "2.000 s"; flags are TF_* bits. */
void timefmt_dur(char *buf, size_t n, int64_t ns, int prec, int flags);
/* A duration in a fixed unit ("ns", "us", "ms", "s"). */
void timefmt_in_unit(char *buf, size_t n, int64_t ns, const char *unit,
		     int prec);
/* A time in a fixed unit, exact: with the decimals the unit needs
 * (3 for us, 6 for ms, 9 for s). */
void timefmt_exact(char *buf, size_t n, int64_t ns, const char *unit);
/* Parses "1.25ms", "100us", "100µs", "2s", "350ns" or a bare number of
 * ns. Exact (no floating point). 0 on success. */
int timefmt_parse(const char *s, int64_t *ns);
/* Parses a unit name into ns per unit; 0 on success. */
int timefmt_unit(const char *s, int64_t *per);

#endif
