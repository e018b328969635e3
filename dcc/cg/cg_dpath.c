/*
 * d_path() -> IR (and cwd, root, which sema makes d_path() calls): the
 * kernel's bpf_d_path() is for fentry and LSM programs only, so the name is
 * built here the way the kernel's d_path() builds it. From the path's dentry
 * up through d_parent, each name is put before the ones already there, at
 * the end of a scratch buffer; at a mount's root the walk goes on from the
 * dentry it is mounted on, in the parent mount (struct mount, around the
 * vfsmount: mnt_parent, mnt_mountpoint); it stops at the task's root
 * (fs->root, the call's hidden second argument) or at the root of the
 * mount tree. One bpf_loop() step a name or a mount crossed, its state in
 * scratch memory. As in the kernel: a path with no name is "/", an
 * unlinked dentry's path ends with " (deleted)"; a path longer than
 * strsize - 1 bytes (the kernel's ENAMETOOLONG) or that fails to read is "".
 */
#include "cg_string.h"

enum { DP_DENTRY, DP_VFSMNT, DP_POS, DP_DONE, DP_ROOTD, DP_ROOTM, DP_TMP, DP_NAME };

#define DP_NAMEMAX 256 /* NAME_MAX + 1 */

/* the 8 bytes at addr (a kernel pointer), 0 when the read fails */
static LLVMValueRef dp_read(struct cg *cg, LLVMValueRef t, LLVMValueRef addr)
{
	LLVMBuildStore(cg->b, str_k64(cg, 0), t);
	cg_bpf_probe_read_kernel(cg, t, cg_i32(cg, 8), addr);
	return LLVMBuildLoad2(cg->b, cg->i64, t, "");
}

/* the pointer member mp of the struct at p (an i64) */
static LLVMValueRef dp_member(struct cg *cg, LLVMValueRef t, LLVMValueRef p,
			      const struct member_path *mp)
{
	LLVMValueRef base = LLVMBuildIntToPtr(cg->b, p, cg->ptr, "");
	return dp_read(cg, t, cg_core_steps(cg, base, mp, mp->n));
}

/* ends the loop: done 1 (the path is whole) or 2 (it can't be made) */
static void dp_stop(struct cg *cg, LLVMValueRef *v, uint64_t how)
{
	str_sstore(cg, v[DP_DONE], str_k64(cg, how));
	LLVMBuildRet(cg->b, str_k64(cg, 1));
}

static LLVMBasicBlockRef dp_branch(struct cg *cg, LLVMValueRef c, const char *name)
{
	LLVMBasicBlockRef yes = cg_block(cg, name), no = cg_block(cg, "dp.next");
	LLVMBuildCondBr(cg->b, c, yes, no);
	LLVMPositionBuilderAtEnd(cg->b, yes);
	return no;
}

/* One step: the task's root ends the walk, a mount's root crosses to the
 * mount point, any other dentry puts "/name" before the path. */
static void dp_step(struct cg *cg, const struct dpath_members *m, LLVMValueRef *v, unsigned pw)
{
	LLVMValueRef t = cg_alloca(cg, cg->i64, "dp");
	/* container_of(vfsmount, struct mount, mnt): mnt's offset, relocated */
	LLVMValueRef off = LLVMBuildPtrToInt(cg->b, cg_core_steps(cg, LLVMConstNull(cg->ptr),
		&m->mount_mnt, m->mount_mnt.n), cg->i64, "");
	LLVMValueRef dn = str_sload(cg, v[DP_DENTRY]), vm = str_sload(cg, v[DP_VFSMNT]);
	LLVMBasicBlockRef next = dp_branch(cg, str_and1(cg,
		str_eq(cg, dn, str_sload(cg, v[DP_ROOTD])),
		str_eq(cg, vm, str_sload(cg, v[DP_ROOTM]))), "dp.root");
	dp_stop(cg, v, 1);
	LLVMPositionBuilderAtEnd(cg->b, next);
	LLVMValueRef mroot = dp_member(cg, t, vm, &m->mnt_root);
	LLVMValueRef par = dp_member(cg, t, dn, &m->d_parent);
	next = dp_branch(cg, LLVMBuildOr(cg->b, str_eq(cg, dn, mroot), str_eq(cg, dn, par), ""),
			 "dp.mount");
	LLVMValueRef mnt = LLVMBuildSub(cg->b, vm, off, "");
	LLVMValueRef mpar = dp_member(cg, t, mnt, &m->mnt_parent);
	LLVMBasicBlockRef cross = dp_branch(cg, LLVMBuildOr(cg->b, str_eq(cg, mpar, mnt),
		str_eq(cg, mpar, str_k64(cg, 0)), ""), "dp.top");
	dp_stop(cg, v, 1);
	LLVMPositionBuilderAtEnd(cg->b, cross);
	str_sstore(cg, v[DP_DENTRY], dp_member(cg, t, mnt, &m->mnt_mountpoint));
	str_sstore(cg, v[DP_VFSMNT], LLVMBuildAdd(cg->b, mpar, off, ""));
	LLVMBuildRet(cg->b, str_k64(cg, 0));
	LLVMPositionBuilderAtEnd(cg->b, next);
	/* a name: read whole, then put before the path with its slash */
	LLVMValueRef len = str_read(cg, v[DP_NAME], str_k64(cg, DP_NAMEMAX),
				    LLVMBuildIntToPtr(cg->b, dp_member(cg, t, dn, &m->d_name),
						      cg->ptr, ""));
	next = dp_branch(cg, LLVMBuildICmp(cg->b, LLVMIntSLT, len, str_k64(cg, 1), ""),
			 "dp.bad");
	dp_stop(cg, v, 2);
	LLVMPositionBuilderAtEnd(cg->b, next);
	LLVMValueRef pos = str_sload(cg, v[DP_POS]);
	/* len counts the NUL: the name and its slash take len bytes */
	next = dp_branch(cg, LLVMBuildICmp(cg->b, LLVMIntULT, pos, len, ""), "dp.long");
	dp_stop(cg, v, 2);
	LLVMPositionBuilderAtEnd(cg->b, next);
	LLVMValueRef np = LLVMBuildSub(cg->b, pos, len, "");
	LLVMValueRef at = str_and1(cg, LLVMBuildAdd(cg->b, np, str_k64(cg, 1), ""),
				   str_k64(cg, pw - 1));
	/* len <= DP_NAMEMAX: the mask is exact, and shows the verifier the bound
	 * (no str_bounded() here: its slot is scratch, the caller's) */
	LLVMValueRef n = str_and1(cg, LLVMBuildSub(cg->b, len, str_k64(cg, 1), ""),
				  str_k64(cg, DP_NAMEMAX - 1));
	cg_bpf_probe_read_kernel(cg, str_at(cg, v[DP_TMP], at), n, v[DP_NAME]);
	str_put_byte(cg, v[DP_TMP], str_and1(cg, np, str_k64(cg, pw - 1)), str_k64(cg, '/'));
	str_sstore(cg, v[DP_POS], np);
	str_sstore(cg, v[DP_DENTRY], par);
}

