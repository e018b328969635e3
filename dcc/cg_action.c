/*
 * Clause bodies: the predicate, then one ring-buffer record per firing for
 * clauses that record data (printf, trace, exit, printa, the default
 * action), laid out at compile time and described in the metadata; other
 * statements are plain expressions.
 */
#include <stdio.h>
#include <string.h>

#include <dcc/abi.h>
#include "arena.h"
#include "cg.h"
#include "diag.h"

#define BPF_RB_NO_WAKEUP 1
#define BPF_RB_FORCE_WAKEUP 2

enum { H_SMP_ID = 8, H_RB_RESERVE = 131, H_RB_SUBMIT = 132, H_RB_QUERY = 134 };

static bool is_action(struct node *n, const char *name)
{
	return n->kind == N_CALL && n->name && !strcmp(n->name, name);
}

static bool records(struct node *st)
{
	return is_action(st, "printf") || is_action(st, "trace") || is_action(st, "exit") ||
	       is_action(st, "printa");
}

static unsigned arg_slot(struct cg *cg, struct node *a, uint32_t *size, uint16_t *kind)
{
	if (a->type->kind == T_STRING) {
		*size = cg_str_cap(cg, a);
		*kind = DCC_K_STRING;
		return *size;
	}
	*size = a->type->size;
	*kind = DCC_K_INT;
	return 8;
}

/* Give each data action's arguments their record offsets (kept in the call
 * node's id: the offset of its first argument) and describe them. */
int cg_clause_layout(struct cg *cg, struct clause_info *ci)
{
	struct node *c = ci->n;
	bool any = c->ival || !c->b;
	for (struct node *st = c->b; st; st = st->next)
		any |= records(st);
	ci->epid = 0;
	if (!any)
		return 0;
	cg->ci = ci;
	unsigned off = sizeof(struct dcc_rec_hdr);
	/* sizes first: the clause entry needs the record size */
	for (struct node *st = c->b; st; st = st->next) {
		if (!records(st) || is_action(st, "printa"))
			continue;
		st->id = (int)off;
		for (struct node *a = is_action(st, "printf") ? st->list->next : st->list; a;
		     a = a->next) {
			uint32_t size;
			uint16_t kind;
			off += arg_slot(cg, a, &size, &kind);
		}
	}
	char loc[256];
	snprintf(loc, sizeof(loc), "%s:%u:%u", cg->src_name, c->loc.line, c->loc.col);
	uint32_t epid = meta_clause(cg->meta, off, loc);
	if (c->ival || !c->b)
		meta_action(cg->meta, DCC_ACT_DEFAULT, NULL);
	for (struct node *st = c->b; st; st = st->next) {
		if (!records(st))
			continue;
		if (is_action(st, "printa")) {
			struct node *a = st->list;
			const char *fmt = NULL;
			if (a->kind == N_STR) {
				fmt = a->str;
				a = a->next;
			}
			meta_action(cg->meta, DCC_ACT_PRINTA, fmt);
			for (; a; a = a->next)
				meta_arg(cg->meta, (uint32_t)((struct agg *)a->sym)->id, 0, DCC_K_AGG,
					 false, "");
			continue;
		}
		struct node *a = st->list;
		if (is_action(st, "printf")) {
			meta_action(cg->meta, DCC_ACT_PRINTF, a->str);
			a = a->next;
		} else {
			meta_action(cg->meta, is_action(st, "trace") ? DCC_ACT_TRACE : DCC_ACT_EXIT,
				    NULL);
		}
		unsigned aoff = (unsigned)st->id;
		for (; a; a = a->next) {
			uint32_t size;
			uint16_t kind;
			unsigned slot = arg_slot(cg, a, &size, &kind);
			meta_arg(cg->meta, aoff, size, kind, a->type->is_signed, a->type->name);
			aoff += slot;
		}
	}
	ci->epid = epid;
	ci->rec_size = off;
	return 0;
}

static LLVMValueRef rec_ptr(struct cg *cg, unsigned off)
{
	LLVMValueRef o = cg_i64(cg, off);
	return LLVMBuildGEP2(cg->b, cg->i8, cg->rec, &o, 1, "");
}

static void store_arg(struct cg *cg, struct node *a, unsigned off)
{
	struct cval v = cg_expr(cg, a);
	if (a->type->kind == T_STRING)
		cg_strcopy(cg, rec_ptr(cg, off), cg_str_cap(cg, a), v);
	else
		LLVMBuildStore(cg->b, v.v, rec_ptr(cg, off));
}

