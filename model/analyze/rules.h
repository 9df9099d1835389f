/* The rules' functions, one file each; rules.c registers them. */
#ifndef NX_ANALYZE_RULES_H
#define NX_ANALYZE_RULES_H

#include "model/analyze/analyze.h"

int rule_mfu(struct an_ctx *c);
int rule_transpose(struct an_ctx *c);
int rule_spill(struct an_ctx *c);
int rule_quality(struct an_ctx *c);
int rule_small_dma(struct an_ctx *c);
int rule_reload(struct an_ctx *c);
int rule_semaphore(struct an_ctx *c);
int rule_warmup(struct an_ctx *c);
int rule_outliers(struct an_ctx *c);
int rule_idle(struct an_ctx *c);
int rule_throttle(struct an_ctx *c);
int rule_stall(struct an_ctx *c);
int rule_collectives(struct an_ctx *c);

#endif
