#include "config.h"

#include "src/demo/demo_int.h"

/* Operand strings in the grammar of real exports (FORMATS.md §2.3):
 * semaphore waits and signals, access patterns
 * name=dtype@addr[steps][counts], the K*N suffix of tensor-engine ops.
 * Addresses come from the instruction's random bits. */

/* SBUF byte offset within a partition (192 KiB per partition). */
static uint64_t sb_addr(const struct demo_inst *in, int shift)
{
	return ((in->aux >> shift) & 0x2fff) << 4;
}

/* PSUM addresses start at 0x2000000; 8 banks of 2 KiB. */
static uint64_t psum_addr(const struct demo_inst *in)
{
	return 0x2000000 + ((in->aux >> 40) & 7) * 0x800;
}

static char *put_sem(char *p, int s)
{
	p = DLIT(p, "S[");
	p = dput_u64(p, demo_sems[s].num);
	p = DLIT(p, "] (");
	p = dput_str(p, demo_sems[s].owner);
	*p++ = ')';
	return p;
}

static char *put_sync(char *p, const struct demo_inst *in)
{
	if (in->wait_sem != SEM_NONE) {
		p = put_sem(p, in->wait_sem);
		p = DLIT(p, ">=");
		p = dput_u64(p, in->wait_val);
		*p++ = ' ';
	}
	if (in->sig_sem != SEM_NONE) {
		p = put_sem(p, in->sig_sem);
		p = DLIT(p, "++@complete ");
	}
	return p;
}

/* key=dtype@addr<steps>n<tail>, e.g. src=bf16@0x4000[1,1][512,1] */
static char *put_ap(char *p, const char *key, const char *dtype,
		    uint64_t addr, const char *steps, uint32_t n,
		    const char *tail)
{
	p = dput_str(p, key);
	if (dtype) {
		p = dput_str(p, dtype);
		*p++ = '@';
	}
	p = dput_hex(p, addr);
	p = dput_str(p, steps);
	p = dput_u64(p, n);
	return dput_str(p, tail);
}

static char *op_matmul(char *p, const struct demo_inst *in)
{
	p = put_sync(p, in);
	p = DLIT(p, "acc_flags=");
	*p++ = (char)('0' + ((in->aux >> 8) & 3));
	p = put_ap(p, " src=", "bf16", sb_addr(in, 0), "[1,0,0][", in->n,
		   ",1,1]");
	p = put_ap(p, " dst=", NULL, psum_addr(in), "[1,0,0][", in->n,
		   ",1,1] ");
	p = dput_u64(p, in->k);
	*p++ = '*';
	p = dput_u64(p, in->n);
	*p++ = ' ';
	return p;
}

static char *op_ldweights(char *p, const struct demo_inst *in)
{
	p = put_sync(p, in);
	if (in->itype == IT_TRANSPOSE)
		p = put_ap(p, "src=", "bf16", sb_addr(in, 0), "[-1,0,-32][",
			   32, ",1,4] ");
	else
		p = put_ap(p, "src=", "bf16", sb_addr(in, 0), "[1,0,0][",
			   in->k, ",1,1] ");
	return DLIT(p, "128*128 ");
}

static char *op_activate(char *p, const struct demo_inst *in)
{
	int psum = (in->has >> B_PSUM_READ) & 1;

	p = put_sync(p, in);
	p = dput_str(p, demo_act_name[in->act]);
	p = DLIT(p, " bias_imm=0.000000");
	if (psum)
		p = put_ap(p, " src=", "fp32", psum_addr(in), "[1,1,1][", in->n,
			   ",1,1]");
	else
		p = put_ap(p, " src=", "bf16", sb_addr(in, 0), "[1,1,1][",
			   in->n, ",1,1]");
	p = put_ap(p, " dst=", "bf16", sb_addr(in, 16), "[1,1,1][", in->n,
		   ",1,1] channels=128 scale=");
	p = in->act == ACT_COPY ? DLIT(p, "0.125000") : DLIT(p, "1.000000");
	p = DLIT(p, " imm=[0x0] accumulator_cmd=");
	return in->act == ACT_EXP ? DLIT(p, "ZERO_ACCUMULATE")
				  : DLIT(p, "IDLE");
}

/* 2-D access pattern over n elements: key=dtype@addr[1,1][n,1] */
static char *put_ap2(char *p, const char *key, const char *dtype,
		     uint64_t addr, uint32_t n)
{
	return put_ap(p, key, dtype, addr, "[1,1][", n, ",1]");
}

/* Vector and GpSimd elementwise ops. */
static char *op_vector(char *p, const struct demo_inst *in)
{
	int alt = (in->aux >> 9) & 1;

	p = put_sync(p, in);
	switch (in->op) {
	case OP_TENSOR_TENSOR:
		p = alt ? DLIT(p, "op=add") : DLIT(p, "op=multiply");
		p = put_ap2(p, " src0=", "bf16", sb_addr(in, 0), in->n);
		p = put_ap2(p, " src1=", "bf16", sb_addr(in, 14), in->n);
		break;
	case OP_TENSOR_REDUCE:
		p = alt ? DLIT(p, "op=max axis=X") : DLIT(p, "op=add axis=X");
		p = put_ap2(p, " src=", "fp32", sb_addr(in, 0), in->n);
		p = put_ap2(p, " dst=", "fp32", sb_addr(in, 28), 1);
		return DLIT(p, " channels=128");
	case OP_TENSOR_SCALAR_PTR:
		p = DLIT(p, "op0=multiply op1=add");
		p = put_ap2(p, " src=", "bf16", sb_addr(in, 0), in->n);
		p = DLIT(p, " scalar_ptr=");
		p = dput_hex(p, sb_addr(in, 14));
		break;
	case OP_IOTA:
		p = put_ap2(p, "dst=", "uint32", sb_addr(in, 28), in->n);
		return DLIT(p, " base=0 step=1 channels=128");
	default:
		p = put_ap2(p, "src=", "bf16", sb_addr(in, 0), in->n);
		break;
	}
	p = put_ap2(p, " dst=", "bf16", sb_addr(in, 28), in->n);
	return DLIT(p, " channels=128");
}

