/*
 * The lockstat provider's other half (sema_lockstat.c): one program on
 * lock:contention_begin that records, per thread and lock, when the
 * contention began and its LCB_F_* flags in an LRU hash, and the arguments
 * the contention_end programs read back from it (the time since, the
 * flags, reader or writer). An LRU map, because an entry is left for the
 * next begin to overwrite rather than deleted by the first of several
 * clauses that read it; the oldest go when it is full.
 */
#include <string.h>

#include <dcc/abi.h>
#include "cg.h"
#include "cg_bpf.h"
#include "cg_meta.h"
#include "proc_prov.h"


bool cg_lockstat_used(struct sema *s)
{
	for (int i = 0; i < s->nclauses; i++)
		for (int j = 0; j < s->clauses[i].ngroups; j++) {
			const struct pgroup *g = &s->clauses[i].groups[j];
			if (g->kind == PK_PROC && !strcmp(g->probes[0]->prov, "lockstat"))
				return true;
		}
	return false;
}

/* key: { thread id (pid_tgid), lock }; value: { begin ns, flags } */
static LLVMValueRef lk_key(struct cg *cg, LLVMValueRef ctx)
{
	LLVMTypeRef kt = LLVMArrayType(cg->i64, 2);
	LLVMValueRef key = cg_alloca(cg, kt, "lk.key");
	LLVMValueRef i0 = cg_i64(cg, 0), i1 = cg_i64(cg, 1);
	LLVMValueRef lock = LLVMBuildLoad2(cg->b, cg->i64, ctx, "lock");
	LLVMBuildStore(cg->b, cg_bpf_get_current_pid_tgid(cg),
		       LLVMBuildGEP2(cg->b, cg->i64, key, &i0, 1, ""));
	LLVMBuildStore(cg->b, lock, LLVMBuildGEP2(cg->b, cg->i64, key, &i1, 1, ""));
	return key;
}

/* lock:contention_begin(lock, flags): record the start */
void cg_lockstat_program(struct cg *cg)
{
	if (cg->m_lockstat < 0)
		return;
	static const char name[] = "dcc_lkbegin";
	LLVMTypeRef pt = cg->ptr;
	LLVMTypeRef fty = LLVMFunctionType(cg->i32, &pt, 1, 0);
	struct cg_prog prog = { 0 };

	prog.fn = LLVMAddFunction(cg->M, name, fty);
	LLVMSetSection(prog.fn, "tp_btf/contention_begin");
	LLVMSetLinkage(prog.fn, LLVMExternalLinkage);
	cg_fn_attr(cg, prog.fn, "nounwind");
	prog.ctx = LLVMGetParam(prog.fn, 0);
	LLVMMetadataRef params[2] = { cg->di_int, cg->di_voidptr };
	LLVMMetadataRef sty = LLVMDIBuilderCreateSubroutineType(cg->dib, cg->di_file, params,
								2, 0);
	prog.sp = LLVMDIBuilderCreateFunction(cg->dib, cg->di_file, name, strlen(name), name,
		strlen(name), cg->di_file, 1, sty, 0, 1, 1, LLVMDIFlagPrototyped, 1);
	LLVMSetSubprogram(prog.fn, prog.sp);
	cg->p = &prog;
	prog.entry = cg_block(cg, "entry");
	LLVMPositionBuilderAtEnd(cg->b, prog.entry);
	cg_set_loc(cg, (struct loc){ .line = 1, .col = 1 });

	LLVMValueRef key = lk_key(cg, prog.ctx);
	LLVMValueRef val = cg_alloca(cg, LLVMArrayType(cg->i64, 2), "lk.val");
	LLVMValueRef i0 = cg_i64(cg, 0), i1 = cg_i64(cg, 1), i8 = cg_i64(cg, 8);
	LLVMValueRef fp = LLVMBuildGEP2(cg->b, cg->i8, prog.ctx, &i8, 1, "");
	LLVMValueRef flags = LLVMBuildLoad2(cg->b, cg->i64, fp, "flags");
	LLVMBuildStore(cg->b, cg_bpf_ktime_get_ns(cg), LLVMBuildGEP2(cg->b, cg->i64, val, &i0, 1,
								     ""));
	LLVMBuildStore(cg->b, LLVMBuildAnd(cg->b, flags, cg_i64(cg, 0xffffffff), ""),
		       LLVMBuildGEP2(cg->b, cg->i64, val, &i1, 1, ""));
	cg_bpf_map_update(cg, cg_map_ref(cg, cg->m_lockstat), key, val, 0);
	LLVMBuildRet(cg->b, cg_i32(cg, 0));
	cg->p = NULL;
	cg_meta_attach(cg->meta, name, DCC_ATTACH_TP_BTF, "contention_begin", 0, 0);
}

/* arg1, arg2 or arg3 of a lockstat probe (contention_end): 0 without a
 * recorded begin */
LLVMValueRef cg_lockstat_arg(struct cg *cg, int src)
{
	LLVMValueRef key = lk_key(cg, cg->p->ctx);
	LLVMValueRef v = cg_bpf_map_lookup(cg, cg_map_ref(cg, cg->m_lockstat), key);
	LLVMBasicBlockRef from = LLVMGetInsertBlock(cg->b);
	LLVMBasicBlockRef rd = cg_block(cg, "lk.read"), done = cg_block(cg, "lk.done");
	LLVMValueRef null = LLVMBuildICmp(cg->b, LLVMIntEQ, v, LLVMConstNull(cg->ptr), "");
	LLVMBuildCondBr(cg->b, null, done, rd);
	LLVMPositionBuilderAtEnd(cg->b, rd);
	LLVMValueRef idx = cg_i64(cg, src == PROC_SRC_LKTIME ? 0 : 1);
	LLVMValueRef x = LLVMBuildLoad2(cg->b, cg->i64, LLVMBuildGEP2(cg->b, cg->i64, v, &idx, 1,
								     ""), "");
	if (src == PROC_SRC_LKTIME)
		x = LLVMBuildSub(cg->b, cg_bpf_ktime_get_ns(cg), x, "");
	else if (src == PROC_SRC_LKREADER)
		x = LLVMBuildAnd(cg->b, LLVMBuildLShr(cg->b, x, cg_i64(cg, 1), ""), cg_i64(cg, 1),
				 "");
	LLVMBasicBlockRef rd_end = LLVMGetInsertBlock(cg->b);
	LLVMBuildBr(cg->b, done);
	LLVMPositionBuilderAtEnd(cg->b, done);
	LLVMValueRef phi = LLVMBuildPhi(cg->b, cg->i64, "lk");
	LLVMValueRef vals[2] = { cg_i64(cg, 0), x };
	LLVMBasicBlockRef bbs[2] = { from, rd_end };
	LLVMAddIncoming(phi, vals, bbs, 2);
	return phi;
}
