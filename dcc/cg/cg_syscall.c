/*
 * Codegen of the syscall provider's programs: whether a group takes one
 * tracepoint a syscall or one program on the raw_syscalls raw tracepoints
 * (ARCHITECTURE.md, "Syscall probes"), the filter on the syscall number
 * there, the number, the arguments and the return value from either
 * context.
 */
#include <stdlib.h>
#include <string.h>

#include "cg.h"
#include "cg_bpf.h"
#include "syscall.h"

/* Above this many syscalls a group is one program on raw_syscalls rather
 * than one tracepoint a syscall (bench/RESULTS.md, "Syscall probes: one
 * tracepoint each or raw_syscalls"); DCC_SYSCALL_RAW_MIN overrides it, for
 * the benchmark that measures the crossover. */
static int syscall_raw_min(void)
{
	const char *env = getenv("DCC_SYSCALL_RAW_MIN");
	return env && *env ? atoi(env) : 8;
}

/* How a group on raw_syscalls attaches: 'r' raw_tp (the default), 'b'
 * tp_btf (the same raw tracepoint with BTF-typed arguments, but libbpf
 * then reads the kernel's BTF at load: +30-150 ms), 't' the perf-event
 * tracepoint (whose close waits for RCU grace periods: ~70 ms at exit);
 * DCC_SYSCALL_RAW_KIND=raw|btf|tp for the benchmark. */
char cg_syscall_raw_kind(void)
{
	const char *env = getenv("DCC_SYSCALL_RAW_KIND");
	if (env && (!strcmp(env, "btf") || !strcmp(env, "tp")))
		return env[0];
	return 'r';
}

/* One program on raw_syscalls for group g: many syscalls, or one without
 * a syscalls/sys_enter_NAME tracepoint of its own (stat's is newstat's). */
bool cg_syscall_raw(const struct pgroup *g)
{
	if (g->nprobes > syscall_raw_min())
		return true;
	for (int i = 0; i < g->nprobes; i++)
		if (syscall_nargs(g->probes[i]->func) < 0)
			return true;
	return false;
}

/* raw_syscalls fire for every syscall: keep only this group's numbers. */
void cg_syscall_filter(struct cg *cg, struct pgroup *g, LLVMBasicBlockRef body)
{
	if (g->nprobes >= syscall_count()) {
		/* every syscall, but not the exits the kernel reports with id -1
		 * (a restarted or returning-from-signal call: no syscall probe) */
		LLVMBasicBlockRef none = cg_block(cg, "nosyscall");
		LLVMValueRef ok = LLVMBuildICmp(cg->b, LLVMIntSGE, cg->p->ctx_nr, cg_i64(cg, 0), "");
		LLVMBuildCondBr(cg->b, ok, body, none);
		LLVMPositionBuilderAtEnd(cg->b, none);
		LLVMBuildRet(cg->b, cg_i32(cg, 0));
		return;
	}
	LLVMBasicBlockRef out = cg_block(cg, "filtered");
	LLVMValueRef nr = LLVMBuildTrunc(cg->b, cg->p->ctx_nr, cg->i32, "");
	LLVMValueRef sw = LLVMBuildSwitch(cg->b, nr, out, (unsigned)g->nprobes);
	for (int i = 0; i < g->nprobes; i++)
		LLVMAddCase(sw, cg_i32(cg, (uint32_t)g->probes[i]->nr), body);
	LLVMPositionBuilderAtEnd(cg->b, out);
	LLVMBuildRet(cg->b, cg_i32(cg, 0));
}

/* The syscall number of a syscall probe's program, as an i64. */
LLVMValueRef cg_syscall_nr(struct cg *cg, struct pgroup *g)
{
	if (cg->p->ctx_regs) {
		/* the raw tracepoints sys_enter(regs, id); sys_exit(regs, ret)
		 * has the number only in regs->orig_ax (offset 120 of x86-64's
		 * pt_regs), as the kernel's syscall_get_nr() reads it */
		if (g->kind == PK_SYSCALL_ENTRY)
			return cg_bpf_ctx_load(cg, cg->i64, 8);
		return cg_syscall_reg(cg, 120);
	}
	/* __syscall_nr (int) of syscalls/sys_*_NAME and id (long) of
	 * raw_syscalls/sys_* both sit at offset 8 of the context. */
	LLVMValueRef off = cg_i64(cg, 8);
	LLVMValueRef p = LLVMBuildGEP2(cg->b, cg->i8, cg->p->ctx, &off, 1, "");
	LLVMValueRef nr = LLVMBuildLoad2(cg->b, cg->i32, p, "nr");
	return LLVMBuildSExt(cg->b, nr, cg->i64, "");
}

