/*
 * The traced process's memory -> values: copyinstr() into a NUL-padded
 * string buffer, and copyin() into the clause's scratch memory, whose
 * address is the void * value; the script reads the copy through it like
 * any kernel memory (members, elements, dereferences). A copy that faults
 * raises DTrace's invalid address error and leaves the clause; printf()
 * writes copyinstr() and execname straight into its record. And
 * uregs[R_*], a register the thread's user code left in its struct pt_regs.
 */
#include <dcc/abi.h>
#include "cg.h"
#include "cg_bpf.h"

/* copyinstr() into dst, a buffer of cg_str_cap() bytes; zeroed first when
 * the bytes after the NUL are read (keys, compares, copies). */
static LLVMValueRef copyinstr_at(struct cg *cg, struct node *n, LLVMValueRef dst, bool zero)
{
	unsigned cap = cg_str_cap(cg, n);
	/* the size counts the NUL, as DTrace's does */
	uint32_t max = n->ival && n->ival < cap ? (uint32_t)n->ival : cap;
	max = max < cg->strmax ? max : cg->strmax;
	LLVMValueRef uaddr = cg_expr(cg, n->list).v;
	LLVMValueRef addr = LLVMBuildIntToPtr(cg->b, uaddr, cg->ptr, "");
	if (!dst)
		dst = cg_tmpbuf(cg, cap);
	if (zero)
		cg_memop(cg, "llvm.memset", dst, NULL, cap);
	LLVMValueRef rc = cg_bpf_probe_read_user_str(cg, dst, cg_i32(cg, max), addr);
	cg_fault_if(cg, LLVMBuildICmp(cg->b, LLVMIntSLT, rc, cg_i64(cg, 0), ""), DCC_FAULT_BADADDR,
		    uaddr);
	return dst;
}

/* A NUL-terminated string from the traced process's memory. */
struct cval cg_copyinstr(struct cg *cg, struct node *n)
{
	LLVMValueRef dst = copyinstr_at(cg, n, NULL, true);
	return (struct cval){ .v = dst, .t = &type_string, .cap = cg_str_cap(cg, n) };
}

/*
 * A string written straight into dst, a slot of cap bytes, instead of
 * through a temporary and a copy, when it is copyinstr() or the running
 * task's execname; false when a is not one of those. Zero-padded with zero
 * (keys); else the bytes after the NUL (which both always write) are left
 * as they were: printf()'s record slots, which the consumer reads up to it.
 */
bool cg_str_into(struct cg *cg, struct node *a, LLVMValueRef dst, unsigned cap, bool zero)
{
	if (a->kind == N_CALL && a->bi && a->bi->id == BI_COPYINSTR && cg_str_cap(cg, a) == cap) {
		copyinstr_at(cg, a, dst, zero);
		return true;
	}
	/* sched:::on-cpu's execname is the arriving task's (cg_proc_cur) */
	if (a->kind == N_IDENT && !a->sym && a->id == B_EXECNAME && cap == 16 &&
	    cg->p->grp->kind != PK_PROC) {
		/* some kernels (6.1) copy the comm's NUL and leave the rest;
		 * two stores of an immediate, not a zero register and two */
		if (zero) {
			cg_bpf_store_imm(cg, dst, 0, 8, 0);
			cg_bpf_store_imm(cg, dst, 8, 8, 0);
		}
		cg_bpf_get_current_comm(cg, dst, cg_i32(cg, 16));
		return true;
	}
	return false;
}

/* copyin(addr, size): the copy lives in scratch memory for the rest of the
 * clause (scratch is never reused within a program), so a pointer to it can
 * be kept in a clause-local and dereferenced by later statements. */
struct cval cg_copyin(struct cg *cg, struct node *n)
{
	uint32_t size = (uint32_t)n->ival;
	LLVMValueRef uaddr = cg_expr(cg, n->list).v;
	/* a NUL after the copy, so (string)copyin(...) ends with it */
	LLVMValueRef dst = cg_scratch(cg, cg_alloca_alloc(cg, n, size + 1));
	LLVMValueRef nul = cg_i64(cg, size);
	LLVMBuildStore(cg->b, LLVMConstInt(cg->i8, 0, 0), LLVMBuildGEP2(cg->b, cg->i8, dst, &nul, 1, ""));
	LLVMValueRef src = LLVMBuildIntToPtr(cg->b, uaddr, cg->ptr, "");
	LLVMValueRef rc = cg_bpf_probe_read_user(cg, dst, cg_i32(cg, size), src);
	LLVMBasicBlockRef bad = cg_block(cg, "copyin.fault"), ok = cg_block(cg, "copyin.ok");
	LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntNE, rc, cg_i64(cg, 0), ""), bad, ok);
	LLVMPositionBuilderAtEnd(cg->b, bad);
	cg_fault(cg, DCC_FAULT_BADADDR, uaddr);
	LLVMPositionBuilderAtEnd(cg->b, ok);
	return (struct cval){ .v = LLVMBuildPtrToInt(cg->b, dst, cg->i64, ""), .t = n->type };
}

/* uregs[i]: slot i of the task's saved user registers (sema keeps i within
 * struct pt_regs, whose slots are 8 bytes on x86_64) */
struct cval cg_uregs(struct cg *cg, struct node *n)
{
	enum probe_kind k = cg->p->grp->kind;
	if (k == PK_PID_ENTRY || k == PK_PID_RETURN || k == PK_USDT)
		return (struct cval){ .v = cg_pid_uregs(cg, (unsigned)n->ival), .t = n->type };
	LLVMValueRef regs = cg_bpf_task_pt_regs(cg, cg_bpf_get_current_task_btf(cg));
	LLVMValueRef off = cg_i64(cg, 8 * n->ival);
	LLVMValueRef at = LLVMBuildGEP2(cg->b, cg->i8, regs, &off, 1, "");
	return (struct cval){ .v = cg_kread(cg, at, n->type), .t = n->type };
}
