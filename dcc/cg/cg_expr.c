/*
 * Expressions -> IR. Integers are computed in i64 and renormalized to their
 * D type after every operation (C's wrap-around at 8/16/32 bits); strings are
 * pointers to NUL-padded buffers in the scratch map, .rodata or a map value.
 */
#include <stdlib.h>
#include <string.h>

#include <dcc/abi.h>
#include "arena.h"
#include "cg.h"
#include "cg_bpf.h"
#include "diag.h"
#include "syscall.h"


LLVMValueRef cg_norm(struct cg *cg, LLVMValueRef v, struct type *t)
{
	if (t->kind != T_INT || t->size >= 8)
		return v;
	LLVMTypeRef nt = LLVMIntTypeInContext(cg->C, t->size * 8);
	LLVMValueRef tr = LLVMBuildTrunc(cg->b, v, nt, "");
	return t->is_signed ? LLVMBuildSExt(cg->b, tr, cg->i64, "")
			    : LLVMBuildZExt(cg->b, tr, cg->i64, "");
}

static struct cval ival(LLVMValueRef v, struct type *t)
{
	return (struct cval){ .v = v, .t = t };
}

static LLVMValueRef volatile_load(struct cg *cg, LLVMValueRef g)
{
	LLVMValueRef l = LLVMBuildLoad2(cg->b, cg->i64, g, "");
	LLVMSetVolatile(l, 1);
	return l;
}

/* One memcpy or memset of at most MEMOP_MAX bytes: the BPF backend expands
 * them into at most 128 8-byte loads and stores and refuses a larger one as
 * a call to a library function. */
enum { MEMOP_MAX = 1024 };

static LLVMValueRef memop_piece(struct cg *cg, const char *name, LLVMValueRef dst,
				LLVMValueRef src, uint64_t n)
{
	/* overloads: memcpy(ptr, ptr, i64), memset(ptr, i64) */
	LLVMTypeRef tys[3] = { cg->ptr, src ? cg->ptr : cg->i64, cg->i64 };
	unsigned iid = LLVMLookupIntrinsicID(name, strlen(name));
	LLVMValueRef fn = LLVMGetIntrinsicDeclaration(cg->M, iid, tys, src ? 3 : 2);
	LLVMTypeRef fty = LLVMIntrinsicGetType(cg->C, iid, tys, src ? 3 : 2);
	/* A large memset is volatile: LLVM would otherwise merge neighbouring
	 * ones and stores (a strsize=1024 string beside a record's header)
	 * into one over MEMOP_MAX bytes. So is a large memcpy: LLVM would
	 * make a copy of a copy one copy from the first source, a memmove
	 * when it cannot tell the buffers apart (two map values), which the
	 * backend expands through the stack (strsize=512: past its 512
	 * bytes) or refuses as a call. */
	bool vol = n > 64;
	LLVMValueRef args[4] = { dst, src ? src : LLVMConstInt(cg->i8, 0, 0), cg_i64(cg, n),
				 LLVMConstInt(LLVMInt1TypeInContext(cg->C), vol, 0) };
	LLVMValueRef call = LLVMBuildCall2(cg->b, fty, fn, args, 4, "");
	/* Every string buffer dcc makes is 8-aligned (scratch and record
	 * offsets, globals, literals, map values): say so, or the backend
	 * copies byte by byte through the stack. */
	unsigned align = LLVMGetEnumAttributeKindForName("align", 5);
	LLVMAddCallSiteAttribute(call, 1, LLVMCreateEnumAttribute(cg->C, align, 8));
	if (src)
		LLVMAddCallSiteAttribute(call, 2, LLVMCreateEnumAttribute(cg->C, align, 8));
	return call;
}

/* memcpy or memset of n bytes, in pieces the backend can expand */
LLVMValueRef cg_memop(struct cg *cg, const char *name, LLVMValueRef dst, LLVMValueRef src,
		      uint64_t n)
{
	LLVMValueRef call = NULL;
	for (uint64_t at = 0; at < n || !call; at += MEMOP_MAX) {
		uint64_t len = n - at < MEMOP_MAX ? n - at : MEMOP_MAX;
		LLVMValueRef off = cg_i64(cg, at);
		LLVMValueRef d = at ? LLVMBuildGEP2(cg->b, cg->i8, dst, &off, 1, "") : dst;
		LLVMValueRef s = src && at ? LLVMBuildGEP2(cg->b, cg->i8, src, &off, 1, "") : src;
		call = memop_piece(cg, name, d, s, len);
	}
	return call;
}

/* Copy a string into a buffer of dstcap bytes, zeroing the rest. */
void cg_strcopy(struct cg *cg, LLVMValueRef dst, unsigned dstcap, struct cval src)
{
	unsigned n = src.cap < dstcap ? src.cap : dstcap;
	cg_memop(cg, "llvm.memcpy", dst, src.v, n);
	if (n < dstcap) {
		LLVMValueRef off = cg_i64(cg, n);
		cg_memop(cg, "llvm.memset", LLVMBuildGEP2(cg->b, cg->i8, dst, &off, 1, ""), NULL,
		      dstcap - n);
	}
	if (n == dstcap && n > 0) {
		/* A string filling the whole buffer keeps D's NUL at strsize. */
		LLVMValueRef off = cg_i64(cg, dstcap - 1);
		LLVMBuildStore(cg->b, LLVMConstInt(cg->i8, 0, 0),
			       LLVMBuildGEP2(cg->b, cg->i8, dst, &off, 1, ""));
	}
}

static struct cval strval(LLVMValueRef p, unsigned cap)
{
	return (struct cval){ .v = p, .t = &type_string, .cap = cap };
}

