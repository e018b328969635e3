/*
 * A clause that several of its descriptions match on one probe (BEGIN,
 * BEGIN; syscall::read:entry, syscall::re*:entry) runs once per matching
 * description, as DTrace enables it once per description. The clause is
 * built as a function of its own, NAME_once, and the group's program calls
 * it that many times in one firing (timers call theirs from cg_timer.c).
 */
#include <string.h>

#include "cg.h"

/* The group's program: the clause's function ONCE, g->repeat times. */
void cg_repeat_program(struct cg *cg, struct pgroup *g, LLVMValueRef once, const char *sec,
		       struct loc loc)
{
	LLVMTypeRef pt = cg->ptr;
	LLVMTypeRef fty = LLVMFunctionType(cg->i32, &pt, 1, 0);
	LLVMValueRef fn = LLVMAddFunction(cg->M, g->prog_name, fty);
	LLVMSetSection(fn, sec);
	LLVMSetLinkage(fn, LLVMExternalLinkage);
	cg_fn_attr(cg, fn, "nounwind");
	LLVMValueRef ctx = LLVMGetParam(fn, 0);
	LLVMSetValueName2(ctx, "ctx", 3);
	LLVMMetadataRef params[2] = { cg->di_int, cg->di_voidptr };
	LLVMMetadataRef sty = LLVMDIBuilderCreateSubroutineType(cg->dib, cg->di_file, params, 2, 0);
	size_t len = strlen(g->prog_name);
	LLVMMetadataRef sp = LLVMDIBuilderCreateFunction(cg->dib, cg->di_file, g->prog_name, len,
		g->prog_name, len, cg->di_file, loc.line, sty, 0, 1, loc.line,
		LLVMDIFlagPrototyped, 1);
	LLVMSetSubprogram(fn, sp);
	LLVMDIBuilderCreateParameterVariable(cg->dib, sp, "ctx", 3, 1, cg->di_file, loc.line,
					     cg->di_voidptr, 1, 0);
	LLVMPositionBuilderAtEnd(cg->b, LLVMAppendBasicBlockInContext(cg->C, fn, "entry"));
	LLVMMetadataRef dl = LLVMDIBuilderCreateDebugLocation(cg->C, loc.line, loc.col, sp, NULL);
	LLVMSetCurrentDebugLocation2(cg->b, dl);
	for (int r = 0; r < g->repeat; r++)
		LLVMBuildCall2(cg->b, fty, once, &ctx, 1, "");
	LLVMBuildRet(cg->b, cg_i32(cg, 0));
}

