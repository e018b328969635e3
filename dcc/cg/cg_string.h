/*
 * IR helpers shared by cg_string.c and cg_path.c, the string subroutines:
 * constants and byte accesses, scratch slots the verifier doesn't track,
 * bpf_loop() bodies, string lengths and results. Included by those two
 * files and cg_execargs.c only; everything here is static inline and prefixed str_.
 */
#ifndef DCC_CG_STRING_H
#define DCC_CG_STRING_H

#include <stdio.h>
#include <string.h>

#include <dcc/abi.h>
#include "cg.h"
#include "cg_bpf.h"

static inline LLVMValueRef str_k64(struct cg *cg, uint64_t v)
{
	return cg_i64(cg, v);
}

static inline LLVMValueRef str_scratch(struct cg *cg, unsigned size)
{
	return cg_scratch(cg, cg_scratch_alloc(cg, size));
}

static inline LLVMValueRef str_at(struct cg *cg, LLVMValueRef p, LLVMValueRef off)
{
	return LLVMBuildGEP2(cg->b, cg->i8, p, &off, 1, "");
}

static inline LLVMValueRef str_byte_at(struct cg *cg, LLVMValueRef p, LLVMValueRef off)
{
	return LLVMBuildZExt(cg->b, LLVMBuildLoad2(cg->b, cg->i8, str_at(cg, p, off), ""), cg->i64,
			     "");
}

static inline void str_put_byte(struct cg *cg, LLVMValueRef p, LLVMValueRef off, LLVMValueRef v)
{
	LLVMBuildStore(cg->b, LLVMBuildTrunc(cg->b, v, cg->i8, ""), str_at(cg, p, off));
}

static inline LLVMValueRef str_eq(struct cg *cg, LLVMValueRef a, LLVMValueRef b)
{
	return LLVMBuildICmp(cg->b, LLVMIntEQ, a, b, "");
}

static inline LLVMValueRef str_sel(struct cg *cg, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b)
{
	return LLVMBuildSelect(cg->b, c, a, b, "");
}

static inline LLVMValueRef str_and1(struct cg *cg, LLVMValueRef a, LLVMValueRef b)
{
	return LLVMBuildAnd(cg->b, a, b, "");
}

/* A loop-carried i64: a stack slot the optimizer turns into SSA. */
static inline LLVMValueRef str_var(struct cg *cg, LLVMValueRef init)
{
	LLVMValueRef a = cg_alloca(cg, cg->i64, "sv");
	LLVMBuildStore(cg->b, init, a);
	return a;
}

static inline LLVMValueRef str_get(struct cg *cg, LLVMValueRef v)
{
	return LLVMBuildLoad2(cg->b, cg->i64, v, "");
}

static inline void str_set(struct cg *cg, LLVMValueRef v, LLVMValueRef x)
{
	LLVMBuildStore(cg->b, x, v);
}

/* if (c) { ... }: the builder moves into the body; str_end_if() joins. */
static inline LLVMBasicBlockRef str_begin_if(struct cg *cg, LLVMValueRef c)
{
	LLVMBasicBlockRef then = cg_block(cg, "str.then"), join = cg_block(cg, "str.join");
	LLVMBuildCondBr(cg->b, c, then, join);
	LLVMPositionBuilderAtEnd(cg->b, then);
	return join;
}

static inline void str_end_if(struct cg *cg, LLVMBasicBlockRef join)
{
	LLVMBuildBr(cg->b, join);
	LLVMPositionBuilderAtEnd(cg->b, join);
}

/* for (i = 0; i < n; i++), n a constant */
struct str_loop {
	LLVMBasicBlockRef pre, head;
	LLVMValueRef i;
	uint64_t n;
};

static inline LLVMValueRef str_loop_begin(struct cg *cg, struct str_loop *l, uint64_t n)
{
	l->n = n;
	l->pre = LLVMGetInsertBlock(cg->b);
	l->head = cg_block(cg, "str.loop");
	LLVMBuildBr(cg->b, l->head);
	LLVMPositionBuilderAtEnd(cg->b, l->head);
	l->i = LLVMBuildPhi(cg->b, cg->i64, "i");
	return l->i;
}

static inline void str_loop_end(struct cg *cg, struct str_loop *l)
{
	LLVMValueRef next = LLVMBuildAdd(cg->b, l->i, str_k64(cg, 1), "");
	LLVMBasicBlockRef end = LLVMGetInsertBlock(cg->b), out = cg_block(cg, "str.loopend");
	LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntULT, next, str_k64(cg, l->n), ""),
			l->head, out);
	LLVMValueRef iv[2] = { str_k64(cg, 0), next };
	LLVMBasicBlockRef ib[2] = { l->pre, end };
	LLVMAddIncoming(l->i, iv, ib, 2);
	LLVMPositionBuilderAtEnd(cg->b, out);
}

