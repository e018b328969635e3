/*
 * Aggregation updates: @name[keys] = f(x) becomes a lookup in the
 * aggregation's per-CPU hash map and an in-place update of this CPU's value
 * (no atomics needed), with an insert only on a miss. Layouts: abi.h.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <dcc/abi.h>
#include <dcc/abi_agg.h>
#include "cg.h"
#include "cg_bpf.h"

static LLVMValueRef word(struct cg *cg, LLVMValueRef p, unsigned i)
{
	LLVMValueRef o = cg_i64(cg, 8 * i);
	return LLVMBuildGEP2(cg->b, cg->i8, p, &o, 1, "");
}

static LLVMValueRef ld(struct cg *cg, LLVMValueRef p, unsigned i)
{
	return LLVMBuildLoad2(cg->b, cg->i64, word(cg, p, i), "");
}

static void st(struct cg *cg, LLVMValueRef p, unsigned i, LLVMValueRef v)
{
	LLVMBuildStore(cg->b, v, word(cg, p, i));
}

static LLVMValueRef sel(struct cg *cg, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b)
{
	return LLVMBuildSelect(cg->b, c, a, b, "");
}

static LLVMValueRef icmp(struct cg *cg, LLVMIntPredicate p, LLVMValueRef a, LLVMValueRef b)
{
	return LLVMBuildICmp(cg->b, p, a, b, "");
}

/* Clamp a bucket index to [0, max] so the verifier sees it in bounds. LLVM
 * can prove the clamp redundant (it knows ctlz's range, or the value's when
 * it is nearly constant) and would drop it, but the verifier can't, so the
 * index first goes through cg_opaque() (the backend drops
 * llvm.bpf.passthrough before instruction selection, whose combiner then
 * removed the clamp: `quantize(-1 - (pid & 1))` was refused). */
/* Every bucket index is in [0, max] by construction; this unsigned clamp
 * is only there for the verifier. */
static LLVMValueRef clamp(struct cg *cg, LLVMValueRef idx, uint64_t max)
{
	idx = cg_opaque(cg, idx);
	return sel(cg, icmp(cg, LLVMIntUGT, idx, cg_i64(cg, max)), cg_i64(cg, max), idx);
}

/* The bits of a below its highest set bit set too: a | a >> 1 | ... */
static LLVMValueRef smear(struct cg *cg, LLVMValueRef a)
{
	for (unsigned sh = 1; sh < 64; sh *= 2)
		a = LLVMBuildOr(cg->b, a, LLVMBuildLShr(cg->b, a, cg_i64(cg, sh), ""), "");
	return a;
}

/* Multiplied by smear(|v|), 2^n - 1 for a value n bits wide (n in [0, 64]),
 * its top seven bits h differ for every n in [0, 63] and for every n in [1,
 * 64], and h + 127 of the latter meets no h of the former: a perfect hash
 * of the width on either side of 0, found by search (none of six bits
 * exists; a de Bruijn multiply of 2^n is one instruction more, the + 1).
 * quantize_table() checks it. */
#define QUANTIZE_HASH 0xdc75b33a353e5863ull
#define QUANTIZE_TABLE 255

/* The byte quantize's table holds at the hash h of a width n: the bucket
 * ZERO + n at h for v >= 0, ZERO - n at 127 + h for v < 0. -2^63 (n = 64)
 * goes to the lowest bucket, whose range it ends. */
static void quantize_table(uint8_t tab[QUANTIZE_TABLE])
{
	bool seen[QUANTIZE_TABLE] = { false };
	memset(tab, 0, QUANTIZE_TABLE);
	for (unsigned n = 0; n <= 64; n++) {
		uint64_t y = n < 64 ? (1ull << n) - 1 : ~0ull;
		unsigned h = (unsigned)((y * QUANTIZE_HASH) >> 57);
		unsigned at[2] = { h, 127 + h };
		for (int neg = 0; neg < 2; neg++) {
			if (neg ? n == 0 : n == 64)
				continue;
			if (seen[at[neg]])
				abort(); /* not a perfect hash: a wrong constant */
			seen[at[neg]] = true;
			tab[at[neg]] = (uint8_t)(neg ? (n < 64 ? ABI_QUANTIZE_ZERO - n : 0)
						     : ABI_QUANTIZE_ZERO + n);
		}
	}
}

