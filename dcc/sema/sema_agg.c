/*
 * The constant parameters of lquantize() and llquantize(): evaluation,
 * DTrace's constraints, and the number of buckets each aggregation's value
 * holds (the layouts of headers/dcc/abi.h).
 */
#include <stdint.h>

#include <dcc/abi.h>
#include "diag.h"
#include "sema_internal.h"

int sema_const(struct sema *s, struct node *n, int64_t *v)
{
	int64_t a, b;
	switch (n->kind) {
	case N_INT:
		*v = (int64_t)n->ival;
		return 0;
	case N_UNOP:
		if (sema_const(s, n->a, &a))
			return -1;
		if (n->op == '-')
			*v = (int64_t)(0 - (uint64_t)a);
		else if (n->op == '~')
			*v = ~a;
		else if (n->op == '+')
			*v = a;
		else
			break;
		return 0;
	case N_CAST:
		return sema_const(s, n->b, v);
	case N_BINOP:
		if (sema_const(s, n->a, &a) || sema_const(s, n->b, &b))
			return -1;
		switch (n->op) {
		case '+': *v = (int64_t)((uint64_t)a + (uint64_t)b); return 0;
		case '-': *v = (int64_t)((uint64_t)a - (uint64_t)b); return 0;
		case '*': *v = (int64_t)((uint64_t)a * (uint64_t)b); return 0;
		case '/': if (!b) break; *v = a / b; return 0;
		case OP_SHL: *v = (int64_t)((uint64_t)a << (b & 63)); return 0;
		}
		break;
	default:
		break;
	}
	return diag_error(s->dg, n->loc, "this must be an integer constant");
}

/* factor^e, or 0 when it overflows 64 bits */
static uint64_t ipow(uint64_t factor, int64_t e)
{
	uint64_t r = 1;
	for (int64_t i = 0; i < e; i++) {
		if (r > UINT64_MAX / factor)
			return 0;
		r *= factor;
	}
	return r;
}

uint32_t sema_llquantize_n(const int64_t p[4])
{
	uint64_t n = 1;
	for (int64_t m = p[1]; m <= p[2]; m++) {
		uint64_t t = ipow((uint64_t)p[0], m + 1);
		uint64_t b = t < (uint64_t)p[3] ? t : (uint64_t)p[3];
		n += b - b / (uint64_t)p[0];
	}
	return (uint32_t)n;
}

static int check_lquantize(struct sema *s, struct node *call, int64_t p[4])
{
	if (p[2] <= 0)
		return diag_error(s->dg, call->loc, "lquantize() step must be greater than zero");
	if (p[2] > 65535)
		return diag_error(s->dg, call->loc, "lquantize() step must be at most 65535");
	if (p[0] >= p[1])
		return diag_error(s->dg, call->loc, "lquantize() upper bound must be greater than "
				  "the lower bound");
	if (p[0] < INT32_MIN || p[1] > INT32_MAX)
		return diag_error(s->dg, call->loc, "lquantize() bounds must fit in 32 bits");
	if ((p[1] - p[0]) / p[2] > 65535)
		return diag_error(s->dg, call->loc, "lquantize() has more than 65535 levels");
	p[3] = 0;
	return 0;
}

static int check_llquantize(struct sema *s, struct node *call, int64_t p[4])
{
	int64_t f = p[0], lmag = p[1], hmag = p[2], steps = p[3];
	if (f < 2 || f > 65535)
		return diag_error(s->dg, call->loc, "llquantize() factor must be between 2 and "
				  "65535");
	if (lmag < 0 || lmag > 65535 || hmag > 65535)
		return diag_error(s->dg, call->loc, "llquantize() magnitudes must be between 0 and "
				  "65535");
	if (lmag > hmag)
		return diag_error(s->dg, call->loc, "llquantize() low magnitude must not exceed "
				  "the high magnitude");
	if (!ipow((uint64_t)f, hmag + 1))
		return diag_error(s->dg, call->loc, "llquantize() factor ^ (high magnitude + 1) "
				  "does not fit in 64 bits");
	if (steps <= 0 || steps > 65535)
		return diag_error(s->dg, call->loc, "llquantize() steps must be between 1 and "
				  "65535");
	if (steps < f ? f % steps : steps % f)
		return diag_error(s->dg, call->loc, "llquantize() steps must divide or be a "
				  "multiple of the factor");
	if (sema_llquantize_n(p) > 65536)
		return diag_error(s->dg, call->loc, "llquantize() has too many buckets");
	return 0;
}

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
	return func == DCC_AGG_LQUANTIZE ? check_lquantize(s, call, p)
					 : check_llquantize(s, call, p);
}

uint32_t sema_agg_value_size(const struct agg *g)
{
	switch (g->func) {
	case DCC_AGG_COUNT:
	case DCC_AGG_SUM:
		return 8;
	case DCC_AGG_AVG:
	case DCC_AGG_MIN:
	case DCC_AGG_MAX:
		return 16;
	case DCC_AGG_STDDEV:
		return 32;
	case DCC_AGG_QUANTIZE:
		return 127 * 8;
	case DCC_AGG_LQUANTIZE:
		return (uint32_t)(((g->param[1] - g->param[0]) / g->param[2] + 2) * 8);
	case DCC_AGG_LLQUANTIZE:
		return (2 * sema_llquantize_n(g->param) + 1) * 8;
	}
	return 8;
}
