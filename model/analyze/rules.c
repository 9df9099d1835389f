/* The rules, in the order they run and are listed. */
#include "config.h"

#include "model/analyze/rules.h"

#include "model/util.h"

const struct an_rule an_rules[] = {
	{ "quality", AN_WARNING,
	  "the profile's and the import's warnings, explained",
	  { { NULL, 0, NULL } }, rule_quality },
	{ "mfu", AN_WARNING,
	  "model FLOPs under min_pct% of the hardware FLOPs (summary)",
	  { { "min_pct", 50, "lowest model/hardware FLOPs share, %" } },
	  rule_mfu },
	{ "transpose", AN_WARNING,
	  "transpose FLOPs over max_pct% of the hardware FLOPs (summary)",
	  { { "max_pct", 10, "highest transpose/hardware FLOPs share, %" } },
	  rule_transpose },
	{ "spill", AN_WARNING,
	  "spill-reload bytes over max_pct% of the HBM reads (summary)",
	  { { "max_pct", 25, "highest spill-reload/HBM read share, %" } },
	  rule_spill },
	{ "small-dma", AN_WARNING,
	  "queues spending over min_share% of their DMA time in packets"
	  " under bytes B",
	  { { "bytes", 4096, "a packet under this many bytes is small" },
	    { "min_share", 50, "share of the queue's DMA packet time, %" } },
	  rule_small_dma },
	{ "reload", AN_WARNING,
	  "a tensor (DMA variable) loaded into SBUF more than max_loads times",
	  { { "max_loads", 2, "loads of one tensor allowed" } },
	  rule_reload },
	{ "stall", AN_WARNING,
	  "an engine idle in gaps over gap_us while others start work, over"
	  " min_pct% of the range",
	  { { "gap_us", 10, "shortest gap counted, us" },
	    { "min_pct", 5, "share of the range in such gaps, %" } },
	  rule_stall },
	{ "semaphore", AN_WARNING,
	  "an engine in EVENT_SEMAPHORE over max_pct% of the range",
	  { { "max_pct", 10, "share of the range spent waiting, %" } },
	  rule_semaphore },
	{ "throttle", AN_WARNING,
	  "the utilisation limit under limit% for over min_pct% of the range",
	  { { "limit", 100, "a limit under this is throttling, %" },
	    { "min_pct", 1, "share of the range throttled, %" } },
	  rule_throttle },
	{ "warmup", AN_INFO,
	  "a model's first execution on a NeuronCore over factor x its median",
	  { { "factor", 2, "first execution / median duration" } },
	  rule_warmup },
	{ "outliers", AN_WARNING,
	  "executions past the first over factor x their model's median",
	  { { "factor", 2, "execution / median duration" } },
	  rule_outliers },
	{ "idle", AN_WARNING,
	  "a NeuronCore idle between a model's executions over max_pct%",
	  { { "max_pct", 25, "idle share of the executions' span, %" } },
	  rule_idle },
	{ "collectives", AN_WARNING,
	  "collective operations over factor x from their group's median"
	  " (operation and replica group)",
	  { { "factor", 2, "duration / median, or median / duration" } },
	  rule_collectives },
};

const size_t an_nrules = NX_ARRAY_SIZE(an_rules);