static LLVMValueRef quantize_table_ref(struct cg *cg)
{
	if (cg->qtab)
		return cg->qtab;
	uint8_t tab[QUANTIZE_TABLE];
	quantize_table(tab);
	LLVMTypeRef t = LLVMArrayType2(cg->i8, sizeof(tab));
	LLVMValueRef g = LLVMAddGlobal(cg->M, t, "dcc_qtab");
	LLVMSetInitializer(g, LLVMConstStringInContext(cg->C, (const char *)tab, sizeof(tab), 1));
	LLVMSetGlobalConstant(g, 1);
	LLVMSetLinkage(g, LLVMExternalLinkage);
	LLVMSetAlignment(g, 8);
	cg_add_used(cg, g);
	return cg->qtab = g;
}

/*
 * Without branches or selects: with s = v >> 63 (0 or -1) and |v| = (v ^ s)
 * - s, smear(|v|) is 2^n - 1, n being 0 for 0 and floor(log2 |v|) + 1 else;
 * the bucket is ZERO + n for v >= 0 and ZERO - n below. A multiply hashes
 * 2^n - 1 to seven bits, and s shifted to 0 or 127 picks the table's
 * negative half: 12 instructions where counting the bits of the smear and
 * applying the sign took 28. Not s & 128: the verifier (6.18's) walks the
 * rest of the program twice for an and of a value in [-1, 0].
 */
static LLVMValueRef quantize_bucket(struct cg *cg, LLVMValueRef v)
{
	/* opaque: LLVM would rewrite s >> 57 as a shift of v, one more */
	LLVMValueRef s = cg_opaque(cg, LLVMBuildAShr(cg->b, v, cg_i64(cg, 63), ""));
	LLVMValueRef a = LLVMBuildSub(cg->b, LLVMBuildXor(cg->b, v, s, ""), s, "");
	LLVMValueRef h = LLVMBuildLShr(cg->b,
		LLVMBuildMul(cg->b, smear(cg, a), cg_i64(cg, QUANTIZE_HASH), ""), cg_i64(cg, 57), "");
	LLVMValueRef at = LLVMBuildAdd(cg->b, h, LLVMBuildLShr(cg->b, s, cg_i64(cg, 57), ""), "");
	LLVMValueRef p = LLVMBuildGEP2(cg->b, cg->i8, quantize_table_ref(cg), &at, 1, "");
	LLVMValueRef idx = LLVMBuildZExt(cg->b, LLVMBuildLoad2(cg->b, cg->i8, p, ""), cg->i64, "");
	/* every entry is a bucket, which the verifier cannot know of a
	 * load: the mask bounds the index (opaque: LLVM might drop it) */
	return LLVMBuildAnd(cg->b, cg_opaque(cg, idx), cg_i64(cg, ABI_QUANTIZE_SLOTS - 1), "");
}

static LLVMValueRef lquantize_bucket(struct cg *cg, struct agg *g, LLVMValueRef v)
{
	int64_t lo = g->param[0], step = g->param[2];
	int64_t levels = abi_lquantize_levels(g->param);
	LLVMValueRef rel = LLVMBuildSub(cg->b, v, cg_i64(cg, (uint64_t)lo), "");
	LLVMValueRef idx = LLVMBuildAdd(cg->b, cg_i64(cg, 1),
		LLVMBuildUDiv(cg->b, rel, cg_i64(cg, (uint64_t)step), ""), "");
	idx = sel(cg, icmp(cg, LLVMIntSGE, v, cg_i64(cg, (uint64_t)(lo + levels * step))),
		  cg_i64(cg, (uint64_t)levels + 1), idx);
	idx = sel(cg, icmp(cg, LLVMIntSLT, v, cg_i64(cg, (uint64_t)lo)), cg_i64(cg, 0), idx);
	return clamp(cg, idx, (uint64_t)levels + 1);
}

static LLVMValueRef llquantize_bucket(struct cg *cg, struct agg *g, LLVMValueRef v)
{
	uint32_t n = (uint32_t)abi_llquantize_n(g->param);
	LLVMValueRef neg = icmp(cg, LLVMIntSLT, v, cg_i64(cg, 0));
	LLVMValueRef a = sel(cg, neg, LLVMBuildNeg(cg->b, v, ""), v);
	/* j: the ascending bucket of a >= f^lmag; the last one is overflow */
	LLVMValueRef j = cg_i64(cg, n - 1);
	struct abi_llq_mag m = { 0 };
	for (int64_t k = g->param[2]; k >= g->param[1]; k--) {
		abi_llquantize_mag(g->param, k, &m);
		/* a / width - skip, not (a - lo) / width: they differ when the
		 * factor has more buckets than steps (abi_agg.h) */
		LLVMValueRef in = LLVMBuildAdd(cg->b, cg_i64(cg, m.first - (uint64_t)m.skip),
			LLVMBuildUDiv(cg->b, a, cg_i64(cg, (uint64_t)m.width), ""), "");
		j = sel(cg, icmp(cg, LLVMIntULT, a, cg_i64(cg, (uint64_t)m.hi)), in, j);
	}
	LLVMValueRef pos = LLVMBuildAdd(cg->b, cg_i64(cg, n + 1), j, "");
	LLVMValueRef ng = LLVMBuildSub(cg->b, cg_i64(cg, n - 1), j, "");
	LLVMValueRef idx = sel(cg, neg, ng, pos);
	idx = sel(cg, icmp(cg, LLVMIntULT, a, cg_i64(cg, (uint64_t)m.lo)), cg_i64(cg, n), idx);
	return clamp(cg, idx, 2 * (uint64_t)n);
}

