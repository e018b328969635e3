/*
 * Clause bodies: the predicate, then at most one ring-buffer record per
 * firing holding every data-recording action of the clause (printf, trace,
 * exit, printa, clear, trunc, normalize, denormalize, setopt, commit,
 * discard, the default action), laid out at compile time and described in
 * the metadata; other statements are plain expressions. Also run-time fault
 * records and speculation.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dcc/abi.h>
#include <dcc/abi_names.h>
#include "arena.h"
#include "cg.h"
#include "cg_bpf.h"
#include "cg_meta.h"
#include "diag.h"

/* The record action kind of a statement (its registry row's), 0 if it
 * records nothing. */
static uint32_t record_kind(struct node *st)
{
	return st->kind == N_CALL && st->bi ? st->bi->rec : 0;
}

/* Actions whose first argument is a printf format. */
static bool has_fmt(uint32_t kind)
{
	return kind == DCC_ACT_PRINTF || kind == DCC_ACT_PRINTA || kind == DCC_ACT_SYSTEM ||
	       kind == DCC_ACT_FREOPEN;
}

/* Arguments that take record space: not formats, not aggregations. */
static bool is_value_arg(uint32_t kind, struct node *st, struct node *a)
{
	if (a->kind == N_AGG)
		return false;
	if (kind == DCC_ACT_SETOPT) /* a computed value */
		return a != st->list && a->kind != N_STR;
	if (has_fmt(kind) && a == st->list && a->kind == N_STR)
		return false;
	return true;
}

/* A value recorded as its bytes: a struct, or an array that is not a
 * string's; trace() records a char array's bytes too, which DTrace for
 * Linux dumps rather than reading them as a string. */
static bool is_bytes(uint32_t kind, struct node *a)
{
	return type_is_aggregate(a->type) &&
	       (!type_is_stringish(a->type) || (kind == DCC_ACT_TRACE && a->type->kind == T_ARRAY));
}

static unsigned slot_size(struct cg *cg, uint32_t kind, struct node *a)
{
	if (is_bytes(kind, a))
		return (a->type->size + 7) & ~7u;
	if (type_is_symbolic(a->type) || type_is_float(a->type))
		return (a->type->size + 7) & ~7u;
	return a->type->kind == T_STRING ? cg_str_cap(cg, a) : 8;
}

static const char *action_fmt(struct cg *cg, uint32_t kind, struct node *st)
{
	if (kind == DCC_ACT_SETOPT)
		return st->list->next && st->list->next->kind == N_STR ? arena_printf(cg->ar, "%s=%s", st->list->str,
						     st->list->next->str)
				      : st->list->str;
	if (has_fmt(kind) && st->list && st->list->kind == N_STR)
		return st->list->str;
	return NULL;
}

/* Every clause gets an epid (fault records name it); a clause with data
 * actions also gets its record layout: each action's value arguments get
 * offsets (cl->off holds the first one's, per statement). */
