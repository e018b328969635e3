/*
 * Nodes sema builds when it rewrites a construct into the plain D it
 * stands for (the lock subroutines, ++ through a pointer), and become(),
 * which puts the rewrite in the original node's place and checks it.
 */
#include "arena.h"
#include "sema_internal.h"

static struct node *mk(struct sema *s, enum node_kind k, struct loc loc)
{
	return ast_new(s->ar, k, loc);
}

struct node *sema_mk_int(struct sema *s, struct loc loc, uint64_t v)
{
	struct node *n = mk(s, N_INT, loc);
	n->ival = v;
	n->iflags = INTF_LONG;
	return n;
}

struct node *sema_mk_member(struct sema *s, struct node *a, const char *name, int op)
{
	struct node *n = mk(s, N_MEMBER, a->loc);
	n->a = a;
	n->name = name;
	n->op = op;
	return n;
}

struct node *sema_mk_binop(struct sema *s, int op, struct node *a, struct node *b)
{
	struct node *n = mk(s, N_BINOP, a->loc);
	n->op = op;
	n->a = a;
	n->b = b;
	return n;
}

/* op is '=' or a compound assignment's operator ('+' for +=) */
struct node *sema_mk_assign(struct sema *s, int op, struct node *lv, struct node *v)
{
	struct node *n = mk(s, N_ASSIGN, lv->loc);
	n->op = op;
	n->a = lv;
	n->b = v;
	return n;
}

/* a cast sema makes (no type name): its type stays when checked */
struct node *sema_mk_cast(struct sema *s, struct node *a, struct type *t)
{
	struct node *n = mk(s, N_CAST, a->loc);
	n->b = a;
	n->type = t;
	return n;
}

/* n becomes x, checked */
int sema_become(struct sema *s, struct node *n, struct node *x)
{
	struct node *next = n->next;
	struct loc loc = n->loc;
	*n = *x;
	n->next = next;
	n->loc = loc;
	return sema_expr(s, n);
}
