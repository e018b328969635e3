/*
 * The ERROR probe. Its clauses have no program of their own: each is a
 * static BPF function, built like any clause (cg.c's build_group), that
 * every fault path of every other program calls after reporting the fault
 * (cg_fault). The function's parameters hold what DTrace gives ERROR
 * clauses: arg1 the faulting probe's ID, arg2 the faulting clause's index
 * (from 0, in source order, ERROR clauses counted), arg3 the offset of the
 * fault, arg4 the fault (DTRACEFLT_*, the values of enum dcc_fault) and
 * arg5 the address or value at fault; arg0 is 0.
 */
#include <string.h>
#include <dcc/abi.h>
#include "arena.h"
#include "cg.h"

#define ERR_NPARAMS 5 /* ctx, probe id, clause | pc << 32, fault, detail */

static LLVMTypeRef error_fn_type(struct cg *cg)
{
	LLVMTypeRef p[ERR_NPARAMS] = { cg->ptr, cg->i64, cg->i64, cg->i64, cg->i64 };
	return LLVMFunctionType(cg->i32, p, ERR_NPARAMS, 0);
}

void cg_error_declare(struct cg *cg)
{
	struct sema *s = cg->s;
	int n = 0;
	for (int i = 0; i < s->nclauses; i++)
		for (int j = 0; j < s->clauses[i].ngroups; j++)
			n += s->clauses[i].groups[j].kind == PK_ERROR;
	if (!n)
		return;
	cg->err_fns = arena_alloc(cg->ar, sizeof(*cg->err_fns) * (size_t)n);
	for (int i = 0; i < s->nclauses; i++) {
		for (int j = 0; j < s->clauses[i].ngroups; j++) {
			struct pgroup *g = &s->clauses[i].groups[j];
			if (g->kind != PK_ERROR)
				continue;
			LLVMValueRef fn = LLVMAddFunction(cg->M, g->prog_name, error_fn_type(cg));
			LLVMSetLinkage(fn, LLVMInternalLinkage);
			/* one copy shared by the fault paths, not one at each */
			cg_fn_attr(cg, fn, "noinline");
			cg_fn_attr(cg, fn, "nounwind");
			cg->err_fns[cg->nerr_fns++] = fn;
		}
	}
}

void cg_error_call(struct cg *cg, uint32_t fault, LLVMValueRef detail)
{
	if (!cg->nerr_fns)
		return;
	uint64_t where = (uint64_t)(cg->ci->index - 1);
	LLVMValueRef args[ERR_NPARAMS] = {
		cg->p->ctx, cg_probe_id(cg), cg_i64(cg, where), cg_i64(cg, fault),
		detail ? detail : cg_i64(cg, 0),
	};
	for (int i = 0; i < cg->nerr_fns; i++)
		LLVMBuildCall2(cg->b, error_fn_type(cg), cg->err_fns[i], args, ERR_NPARAMS, "");
}

LLVMValueRef cg_error_arg(struct cg *cg, int i)
{
	LLVMValueRef fn = cg->p->fn, where = LLVMGetParam(fn, 2);
	switch (i) {
	case 1:
		return LLVMGetParam(fn, 1);
	case 2:
		return LLVMBuildAnd(cg->b, where, cg_i64(cg, 0xffffffffu), "");
	case 3:
		return LLVMBuildLShr(cg->b, where, cg_i64(cg, 32), "");
	case 4:
		return LLVMGetParam(fn, 3);
	case 5:
		return LLVMGetParam(fn, 4);
	default:
		return cg_i64(cg, 0);
	}
}