/* sum of squares in 128 bits: (lo, hi) += x * x */
static void add_square(struct cg *cg, LLVMValueRef p, LLVMValueRef x)
{
	LLVMValueRef a = sel(cg, icmp(cg, LLVMIntSLT, x, cg_i64(cg, 0)),
			     LLVMBuildNeg(cg->b, x, ""), x);
	LLVMValueRef ah = LLVMBuildLShr(cg->b, a, cg_i64(cg, 32), "");
	LLVMValueRef al = LLVMBuildAnd(cg->b, a, cg_i64(cg, 0xffffffff), "");
	LLVMValueRef lo = LLVMBuildMul(cg->b, al, al, "");
	LLVMValueRef mid = LLVMBuildMul(cg->b, ah, al, "");
	LLVMValueRef sq_lo = LLVMBuildAdd(cg->b, lo, LLVMBuildShl(cg->b, mid, cg_i64(cg, 33), ""), "");
	LLVMValueRef c1 = LLVMBuildZExt(cg->b, icmp(cg, LLVMIntULT, sq_lo, lo), cg->i64, "");
	LLVMValueRef sq_hi = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, ah, ah, ""),
		LLVMBuildAdd(cg->b, LLVMBuildLShr(cg->b, mid, cg_i64(cg, 31), ""), c1, ""), "");
	LLVMValueRef acc_lo = LLVMBuildAdd(cg->b, ld(cg, p, 2), sq_lo, "");
	LLVMValueRef c2 = LLVMBuildZExt(cg->b, icmp(cg, LLVMIntULT, acc_lo, sq_lo), cg->i64, "");
	st(cg, p, 2, acc_lo);
	st(cg, p, 3, LLVMBuildAdd(cg->b, ld(cg, p, 3), LLVMBuildAdd(cg->b, sq_hi, c2, ""), ""));
}

/* Fold x into this CPU's value at p (all-zero when the key is new). */
static void apply(struct cg *cg, struct agg *g, LLVMValueRef p, LLVMValueRef x,
		  LLVMValueRef incr)
{
	LLVMValueRef idx = NULL;
	switch (g->func) {
	case DCC_AGG_COUNT:
		st(cg, p, 0, LLVMBuildAdd(cg->b, ld(cg, p, 0), cg_i64(cg, 1), ""));
		return;
	case DCC_AGG_SUM:
		st(cg, p, 0, LLVMBuildAdd(cg->b, ld(cg, p, 0), x, ""));
		return;
	case DCC_AGG_AVG:
	case DCC_AGG_STDDEV:
		st(cg, p, 0, LLVMBuildAdd(cg->b, ld(cg, p, 0), cg_i64(cg, 1), ""));
		st(cg, p, 1, LLVMBuildAdd(cg->b, ld(cg, p, 1), x, ""));
		if (g->func == DCC_AGG_STDDEV)
			add_square(cg, p, x);
		return;
	case DCC_AGG_MIN:
	case DCC_AGG_MAX: {
		/* value, n: a slot with n == 0 has no value yet */
		LLVMValueRef cur = ld(cg, p, 0), n = ld(cg, p, 1);
		LLVMValueRef better = icmp(cg, g->func == DCC_AGG_MIN ? LLVMIntSLT : LLVMIntSGT,
					   x, cur);
		LLVMValueRef take = LLVMBuildOr(cg->b, better,
						icmp(cg, LLVMIntEQ, n, cg_i64(cg, 0)), "");
		st(cg, p, 0, sel(cg, take, x, cur));
		st(cg, p, 1, LLVMBuildAdd(cg->b, n, cg_i64(cg, 1), ""));
		return;
	}
	case DCC_AGG_QUANTIZE:
		idx = quantize_bucket(cg, x);
		break;
	case DCC_AGG_LQUANTIZE:
		idx = lquantize_bucket(cg, g, x);
		break;
	case DCC_AGG_LLQUANTIZE:
		idx = llquantize_bucket(cg, g, x);
		break;
	}
	LLVMValueRef off = LLVMBuildMul(cg->b, idx, cg_i64(cg, 8), "");
	LLVMValueRef bp = LLVMBuildGEP2(cg->b, cg->i8, p, &off, 1, "");
	LLVMValueRef cur = LLVMBuildLoad2(cg->b, cg->i64, bp, "");
	LLVMBuildStore(cg->b, LLVMBuildAdd(cg->b, cur, incr, ""), bp);
}