static struct cval str_literal(struct cg *cg, const char *s, size_t len)
{
	unsigned cap;
	/* a literal keeps strsize characters, as every other string does */
	if (len > cg->strlen_max)
		len = cg->strlen_max;
	LLVMValueRef g = cg_strlit(cg, s, len, &cap);
	return strval(g, cap);
}

static LLVMValueRef ctx_u64(struct cg *cg, unsigned off)
{
	return cg_bpf_ctx_load(cg, cg->i64, off);
}

static bool all_same(struct pgroup *g, size_t field)
{
	for (int i = 1; i < g->nprobes; i++) {
		const char *a = *(const char **)((char *)g->probes[0] + field);
		const char *b = *(const char **)((char *)g->probes[i] + field);
		if (strcmp(a, b))
			return false;
	}
	return true;
}

static bool is_syscall(struct pgroup *g)
{
	return g->kind == PK_SYSCALL_ENTRY || g->kind == PK_SYSCALL_RETURN;
}

/* probefunc of a group of several syscalls: the name table row of nr. */
static struct cval syscall_func(struct cg *cg)
{
	/* 512 rows, indexed by nr & 511: a masked index is one the verifier
	 * can bound; x86-64 syscall numbers are below 512. */
	enum { ROW = 32, ROWS = 512 };
	if (!cg->sysnames) {
		char *tab = calloc(ROWS, ROW);
		for (int i = 0; i < ROWS; i++) {
			const char *name = syscall_name(i);
			if (name)
				strncpy(tab + (size_t)i * ROW, name, ROW - 1);
		}
		LLVMValueRef init = LLVMConstStringInContext(cg->C, tab, ROWS * ROW, 1);
		free(tab);
		cg->sysnames = LLVMAddGlobal(cg->M, LLVMTypeOf(init), "dcc_sysnames");
		LLVMSetInitializer(cg->sysnames, init);
		LLVMSetGlobalConstant(cg->sysnames, 1);
		LLVMSetLinkage(cg->sysnames, LLVMExternalLinkage);
		LLVMSetAlignment(cg->sysnames, 8);
		cg_add_used(cg, cg->sysnames);
	}
	LLVMValueRef dst = cg_tmpbuf(cg, ROW);
	LLVMValueRef idx = LLVMBuildAnd(cg->b, cg->p->ctx_nr, cg_i64(cg, ROWS - 1), "");
	LLVMValueRef rowoff = LLVMBuildMul(cg->b, idx, cg_i64(cg, ROW), "");
	LLVMValueRef src = LLVMBuildGEP2(cg->b, cg->i8, cg->sysnames, &rowoff, 1, "");
	cg_memop(cg, "llvm.memcpy", dst, src, ROW);
	return strval(dst, ROW);
}

static struct cval probe_string(struct cg *cg, enum builtin_var b)
{
	struct pgroup *g = cg->p->grp;
	struct probe *p = g->probes[0];
	if ((g->kind == PK_PID_ENTRY || g->kind == PK_PID_RETURN || g->kind == PK_USDT) &&
	    (b == B_PROBEFUNC || b == B_PROBEMOD || b == B_PROBEPROV ||
	     (b == B_PROBENAME && g->kind == PK_USDT))) {
		unsigned cap;
		LLVMValueRef v = cg_pid_name(cg, b == B_PROBENAME ? 3 : b == B_PROBEFUNC ? 2 :
					     b == B_PROBEMOD, &cap);
		return strval(v, cap);
	}
	if (b == B_PROBEFUNC && !all_same(g, offsetof(struct probe, func)))
		return syscall_func(cg);
	const char *s = b == B_PROBEPROV ? p->prov : b == B_PROBEMOD ? p->mod :
			b == B_PROBEFUNC ? p->func : p->name;
	return str_literal(cg, s, strlen(s));
}

LLVMValueRef cg_probe_id(struct cg *cg)
{
	struct pgroup *g = cg->p->grp;
	if (g->kind == PK_PID_ENTRY || g->kind == PK_PID_RETURN || g->kind == PK_USDT)
		return cg_pid_probe_id(cg);
	/* one syscall's program knows its probe; a group's reads the number */
	if (is_syscall(g) && g->nprobes > 1) {
		LLVMValueRef id = LLVMBuildMul(cg->b, cg->p->ctx_nr, cg_i64(cg, 2), "");
		return LLVMBuildAdd(cg->b, id, cg_i64(cg, g->syscall_id0), "");
	}
	return cg_i64(cg, g->probes[0]->id);
}

/* task->real_parent->tgid through CO-RE relocations. */
/* task->real_parent->tgid through CO-RE relocations. A minimal local
 * task_struct (the two members, made once) spares scripts that only use
 * ppid the reading of the kernel's BTF; libbpf relocates by member name. */
void cg_task_type(struct cg *cg)
{
	if (!cg->ppid_ir) {
		LLVMTypeRef fields[3] = { cg->i32, cg->ptr, cg->i32 };
		cg->ppid_ir = LLVMStructCreateNamed(cg->C, "struct.task_struct");
		LLVMStructSetBody(cg->ppid_ir, fields, 3, 0);
		static const char *const names[3] = { "pad", "real_parent", "tgid" };
		LLVMMetadataRef tmp = LLVMDIBuilderCreateReplaceableCompositeType(cg->dib, 0x13,
			"task_struct", 11, cg->di_cu, cg->di_file, 0, 0, 192, 64, 0, "", 0);
		LLVMMetadataRef tptr = LLVMDIBuilderCreatePointerType(cg->dib, tmp, 64, 0, 0, "",
								      0);
		LLVMMetadataRef mt[3] = { cg->di_int, tptr, cg->di_int };
		uint64_t offs[3] = { 0, 64, 128 }, sizes[3] = { 32, 64, 32 };
		LLVMMetadataRef members[3];
		for (int i = 0; i < 3; i++)
			members[i] = LLVMDIBuilderCreateMemberType(cg->dib, cg->di_file, names[i],
				strlen(names[i]), cg->di_file, 0, sizes[i], 32, offs[i], 0, mt[i]);
		cg->ppid_di = LLVMDIBuilderCreateStructType(cg->dib, cg->di_cu, "task_struct", 11,
			cg->di_file, 0, 192, 64, 0, NULL, members, 3, 0, NULL, "", 0);
		LLVMMetadataReplaceAllUsesWith(tmp, cg->ppid_di);
	}
}

