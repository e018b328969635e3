/*
 * The constant parameters of lquantize() and llquantize(): evaluation,
 * checked by DTrace's rules (headers/dcc/abi_agg.h, which the runtime
 * checks objects with too).
 */
#include <stdint.h>

#include <dcc/abi.h>
#include <dcc/abi_agg.h>
#include "diag.h"
#include "sema_internal.h"

/* Fold a constant integer expression: NULL, or the node that is not one. */
static struct node *fold(struct node *n, int64_t *v)
{
	int64_t a, b;
	struct node *bad;
	switch (n->kind) {
	case N_INT:
		*v = (int64_t)n->ival;
		return NULL;
	case N_UNOP:
		if ((bad = fold(n->a, &a)))
			return bad;
		if (n->op == '-')
			*v = (int64_t)(0 - (uint64_t)a);
		else if (n->op == '~')
			*v = ~a;
		else if (n->op == '+')
			*v = a;
		else
			break;
		return NULL;
	case N_CAST:
		return fold(n->b, v);
	case N_BINOP:
		if ((bad = fold(n->a, &a)) || (bad = fold(n->b, &b)))
			return bad;
		switch (n->op) {
		case '+': *v = (int64_t)((uint64_t)a + (uint64_t)b); return NULL;
		case '-': *v = (int64_t)((uint64_t)a - (uint64_t)b); return NULL;
		case '*': *v = (int64_t)((uint64_t)a * (uint64_t)b); return NULL;
		case '/': if (!b || (a == INT64_MIN && b == -1)) break; *v = a / b; return NULL;
		case '%': if (!b || (a == INT64_MIN && b == -1)) break; *v = a % b; return NULL;
		case OP_SHL: *v = (int64_t)((uint64_t)a << (b & 63)); return NULL;
		}
		break;
	default:
		break;
	}
	return n;
}

int sema_const(struct sema *s, struct node *n, int64_t *v)
{
	struct node *bad = fold(n, v);
	return bad ? diag_error(s->dg, bad->loc, "this must be an integer constant") : 0;
}

bool sema_const_try(struct node *n, int64_t *v)
{
	return fold(n, v) == NULL;
}

/* What sema says for each rule abi_agg.h's checks find broken. */
static const char *const param_errs[] = {
	[ABI_LQ_STEP] = "lquantize() step must be greater than zero",
	[ABI_LQ_STEP_MAX] = "lquantize() step must be at most 65535",
	[ABI_LQ_ORDER] = "lquantize() upper bound must be greater than the lower bound",
	[ABI_LQ_BOUNDS] = "lquantize() bounds must fit in 32 bits",
	[ABI_LQ_LEVELS] = "lquantize() has more than 65535 levels",
	[ABI_LQ_NO_LEVEL] = "lquantize() step is wider than the range from the lower to "
			    "the upper bound: there is no level",
	[ABI_LLQ_FACTOR] = "llquantize() factor must be between 2 and 65535",
	[ABI_LLQ_MAG] = "llquantize() magnitudes must be between 0 and 65535",
	[ABI_LLQ_MAG_ORDER] = "llquantize() low magnitude must not exceed the high magnitude",
	[ABI_LLQ_OVERFLOW] = "llquantize() factor ^ (high magnitude + 1) does not fit in 64 bits",
	[ABI_LLQ_STEPS] = "llquantize() steps must be between 1 and 65535",
	[ABI_LLQ_STEPS_DIVIDE] = "llquantize() steps must divide or be a multiple of the factor",
	[ABI_LLQ_BUCKETS] = "llquantize() has too many buckets",
};

/* Evaluate the constant parameters of a histogram aggregation: p[] gets
 * lquantize's lo, hi, step or llquantize's factor, lmag, hmag, steps. */
int sema_agg_params(struct sema *s, int func, struct node *call, int64_t p[4])
{
	p[0] = p[1] = p[2] = p[3] = 0;
	if (func != DCC_AGG_LQUANTIZE && func != DCC_AGG_LLQUANTIZE)
		return 0;
	int nparams = func == DCC_AGG_LQUANTIZE ? 3 : 4;
	struct node *a = call->list->next;
	for (int i = 0; i < nparams; i++, a = a ? a->next : NULL) {
		if (!a) {
			p[i] = 1; /* lquantize's default step */
			break;
		}
		if (sema_const(s, a, &p[i]))
			return -1;
	}
	enum abi_agg_err e = func == DCC_AGG_LQUANTIZE ? abi_lquantize_check(p)
						       : abi_llquantize_check(p);
	return e ? diag_error(s->dg, call->loc, "%s", param_errs[e]) : 0;
}
