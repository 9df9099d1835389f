/* A small streaming JSON writer for exports. Strings are sanitised (no
 * control characters, valid UTF-8) before they are escaped. */
#ifndef NX_JOUT_H
#define NX_JOUT_H

#include <stdint.h>
#include <stdio.h>

struct jout {
	FILE *f;
	int depth;
	int first[64];		/* nothing written yet at this depth */
	char close[64];		/* the bracket that ends each depth */
	int after_key;		/* a key was written, its value is next */
	int pretty;
};

void jout_init(struct jout *j, FILE *f, int pretty);
void jout_obj(struct jout *j);
void jout_arr(struct jout *j);
void jout_end(struct jout *j);	/* closes the innermost object or array */
void jout_key(struct jout *j, const char *key);
void jout_str(struct jout *j, const char *s);
void jout_int(struct jout *j, int64_t v);
void jout_real(struct jout *j, double v);
/* A number given as its text, e.g. an integer past int64's digits. */
void jout_digits(struct jout *j, const char *digits);
void jout_null(struct jout *j);
void jout_bool(struct jout *j, int v);
/* A key and its value in one call: "key": value. */
void jout_kstr(struct jout *j, const char *key, const char *s);
void jout_kint(struct jout *j, const char *key, int64_t v);
void jout_kreal(struct jout *j, const char *key, double v);
void jout_kbool(struct jout *j, const char *key, int v);
/* A figure that may be absent (negative): null in JSON. */
void jout_kopt(struct jout *j, const char *key, int64_t v);
/* Finishes the document with a newline. */
void jout_done(struct jout *j);

#endif