/* GpSimd register loads and stores of token ids. */
static char *op_regs(char *p, const struct demo_inst *in)
{
	uint64_t r = 128 + ((in->aux >> 5) & 15) * 2;

	p = put_sync(p, in);
	p = put_ap(p, " addr=", "uint32",
		   0x3c01f4000ULL + ((in->aux >> 20) & 0xff) * 0x40, "[1,0][",
		   2, ",1] data=$R[");
	p = dput_u64(p, r);
	if (in->op == OP_TENSOR_LOAD) {
		p = DLIT(p, "],$R[");
		p = dput_u64(p, r + 1);
	}
	return DLIT(p, "] ");
}

/* The descriptor fields of a DMA_DIRECT2D; runtime and compiler views
 * differ in how they name the destination. */
static char *op_direct(char *p, const struct demo_inst *in, int compiler)
{
	uint64_t dst = sb_addr(in, 0);

	p = compiler ? DLIT(p, " dge_op=DIRECT2D semaphore=")
		     : DLIT(p, " semaphore=");
	p = dput_u64(p, demo_sems[demo_queues[in->queue].sem].num);
	p = DLIT(p, " sem_increment=");
	p = dput_u64(p, in->sem_inc);
	p = DLIT(p, "  src_elem_size=");
	p = dput_u64(p, in->k);
	p = DLIT(p, " dst_elem_size=");
	p = dput_u64(p, in->k);
	p = DLIT(p, " src_pattern=[");
	p = dput_u64(p, in->k);
	p = DLIT(p, ",1][");
	p = dput_u64(p, in->n);
	p = DLIT(p, ",1] dst_pattern=[262144,1][");
	p = dput_u64(p, in->n);
	if (compiler) {
		p = DLIT(p, ",1] src_table_offset_imm=0 src_table_index=0 "
			    "src_shape_reg=0 dst_var_id=0 dst_var_offset=");
		p = dput_u64(p, dst);
		return DLIT(p, " dst_shape_reg=0   ");
	}
	p = DLIT(p, ",1] src_table_offset_imm=0x0 src_table_index=0 "
		    "src_shape_reg=0 dst_addr_imm=");
	p = dput_hex(p, 0xfffc0000000ULL + dst);
	return DLIT(p, " dst_shape_reg=0 compute_op=NONE ");
}

static char *op_control(char *p, const struct demo_inst *in)
{
	switch (in->op) {
	case OP_EVENT_SEMAPHORE:
		p = DLIT(p, " setter=0 $S[2]==");
		p = dput_u64(p, in->wait_val);
		return DLIT(p, " $S[2]++@complete ");
	case OP_SEM_CLEAR:
		return DLIT(p, " start=$S[3] end=$S[31] ");
	case OP_NOTIFY:
		p = DLIT(p, " hint=3 notification=EXPLICIT trace=");
		return in->n ? DLIT(p, "END ") : DLIT(p, "START ");
	case OP_SET_ORDERING_MODE:
		return DLIT(p, " mode=STRICT ");
	case OP_ACT_TABLE_LOAD:
		p = DLIT(p, " func=");
		p = dput_str(p, demo_act_name[in->act]);
		p = DLIT(p, " table_id=");
		p = dput_u64(p, demo_act_table[in->act]);
		*p++ = ' ';
		return p;
	case OP_DMA_TRIGGER:
		p = DLIT(p, " data=0x3 size=4 dst=");
		p = dput_hex(p, 0xffff1002000ULL +
				8u * demo_queues[in->queue].idx);
		*p++ = ' ';
		return p;
	default:
		return p;
	}
}

char *demo_put_operands(char *p, const struct demo_inst *in)
{
	switch (in->op) {
	case OP_MATMUL:
		return op_matmul(p, in);
	case OP_LDWEIGHTS:
		return op_ldweights(p, in);
	case OP_ACTIVATE:
		return op_activate(p, in);
	case OP_TENSOR_TENSOR:
	case OP_TENSOR_REDUCE:
	case OP_TENSOR_SCALAR_PTR:
	case OP_COPY:
	case OP_IOTA:
		return op_vector(p, in);
	case OP_TENSOR_LOAD:
	case OP_TENSOR_STORE:
		return op_regs(p, in);
	case OP_DMA_DIRECT2D:
		return op_direct(p, in, 0);
	default:
		return op_control(p, in);
	}
}

/* Only DMA instructions have compiler operands that differ. */
char *demo_put_compiler_operands(char *p, const struct demo_inst *in)
{
	const struct demo_queueinfo *q = &demo_queues[in->queue];

	if (in->op == OP_DMA_DIRECT2D)
		return op_direct(p, in, 1);
	*p++ = ' ';
	p = dput_str(p, q->name ? q->name : q->info_name);
	p = DLIT(p, " block_id=");
	p = dput_u64(p, in->n);
	*p++ = ' ';
	return p;
}