static LLVMValueRef core_ppid(struct cg *cg)
{
	cg_task_type(cg);
	LLVMValueRef task = LLVMBuildIntToPtr(cg->b, cg_bpf_get_current_task(cg), cg->ptr, "task");
	LLVMValueRef rp = cg_preserve_access(cg, task, cg->ppid_ir, cg->ppid_di, 1);
	LLVMValueRef parent = LLVMBuildIntToPtr(cg->b, cg_kread(cg, rp, &type_ulong), cg->ptr, "");
	LLVMValueRef tgid = cg_preserve_access(cg, parent, cg->ppid_ir, cg->ppid_di, 2);
	return cg_kread(cg, tgid, &type_int);
}

static LLVMValueRef arg_value(struct cg *cg, int i)
{
	struct pgroup *g = cg->p->grp;
	switch (g->kind) {
	case PK_SYSCALL_ENTRY:
		return cg_syscall_arg(cg, i);
	case PK_SYSCALL_RETURN:
		return i < 2 ? cg_syscall_ret(cg) : cg_i64(cg, 0);
	case PK_TICK:
	case PK_PROFILE: {
		if (i > 1)
			return cg_i64(cg, 0);
		/* bpf_perf_event_data starts with x86-64 pt_regs: ip at 128, cs at 136 */
		LLVMValueRef ip = ctx_u64(cg, 128), cs = ctx_u64(cg, 136);
		LLVMValueRef user = LLVMBuildICmp(cg->b, LLVMIntNE,
			LLVMBuildAnd(cg->b, cs, cg_i64(cg, 3), ""), cg_i64(cg, 0), "");
		return i == 0 ? LLVMBuildSelect(cg->b, user, cg_i64(cg, 0), ip, "")
			      : LLVMBuildSelect(cg->b, user, ip, cg_i64(cg, 0), "");
	}
	case PK_PROC:
		return cg_proc_arg(cg, i);
	case PK_PID_ENTRY:
	case PK_PID_RETURN:
		return cg_pid_arg(cg, i);
	case PK_USDT:
		return cg_usdt_arg(cg, i);
	case PK_ERROR:
		return cg_error_arg(cg, i);
	case PK_RAWTP:
	case PK_FBT_ENTRY: {
		/* BTF-typed context: the arguments as u64s; loading past the last
		 * one is refused by the verifier */
		struct probe *p = g->probes[0];
		return i < p->nfields ? ctx_u64(cg, 8 * (unsigned)i) : cg_i64(cg, 0);
	}
	case PK_FBT_RETURN: {
		/* arg0 would be the return instruction's offset: BPF doesn't know
		 * it; arg1 is the return value, after the arguments */
		struct probe *p = g->probes[0];
		bool has_ret = p->ftypes && p->ftypes[p->nfields]->kind != T_VOID;
		return i == 1 && has_ret ? ctx_u64(cg, 8 * (unsigned)p->nfields) : cg_i64(cg, 0);
	}
	case PK_SDT: {
		struct probe *p = g->probes[0];
		if (i >= p->nfields || p->ftypes[i]->size > 8)
			return cg_i64(cg, 0);
		LLVMValueRef tmp = cg_tmp64(cg);
		LLVMBuildStore(cg->b, cg_i64(cg, 0), tmp);
		LLVMValueRef o = cg_i64(cg, p->foffs[i]);
		LLVMValueRef src = LLVMBuildGEP2(cg->b, cg->i8, cg->p->ctx, &o, 1, "");
		cg_bpf_probe_read_kernel(cg, tmp, cg_i32(cg, p->ftypes[i]->size), src);
		return LLVMBuildLoad2(cg->b, cg->i64, tmp, "");
	}
	default:
		return cg_i64(cg, 0);
	}
}

/* stackdepth, ustackdepth (frames bpf_get_stack() copies into a buffer of
 * maxframes, node->ival) and caller, ucaller (the second of two frames, 0
 * when there is none). */
static LLVMValueRef stack_var(struct cg *cg, struct node *n)
{
	enum builtin_var id = (enum builtin_var)n->id;
	bool user = id == B_USTACKDEPTH || id == B_UCALLER;
	bool depth = id == B_STACKDEPTH || id == B_USTACKDEPTH;
	unsigned size = depth ? 8 * (unsigned)n->ival : 16;
	/* BEGIN and END fire in no kernel code of the traced system's (in
	 * DTrace, a probe in its own process): no kernel frames */
	enum probe_kind k = cg->p->grp->kind;
	if (!user && (k == PK_BEGIN || k == PK_END))
		return cg_i64(cg, 0);
	LLVMValueRef buf = cg_tmpbuf(cg, size);
	if (!depth)
		cg_memop(cg, "llvm.memset", buf, NULL, size);
	LLVMValueRef got = cg_bpf_get_stack(cg, cg->p->ctx, buf, cg_i32(cg, size),
					    user ? BPF_F_USER_STACK : 0);
	if (!depth) {
		LLVMValueRef o = cg_i64(cg, 8);
		LLVMValueRef at = LLVMBuildGEP2(cg->b, cg->i8, buf, &o, 1, "");
		return LLVMBuildLoad2(cg->b, cg->i64, at, "caller");
	}
	/* a failure (negative) is no frame */
	LLVMValueRef neg = LLVMBuildICmp(cg->b, LLVMIntSLT, got, cg_i64(cg, 0), "");
	got = LLVMBuildSelect(cg->b, neg, cg_i64(cg, 0), got, "");
	return LLVMBuildLShr(cg->b, got, cg_i64(cg, 3), "depth");
}

