/*
 * Stores through a pointer (*p = v, p->m = v, p[i] = v), which go into
 * alloca() memory or a global array or struct only: the address must lie,
 * with the stored bytes, in the scratch the clause has allocated so far or
 * in one of those globals, or the store is DTrace's invalid address fault. The check also serves bcopy()
 * and copyinto() (cg_subr.c). Also the stores into a struct or array
 * variable's own storage (v.m = x, a[i] = x).
 */
#include <dcc/abi.h>
#include "cg.h"
#include "cg_bpf.h"
#include "diag.h"

/* An integer as the verifier sees a number, not a pointer: copied through
 * probe_read_kernel. Scratch addresses are pointers to the verifier, and a
 * number minus a pointer is refused. */
LLVMValueRef cg_launder(struct cg *cg, LLVMValueRef v)
{
	if (!cg->p->launder) /* one slot, or a script of many stores runs out of stack */
		cg->p->launder = cg_alloca(cg, cg->i64, "launder");
	LLVMBuildStore(cg->b, v, cg->p->launder);
	return cg_kread(cg, cg->p->launder, &type_ulong);
}

/* v through an empty inline asm: neither LLVM's optimizer nor the BPF
 * back end's combiner can see through it, so a check the verifier needs is
 * not proved redundant and a computation is not rewritten into another
 * shape (cg_agg.c's bucket clamps, string equality in cg_expr.c). */
LLVMValueRef cg_opaque(struct cg *cg, LLVMValueRef v)
{
	LLVMTypeRef fty = LLVMFunctionType(cg->i64, &cg->i64, 1, 0);
	LLVMValueRef asm_ = LLVMGetInlineAsm(fty, "", 0, "=r,0", 4, 1, 0,
					     LLVMInlineAsmDialectATT, 0);
	return LLVMBuildCall2(cg->b, fty, asm_, &v, 1, "");
}

static unsigned alloca_walk(struct node *n)
{
	unsigned room = 0;
	for (; n; n = n->next) {
		struct node *kids[5] = { n->a, n->b, n->c, n->d, n->list };
		for (int i = 0; i < 5; i++)
			room += alloca_walk(kids[i]);
		if (n->kind == N_CALL && n->bi && n->bi->id == BI_ALLOCA)
			room += (unsigned)(n->ival + 7) & ~7u;
		else if (n->kind == N_CALL && n->bi && n->bi->id == BI_COPYIN)
			room += (unsigned)(n->ival + 1 + 7) & ~7u; /* a NUL after the copy */
	}
	return room;
}

/* Allocated memory comes before the clause's temporaries, in one span, so
 * that a store or a string read past what was allocated never reaches a
 * temporary (a string held for a later argument, say). */
unsigned cg_alloca_room(struct node *clause)
{
	return alloca_walk(clause->a) + alloca_walk(clause->b);
}

unsigned cg_alloca_alloc(struct cg *cg, struct node *call, unsigned size)
{
	unsigned off = cg->this_size + cg->p->alloca_top;
	cg->p->alloca_top += (size + 7) & ~7u;
	if (cg->p->alloca_top > cg->p->alloca_room)
		diag_bug(cg->dg, call->loc, "%s() goes past the %u bytes counted for the clause",
			 call->name, cg->p->alloca_room);
	return off;
}

LLVMValueRef cg_alloca_str_max(struct cg *cg, LLVMValueRef src, uint32_t max)
{
	unsigned lo = cg->this_size, top = cg->p->alloca_top;
	if (!top)
		return cg_i32(cg, max);
	LLVMValueRef base = LLVMBuildPtrToInt(cg->b, cg_scratch(cg, 0), cg->i64, "");
	LLVMValueRef at = LLVMBuildPtrToInt(cg->b, src, cg->i64, "");
	LLVMValueRef off = LLVMBuildSub(cg->b, cg_launder(cg, at),
					LLVMBuildAdd(cg->b, cg_launder(cg, base), cg_i64(cg, lo), ""),
					"");
	/* the bytes left from src to the end, and one for the NUL the helper adds */
	LLVMValueRef left = LLVMBuildSub(cg->b, cg_i64(cg, top + 1), off, "");
	LLVMValueRef in = LLVMBuildICmp(cg->b, LLVMIntULT, off, cg_i64(cg, top), "");
	LLVMValueRef n = cg_launder(cg, LLVMBuildSelect(cg->b, in, left, cg_i64(cg, max), ""));
	/* bounded where the verifier sees it */
	LLVMValueRef big = LLVMBuildICmp(cg->b, LLVMIntUGT, n, cg_i64(cg, max), "");
	n = LLVMBuildSelect(cg->b, big, cg_i64(cg, max), n, "");
	return LLVMBuildTrunc(cg->b, n, cg->i32, "");
}

