/*
 * Subroutines that compute a value from their arguments: scratch memory
 * (alloca, bcopy, copyinto), byte order (htons ... ntohll), rand(),
 * progenyof(), getmajor()/getminor() and the address formatters
 * (inet_ntoa, inet_ntoa6, inet_ntop, link_ntop). Checks each call's
 * arguments and gives it its type; cg_subr.c compiles them.
 *
 * The inet functions' values are not strings: like sym(), they carry the
 * raw address, which the runtime formats as DTrace does when the value is
 * printed (printf %s), traced or used as an aggregation key. String
 * operations on them (strjoin(), comparisons, string variables) are
 * compile errors naming the type, e.g. 'inet_ntoa()'.
 */
#include <string.h>

#include <dcc/abi.h>
#include "arena.h"
#include "diag.h"
#include "sema_internal.h"

static struct node *arg(struct node *n, int i)
{
	struct node *a = n->list;
	while (a && i--)
		a = a->next;
	return a;
}

static int want_int(struct sema *s, struct node *n, struct node *a, const char *what)
{
	if (type_is_int(a->type))
		return 0;
	return diag_error(s->dg, a->loc, "%s() needs %s, not '%s'", n->name, what,
			  type_str(a->type));
}

/* an integer, a pointer, or an array in memory (its address) */
static int want_addr(struct sema *s, struct node *n, struct node *a, const char *what)
{
	if (type_is_scalar(a->type) || (a->type->kind == T_ARRAY && a->kind != N_STR))
		return 0;
	return diag_error(s->dg, a->loc, "%s() needs %s, not '%s'", n->name, what,
			  type_str(a->type));
}

/* A constant byte count of min to 4096: scratch is laid out at compile
 * time. alloca(0) takes nothing and gives the address of the next byte. */
static int want_size(struct sema *s, struct node *n, struct node *a, int64_t min)
{
	int64_t size;
	if (sema_const(s, a, &size))
		return -1;
	if (size < min || size > 4096)
		return diag_error(s->dg, a->loc, "%s() takes %lld to 4096 bytes, not %lld", n->name,
				  (long long)min, (long long)size);
	n->ival = (uint64_t)size;
	return 0;
}

/* bcopy()'s and copyinto()'s byte count: a constant is checked now against
 * what the clause allocated; any other integer at run time (SUBR_SIZE_RUNTIME),
 * where one too large for the destination is a fault. */
static int want_copy_size(struct sema *s, struct node *n, struct node *a)
{
	int64_t size;
	if (sema_const_try(a, &size))
		return want_size(s, n, a, 1);
	if (want_int(s, n, a, "a byte count"))
		return -1;
	n->ival = SUBR_SIZE_RUNTIME;
	return 0;
}

/* The row's arity, then every argument's type. */
static int subr_args(struct sema *s, struct node *n)
{
	if (sema_builtin_arity(s, n))
		return -1;
	for (struct node *a = n->list; a; a = a->next)
		if (sema_expr(s, a))
			return -1;
	return 0;
}

/* alloca(size) -> void *; bcopy(src, dst, size); copyinto(uaddr, size, dst) */
int sema_subr_scratch(struct sema *s, struct node *n)
{
	if (subr_args(s, n))
		return -1;
	if (n->bi->id == BI_ALLOCA) {
		if (want_size(s, n, arg(n, 0), 0))
			return -1;
		n->type = type_ptr(s->ar, &type_void);
		return 0;
	}
	bool into = n->bi->id == BI_COPYINTO;
	struct node *src = arg(n, 0), *size = arg(n, into ? 1 : 2), *dst = arg(n, into ? 2 : 1);
	/* bcopy() from a string copies the bytes of its buffer */
	bool from_str = !into && src->type->kind == T_STRING;
	if ((!from_str && want_addr(s, n, src, into ? "a user address" : "a source address")) ||
	    want_addr(s, n, dst, "a destination from alloca()") || want_copy_size(s, n, size))
		return -1;
	return 0;
}

