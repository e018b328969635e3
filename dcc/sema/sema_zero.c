/*
 * The constant 0 where a value that is no integer goes.
 *
 * D's NULL string: a string may be compared with, assigned, and passed as
 * the integer constant 0 (NULL is one): the 0 becomes a string that is no
 * string at all, different from "" and ordered before every string. Where
 * a string meets any other integer, the type error stays. The 0 is wrapped
 * in a cast to string that sema made (its `a` is empty); codegen reads that
 * cast as the NULL string (cg_strnull.c).
 *
 * A struct or union thread-local or associative array element given 0 is
 * deleted, as a scalar one is.
 */
#include "arena.h"
#include "sema_internal.h"

bool sema_null_string(struct sema *s, struct node *n)
{
	int64_t v;
	if (!n->type || (!type_is_int(n->type) && n->type->kind != T_PTR) ||
	    !sema_const_try(n, &v) || v)
		return false;
	struct node *zero = arena_new(s->ar, struct node);
	*zero = *n;
	zero->next = NULL;
	n->kind = N_CAST;
	n->a = NULL;
	n->b = zero;
	n->c = n->d = n->list = NULL;
	n->sym = NULL;
	n->type = &type_string;
	return true;
}

/* A comparison of a string with 0: the 0 is the NULL string. */
void sema_null_compare(struct sema *s, struct node *n)
{
	if (n->a->type->kind == T_STRING)
		sema_null_string(s, n->b);
	else if (n->b->type->kind == T_STRING)
		sema_null_string(s, n->a);
}

/* lv = val, lv a struct or union of type vt: whether it is a thread-local
 * or an associative array element and val the constant 0 that deletes it */
bool sema_zero_deletes(struct node *lv, struct type *vt, struct node *val)
{
	int64_t v;
	return (vt->kind == T_STRUCT || vt->kind == T_UNION) &&
	       (lv->kind == N_SELF || lv->kind == N_INDEX) && type_is_int(val->type) &&
	       sema_const_try(val, &v) && !v;
}