void cg_clause_layout(struct cg *cg, struct clause_info *ci, struct cg_clause *cl)
{
	struct node *c = ci->n;
	cg->ci = ci;
	bool dflt = c->ival || !c->b;
	cl->records = dflt;
	int nst = 0;
	for (struct node *st = c->b; st; st = st->next)
		nst++;
	cl->off = arena_alloc(cg->ar, sizeof(*cl->off) * (size_t)(nst + 1));
	unsigned off = sizeof(struct dcc_rec_hdr);
	int k = 0;
	for (struct node *st = c->b; st; st = st->next, k++) {
		/* a speculating clause records even with no data: its record
		 * (a probe line, when committed) is what speculate() fills */
		if (st->kind == N_CALL && st->bi && st->bi->id == BI_SPECULATE)
			cl->records = true;
		/* so does every other action, as in DTrace: raise(), stop() and
		 * copyout() record nothing, but their firing prints its probe line */
		if (st->kind == N_CALL && st->bi && st->bi->kind == BK_ACTION)
			cl->records = true;
		uint32_t kind = record_kind(st);
		if (!kind)
			continue;
		cl->records = true;
		cl->off[k] = off;
		if (kind == DCC_ACT_TRACEMEM)
			off += cg_tracemem_size(st);
		else if (kind == DCC_ACT_PRINT)
			off += cg_print_size(cg, st);
		else for (struct node *a = st->list; a; a = a->next)
			if (is_value_arg(kind, st, a))
				off += slot_size(cg, kind, a);
	}
	char loc[256];
	snprintf(loc, sizeof(loc), "%s:%u:%u", cg->src_name, c->loc.line, c->loc.col);
	cl->epid = cg_meta_clause(cg->meta, off, loc);
	cl->rec_size = off;
	if (dflt)
		cg_meta_action(cg->meta, DCC_ACT_DEFAULT, NULL);
	k = 0;
	for (struct node *st = c->b; st; st = st->next, k++) {
		uint32_t kind = record_kind(st);
		if (!kind)
			continue;
		cg_meta_action(cg->meta, kind, action_fmt(cg, kind, st));
		unsigned aoff = cl->off[k];
		if (kind == DCC_ACT_TRACEMEM)
			cg_tracemem_meta(cg, st, aoff);
		else if (kind == DCC_ACT_PRINT)
			cg_print_meta(cg, st, aoff);
		else for (struct node *a = st->list; a; a = a->next) {
			if (a->kind == N_AGG) {
				cg_meta_arg(cg->meta, (uint32_t)((struct agg *)a->sym)->id, 0,
					    DCC_K_AGG, false, "");
			} else if (is_value_arg(kind, st, a) && is_bytes(kind, a)) {
				cg_meta_arg(cg->meta, aoff, a->type->size, DCC_K_BYTES, false,
					    a->type->name);
				aoff += slot_size(cg, kind, a);
			} else if (is_value_arg(kind, st, a) && type_is_symbolic(a->type)) {
				cg_meta_arg(cg->meta, aoff, a->type->size, (uint16_t)a->type->dkind,
					    false, a->type->name);
				aoff += slot_size(cg, kind, a);
			} else if (is_value_arg(kind, st, a) && type_is_float(a->type)) {
				cg_meta_arg(cg->meta, aoff, a->type->size, DCC_K_FLOAT, true,
					    a->type->name);
				aoff += slot_size(cg, kind, a);
			} else if (is_value_arg(kind, st, a)) {
				bool str = a->type->kind == T_STRING;
				cg_meta_arg(cg->meta, aoff, str ? cg_str_cap(cg, a) : a->type->size,
					    str ? DCC_K_STRING : DCC_K_INT, a->type->is_signed,
					    a->type->name);
				aoff += slot_size(cg, kind, a);
			}
		}
	}
}

static LLVMValueRef rec_ptr(struct cg *cg, LLVMValueRef rec, unsigned off)
{
	LLVMValueRef o = cg_i64(cg, off);
	return LLVMBuildGEP2(cg->b, cg->i8, rec, &o, 1, "");
}

/* .bss's drop counters, u64 [DCC_DROPS_NCPU][DCC_DROP_NR], made at the first site */
static LLVMValueRef drops_global(struct cg *cg)
{
	if (cg->g_drops)
		return cg->g_drops;
	uint64_t n = (uint64_t)DCC_DROPS_NCPU * DCC_DROP_NR;
	LLVMTypeRef t = LLVMArrayType2(LLVMArrayType2(cg->i64, DCC_DROP_NR), DCC_DROPS_NCPU);
	cg->g_drops = LLVMAddGlobal(cg->M, t, DCC_BSS_DROPS);
	LLVMSetInitializer(cg->g_drops, LLVMConstNull(t));
	LLVMSetAlignment(cg->g_drops, 64);
	LLVMSetLinkage(cg->g_drops, LLVMExternalLinkage);
	cg_global_di(cg, cg->g_drops, DCC_BSS_DROPS, cg_di_array(cg, cg->di_u64, 64, n));
	cg_add_used(cg, cg->g_drops);
	return cg->g_drops;
}

/* The runtime reports drops of these kinds per CPU ("N drops on CPU C"); the
 * others it sums over CPUs, so they all count in CPU 0's row: one add to a
 * constant address, no CPU number and no index. */
