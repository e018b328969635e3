/*
 * The subroutines sema_subr.c checks -> IR: alloca() memory in the clause's
 * scratch, bcopy() and copyinto() into it (a destination outside the
 * scratch the clause has allocated so far raises DTrace's invalid address
 * error), the byte-order conversions as byte swaps (x86-64 is
 * little-endian), rand(), progenyof() as a bounded walk up the
 * real_parent chain, getmajor()/getminor() as the kernel's MAJOR()/MINOR(),
 * and the inet functions and link_ntop() as a 24- or 32-byte value (form,
 * address bytes) the runtime formats.
 */
#include <string.h>

#include <dcc/abi.h>
#include "cg.h"
#include "cg_bpf.h"
#include "diag.h"

/* how many ancestors progenyof() looks at before answering 0 */
#define PROGENY_DEPTH 64

static struct node *arg(struct node *n, int i)
{
	struct node *a = n->list;
	while (a && i--)
		a = a->next;
	return a;
}

/* an address argument: an array stands for its address */
static LLVMValueRef addr_arg(struct cg *cg, struct node *a)
{
	if (a->type->kind == T_ARRAY)
		return LLVMBuildPtrToInt(cg->b, cg_addr(cg, a), cg->i64, "");
	return cg_expr(cg, a).v;
}

static struct cval ival(LLVMValueRef v, struct type *t)
{
	return (struct cval){ .v = v, .t = t };
}

/* alloca(size): zeroed scratch memory for the rest of the clause;
 * alloca(0) takes none and gives the address the next one would */
static struct cval alloca_(struct cg *cg, struct node *n)
{
	unsigned size = (unsigned)n->ival;
	LLVMValueRef p = cg_scratch(cg, cg_alloca_alloc(cg, n, size));
	if (size)
		cg_memop(cg, "llvm.memset", p, NULL, (size + 7) & ~7u);
	return ival(cg_launder(cg, LLVMBuildPtrToInt(cg->b, p, cg->i64, "")), n->type);
}

/* bcopy(src, dst, size) and copyinto(uaddr, size, dst): dst must lie in the
 * scratch this clause allocated before the call (alloca(), copyin()), so
 * its offset there is checked and the write goes through the scratch
 * pointer at that bounded offset. The arguments are evaluated in the order
 * they are written; a string source is its buffer's address. */
static struct cval copy_into(struct cg *cg, struct node *n)
{
	bool user = n->bi->id == BI_COPYINTO, runtime = n->ival == SUBR_SIZE_RUNTIME;
	struct node *sa = arg(n, 0), *za = arg(n, user ? 1 : 2), *da = arg(n, user ? 2 : 1);
	LLVMValueRef src = sa->type->kind == T_STRING
		? LLVMBuildPtrToInt(cg->b, cg_expr(cg, sa).v, cg->i64, "") : addr_arg(cg, sa);
	LLVMValueRef size = user && runtime ? cg_expr(cg, za).v : NULL;
	LLVMValueRef dst = addr_arg(cg, da);
	if (!user && runtime)
		size = cg_expr(cg, za).v;
	enum bpf_func_id helper = user ? BPF_FUNC_probe_read_user : BPF_FUNC_probe_read_kernel;
	if (runtime) {
		if (sa->scratch & SCR_VALUE)
			cg_scratch_check_n(cg, src, &size, DCC_FAULT_BADSIZE);
		LLVMValueRef p = cg_scratch_check_n(cg, dst, &size, DCC_FAULT_BADADDR);
		LLVMValueRef n32 = LLVMBuildTrunc(cg->b, size, cg->i32, "");
		LLVMValueRef from = LLVMBuildIntToPtr(cg->b, src, cg->ptr, "");
		LLVMValueRef rc = cg_bpf_probe_read(cg, helper, p, n32, from);
		cg_fault_if(cg, LLVMBuildICmp(cg->b, LLVMIntSLT, rc, cg_i64(cg, 0), ""),
			    DCC_FAULT_BADADDR, src);
		return ival(cg_i64(cg, 0), n->type);
	}
	uint32_t nbytes = (uint32_t)n->ival;
	unsigned room = cg->p->alloca_top;
	if (room < nbytes) /* sema_scratch_room() counted less */
		diag_bug(cg->dg, n->loc, "%s() copies %u bytes, the clause's scratch has %u",
			 n->name, nbytes, room);
	/* a source in alloca() memory must lie there whole, as DTrace checks */
	if (sa->scratch & SCR_VALUE)
		cg_scratch_check(cg, src, nbytes, DCC_FAULT_BADSIZE);
	LLVMValueRef p = cg_scratch_check(cg, dst, nbytes, DCC_FAULT_BADADDR);
	cg_read_or_fault(cg, helper, p, nbytes, src);
	return ival(cg_i64(cg, 0), n->type);
}

