/*
 * D's string subroutines -> IR: strlen(), strjoin(), substr(), index(),
 * rindex(), strstr(), strchr(), strrchr(), basename(), dirname(),
 * lltostr(), strtoll(), toupper() and tolower(), with DTrace's results.
 *
 * BPF has no string library. Lengths, and copies out of a string from a
 * computed offset, are bpf_probe_read_kernel_str() calls; a scan over a
 * string's bytes is a bpf_loop() callback, which the verifier checks once
 * rather than once per byte, keeping its state in scratch memory (a value
 * it doesn't track, so paths through the body never differ by it). Every
 * offset computed from data goes through scratch memory too and is masked
 * or clamped before it indexes anything. Results are NUL-padded strsize
 * buffers in the scratch map.
 */
#include <stdio.h>
#include <string.h>

#include <dcc/abi.h>
#include "cg.h"

enum { H_READ_KERNEL_STR = 115, H_LOOP = 181 };

static LLVMValueRef k64(struct cg *cg, uint64_t v)
{
	return cg_i64(cg, v);
}

static LLVMValueRef scratch(struct cg *cg, unsigned size)
{
	return cg_scratch(cg, cg_scratch_alloc(cg, size));
}

static LLVMValueRef at(struct cg *cg, LLVMValueRef p, LLVMValueRef off)
{
	return LLVMBuildGEP2(cg->b, cg->i8, p, &off, 1, "");
}

static LLVMValueRef byte_at(struct cg *cg, LLVMValueRef p, LLVMValueRef off)
{
	return LLVMBuildZExt(cg->b, LLVMBuildLoad2(cg->b, cg->i8, at(cg, p, off), ""), cg->i64, "");
}

static void put_byte(struct cg *cg, LLVMValueRef p, LLVMValueRef off, LLVMValueRef v)
{
	LLVMBuildStore(cg->b, LLVMBuildTrunc(cg->b, v, cg->i8, ""), at(cg, p, off));
}

static LLVMValueRef eq(struct cg *cg, LLVMValueRef a, LLVMValueRef b)
{
	return LLVMBuildICmp(cg->b, LLVMIntEQ, a, b, "");
}

static LLVMValueRef sel(struct cg *cg, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b)
{
	return LLVMBuildSelect(cg->b, c, a, b, "");
}

static LLVMValueRef and1(struct cg *cg, LLVMValueRef a, LLVMValueRef b)
{
	return LLVMBuildAnd(cg->b, a, b, "");
}

/* A loop-carried i64: a stack slot the optimizer turns into SSA. */
static LLVMValueRef var(struct cg *cg, LLVMValueRef init)
{
	LLVMValueRef a = cg_alloca(cg, cg->i64, "sv");
	LLVMBuildStore(cg->b, init, a);
	return a;
}

static LLVMValueRef get(struct cg *cg, LLVMValueRef v)
{
	return LLVMBuildLoad2(cg->b, cg->i64, v, "");
}

static void set(struct cg *cg, LLVMValueRef v, LLVMValueRef x)
{
	LLVMBuildStore(cg->b, x, v);
}

/* if (c) { ... }: the builder moves into the body; end_if() joins. */
static LLVMBasicBlockRef begin_if(struct cg *cg, LLVMValueRef c)
{
	LLVMBasicBlockRef then = cg_block(cg, "str.then"), join = cg_block(cg, "str.join");
	LLVMBuildCondBr(cg->b, c, then, join);
	LLVMPositionBuilderAtEnd(cg->b, then);
	return join;
}

static void end_if(struct cg *cg, LLVMBasicBlockRef join)
{
	LLVMBuildBr(cg->b, join);
	LLVMPositionBuilderAtEnd(cg->b, join);
}

/* for (i = 0; i < n; i++), n a constant */
struct loop {
	LLVMBasicBlockRef pre, head;
	LLVMValueRef i;
	uint64_t n;
};

static LLVMValueRef loop_begin(struct cg *cg, struct loop *l, uint64_t n)
{
	l->n = n;
	l->pre = LLVMGetInsertBlock(cg->b);
	l->head = cg_block(cg, "str.loop");
	LLVMBuildBr(cg->b, l->head);
	LLVMPositionBuilderAtEnd(cg->b, l->head);
	l->i = LLVMBuildPhi(cg->b, cg->i64, "i");
	return l->i;
}

static void loop_end(struct cg *cg, struct loop *l)
{
	LLVMValueRef next = LLVMBuildAdd(cg->b, l->i, k64(cg, 1), "");
	LLVMBasicBlockRef end = LLVMGetInsertBlock(cg->b), out = cg_block(cg, "str.loopend");
	LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntULT, next, k64(cg, l->n), ""), l->head,
			out);
	LLVMValueRef iv[2] = { k64(cg, 0), next };
	LLVMBasicBlockRef ib[2] = { l->pre, end };
	LLVMAddIncoming(l->i, iv, ib, 2);
	LLVMPositionBuilderAtEnd(cg->b, out);
}

/* A loop over a string as bpf_loop(n, body, ctx, 0): the verifier checks
 * the body once (or until its states converge), not n times, and its
 * branches don't pile up along the rest of the program. The body is a
 * function long body(u64 i, void *ctx); the values it needs (buffers,
 * state slots, invariants) go through ctx and are b->v[] inside it. */