LLVMValueRef cg_scratch_check(struct cg *cg, LLVMValueRef addr, unsigned size, uint32_t fault)
{
	LLVMValueRef detail = fault == DCC_FAULT_BADSIZE ? cg_i64(cg, size) : addr;
	unsigned lo = cg->this_size, hi = cg->this_size + cg->p->alloca_top;
	LLVMValueRef base = cg_scratch(cg, 0);
	if (hi - lo < size) {
		/* nothing allocated yet that could hold it: always a fault */
		cg_fault_if(cg, LLVMConstInt(LLVMInt1TypeInContext(cg->C), 1, 0),
			    fault, detail);
		return base;
	}
	LLVMValueRef start = cg_launder(cg, LLVMBuildPtrToInt(cg->b, base, cg->i64, ""));
	LLVMValueRef off = LLVMBuildSub(cg->b, cg_launder(cg, addr),
					LLVMBuildAdd(cg->b, start, cg_i64(cg, lo), ""), "");
	cg_fault_if(cg, LLVMBuildICmp(cg->b, LLVMIntUGT, off, cg_i64(cg, hi - lo - size), ""),
		    fault, detail);
	LLVMValueRef at = LLVMBuildAdd(cg->b, off, cg_i64(cg, lo), "");
	return LLVMBuildGEP2(cg->b, cg->i8, base, &at, 1, "");
}

/* A D global that a pointer may designate: an array, struct or union
 * declared at the top (int a[5]; p = &a[0]; p[1] = 3), whose storage is
 * its own .bss variable (a map value to the verifier). Scalars are not
 * among them: D takes no variable's address. */
static bool pointee_global(const struct var *v, unsigned size)
{
	enum type_kind k = v->type->kind;
	return v->kind == V_GLOBAL && !v->nkeys && v->type->size >= size &&
	       (k == T_ARRAY || k == T_STRUCT || k == T_UNION);
}

/* Where a store through a pointer (or its compound read) goes: the global
 * array or struct that holds the address with its size bytes, or else the
 * clause's alloca() memory, or else the fault. Each global is one range
 * check on the address made a plain number (cg_launder), so the verifier
 * sees a bounded offset into that global's map value. */
LLVMValueRef cg_store_check(struct cg *cg, LLVMValueRef addr, unsigned size)
{
	LLVMValueRef hits[65];
	LLVMBasicBlockRef from[65];
	unsigned n = 0;
	LLVMBasicBlockRef done = NULL;
	LLVMValueRef at = NULL;
	for (int i = 0; i < cg->s->nvars && n < 64; i++) {
		struct var *v = cg->s->vars[i];
		if (!pointee_global(v, size))
			continue;
		if (!done) {
			done = cg_block(cg, "store.at");
			at = cg_launder(cg, addr);
		}
		LLVMValueRef g = cg->gvar[v->id];
		LLVMValueRef base = cg_launder(cg, LLVMBuildPtrToInt(cg->b, g, cg->i64, ""));
		LLVMValueRef off = LLVMBuildSub(cg->b, at, base, "");
		LLVMBasicBlockRef hit = cg_block(cg, "store.global"), next = cg_block(cg, "store.next");
		LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntULE, off,
						     cg_i64(cg, v->type->size - size), ""),
				hit, next);
		LLVMPositionBuilderAtEnd(cg->b, hit);
		hits[n] = LLVMBuildGEP2(cg->b, cg->i8, g, &off, 1, "");
		from[n++] = hit;
		LLVMBuildBr(cg->b, done);
		LLVMPositionBuilderAtEnd(cg->b, next);
	}
	LLVMValueRef p = cg_scratch_check(cg, addr, size, DCC_FAULT_BADADDR);
	if (!done)
		return p;
	hits[n] = p;
	from[n++] = LLVMGetInsertBlock(cg->b);
	LLVMBuildBr(cg->b, done);
	LLVMPositionBuilderAtEnd(cg->b, done);
	LLVMValueRef phi = LLVMBuildPhi(cg->b, cg->ptr, "store.p");
	LLVMAddIncoming(phi, hits, from, n);
	return phi;
}

