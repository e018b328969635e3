/*
 * Subroutines that compute a value from their arguments: scratch memory
 * (alloca, bcopy, copyinto), byte order (htons ... ntohll), rand(),
 * progenyof(), getmajor()/getminor() and the IP address formatters
 * (inet_ntoa, inet_ntoa6, inet_ntop). Checks each call's arguments and
 * gives it its type; cg_subr.c compiles them.
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

enum subr_kind { S_SCRATCH, S_BYTEORDER, S_INT, S_INET };

static const struct subr {
	const char *name;
	enum subr_kind kind;
	int nargs;
} subrs[] = {
	{ "alloca", S_SCRATCH, 1 }, { "bcopy", S_SCRATCH, 3 }, { "copyinto", S_SCRATCH, 3 },
	{ "htons", S_BYTEORDER, 1 }, { "htonl", S_BYTEORDER, 1 }, { "htonll", S_BYTEORDER, 1 },
	{ "ntohs", S_BYTEORDER, 1 }, { "ntohl", S_BYTEORDER, 1 }, { "ntohll", S_BYTEORDER, 1 },
	{ "rand", S_INT, 0 }, { "progenyof", S_INT, 1 }, { "getmajor", S_INT, 1 },
	{ "getminor", S_INT, 1 },
	{ "inet_ntoa", S_INET, 1 }, { "inet_ntoa6", S_INET, 1 }, { "inet_ntop", S_INET, 2 },
};

static const struct subr *find(const char *name)
{
	for (unsigned i = 0; i < sizeof(subrs) / sizeof(subrs[0]); i++)
		if (!strcmp(subrs[i].name, name))
			return &subrs[i];
	return NULL;
}

bool sema_is_subr(const char *name)
{
	return find(name) != NULL;
}

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

/* A constant byte count of 1 to 4096: scratch is laid out at compile time. */
static int want_size(struct sema *s, struct node *n, struct node *a)
{
	int64_t size;
	if (sema_const(s, a, &size))
		return -1;
	if (size < 1 || size > 4096)
		return diag_error(s->dg, a->loc, "%s() takes 1 to 4096 bytes, not %lld", n->name,
				  (long long)size);
	n->ival = (uint64_t)size;
	return 0;
}

/* alloca(size) -> void *; bcopy(src, dst, size); copyinto(uaddr, size, dst) */
static int check_scratch(struct sema *s, struct node *n)
{
	const char *name = n->name;
	if (!strcmp(name, "alloca")) {
		if (want_size(s, n, arg(n, 0)))
			return -1;
		n->type = type_ptr(s->ar, &type_void);
		return 0;
	}
	bool into = !strcmp(name, "copyinto");
	struct node *src = arg(n, 0), *size = arg(n, into ? 1 : 2), *dst = arg(n, into ? 2 : 1);
	if (want_addr(s, n, src, into ? "a user address" : "a source address") ||
	    want_addr(s, n, dst, "a destination from alloca()") || want_size(s, n, size))
		return -1;
	n->type = &type_void;
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
		if (n->kind != N_CALL || !n->name)
			continue;
		if (!strcmp(n->name, "alloca") || !strcmp(n->name, "copyin"))
			*taken += (n->ival + 7) & ~7ull;
		else if ((!strcmp(n->name, "bcopy") || !strcmp(n->name, "copyinto")) &&
			 n->ival > *taken)
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

static int check_byteorder(struct sema *s, struct node *n)
{
	if (want_int(s, n, n->list, "an integer"))
		return -1;
	size_t len = strlen(n->name);
	n->type = n->name[len - 1] == 's' ? &type_uint16 : n->name[len - 2] == 'l'
		? &type_uint64 : &type_uint32;
	return 0;
}

static int check_int(struct sema *s, struct node *n)
{
	if (!strcmp(n->name, "rand")) {
		n->type = &type_int;
		return 0;
	}
	bool pid = !strcmp(n->name, "progenyof");
	if (want_int(s, n, n->list, pid ? "a process id" : "a device number (dev_t)"))
		return -1;
	n->type = pid ? &type_int : &type_uint32;
	return 0;
}

/* inet_ntoa(ipaddr_t *), inet_ntoa6(in6_addr_t *), inet_ntop(af, addr) */
static int check_inet(struct sema *s, struct node *n)
{
	bool ntop = !strcmp(n->name, "inet_ntop");
	if (ntop && want_int(s, n, n->list, "an address family (AF_INET or AF_INET6)"))
		return -1;
	if (want_addr(s, n, arg(n, ntop ? 1 : 0), "the address of an IP address"))
		return -1;
	struct type *t = arena_new(s->ar, struct type);
	t->kind = T_SYM;
	t->dkind = DCC_K_INET;
	t->size = 24;
	t->name = arena_printf(s->ar, "%s()", n->name);
	n->type = t;
	return 0;
}

int sema_subr(struct sema *s, struct node *n)
{
	const struct subr *f = find(n->name);
	int nargs = ast_list_len(n->list);
	if (nargs != f->nargs)
		return diag_error(s->dg, n->loc, "%s() takes %d argument%s, %d given", n->name,
				  f->nargs, f->nargs == 1 ? "" : "s", nargs);
	for (struct node *a = n->list; a; a = a->next)
		if (sema_expr(s, a))
			return -1;
	switch (f->kind) {
	case S_SCRATCH:
		return check_scratch(s, n);
	case S_BYTEORDER:
		return check_byteorder(s, n);
	case S_INT:
		return check_int(s, n);
	case S_INET:
		return check_inet(s, n);
	}
	return -1;
}

bool sema_subr_text(const struct type *t)
{
	return t && t->kind == T_SYM && t->dkind == DCC_K_INET;
}