struct body {
	LLVMValueRef fn, ctx, i, v[8];
	uint64_t n;
	LLVMValueRef caller_fn;
	LLVMBasicBlockRef caller_bb, caller_entry, start;
	LLVMMetadataRef caller_loc, caller_sp;
};

static void body_begin(struct cg *cg, struct body *b, uint64_t n, LLVMValueRef *vals, int nv)
{
	b->n = n;
	/* one ctx serves all the program's loops: they run one at a time */
	if (cg->loopctx_fn != cg->fn) {
		cg->loopctx = cg_alloca(cg, LLVMArrayType2(cg->i64, 8), "loopctx");
		cg->loopctx_fn = cg->fn;
	}
	b->ctx = cg->loopctx;
	LLVMTypeRef tys[8];
	for (int k = 0; k < nv; k++) {
		LLVMBuildStore(cg->b, vals[k], at(cg, b->ctx, k64(cg, 8 * (uint64_t)k)));
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
	b->caller_fn = cg->fn;
	b->caller_bb = LLVMGetInsertBlock(cg->b);
	b->caller_entry = cg->entry;
	b->caller_loc = LLVMGetCurrentDebugLocation2(cg->b);
	b->caller_sp = cg->sp;
	cg->fn = b->fn;
	cg->sp = sp;
	cg->entry = cg_block(cg, "entry");
	b->start = cg_block(cg, "start");
	LLVMPositionBuilderAtEnd(cg->b, b->start);
	LLVMSetCurrentDebugLocation2(cg->b, LLVMDIBuilderCreateDebugLocation(cg->C, line, 1, sp,
									    NULL));
	LLVMValueRef ctx = LLVMGetParam(b->fn, 1);
	for (int k = 0; k < nv; k++)
		b->v[k] = LLVMBuildLoad2(cg->b, tys[k], at(cg, ctx, k64(cg, 8 * (uint64_t)k)), "");
	b->i = LLVMGetParam(b->fn, 0);
	/* the verifier learns i < n here */
	LLVMBasicBlockRef stop = cg_block(cg, "body.stop"), go = cg_block(cg, "body");
	LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntUGE, b->i, k64(cg, n), ""), stop, go);
	LLVMPositionBuilderAtEnd(cg->b, stop);
	LLVMBuildRet(cg->b, k64(cg, 1));
	LLVMPositionBuilderAtEnd(cg->b, go);
}

static void body_end(struct cg *cg, struct body *b)
{
	LLVMBuildRet(cg->b, k64(cg, 0));
	LLVMPositionBuilderAtEnd(cg->b, cg->entry);
	LLVMBuildBr(cg->b, b->start);
	cg->fn = b->caller_fn;
	cg->entry = b->caller_entry;
	cg->sp = b->caller_sp;
	LLVMPositionBuilderAtEnd(cg->b, b->caller_bb);
	LLVMSetCurrentDebugLocation2(cg->b, b->caller_loc);
	LLVMTypeRef pt[4] = { cg->i64, cg->ptr, cg->ptr, cg->i64 };
	LLVMValueRef args[4] = { k64(cg, b->n), b->fn, b->ctx, k64(cg, 0) };
	cg_helper(cg, H_LOOP, cg->i64, pt, 4, args);
}

/* v, through scratch memory: the verifier sees an unknown value, so it
 * neither tracks where v came from nor splits states on it. */
static LLVMValueRef opaque(struct cg *cg, LLVMValueRef v)
{
	LLVMValueRef p = scratch(cg, 8);
	LLVMSetVolatile(LLVMBuildStore(cg->b, v, p), 1);
	LLVMValueRef l = LLVMBuildLoad2(cg->b, cg->i64, p, "");
	LLVMSetVolatile(l, 1);
	return l;
}

/* Loop state lives in scratch memory: stored under a branch on the
 * bytes, it never makes verifier states differ. */
static LLVMValueRef slot(struct cg *cg, LLVMValueRef init)
{
	LLVMValueRef p = scratch(cg, 8);
	LLVMSetVolatile(LLVMBuildStore(cg->b, init, p), 1);
	return p;
}

static LLVMValueRef sload(struct cg *cg, LLVMValueRef p)
{
	LLVMValueRef l = LLVMBuildLoad2(cg->b, cg->i64, p, "");
	LLVMSetVolatile(l, 1);
	return l;
}

static void sstore(struct cg *cg, LLVMValueRef p, LLVMValueRef v)
{
	LLVMSetVolatile(LLVMBuildStore(cg->b, v, p), 1);
}

/* v in [0, max] as the verifier can see it (v is known to be there). */
static LLVMValueRef bounded(struct cg *cg, LLVMValueRef v, uint64_t max)
{
	v = opaque(cg, v);
	if (!(max & (max + 1)))
		return and1(cg, v, k64(cg, max));
	return sel(cg, LLVMBuildICmp(cg->b, LLVMIntUGT, v, k64(cg, max), ""), k64(cg, max), v);
}