/* Bytes alloca() and copyin() have taken from the clause's scratch by the
 * end of n, in the order codegen lays them out (operands first, each
 * rounded to 8); a bcopy() or copyinto() needs as many as it copies. Scratch
 * temporaries of strings come on top in codegen, so its room is never less. */
static int scratch_walk(struct sema *s, struct node *n, uint64_t *taken)
{
	int err = 0;
	for (; n; n = n->next) {
		struct node *kids[5] = { n->a, n->b, n->c, n->d, n->list };
		for (int i = 0; i < 5; i++)
			err |= scratch_walk(s, kids[i], taken);
		if (n->kind != N_CALL || !n->bi)
			continue;
		if (n->bi->id == BI_ALLOCA || n->bi->id == BI_COPYIN) {
			*taken += (n->ival + 7) & ~7ull;
			uint64_t room = sema_scratchsize(s);
			if (n->bi->id == BI_ALLOCA && room && *taken > room)
				err = diag_error(s->dg, n->loc, "alloca() takes the clause past "
						 "%llu bytes, the scratchsize option's room",
						 (unsigned long long)room);
		}
		else if ((n->bi->id == BI_BCOPY || n->bi->id == BI_COPYINTO) &&
			 n->ival != SUBR_SIZE_RUNTIME && n->ival > *taken)
			err = diag_error(s->dg, n->loc, "%s() copies %llu bytes, more than the "
					 "clause has allocated with alloca() before it", n->name,
					 (unsigned long long)n->ival);
	}
	return err;
}

int sema_scratch_room(struct sema *s, struct node *clause)
{
	uint64_t taken = 0;
	int err = scratch_walk(s, clause->a, &taken); /* the predicate */
	return err | scratch_walk(s, clause->b, &taken); /* the statements */
}

/* byte order, rand(), progenyof(), getmajor(), getminor(): typed by their rows */
int sema_subr_int(struct sema *s, struct node *n)
{
	if (subr_args(s, n))
		return -1;
	if (n->bi->id == BI_RAND)
		return 0;
	return want_int(s, n, n->list, n->bi->id == BI_PROGENYOF ? "a process id" :
			n->bi->id == BI_GETMAJOR || n->bi->id == BI_GETMINOR ?
			"a device number (dev_t)" : "an integer");
}

/* inet_ntoa6()'s address is a struct in6_addr *, as its prototype in DTrace
 * says: a pointer to another type or an integer is refused (a void * or a
 * constant 0 converts, as in C). Its optional second argument, strict, is an
 * integer constant: 0 writes an address embedding an IPv4 one as the dotted
 * quad alone, non-zero with its "::" or "::ffff:" prefix, as inet_ntop()
 * does (kept in n->ival). */
static int ntoa6_args(struct sema *s, struct node *n)
{
	struct node *a = n->list, *strict = a->next;
	const struct type *t = a->type, *to = t->kind == T_PTR || t->kind == T_ARRAY ? t->ref : NULL;
	int64_t v;
	/* the kernel's struct, or the library's in6_addr_t (headers/d/net.d) */
	bool in6 = to && (to->kind == T_VOID || (to->kind == T_STRUCT && to->tag &&
						 (!strcmp(to->tag, "in6_addr") ||
						  !strcmp(to->tag, "dcc_in6_addr"))));
	if (!in6 && !(type_is_int(t) && sema_const_try(a, &v) && v == 0))
		return diag_error(s->dg, a->loc, "inet_ntoa6() needs a 'struct in6_addr *', "
				  "not '%s'", type_str(t));
	if (!strict)
		return 0;
	if (!type_is_int(strict->type) || !sema_const_try(strict, &v))
		return diag_error(s->dg, strict->loc, "inet_ntoa6()'s second argument (strict) "
				  "must be an integer constant");
	n->ival = v != 0;
	return 0;
}

/* inet_ntoa(ipaddr_t *), inet_ntoa6(struct in6_addr *[, strict]),
 * inet_ntop(af, addr), link_ntop(type, addr) */