static struct cval builtin(struct cg *cg, struct node *n)
{
	struct type *t = n->type;
	LLVMValueRef v;
	struct cval cur = cg_proc_cur(cg, n); /* sched:::on-cpu's arriving task's */
	if (cur.v)
		return n->id == B_EXECNAME ? cur : ival(cg_norm(cg, cur.v, t), t);
	switch ((enum builtin_var)n->id) {
	case B_PID:
		v = LLVMBuildLShr(cg->b, cg_pid_tgid(cg), cg_i64(cg, 32), "");
		break;
	case B_TID:
		v = cg_pid_tgid(cg);
		break;
	case B_PPID:
		v = core_ppid(cg);
		break;
	case B_UID:
		v = cg_bpf_get_current_uid_gid(cg);
		break;
	case B_GID:
		v = LLVMBuildLShr(cg->b, cg_bpf_get_current_uid_gid(cg), cg_i64(cg, 32), "");
		break;
	case B_TIMESTAMP: {
		/* the clock is never 0 after boot */
		struct cval ts = ival(cg_norm(cg, cg_timestamp(cg), t), t);
		ts.nonzero = t->size == 8;
		return ts;
	}
	case B_WALLTIMESTAMP:
		/* the same instant as timestamp, on the wall clock */
		v = LLVMBuildAdd(cg->b, cg_timestamp(cg), volatile_load(cg, cg->ro_walloff),
				 "");
		break;
	case B_CPU:
		v = cg_bpf_get_smp_processor_id(cg);
		v = LLVMBuildZExt(cg->b, v, cg->i64, "");
		break;
	case B_EXECNAME: {
		/* zeroed first: some kernels (6.1) copy the comm's NUL and leave
		 * the rest of the buffer as it was, and compares, keys and records
		 * read all 16 bytes */
		LLVMValueRef p = cg_tmpbuf(cg, 16);
		cg_memop(cg, "llvm.memset", p, NULL, 16);
		cg_bpf_get_current_comm(cg, p, cg_i32(cg, 16));
		return strval(p, 16);
	}
	case B_PROBEPROV: case B_PROBEMOD: case B_PROBEFUNC: case B_PROBENAME:
		return probe_string(cg, (enum builtin_var)n->id);
	case B_ARG0: case B_ARG1: case B_ARG2: case B_ARG3: case B_ARG4:
	case B_ARG5: case B_ARG6: case B_ARG7: case B_ARG8: case B_ARG9:
		v = arg_value(cg, n->id - B_ARG0);
		break;
	case B_ERRNO:
		if (cg->p->grp->kind != PK_SYSCALL_RETURN) {
			v = cg_i64(cg, 0);
			break;
		}
		{
			LLVMValueRef ret = cg_syscall_ret(cg);
			LLVMValueRef neg = LLVMBuildNeg(cg->b, ret, "");
			LLVMValueRef isErr = LLVMBuildICmp(cg->b, LLVMIntULE,
				LLVMBuildSub(cg->b, neg, cg_i64(cg, 1), ""), cg_i64(cg, 4094), "");
			v = LLVMBuildSelect(cg->b, isErr, neg, cg_i64(cg, 0), "errno");
		}
		break;
	case B_TARGET:
		if (n->ival) {
			/* $pid...: one .rodata value each, made when first used */
			char name[32];
			snprintf(name, sizeof(name), DCC_RODATA_PROC "%s", n->str);
			LLVMValueRef g = LLVMGetNamedGlobal(cg->M, name);
			v = volatile_load(cg, g ? g : cg_rodata_u64(cg, name));
		} else {
			v = volatile_load(cg, cg->ro_target);
		}
		break;
	case B_CURTHREAD:
		v = cg_bpf_get_current_task(cg);
		break;
	case B_CURCPU:
		v = cg_curcpu(cg);
		break;
	case B_EPID:
		v = cg_i64(cg, (uint64_t)cg->p->epid);
		break;
	case B_ID:
		v = cg_probe_id(cg);
		break;
	case B_STACKDEPTH: case B_USTACKDEPTH: case B_CALLER: case B_UCALLER:
		v = stack_var(cg, n);
		break;
	default:
		diag_bug(cg->dg, n->loc, "builtin variable %d has no codegen", n->id);
	}
	return ival(cg_norm(cg, v, t), t);
}

/* Signed division and remainder: BPF v3 only divides unsigned. */
static LLVMValueRef divide(struct cg *cg, struct node *n, LLVMValueRef a, LLVMValueRef b,
			   bool rem, bool is_signed)
{
	LLVMBasicBlockRef zero = cg_block(cg, "div.zero"), ok = cg_block(cg, "div.ok");
	LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntEQ, b, cg_i64(cg, 0), ""), zero, ok);
	LLVMPositionBuilderAtEnd(cg->b, zero);
	cg_fault(cg, DCC_FAULT_DIVZERO, NULL);
	LLVMPositionBuilderAtEnd(cg->b, ok);
	(void)n;
	if (!is_signed)
		return rem ? LLVMBuildURem(cg->b, a, b, "") : LLVMBuildUDiv(cg->b, a, b, "");
	LLVMValueRef an = LLVMBuildICmp(cg->b, LLVMIntSLT, a, cg_i64(cg, 0), "");
	LLVMValueRef bn = LLVMBuildICmp(cg->b, LLVMIntSLT, b, cg_i64(cg, 0), "");
	LLVMValueRef aa = LLVMBuildSelect(cg->b, an, LLVMBuildNeg(cg->b, a, ""), a, "");
	LLVMValueRef ab = LLVMBuildSelect(cg->b, bn, LLVMBuildNeg(cg->b, b, ""), b, "");
	LLVMValueRef q = rem ? LLVMBuildURem(cg->b, aa, ab, "") : LLVMBuildUDiv(cg->b, aa, ab, "");
	LLVMValueRef neg = rem ? an : LLVMBuildXor(cg->b, an, bn, "");
	return LLVMBuildSelect(cg->b, neg, LLVMBuildNeg(cg->b, q, ""), q, "");
}