/* bpf_probe_read_kernel_str(dst, size, src): bytes copied with the NUL */
static LLVMValueRef read_str(struct cg *cg, LLVMValueRef dst, LLVMValueRef size, LLVMValueRef src)
{
	LLVMTypeRef pt[3] = { cg->ptr, cg->i64, cg->ptr };
	LLVMValueRef args[3] = { dst, size, src };
	return cg_helper(cg, H_READ_KERNEL_STR, cg->i64, pt, 3, args);
}

static unsigned str_cap(struct cg *cg, struct cval s)
{
	return s.cap && s.cap < cg->strsize ? s.cap : cg->strsize;
}

/* A new result: strsize zero bytes, and room for extra more. */
static LLVMValueRef result(struct cg *cg, unsigned extra)
{
	LLVMValueRef d = scratch(cg, cg->strsize + extra);
	cg_memop(cg, "llvm.memset", d, NULL, cg->strsize);
	return d;
}

static struct cval strval(LLVMValueRef p, struct cg *cg)
{
	return (struct cval){ .v = p, .t = &type_string, .cap = cg->strsize };
}

static struct cval intval(LLVMValueRef v, struct type *t)
{
	return (struct cval){ .v = v, .t = t };
}

/* strlen(s), as a value the verifier can't see */
static LLVMValueRef str_len(struct cg *cg, struct cval s)
{
	unsigned n = str_cap(cg, s);
	/* the copy is only counted: one buffer serves the program */
	if (cg->strsink_fn != cg->fn) {
		cg->strsink = cg_scratch_alloc(cg, cg->strsize);
		cg->strsink_fn = cg->fn;
	}
	LLVMValueRef r = read_str(cg, cg_scratch(cg, cg->strsink), k64(cg, n), s.v);
	r = sel(cg, LLVMBuildICmp(cg->b, LLVMIntSLT, r, k64(cg, 1), ""), k64(cg, 1), r);
	return opaque(cg, LLVMBuildSub(cg->b, r, k64(cg, 1), "len"));
}

/* d = the rest of s from byte off (off <= strlen(s)) */
static void copy_from(struct cg *cg, LLVMValueRef d, struct cval s, LLVMValueRef off)
{
	off = bounded(cg, off, str_cap(cg, s) - 1);
	read_str(cg, d, k64(cg, cg->strsize), at(cg, s.v, off));
}

static void fault_if(struct cg *cg, LLVMValueRef bad, uint32_t fault)
{
	LLVMBasicBlockRef f = cg_block(cg, "str.fault"), ok = cg_block(cg, "str.ok");
	LLVMBuildCondBr(cg->b, bad, f, ok);
	LLVMPositionBuilderAtEnd(cg->b, f);
	cg_fault(cg, fault, NULL);
	LLVMPositionBuilderAtEnd(cg->b, ok);
}

/* strjoin(a, b): DTrace runs out of scratch space when the two don't fit
 * in strsize bytes with their NUL */
static struct cval strjoin(struct cg *cg, struct cval a, struct cval b)
{
	unsigned size = cg->strsize;
	LLVMValueRef la = str_len(cg, a), lb = str_len(cg, b);
	fault_if(cg, LLVMBuildICmp(cg->b, LLVMIntUGE, LLVMBuildAdd(cg->b, la, lb, ""),
				   k64(cg, size), ""), DCC_FAULT_NOSCRATCH);
	LLVMValueRef d = result(cg, size);
	read_str(cg, d, k64(cg, str_cap(cg, a)), a.v);
	la = bounded(cg, la, size - 1);
	read_str(cg, at(cg, d, la), LLVMBuildSub(cg->b, k64(cg, size), la, ""), b.v);
	return strval(d, cg);
}

/* substr(s, index[, len]), with DTrace's arithmetic on the bounds */
static struct cval substr(struct cg *cg, struct cval s, LLVMValueRef index, LLVMValueRef rem)
{
	LLVMValueRef zero = k64(cg, 0), len = str_len(cg, s);
	if (!rem)
		rem = k64(cg, cg->strsize);
	/* a negative index counts from the end; what falls before the start
	 * shortens the length */
	LLVMValueRef neg = LLVMBuildICmp(cg->b, LLVMIntSLT, index, zero, "");
	index = sel(cg, neg, LLVMBuildAdd(cg->b, index, len, ""), index);
	LLVMValueRef before = and1(cg, neg, and1(cg,
		LLVMBuildICmp(cg->b, LLVMIntSLT, index, zero, ""),
		LLVMBuildICmp(cg->b, LLVMIntSGT, LLVMBuildAdd(cg->b, index, rem, ""), zero, "")));
	rem = sel(cg, before, LLVMBuildAdd(cg->b, rem, index, ""), rem);
	index = sel(cg, before, zero, index);
	/* then: nothing past the end; a negative length leaves that many
	 * off the end; never past strsize (the copy stops at the NUL) */
	LLVMValueRef out = LLVMBuildICmp(cg->b, LLVMIntUGE, index, len, "");
	LLVMValueRef left = LLVMBuildSub(cg->b, len, index, "");
	LLVMValueRef rneg = LLVMBuildICmp(cg->b, LLVMIntSLT, rem, zero, "");
	rem = sel(cg, rneg, LLVMBuildAdd(cg->b, rem, left, ""), rem);
	rem = sel(cg, LLVMBuildICmp(cg->b, LLVMIntSGT, rem, left, ""), left, rem);
	rem = sel(cg, out, zero, rem);
	LLVMValueRef d = result(cg, 0);
	rem = opaque(cg, rem);
	LLVMBasicBlockRef join = begin_if(cg, LLVMBuildICmp(cg->b, LLVMIntSGT, rem, zero, ""));
	unsigned max = str_cap(cg, s) - 1;
	index = bounded(cg, index, max);
	rem = bounded(cg, rem, max);
	read_str(cg, d, LLVMBuildAdd(cg->b, rem, k64(cg, 1), ""), at(cg, s.v, index));
	end_if(cg, join);
	return strval(d, cg);
}

