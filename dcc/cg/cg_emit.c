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
#include <llvm-c/Support.h>
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
		/* the parser reads cg_bpf_store_imm()'s inline asm */
		LLVMInitializeBPFAsmParser();
		inited = 1;
		/* Three code generator passes that change none of dcc's
		 * objects (the same 506 scripts as tuned_o2 below), ~2% of a
		 * 20-clause compile. Others tried changed bytes: machine-dce and
		 * machine-cse, copyprop, block placement, early tail duplication.
		 * DCC_LLVM_ARGS adds options (space-separated), to measure others
		 * as DCC_PASSES does for the pipeline. */
		const char *argv[16] = { "dcc", "-disable-peephole", "-disable-postra-machine-sink",
					 "-disable-constant-hoisting" };
		int argc = 4;
		char *extra = getenv("DCC_LLVM_ARGS") ? strdup(getenv("DCC_LLVM_ARGS")) : NULL;
		for (char *a = extra ? strtok(extra, " ") : NULL; a && argc < 16; a = strtok(NULL, " "))
			argv[argc++] = a;
		LLVMParseCommandLineOptions(argc, argv, NULL);
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

/*
 * LLVM 19's default<O2> pipeline less the passes that change nothing in
 * dcc's programs: the same objects, byte for byte, as default<O2> on 505 of
 * 506 scripts (the tests', the samples and the conformance suite's; the
 * other one is 3 instructions shorter), at half the instructions (O2's
 * passes were ~4.5 million instructions a clause; instcombine alone ran 8
 * times a function). Found by removing passes one at a time while the
 * objects stayed identical (bench/RESULTS.md, 2026-11-27): repeated
 * instcombine and simplifycfg runs, sroa, the vectorizers, globalopt...
 * default<O0> comes first: it is the one pipeline string that runs the BPF
 * target's own passes (CO-RE member access, DI types, the IR peephole,
 * adjust-opt), which have no names to spell here. Then (2026-11-28) the
 * passes that changed no function of any of those scripts (opt-19
 * -print-changed on each one's IR before the passes) went too: coroutine,
 * OpenMP, vectorizer, loop-distribute/-sink/-load-elim, float2int,
 * speculative-execution, constmerge, cg-profile... (-0.9% on 20 clauses;
 * require<globals-aa> stays: it changes no IR itself but informs GVN and
 * DSE). An LLVM that cannot parse the string gets default<O2>;
 * DCC_PASSES replaces it, to measure another.
 */
static const char tuned_o2[] =
	"default<O0>,inferattrs,function<eager-inv>(simplifycfg<bonus-inst-threshold=1;"
	"no-forward-switch-cond;no-switch-range-to-icmp;no-switch-to-lookup;keep-loops;"
	"no-hoist-common-insts;no-sink-common-insts;speculate-blocks;"
	"simplify-cond-branch;no-speculate-unpredictables>,sroa<modify-cfg>,early-cse<>),"
	"ipsccp,function<eager-inv>(mem2reg,instcombine<max-iterations=1;"
	"no-use-loop-info;no-verify-fixpoint>,simplifycfg<bonus-inst-threshold=1;"
	"no-forward-switch-cond;no-switch-range-to-icmp;no-switch-to-lookup;keep-loops;"
	"hoist-common-insts;no-sink-common-insts;speculate-blocks;simplify-cond-branch;"
	"no-speculate-unpredictables>,simplifycfg<bonus-inst-threshold=1;"
	"no-forward-switch-cond;switch-range-to-icmp;no-switch-to-lookup;keep-loops;"
	"no-hoist-common-insts;no-sink-common-insts;speculate-blocks;"
	"simplify-cond-branch;no-speculate-unpredictables>),require<globals-aa>,"
	"function(invalidate<aa>),cgscc(devirt<4>(inline,function<eager-inv;"
	"no-rerun>(early-cse<memssa>,jump-threading,reassociate,"
	"loop-mssa(loop-instsimplify,loop-simplifycfg,licm<no-allowspeculation>,"
	"loop-rotate<header-duplication;no-prepare-for-lto>,licm<allowspeculation>,"
	"simple-loop-unswitch<no-nontrivial;trivial>),loop(loop-idiom,indvars,"
	"simple-loop-unswitch<no-nontrivial;trivial>,loop-deletion,loop-unroll-full),"
	"mldst-motion<no-split-footer-bb>,gvn<>,simplifycfg<bonus-inst-threshold=1;"
	"no-forward-switch-cond;no-switch-range-to-icmp;no-switch-to-lookup;keep-loops;"
	"hoist-common-insts;no-sink-common-insts;speculate-blocks;simplify-cond-branch;"
	"no-speculate-unpredictables>,jump-threading,correlated-propagation,memcpyopt,"
	"dse,loop-mssa(licm<allowspeculation>)),function-attrs)),deadargelim,globaldce,"
	"recompute-globalsaa,function<eager-inv>(infer-alignment,"
	"simplifycfg<bonus-inst-threshold=1;forward-switch-cond;switch-range-to-icmp;"
	"switch-to-lookup;no-keep-loops;hoist-common-insts;sink-common-insts;"
	"speculate-blocks;simplify-cond-branch;no-speculate-unpredictables>,"
	"loop-unroll<O2>,instcombine<max-iterations=1;no-use-loop-info;"
	"no-verify-fixpoint>,loop-mssa(licm<allowspeculation>),div-rem-pairs),globaldce";

static const char *pipeline(void)
{
	const char *env = getenv("DCC_PASSES");
	return env && *env ? env : tuned_o2;
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
 * dcc_c3", or a timer's "dcc_timer1" its only clause went into), NULL if
 * it names none. */
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
	return cg_timer_clause(cg->s, f);
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
	const char *passes = pipeline();
	LLVMErrorRef perr = LLVMRunPasses(cg->M, passes, cg->tm, po);
	if (perr && passes == tuned_o2) {
		/* a pass name this LLVM does not know: nothing ran yet */
		LLVMConsumeError(perr);
		perr = LLVMRunPasses(cg->M, "default<O2>", cg->tm, po);
	}
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
