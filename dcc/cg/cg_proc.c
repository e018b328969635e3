/*
 * Codegen of the proc and sched providers' programs (see proc_prov.h): the
 * section and attachments of each probe's kernel point, its arguments
 * mapped from that point's context, the filter that sema typed
 * (sema_proc.c), tested before the clause's own predicate, the stand-ins
 * for the current task where a probe describes another (on-cpu), and
 * curcpu.
 */
#include <stdio.h>

#include <dcc/abi.h>
#include "arena.h"
#include "cg.h"
#include "cg_bpf.h"
#include "cg_meta.h"
#include "proc_prov.h"

#define NR_EXECVEAT 322 /* x86_64 */

const char *cg_proc_section(struct cg *cg, struct pgroup *g)
{
	const struct proc_probe *pp = g->proc;
	switch (pp->attach) {
	case PA_TP_BTF:
		return arena_printf(cg->ar, "tp_btf/%s", pp->target);
	case PA_SYS_ENTER:
		return "tracepoint/syscalls/sys_enter_execve";
	case PA_SYS_EXIT:
		return "tracepoint/syscalls/sys_exit_execve";
	}
	return "";
}

void cg_proc_attach(struct cg *cg, struct pgroup *g)
{
	const struct proc_probe *pp = g->proc;
	switch (pp->attach) {
	case PA_TP_BTF:
		cg_meta_attach(cg->meta, g->prog_name, DCC_ATTACH_TP_BTF, pp->target, 0, 0);
		break;
	case PA_SYS_ENTER:
	case PA_SYS_EXIT: {
		const char *dir = pp->attach == PA_SYS_ENTER ? "enter" : "exit";
		char tp[64];
		snprintf(tp, sizeof(tp), "syscalls/sys_%s_execve", dir);
		cg_meta_attach(cg->meta, g->prog_name, DCC_ATTACH_TRACEPOINT, tp, 0, 0);
		snprintf(tp, sizeof(tp), "syscalls/sys_%s_execveat", dir);
		cg_meta_attach(cg->meta, g->prog_name, DCC_ATTACH_TRACEPOINT, tp, 0, 0);
		break;
	}
	}
}

static LLVMValueRef ctx_load(struct cg *cg, LLVMTypeRef t, unsigned off)
{
	return cg_bpf_ctx_load(cg, t, off);
}

/* argI of the current proc program */
LLVMValueRef cg_proc_arg(struct cg *cg, int i)
{
	const struct proc_probe *pp = cg->p->grp->proc;
	int src = i >= 0 && i < PROC_MAXSRC ? pp->src[i] : PROC_SRC_NONE;
	bool sys = pp->attach == PA_SYS_ENTER || pp->attach == PA_SYS_EXIT;
	if (src == PROC_SRC_NONE)
		return cg_i64(cg, 0);
	if (src == PROC_SRC_LKTIME || src == PROC_SRC_LKFLAGS || src == PROC_SRC_LKREADER)
		return cg_lockstat_arg(cg, src);
	if (src == PROC_SRC_CURTASK)
		return cg_bpf_get_current_task(cg);
	if (src == PROC_SRC_PATH) {
		/* syscalls/sys_enter_*: the number (int) at 8, the arguments from 16 */
		LLVMValueRef nr = ctx_load(cg, cg->i32, 8);
		LLVMValueRef at = LLVMBuildICmp(cg->b, LLVMIntEQ, nr, cg_i32(cg, NR_EXECVEAT), "");
		return LLVMBuildSelect(cg->b, at, ctx_load(cg, cg->i64, 24),
				       ctx_load(cg, cg->i64, 16), "path");
	}
	return ctx_load(cg, cg->i64, (sys ? 16 : 0) + 8 * (unsigned)src);
}

/* curthread, ppid, uid, gid or execname (node n) where the program's row
 * names another task than the running one (sched:::on-cpu): the value of
 * the D library's stand-in; .v NULL for the running task's own. */
struct cval cg_proc_cur(struct cg *cg, struct node *n)
{
	static const struct {
		enum builtin_var var;
		enum proc_cur cur;
	} by[] = {
		{ B_CURTHREAD, PC_TASK }, { B_PPID, PC_PPID }, { B_UID, PC_UIDGID },
		{ B_GID, PC_UIDGID }, { B_EXECNAME, PC_COMM },
	};
	struct pgroup *g = cg->p->grp;
	for (unsigned i = 0; g && g->kind == PK_PROC && i < sizeof(by) / sizeof(by[0]); i++) {
		if (by[i].var != (enum builtin_var)n->id || !g->cur[by[i].cur])
			continue;
		struct cval c = cg_expr(cg, g->cur[by[i].cur]);
		if (n->id == B_GID)
			c.v = LLVMBuildLShr(cg->b, c.v, cg_i64(cg, 32), "");
		return c;
	}
	return (struct cval){ 0 };
}

/* The current task as a number: bpf_get_current_task()'s, or the task a
 * sched:::on-cpu program stands for. */
LLVMValueRef cg_cur_task(struct cg *cg)
{
	struct pgroup *g = cg->p->grp;
	if (g && g->kind == PK_PROC && g->cur[PC_TASK])
		return cg_expr(cg, g->cur[PC_TASK]).v;
	return cg_bpf_get_current_task(cg);
}

/* curcpu: this CPU's entry of the per-CPU map, as a plain number. D casts
 * and shifts it, which the verifier refuses on a map pointer, so the
 * pointer is copied out of a stack slot with bpf_probe_read_kernel(), whose
 * result the verifier sees as data. */
LLVMValueRef cg_curcpu(struct cg *cg)
{
	LLVMValueRef p = cg_bpf_map_lookup(cg, cg_map_ref(cg, cg->m_cpuinfo), cg_key0(cg));
	LLVMValueRef slot = cg_alloca(cg, cg->ptr, "cpuinfo"), out = cg_tmp64(cg);
	LLVMBuildStore(cg->b, p, slot);
	cg_bpf_probe_read_kernel(cg, out, cg_i32(cg, 8), slot);
	return LLVMBuildLoad2(cg->b, cg->i64, out, "curcpu");
}

/* Before the clause: return unless the probe's own condition holds. */
void cg_proc_filter(struct cg *cg, struct pgroup *g, LLVMBasicBlockRef body)
{
	if (!g->proc_pred) {
		LLVMBuildBr(cg->b, body);
		return;
	}
	LLVMValueRef v = cg_expr(cg, g->proc_pred).v;
	LLVMValueRef ok = LLVMBuildICmp(cg->b, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
	LLVMBasicBlockRef out = cg_block(cg, "proc.skip");
	LLVMBuildCondBr(cg->b, ok, body, out);
	LLVMPositionBuilderAtEnd(cg->b, out);
	LLVMBuildRet(cg->b, cg_i32(cg, 0));
}
