/*
 * The lock subroutines as DTrace for Linux reads Linux's locks:
 * mutex_owned(), mutex_owner(), mutex_type_adaptive(), mutex_type_spin()
 * on a struct mutex *, and rw_read_held(), rw_write_held(), rw_iswriter()
 * on an rwlock_t * (a queued rwlock: struct qrwlock's cnts; PREEMPT_RT's
 * rwlock_t is not one).
 *
 * Each call becomes the member reads and arithmetic it stands for, which
 * BTF types and CO-RE relocates like any other member access; codegen
 * sees no lock subroutine at all.
 *
 *   struct mutex: owner holds the owning task's address, its low 3 bits
 *   flags (MUTEX_FLAGS). Every Linux mutex spins before it sleeps, which
 *   DTrace calls adaptive: mutex_type_adaptive() is 1, mutex_type_spin() 0.
 *
 *   qrwlock cnts: bits 0-7 the writer (0xff when a writer holds it), bit 8
 *   a waiting writer, the readers counted from bit 9 (_QR_SHIFT).
 */
#include <string.h>

#include "arena.h"
#include "btf.h"
#include "diag.h"
#include "sema_internal.h"

/* The argument as a pointer to the lock's type: that pointer, a void *,
 * or an error naming what it needs. */
static struct node *lock_arg(struct sema *s, struct node *n, struct type *lock,
			     const char *what)
{
	struct node *a = n->list;
	if (sema_expr(s, a))
		return NULL;
	struct type *t = a->type;
	if (t->kind == T_PTR && (t->ref->kind == T_VOID ||
				 (t->ref->name && lock->name && !strcmp(t->ref->name, lock->name))))
		return sema_mk_cast(s, a, type_ptr(s->ar, lock));
	diag_error(s->dg, a->loc, "%s() needs a '%s *', not '%s'", n->name, what, type_str(t));
	return NULL;
}

static int mutex_call(struct sema *s, struct node *n, struct sema_btf *btf)
{
	struct type *m = sema_btf_struct(btf, "mutex", false);
	if (!m)
		return diag_error(s->dg, n->loc, "the kernel's BTF has no struct mutex");
	struct node *p = lock_arg(s, n, m, "struct mutex");
	if (!p)
		return -1;
	enum builtin_id id = n->bi->id;
	if (id == BI_MUTEX_TYPE_ADAPTIVE || id == BI_MUTEX_TYPE_SPIN)
		return sema_become(s, n, sema_mk_int(s, n->loc, id == BI_MUTEX_TYPE_ADAPTIVE));
	struct node *owner = sema_mk_member(s, sema_mk_member(s, p, "owner", OP_ARROW), "counter", '.');
	struct node *task = sema_mk_binop(s, '&', owner, sema_mk_int(s, n->loc, ~(uint64_t)7));
	if (id == BI_MUTEX_OWNED)
		return sema_become(s, n, sema_mk_binop(s, OP_NE, task, sema_mk_int(s, n->loc, 0)));
	struct type *ts = sema_btf_struct(btf, "task_struct", false);
	if (!ts)
		return diag_error(s->dg, n->loc, "the kernel's BTF has no struct task_struct");
	return sema_become(s, n, sema_mk_cast(s, task, type_ptr(s->ar, ts)));
}

static int rw_call(struct sema *s, struct node *n, struct sema_btf *btf)
{
	struct type *rw = sema_btf_typedef(btf, "rwlock_t");
	if (!rw)
		return diag_error(s->dg, n->loc, "the kernel's BTF has no rwlock_t");
	struct node *p = lock_arg(s, n, rw, "rwlock_t");
	if (!p)
		return -1;
	/* rwlock_t is an anonymous struct, which CO-RE can't relocate from:
	 * its first member raw_lock, a struct qrwlock, is read instead */
	struct type *q = sema_btf_struct(btf, "qrwlock", false);
	if (!q)
		return diag_error(s->dg, n->loc, "the kernel's BTF has no struct qrwlock");
	p = sema_mk_cast(s, p, type_ptr(s->ar, q));
	struct node *cnts = sema_mk_member(s, sema_mk_member(s, p, "cnts", OP_ARROW), "counter", '.');
	struct node *x;
	switch (n->bi->id) {
	case BI_RW_READ_HELD: /* readers */
		x = sema_mk_binop(s, OP_NE, sema_mk_binop(s, OP_SHR, cnts, sema_mk_int(s, n->loc, 9)),
				  sema_mk_int(s, n->loc, 0));
		break;
	case BI_RW_WRITE_HELD: /* a writer holds it */
		x = sema_mk_binop(s, OP_EQ, sema_mk_binop(s, '&', cnts, sema_mk_int(s, n->loc, 0xff)),
				  sema_mk_int(s, n->loc, 0xff));
		break;
	default: /* a writer holds it or waits for it */
		x = sema_mk_binop(s, OP_NE, sema_mk_binop(s, '&', cnts, sema_mk_int(s, n->loc, 0x1ff)),
				  sema_mk_int(s, n->loc, 0));
		break;
	}
	return sema_become(s, n, x);
}

int sema_lock(struct sema *s, struct node *n)
{
	if (sema_builtin_arity(s, n))
		return -1;
	struct sema_btf *btf = sema_btf(s, n->loc);
	if (!btf)
		return -1;
	switch (n->bi->id) {
	case BI_RW_READ_HELD:
	case BI_RW_WRITE_HELD:
	case BI_RW_ISWRITER:
		return rw_call(s, n, btf);
	default:
		return mutex_call(s, n, btf);
	}
}
