/*
 * tracemem() and the destructive actions: raise(), stop(), system(),
 * freopen(), ftruncate(), copyout() and copyoutstr(). Checks their
 * arguments (the registry's rows mark the program destructive, so that
 * the object says so and the loader refuses it without -w). Only the
 * arguments that codegen lays out at compile time must be constants:
 * tracemem's size, copyout's and copyoutstr's sizes.
 */
#include "diag.h"
#include "sema_internal.h"

#define TRACEMEM_MAX 4096
#define COPYOUT_MAX 4096

/* A constant size in [1, max], kept in *out. */
static int const_size(struct sema *s, struct node *call, struct node *a, int64_t max,
		      int64_t *out)
{
	if (sema_expr(s, a) || sema_const(s, a, out))
		return -1;
	if (*out < 1 || *out > max)
		return diag_error(s->dg, a->loc, "%s() size must be 1 to %lld, not %lld",
				  call->name, (long long)max, (long long)*out);
	return 0;
}

static int scalar_arg(struct sema *s, struct node *call, struct node *a, const char *what)
{
	if (sema_expr(s, a))
		return -1;
	if (!type_is_scalar(a->type))
		return diag_error(s->dg, a->loc, "%s() needs %s, not '%s'", call->name, what,
				  type_str(a->type));
	return 0;
}

/* tracemem(addr, n[, dyn]): n bytes at a kernel address (copyin() gives
 * one for user memory); dyn, when given, is how many of them to show. */
static int check_tracemem(struct sema *s, struct node *n)
{
	int64_t size;
	if (sema_builtin_arity(s, n))
		return -1;
	struct node *addr = n->list, *sz = addr->next, *dyn = sz->next;
	if (scalar_arg(s, n, addr, "an address") || const_size(s, n, sz, TRACEMEM_MAX, &size))
		return -1;
	if (dyn && scalar_arg(s, n, dyn, "an integer size"))
		return -1;
	if (dyn && !type_is_int(dyn->type))
		return diag_error(s->dg, dyn->loc, "tracemem() needs an integer size, not '%s'",
				  type_str(dyn->type));
	n->ival = (uint64_t)size;
	return 0;
}

static int check_copyout(struct sema *s, struct node *n, bool str)
{
	int64_t size;
	if (sema_builtin_arity(s, n))
		return -1;
	struct node *src = n->list, *uaddr = src->next, *sz = uaddr->next;
	if (str) {
		if (sema_expr(s, src))
			return -1;
		sema_coerce_text(s, src);
		if (src->type->kind != T_STRING)
			return diag_error(s->dg, src->loc, "copyoutstr() needs a string, not '%s'",
					  type_str(src->type));
	} else if (scalar_arg(s, n, src, "a source address")) {
		return -1;
	}
	if (scalar_arg(s, n, uaddr, "a user address") ||
	    const_size(s, n, sz, COPYOUT_MAX, &size))
		return -1;
	n->ival = (uint64_t)size;
	return 0;
}

/* system(fmt, ...) and freopen(fmt, ...) take printf's arguments. */
static int check_printf_like(struct sema *s, struct node *n)
{
	if (!n->list || n->list->kind != N_STR)
		return diag_error(s->dg, n->loc, "%s() needs a constant format string as its "
				  "first argument", n->name);
	int err = 0;
	for (struct node *a = n->list->next; a; a = a->next)
		err |= sema_expr(s, a);
	if (err)
		return -1;
	return sema_format(s, n, n->list, n->list->next);
}

/* Row check of tracemem() and the destructive actions (check_action()
 * marks the program destructive when the row says so). */
int sema_destr_action(struct sema *s, struct node *n)
{
	switch (n->bi->id) {
	case BI_TRACEMEM:
		return check_tracemem(s, n);
	case BI_RAISE:
		if (sema_builtin_arity(s, n) || sema_expr(s, n->list))
			return -1;
		if (!type_is_int(n->list->type))
			return diag_error(s->dg, n->list->loc, "raise() needs an integer signal, "
					  "not '%s'", type_str(n->list->type));
		return 0;
	case BI_STOP:
	case BI_FTRUNCATE:
		return sema_builtin_arity(s, n);
	case BI_SYSTEM:
	case BI_FREOPEN:
		return check_printf_like(s, n);
	default:
		return check_copyout(s, n, n->bi->id == BI_COPYOUTSTR);
	}
}