/* " (deleted)" at the buffer's end when the dentry is unlinked (unhashed,
 * and not a root); the path's end, where names go before */
static LLVMValueRef dp_tail(struct cg *cg, const struct dpath_members *m, LLVMValueRef tmp,
			    LLVMValueRef dn, unsigned pw)
{
	static const char del[] = " (deleted)";
	unsigned nd = sizeof(del) - 1;
	LLVMValueRef t = cg_alloca(cg, cg->i64, "dp");
	str_put_byte(cg, tmp, str_k64(cg, pw - 1), str_k64(cg, 0));
	LLVMValueRef pprev = dp_member(cg, t, dn, &m->d_hash);
	LLVMValueRef par = dp_member(cg, t, dn, &m->d_parent);
	LLVMValueRef gone = str_and1(cg, str_eq(cg, pprev, str_k64(cg, 0)),
				     LLVMBuildICmp(cg->b, LLVMIntNE, par, dn, ""));
	LLVMBasicBlockRef j = str_begin_if(cg, gone);
	for (unsigned k = 0; k < nd; k++)
		str_put_byte(cg, tmp, str_k64(cg, pw - 1 - nd + k), str_k64(cg, (uint8_t)del[k]));
	str_end_if(cg, j);
	return str_sel(cg, gone, str_k64(cg, pw - 1 - nd), str_k64(cg, pw - 1));
}

struct cval cg_d_path(struct cg *cg, struct node *n)
{
	const struct dpath_members *m = n->sym;
	LLVMValueRef p = cg_expr(cg, n->list).v, root = cg_expr(cg, n->list->next).v;
	cg_fault_if(cg, str_eq(cg, p, str_k64(cg, 0)), DCC_FAULT_BADADDR, str_k64(cg, 0));
	unsigned pw = 64;
	while (pw < cg->strmax) /* the text, strsize bytes with its NUL */
		pw *= 2;
	LLVMValueRef t = cg_alloca(cg, cg->i64, "dp");
	LLVMValueRef dn = dp_member(cg, t, p, &m->path_dentry);
	LLVMValueRef vm = dp_member(cg, t, p, &m->path_mnt);
	LLVMValueRef rootd = dp_member(cg, t, root, &m->path_dentry);
	LLVMValueRef rootm = dp_member(cg, t, root, &m->path_mnt);
	LLVMValueRef tmp = str_scratch(cg, pw + DP_NAMEMAX);
	LLVMValueRef end = dp_tail(cg, m, tmp, dn, pw);
	LLVMValueRef zero = str_k64(cg, 0);
	LLVMValueRef vals[8] = { str_slot(cg, dn), str_slot(cg, vm), str_slot(cg, end),
				 str_slot(cg, zero), str_slot(cg, rootd), str_slot(cg, rootm),
				 tmp, str_scratch(cg, DP_NAMEMAX) };
	struct str_body b;
	/* each step takes 2 bytes or more, but for a few mounts crossed */
	str_body_begin(cg, &b, pw / 2 + 16, vals, 8);
	dp_step(cg, m, b.v, pw);
	str_body_end(cg, &b);
	LLVMValueRef pos = str_sload(cg, vals[DP_POS]);
	/* nothing before the end: the root, "/" */
	LLVMValueRef none = str_eq(cg, pos, end);
	LLVMBasicBlockRef j = str_begin_if(cg, none);
	str_put_byte(cg, tmp, str_and1(cg, LLVMBuildSub(cg->b, end, str_k64(cg, 1), ""),
				       str_k64(cg, pw - 1)), str_k64(cg, '/'));
	str_end_if(cg, j);
	pos = str_sel(cg, none, LLVMBuildSub(cg->b, end, str_k64(cg, 1), ""), pos);
	LLVMValueRef ok = str_and1(cg, str_eq(cg, str_sload(cg, vals[DP_DONE]), str_k64(cg, 1)),
		LLVMBuildICmp(cg->b, LLVMIntULT, LLVMBuildSub(cg->b, str_k64(cg, pw - 1), pos, ""),
			      str_k64(cg, cg->strmax), ""));
	LLVMValueRef d = str_result(cg, 0);
	j = str_begin_if(cg, ok);
	str_read(cg, d, str_k64(cg, cg->strsize), str_at(cg, tmp, str_bounded(cg, pos, pw - 1)));
	str_end_if(cg, j);
	return str_val(d, cg);
}
