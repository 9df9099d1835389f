/* Hash maps for importers: 64-bit keys (track uuids, interning ids, flow
 * ids) and byte-string keys (pids and tids as written, row names).
 * Open addressing with linear probing; values are caller pointers. */
#ifndef NX_HMAP_H
#define NX_HMAP_H

#include <stddef.h>
#include <stdint.h>

struct u64map {
	struct u64slot *slots;
	size_t cap, n;		/* cap: 0 or a power of two */
};

void u64map_init(struct u64map *m);
/* Frees the table; each value goes to free_val when it is not NULL. */
void u64map_free(struct u64map *m, void (*free_val)(void *));
void *u64map_get(const struct u64map *m, uint64_t key);
/* Inserts or replaces; returns the previous value or NULL. */
void *u64map_put(struct u64map *m, uint64_t key, void *val);
/* Removes key; returns its value or NULL. */
void *u64map_del(struct u64map *m, uint64_t key);
/* Calls fn on every value, in no particular order. */
void u64map_each(const struct u64map *m, void (*fn)(void *ctx, void *val),
		 void *ctx);

struct strmap {
	struct strslot *slots;
	size_t cap, n;
};

void strmap_init(struct strmap *m);
void strmap_free(struct strmap *m, void (*free_val)(void *));
void *strmap_get(const struct strmap *m, const void *key, size_t len);
/* Inserts or replaces (the key is copied); returns the previous value. */
void *strmap_put(struct strmap *m, const void *key, size_t len, void *val);
/* Keys to array indexes: 1 with *i set, or 0 when key is absent. A key
 * put again keeps its first index. */
int strmap_index(const struct strmap *m, const void *key, size_t len,
		 size_t *i);
void strmap_put_index(struct strmap *m, const void *key, size_t len,
		      size_t i);

#endif