LLVMValueRef cg_arith(struct cg *cg, struct node *n, int op, LLVMValueRef a, LLVMValueRef b,
		      struct type *t)
{
	switch (op) {
	case '+': return LLVMBuildAdd(cg->b, a, b, "");
	case '-': return LLVMBuildSub(cg->b, a, b, "");
	case '*': return LLVMBuildMul(cg->b, a, b, "");
	case '/': return divide(cg, n, a, b, false, t->is_signed);
	case '%': return divide(cg, n, a, b, true, t->is_signed);
	case '&': return LLVMBuildAnd(cg->b, a, b, "");
	case '|': return LLVMBuildOr(cg->b, a, b, "");
	case '^': return LLVMBuildXor(cg->b, a, b, "");
	case OP_SHL: return LLVMBuildShl(cg->b, a, LLVMBuildAnd(cg->b, b, cg_i64(cg, 63), ""), "");
	case OP_SHR: {
		LLVMValueRef sh = LLVMBuildAnd(cg->b, b, cg_i64(cg, 63), "");
		return t->is_signed ? LLVMBuildAShr(cg->b, a, sh, "") : LLVMBuildLShr(cg->b, a, sh, "");
	}
	}
	return a;
}

static LLVMValueRef str_compare(struct cg *cg, int op, struct cval a, struct cval b)
{
	if (op == OP_EQ || op == OP_NE) {
		LLVMValueRef eq = cg_str_equal(cg, a, b);
		return op == OP_EQ ? eq : LLVMBuildNot(cg->b, eq, "");
	}
	LLVMValueRef c = cg_str_null_order(cg, a, b, cg_str_order(cg, a, b));
	LLVMIntPredicate p = op == '<' ? LLVMIntSLT : op == '>' ? LLVMIntSGT :
			     op == OP_LE ? LLVMIntSLE : LLVMIntSGE;
	return LLVMBuildICmp(cg->b, p, c, cg_i64(cg, 0), "");
}

static LLVMValueRef to_bool(struct cg *cg, struct cval v)
{
	return LLVMBuildICmp(cg->b, LLVMIntNE, v.v, cg_i64(cg, 0), "");
}

LLVMValueRef cg_cond(struct cg *cg, struct node *n)
{
	return to_bool(cg, cg_expr(cg, n));
}

static struct cval bool_val(struct cg *cg, LLVMValueRef i1)
{
	return ival(LLVMBuildZExt(cg->b, i1, cg->i64, ""), &type_int);
}

static struct cval logical(struct cg *cg, struct node *n)
{
	if (n->op == OP_LXOR) {
		LLVMValueRef a = cg_cond(cg, n->a), b = cg_cond(cg, n->b);
		return bool_val(cg, LLVMBuildXor(cg->b, a, b, ""));
	}
	LLVMValueRef a = cg_cond(cg, n->a);
	LLVMBasicBlockRef from = LLVMGetInsertBlock(cg->b);
	LLVMBasicBlockRef rhs = cg_block(cg, "logic.rhs"), done = cg_block(cg, "logic.done");
	if (n->op == OP_LAND)
		LLVMBuildCondBr(cg->b, a, rhs, done);
	else
		LLVMBuildCondBr(cg->b, a, done, rhs);
	LLVMPositionBuilderAtEnd(cg->b, rhs);
	cg->p->cond_depth++;
	LLVMValueRef b = cg_cond(cg, n->b);
	cg->p->cond_depth--;
	LLVMBasicBlockRef rhs_end = LLVMGetInsertBlock(cg->b);
	LLVMBuildBr(cg->b, done);
	LLVMPositionBuilderAtEnd(cg->b, done);
	LLVMValueRef phi = LLVMBuildPhi(cg->b, LLVMInt1TypeInContext(cg->C), "");
	LLVMValueRef vals[2] = { LLVMConstInt(LLVMInt1TypeInContext(cg->C), n->op == OP_LOR, 0), b };
	LLVMBasicBlockRef blocks[2] = { from, rhs_end };
	LLVMAddIncoming(phi, vals, blocks, 2);
	return bool_val(cg, phi);
}