static void action(struct cg *cg, struct node *st)
{
	if (is_action(st, "printa"))
		return; /* the runtime prints it when the record arrives */
	unsigned off = (unsigned)st->id;
	struct node *a = is_action(st, "printf") ? st->list->next : st->list;
	for (; a; a = a->next) {
		store_arg(cg, a, off);
		if (a->type->kind == T_STRING)
			off += cg_str_cap(cg, a);
		else
			off += 8;
	}
}

static bool has_exit(struct node *c)
{
	for (struct node *st = c->b; st; st = st->next)
		if (is_action(st, "exit"))
			return true;
	return false;
}

static void reserve(struct cg *cg, uint32_t epid)
{
	unsigned size = cg->ci->rec_size;
	LLVMTypeRef pt[3] = { cg->ptr, cg->i64, cg->i64 };
	LLVMValueRef args[3] = { cg_map_ref(cg, cg->m_ringbuf), cg_i64(cg, size), cg_i64(cg, 0) };
	cg->rec = cg_helper(cg, H_RB_RESERVE, cg->ptr, pt, 3, args);
	LLVMBasicBlockRef full = cg_block(cg, "rb.full"), ok = cg_block(cg, "rb.ok");
	LLVMBuildCondBr(cg->b, LLVMBuildIsNull(cg->b, cg->rec, ""), full, ok);
	LLVMPositionBuilderAtEnd(cg->b, full);
	cg_count_drop(cg, DCC_DROP_PRINCIPAL);
	LLVMBuildRet(cg->b, cg_i32(cg, 0));
	LLVMPositionBuilderAtEnd(cg->b, ok);
	LLVMBuildStore(cg->b, cg_i32(cg, epid), rec_ptr(cg, 0));
	LLVMBuildStore(cg->b, LLVMBuildTrunc(cg->b, cg_probe_id(cg), cg->i32, ""), rec_ptr(cg, 4));
	LLVMBuildStore(cg->b, cg_helper(cg, H_SMP_ID, cg->i32, NULL, 0, NULL), rec_ptr(cg, 8));
	LLVMBuildStore(cg->b, cg_i32(cg, 0), rec_ptr(cg, 12));
}

/* Wake the consumer only for exit() or when the buffer is half full: the
 * consumer drains at switchrate, and per-record wakeups cost ~4 us. */
static void submit(struct cg *cg)
{
	LLVMValueRef flags;
	if (has_exit(cg->ci->n) || cg->grp->kind == PK_BEGIN || cg->grp->kind == PK_END) {
		flags = cg_i64(cg, BPF_RB_FORCE_WAKEUP);
	} else {
		LLVMTypeRef qt[2] = { cg->ptr, cg->i64 };
		LLVMValueRef qa[2] = { cg_map_ref(cg, cg->m_ringbuf), cg_i64(cg, 0) };
		LLVMValueRef avail = cg_helper(cg, H_RB_QUERY, cg->i64, qt, 2, qa);
		LLVMValueRef big = LLVMBuildICmp(cg->b, LLVMIntUGT, avail,
						 cg_i64(cg, cg->ringbuf_size / 2), "");
		flags = LLVMBuildSelect(cg->b, big, cg_i64(cg, BPF_RB_FORCE_WAKEUP),
					cg_i64(cg, BPF_RB_NO_WAKEUP), "");
	}
	LLVMTypeRef pt[2] = { cg->ptr, cg->i64 };
	LLVMValueRef args[2] = { cg->rec, flags };
	cg_helper(cg, H_RB_SUBMIT, cg->void_t, pt, 2, args);
}

void cg_clause_body(struct cg *cg)
{
	struct node *c = cg->ci->n;
	uint32_t epid = cg->ci->epid;
	cg->epid = (int)epid;
	if (c->a) {
		cg_set_loc(cg, c->a->loc);
		LLVMValueRef p = cg_cond(cg, c->a);
		LLVMBasicBlockRef yes = cg_block(cg, "pred.true"), no = cg_block(cg, "pred.false");
		LLVMBuildCondBr(cg->b, p, yes, no);
		LLVMPositionBuilderAtEnd(cg->b, no);
		LLVMBuildRet(cg->b, cg_i32(cg, 0));
		LLVMPositionBuilderAtEnd(cg->b, yes);
	}
	cg->rec = NULL;
	if (epid) {
		cg_set_loc(cg, c->loc);
		reserve(cg, epid);
	}
	for (struct node *st = c->b; st; st = st->next) {
		cg_set_loc(cg, st->loc);
		if (st->kind == N_EMPTY)
			continue;
		if (records(st))
			action(cg, st);
		else
			cg_expr(cg, st);
	}
	if (cg->rec)
		submit(cg);
	LLVMBuildRet(cg->b, cg_i32(cg, 0));
	cg->rec = NULL;
}
