/*
 * d_path(struct path *), and the variables cwd and root that are d_path()
 * of the current task's fs->pwd and fs->root, as DTrace for Linux gives them.
 *
 * The kernel's bpf_d_path() helper is for fentry and LSM programs only, so
 * codegen walks the dentries itself (cg_dpath.c): sema finds the members
 * that walk reads (struct path, dentry, qstr, vfsmount, mount) for CO-RE,
 * and gives the call a hidden second argument, &curthread->fs->root, where
 * the walk stops as the kernel's d_path() does.
 */
#include <string.h>

#include "arena.h"
#include "btf.h"
#include "diag.h"
#include "sema_internal.h"

static struct node *mk(struct sema *s, enum node_kind k, struct loc loc)
{
	return ast_new(s->ar, k, loc);
}

/* &curthread->fs->WHAT */
static struct node *fs_path(struct sema *s, struct loc loc, const char *what)
{
	struct node *task = mk(s, N_IDENT, loc);
	task->name = "curthread";
	struct node *fs = mk(s, N_MEMBER, loc);
	fs->a = task;
	fs->name = "fs";
	fs->op = OP_ARROW;
	struct node *p = mk(s, N_MEMBER, loc);
	p->a = fs;
	p->name = what;
	p->op = OP_ARROW;
	struct node *addr = mk(s, N_UNOP, loc);
	addr->op = '&';
	addr->a = p;
	return addr;
}

/* st's member name, appended to mp; false when BTF has no such member */
static bool member(struct sema *s, struct type *st, const char *name, struct member_path *mp)
{
	struct member_path one = { 0 };
	if (!st || !sema_find_member(s, st, name, &one) || mp->n + one.n > MEMBER_PATH_MAX)
		return false;
	for (int i = 0; i < one.n; i++) {
		mp->outer[mp->n] = one.outer[i];
		mp->index[mp->n++] = one.index[i];
	}
	return true;
}

static int members(struct sema *s, struct node *n, struct dpath_members *m)
{
	struct sema_btf *btf = sema_btf(s, n->loc);
	if (!btf)
		return -1;
	struct type *path = sema_btf_struct(btf, "path", false);
	struct type *dentry = sema_btf_struct(btf, "dentry", false);
	struct type *qstr = sema_btf_struct(btf, "qstr", false);
	struct type *hbl = sema_btf_struct(btf, "hlist_bl_node", false);
	struct type *vfsmount = sema_btf_struct(btf, "vfsmount", false);
	struct type *mount = sema_btf_struct(btf, "mount", false);
	memset(m, 0, sizeof(*m));
	if (!member(s, path, "dentry", &m->path_dentry) || !member(s, path, "mnt", &m->path_mnt) ||
	    !member(s, dentry, "d_parent", &m->d_parent) ||
	    !member(s, dentry, "d_name", &m->d_name) || !member(s, qstr, "name", &m->d_name) ||
	    !member(s, dentry, "d_hash", &m->d_hash) || !member(s, hbl, "pprev", &m->d_hash) ||
	    !member(s, vfsmount, "mnt_root", &m->mnt_root) ||
	    !member(s, mount, "mnt", &m->mount_mnt) ||
	    !member(s, mount, "mnt_parent", &m->mnt_parent) ||
	    !member(s, mount, "mnt_mountpoint", &m->mnt_mountpoint))
		return diag_error(s->dg, n->loc, "the kernel's BTF lacks the path, dentry or "
				  "mount members %s() reads", n->name);
	return 0;
}

int sema_d_path(struct sema *s, struct node *n)
{
	/* checked again (a trial pass): the hidden argument goes first */
	if (n->sym && n->list)
		n->list->next = NULL;
	if (sema_builtin_arity(s, n))
		return -1;
	struct node *a = n->list;
	if (sema_expr(s, a))
		return -1;
	struct type *t = a->type;
	if (t->kind != T_PTR || !((t->ref->kind == T_STRUCT && t->ref->tag &&
				   !strcmp(t->ref->tag, "path")) || t->ref->kind == T_VOID))
		return diag_error(s->dg, a->loc, "d_path() needs a 'struct path *', not '%s'",
				  type_str(t));
	struct dpath_members *m = arena_new(s->ar, struct dpath_members);
	if (members(s, n, m))
		return -1;
	struct node *root = fs_path(s, n->loc, "root");
	if (sema_expr(s, root))
		return -1;
	a->next = root;
	n->sym = m;
	n->type = &type_string;
	return 0;
}

/* cwd, root: the call d_path(&curthread->fs->pwd) or (...->root) */
int sema_cwd(struct sema *s, struct node *n)
{
	bool cwd = n->bi->id == BI_CWD;
	n->list = fs_path(s, n->loc, cwd ? "pwd" : "root");
	n->kind = N_CALL;
	n->name = "d_path";
	n->bi = NULL;
	n->id = 0;
	n->type = NULL;
	return sema_expr(s, n);
}
