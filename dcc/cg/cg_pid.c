/*
 * Codegen of the pid provider's programs: a uprobe (entry) or uretprobe
 * (return) program per description, which the loader attaches to every
 * function the description matches in the process (loader/pid.c), each
 * with its probe id as the BPF cookie. The context is the traced thread's
 * user registers, x86-64's struct pt_regs, read in place (a kprobe-type
 * program may load from its context within the struct).
 */
#include <stddef.h>

#include <dcc/abi.h>
#include "cg.h"
#include "cg_bpf.h"

/* offsets in x86-64's struct pt_regs */
enum { R_AX = 80, R_SP = 152 };
static const unsigned arg_regs[6] = { 112, 104, 96, 88, 72, 64 }; /* di si dx cx r8 r9 */

static LLVMValueRef reg(struct cg *cg, unsigned off)
{
	return cg_bpf_ctx_load(cg, cg->i64, off);
}

/*
 * Entry: arg0..arg5 in registers (System V), the others on the user stack
 * above the return address. Return: as DTrace, arg0 is the return
 * instruction's offset in the function and arg1 the return value; a
 * uretprobe fires at the return address, after the ret instruction, which
 * it cannot name, so arg0 is 0. At an offset into the function, arg0..arg5
 * are the argument registers as they are there (DTrace's reading too), and
 * the others 0: the stack has moved since the entry.
 */
LLVMValueRef cg_pid_arg(struct cg *cg, int i)
{
	if (cg->p->grp->kind == PK_PID_RETURN)
		return i == 1 ? reg(cg, R_AX) : cg_i64(cg, 0);
	if (i < 6)
		return reg(cg, arg_regs[i]);
	if (cg->p->grp->probes[0]->pid_offset)
		return cg_i64(cg, 0);
	LLVMValueRef tmp = cg_tmp64(cg);
	LLVMBuildStore(cg->b, cg_i64(cg, 0), tmp);
	LLVMValueRef at = LLVMBuildAdd(cg->b, reg(cg, R_SP), cg_i64(cg, 8 * (uint64_t)(i - 5)), "");
	cg_bpf_probe_read_user(cg, tmp, cg_i32(cg, 8), LLVMBuildIntToPtr(cg->b, at, cg->ptr, ""));
	return LLVMBuildLoad2(cg->b, cg->i64, tmp, "");
}

/* uregs[i] in a pid or USDT probe: slot i of the context, the user
 * registers the uprobe saved (the same as the task's pt_regs, without the
 * two helper calls) */
LLVMValueRef cg_pid_uregs(struct cg *cg, unsigned i)
{
	return reg(cg, 8 * i);
}

LLVMValueRef cg_pid_probe_id(struct cg *cg)
{
	LLVMValueRef ctx = cg->p->ctx;
	LLVMValueRef c = cg_bpf_call(cg, BPF_FUNC_get_attach_cookie, &ctx, 1);
	return LLVMBuildAnd(cg->b, c, cg_i64(cg, 0xffffffffu), "probe_id");
}

/* The firing function's names, from the map the loader fills
 * (DCC_MAP_PIDNAMES); "" if it has no entry. */
LLVMValueRef cg_pid_name(struct cg *cg, int which, unsigned *cap)
{
	static const unsigned offs[4] = { offsetof(struct dcc_pidname, prov),
		offsetof(struct dcc_pidname, mod), offsetof(struct dcc_pidname, func),
		offsetof(struct dcc_pidname, name) };
	static const unsigned sizes[4] = { sizeof(((struct dcc_pidname *)0)->prov),
		sizeof(((struct dcc_pidname *)0)->mod), sizeof(((struct dcc_pidname *)0)->func),
		sizeof(((struct dcc_pidname *)0)->name) };
	unsigned size = sizes[which] < cg->strsize ? sizes[which] : cg->strsize;
	LLVMValueRef dst = cg_tmpbuf(cg, size), key = cg_tmp64(cg);

	LLVMBuildStore(cg->b, LLVMBuildTrunc(cg->b, cg_pid_probe_id(cg), cg->i32, ""), key);
	LLVMValueRef v = cg_bpf_map_lookup(cg, cg_map_ref(cg, cg->m_pidnames), key);
	LLVMBasicBlockRef found = cg_block(cg, "pidname"), none = cg_block(cg, "nopidname");
	LLVMBasicBlockRef done = cg_block(cg, "pidname.done");
	LLVMBuildCondBr(cg->b, LLVMBuildIsNull(cg->b, v, ""), none, found);
	LLVMPositionBuilderAtEnd(cg->b, found);
	LLVMValueRef o = cg_i64(cg, offs[which]);
	cg_memop(cg, "llvm.memcpy", dst, LLVMBuildGEP2(cg->b, cg->i8, v, &o, 1, ""), size);
	LLVMBuildBr(cg->b, done);
	LLVMPositionBuilderAtEnd(cg->b, none);
	LLVMBuildStore(cg->b, LLVMConstInt(cg->i8, 0, 0), dst);
	LLVMBuildBr(cg->b, done);
	LLVMPositionBuilderAtEnd(cg->b, done);
	/* a name cut to strsize keeps its NUL */
	LLVMValueRef last = cg_i64(cg, size - 1);
	LLVMBuildStore(cg->b, LLVMConstInt(cg->i8, 0, 0),
		       LLVMBuildGEP2(cg->b, cg->i8, dst, &last, 1, ""));
	*cap = size;
	return dst;
}
