/* Import-time filters of system-profile events, like neuron-explorer's
 * --system-trace-filter-*: NeuronCores ("0,2-3"), event names
 * ("nrt_execute,nc_exec_running") and instances ("i-abc,i-def"). They
 * change what the cache holds, so they are part of its identity. */
#ifndef NX_SYSFILTER_H
#define NX_SYSFILTER_H

#include <stddef.h>
#include <stdint.h>

#include "model/util.h"

struct sysfilter {
	int64_t (*nc)[2];	/* inclusive ranges */
	size_t nnc;
	char **types, **instances;
	size_t ntypes, ninstances;
};

/* Parses the three option values (each may be NULL). 0 on success; on
 * error err_get() names the option and the bad part. */
int sysfilter_parse(struct sysfilter *f, const char *nc, const char *types,
		    const char *instances);
void sysfilter_free(struct sysfilter *f);

/* 1 if an event passes. nc < 0: the event names no NeuronCore and is
 * kept; instance NULL likewise. */
int sysfilter_nc(const struct sysfilter *f, int64_t nc);
int sysfilter_type(const struct sysfilter *f, const char *name);
int sysfilter_instance(const struct sysfilter *f, const char *instance);

/* A canonical text of the filters ("" when none), e.g.
 * "nc=0,2-3;type=nc_exec_running,nrt_execute". */
void sysfilter_key(const struct sysfilter *f, struct strbuf *out);

#endif