/* A loop over a string as bpf_loop(n, body, ctx, 0): the verifier checks
 * the body once (or until its states converge), not n times, and its
 * branches don't pile up along the rest of the program. The body is a
 * function long body(u64 i, void *ctx); the values it needs (buffers,
 * state slots, invariants) go through ctx and are b->v[] inside it. */
struct str_body {
	LLVMValueRef fn, ctx, i, v[8];
	uint64_t n;
	LLVMValueRef caller_fn;
	LLVMBasicBlockRef caller_bb, caller_entry, start;
	LLVMMetadataRef caller_loc, caller_sp;
};

static inline void str_body_begin(struct cg *cg, struct str_body *b, uint64_t n,
				  LLVMValueRef *vals, int nv)
{
	b->n = n;
	/* one ctx serves all the program's loops: they run one at a time */
	if (cg->p->loopctx_fn != cg->p->fn) {
		cg->p->loopctx = cg_alloca(cg, LLVMArrayType2(cg->i64, 8), "loopctx");
		cg->p->loopctx_fn = cg->p->fn;
	}
	b->ctx = cg->p->loopctx;
	LLVMTypeRef tys[8];
	for (int k = 0; k < nv; k++) {
		LLVMBuildStore(cg->b, vals[k], str_at(cg, b->ctx, str_k64(cg, 8 * (uint64_t)k)));
		tys[k] = LLVMTypeOf(vals[k]);
	}
	char name[32];
	for (int k = 0; snprintf(name, sizeof(name), "dcc_strloop%d", k),
	     LLVMGetNamedFunction(cg->M, name); k++)
		;
	LLVMTypeRef pt[2] = { cg->i64, cg->ptr };
	b->fn = LLVMAddFunction(cg->M, name, LLVMFunctionType(cg->i64, pt, 2, 0));
	LLVMSetLinkage(b->fn, LLVMInternalLinkage);
	unsigned line = cg->ci ? cg->ci->n->loc.line : 1;
	LLVMMetadataRef params[3] = { cg->di_u64, cg->di_u64, cg->di_voidptr };
	LLVMMetadataRef sty = LLVMDIBuilderCreateSubroutineType(cg->dib, cg->di_file, params, 3, 0);
	LLVMMetadataRef sp = LLVMDIBuilderCreateFunction(cg->dib, cg->di_file, name, strlen(name),
		name, strlen(name), cg->di_file, line, sty, 1, 1, line, LLVMDIFlagPrototyped, 1);
	LLVMSetSubprogram(b->fn, sp);
	/* BTF gives a function's parameters names, or the kernel refuses it */
	LLVMDIBuilderCreateParameterVariable(cg->dib, sp, "i", 1, 1, cg->di_file, line, cg->di_u64,
					     1, 0);
	LLVMDIBuilderCreateParameterVariable(cg->dib, sp, "ctx", 3, 2, cg->di_file, line,
					     cg->di_voidptr, 1, 0);
	b->caller_fn = cg->p->fn;
	b->caller_bb = LLVMGetInsertBlock(cg->b);
	b->caller_entry = cg->p->entry;
	b->caller_loc = LLVMGetCurrentDebugLocation2(cg->b);
	b->caller_sp = cg->p->sp;
	cg->p->fn = b->fn;
	cg->p->sp = sp;
	cg->p->entry = cg_block(cg, "entry");
	b->start = cg_block(cg, "start");
	LLVMPositionBuilderAtEnd(cg->b, b->start);
	LLVMSetCurrentDebugLocation2(cg->b, LLVMDIBuilderCreateDebugLocation(cg->C, line, 1, sp,
									    NULL));
	LLVMValueRef ctx = LLVMGetParam(b->fn, 1);
	for (int k = 0; k < nv; k++)
		b->v[k] = LLVMBuildLoad2(cg->b, tys[k],
					 str_at(cg, ctx, str_k64(cg, 8 * (uint64_t)k)), "");
	b->i = LLVMGetParam(b->fn, 0);
	/* the verifier learns i < n here */
	LLVMBasicBlockRef stop = cg_block(cg, "body.stop"), go = cg_block(cg, "body");
	LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntUGE, b->i, str_k64(cg, n), ""), stop,
			go);
	LLVMPositionBuilderAtEnd(cg->b, stop);
	LLVMBuildRet(cg->b, str_k64(cg, 1));
	LLVMPositionBuilderAtEnd(cg->b, go);
}