/* A fold short enough to be written twice (a hit, a new key) rather than
 * looking a new key up again after inserting zeros. */
static bool small_fold(const struct agg *g)
{
	return g->func == DCC_AGG_COUNT || g->func == DCC_AGG_SUM || g->func == DCC_AGG_AVG ||
	       g->func == DCC_AGG_MIN || g->func == DCC_AGG_MAX;
}

/* The all-zero value a new key starts from, in .rodata. */
LLVMValueRef cg_zero_value(struct cg *cg, uint32_t size)
{
	if (size <= 32) {
		if (!cg->p->zero32)
			cg->p->zero32 = cg_alloca(cg, LLVMArrayType2(cg->i64, 4), "aggzero");
		/* only the bytes the map's value takes */
		cg_memop(cg, "llvm.memset", cg->p->zero32, NULL, size);
		return cg->p->zero32;
	}
	if (!cg->zero || cg->zero_size < size) {
		LLVMTypeRef t = LLVMArrayType2(cg->i8, size);
		LLVMValueRef g = LLVMAddGlobal(cg->M, t, "dcc_zero");
		LLVMSetInitializer(g, LLVMConstNull(t));
		LLVMSetGlobalConstant(g, 1);
		LLVMSetLinkage(g, LLVMExternalLinkage);
		LLVMSetAlignment(g, 8);
		if (cg->zero) {
			/* the list llvm.compiler.used is built from at the end
			 * must not keep the deleted global */
			for (int i = 0; i < cg->nused; i++)
				if (cg->used[i] == cg->zero)
					cg->used[i] = g;
			LLVMReplaceAllUsesWith(cg->zero, g);
			LLVMDeleteGlobal(cg->zero);
			LLVMSetValueName2(g, "dcc_zero", 8);
		} else {
			cg_add_used(cg, g);
		}
		cg->zero = g;
		cg->zero_size = size;
	}
	return cg->zero;
}

uint32_t cg_agg_value_size(const struct agg *g)
{
	return (uint32_t)abi_agg_value_size((uint32_t)g->func, g->param);
}