/* The same with a byte count known at run time (bcopy(), copyinto()): one
 * larger than all the clause allocated is an invalid size, then the bytes
 * from addr on must lie in it. The verifier bounds the offset and the count
 * each by that room, not their sum, so the scratch map's value is made
 * long enough for twice the room. *sizep becomes the checked count, the
 * one the copy must use for the verifier to know its bound. */
LLVMValueRef cg_scratch_check_n(struct cg *cg, LLVMValueRef addr, LLVMValueRef *sizep,
				uint32_t fault)
{
	unsigned lo = cg->this_size, room = cg->p->alloca_top;
	LLVMValueRef base = cg_scratch(cg, 0);
	LLVMValueRef size = *sizep = cg_launder(cg, *sizep);
	cg_fault_if(cg, LLVMBuildICmp(cg->b, LLVMIntUGT, size, cg_i64(cg, room), ""),
		    DCC_FAULT_BADSIZE, size);
	LLVMValueRef detail = fault == DCC_FAULT_BADSIZE ? size : addr;
	LLVMValueRef start = cg_launder(cg, LLVMBuildPtrToInt(cg->b, base, cg->i64, ""));
	LLVMValueRef off = LLVMBuildSub(cg->b, cg_launder(cg, addr),
					LLVMBuildAdd(cg->b, start, cg_i64(cg, lo), ""), "");
	cg_fault_if(cg, LLVMBuildICmp(cg->b, LLVMIntUGT, off, cg_i64(cg, room), ""), fault, detail);
	cg_fault_if(cg, LLVMBuildICmp(cg->b, LLVMIntUGT, LLVMBuildAdd(cg->b, off, size, ""),
				      cg_i64(cg, room), ""), fault, detail);
	if (cg->p->scratch_max < 2 * room)
		cg->p->scratch_max = 2 * room;
	LLVMValueRef at = LLVMBuildAdd(cg->b, off, cg_i64(cg, lo), "");
	return LLVMBuildGEP2(cg->b, cg->i8, base, &at, 1, "");
}

/* a, self->a, this->a declared as an array: its elements are its own
 * storage. (A member's node carries its struct member in sym, so p->m[i]
 * is not one, and is stored through the pointer.) */
static bool is_array_var(struct node *a)
{
	return a && (a->kind == N_IDENT || a->kind == N_SELF || a->kind == N_THIS) &&
	       a->sym && a->type && a->type->kind == T_ARRAY;
}

/* v.m of a struct variable is stored in the variable; anything else that
 * sema let through as a member, element or dereference is a pointer's */
bool cg_is_pointer_store(struct node *lv)
{
	if (lv->kind == N_UNOP)
		return lv->op == '*';
	if (lv->kind == N_INDEX) /* an array variable's element is stored in place */
		return !lv->sym && lv->id != B_ARGS && lv->id != B_UREGS && !is_array_var(lv->a);
	if (lv->kind != N_MEMBER)
		return false;
	while (lv->kind == N_MEMBER && lv->op == '.')
		lv = lv->a;
	if (lv->kind == N_IDENT || lv->kind == N_SELF || lv->kind == N_THIS)
		return false;
	/* a[i].m of an array of structs variable is in its storage too */
	return !(lv->kind == N_INDEX && (lv->sym || is_array_var(lv->a)));
}

struct cval cg_store(struct cg *cg, struct node *n)
{
	struct type *t = n->a->type;
	LLVMTypeRef it = LLVMIntTypeInContext(cg->C, t->size * 8);
	LLVMValueRef addr = LLVMBuildPtrToInt(cg->b, cg_addr(cg, n->a), cg->i64, "");
	struct type *at = type_arith(t, n->b->type);
	if (n->op == OP_SHL || n->op == OP_SHR)
		at = type_promote(t);
	LLVMValueRef cur = NULL;
	if (n->op != '=') { /* the old value is read before the right side runs */
		LLVMValueRef p = cg_store_check(cg, addr, t->size);
		LLVMValueRef ld = LLVMBuildLoad2(cg->b, it, p, "");
		LLVMSetAlignment(ld, 1);
		if (t->size < 8)
			ld = t->is_signed ? LLVMBuildSExt(cg->b, ld, cg->i64, "")
					  : LLVMBuildZExt(cg->b, ld, cg->i64, "");
		cur = cg_norm(cg, ld, at);
	}
	struct cval val = cg_expr(cg, n->b);
	LLVMValueRef p = cg_store_check(cg, addr, t->size);
	LLVMValueRef v = val.v;
	if (n->op != '=') {
		LLVMValueRef y = (n->op == OP_SHL || n->op == OP_SHR) ? v : cg_norm(cg, v, at);
		v = cg_arith(cg, n, n->op, cur, y, at);
	}
	v = cg_norm(cg, v, t);
	LLVMValueRef st = LLVMBuildStore(cg->b, t->size < 8 ? LLVMBuildTrunc(cg->b, v, it, "") : v,
					 p);
	LLVMSetAlignment(st, 1);
	return (struct cval){ .v = v, .t = t };
}

