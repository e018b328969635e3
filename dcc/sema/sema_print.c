/*
 * print(x): checks the value print() records and makes sure every struct
 * and union it holds by value has its members known (kernel types are read
 * from BTF lazily), so codegen can describe the whole type in the metadata.
 * A pointer to a struct or union prints as its address and what it points
 * to, DTrace for Linux's form.
 */
#include <string.h>

#include "btf.h"
#include "diag.h"
#include "sema_internal.h"

/* Complete the structs and unions t holds by value (not through pointers). */
static void complete_all(struct sema *s, struct type *t, struct loc loc, int depth)
{
	while (t->kind == T_ARRAY && t->ref)
		t = t->ref;
	if ((t->kind != T_STRUCT && t->kind != T_UNION) || depth > 32)
		return;
	if (!t->complete && t->btf_id) {
		struct sema_btf *b = sema_btf(s, loc);
		if (!b || sema_btf_complete(b, t))
			return;
	}
	for (int i = 0; i < t->nmembers; i++)
		complete_all(s, t->members[i].type, loc, depth + 1);
}

static bool in_memory(struct node *a)
{
	return a->kind == N_MEMBER || a->kind == N_INDEX || (a->kind == N_UNOP && a->op == '*') ||
	       ((a->kind == N_IDENT || a->kind == N_SELF || a->kind == N_THIS) && a->sym);
}

int sema_print(struct sema *s, struct node *n)
{
	int nargs = ast_list_len(n->list);
	if (nargs != 1)
		return diag_error(s->dg, n->loc, "print() takes 1 argument, %d given", nargs);
	struct node *a = n->list;
	if (sema_expr(s, a))
		return -1;
	struct type *t = a->type;
	if (t->kind == T_PTR && t->ref && (t->ref->kind == T_STRUCT || t->ref->kind == T_UNION)) {
		/* print(p) shows "0xADDR = *" and what p points to, as DTrace for
		 * Linux does: the pointer, then *p, are the action's two arguments */
		complete_all(s, t->ref, a->loc, 0);
		if (!t->ref->size)
			return diag_error(s->dg, a->loc, "print() of '%s' is not possible: what it "
					  "points to has no size", type_str(t));
		struct node *d = ast_new(s->ar, N_UNOP, a->loc);
		d->op = '*';
		d->a = a;
		if (sema_expr(s, d))
			return -1;
		struct node *ptr = ast_new(s->ar, N_CAST, a->loc);
		*ptr = *a;
		ptr->next = d;
		n->list = ptr;
		n->type = &type_void;
		return 0;
	}
	if (type_is_aggregate(t) && t->kind != T_STRING) {
		if (t->size == 0)
			return diag_error(s->dg, a->loc, "print() of '%s' is not possible: it has "
					  "no size", type_str(t));
		if (!in_memory(a))
			return diag_error(s->dg, a->loc, "print() of a '%s' needs it in kernel "
					  "memory", type_str(t));
		complete_all(s, t, a->loc, 0);
	} else if (!type_is_scalar(t) && t->kind != T_STRING && !type_is_float(t)) {
		return diag_error(s->dg, a->loc, "print() of a value of type '%s' is not "
				  "supported", type_str(t));
	}
	n->type = &type_void;
	return 0;
}