static bool per_cpu_kind(int which)
{
	return which == DCC_DROP_PRINCIPAL || which == DCC_DROP_AGG;
}

void cg_count_drop(struct cg *cg, int which)
{
	if (per_cpu_kind(which)) {
		cg_count_drop_kind(cg, cg_i32(cg, (uint32_t)which));
		return;
	}
	LLVMValueRef g = drops_global(cg);
	LLVMValueRef idx[3] = { cg_i64(cg, 0), cg_i64(cg, 0), cg_i64(cg, (uint64_t)which) };
	LLVMValueRef p = LLVMBuildGEP2(cg->b, LLVMGlobalGetValueType(g), g, idx, 3, "drop.ctr");
	LLVMBuildAtomicRMW(cg->b, LLVMAtomicRMWBinOpAdd, p, cg_i64(cg, 1),
			   LLVMAtomicOrderingMonotonic, 0);
}

/* One atomic add to this CPU's counter of the kind: no map lookup (a per-CPU
 * array's was ~10 instructions more a site). The kernel inlines
 * bpf_get_smp_processor_id() on x86-64; the mask bounds the index for the
 * verifier, and CPUs past DCC_DROPS_NCPU share a row (the runtime says so).
 * cpu: the helper's result when the caller has it, else NULL. */
static void count_drop_at(struct cg *cg, LLVMValueRef cpu, LLVMValueRef kind)
{
	if (!cpu)
		cpu = cg_bpf_get_smp_processor_id64(cg);
	cpu = LLVMBuildAnd(cg->b, cpu, cg_i64(cg, DCC_DROPS_NCPU - 1), "");
	LLVMValueRef g = drops_global(cg);
	LLVMValueRef idx[3] = { cg_i64(cg, 0), cpu, LLVMBuildZExt(cg->b, kind, cg->i64, "") };
	LLVMValueRef p = LLVMBuildGEP2(cg->b, LLVMGlobalGetValueType(g), g, idx, 3, "drop.ctr");
	LLVMBuildAtomicRMW(cg->b, LLVMAtomicRMWBinOpAdd, p, cg_i64(cg, 1),
			   LLVMAtomicOrderingMonotonic, 0);
}

void cg_count_drop_kind(struct cg *cg, LLVMValueRef kind)
{
	count_drop_at(cg, NULL, kind);
}

/* Count a drop of kind which and leave the program through one block a
 * program, whose phi takes the kind: each site costs a branch. */
void cg_drop_leave(struct cg *cg, int which)
{
	struct cg_prog *p = cg->p;
	LLVMBasicBlockRef here = LLVMGetInsertBlock(cg->b);
	if (!p->drop_leave) {
		p->drop_leave = cg_block(cg, "drop.leave");
		LLVMPositionBuilderAtEnd(cg->b, p->drop_leave);
		p->drop_kind = LLVMBuildPhi(cg->b, cg->i32, "drop.kind");
		cg_count_drop_kind(cg, p->drop_kind);
		LLVMBuildRet(cg->b, cg_i32(cg, 0));
		LLVMPositionBuilderAtEnd(cg->b, here);
	}
	LLVMValueRef k = cg_i32(cg, (uint32_t)which);
	LLVMAddIncoming(p->drop_kind, &k, &here, 1);
	LLVMBuildBr(cg->b, p->drop_leave);
}

/* Reserve a record and write its header; on a full buffer count a drop and
 * leave the clause. The clause's record (own) reads the CPU, which the header
 * records, before the reservation: when the full buffer is the program's only
 * drop, it counts at that CPU without a second read (three instructions once
 * inlined, against a register move), in a block finish_drops() fills once
 * the whole program is known. */
