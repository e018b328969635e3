/*
 * print(x): records the value (a struct, union or array as its bytes, cut
 * at DCC_PRINT_MAX, read with bpf_probe_read_kernel into the record) and
 * describes its type in the metadata's type table (abi.h), which the
 * runtime walks to print it as DTrace for Linux does.
 */
#include <string.h>

#include <dcc/abi.h>
#include "cg.h"
#include "cg_bpf.h"
#include "cg_meta.h"

static bool is_mem(const struct type *t)
{
	return type_is_aggregate(t) && t->kind != T_STRING;
}

static unsigned rec_bytes(const struct type *t)
{
	return t->size < DCC_PRINT_MAX ? t->size : DCC_PRINT_MAX;
}

/* print(p) of a pointer to a struct: the pointer, then *p (sema_print.c) */
static struct node *value_arg(struct node *st)
{
	return st->list->next ? st->list->next : st->list;
}

unsigned cg_print_size(struct cg *cg, struct node *st)
{
	const struct type *t = value_arg(st)->type;
	if (st->list->next)
		return 8 + ((rec_bytes(t) + 7) & ~7u);
	if (is_mem(t))
		return (rec_bytes(t) + 7) & ~7u;
	if (type_is_float(t))
		return (t->size + 7) & ~7u;
	return t->kind == T_STRING ? cg_str_cap(cg, st->list) : 8;
}

static bool is_char(const struct type *t)
{
	return t->size == 1 && (!strcmp(t->name, "char") || !strcmp(t->name, "signed char"));
}

/* The type's index in the table, made after every type it refers to. */
/* strsize: a string member's bytes, in place in its struct */
static uint32_t type_index(struct cg_meta *m, const struct type *t, int depth, unsigned strsize)
{
	int64_t have = cg_meta_type_find(m, t);
	if (have >= 0)
		return (uint32_t)have;
	struct dcc_meta_type mt = { .size = t->size, .name = cg_meta_str(m, t->name) };
	switch (t->kind) {
	case T_INT:
		mt.kind = t->nenums || t->enum_tag ? DCC_TYPE_ENUM : DCC_TYPE_INT;
		mt.flags = (t->is_signed ? DCC_TYPE_F_SIGNED : 0) |
			   (is_char(t) ? DCC_TYPE_F_CHAR : 0);
		if (mt.kind == DCC_TYPE_ENUM) {
			mt.first = cg_meta_nmembers(m);
			mt.n = (uint32_t)t->nenums;
			for (int i = 0; i < t->nenums; i++) {
				struct dcc_meta_member e = {
					.name = cg_meta_str(m, t->enum_names[i]),
					.value = t->enum_vals[i],
				};
				cg_meta_member_add(m, &e);
			}
		}
		break;
	case T_PTR:
		mt.kind = DCC_TYPE_PTR;
		break;
	case T_STRING:
		mt.kind = DCC_TYPE_STRING;
		mt.size = strsize;
		break;
	case T_FLOAT:
		mt.kind = DCC_TYPE_FLOAT;
		break;
	case T_ARRAY:
		if (depth > 32 || !t->ref) {
			mt.kind = DCC_TYPE_OPAQUE;
			break;
		}
		mt.kind = DCC_TYPE_ARRAY;
		mt.ref = type_index(m, t->ref, depth + 1, strsize);
		mt.n = (uint32_t)t->nelem;
		break;
	case T_STRUCT:
	case T_UNION: {
		mt.kind = t->kind == T_STRUCT ? DCC_TYPE_STRUCT : DCC_TYPE_UNION;
		if (!t->tag)
			mt.name = cg_meta_str(m, t->kind == T_STRUCT ? "struct" : "union");
		if (depth > 32)
			break;
		uint32_t idx[t->nmembers ? t->nmembers : 1];
		for (int i = 0; i < t->nmembers; i++)
			idx[i] = type_index(m, t->members[i].type, depth + 1, strsize);
		mt.first = cg_meta_nmembers(m);
		mt.n = (uint32_t)t->nmembers;
		for (int i = 0; i < t->nmembers; i++) {
			const struct member *mb = &t->members[i];
			struct dcc_meta_member e = { .name = cg_meta_str(m, mb->name),
						     .type = idx[i],
						     .bit_off = (uint32_t)mb->bit_off,
						     .bit_size = mb->bit_size };
			cg_meta_member_add(m, &e);
		}
		break;
	}
	default:
		mt.kind = DCC_TYPE_OPAQUE;
		break;
	}
	return cg_meta_type_add(m, t, &mt);
}

void cg_print_meta(struct cg *cg, struct node *st, unsigned off)
{
	struct node *a = value_arg(st);
	const struct type *t = a->type;
	cg_meta_action_type(cg->meta, type_index(cg->meta, t, 0, cg->strmember));
	if (st->list->next) {
		cg_meta_arg(cg->meta, off, 8, DCC_K_INT, false, st->list->type->name);
		off += 8;
	}
	if (is_mem(t))
		cg_meta_arg(cg->meta, off, rec_bytes(t), DCC_K_BYTES, false, t->name);
	else if (type_is_float(t))
		cg_meta_arg(cg->meta, off, t->size, DCC_K_FLOAT, true, t->name);
	else if (t->kind == T_STRING)
		cg_meta_arg(cg->meta, off, cg_str_cap(cg, a), DCC_K_STRING, false, t->name);
	else
		cg_meta_arg(cg->meta, off, t->size, DCC_K_INT, t->is_signed, t->name);
}

static LLVMValueRef rec_at(struct cg *cg, unsigned off)
{
	LLVMValueRef o = cg_i64(cg, off);
	return LLVMBuildGEP2(cg->b, cg->i8, cg->p->rec, &o, 1, "");
}

void cg_print(struct cg *cg, struct node *st, unsigned off)
{
	struct node *a = value_arg(st);
	const struct type *t = a->type;
	if (st->list->next) {
		LLVMBuildStore(cg->b, cg_expr(cg, st->list).v, rec_at(cg, off));
		off += 8;
	}
	if (is_mem(t)) {
		LLVMValueRef addr = cg_addr(cg, a);
		LLVMValueRef rc = cg_bpf_probe_read_kernel(cg, rec_at(cg, off),
							   cg_i32(cg, rec_bytes(t)), addr);
		/* an unreadable address is DTrace's invalid address error */
		LLVMBasicBlockRef bad = cg_block(cg, "print.fault"), ok = cg_block(cg, "print.ok");
		LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntSLT, rc, cg_i64(cg, 0), ""), bad,
				ok);
		LLVMPositionBuilderAtEnd(cg->b, bad);
		cg_fault(cg, DCC_FAULT_BADADDR, LLVMBuildPtrToInt(cg->b, addr, cg->i64, ""));
		LLVMPositionBuilderAtEnd(cg->b, ok);
		return;
	}
	struct cval v = cg_expr(cg, a);
	if (t->kind == T_STRING)
		cg_strcopy(cg, rec_at(cg, off), cg_str_cap(cg, a), v);
	else if (type_is_float(t) && v.cap)
		cg_memop(cg, "llvm.memcpy", rec_at(cg, off), v.v, t->size);
	else
		LLVMBuildStore(cg->b, v.v, rec_at(cg, off));
}