static inline void str_body_end(struct cg *cg, struct str_body *b)
{
	LLVMBuildRet(cg->b, str_k64(cg, 0));
	LLVMPositionBuilderAtEnd(cg->b, cg->p->entry);
	LLVMBuildBr(cg->b, b->start);
	cg->p->fn = b->caller_fn;
	cg->p->entry = b->caller_entry;
	cg->p->sp = b->caller_sp;
	LLVMPositionBuilderAtEnd(cg->b, b->caller_bb);
	LLVMSetCurrentDebugLocation2(cg->b, b->caller_loc);
	cg_bpf_loop(cg, str_k64(cg, b->n), b->fn, b->ctx);
}

/* v, through scratch memory: the verifier sees an unknown value, so it
 * neither tracks where v came from nor splits states on it. */
static inline LLVMValueRef str_opaque(struct cg *cg, LLVMValueRef v)
{
	LLVMValueRef p = str_scratch(cg, 8);
	LLVMSetVolatile(LLVMBuildStore(cg->b, v, p), 1);
	LLVMValueRef l = LLVMBuildLoad2(cg->b, cg->i64, p, "");
	LLVMSetVolatile(l, 1);
	return l;
}

/* Loop state lives in scratch memory: stored under a branch on the
 * bytes, it never makes verifier states differ. */
static inline LLVMValueRef str_slot(struct cg *cg, LLVMValueRef init)
{
	LLVMValueRef p = str_scratch(cg, 8);
	LLVMSetVolatile(LLVMBuildStore(cg->b, init, p), 1);
	return p;
}

static inline LLVMValueRef str_sload(struct cg *cg, LLVMValueRef p)
{
	LLVMValueRef l = LLVMBuildLoad2(cg->b, cg->i64, p, "");
	LLVMSetVolatile(l, 1);
	return l;
}

static inline void str_sstore(struct cg *cg, LLVMValueRef p, LLVMValueRef v)
{
	LLVMSetVolatile(LLVMBuildStore(cg->b, v, p), 1);
}

/* v in [0, max] as the verifier can see it (v is known to be there). */
static inline LLVMValueRef str_bounded(struct cg *cg, LLVMValueRef v, uint64_t max)
{
	v = str_opaque(cg, v);
	if (!(max & (max + 1)))
		return str_and1(cg, v, str_k64(cg, max));
	return str_sel(cg, LLVMBuildICmp(cg->b, LLVMIntUGT, v, str_k64(cg, max), ""),
		       str_k64(cg, max), v);
}

/* bpf_probe_read_kernel_str(dst, size, src): bytes copied with the NUL */
static inline LLVMValueRef str_read(struct cg *cg, LLVMValueRef dst, LLVMValueRef size,
				     LLVMValueRef src)
{
	return cg_bpf_probe_read_kernel_str(cg, dst, size, src);
}

static inline unsigned str_cap(struct cg *cg, struct cval s)
{
	return s.cap && s.cap < cg->strsize ? s.cap : cg->strsize;
}

/* A new result: strsize zero bytes, and room for extra more. */
static inline LLVMValueRef str_result(struct cg *cg, unsigned extra)
{
	LLVMValueRef d = str_scratch(cg, cg->strsize + extra);
	cg_memop(cg, "llvm.memset", d, NULL, cg->strsize);
	return d;
}

static inline struct cval str_val(LLVMValueRef p, struct cg *cg)
{
	return (struct cval){ .v = p, .t = &type_string, .cap = cg->strsize };
}

static inline struct cval str_intval(LLVMValueRef v, struct type *t)
{
	return (struct cval){ .v = v, .t = t };
}

/* strlen(s), as a value the verifier can't see */
static inline LLVMValueRef str_len(struct cg *cg, struct cval s)
{
	unsigned n = str_cap(cg, s);
	/* the copy is only counted: one buffer serves the program */
	if (cg->p->strsink_fn != cg->p->fn) {
		cg->p->strsink = cg_scratch_alloc(cg, cg->strsize);
		cg->p->strsink_fn = cg->p->fn;
	}
	LLVMValueRef r = str_read(cg, cg_scratch(cg, cg->p->strsink), str_k64(cg, n), s.v);
	r = str_sel(cg, LLVMBuildICmp(cg->b, LLVMIntSLT, r, str_k64(cg, 1), ""), str_k64(cg, 1), r);
	return str_opaque(cg, LLVMBuildSub(cg->b, r, str_k64(cg, 1), "len"));
}

/* d = the rest of s from byte off (off <= strlen(s)) */
static inline void str_copy_from(struct cg *cg, LLVMValueRef d, struct cval s, LLVMValueRef off)
{
	off = str_bounded(cg, off, str_cap(cg, s) - 1);
	str_read(cg, d, str_k64(cg, cg->strsize), str_at(cg, s.v, off));
}

/* cg_path.c */
struct cval cg_path_part(struct cg *cg, struct cval s, bool dir);
struct cval cg_cleanpath(struct cg *cg, struct cval s);

#endif
