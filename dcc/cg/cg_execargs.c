/*
 * execargs: the process's arguments as DTrace shows them, one string with
 * a space between arguments. The kernel keeps them as NUL-terminated
 * strings, one after the other, in the process's memory from
 * mm->arg_start to arg_end (sema passes both addresses): the bytes are
 * copied (at most strsize - 1 of them), then, a word at a time, every NUL
 * before the last argument's own NUL becomes a space and every byte from
 * it on a NUL (all the bytes copied stay when the arguments were cut).
 */
#include "cg_string.h"

struct cval cg_execargs(struct cg *cg, struct node *n)
{
	unsigned cap = cg->strsize, words = (cap + 7) / 8;
	LLVMValueRef start = cg_expr(cg, n->list).v, end = cg_expr(cg, n->list->next).v;
	LLVMValueRef d = str_scratch(cg, words * 8);
	cg_memop(cg, "llvm.memset", d, NULL, words * 8);
	unsigned max = (cg->strmax && cg->strmax < cap ? cg->strmax : cap) - 1; /* and a NUL */
	LLVMValueRef len = LLVMBuildSub(cg->b, end, start, "");
	/* a length past the limit (or negative, read unsigned) is cut to it,
	 * and then the last byte is an argument's, not the closing NUL */
	LLVMValueRef cut = LLVMBuildICmp(cg->b, LLVMIntUGT, len, str_k64(cg, max), "");
	len = str_sel(cg, cut, str_k64(cg, max), len);
	LLVMValueRef last = str_sel(cg, cut, len, LLVMBuildSub(cg->b, len, str_k64(cg, 1), ""));
	LLVMValueRef size = LLVMBuildTrunc(cg->b, str_bounded(cg, len, max), cg->i32, "");
	LLVMValueRef rc = cg_bpf_probe_read_user(cg, d, size,
						 LLVMBuildIntToPtr(cg->b, start, cg->ptr, ""));
	cg_fault_if(cg, LLVMBuildICmp(cg->b, LLVMIntNE, rc, str_k64(cg, 0), ""), DCC_FAULT_BADADDR,
		    start);
	LLVMValueRef lo7 = str_k64(cg, 0x7f7f7f7f7f7f7f7full), hi = str_k64(cg, 0x8080808080808080ull);
	struct str_loop l;
	LLVMValueRef w = str_loop_begin(cg, &l, words);
	LLVMValueRef off = LLVMBuildMul(cg->b, w, str_k64(cg, 8), "");
	LLVMValueRef x = LLVMBuildLoad2(cg->b, cg->i64, str_at(cg, d, off), "");
	/* 0x80 in each byte that is 0: its low bits plus 0x7f, or the byte, carry
	 * into the high bit of every other byte */
	LLVMValueRef nz = LLVMBuildOr(cg->b, LLVMBuildAdd(cg->b, str_and1(cg, x, lo7), lo7, ""), x,
				      "");
	LLVMValueRef zero = str_and1(cg, LLVMBuildNot(cg->b, nz, ""), hi);
	x = LLVMBuildOr(cg->b, x, LLVMBuildLShr(cg->b, zero, str_k64(cg, 2), ""), ""); /* ' ' */
	/* keep the bytes before the last NUL, as a signed count */
	LLVMValueRef keep = LLVMBuildSub(cg->b, last, off, "");
	LLVMValueRef none = LLVMBuildICmp(cg->b, LLVMIntSLE, keep, str_k64(cg, 0), "");
	LLVMValueRef all = LLVMBuildICmp(cg->b, LLVMIntSGE, keep, str_k64(cg, 8), "");
	LLVMValueRef bits = LLVMBuildMul(cg->b, str_and1(cg, keep, str_k64(cg, 7)), str_k64(cg, 8),
					 "");
	LLVMValueRef part = LLVMBuildSub(cg->b, LLVMBuildShl(cg->b, str_k64(cg, 1), bits, ""),
					 str_k64(cg, 1), "");
	LLVMValueRef mask = str_sel(cg, none, str_k64(cg, 0),
				    str_sel(cg, all, str_k64(cg, ~0ull), part));
	LLVMBuildStore(cg->b, str_and1(cg, x, mask), str_at(cg, d, off));
	str_loop_end(cg, &l);
	return (struct cval){ .v = d, .t = &type_string, .cap = cap };
}