void cg_agg_update(struct cg *cg, struct node *assign)
{
	struct node *lv = assign->a, *call = assign->b;
	struct agg *g = lv->sym;
	LLVMValueRef map = cg_map_ref(cg, cg->agg_map[g->id]);

	/* the key: 8-byte integer slots and NUL-padded strings as wide as the
	 * widest string stored in that position */
	unsigned ks = 0;
	for (int i = 0; i < g->nkeys; i++)
		ks += g->keys[i]->kind == T_STRING || type_is_symbolic(g->keys[i])
			? cg->agg_keycap[g->id][i] : 8;
	LLVMValueRef key;
	if (!g->nkeys) {
		key = cg_key0(cg);
	} else {
		/* one key an update: a clause of many keyed updates takes them
		 * from scratch once its stack share is used */
		key = cg_tmpbuf(cg, ks);
	}
	unsigned off = 0;
	int i = 0;
	for (struct node *k = lv->list; k; k = k->next, i++) {
		LLVMValueRef o = cg_i64(cg, off);
		LLVMValueRef dst = LLVMBuildGEP2(cg->b, cg->i8, key, &o, 1, "");
		/* copyinstr() and execname straight into the key, zero-padded */
		struct cval v = { 0 };
		if (g->keys[i]->kind != T_STRING ||
		    !cg_str_into(cg, k, dst, cg->agg_keycap[g->id][i], true))
			v = cg_expr(cg, k);
		if (g->keys[i]->kind == T_STRING) {
			if (v.v) { /* else cg_str_into() wrote it */
				/* the NULL string faults, as a tuple's
				 * string read through DTrace's pointer */
				cg_str_notnull(cg, k, v);
				cg_strcopy(cg, dst, cg->agg_keycap[g->id][i], v);
			}
			off += cg->agg_keycap[g->id][i];
		} else if (type_is_symbolic(g->keys[i]) && v.cap) {
			cg_memop(cg, "llvm.memcpy", dst, v.v, g->keys[i]->size);
			off += cg->agg_keycap[g->id][i];
		} else if (type_is_symbolic(g->keys[i])) {
			LLVMBuildStore(cg->b, v.v, dst);
			off += 8;
		} else {
			LLVMBuildStore(cg->b, cg_norm(cg, v.v, g->keys[i]), dst);
			off += 8;
		}
	}
	LLVMValueRef x = call->list ? cg_expr(cg, call->list).v : cg_i64(cg, 0);
	/* the optional increment of the histograms comes after the parameters */
	int incr_at = g->func == DCC_AGG_QUANTIZE ? 1 : g->func == DCC_AGG_LQUANTIZE ? 4 :
		      g->func == DCC_AGG_LLQUANTIZE ? 5 : -1;
	struct node *in = call->list;
	for (int k = 0; in && k < incr_at; k++)
		in = in->next;
	LLVMValueRef incr = incr_at >= 0 && in ? cg_expr(cg, in).v : cg_i64(cg, 1);

	/* look up; a new key is inserted as zeros first (BPF_NOEXIST: another
	 * CPU may have won the race, which is fine), then updated in place */
	LLVMValueRef p = cg_bpf_map_lookup(cg, map, key);
	if (cg->agg_array[g->id]) {
		/* the slot always exists; the check is for the verifier */
		LLVMBasicBlockRef hit = cg_block(cg, "agg.slot"), done = cg_block(cg, "agg.done");
		LLVMBuildCondBr(cg->b, LLVMBuildIsNull(cg->b, p, ""), done, hit);
		LLVMPositionBuilderAtEnd(cg->b, hit);
		apply(cg, g, p, x, incr);
		LLVMBuildBr(cg->b, done);
		LLVMPositionBuilderAtEnd(cg->b, done);
		return;
	}
	LLVMBasicBlockRef hit = cg_block(cg, "agg.hit"), miss = cg_block(cg, "agg.miss");
	LLVMBasicBlockRef full = cg_block(cg, "agg.full"), done = cg_block(cg, "agg.done");
	LLVMBasicBlockRef entry_blk = LLVMGetInsertBlock(cg->b);
	LLVMBuildCondBr(cg->b, LLVMBuildIsNull(cg->b, p, ""), miss, hit);
	LLVMPositionBuilderAtEnd(cg->b, miss);
	if (small_fold(g)) {
		/* the new key's first value, folded on the stack and inserted
		 * whether or not another CPU inserted the key meanwhile: an
		 * update from a program writes this CPU's value only, zero until
		 * then; it fails only when the map is full */
		LLVMValueRef first = cg_zero_value(cg, cg_agg_value_size(g));
		apply(cg, g, first, x, incr);
		LLVMValueRef rc = cg_bpf_map_update(cg, map, key, first, BPF_ANY);
		LLVMBuildCondBr(cg->b, LLVMBuildIsNull(cg->b, rc, ""), done, full);
		LLVMPositionBuilderAtEnd(cg->b, full);
		cg_count_drop(cg, DCC_DROP_AGG);
		LLVMBuildBr(cg->b, done);
		LLVMPositionBuilderAtEnd(cg->b, hit);
		apply(cg, g, p, x, incr);
		LLVMBuildBr(cg->b, done);
		LLVMPositionBuilderAtEnd(cg->b, done);
		return;
	}
	LLVMValueRef zero = cg_zero_value(cg, cg_agg_value_size(g));
	cg_bpf_map_update(cg, map, key, zero, BPF_NOEXIST);
	LLVMValueRef p2 = cg_bpf_map_lookup(cg, map, key);
	LLVMBasicBlockRef miss_end = LLVMGetInsertBlock(cg->b);
	LLVMBuildCondBr(cg->b, LLVMBuildIsNull(cg->b, p2, ""), full, hit);
	LLVMPositionBuilderAtEnd(cg->b, full);
	cg_count_drop(cg, DCC_DROP_AGG);
	LLVMBuildBr(cg->b, done);
	LLVMPositionBuilderAtEnd(cg->b, hit);
	LLVMValueRef vp = LLVMBuildPhi(cg->b, cg->ptr, "aggval");
	LLVMValueRef vals[2] = { p, p2 };
	LLVMBasicBlockRef blocks[2] = { entry_blk, miss_end };
	LLVMAddIncoming(vp, vals, blocks, 2);
	apply(cg, g, vp, x, incr);
	LLVMBuildBr(cg->b, done);
	LLVMPositionBuilderAtEnd(cg->b, done);
}