/* The NUL-padded words of t, and a mask of its bytes before the NUL. */
static void needle(struct cg *cg, struct cval t, unsigned words, LLVMValueRef *tw, LLVMValueRef *tm)
{
	*tw = scratch(cg, 8 * words);
	*tm = scratch(cg, 8 * words);
	cg_memop(cg, "llvm.memcpy", *tw, t.v, 8 * words);
	struct loop l;
	LLVMValueRef w = loop_begin(cg, &l, words);
	LLVMValueRef off = LLVMBuildMul(cg->b, w, k64(cg, 8), "");
	LLVMValueRef x = LLVMBuildLoad2(cg->b, cg->i64, at(cg, *tw, off), "");
	LLVMValueRef lo7 = k64(cg, 0x7f7f7f7f7f7f7f7full);
	LLVMValueRef hi = LLVMBuildOr(cg->b, LLVMBuildAdd(cg->b, and1(cg, x, lo7), lo7, ""), x, "");
	hi = LLVMBuildLShr(cg->b, and1(cg, hi, k64(cg, 0x8080808080808080ull)), k64(cg, 7), "");
	LLVMBuildStore(cg->b, LLVMBuildMul(cg->b, hi, k64(cg, 0xff), ""), at(cg, *tm, off));
	loop_end(cg, &l);
}

enum search { S_STRSTR, S_INDEX, S_RINDEX };

/* strstr(s, t), index(s, t[, pos]), rindex(s, t[, pos]): every position
 * i of s is tried, 8 bytes of t at a time against s's bytes i.. made of
 * two aligned words; the first match from lo and the last up to hi win. */
static struct cval search(struct cg *cg, enum search kind, struct cval s, struct cval t,
			  LLVMValueRef pos)
{
	unsigned scap = str_cap(cg, s), tcap = str_cap(cg, t), words = (tcap + 7) / 8;
	LLVMValueRef zero = k64(cg, 0), none = k64(cg, (uint64_t)-1);
	LLVMValueRef len = str_len(cg, s), tlen = str_len(cg, t);
	LLVMValueRef tw, tm;
	needle(cg, t, words, &tw, &tm);
	/* s, zero-padded so that position scap - 1 can still read t's length */
	unsigned sbytes = (scap + 7) / 8 * 8 + 8 * words + 8;
	LLVMValueRef sb = scratch(cg, sbytes);
	cg_memop(cg, "llvm.memset", sb, NULL, sbytes);
	cg_memop(cg, "llvm.memcpy", sb, s.v, (scap + 7) / 8 * 8);
	LLVMValueRef lo = zero, hi = len;
	if (kind == S_INDEX && pos)
		lo = sel(cg, LLVMBuildICmp(cg->b, LLVMIntSLT, pos, zero, ""), zero, pos);
	if (kind == S_RINDEX && pos)
		hi = sel(cg, LLVMBuildICmp(cg->b, LLVMIntSGT, pos, len, ""), len, pos);
	/* the bounds are read again at each use: a comparison with the
	 * position then narrows a copy, never state the loop carries */
	LLVMValueRef lo_s = slot(cg, lo), hi_s = slot(cg, hi), len_s = slot(cg, len);
	LLVMValueRef first = slot(cg, none), last = slot(cg, none);
	struct body bd;
	struct loop lw;
	LLVMValueRef vals[8] = { sb, tw, tm, lo_s, hi_s, len_s, first, last };
	body_begin(cg, &bd, scap, vals, 8);
	LLVMValueRef i = bd.i;
	LLVMValueRef sh = LLVMBuildMul(cg->b, and1(cg, i, k64(cg, 7)), k64(cg, 8), "");
	LLVMValueRef base = and1(cg, i, k64(cg, ~7ull));
	LLVMValueRef diff = var(cg, zero);
	LLVMValueRef w = loop_begin(cg, &lw, words);
	LLVMValueRef off = LLVMBuildMul(cg->b, w, k64(cg, 8), "");
	LLVMValueRef p = at(cg, bd.v[0], LLVMBuildAdd(cg->b, base, off, ""));
	LLVMValueRef w0 = LLVMBuildLoad2(cg->b, cg->i64, p, "");
	LLVMValueRef w1 = LLVMBuildLoad2(cg->b, cg->i64, at(cg, p, k64(cg, 8)), "");
	/* (w1 << (64 - sh)) without a shift by 64 when sh is 0 */
	LLVMValueRef up = LLVMBuildShl(cg->b, LLVMBuildShl(cg->b, w1, k64(cg, 1), ""),
				       LLVMBuildSub(cg->b, k64(cg, 63), sh, ""), "");
	LLVMValueRef sw = LLVMBuildOr(cg->b, LLVMBuildLShr(cg->b, w0, sh, ""), up, "");
	LLVMValueRef x = LLVMBuildXor(cg->b, sw,
				      LLVMBuildLoad2(cg->b, cg->i64, at(cg, bd.v[1], off), ""), "");
	x = and1(cg, x, LLVMBuildLoad2(cg->b, cg->i64, at(cg, bd.v[2], off), ""));
	set(cg, diff, LLVMBuildOr(cg->b, get(cg, diff), x, ""));
	loop_end(cg, &lw);
	LLVMBasicBlockRef jm = begin_if(cg, eq(cg, get(cg, diff), zero));
	LLVMValueRef fwd = and1(cg, and1(cg, eq(cg, sload(cg, bd.v[6]), none),
		LLVMBuildICmp(cg->b, LLVMIntSGE, i, sload(cg, bd.v[3]), "")),
		LLVMBuildICmp(cg->b, LLVMIntSLT, i, sload(cg, bd.v[5]), ""));
	LLVMBasicBlockRef jf = begin_if(cg, fwd);
	sstore(cg, bd.v[6], i);
	end_if(cg, jf);
	LLVMBasicBlockRef jl = begin_if(cg, LLVMBuildICmp(cg->b, LLVMIntSLE, i, sload(cg, bd.v[4]),
							  ""));
	sstore(cg, bd.v[7], i);
	end_if(cg, jl);
	end_if(cg, jm);
	body_end(cg, &bd);
	first = sload(cg, first);
	last = sload(cg, last);
	LLVMValueRef empty = eq(cg, tlen, zero);
	LLVMValueRef both = and1(cg, eq(cg, len, zero), empty);
	if (kind == S_STRSTR) {
		LLVMValueRef d = result(cg, 0);
		LLVMValueRef at0 = first;
		LLVMBasicBlockRef join = begin_if(cg, LLVMBuildOr(cg->b, both,
			LLVMBuildICmp(cg->b, LLVMIntSGE, at0, zero, ""), ""));
		copy_from(cg, d, s, sel(cg, both, zero, at0));
		end_if(cg, join);
		return strval(d, cg);
	}
	LLVMValueRef r;
	if (kind == S_INDEX) {
		r = first;
		if (pos) {
			/* from at or past the end: only "" is found, at the end */
			LLVMValueRef past = LLVMBuildICmp(cg->b, LLVMIntSGE, lo, len, "");
			r = sel(cg, past, sel(cg, empty, len, none), r);
		}
	} else {
		r = last;
		if (pos) {
			LLVMValueRef negp = LLVMBuildICmp(cg->b, LLVMIntSLT, pos, zero, "");
			r = sel(cg, negp, sel(cg, empty, zero, none), r);
		}
	}
	r = sel(cg, both, zero, r);
	return intval(r, &type_int);
}