static struct cval binop(struct cg *cg, struct node *n)
{
	switch (n->op) {
	case OP_LAND: case OP_LOR: case OP_LXOR:
		return logical(cg, n);
	}
	struct cval a = cg_expr(cg, n->a), b = cg_expr(cg, n->b);
	switch (n->op) {
	case '<': case '>': case OP_LE: case OP_GE: case OP_EQ: case OP_NE: {
		if (a.t->kind == T_STRING)
			return bool_val(cg, str_compare(cg, n->op, a, b));
		struct type *ct = type_arith(a.t, b.t);
		LLVMValueRef x = cg_norm(cg, a.v, ct), y = cg_norm(cg, b.v, ct);
		bool sg = ct->is_signed;
		LLVMIntPredicate p = n->op == '<' ? (sg ? LLVMIntSLT : LLVMIntULT)
			: n->op == '>' ? (sg ? LLVMIntSGT : LLVMIntUGT)
			: n->op == OP_LE ? (sg ? LLVMIntSLE : LLVMIntULE)
			: n->op == OP_GE ? (sg ? LLVMIntSGE : LLVMIntUGE)
			: n->op == OP_EQ ? LLVMIntEQ : LLVMIntNE;
		return bool_val(cg, LLVMBuildICmp(cg->b, p, x, y, ""));
	}
	}
	struct type *t = n->type;
	if (a.t->kind == T_PTR || b.t->kind == T_PTR) {
		/* scaled pointer arithmetic, and pointer - pointer in elements */
		if (a.t->kind == T_PTR && b.t->kind == T_PTR) {
			LLVMValueRef d = LLVMBuildSub(cg->b, a.v, b.v, "");
			unsigned k = type_stride(a.t);
			/* BPF divides unsigned only: a shift for the usual power of 2 */
			if (!(k & (k - 1)))
				return ival(LLVMBuildAShr(cg->b, d, cg_i64(cg, (unsigned)__builtin_ctz(k)),
							  ""), t);
			return ival(divide(cg, n, d, cg_i64(cg, k), false, true), t);
		}
		bool pa = a.t->kind == T_PTR;
		struct type *pt = pa ? a.t : b.t;
		LLVMValueRef i = LLVMBuildMul(cg->b, pa ? b.v : a.v, cg_i64(cg, type_stride(pt)), "");
		LLVMValueRef p = pa ? a.v : b.v;
		return ival(n->op == '-' ? LLVMBuildSub(cg->b, p, i, "") : LLVMBuildAdd(cg->b, p, i, ""),
			    t);
	}
	LLVMValueRef x = cg_norm(cg, a.v, t);
	LLVMValueRef y = (n->op == OP_SHL || n->op == OP_SHR) ? b.v : cg_norm(cg, b.v, t);
	return ival(cg_norm(cg, cg_arith(cg, n, n->op, x, y, t), t), t);
}

/* v.m and a[i]: a member of a struct variable, an element of an array
 * variable, stored in place through its address */
static bool in_place(struct node *lv)
{
	return lv->kind == N_MEMBER ||
	       (lv->kind == N_INDEX && !lv->sym && lv->id != B_ARGS && lv->id != B_UREGS);
}

static struct cval assign(struct cg *cg, struct node *n)
{
	struct node *lv = n->a;
	if (lv->kind == N_AGG) {
		cg_agg_update(cg, n);
		return ival(cg_i64(cg, 0), &type_void);
	}
	if (cg_is_pointer_store(lv))
		return cg_store(cg, n);
	if (in_place(lv))
		return cg_store_member(cg, n);
	if (lv->type && (lv->type->kind == T_STRUCT || lv->type->kind == T_UNION)) {
		/* a whole struct: copied from kernel memory or another variable;
		 * 0 (sema_zero_deletes) deletes a dynamic variable's */
		if (type_is_int(n->b->type)) {
			cg_var_delete(cg, lv);
			return ival(cg_i64(cg, 0), &type_void);
		}
		LLVMValueRef src = cg_addr(cg, n->b);
		LLVMValueRef dst = cg_var_addr(cg, lv);
		cg_bpf_probe_read_kernel(cg, dst, cg_i32(cg, lv->type->size), src);
		return ival(cg_i64(cg, 0), &type_void);
	}
	struct lref r = cg_lref(cg, lv);
	/* x op= e reads x before it evaluates e, as DTrace does: the value of
	 * `i += i++` is the old i plus the old i */
	struct cval cur = { 0 };
	if (n->op != '=')
		cur = cg_lref_load(cg, &r);
	struct cval val = cg_expr(cg, n->b);
	if (n->op != '=') {
		struct type *t = type_arith(cur.t, val.t);
		if (n->op == OP_SHL || n->op == OP_SHR)
			t = type_promote(cur.t);
		LLVMValueRef x = cg_norm(cg, cur.v, t);
		LLVMValueRef y = (n->op == OP_SHL || n->op == OP_SHR) ? val.v : cg_norm(cg, val.v, t);
		val = ival(cg_norm(cg, cg_arith(cg, n, n->op, x, y, t), t), t);
	}
	cg_lref_store(cg, &r, val);
	if (r.v->type->kind == T_STRING || (type_is_float(r.v->type) && r.v->type->size > 8))
		return cg_lref_load(cg, &r);
	return ival(cg_norm(cg, val.v, r.v->type), r.v->type);
}

static struct cval incdec(struct cg *cg, struct node *n)
{
	if (in_place(n->a)) {
		struct node one = { .kind = N_INT, .ival = 1, .type = &type_int };
		struct node as = { .kind = N_ASSIGN, .a = n->a, .b = &one, .loc = n->loc,
				   .op = (n->op == OP_PREINC || n->op == OP_POSTINC) ? '+' : '-' };
		LLVMValueRef before = cg_is_bitfield(n->a) ? cg_bitfield(cg, n->a).v
				      : cg_kread(cg, cg_addr(cg, n->a), n->a->type);
		struct cval after = cg_store_member(cg, &as);
		bool post = n->op == OP_POSTINC || n->op == OP_POSTDEC;
		return ival(post ? before : after.v, n->a->type);
	}
	struct lref r = cg_lref(cg, n->a);
	struct cval cur = cg_lref_load(cg, &r);
	struct type *t = r.v->type;
	bool inc = n->op == OP_PREINC || n->op == OP_POSTINC;
	LLVMValueRef step = cg_i64(cg, t->kind == T_PTR ? type_stride(t) : 1);
	LLVMValueRef nv = cg_norm(cg, inc ? LLVMBuildAdd(cg->b, cur.v, step, "")
					  : LLVMBuildSub(cg->b, cur.v, step, ""), t);
	cg_lref_store(cg, &r, ival(nv, t));
	bool post = n->op == OP_POSTINC || n->op == OP_POSTDEC;
	return ival(post ? cur.v : nv, t);
}

