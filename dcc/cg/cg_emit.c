/*
 * LLVM module -> BPF ELF object in memory: verify, run the pass pipeline
 * with the BPF target machine (its callbacks lower the CO-RE intrinsics),
 * and emit. See ../shared/LLVM-C-BPF.md for why the order matters.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "cg.h"
#include "cg_emit.h"
#include "dcc/abi_sum.h"
#include "diag.h"
#include "stage.h"

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

/* The backend's own errors (a program whose stack passes BPF's 512 bytes)
 * go to the context's handler instead of LLVM's, which prints them raw and
 * exits; the first one is kept. */
static void backend_diag(LLVMDiagnosticInfoRef di, void *ctx)
{
	char **first = ctx;
	if (LLVMGetDiagInfoSeverity(di) != LLVMDSError || *first)
		return;
	char *d = LLVMGetDiagInfoDescription(di);
	*first = strdup(d);
	LLVMDisposeMessage(d);
}

/* The clause whose program the backend's message names ("in function
 * dcc_c3"), NULL if it names none. */
static struct clause_info *clause_named(struct cg *cg, const char *msg)
{
	const char *f = strstr(msg, "in function ");
	if (!f)
		return NULL;
	f += strlen("in function ");
	for (int i = 0; i < cg->s->nclauses; i++)
		for (int j = 0; j < cg->s->clauses[i].ngroups; j++) {
			const char *name = cg->s->clauses[i].groups[j].prog_name;
			size_t n = strlen(name);
			if (!strncmp(f, name, n) && (f[n] == ' ' || f[n] == ':' || !f[n]))
				return &cg->s->clauses[i];
		}
	return NULL;
}

static int backend_error(struct cg *cg, const char *msg)
{
	struct clause_info *ci = clause_named(cg, msg);
	if (strstr(msg, "stack limit") && ci)
		return diag_error(cg->dg, ci->n->loc, "this clause needs more than the 512 bytes "
				  "of stack a BPF program has: split it into smaller clauses");
	if (ci)
		return diag_error(cg->dg, ci->n->loc, "the BPF backend refused this clause: %s",
				  msg);
	return diag_fatal(cg->dg, "the BPF backend refused the program: %s", msg);
}

int cg_emit_object(struct cg *cg, bool dump_ir, void **obj, size_t *size)
{
	char *err = NULL;
	stage_enter(STAGE_PASSES);
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
	if (dump_ir || cg->emit == CG_EMIT_IR) {
		char *ir = LLVMPrintModuleToString(cg->M);
		if (cg->emit == CG_EMIT_IR) {
			*size = strlen(ir);
			*obj = strdup(ir);
			LLVMDisposeMessage(ir);
			return 0;
		}
		fputs(ir, stdout);
		LLVMDisposeMessage(ir);
	}
	stage_enter(STAGE_EMIT);
	LLVMMemoryBufferRef buf;
	char *first = NULL;
	LLVMContextSetDiagnosticHandler(cg->C, backend_diag, &first);
	LLVMBool failed = LLVMTargetMachineEmitToMemoryBuffer(cg->tm, cg->M,
		cg->emit == CG_EMIT_ASM ? LLVMAssemblyFile : LLVMObjectFile, &err, &buf);
	LLVMContextSetDiagnosticHandler(cg->C, NULL, NULL);
	if (first) {
		int rc = backend_error(cg, first);
		free(first);
		if (!failed)
			LLVMDisposeMemoryBuffer(buf);
		return rc;
	}
	if (failed)
		diag_bug_fatal(cg->dg, "BPF backend: %s", err);
	*size = LLVMGetBufferSize(buf);
	*obj = malloc(*size);
	memcpy(*obj, LLVMGetBufferStart(buf), *size);
	LLVMDisposeMemoryBuffer(buf);
	/* last: the checksum covers every other byte of the object */
	if (cg->emit == CG_EMIT_OBJ && abi_obj_sum_set(*obj, *size))
		diag_bug_fatal(cg->dg, "BPF backend: no .dcc.meta header in the object");
	return 0;
}