/* strchr(s, c) / strrchr(s, c): the rest of s from the first / last c,
 * or the empty string; c may be the NUL, whose rest is empty too. The
 * scan goes backwards for strchr(), so that the last hit it stores wins. */
static struct cval strchr_(struct cg *cg, struct cval s, LLVMValueRef c, bool last)
{
	unsigned cap = str_cap(cg, s);
	LLVMValueRef none = k64(cg, (uint64_t)-1);
	c = and1(cg, c, k64(cg, 0xff));
	LLVMValueRef d = result(cg, 0), found = slot(cg, none);
	LLVMBasicBlockRef join = begin_if(cg, LLVMBuildICmp(cg->b, LLVMIntNE, c, k64(cg, 0), ""));
	struct body b;
	LLVMValueRef vals[3] = { s.v, found, c };
	body_begin(cg, &b, cap, vals, 3);
	LLVMValueRef i = last ? b.i : LLVMBuildSub(cg->b, k64(cg, cap - 1), b.i, "");
	LLVMBasicBlockRef j2 = begin_if(cg, eq(cg, byte_at(cg, b.v[0], i), b.v[2]));
	sstore(cg, b.v[1], i);
	end_if(cg, j2);
	body_end(cg, &b);
	LLVMValueRef f = sload(cg, found);
	LLVMBasicBlockRef j3 = begin_if(cg, LLVMBuildICmp(cg->b, LLVMIntNE, f, none, ""));
	copy_from(cg, d, s, f);
	end_if(cg, j3);
	end_if(cg, join);
	return strval(d, cg);
}

/* basename(s), dirname(s) as DTrace cuts them: "" is ".", all slashes is
 * "/", a name without a slash has the dirname ".", and one right after a
 * leading slash the dirname "/". One pass notes the last non-slash byte,
 * where the last name starts, whether a slash comes before it, and the
 * last non-slash byte before that slash. */
