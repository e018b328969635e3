/*
 * D's NULL string (sema_zero.c). A string is a pointer to a NUL-padded
 * buffer, never a null pointer; the NULL string is a buffer whose first
 * byte is the NUL and whose second is 0x7f. No string dcc makes looks like
 * that (after its NUL a buffer is all zeros), copies of a string keep it,
 * and whatever prints a string sees "". Comparisons tell it apart: it
 * equals only itself and sorts before every string, "" included. A string
 * subroutine given it faults with an invalid address (0), as DTrace does
 * for its NULL pointer.
 */
#include "cg.h"

#include <dcc/abi.h>

enum { NULL_MARK = 0x7f };

struct cval cg_str_null(struct cg *cg)
{
	static const char mark[2] = { 0, NULL_MARK };
	unsigned cap;
	LLVMValueRef g = cg_strlit(cg, mark, sizeof(mark), &cap);
	return (struct cval){ .v = g, .t = &type_string, .cap = cap };
}

/* i1: the buffer at p holds the NULL string (its first two bytes) */
LLVMValueRef cg_str_isnull(struct cg *cg, LLVMValueRef p)
{
	LLVMTypeRef i16 = LLVMInt16TypeInContext(cg->C);
	LLVMValueRef w = LLVMBuildLoad2(cg->b, i16, p, "");
	return LLVMBuildICmp(cg->b, LLVMIntEQ, w, LLVMConstInt(i16, NULL_MARK << 8, 0), "");
}

/* The zeroed buffer d becomes the NULL string. */
void cg_str_set_null(struct cg *cg, LLVMValueRef d)
{
	LLVMValueRef one = cg_i64(cg, 1);
	LLVMBuildStore(cg->b, LLVMConstInt(cg->i8, NULL_MARK, 0),
		       LLVMBuildGEP2(cg->b, cg->i8, d, &one, 1, ""));
}

/* The zeroed result buffer d becomes the NULL string unless found. */
void cg_str_null_unless(struct cg *cg, LLVMValueRef d, LLVMValueRef found)
{
	LLVMBasicBlockRef miss = cg_block(cg, "strnull"), join = cg_block(cg, "strnull.join");
	LLVMBuildCondBr(cg->b, found, join, miss);
	LLVMPositionBuilderAtEnd(cg->b, miss);
	LLVMValueRef one = cg_i64(cg, 1);
	LLVMBuildStore(cg->b, LLVMConstInt(cg->i8, NULL_MARK, 0),
		       LLVMBuildGEP2(cg->b, cg->i8, d, &one, 1, ""));
	LLVMBuildBr(cg->b, join);
	LLVMPositionBuilderAtEnd(cg->b, join);
}

/* Whether the string expression n can be the NULL string when it runs:
 * literals, builtin variables and most results cannot. */
bool cg_str_maybe_null(const struct node *n)
{
	switch (n->kind) {
	case N_CAST:
		return n->b->type->kind != T_STRING || cg_str_maybe_null(n->b);
	case N_IDENT:
	case N_INDEX:
		return n->sym != NULL;
	case N_SELF:
	case N_THIS:
		return true;
	case N_STRINGOF: /* of a string that may be NULL, or of address 0 */
		return n->a->type->kind == T_STRING ? cg_str_maybe_null(n->a)
						    : type_is_scalar(n->a->type);
	case N_COND:
		return cg_str_maybe_null(n->b) || cg_str_maybe_null(n->c);
	case N_COMMA:
	case N_ASSIGN:
		return cg_str_maybe_null(n->b);
	case N_CALL:
		return n->bi && (n->bi->id == BI_STRCHR || n->bi->id == BI_STRRCHR ||
				 n->bi->id == BI_STRSTR || n->bi->id == BI_STRTOK);
	default:
		return false;
	}
}

/* A string subroutine's argument n, of value v: the NULL string faults. */
void cg_str_notnull(struct cg *cg, const struct node *n, struct cval v)
{
	if (cg_str_maybe_null(n))
		cg_fault_if(cg, cg_str_isnull(cg, v.v), DCC_FAULT_BADADDR, cg_i64(cg, 0));
}

/* c, strcmp's -1, 0 or 1 for a and b, with the NULL string first */
LLVMValueRef cg_str_null_order(struct cg *cg, struct cval a, struct cval b, LLVMValueRef c)
{
	LLVMValueRef na = cg_str_isnull(cg, a.v), nb = cg_str_isnull(cg, b.v);
	LLVMValueRef nbv = LLVMBuildSelect(cg->b, nb, cg_i64(cg, 1), c, "");
	LLVMValueRef nav = LLVMBuildSelect(cg->b, nb, cg_i64(cg, 0), cg_i64(cg, (uint64_t)-1), "");
	return LLVMBuildSelect(cg->b, na, nav, nbv, "");
}
