/*
 * Speculation, kernel side: speculation() claims a free id among nspec with
 * a compare-and-swap; a speculating clause's record carries the id in its
 * flags and is bounded by specsize per id; commit()/discard() records free
 * the id; speculate() on an id not in use, or past specsize, ends its clause.
 * The runtime holds speculative records until the commit or discard
 * record of their id arrives (headers/dcc/abi.h); the ring buffer keeps them
 * in reservation order, so an id freed and claimed again can't mix.
 */
#include <dcc/abi.h>
#include "cg.h"
#include "cg_bpf.h"

static LLVMValueRef states(struct cg *cg)
{
	LLVMValueRef key = cg_key0(cg);
	return cg_bpf_map_lookup(cg, cg_map_ref(cg, cg->m_spec), key);
}

static LLVMValueRef slot(struct cg *cg, LLVMValueRef base, LLVMValueRef idx, unsigned table)
{
	LLVMValueRef off = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, idx, cg_i64(cg, 8), ""),
					cg_i64(cg, (uint64_t)table * 8 * cg->spec_slots), "");
	return LLVMBuildGEP2(cg->b, cg->i8, base, &off, 1, "");
}

LLVMValueRef cg_speculation(struct cg *cg)
{
	LLVMValueRef p = states(cg);
	LLVMBasicBlockRef start = LLVMGetInsertBlock(cg->b);
	LLVMBasicBlockRef done = cg_block(cg, "spec.done"), none = cg_block(cg, "spec.none");
	LLVMBasicBlockRef next = cg_block(cg, "spec.try");
	LLVMBuildCondBr(cg->b, LLVMBuildIsNull(cg->b, p, ""), none, next);
	LLVMValueRef ids[64];
	LLVMBasicBlockRef from[64];
	unsigned n = 0;
	for (unsigned i = 1; i <= cg->nspec; i++) {
		LLVMPositionBuilderAtEnd(cg->b, next);
		LLVMValueRef st = slot(cg, p, cg_i64(cg, i), 0);
		LLVMValueRef x = LLVMBuildAtomicCmpXchg(cg->b, st, cg_i64(cg, 0), cg_i64(cg, 1),
			LLVMAtomicOrderingSequentiallyConsistent,
			LLVMAtomicOrderingSequentiallyConsistent, 0);
		LLVMValueRef won = LLVMBuildExtractValue(cg->b, x, 1, "");
		LLVMBasicBlockRef got = cg_block(cg, "spec.got");
		next = i == cg->nspec ? none : cg_block(cg, "spec.try");
		LLVMBuildCondBr(cg->b, won, got, next);
		LLVMPositionBuilderAtEnd(cg->b, got);
		LLVMBuildStore(cg->b, cg_i64(cg, 0), slot(cg, p, cg_i64(cg, i), 1));
		LLVMBuildBr(cg->b, done);
		ids[n] = cg_i64(cg, i);
		from[n++] = got;
	}
	LLVMPositionBuilderAtEnd(cg->b, none);
	cg_count_drop(cg, DCC_DROP_SPEC_UNAVAIL);
	LLVMBasicBlockRef none_end = LLVMGetInsertBlock(cg->b);
	LLVMBuildBr(cg->b, done);
	LLVMPositionBuilderAtEnd(cg->b, done);
	LLVMValueRef phi = LLVMBuildPhi(cg->b, cg->i64, "specid");
	ids[n] = cg_i64(cg, 0);
	from[n++] = none_end;
	LLVMAddIncoming(phi, ids, from, n);
	(void)start;
	return phi;
}

/*
 * As DTrace: speculate() on an id that speculation() did not hand out, or
 * that commit()/discard() has released, ends the clause there, its record
 * dropped; so does one whose data would pass specsize, counted as a
 * speculative drop. The clause's record size is known here, so its room in
 * the speculation is taken now and the statements after speculate() run
 * only when the data will be kept.
 */