static struct cval path_part(struct cg *cg, struct cval s, bool dir)
{
	unsigned cap = str_cap(cg, s);
	LLVMValueRef zero = k64(cg, 0), none = k64(cg, (uint64_t)-1);
	LLVMValueRef len = str_len(cg, s);
	LLVMValueRef lnon = slot(cg, none), start = slot(cg, zero), slash = slot(cg, zero);
	LLVMValueRef dlast = slot(cg, none);
	struct body bd;
	/* v[5]: whether the byte before is a slash, or the start */
	LLVMValueRef vals[6] = { s.v, lnon, start, slash, dlast, slot(cg, k64(cg, 1)) };
	body_begin(cg, &bd, cap, vals, 6);
	LLVMValueRef i = bd.i, sv = bd.v[0];
	LLVMValueRef b = byte_at(cg, sv, i), isl = eq(cg, b, k64(cg, '/'));
	LLVMValueRef after = sload(cg, bd.v[5]);
	sstore(cg, bd.v[5], LLVMBuildZExt(cg->b, isl, cg->i64, ""));
	LLVMBasicBlockRef j1 = begin_if(cg, and1(cg, LLVMBuildICmp(cg->b, LLVMIntNE, b, zero, ""),
						 LLVMBuildNot(cg->b, isl, "")));
	LLVMValueRef notfirst = LLVMBuildICmp(cg->b, LLVMIntNE, i, zero, "");
	LLVMValueRef fresh = LLVMBuildICmp(cg->b, LLVMIntNE, after, zero, "");
	LLVMBasicBlockRef j2 = begin_if(cg, fresh);
	sstore(cg, bd.v[4], sload(cg, bd.v[1]));
	sstore(cg, bd.v[3], LLVMBuildZExt(cg->b, notfirst, cg->i64, ""));
	sstore(cg, bd.v[2], i);
	end_if(cg, j2);
	sstore(cg, bd.v[1], i);
	end_if(cg, j1);
	body_end(cg, &bd);
	/* the byte to return alone ('.' or '/'), or 0 and the range [from, to] */
	LLVMValueRef hasname = LLVMBuildICmp(cg->b, LLVMIntNE, sload(cg, lnon), none, "");
	LLVMValueRef hasslash = LLVMBuildICmp(cg->b, LLVMIntNE, sload(cg, slash), zero, "");
	LLVMValueRef from = zero, to, ch;
	ch = sel(cg, eq(cg, len, zero), k64(cg, '.'), sel(cg, hasname, zero, k64(cg, '/')));
	if (dir) {
		ch = sel(cg, and1(cg, hasname, LLVMBuildNot(cg->b, hasslash, "")), k64(cg, '.'), ch);
		to = sload(cg, dlast);
		to = sel(cg, eq(cg, to, none), zero, to);
	} else {
		from = sload(cg, start);
		to = sload(cg, lnon);
	}
	LLVMValueRef d = result(cg, 8);
	LLVMValueRef alone = LLVMBuildICmp(cg->b, LLVMIntNE, ch, zero, "");
	LLVMBasicBlockRef other = cg_block(cg, "path.range"), join = cg_block(cg, "path.done");
	LLVMBasicBlockRef one_b = cg_block(cg, "path.byte");
	LLVMBuildCondBr(cg->b, alone, one_b, other);
	LLVMPositionBuilderAtEnd(cg->b, one_b);
	put_byte(cg, d, zero, ch);
	LLVMBuildBr(cg->b, join);
	LLVMPositionBuilderAtEnd(cg->b, other);
	unsigned max = cap - 1;
	LLVMValueRef n = bounded(cg, LLVMBuildSub(cg->b, to, from, ""), max);
	read_str(cg, d, LLVMBuildAdd(cg->b, n, k64(cg, 2), ""), at(cg, s.v, bounded(cg, from, max)));
	LLVMBuildBr(cg->b, join);
	LLVMPositionBuilderAtEnd(cg->b, join);
	return strval(d, cg);
}

/* lltostr(n[, base]): digits written right to left at fixed places, then
 * DTrace's prefixes ("-", "0", "0x") before them; base 2 to 36 */