static struct cval cond(struct cg *cg, struct node *n)
{
	bool str = n->type->kind == T_STRING;
	/* two inet_ntop()-like values: the bytes of either, zero-padded */
	bool inet = n->type->kind == T_SYM && n->type->dkind == DCC_K_INET;
	/* Both string arms copy into one buffer, so the result has one cap;
	 * its address is taken before the branch to dominate both arms. */
	unsigned cap = str ? cg->strsize : inet ? (unsigned)n->type->size : 0;
	LLVMValueRef dst = str || inet ? cg_scratch(cg, cg_scratch_alloc(cg, cap)) : NULL;
	if (inet)
		cg_memop(cg, "llvm.memset", dst, NULL, cap);
	LLVMValueRef c = cg_cond(cg, n->a);
	LLVMBasicBlockRef starts[2] = { cg_block(cg, "cond.t"), cg_block(cg, "cond.f") };
	LLVMBasicBlockRef done = cg_block(cg, "cond.done");
	LLVMBuildCondBr(cg->b, c, starts[0], starts[1]);
	LLVMValueRef vals[2];
	LLVMBasicBlockRef ends[2];
	struct node *arms[2] = { n->b, n->c };
	cg->p->cond_depth++;
	for (int i = 0; i < 2; i++) {
		LLVMPositionBuilderAtEnd(cg->b, starts[i]);
		struct cval v = cg_expr(cg, arms[i]);
		if (str)
			cg_strcopy(cg, dst, cap, v);
		else if (inet)
			cg_memop(cg, "llvm.memcpy", dst, v.v, (unsigned)arms[i]->type->size);
		else
			vals[i] = cg_norm(cg, v.v, n->type);
		ends[i] = LLVMGetInsertBlock(cg->b);
		LLVMBuildBr(cg->b, done);
	}
	cg->p->cond_depth--;
	LLVMPositionBuilderAtEnd(cg->b, done);
	if (str)
		return strval(dst, cap);
	if (inet)
		return (struct cval){ .v = dst, .t = n->type, .cap = cap };
	LLVMValueRef phi = LLVMBuildPhi(cg->b, cg->i64, "");
	LLVMAddIncoming(phi, vals, ends, 2);
	return ival(phi, n->type);
}

/* stack(), ustack() and the symbol functions: raw PCs or addresses the
 * runtime symbolizes. Kernel sym()/mod() are the address itself; the user
 * ones and stacks are buffers (user ones start with the pid). */
struct cval cg_symbolic(struct cg *cg, struct node *n)
{
	struct type *t = n->type;
	if (t->kind == T_SYM && t->size == 8)
		return (struct cval){ .v = cg_expr(cg, n->list).v, .t = t };
	LLVMValueRef buf = cg_tmpbuf(cg, t->size);
	cg_memop(cg, "llvm.memset", buf, NULL, t->size);
	bool user = t->dkind != DCC_K_STACK;
	unsigned at = 0;
	if (user) {
		LLVMBuildStore(cg->b, LLVMBuildLShr(cg->b, cg_pid_tgid(cg), cg_i64(cg, 32), ""),
			       buf);
		at = 8;
	}
	LLVMValueRef o = cg_i64(cg, at);
	LLVMValueRef dst = LLVMBuildGEP2(cg->b, cg->i8, buf, &o, 1, "");
	enum probe_kind k = cg->p->grp->kind;
	if (t->kind == T_SYM) {
		LLVMBuildStore(cg->b, cg_expr(cg, n->list).v, dst);
	} else if (!user && (k == PK_BEGIN || k == PK_END)) {
		/* no kernel frames: see stack_var() */
	} else {
		cg_bpf_get_stack(cg, cg->p->ctx, dst, cg_i32(cg, t->size - at),
				 user ? BPF_F_USER_STACK : 0);
	}
	return (struct cval){ .v = buf, .t = t, .cap = t->size };
}

/* A scalar or float in kernel memory (member, element, dereference): a
 * float or double as the i64 of its bits, a long double as a 16-byte copy. */
static struct cval kernel_value(struct cg *cg, struct node *n)
{
	if (n->type->kind == T_STRING) {
		/* a string member of a D struct: its bytes, wherever the struct
		 * is, and the NUL after them that a full member has no room for */
		LLVMValueRef buf = cg_tmpbuf(cg, cg->strsize);
		if (cg->strsize > cg->strmember) {
			LLVMValueRef off = cg_i64(cg, cg->strmember);
			cg_memop(cg, "llvm.memset", LLVMBuildGEP2(cg->b, cg->i8, buf, &off, 1, ""),
				 NULL, cg->strsize - cg->strmember);
		}
		cg_bpf_probe_read_kernel(cg, buf, cg_i32(cg, cg->strmember), cg_addr(cg, n));
		return (struct cval){ .v = buf, .t = n->type, .cap = cg->strsize };
	}
	if (type_is_float(n->type) && n->type->size > 8) {
		LLVMValueRef buf = cg_tmpbuf(cg, n->type->size);
		cg_bpf_probe_read_kernel(cg, buf, cg_i32(cg, n->type->size), cg_addr(cg, n));
		return (struct cval){ .v = buf, .t = n->type, .cap = n->type->size };
	}
	if (!type_is_scalar(n->type) && !type_is_float(n->type)) {
		diag_bug(cg->dg, n->loc, "a value of type '%s' read as a scalar",
			 type_str(n->type));
	}
	if (cg_is_bitfield(n))
		return cg_bitfield(cg, n);
	if (n->scratch & SCR_PLACE)
		return cg_scratch_load(cg, n);
	return ival(cg_kread_or_fault(cg, cg_addr(cg, n), n->type), n->type);
}

