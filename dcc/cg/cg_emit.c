/*
 * LLVM module -> BPF ELF object in memory: verify, run the pass pipeline
 * with the BPF target machine (its callbacks lower the CO-RE intrinsics),
 * and emit. See ../shared/LLVM-C-BPF.md for why the order matters.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "cg.h"
#include "cg_emit.h"
#include "diag.h"

LLVMTargetMachineRef cg_emit_target_machine(void)
{
	static int inited;
	if (!inited) {
		LLVMInitializeBPFTargetInfo();
		LLVMInitializeBPFTarget();
		LLVMInitializeBPFTargetMC();
		LLVMInitializeBPFAsmPrinter();
		inited = 1;
	}
	LLVMTargetRef t;
	char *err = NULL;
	if (LLVMGetTargetFromTriple("bpfel", &t, &err)) {
		fprintf(stderr, "dcc: error: no BPF target in LLVM: %s\n", err);
		LLVMDisposeMessage(err);
		return NULL;
	}
	return LLVMCreateTargetMachine(t, "bpfel", "v3", "", LLVMCodeGenLevelDefault,
				       LLVMRelocDefault, LLVMCodeModelDefault);
}

void cg_emit_object(struct cg *cg, bool dump_ir, void **obj, size_t *size)
{
	char *err = NULL;
	if (LLVMVerifyModule(cg->M, LLVMReturnStatusAction, &err)) {
		if (getenv("DCC_DEBUG_IR")) {
			char *ir = LLVMPrintModuleToString(cg->M);
			fputs(ir, stderr);
			LLVMDisposeMessage(ir);
		}
		diag_bug_fatal(cg->dg, "invalid IR generated:\n%s", err);
	}
	LLVMDisposeMessage(err);
	LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
	LLVMErrorRef perr = LLVMRunPasses(cg->M, "default<O2>", cg->tm, po);
	LLVMDisposePassBuilderOptions(po);
	if (perr)
		diag_bug_fatal(cg->dg, "optimizer: %s", LLVMGetErrorMessage(perr));
	if (dump_ir) {
		char *ir = LLVMPrintModuleToString(cg->M);
		fputs(ir, stdout);
		LLVMDisposeMessage(ir);
	}
	LLVMMemoryBufferRef buf;
	if (LLVMTargetMachineEmitToMemoryBuffer(cg->tm, cg->M, LLVMObjectFile, &err, &buf))
		diag_bug_fatal(cg->dg, "BPF backend: %s", err);
	*size = LLVMGetBufferSize(buf);
	*obj = malloc(*size);
	memcpy(*obj, LLVMGetBufferStart(buf), *size);
	LLVMDisposeMemoryBuffer(buf);
}