static struct cval lltostr(struct cg *cg, LLVMValueRef n, LLVMValueRef base)
{
	LLVMValueRef zero = k64(cg, 0);
	if (base)
		fault_if(cg, LLVMBuildICmp(cg->b, LLVMIntUGT, LLVMBuildSub(cg->b, base, k64(cg, 2), ""),
					   k64(cg, 34), ""), DCC_FAULT_ILLOP);
	else
		base = k64(cg, 10);
	LLVMValueRef ten = eq(cg, base, k64(cg, 10)), hex = eq(cg, base, k64(cg, 16));
	LLVMValueRef neg = LLVMBuildICmp(cg->b, LLVMIntSLT, n, zero, "");
	LLVMValueRef isz = eq(cg, n, zero);
	LLVMValueRef v = slot(cg, sel(cg, and1(cg, ten, neg), LLVMBuildNeg(cg->b, n, ""), n));
	LLVMValueRef nd = slot(cg, zero);
	LLVMValueRef buf = scratch(cg, 128);
	put_byte(cg, buf, k64(cg, 127), zero);
	struct body b;
	LLVMValueRef vals[5] = { buf, v, nd, base, slot(cg, k64(cg, 126)) };
	body_begin(cg, &b, 64, vals, 5);
	LLVMValueRef x = sload(cg, b.v[1]);
	LLVMValueRef dg = LLVMBuildURem(cg->b, x, b.v[3], "");
	LLVMValueRef ch = sel(cg, LLVMBuildICmp(cg->b, LLVMIntULT, dg, k64(cg, 10), ""),
			      LLVMBuildAdd(cg->b, dg, k64(cg, '0'), ""),
			      LLVMBuildAdd(cg->b, dg, k64(cg, 'a' - 10), ""));
	/* at 126 - i, kept in memory: computed from i, the backend makes it
	 * buf - i + 126, a negative offset the verifier refuses */
	LLVMValueRef at_ = sload(cg, b.v[4]);
	put_byte(cg, b.v[0], and1(cg, at_, k64(cg, 127)), ch);
	sstore(cg, b.v[4], LLVMBuildSub(cg->b, at_, k64(cg, 1), ""));
	sstore(cg, b.v[2], LLVMBuildAdd(cg->b, sload(cg, b.v[2]), LLVMBuildZExt(cg->b,
		LLVMBuildICmp(cg->b, LLVMIntNE, x, zero, ""), cg->i64, ""), ""));
	sstore(cg, b.v[1], LLVMBuildUDiv(cg->b, x, b.v[3], ""));
	body_end(cg, &b);
	/* p: where the string starts, as prefixes are added */
	LLVMValueRef p = var(cg, LLVMBuildSub(cg->b, k64(cg, 127), sload(cg, nd), ""));
	struct { LLVMValueRef when; char c; } pre[4] = {
		{ and1(cg, isz, hex), '0' }, { hex, 'x' },
		{ LLVMBuildOr(cg->b, isz, LLVMBuildOr(cg->b, hex, eq(cg, base, k64(cg, 8)), ""), ""),
		  '0' },
		{ and1(cg, neg, ten), '-' },
	};
	for (int k = 0; k < 4; k++) {
		LLVMBasicBlockRef join = begin_if(cg, pre[k].when);
		LLVMValueRef np = LLVMBuildSub(cg->b, get(cg, p), k64(cg, 1), "");
		put_byte(cg, buf, bounded(cg, np, 127), k64(cg, (uint64_t)pre[k].c));
		set(cg, p, np);
		end_if(cg, join);
	}
	LLVMValueRef d = result(cg, 0);
	unsigned max = cg->strsize < 72 ? cg->strsize : 72;
	read_str(cg, d, k64(cg, max), at(cg, buf, bounded(cg, get(cg, p), 127)));
	return strval(d, cg);
}

/* strtoll(s[, base]) as DTrace reads it: blanks and tabs, a sign, "0x"
 * or "0X" in base 16 when a hex digit follows, then digits below base.
 * A state per byte: 0 blanks, 1 first byte after them (or the sign),
 * 2 digits, 3 after a leading 0 in base 16, 4 done. */
static struct cval strtoll_(struct cg *cg, struct cval s, LLVMValueRef base)
{
	LLVMValueRef zero = k64(cg, 0);
	if (base)
		fault_if(cg, LLVMBuildICmp(cg->b, LLVMIntUGT, LLVMBuildSub(cg->b, base, k64(cg, 2), ""),
					   k64(cg, 34), ""), DCC_FAULT_ILLOP);
	else
		base = k64(cg, 10);
	LLVMValueRef st = slot(cg, zero), val = slot(cg, zero), neg = slot(cg, zero);
	struct body b;
	LLVMValueRef vals[5] = { s.v, st, val, neg, base };
	body_begin(cg, &b, str_cap(cg, s), vals, 5);
	st = b.v[1], val = b.v[2], neg = b.v[3], base = b.v[4];
	LLVMValueRef c = byte_at(cg, b.v[0], b.i), state = sload(cg, st);
	LLVMValueRef blank = LLVMBuildOr(cg->b, eq(cg, c, k64(cg, ' ')), eq(cg, c, k64(cg, '\t')),
					 "");
	LLVMValueRef sign = LLVMBuildOr(cg->b, eq(cg, c, k64(cg, '-')), eq(cg, c, k64(cg, '+')), "");
	LLVMValueRef s0 = eq(cg, state, zero);
	/* blanks and a sign only in state 0 */
	LLVMValueRef skip = and1(cg, s0, LLVMBuildOr(cg->b, blank, sign, ""));
	LLVMValueRef signs = and1(cg, s0, sign);
	sstore(cg, neg, sel(cg, signs, LLVMBuildZExt(cg->b, eq(cg, c, k64(cg, '-')), cg->i64, ""),
			 sload(cg, neg)));
	state = sel(cg, s0, sel(cg, signs, k64(cg, 1), sel(cg, blank, zero, k64(cg, 1))), state);
	/* "0x" after a leading 0 in base 16: keep going as digits */
	LLVMValueRef x = and1(cg, eq(cg, state, k64(cg, 3)),
			      eq(cg, LLVMBuildOr(cg->b, c, k64(cg, 0x20), ""), k64(cg, 'x')));
	/* the digit's value, or 99 */
	LLVMValueRef lc = LLVMBuildOr(cg->b, c, k64(cg, 0x20), "");
	LLVMValueRef dec = LLVMBuildSub(cg->b, c, k64(cg, '0'), "");
	LLVMValueRef alpha = LLVMBuildSub(cg->b, lc, k64(cg, 'a'), "");
	LLVMValueRef dv = sel(cg, LLVMBuildICmp(cg->b, LLVMIntULT, dec, k64(cg, 10), ""), dec,
		sel(cg, LLVMBuildICmp(cg->b, LLVMIntULT, alpha, k64(cg, 26), ""),
		    LLVMBuildAdd(cg->b, alpha, k64(cg, 10), ""), k64(cg, 99)));
	LLVMValueRef digits = LLVMBuildAnd(cg->b, LLVMBuildNot(cg->b, skip, ""),
		and1(cg, LLVMBuildICmp(cg->b, LLVMIntULT, state, k64(cg, 4), ""),
		     LLVMBuildNot(cg->b, x, "")), "");
	LLVMValueRef ok = and1(cg, digits, LLVMBuildICmp(cg->b, LLVMIntULT, dv, base, ""));
	sstore(cg, val, sel(cg, ok, LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, sload(cg, val), base, ""),
					      dv, ""), sload(cg, val)));
	LLVMValueRef zero16 = and1(cg, and1(cg, ok, eq(cg, state, k64(cg, 1))),
				   and1(cg, eq(cg, c, k64(cg, '0')), eq(cg, base, k64(cg, 16))));
	LLVMValueRef next = sel(cg, x, k64(cg, 2), sel(cg, zero16, k64(cg, 3),
		sel(cg, ok, k64(cg, 2), sel(cg, digits, k64(cg, 4), state))));
	sstore(cg, st, next);
	body_end(cg, &b);
	st = vals[1], val = vals[2], neg = vals[3];
	LLVMValueRef v = sload(cg, val);
	v = sel(cg, LLVMBuildICmp(cg->b, LLVMIntNE, sload(cg, neg), zero, ""), LLVMBuildNeg(cg->b, v, ""),
		v);
	return intval(v, &type_llong);
}