static LLVMValueRef reserve(struct cg *cg, unsigned size, uint32_t flags, bool own)
{
	LLVMValueRef cpu = own ? cg_bpf_get_smp_processor_id64(cg) : NULL;
	LLVMValueRef rec = cg_bpf_ringbuf_reserve(cg, cg_map_ref(cg, cg->m_ringbuf), size, 0);
	LLVMBasicBlockRef full = cg_block(cg, "rb.full"), ok = cg_block(cg, "rb.ok");
	LLVMBuildCondBr(cg->b, LLVMBuildIsNull(cg->b, rec, ""), full, ok);
	if (own) {
		cg->p->rb_full = full;
		cg->p->rb_cpu = cpu;
	} else {
		LLVMPositionBuilderAtEnd(cg->b, full);
		cg_drop_leave(cg, DCC_DROP_PRINCIPAL);
		cpu = NULL;
	}
	LLVMPositionBuilderAtEnd(cg->b, ok);
	if (!cpu)
		cpu = cg_bpf_get_smp_processor_id64(cg);
	/* epid and a constant probe id: two stores of an immediate (a 64-bit
	 * one is two instructions and its store a third) */
	LLVMValueRef probe = cg_probe_id(cg);
	cg_bpf_store_imm(cg, rec, 0, 4, (int32_t)cg->cl->epid);
	if (LLVMIsAConstantInt(probe))
		cg_bpf_store_imm(cg, rec, 4, 4, (int32_t)LLVMConstIntGetZExtValue(probe));
	else
		LLVMBuildStore(cg->b, LLVMBuildTrunc(cg->b, probe, cg->i32, ""),
			       rec_ptr(cg, rec, 4));
	/* cpu and flags 0 in one 8-byte store (the record is 8-aligned); other
	 * flags are a 32-bit store of an immediate */
	if (!flags) {
		LLVMBuildStore(cg->b, cpu, rec_ptr(cg, rec, 8));
	} else {
		LLVMBuildStore(cg->b, LLVMBuildTrunc(cg->b, cpu, cg->i32, ""), rec_ptr(cg, rec, 8));
		cg_bpf_store_imm(cg, rec, 12, 4, (int32_t)flags);
	}
	return rec;
}

/* The clause record's full-buffer block: its own count at the CPU already
 * read when nothing else in the program drops, else the shared block. */
static void finish_drops(struct cg *cg)
{
	struct cg_prog *p = cg->p;
	if (!p->rb_full)
		return;
	LLVMBasicBlockRef here = LLVMGetInsertBlock(cg->b);
	LLVMPositionBuilderAtEnd(cg->b, p->rb_full);
	if (p->drop_leave) {
		cg_drop_leave(cg, DCC_DROP_PRINCIPAL);
	} else {
		count_drop_at(cg, p->rb_cpu, cg_i32(cg, DCC_DROP_PRINCIPAL));
		LLVMBuildRet(cg->b, cg_i32(cg, 0));
	}
	p->rb_full = NULL;
	LLVMPositionBuilderAtEnd(cg->b, here);
}

static void submit(struct cg *cg, LLVMValueRef rec, bool wake)
{
	LLVMValueRef flags;
	if (wake) {
		flags = cg_i64(cg, BPF_RB_FORCE_WAKEUP);
	} else {
		/* Wake the consumer only when the buffer is half full: it drains
		 * at switchrate, and a wakeup per record costs ~4 us. */
		LLVMValueRef avail = cg_bpf_ringbuf_query(cg, cg_map_ref(cg, cg->m_ringbuf),
							  BPF_RB_AVAIL_DATA);
		LLVMValueRef big = LLVMBuildICmp(cg->b, LLVMIntUGT, avail,
						 cg_i64(cg, cg->ringbuf_size / 2), "");
		flags = LLVMBuildSelect(cg->b, big, cg_i64(cg, BPF_RB_FORCE_WAKEUP),
					cg_i64(cg, BPF_RB_NO_WAKEUP), "");
	}
	cg_bpf_ringbuf_submit(cg, rec, flags);
}

static bool wakes(struct clause_info *ci);

/* Whether the clause's record wakes the consumer when submitted. */
static bool clause_wakes(struct cg *cg)
{
	enum probe_kind k = cg->p->grp->kind;
	return wakes(cg->ci) || k == PK_BEGIN || k == PK_END || k == PK_ERROR;
}

/* Branch to the block that submits the clause record and returns, made at
 * its first use: the clause's end and a fault written into its record
 * share it (the submission and its wakeup test are then in the program
 * once). */