static LLVMValueRef intrinsic1(struct cg *cg, const char *name, LLVMTypeRef t, LLVMValueRef v)
{
	unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
	LLVMValueRef fn = LLVMGetIntrinsicDeclaration(cg->M, id, &t, 1);
	LLVMTypeRef fty = LLVMIntrinsicGetType(cg->C, id, &t, 1);
	return LLVMBuildCall2(cg->b, fty, fn, &v, 1, "");
}

/* htons() ... ntohll(): network order is big-endian, the host little-endian */
static struct cval byteorder(struct cg *cg, struct node *n)
{
	unsigned bits = n->type->size * 8;
	LLVMValueRef v = cg_expr(cg, n->list).v;
	if (bits == 64)
		return ival(intrinsic1(cg, "llvm.bswap", cg->i64, v), n->type);
	LLVMTypeRef t = LLVMIntTypeInContext(cg->C, bits);
	v = intrinsic1(cg, "llvm.bswap", t, LLVMBuildTrunc(cg->b, v, t, ""));
	return ival(LLVMBuildZExt(cg->b, v, cg->i64, ""), n->type);
}

/* progenyof(pid): 1 if the current process (on-cpu's: the arriving one) or
 * one of its first PROGENY_DEPTH ancestors has that pid (tgid); the walk
 * ends at the task that is its own parent (the idle task). */
static struct cval progenyof(struct cg *cg, struct node *n)
{
	LLVMValueRef pid = LLVMBuildTrunc(cg->b, cg_expr(cg, n->list).v, cg->i32, "");
	cg_task_type(cg);
	LLVMValueRef task = LLVMBuildIntToPtr(cg->b, cg_cur_task(cg), cg->ptr, "task");
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(cg->b), loop = cg_block(cg, "progeny.loop");
	LLVMBasicBlockRef up = cg_block(cg, "progeny.up"), next = cg_block(cg, "progeny.next");
	LLVMBasicBlockRef done = cg_block(cg, "progeny.done");
	LLVMBuildBr(cg->b, loop);

	LLVMPositionBuilderAtEnd(cg->b, loop);
	LLVMValueRef t = LLVMBuildPhi(cg->b, cg->ptr, "t");
	LLVMValueRef i = LLVMBuildPhi(cg->b, cg->i64, "i");
	LLVMValueRef tgid = cg_kread(cg, cg_preserve_access(cg, t, cg->ppid_ir, cg->ppid_di, 2),
				     &type_int);
	LLVMValueRef hit = LLVMBuildICmp(cg->b, LLVMIntEQ, LLVMBuildTrunc(cg->b, tgid, cg->i32, ""),
					 pid, "");
	LLVMBuildCondBr(cg->b, hit, done, up);

	LLVMPositionBuilderAtEnd(cg->b, up);
	LLVMValueRef pv = cg_kread(cg, cg_preserve_access(cg, t, cg->ppid_ir, cg->ppid_di, 1),
				   &type_ulong);
	LLVMValueRef parent = LLVMBuildIntToPtr(cg->b, pv, cg->ptr, "parent");
	LLVMValueRef i1 = LLVMBuildAdd(cg->b, i, cg_i64(cg, 1), "");
	LLVMValueRef end = LLVMBuildOr(cg->b,
		LLVMBuildICmp(cg->b, LLVMIntEQ, pv, cg_i64(cg, 0), ""),
		LLVMBuildICmp(cg->b, LLVMIntEQ, pv, LLVMBuildPtrToInt(cg->b, t, cg->i64, ""), ""),
		"");
	LLVMBuildCondBr(cg->b, end, done, next);

