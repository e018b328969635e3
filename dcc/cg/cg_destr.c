/*
 * tracemem() and the destructive actions -> BPF. tracemem() copies its
 * bytes into the clause's record; system(), freopen() and ftruncate() are
 * record actions laid out like printf() whose work the consumer does;
 * raise() and stop() send a signal to the current process, copyout() and
 * copyoutstr() write the traced process's memory; these three record
 * nothing. A copy that faults raises DTrace's invalid address error.
 */
#include <signal.h>
#include <string.h>

#include <dcc/abi.h>
#include "cg.h"
#include "cg_bpf.h"
#include "cg_meta.h"

static unsigned round8(uint64_t n)
{
	return (unsigned)((n + 7) & ~7ull);
}

/* tracemem(addr, n[, dyn]): n bytes, then dyn's 8-byte slot. */
unsigned cg_tracemem_size(struct node *st)
{
	return round8(st->ival) + (st->list->next->next ? 8 : 0);
}

void cg_tracemem_meta(struct cg *cg, struct node *st, unsigned off)
{
	struct node *dyn = st->list->next->next;
	cg_meta_arg(cg->meta, off, (uint32_t)st->ival, DCC_K_BYTES, false, "void");
	if (dyn)
		cg_meta_arg(cg->meta, off + round8(st->ival), dyn->type->size, DCC_K_INT,
			    dyn->type->is_signed, dyn->type->name);
}

void cg_tracemem(struct cg *cg, struct node *st, unsigned off)
{
	struct node *dyn = st->list->next->next;
	LLVMValueRef addr = cg_expr(cg, st->list).v, o = cg_i64(cg, off);
	LLVMValueRef dst = LLVMBuildGEP2(cg->b, cg->i8, cg->p->rec, &o, 1, "");
	cg_read_or_fault(cg, BPF_FUNC_probe_read_kernel, dst, (uint32_t)st->ival, addr);
	if (dyn) {
		o = cg_i64(cg, off + round8(st->ival));
		LLVMBuildStore(cg->b, cg_expr(cg, dyn).v,
			       LLVMBuildGEP2(cg->b, cg->i8, cg->p->rec, &o, 1, ""));
	}
}

static void send_signal(struct cg *cg, LLVMValueRef sig)
{
	cg_bpf_send_signal(cg, LLVMBuildTrunc(cg->b, sig, cg->i32, ""));
}

static void write_user(struct cg *cg, LLVMValueRef uaddr, LLVMValueRef src, uint64_t n)
{
	LLVMValueRef dst = LLVMBuildIntToPtr(cg->b, uaddr, cg->ptr, "");
	LLVMValueRef rc = cg_bpf_probe_write_user(cg, dst, src, cg_i32(cg, (uint32_t)n));

	cg_fault_if(cg, LLVMBuildICmp(cg->b, LLVMIntSLT, rc, cg_i64(cg, 0), ""), DCC_FAULT_BADADDR,
		    uaddr);
}

/* copyout(src, uaddr, n): the n bytes at src go through scratch memory,
 * which the write helper accepts as its source. */
static void copyout(struct cg *cg, struct node *st)
{
	struct node *src = st->list, *ua = src->next;
	LLVMValueRef from = cg_expr(cg, src).v, uaddr = cg_expr(cg, ua).v;
	LLVMValueRef buf = cg_scratch(cg, cg_scratch_alloc(cg, round8(st->ival)));
	cg_read_or_fault(cg, BPF_FUNC_probe_read_kernel, buf, (uint32_t)st->ival, from);
	write_user(cg, uaddr, buf, st->ival);
}

/* copyoutstr(s, uaddr, n): the string and its NUL, at most n bytes. The
 * write has a constant size, so the buffer starts as the n bytes already
 * there: those after the NUL are written back unchanged. */
static void copyoutstr(struct cg *cg, struct node *st)
{
	struct node *src = st->list, *ua = src->next;
	struct cval s = cg_expr(cg, src);
	LLVMValueRef uaddr = cg_expr(cg, ua).v;
	LLVMValueRef buf = cg_scratch(cg, cg_scratch_alloc(cg, round8(st->ival)));
	cg_read_or_fault(cg, BPF_FUNC_probe_read_user, buf, (uint32_t)st->ival, uaddr);
	uint64_t n = s.cap && s.cap < st->ival ? s.cap : st->ival;
	cg_bpf_probe_read_kernel_str(cg, buf, cg_i32(cg, (uint32_t)n), s.v);
	write_user(cg, uaddr, buf, st->ival);
}

struct cval cg_destr(struct cg *cg, struct node *st)
{
	switch (st->bi->id) {
	case BI_RAISE:
		send_signal(cg, cg_expr(cg, st->list).v);
		break;
	case BI_STOP:
		send_signal(cg, cg_i64(cg, SIGSTOP));
		break;
	case BI_COPYOUT:
		copyout(cg, st);
		break;
	default:
		copyoutstr(cg, st);
		break;
	}
	return (struct cval){ 0 };
}