int sema_subr_inet(struct sema *s, struct node *n)
{
	if (subr_args(s, n))
		return -1;
	bool link = n->bi->id == BI_LINK_NTOP, ntop = link || n->bi->id == BI_INET_NTOP;
	if (ntop && want_int(s, n, n->list, link ? "a link type (ARPHRD_ETHER or "
			    "ARPHRD_INFINIBAND)" : "an address family (AF_INET or AF_INET6)"))
		return -1;
	if (want_addr(s, n, arg(n, ntop ? 1 : 0), link ? "the address of a link-layer address"
		      : "the address of an IP address"))
		return -1;
	n->ival = 0;
	if (n->bi->id == BI_INET_NTOA6 && ntoa6_args(s, n))
		return -1;
	struct type *t = arena_new(s->ar, struct type);
	t->kind = T_SYM;
	t->dkind = DCC_K_INET;
	t->size = link ? 32 : 24; /* the form, then 20 or 16 address bytes */
	t->name = arena_printf(s->ar, "%s()", n->name);
	n->type = t;
	return 0;
}

bool sema_subr_text(const struct type *t)
{
	return t && t->kind == T_SYM && t->dkind == DCC_K_INET;
}

/* vtimestamp: the nanoseconds the current thread has run on a CPU, as the
 * scheduler last counted them (the kernel's task_struct se.sum_exec_runtime:
 * updated at each tick and switch, so it never goes back). The identifier
 * becomes that member access, which BTF types and CO-RE relocates. */
int sema_vtimestamp(struct sema *s, struct node *n)
{
	struct node *task = ast_new(s->ar, N_IDENT, n->loc);
	task->name = "curthread";
	struct node *se = ast_new(s->ar, N_MEMBER, n->loc);
	se->a = task;
	se->name = "se";
	se->op = OP_ARROW;
	n->kind = N_MEMBER;
	n->a = se;
	n->name = "sum_exec_runtime";
	n->op = '.';
	n->bi = NULL;
	n->id = 0;
	if (sema_expr(s, n))
		return -1;
	n->type = &type_uint64;
	return 0;
}

/* ipl: Linux has no interrupt priority levels in DTrace's sense, and DTrace
 * for Linux gives 0 for it; the identifier becomes that constant (uint). */
int sema_ipl(struct sema *s, struct node *n)
{
	(void)s;
	n->kind = N_INT;
	n->ival = 0;
	n->iflags = INTF_UNSIGNED;
	n->bi = NULL;
	n->id = 0;
	n->type = &type_uint;
	return 0;
}

static struct node *task_member(struct sema *s, struct node *n, const char *path0,
				const char *path1)
{
	struct node *task = ast_new(s->ar, N_IDENT, n->loc);
	task->name = "curthread";
	struct node *m = ast_new(s->ar, N_MEMBER, n->loc);
	m->a = task;
	m->name = path0;
	m->op = OP_ARROW;
	if (!path1)
		return m;
	struct node *m1 = ast_new(s->ar, N_MEMBER, n->loc);
	m1->a = m;
	m1->name = path1;
	m1->op = OP_ARROW;
	return m1;
}

/* execargs: the process's arguments as one string, read from its memory
 * between mm->arg_start and arg_end (codegen's __dcc_execargs joins them
 * with spaces); a kernel thread, which has no mm, has none: "". */
int sema_execargs(struct sema *s, struct node *n)
{
	struct node *call = ast_new(s->ar, N_CALL, n->loc);
	call->name = "__dcc_execargs";
	call->list = task_member(s, n, "mm", "arg_start");
	call->list->next = task_member(s, n, "mm", "arg_end");
	struct node *none = ast_new(s->ar, N_STR, n->loc);
	none->str = "";
	none->slen = 0;
	n->kind = N_COND;
	n->a = task_member(s, n, "mm", NULL);
	n->b = call;
	n->c = none;
	n->bi = NULL;
	n->id = 0;
	n->type = NULL;
	return sema_expr(s, n);
}