	LLVMPositionBuilderAtEnd(cg->b, next);
	LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntUGE, i1, cg_i64(cg, PROGENY_DEPTH), ""),
			done, loop);

	LLVMValueRef tin[2] = { task, parent }, iin[2] = { cg_i64(cg, 0), i1 };
	LLVMBasicBlockRef from[2] = { pre, next };
	LLVMAddIncoming(t, tin, from, 2);
	LLVMAddIncoming(i, iin, from, 2);

	LLVMPositionBuilderAtEnd(cg->b, done);
	LLVMValueRef r = LLVMBuildPhi(cg->b, cg->i64, "");
	LLVMValueRef rv[3] = { cg_i64(cg, 1), cg_i64(cg, 0), cg_i64(cg, 0) };
	LLVMBasicBlockRef rb[3] = { loop, up, next };
	LLVMAddIncoming(r, rv, rb, 3);
	return ival(r, n->type);
}

/* getmajor(dev), getminor(dev): a kernel dev_t is 12 bits of major above
 * 20 bits of minor (MINORBITS in linux/kdev_t.h) */
static struct cval devpart(struct cg *cg, struct node *n)
{
	LLVMValueRef dev = cg_expr(cg, n->list).v;
	if (n->bi->id == BI_GETMINOR)
		return ival(LLVMBuildAnd(cg->b, dev, cg_i64(cg, 0xfffff), ""), n->type);
	dev = LLVMBuildAnd(cg->b, dev, cg_i64(cg, 0xffffffff), "");
	return ival(LLVMBuildLShr(cg->b, dev, cg_i64(cg, 20), ""), n->type);
}

/* inet_ntoa(p), inet_ntoa6(p[, strict]), inet_ntop(af, p): the form word, then the
 * address bytes read from kernel memory (scratch included). inet_ntop()
 * of a family other than AF_INET (2) or AF_INET6 (10) is DTrace's illegal
 * operation error. */
static struct cval inet(struct cg *cg, struct node *n)
{
	bool ntop = n->bi->id == BI_INET_NTOP;
	LLVMValueRef buf = cg_tmpbuf(cg, 24);
	cg_memop(cg, "llvm.memset", buf, NULL, 24);
	LLVMValueRef eight = cg_i64(cg, 8);
	LLVMValueRef bytes = LLVMBuildGEP2(cg->b, cg->i8, buf, &eight, 1, "");
	if (!ntop) {
		bool v4 = n->bi->id == BI_INET_NTOA;
		LLVMValueRef p = addr_arg(cg, n->list);
		/* inet_ntoa6(p, strict): strict (n->ival) writes as inet_ntop() */
		int form = v4 ? DCC_INET_4 : n->ival ? DCC_INET_6 : DCC_INET_6A;
		LLVMBuildStore(cg->b, cg_i64(cg, form), buf);
		cg_read_or_fault(cg, BPF_FUNC_probe_read_kernel, bytes, v4 ? 4 : 16, p);
		return (struct cval){ .v = buf, .t = n->type, .cap = 24 };
	}
	LLVMValueRef af = LLVMBuildTrunc(cg->b, cg_expr(cg, n->list).v, cg->i32, "");
	LLVMValueRef p = addr_arg(cg, arg(n, 1));
	LLVMBasicBlockRef b4 = cg_block(cg, "inet.4"), b6 = cg_block(cg, "inet.6");
	LLVMBasicBlockRef bad = cg_block(cg, "inet.af"), done = cg_block(cg, "inet.done");
	LLVMValueRef sw = LLVMBuildSwitch(cg->b, af, bad, 2);
	LLVMAddCase(sw, cg_i32(cg, 2), b4);
	LLVMAddCase(sw, cg_i32(cg, 10), b6);
	LLVMPositionBuilderAtEnd(cg->b, bad);
	cg_fault(cg, DCC_FAULT_ILLOP, NULL);
	for (int v4 = 1; v4 >= 0; v4--) {
		LLVMPositionBuilderAtEnd(cg->b, v4 ? b4 : b6);
		LLVMBuildStore(cg->b, cg_i64(cg, v4 ? DCC_INET_4 : DCC_INET_6), buf);
		cg_read_or_fault(cg, BPF_FUNC_probe_read_kernel, bytes, v4 ? 4 : 16, p);
		LLVMBuildBr(cg->b, done);
	}
	LLVMPositionBuilderAtEnd(cg->b, done);
	return (struct cval){ .v = buf, .t = n->type, .cap = 24 };
}