/* every syscall entry probe of g records argument i */
static bool syscall_args_have(const struct pgroup *g, int i)
{
	for (int k = 0; k < g->nprobes; k++)
		if (syscall_nargs(g->probes[k]->func) <= i)
			return false;
	return g->nprobes > 0;
}

/* A register the syscall left in its struct pt_regs (offset OFF): through
 * tp_btf's BTF-typed pointer a plain load, which the verifier checks
 * against the type and makes fault-safe; through raw_tp's a helper read. */
LLVMValueRef cg_syscall_reg(struct cg *cg, unsigned off)
{
	LLVMValueRef regs = LLVMBuildIntToPtr(cg->b, cg_bpf_ctx_load(cg, cg->i64, 0), cg->ptr,
					      "regs");
	LLVMValueRef o = cg_i64(cg, off);
	LLVMValueRef p = LLVMBuildGEP2(cg->b, cg->i8, regs, &o, 1, "");
	if (!cg->p->regs_typed)
		return cg_kread(cg, p, &type_ulong);
	return LLVMBuildLoad2(cg->b, cg->i64, p, "");
}

/* The return value of a syscall return probe: the record's ret (after its
 * id) or the raw tracepoint's second argument. */
LLVMValueRef cg_syscall_ret(struct cg *cg)
{
	return cg_bpf_ctx_load(cg, cg->i64, cg->p->ctx_regs ? 8 : 16);
}

/*
 * Argument i loaded from the context in the entry block, once a program:
 * the program keeps the value in a callee-saved register across the helper
 * calls before its use (reserving the record, execname) instead of the
 * context pointer, which it then no longer needs (one move fewer, and a
 * second use of the argument is no second load). One argument only: each
 * hoisted one holds a register for the whole program, and more of them
 * would spill.
 */
static LLVMValueRef ctx_arg(struct cg *cg, int i)
{
	struct cg_prog *p = cg->p;
	unsigned off = 16 + 8 * (unsigned)i;
	if (p->arg_hoisted && p->arg_hoisted_at == i)
		return p->arg_hoisted;
	if (p->arg_hoisted)
		return cg_bpf_ctx_load(cg, cg->i64, off);
	LLVMBasicBlockRef here = LLVMGetInsertBlock(cg->b);
	/* positioning before an instruction takes its location: keep ours */
	LLVMMetadataRef loc = LLVMGetCurrentDebugLocation2(cg->b);
	LLVMValueRef at = LLVMGetFirstInstruction(p->entry);
	while (at && LLVMIsAAllocaInst(at))
		at = LLVMGetNextInstruction(at);
	if (at)
		LLVMPositionBuilderBefore(cg->b, at);
	else
		LLVMPositionBuilderAtEnd(cg->b, p->entry);
	LLVMSetCurrentDebugLocation2(cg->b, loc);
	p->arg_hoisted = cg_bpf_ctx_load(cg, cg->i64, off);
	p->arg_hoisted_at = i;
	LLVMPositionBuilderAtEnd(cg->b, here);
	LLVMSetCurrentDebugLocation2(cg->b, loc);
	return p->arg_hoisted;
}

/* arg0..arg5 of a syscall entry probe (arg6.. are 0). */
LLVMValueRef cg_syscall_arg(struct cg *cg, int i)
{
	struct pgroup *g = cg->p->grp;
	if (i >= 6)
		return cg_i64(cg, 0);
	if (cg->p->ctx_regs) {
		/* x86-64's syscall arguments: di, si, dx, r10, r8, r9 */
		static const unsigned reg[6] = { 112, 104, 96, 56, 72, 64 };
		return cg_syscall_reg(cg, reg[i]);
	}
	if (cg->p->ctx_raw)
		return ctx_arg(cg, i);
	/* A syscalls/sys_enter_NAME record only has the syscall's own
	 * arguments, and the kernel refuses to attach a program that loads
	 * past them (EACCES): a context load when every probe of the program
	 * has argument i (syscall_nargs.c), else read the slot with a helper,
	 * which the kernel does not check. */
	if (syscall_args_have(g, i))
		return ctx_arg(cg, i);
	LLVMValueRef tmp = cg_tmp64(cg);
	LLVMValueRef o = cg_i64(cg, 16 + 8 * (unsigned)i);
	LLVMValueRef src = LLVMBuildGEP2(cg->b, cg->i8, cg->p->ctx, &o, 1, "");
	cg_bpf_probe_read_kernel(cg, tmp, cg_i32(cg, 8), src);
	return LLVMBuildLoad2(cg->b, cg->i64, tmp, "");
}
