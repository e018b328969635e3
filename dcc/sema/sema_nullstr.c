/*
 * D's NULL string. A string may be compared with, assigned, and passed as
 * the integer constant 0 (NULL is one): the 0 becomes a string that is no
 * string at all, different from "" and ordered before every string. Where
 * a string meets any other integer, the type error stays.
 *
 * The 0 is wrapped in a cast to string that sema made (its `a` is empty);
 * codegen reads that cast as the NULL string (cg_strnull.c).
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