void cg_speculate(struct cg *cg, struct node *id)
{
	LLVMValueRef v = cg_expr(cg, id).v;
	cg->p->spec_id = cg_alloca(cg, cg->i64, "specid");
	LLVMBuildStore(cg->b, v, cg->p->spec_id);
	LLVMValueRef flags = LLVMBuildOr(cg->b, cg_i64(cg, DCC_REC_F_SPEC),
		LLVMBuildShl(cg->b, LLVMBuildAnd(cg->b, v, cg_i64(cg, 0xffff), ""),
			     cg_i64(cg, DCC_REC_SPEC_SHIFT), ""), "");
	LLVMValueRef o = cg_i64(cg, 12);
	LLVMBuildStore(cg->b, LLVMBuildTrunc(cg->b, flags, cg->i32, ""),
		       LLVMBuildGEP2(cg->b, cg->i8, cg->p->rec, &o, 1, ""));

	LLVMBasicBlockRef check = cg_block(cg, "spec.check"), act = cg_block(cg, "spec.active");
	LLVMBasicBlockRef full = cg_block(cg, "spec.full"), out = cg_block(cg, "spec.out");
	LLVMBasicBlockRef ok = cg_block(cg, "spec.ok");
	LLVMValueRef valid = LLVMBuildAnd(cg->b,
		LLVMBuildICmp(cg->b, LLVMIntNE, v, cg_i64(cg, 0), ""),
		LLVMBuildICmp(cg->b, LLVMIntULE, v, cg_i64(cg, cg->nspec), ""), "");
	LLVMValueRef p = states(cg);
	valid = LLVMBuildAnd(cg->b, valid, LLVMBuildIsNotNull(cg->b, p, ""), "");
	LLVMBuildCondBr(cg->b, valid, check, out);
	LLVMPositionBuilderAtEnd(cg->b, check);
	LLVMValueRef idx = LLVMBuildAnd(cg->b, v, cg_i64(cg, cg->spec_slots - 1), "");
	LLVMValueRef active = LLVMBuildICmp(cg->b, LLVMIntEQ,
		LLVMBuildLoad2(cg->b, cg->i64, slot(cg, p, idx, 0), ""), cg_i64(cg, 1), "");
	LLVMBuildCondBr(cg->b, active, act, out);
	LLVMPositionBuilderAtEnd(cg->b, act);
	LLVMValueRef used = LLVMBuildAtomicRMW(cg->b, LLVMAtomicRMWBinOpAdd, slot(cg, p, idx, 1),
		cg_i64(cg, cg->cl->rec_size), LLVMAtomicOrderingSequentiallyConsistent, 0);
	LLVMValueRef fits = LLVMBuildICmp(cg->b, LLVMIntULE,
		LLVMBuildAdd(cg->b, used, cg_i64(cg, cg->cl->rec_size), ""),
		cg_i64(cg, cg->specsize), "");
	LLVMBuildCondBr(cg->b, fits, ok, full);
	LLVMPositionBuilderAtEnd(cg->b, full);
	cg_count_drop(cg, DCC_DROP_SPEC);
	LLVMBuildBr(cg->b, out);
	LLVMPositionBuilderAtEnd(cg->b, out);
	cg_leave(cg);
	LLVMPositionBuilderAtEnd(cg->b, ok);
}

/* Submit a speculative record whose room speculate() took, unless its id was
 * committed or discarded meanwhile (by another CPU): then it is dropped. */
void cg_spec_submit(struct cg *cg, bool wake)
{
	LLVMValueRef id = LLVMBuildLoad2(cg->b, cg->i64, cg->p->spec_id, "");
	LLVMBasicBlockRef drop = cg_block(cg, "spec.drop"), ok = cg_block(cg, "spec.ok");
	LLVMValueRef p = states(cg);
	LLVMValueRef idx = LLVMBuildAnd(cg->b, id, cg_i64(cg, cg->spec_slots - 1), "");
	LLVMBasicBlockRef check = cg_block(cg, "spec.check");
	LLVMBuildCondBr(cg->b, LLVMBuildIsNotNull(cg->b, p, ""), check, drop);
	LLVMPositionBuilderAtEnd(cg->b, check);
	LLVMValueRef active = LLVMBuildICmp(cg->b, LLVMIntEQ,
		LLVMBuildLoad2(cg->b, cg->i64, slot(cg, p, idx, 0), ""), cg_i64(cg, 1), "");
	LLVMBuildCondBr(cg->b, active, ok, drop);
	LLVMPositionBuilderAtEnd(cg->b, ok);
	cg_submit(cg, cg->p->rec, wake);
	LLVMBasicBlockRef done = cg_block(cg, "spec.done");
	LLVMBuildBr(cg->b, done);
	LLVMPositionBuilderAtEnd(cg->b, drop);
	cg_bpf_ringbuf_discard(cg, cg->p->rec, 0);
	LLVMBuildBr(cg->b, done);
	LLVMPositionBuilderAtEnd(cg->b, done);
}

/* commit()/discard(): an id beyond nspec (or negative) is an illegal
 * operation, as in DTrace; 0 and an id not in use are no-ops. */
void cg_spec_release(struct cg *cg, struct node *id)
{
	LLVMValueRef v = cg_expr(cg, id).v;
	cg_fault_if(cg, LLVMBuildICmp(cg->b, LLVMIntUGT, v, cg_i64(cg, cg->nspec), ""),
		    DCC_FAULT_ILLOP, NULL);
	LLVMValueRef p = states(cg);
	LLVMBasicBlockRef rel = cg_block(cg, "spec.release"), done = cg_block(cg, "spec.kept");
	LLVMValueRef ok = LLVMBuildAnd(cg->b, LLVMBuildIsNotNull(cg->b, p, ""),
		LLVMBuildICmp(cg->b, LLVMIntULE, v, cg_i64(cg, cg->nspec), ""), "");
	LLVMBuildCondBr(cg->b, ok, rel, done);
	LLVMPositionBuilderAtEnd(cg->b, rel);
	LLVMValueRef idx = LLVMBuildAnd(cg->b, v, cg_i64(cg, cg->spec_slots - 1), "");
	LLVMBuildAtomicRMW(cg->b, LLVMAtomicRMWBinOpXchg, slot(cg, p, idx, 0), cg_i64(cg, 0),
			   LLVMAtomicOrderingSequentiallyConsistent, 0);
	LLVMBuildBr(cg->b, done);
	LLVMPositionBuilderAtEnd(cg->b, done);
}