static void submit_and_return(struct cg *cg)
{
	struct cg_prog *p = cg->p;
	if (!p->rec_tail) {
		LLVMBasicBlockRef here = LLVMGetInsertBlock(cg->b);
		p->rec_tail = cg_block(cg, "submit");
		LLVMPositionBuilderAtEnd(cg->b, p->rec_tail);
		submit(cg, p->rec, clause_wakes(cg));
		LLVMBuildRet(cg->b, cg_i32(cg, 0));
		LLVMPositionBuilderAtEnd(cg->b, here);
	}
	LLVMBuildBr(cg->b, p->rec_tail);
}

void cg_leave(struct cg *cg)
{
	if (cg->p->rec)
		cg_bpf_ringbuf_discard(cg, cg->p->rec, 0);
	LLVMBuildRet(cg->b, cg_i32(cg, 0));
}

/*
 * The block that turns the clause's record into a fault record of kind
 * fault and submits it, one a kind a program, made at its first use: each
 * fault site branches to it with its detail (a phi). The stores of an
 * immediate are inline asm, which LLVM does not merge across sites as it
 * did plain stores.
 */
static void fault_into_record(struct cg *cg, uint32_t fault, LLVMValueRef detail)
{
	struct cg_prog *p = cg->p;
	unsigned hdr = sizeof(struct dcc_rec_hdr);
	unsigned k = fault;
	LLVMBasicBlockRef here = LLVMGetInsertBlock(cg->b);
	if (!p->fault_tail[k]) {
		p->fault_tail[k] = cg_block(cg, "fault.rec");
		LLVMPositionBuilderAtEnd(cg->b, p->fault_tail[k]);
		p->fault_detail[k] = LLVMBuildPhi(cg->b, cg->i64, "fault.detail");
		/* the record's header names the same clause, probe and CPU:
		 * the flag, then fault and pc 0 (little-endian) in one 8-byte
		 * store, and the detail */
		cg_bpf_store_imm(cg, p->rec, 12, 4, DCC_REC_F_FAULT);
		cg_bpf_store_imm(cg, p->rec, hdr, 8, (int32_t)fault);
		LLVMBuildStore(cg->b, p->fault_detail[k], rec_ptr(cg, p->rec, hdr + 8));
		if (!cg->nerr_fns) {
			/* submitted as the record would have been, by the same
			 * instructions (the consumer reads it at switchrate, as
			 * any record): 3 fewer than a forced wakeup of its own */
			submit_and_return(cg);
		} else {
			submit(cg, p->rec, true);
			cg_error_call(cg, fault, p->fault_detail[k]);
			LLVMBuildRet(cg->b, cg_i32(cg, 0));
		}
		LLVMPositionBuilderAtEnd(cg->b, here);
	}
	LLVMValueRef d = detail ? detail : cg_i64(cg, 0);
	LLVMAddIncoming(p->fault_detail[k], &d, &here, 1);
	LLVMBuildBr(cg->b, p->fault_tail[k]);
}

/* A fault record of its own, reserved, written and submitted with a wakeup
 * by one block a kind a program (as fault_into_record()'s) */
static void fault_record(struct cg *cg, uint32_t fault, LLVMValueRef detail)
{
	struct cg_prog *p = cg->p;
	unsigned hdr = sizeof(struct dcc_rec_hdr);
	LLVMBasicBlockRef here = LLVMGetInsertBlock(cg->b);
	if (!p->fault_own_tail[fault]) {
		LLVMValueRef saved = p->rec;
		p->fault_own_tail[fault] = cg_block(cg, "fault.own");
		LLVMPositionBuilderAtEnd(cg->b, p->fault_own_tail[fault]);
		LLVMValueRef d = LLVMBuildPhi(cg->b, cg->i64, "fault.detail");
		p->fault_own_detail[fault] = d;
		p->rec = NULL;
		LLVMValueRef rec = reserve(cg, hdr + sizeof(struct dcc_rec_fault), DCC_REC_F_FAULT,
					   false);
		/* fault and pc 0 (little-endian) in one 8-byte store */
		cg_bpf_store_imm(cg, rec, hdr, 8, (int32_t)fault);
		LLVMBuildStore(cg->b, d, rec_ptr(cg, rec, hdr + 8));
		submit(cg, rec, true);
		cg_error_call(cg, fault, d);
		LLVMBuildRet(cg->b, cg_i32(cg, 0));
		p->rec = saved;
		LLVMPositionBuilderAtEnd(cg->b, here);
	}
	LLVMValueRef d = detail ? detail : cg_i64(cg, 0);
	LLVMAddIncoming(p->fault_own_detail[fault], &d, &here, 1);
	LLVMBuildBr(cg->b, p->fault_own_tail[fault]);
}

