/*
 * D's string subroutines: strlen(), strjoin(), substr(), index(), rindex(),
 * strstr(), strchr(), strrchr(), basename(), dirname(), lltostr(),
 * strtoll(), toupper(), tolower(), cleanpath() and strtok(). Checks each
 * call's arguments against the kinds its registry row lists (a char * or
 * char[] argument becomes a string); the row gives the call its type: a
 * string, or the integer DTrace returns.
 */
#include <string.h>

#include "arena.h"
#include "diag.h"
#include "sema_internal.h"

/* strtok(s, delim) and strtok(NULL, delim): the rest of the string is kept
 * in a clause-local no script can name, shared by the firing's clauses as
 * DTrace keeps it for the firing (dcc doesn't clear it between firings) */
int sema_strtok(struct sema *s, struct node *n)
{
	struct node *a = n->list;
	if (ast_list_len(a) != 2)
		return diag_error(s->dg, n->loc, "strtok() takes 2 arguments, %d given",
				  ast_list_len(a));
	if (a->kind == N_IDENT && a->name && !strcmp(a->name, "NULL")) {
		a->kind = N_INT;
		a->ival = 0;
	}
	if (sema_expr(s, a) || sema_expr(s, a->next))
		return -1;
	sema_coerce_text(s, a);
	sema_coerce_text(s, a->next);
	int64_t v;
	if (a->type->kind != T_STRING && (!type_is_int(a->type) || sema_const(s, a, &v) || v))
		return diag_error(s->dg, a->loc, "argument 1 of strtok() must be a string or "
				  "NULL, not '%s'", type_str(a->type));
	if (a->next->type->kind != T_STRING && !sema_null_string(s, a->next))
		return diag_error(s->dg, a->next->loc, "argument 2 of strtok() must be a string, "
				  "not '%s'", type_str(a->next->type));
	struct var *st = sema_var_find(s, V_THIS, "strtok()");
	n->sym = st ? st : sema_var_add(s, V_THIS, "strtok()", &type_string, n->loc);
	n->type = &type_string;
	return 0;
}

/* The functions whose row lists their argument kinds ('s', 'i'); the row
 * gives the value's type. */
int sema_string_call(struct sema *s, struct node *n)
{
	const char *name = n->name, *kinds = n->bi->args;
	if (sema_builtin_arity(s, n))
		return -1;
	int err = 0, i = 0;
	for (struct node *a = n->list; a; a = a->next, i++) {
		if (sema_expr(s, a)) {
			err = -1;
			continue;
		}
		if (kinds[i] == 's') {
			sema_coerce_text(s, a);
			if (a->type->kind != T_STRING && !sema_null_string(s, a))
				err = diag_error(s->dg, a->loc, "argument %d of %s() must be a "
						 "string, not '%s'", i + 1, name,
						 type_str(a->type));
		} else if (!type_is_int(a->type)) {
			err = diag_error(s->dg, a->loc, "argument %d of %s() must be an integer, "
					 "not '%s'", i + 1, name, type_str(a->type));
		}
	}
	return err;
}

/* (string)p: the string at kernel address p, as stringof((char *)p) */
int sema_cast_to_string(struct sema *s, struct node *n)
{
	if (!type_is_stringish(n->b->type)) {
		struct node *c = arena_new(s->ar, struct node);
		*c = *n;
		c->a = NULL; /* a cast sema made: its type stays */
		c->next = NULL;
		c->type = type_ptr(s->ar, &type_char);
		n->b = c;
	}
	n->kind = N_STRINGOF;
	n->a = n->b;
	n->b = NULL;
	n->type = &type_string;
	return 0;
}

/* s + n, n + s: the string from offset n of s on, as DTrace's string
 * arithmetic gives it: substr(s, n) (past the end, ""). A negative n,
 * which DTrace reads before the string with, counts from the end here. */
bool sema_is_string_offset(const struct type *a, const struct type *b)
{
	return (a->kind == T_STRING && type_is_int(b)) || (b->kind == T_STRING && type_is_int(a));
}

int sema_string_offset(struct sema *s, struct node *n)
{
	struct node *str = n->a->type->kind == T_STRING ? n->a : n->b;
	struct node *off = str == n->a ? n->b : n->a;
	n->kind = N_CALL;
	n->bi = builtin_get(BI_SUBSTR);
	n->name = n->bi->name;
	n->a = n->b = NULL;
	n->list = str;
	str->next = off;
	off->next = NULL;
	return sema_expr(s, n);
}
