/*
 * Aggregation updates: @name[keys] = f(x) becomes a lookup in the
 * aggregation's per-CPU hash map and an in-place update of this CPU's value
 * (no atomics needed), with an insert only on a miss. Layouts: abi.h.
 */
#include <dcc/abi.h>
#include "cg.h"

enum { H_LOOKUP = 1, H_UPDATE = 2 };
#define BPF_NOEXIST 1

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

/* Fold x into this CPU's existing value at p. */
static void apply(struct cg *cg, struct agg *g, LLVMValueRef p, LLVMValueRef x)
{
	switch (g->func) {
	case DCC_AGG_COUNT:
		st(cg, p, 0, LLVMBuildAdd(cg->b, ld(cg, p, 0), cg_i64(cg, 1), ""));
		break;
	case DCC_AGG_SUM:
		st(cg, p, 0, LLVMBuildAdd(cg->b, ld(cg, p, 0), x, ""));
		break;
	case DCC_AGG_AVG:
		st(cg, p, 0, LLVMBuildAdd(cg->b, ld(cg, p, 0), cg_i64(cg, 1), ""));
		st(cg, p, 1, LLVMBuildAdd(cg->b, ld(cg, p, 1), x, ""));
		break;
	case DCC_AGG_MIN:
	case DCC_AGG_MAX: {
		/* value, n: a slot with n == 0 has no value yet */
		LLVMValueRef cur = ld(cg, p, 0), n = ld(cg, p, 1);
		LLVMValueRef better = LLVMBuildICmp(cg->b, g->func == DCC_AGG_MIN ? LLVMIntSLT
						    : LLVMIntSGT, x, cur, "");
		LLVMValueRef take = LLVMBuildOr(cg->b, better,
			LLVMBuildICmp(cg->b, LLVMIntEQ, n, cg_i64(cg, 0), ""), "");
		st(cg, p, 0, LLVMBuildSelect(cg->b, take, x, cur, ""));
		st(cg, p, 1, LLVMBuildAdd(cg->b, n, cg_i64(cg, 1), ""));
		break;
	}
	}
}

static void initial(struct cg *cg, struct agg *g, LLVMValueRef p, LLVMValueRef x)
{
	switch (g->func) {
	case DCC_AGG_COUNT:
		st(cg, p, 0, cg_i64(cg, 1));
		break;
	case DCC_AGG_SUM:
		st(cg, p, 0, x);
		break;
	case DCC_AGG_AVG:
		st(cg, p, 0, cg_i64(cg, 1));
		st(cg, p, 1, x);
		break;
	case DCC_AGG_MIN:
	case DCC_AGG_MAX:
		st(cg, p, 0, x);
		st(cg, p, 1, cg_i64(cg, 1));
		break;
	}
}

static LLVMValueRef lookup(struct cg *cg, LLVMValueRef map, LLVMValueRef key)
{
	LLVMTypeRef pt[2] = { cg->ptr, cg->ptr };
	LLVMValueRef args[2] = { map, key };
	return cg_helper(cg, H_LOOKUP, cg->ptr, pt, 2, args);
}

void cg_agg_update(struct cg *cg, struct node *assign)
{
	struct node *lv = assign->a, *call = assign->b;
	struct agg *g = lv->sym;
	LLVMValueRef map = cg_map_ref(cg, cg->agg_map[g->id]);

	/* the key: 8-byte integer slots and strsize NUL-padded strings */
	unsigned ks = 0;
	bool strkey = false;
	for (int i = 0; i < g->nkeys; i++) {
		strkey |= g->keys[i]->kind == T_STRING;
		ks += g->keys[i]->kind == T_STRING ? cg->strsize : 8;
	}
	LLVMValueRef key;
	if (!g->nkeys) {
		key = cg_alloca(cg, cg->i32, "aggkey");
		LLVMBuildStore(cg->b, cg_i32(cg, 0), key);
	} else if (strkey) {
		key = cg_scratch(cg, cg_scratch_alloc(cg, ks));
	} else {
		key = cg_alloca(cg, LLVMArrayType2(cg->i64, ks / 8), "aggkey");
	}
	unsigned off = 0;
	int i = 0;
	for (struct node *k = lv->list; k; k = k->next, i++) {
		struct cval v = cg_expr(cg, k);
		LLVMValueRef o = cg_i64(cg, off);
		LLVMValueRef dst = LLVMBuildGEP2(cg->b, cg->i8, key, &o, 1, "");
		if (g->keys[i]->kind == T_STRING) {
			cg_strcopy(cg, dst, cg->strsize, v);
			off += cg->strsize;
		} else {
			LLVMBuildStore(cg->b, cg_norm(cg, v.v, g->keys[i]), dst);
			off += 8;
		}
	}
	LLVMValueRef x = call->list ? cg_expr(cg, call->list).v : cg_i64(cg, 0);

	LLVMValueRef p = lookup(cg, map, key);
	LLVMBasicBlockRef hit = cg_block(cg, "agg.hit"), miss = cg_block(cg, "agg.miss");
	LLVMBasicBlockRef retry = cg_block(cg, "agg.retry"), hit2 = cg_block(cg, "agg.hit2");
	LLVMBasicBlockRef full = cg_block(cg, "agg.full"), done = cg_block(cg, "agg.done");
	LLVMBuildCondBr(cg->b, LLVMBuildIsNull(cg->b, p, ""), miss, hit);
	LLVMPositionBuilderAtEnd(cg->b, hit);
	apply(cg, g, p, x);
	LLVMBuildBr(cg->b, done);

	LLVMPositionBuilderAtEnd(cg->b, miss);
	LLVMValueRef init = cg_alloca(cg, LLVMArrayType2(cg->i64, 2), "agginit");
	initial(cg, g, init, x);
	LLVMTypeRef ut[4] = { cg->ptr, cg->ptr, cg->ptr, cg->i64 };
	LLVMValueRef uargs[4] = { map, key, init, cg_i64(cg, BPF_NOEXIST) };
	LLVMValueRef r = cg_helper(cg, H_UPDATE, cg->i64, ut, 4, uargs);
	LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntEQ, r, cg_i64(cg, 0), ""), done, retry);

	/* another CPU inserted the key first, or the map is full */
	LLVMPositionBuilderAtEnd(cg->b, retry);
	LLVMValueRef p2 = lookup(cg, map, key);
	LLVMBuildCondBr(cg->b, LLVMBuildIsNull(cg->b, p2, ""), full, hit2);
	LLVMPositionBuilderAtEnd(cg->b, hit2);
	apply(cg, g, p2, x);
	LLVMBuildBr(cg->b, done);
	LLVMPositionBuilderAtEnd(cg->b, full);
	cg_count_drop(cg, DCC_DROP_AGG);
	LLVMBuildBr(cg->b, done);
	LLVMPositionBuilderAtEnd(cg->b, done);
}