void cg_fault(struct cg *cg, uint32_t fault, LLVMValueRef detail)
{
	unsigned hdr = sizeof(struct dcc_rec_hdr);
	LLVMValueRef saved = cg->p->rec;
	assert(fault < DCC_FAULT_KINDS);
	if (saved && cg->p->grp->kind != PK_ERROR &&
	    cg->cl->rec_size >= hdr + sizeof(struct dcc_rec_fault)) {
		/* the clause's record becomes the fault record (the consumer
		 * reads its first bytes): no discard, no second reservation */
		fault_into_record(cg, fault, detail);
		return;
	}
	if (saved)
		cg_bpf_ringbuf_discard(cg, saved, 0);
	if (cg->p->grp->kind == PK_ERROR) {
		/* a fault in an ERROR clause only counts: reporting it would
		 * fire ERROR again */
		cg_drop_leave(cg, DCC_DROP_ERROR);
		return;
	}
	fault_record(cg, fault, detail);
}

void cg_fault_if(struct cg *cg, LLVMValueRef bad, uint32_t fault, LLVMValueRef detail)
{
	LLVMBasicBlockRef fb = cg_block(cg, "fault"), ok = cg_block(cg, "ok");

	LLVMBuildCondBr(cg->b, bad, fb, ok);
	LLVMPositionBuilderAtEnd(cg->b, fb);
	cg_fault(cg, fault, detail);
	LLVMPositionBuilderAtEnd(cg->b, ok);
}

LLVMValueRef cg_read_or_fault(struct cg *cg, enum bpf_func_id helper, LLVMValueRef dst,
			      uint32_t size, LLVMValueRef src)
{
	LLVMValueRef from = LLVMBuildIntToPtr(cg->b, src, cg->ptr, "");
	LLVMValueRef rc = cg_bpf_probe_read(cg, helper, dst, cg_i32(cg, size), from);

	cg_fault_if(cg, LLVMBuildICmp(cg->b, LLVMIntSLT, rc, cg_i64(cg, 0), ""), DCC_FAULT_BADADDR,
		    src);
	return rc;
}

static void store_arg(struct cg *cg, uint32_t kind, struct node *a, unsigned off)
{
	if (is_bytes(kind, a)) {
		/* a fault leaves zeros: the record was zeroed by probe_read */
		LLVMValueRef dst = rec_ptr(cg, cg->p->rec, off);
		cg_bpf_probe_read_kernel(cg, dst, cg_i32(cg, a->type->size), cg_addr(cg, a));
		return;
	}
	if (kind == DCC_ACT_PRINTF && a->type->kind == T_STRING &&
	    cg_str_into(cg, a, rec_ptr(cg, cg->p->rec, off), cg_str_cap(cg, a), false))
		return;
	struct cval v = cg_expr(cg, a);
	/* DTrace records a string by reading it from its address, and the
	 * NULL string's is 0: trace(), printf() and the other actions fault */
	if (a->type->kind == T_STRING)
		cg_str_notnull(cg, a, v);
	if (a->type->kind == T_STRING)
		cg_strcopy(cg, rec_ptr(cg, cg->p->rec, off), cg_str_cap(cg, a), v);
	else if ((type_is_symbolic(a->type) || type_is_float(a->type)) && v.cap)
		cg_memop(cg, "llvm.memcpy", rec_ptr(cg, cg->p->rec, off), v.v, a->type->size);
	else
		LLVMBuildStore(cg->b, v.v, rec_ptr(cg, cg->p->rec, off));
}