struct cval cg_expr(struct cg *cg, struct node *n)
{
	switch (n->kind) {
	case N_INT:
		return ival(cg_norm(cg, cg_i64(cg, n->ival), n->type), n->type);
	case N_STR:
		return str_literal(cg, n->str, n->slen);
	case N_IDENT:
		if (n->sym)
			return cg_var_load(cg, n);
		return builtin(cg, n);
	case N_SELF:
	case N_THIS:
		return cg_var_load(cg, n);
	case N_INDEX:
		if (n->sym)
			return cg_var_load(cg, n);
		if (n->id == B_ARGS)
			return ival(cg_norm(cg, arg_value(cg, (int)n->ival), n->type), n->type);
		if (n->id == B_UREGS)
			return cg_uregs(cg, n);
		if (n->a->type->kind == T_STRING)
			return cg_str_index(cg, n);
		return kernel_value(cg, n);
	case N_MEMBER:
		return kernel_value(cg, n);
	case N_UNOP: {
		if (n->op == OP_PREINC || n->op == OP_PREDEC || n->op == OP_POSTINC ||
		    n->op == OP_POSTDEC)
			return incdec(cg, n);
		if (n->op == '*')
			return kernel_value(cg, n);
		if (n->op == '&') {
			cg->addr_of_elem = n->a;
			LLVMValueRef p = cg_addr(cg, n->a);
			cg->addr_of_elem = NULL;
			return ival(LLVMBuildPtrToInt(cg->b, p, cg->i64, ""), n->type);
		}
		struct cval a = cg_expr(cg, n->a);
		switch (n->op) {
		case '!':
			return bool_val(cg, LLVMBuildICmp(cg->b, LLVMIntEQ, a.v, cg_i64(cg, 0), ""));
		case '-':
			return ival(cg_norm(cg, LLVMBuildNeg(cg->b, cg_norm(cg, a.v, n->type), ""),
					    n->type), n->type);
		case '~':
			return ival(cg_norm(cg, LLVMBuildNot(cg->b, a.v, ""), n->type), n->type);
		default:
			return ival(cg_norm(cg, a.v, n->type), n->type);
		}
	}
	case N_BINOP:
		return binop(cg, n);
	case N_ASSIGN:
		return assign(cg, n);
	case N_COND:
		return cond(cg, n);
	case N_COMMA:
		cg_expr(cg, n->a);
		return cg_expr(cg, n->b);
	case N_CAST: {
		if (n->b->type->kind == T_ARRAY) /* (T *)array: its address */
			return ival(LLVMBuildPtrToInt(cg->b, cg_addr(cg, n->b), cg->i64, ""), n->type);
		struct cval v = cg_expr(cg, n->b);
		if (n->b->type->kind == T_STRING && n->type->kind == T_PTR) /* its bytes' address */
			return ival(LLVMBuildPtrToInt(cg->b, v.v, cg->i64, ""), n->type);
		if (n->type->kind == T_STRING) /* sema's NULL string, or a string */
			return n->b->type->kind == T_STRING ? v : cg_str_null(cg);
		return ival(cg_norm(cg, v.v, n->type), n->type);
	}
	case N_STRINGOF:
		if (n->a->type->kind == T_STRING)
			return cg_expr(cg, n->a);
		if (n->a->type->kind == T_SYM && n->a->type->dkind == DCC_K_INET)
			return cg_inet_string(cg, cg_expr(cg, n->a));
		return cg_kstring(cg, n->a);
	case N_CALL:
		if (n->bi && cg_builtin_hook(n->bi))
			return cg_builtin_hook(n->bi)(cg, n);
		__attribute__((fallthrough)); /* sema lets no other call be a value */
	default:
		diag_bug(cg->dg, n->loc, "codegen cannot compute the value of this expression");
	}
}

unsigned cg_str_cap(struct cg *cg, struct node *n)
{
	size_t len;
	switch (n->kind) {
	case N_STR:
		len = n->slen < cg->strlen_max ? n->slen : cg->strlen_max;
		return (unsigned)((len + 1 + 7) & ~(size_t)7);
	case N_IDENT:
		if (n->sym)
			return cg->strsize;
		if (n->id == B_EXECNAME)
			return 16;
		if (n->id >= B_PROBEPROV && n->id <= B_PROBENAME) {
			/* the widest literal any group of the clause may use, or
			 * a row of the syscall name table */
			unsigned cap = 32;
			for (int g = 0; g < cg->ci->ngroups; g++)
				for (int i = 0; i < cg->ci->groups[g].nprobes; i++) {
					struct probe *p = cg->ci->groups[g].probes[i];
					const char *f[4] = { p->prov, p->mod, p->func, p->name };
					unsigned c = (unsigned)(strlen(f[n->id - B_PROBEPROV]) + 8) &
						     ~7u;
					cap = c > cap ? c : cap;
				}
			return cap < cg->strsize ? cap : cg->strsize;
		}
		return cg->strsize;
	case N_STRINGOF:
		if (n->a->type->kind == T_SYM && n->a->type->dkind == DCC_K_INET)
			return cg->strmax + 1 < 64 ? (cg->strmax + 1 + 7) & ~7u : 64;
		if (n->a->type->kind == T_ARRAY && n->a->type->nelem < cg->strsize)
			return (unsigned)(n->a->type->nelem + 7) & ~7u;
		if (n->a->type->kind != T_STRING)
			return cg->strsize;
		return cg_str_cap(cg, n->a);
	case N_CAST:
		return n->b->type->kind == T_STRING ? cg_str_cap(cg, n->b) : 8;
	case N_COMMA:
		return cg_str_cap(cg, n->b);
	case N_CALL:
		if (n->ival && n->ival + 1 < cg->strsize)
			return (unsigned)(n->ival + 1 + 7) & ~7u;
		return cg->strsize;
	default:
		return cg->strsize;
	}
}
