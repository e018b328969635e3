/*
 * USDT probes' arguments. A USDT program is a uprobe program the loader
 * attaches to every note its description matches (loader/usdt.c); notes
 * place their arguments differently (a register, a stack slot, a
 * constant), which the object cannot know when it is compiled. So each
 * note's argument specifications are data: an entry of DCC_MAP_USDTSPECS
 * (abi.h's struct dcc_usdt_spec), its index the high half of the uprobe's
 * cookie, and argN is decoded from it here.
 *
 * Why not libbpf's USDT support (bpf_program__attach_usdt and usdt.bpf.h's
 * bpf_usdt_arg)? Its BPF half is C that the object would have to carry as
 * generated IR with libbpf's private map layout, its cookie is its own
 * (a note's probe id would have to be looked up from it), and it names a
 * probe by provider:name alone while DTrace's probes are per function. The
 * cost per argument is the same as its: one array lookup (inlined by the
 * verifier), one read of the register from the context and, for memory,
 * one read of the user's memory.
 */
#include <dcc/abi.h>
#include "cg.h"
#include "cg_bpf.h"

static LLVMValueRef field(struct cg *cg, LLVMValueRef a, unsigned off, LLVMTypeRef t)
{
	LLVMValueRef o = cg_i64(cg, off);
	LLVMValueRef v = LLVMBuildLoad2(cg->b, t, LLVMBuildGEP2(cg->b, cg->i8, a, &o, 1, ""), "");
	return LLVMBuildZExt(cg->b, v, cg->i64, "");
}

LLVMValueRef cg_usdt_arg(struct cg *cg, int i)
{
	if (i < 0 || i >= DCC_USDT_ARGS_MAX)
		return cg_i64(cg, 0);
	LLVMValueRef ctx = cg->p->ctx;
	LLVMValueRef cookie = cg_bpf_call(cg, BPF_FUNC_get_attach_cookie, &ctx, 1);
	LLVMValueRef key = cg_tmp64(cg);
	LLVMBuildStore(cg->b, LLVMBuildTrunc(cg->b, LLVMBuildLShr(cg->b, cookie, cg_i64(cg, 32), ""),
					     cg->i32, ""), key);
	LLVMValueRef spec = cg_bpf_map_lookup(cg, cg_map_ref(cg, cg->m_usdtspecs), key);
	LLVMBasicBlockRef entry = LLVMGetInsertBlock(cg->b), have = cg_block(cg, "usdt.spec");
	LLVMBasicBlockRef rd = cg_block(cg, "usdt.reg"), mem = cg_block(cg, "usdt.mem");
	LLVMBasicBlockRef fix = cg_block(cg, "usdt.size"), done = cg_block(cg, "usdt.done");
	LLVMBuildCondBr(cg->b, LLVMBuildIsNull(cg->b, spec, ""), done, have);

	LLVMPositionBuilderAtEnd(cg->b, have);
	unsigned base = (unsigned)(sizeof(struct dcc_usdt_arg) * (unsigned)i);
	LLVMValueRef kind = field(cg, spec, base + offsetof(struct dcc_usdt_arg, kind), cg->i8);
	LLVMValueRef shift = field(cg, spec, base + offsetof(struct dcc_usdt_arg, shift), cg->i8);
	LLVMValueRef sign = field(cg, spec, base + offsetof(struct dcc_usdt_arg, sign), cg->i8);
	LLVMValueRef roff = field(cg, spec, base + offsetof(struct dcc_usdt_arg, reg_off),
				  LLVMInt16TypeInContext(cg->C));
	LLVMValueRef val = field(cg, spec, base + offsetof(struct dcc_usdt_arg, val), cg->i64);
	LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntEQ, kind, cg_i64(cg, DCC_USDT_CONST), ""),
			fix, rd);

	/* the register, from the saved user registers (pt_regs). Not a switch of
	 * loads at constant offsets: LLVM merges them into one load through a
	 * computed pointer (even volatile ones), which the verifier refuses for
	 * the context. */
	LLVMPositionBuilderAtEnd(cg->b, rd);
	LLVMValueRef tmp = cg_tmp64(cg);
	LLVMBuildStore(cg->b, cg_i64(cg, 0), tmp);
	cg_bpf_probe_read_kernel(cg, tmp, cg_i32(cg, 8), LLVMBuildGEP2(cg->b, cg->i8, ctx, &roff, 1, ""));
	LLVMValueRef r = LLVMBuildLoad2(cg->b, cg->i64, tmp, "");
	LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntEQ, kind, cg_i64(cg, DCC_USDT_MEM), ""),
			mem, fix);

	/* memory at the register plus the displacement */
	LLVMPositionBuilderAtEnd(cg->b, mem);
	LLVMBuildStore(cg->b, cg_i64(cg, 0), tmp);
	LLVMValueRef at = LLVMBuildIntToPtr(cg->b, LLVMBuildAdd(cg->b, r, val, ""), cg->ptr, "");
	cg_bpf_probe_read_user(cg, tmp, cg_i32(cg, 8), at);
	LLVMValueRef m = LLVMBuildLoad2(cg->b, cg->i64, tmp, "");
	LLVMBuildBr(cg->b, fix);

	/* the argument's size and sign */
	LLVMPositionBuilderAtEnd(cg->b, fix);
	LLVMValueRef raw = LLVMBuildPhi(cg->b, cg->i64, "");
	LLVMValueRef vals[3] = { val, r, m };
	LLVMBasicBlockRef from[3] = { have, rd, mem };
	LLVMAddIncoming(raw, vals, from, 3);
	LLVMValueRef up = LLVMBuildShl(cg->b, raw, shift, "");
	LLVMValueRef v = LLVMBuildSelect(cg->b, LLVMBuildIsNotNull(cg->b, sign, ""),
					 LLVMBuildAShr(cg->b, up, shift, ""),
					 LLVMBuildLShr(cg->b, up, shift, ""), "");
	LLVMBuildBr(cg->b, done);

	LLVMPositionBuilderAtEnd(cg->b, done);
	LLVMValueRef out = LLVMBuildPhi(cg->b, cg->i64, "usdt.arg");
	LLVMValueRef outs[2] = { cg_i64(cg, 0), v };
	LLVMBasicBlockRef outfrom[2] = { entry, fix };
	LLVMAddIncoming(out, outs, outfrom, 2);
	return out;
}
