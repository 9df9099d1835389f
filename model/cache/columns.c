#include "config.h"

#include "model/cache/columns.h"

#include "model/util.h"

const char *const col_group_names[CG_COUNT] = {
	[CG_IDS] = "IDs",
	[CG_TIMING] = "Timing",
	[CG_INSTRUCTION] = "Instruction",
	[CG_TENSOR] = "Tensor work",
	[CG_TRAFFIC] = "Bytes moved",
	[CG_DMA] = "DMA",
	[CG_SYSTEM] = "System",
	[CG_HLO] = "HLO and layer",
	[CG_OPERANDS] = "Operands",
};

#define COL_INFO(col, kind, member, group, label, field) \
	{ #col, CK_##kind, CG_##group, label, field },
#define TT_COLS(table, alias, COLS) \
	static const struct column table##_cols[] = { COLS(COL_INFO) };
TYPED_TABLES(TT_COLS)

#define TT_INFO(table, alias, COLS) \
	[TT_##table] = { #table, #alias, table##_cols, \
			 NX_ARRAY_SIZE(table##_cols) },
const struct typed_table typed_tables[TT_COUNT] = { TYPED_TABLES(TT_INFO) };