/* toupper(s), tolower(s): 8 bytes at a time; a byte is a letter to flip
 * when its low 7 bits are in range and its top bit is clear */
static struct cval changecase(struct cg *cg, struct cval s, bool upper)
{
	unsigned words = str_cap(cg, s) / 8;
	LLVMValueRef d = result(cg, 0);
	uint64_t lo = upper ? 'a' : 'A', hi = upper ? 'z' : 'Z';
	LLVMValueRef b7 = k64(cg, 0x7f7f7f7f7f7f7f7full), b8 = k64(cg, 0x8080808080808080ull);
	struct loop l;
	LLVMValueRef w = loop_begin(cg, &l, words);
	LLVMValueRef off = LLVMBuildMul(cg->b, w, k64(cg, 8), "");
	LLVMValueRef x = LLVMBuildLoad2(cg->b, cg->i64, at(cg, s.v, off), "");
	LLVMValueRef h = and1(cg, x, b7);
	LLVMValueRef ge = LLVMBuildAdd(cg->b, h, k64(cg, 0x0101010101010101ull * (0x80 - lo)), "");
	LLVMValueRef gt = LLVMBuildAdd(cg->b, h, k64(cg, 0x0101010101010101ull * (0x7f - hi)), "");
	LLVMValueRef m = and1(cg, and1(cg, ge, LLVMBuildNot(cg->b, gt, "")),
			      and1(cg, LLVMBuildNot(cg->b, x, ""), b8));
	x = LLVMBuildXor(cg->b, x, LLVMBuildLShr(cg->b, m, k64(cg, 2), ""), "");
	LLVMBuildStore(cg->b, x, at(cg, d, off));
	loop_end(cg, &l);
	if (words * 8 >= cg->strsize)
		put_byte(cg, d, k64(cg, cg->strsize - 1), k64(cg, 0));
	return strval(d, cg);
}

bool cg_string_name(const char *name)
{
	static const char *const names[] = {
		"strlen", "strjoin", "substr", "index", "rindex", "strstr", "strchr", "strrchr",
		"basename", "dirname", "lltostr", "strtoll", "toupper", "tolower", NULL,
	};
	for (int i = 0; names[i]; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

struct cval cg_string(struct cg *cg, struct node *n)
{
	const char *f = n->name;
	struct cval a[3] = { 0 };
	int i = 0;
	for (struct node *x = n->list; x && i < 3; x = x->next)
		a[i++] = cg_expr(cg, x);
	LLVMValueRef v2 = i > 1 ? a[1].v : NULL, v3 = i > 2 ? a[2].v : NULL;
	if (!strcmp(f, "strlen"))
		return intval(str_len(cg, a[0]), n->type);
	if (!strcmp(f, "strjoin"))
		return strjoin(cg, a[0], a[1]);
	if (!strcmp(f, "substr"))
		return substr(cg, a[0], v2, v3);
	if (!strcmp(f, "strstr"))
		return search(cg, S_STRSTR, a[0], a[1], NULL);
	if (!strcmp(f, "index") || !strcmp(f, "rindex"))
		return search(cg, f[0] == 'i' ? S_INDEX : S_RINDEX, a[0], a[1], v3);
	if (!strcmp(f, "strchr") || !strcmp(f, "strrchr"))
		return strchr_(cg, a[0], v2, f[3] == 'r');
	if (!strcmp(f, "basename") || !strcmp(f, "dirname"))
		return path_part(cg, a[0], f[0] == 'd');
	if (!strcmp(f, "lltostr"))
		return lltostr(cg, a[0].v, v2);
	if (!strcmp(f, "strtoll"))
		return strtoll_(cg, a[0], v2);
	return changecase(cg, a[0], !strcmp(f, "toupper"));
}