/* link_ntop(type, p): the form word, then 6 (ARPHRD_ETHER, 1) or 20
 * (ARPHRD_INFINIBAND, 32) address bytes; another type is the empty string,
 * as in DTrace for Linux. The read faults as inet_ntop()'s does. */
static struct cval link_ntop(struct cg *cg, struct node *n)
{
	LLVMValueRef buf = cg_tmpbuf(cg, 32);
	cg_memop(cg, "llvm.memset", buf, NULL, 32);
	LLVMValueRef eight = cg_i64(cg, 8);
	LLVMValueRef bytes = LLVMBuildGEP2(cg->b, cg->i8, buf, &eight, 1, "");
	LLVMValueRef type = LLVMBuildTrunc(cg->b, cg_expr(cg, n->list).v, cg->i32, "");
	LLVMValueRef p = addr_arg(cg, arg(n, 1));
	LLVMBasicBlockRef be = cg_block(cg, "link.ether"), bi = cg_block(cg, "link.ib");
	LLVMBasicBlockRef none = cg_block(cg, "link.none"), done = cg_block(cg, "link.done");
	LLVMValueRef sw = LLVMBuildSwitch(cg->b, type, none, 2);
	LLVMAddCase(sw, cg_i32(cg, 1), be);
	LLVMAddCase(sw, cg_i32(cg, 32), bi);
	LLVMPositionBuilderAtEnd(cg->b, none);
	LLVMBuildStore(cg->b, cg_i64(cg, DCC_INET_LINK_NONE), buf);
	LLVMBuildBr(cg->b, done);
	for (int ib = 0; ib < 2; ib++) {
		LLVMPositionBuilderAtEnd(cg->b, ib ? bi : be);
		LLVMBuildStore(cg->b, cg_i64(cg, ib ? DCC_INET_IB : DCC_INET_ETHER), buf);
		cg_read_or_fault(cg, BPF_FUNC_probe_read_kernel, bytes, ib ? 20 : 6, p);
		LLVMBuildBr(cg->b, done);
	}
	LLVMPositionBuilderAtEnd(cg->b, done);
	return (struct cval){ .v = buf, .t = n->type, .cap = 32 };
}

struct cval cg_subr(struct cg *cg, struct node *n)
{
	switch (n->bi->id) {
	case BI_ALLOCA:
		return alloca_(cg, n);
	case BI_BCOPY:
	case BI_COPYINTO:
		return copy_into(cg, n);
	case BI_HTONS: case BI_HTONL: case BI_HTONLL: case BI_NTOHS: case BI_NTOHL:
	case BI_NTOHLL:
		return byteorder(cg, n);
	case BI_RAND: {
		LLVMValueRef r = cg_bpf_get_prandom_u32(cg);
		return ival(cg_norm(cg, r, n->type), n->type);
	}
	case BI_PROGENYOF:
		return progenyof(cg, n);
	case BI_GETMAJOR:
	case BI_GETMINOR:
		return devpart(cg, n);
	case BI_LINK_NTOP:
		return link_ntop(cg, n);
	default:
		return inet(cg, n);
	}
}
