/* A Thrift compact protocol encoder into a growing buffer, for the
 * footer and page headers the Parquet writer emits. Fields of a struct
 * must come in increasing id order. */
#ifndef NX_PQ_TOUT_H
#define NX_PQ_TOUT_H

#include <stddef.h>
#include <stdint.h>

#define TOUT_DEPTH 8

struct tout {
	uint8_t *p;
	size_t len, cap;
	int16_t last[TOUT_DEPTH];	/* last field id of each open struct */
	int depth;
};

void tout_init(struct tout *t);
void tout_free(struct tout *t);
void tout_bytes(struct tout *t, const void *s, size_t n);

void tout_i32(struct tout *t, int id, int32_t v);
void tout_i64(struct tout *t, int id, int64_t v);
void tout_str(struct tout *t, int id, const char *s);
/* A struct field; its fields follow, then tout_end(). */
void tout_struct(struct tout *t, int id);
/* Ends the open struct (or the top-level one) with a stop byte. */
void tout_end(struct tout *t);
/* A list field of n elements of Thrift type etype (TH_I32, TH_BINARY,
 * TH_STRUCT); its elements follow as tout_elem_*(). */
void tout_list(struct tout *t, int id, int etype, size_t n);
void tout_elem_i32(struct tout *t, int32_t v);
void tout_elem_str(struct tout *t, const char *s);
/* A struct element of a list; its fields follow, then tout_end(). */
void tout_elem_struct(struct tout *t);

#endif