/* A scalar that lies in alloca() memory: read in place once its address
 * is checked, so a read outside what the clause allocated faults as
 * DTrace's does instead of reading whatever is there. */
struct cval cg_scratch_load(struct cg *cg, struct node *n)
{
	struct type *t = n->type;
	LLVMTypeRef it = LLVMIntTypeInContext(cg->C, t->size * 8);
	LLVMValueRef addr = LLVMBuildPtrToInt(cg->b, cg_addr(cg, n), cg->i64, "");
	LLVMValueRef ld = LLVMBuildLoad2(cg->b, it, cg_scratch_check(cg, addr, t->size, DCC_FAULT_BADADDR), "");
	LLVMSetAlignment(ld, 1);
	if (t->size < 8)
		ld = t->is_signed ? LLVMBuildSExt(cg->b, ld, cg->i64, "")
				  : LLVMBuildZExt(cg->b, ld, cg->i64, "");
	return (struct cval){ .v = cg_norm(cg, ld, t), .t = t };
}

static struct cval cval_int(LLVMValueRef v, struct type *t)
{
	return (struct cval){ .v = v, .t = t };
}

/* v.m = x, v.m += x: a member of a struct variable, stored in place */
struct cval cg_store_member(struct cg *cg, struct node *n)
{
	struct node *lv = n->a;
	struct type *t = lv->type;
	bool bits = cg_is_bitfield(lv);
	LLVMValueRef addr = bits ? NULL : cg_addr(cg, lv);
	if (t->kind == T_STRUCT || t->kind == T_UNION) {
		/* a whole struct, from kernel memory or another variable */
		cg_bpf_probe_read_kernel(cg, addr, cg_i32(cg, t->size), cg_addr(cg, n->b));
		return (struct cval){ .v = cg_i64(cg, 0), .t = &type_void };
	}
	struct type *at = n->op != '=' ? type_arith(t, n->b->type) : t;
	LLVMValueRef cur = NULL; /* x.m op= e reads x.m before e runs */
	if (n->op != '=')
		cur = cg_norm(cg, bits ? cg_bitfield(cg, lv).v : cg_kread(cg, addr, t), at);
	struct cval val = cg_expr(cg, n->b);
	if (t->kind == T_STRING) {
		/* a string member: its bytes in place, DTrace's char[strsize]
		 * that keeps strsize characters with no room for the NUL
		 * (kernel_value() adds it when the member is read) */
		unsigned len = val.cap < cg->strmember ? val.cap : cg->strmember;
		cg_memop(cg, "llvm.memcpy", addr, val.v, len);
		if (len < cg->strmember) {
			LLVMValueRef off = cg_i64(cg, len);
			cg_memop(cg, "llvm.memset", LLVMBuildGEP2(cg->b, cg->i8, addr, &off, 1, ""),
				 NULL, cg->strmember - len);
		}
		return val;
	}
	if (type_is_float(t) && t->size > 8) {
		cg_memop(cg, "llvm.memcpy", addr, val.v, t->size);
		return val;
	}
	if (n->op != '=') {
		LLVMValueRef y = (n->op == OP_SHL || n->op == OP_SHR) ? val.v : cg_norm(cg, val.v, at);
		val = cval_int(cg_arith(cg, n, n->op, cur, y, at), at);
	}
	LLVMValueRef v = cg_norm(cg, val.v, t);
	if (bits) {
		cg_bitfield_store(cg, lv, v);
		return cg_bitfield(cg, lv);
	}
	LLVMTypeRef it = LLVMIntTypeInContext(cg->C, t->size * 8);
	LLVMValueRef st = LLVMBuildStore(cg->b, t->size < 8 ? LLVMBuildTrunc(cg->b, v, it, "") : v,
					 addr);
	LLVMSetAlignment(st, 1);
	return cval_int(v, t);
}