/* st's record values, from offset off */
static void action(struct cg *cg, struct node *st, uint32_t kind, unsigned off)
{
	if (kind == DCC_ACT_TRACEMEM)
		cg_tracemem(cg, st, off);
	else if (kind == DCC_ACT_PRINT)
		cg_print(cg, st, off);
	else for (struct node *a = st->list; a; a = a->next) {
		if (!is_value_arg(kind, st, a))
			continue;
		store_arg(cg, kind, a, off);
		off += slot_size(cg, kind, a);
	}
	if (kind == DCC_ACT_COMMIT || kind == DCC_ACT_DISCARD)
		cg_spec_release(cg, st->list);
	if (kind == DCC_ACT_EXIT && cg->g_phase)
		LLVMBuildStore(cg->b, cg_i64(cg, DCC_PHASE_EXITED), cg->g_phase);
}

static bool wakes(struct clause_info *ci)
{
	for (struct node *st = ci->n->b; st; st = st->next)
		if (cg_is_exit(st))
			return true;
	return false;
}

void cg_clause_body(struct cg *cg)
{
	struct node *c = cg->ci->n;
	cg->p->epid = (int)cg->cl->epid;
	/* As DTrace's activity state: no probe fires before BEGIN is done, and
	 * after exit() nothing but END (and ERROR) records, at once rather than
	 * when the consumer reacts: the later clauses of the same firing, BEGIN's
	 * included, do not run either. */
	enum probe_kind pk = cg->p->grp->kind;
	if (cg->g_phase && pk != PK_END && pk != PK_ERROR) {
		LLVMValueRef ph = LLVMBuildLoad2(cg->b, cg->i64, cg->g_phase, "phase");
		LLVMBasicBlockRef go = cg_block(cg, "live"), stop = cg_block(cg, "stopped");
		LLVMValueRef live = pk == PK_BEGIN
			? LLVMBuildICmp(cg->b, LLVMIntNE, ph, cg_i64(cg, DCC_PHASE_EXITED), "")
			: LLVMBuildICmp(cg->b, LLVMIntEQ, ph, cg_i64(cg, DCC_PHASE_TRACING), "");
		LLVMBuildCondBr(cg->b, live, go, stop);
		LLVMPositionBuilderAtEnd(cg->b, stop);
		LLVMBuildRet(cg->b, cg_i32(cg, 0));
		LLVMPositionBuilderAtEnd(cg->b, go);
	}
	if (c->a) {
		cg_set_loc(cg, c->a->loc);
		LLVMValueRef p = cg_cond(cg, c->a);
		LLVMBasicBlockRef yes = cg_block(cg, "pred.true"), no = cg_block(cg, "pred.false");
		LLVMBuildCondBr(cg->b, p, yes, no);
		LLVMPositionBuilderAtEnd(cg->b, no);
		LLVMBuildRet(cg->b, cg_i32(cg, 0));
		LLVMPositionBuilderAtEnd(cg->b, yes);
	}
	cg->p->rec = NULL;
	cg->p->rec_tail = NULL;
	cg->p->spec_id = NULL;
	if (cg->cl->records) {
		cg_set_loc(cg, c->loc);
		cg->p->rec = reserve(cg, cg->cl->rec_size, 0, true);
	}
	int k = 0;
	for (struct node *st = c->b; st; st = st->next, k++) {
		cg_set_loc(cg, st->loc);
		uint32_t kind = record_kind(st);
		if (st->kind == N_EMPTY)
			continue;
		if (kind)
			action(cg, st, kind, cg->cl->off[k]);
		else if (st->kind == N_CALL && st->bi && st->bi->kind == BK_ACTION)
			cg_builtin_hook(st->bi)(cg, st);
		else
			cg_expr(cg, st);
	}
	if (cg->p->rec && !cg->p->spec_id) {
		submit_and_return(cg);
	} else {
		if (cg->p->rec)
			cg_spec_submit(cg, clause_wakes(cg));
		LLVMBuildRet(cg->b, cg_i32(cg, 0));
	}
	cg->p->rec = NULL;
	cg->p->rec_tail = NULL;
	finish_drops(cg);
}

void cg_submit(struct cg *cg, LLVMValueRef rec, bool wake)
{
	submit(cg, rec, wake);
}
