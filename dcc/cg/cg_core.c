/*
 * Kernel memory through CO-RE: every member access on a struct from BTF is
 * an llvm.preserve.struct.access.index call tagged with a local debug-info
 * copy of the struct, so the object records a relocation (type, member path)
 * that libbpf resolves against the running kernel instead of a fixed offset.
 * The local copy names every member up to the last one used, with the real
 * types of the members used and byte placeholders for the rest; it is built
 * at the end, once every access of the program is known.
 */
#include <stdlib.h>
#include <string.h>

#include <dcc/abi.h>
#include "arena.h"
#include "cg.h"
#include "cg_bpf.h"
#include "diag.h"

struct core_type {
	struct type *t;
	LLVMTypeRef ir;
	LLVMMetadataRef tmp;
	bool *used;
	bool done;
};

static struct core_type *core_type(struct cg *cg, struct type *st)
{
	for (int i = 0; i < cg->ncore; i++)
		if (cg->core[i].t == st)
			return &cg->core[i];
	if (cg->ncore == cg->cap_core) {
		cg->cap_core = cg->cap_core ? 2 * cg->cap_core : 16;
		cg->core = realloc(cg->core, cg->cap_core * sizeof(*cg->core));
	}
	struct core_type *ct = &cg->core[cg->ncore++];
	memset(ct, 0, sizeof(*ct));
	ct->t = st;
	const char *tag = st->tag ? st->tag : "";
	/* the IR type only has to make the member index valid */
	char *irname = arena_printf(cg->ar, "%s.%s.%d", st->kind == T_UNION ? "union" : "struct",
				    *tag ? tag : "anon", st->btf_id);
	ct->ir = LLVMStructCreateNamed(cg->C, irname);
	int n = st->nmembers ? st->nmembers : 1;
	LLVMTypeRef *el = calloc((size_t)n, sizeof(*el));
	for (int i = 0; i < n; i++)
		el[i] = cg->i8;
	LLVMStructSetBody(ct->ir, el, (unsigned)n, 1);
	free(el);
	ct->tmp = LLVMDIBuilderCreateReplaceableCompositeType(cg->dib,
		st->kind == T_UNION ? 0x17 : 0x13, tag, strlen(tag), cg->di_cu, cg->di_file, 0, 0,
		(uint64_t)st->size * 8, 64, 0, "", 0);
	ct->used = arena_alloc(cg->ar, sizeof(bool) * (size_t)n);
	return ct;
}

static LLVMMetadataRef di_of(struct cg *cg, struct type *t);

static LLVMMetadataRef di_bytes(struct cg *cg, uint64_t n)
{
	LLVMMetadataRef sub = LLVMDIBuilderGetOrCreateSubrange(cg->dib, 0, (int64_t)n);
	return LLVMDIBuilderCreateArrayType(cg->dib, 8 * n, 8, cg->di_char, &sub, 1);
}

static LLVMMetadataRef di_of(struct cg *cg, struct type *t)
{
	switch (t->kind) {
	case T_INT:
		if (t->enum_tag)
			return LLVMDIBuilderCreateEnumerationType(cg->dib, cg->di_cu, t->enum_tag,
				strlen(t->enum_tag), cg->di_file, 0, (uint64_t)t->size * 8, 32,
				NULL, 0, LLVMDIBuilderCreateBasicType(cg->dib, "int", 3, 32, 0x05, 0));
		return LLVMDIBuilderCreateBasicType(cg->dib, t->name, strlen(t->name),
			(uint64_t)t->size * 8, t->size == 1 ? (t->is_signed ? 0x06 : 0x08)
			: t->is_signed ? 0x05 : 0x07, 0);
	case T_PTR:
		return cg->di_voidptr;
	case T_FLOAT: { /* DW_ATE_float: BTF_KIND_FLOAT, which CO-RE matches by kind */
		const char *name = type_float_of(t->size)->name;
		return LLVMDIBuilderCreateBasicType(cg->dib, name, strlen(name),
			(uint64_t)t->size * 8, 0x04, 0);
	}
	case T_ARRAY: {
		LLVMMetadataRef sub = LLVMDIBuilderGetOrCreateSubrange(cg->dib, 0,
								       (int64_t)t->nelem);
		return LLVMDIBuilderCreateArrayType(cg->dib, (uint64_t)t->size * 8, 8,
						    di_of(cg, t->ref), &sub, 1);
	}
	case T_STRUCT:
	case T_UNION:
		if (t->btf_id)
			return core_type(cg, t)->tmp;
		return di_bytes(cg, t->size);
	default:
		return di_bytes(cg, t->size ? t->size : 1);
	}
}

/* Build the local copy of every struct used; members used by an access get
 * their real types (so libbpf can check them), the others placeholders. */
void cg_core_finish(struct cg *cg)
{
	/* di_of() may add structs (members used but not looked into): the
	 * table grows while we walk it, so index it, don't hold pointers */
	for (int k = 0; k < cg->ncore; k++) {
		struct type *st = cg->core[k].t;
		int last = -1;
		for (int i = 0; i < st->nmembers; i++)
			if (cg->core[k].used[i])
				last = i;
		LLVMMetadataRef *mem = calloc((size_t)(last + 2), sizeof(*mem));
		for (int i = 0; i <= last; i++) {
			struct member *m = &st->members[i];
			LLVMMetadataRef ty = cg->core[k].used[i] ? di_of(cg, m->type)
				: m->bit_size ? cg->di_int
				: di_bytes(cg, m->type->size ? m->type->size : 1);
			uint64_t bits = m->bit_size ? m->bit_size : (uint64_t)m->type->size * 8;
			const char *name = m->name ? m->name : "";
			mem[i] = LLVMDIBuilderCreateMemberType(cg->dib, cg->di_file, name,
				strlen(name), cg->di_file, 0, bits, 8, m->bit_off,
				m->bit_size ? LLVMDIFlagBitField : 0, ty);
		}
		const char *tag = st->tag ? st->tag : "";
		LLVMMetadataRef real;
		if (st->kind == T_UNION)
			real = LLVMDIBuilderCreateUnionType(cg->dib, cg->di_cu, tag, strlen(tag),
				cg->di_file, 0, (uint64_t)st->size * 8, 64, 0, mem,
				(unsigned)(last + 1), 0, "", 0);
		else
			real = LLVMDIBuilderCreateStructType(cg->dib, cg->di_cu, tag, strlen(tag),
				cg->di_file, 0, (uint64_t)st->size * 8, 64, 0, NULL, mem,
				(unsigned)(last + 1), 0, NULL, "", 0);
		LLVMMetadataReplaceAllUsesWith(cg->core[k].tmp, real);
		cg->core[k].done = true;
		free(mem);
	}
	free(cg->core);
	cg->core = NULL;
	cg->ncore = cg->cap_core = 0;
}

/* base + member idx of a struct, as a CO-RE relocation: ir makes the index
 * valid, di (the local debug-info struct) names the member */
LLVMValueRef cg_preserve_access(struct cg *cg, LLVMValueRef base, LLVMTypeRef ir,
				LLVMMetadataRef di, int idx)
{
	const char *iname = "llvm.preserve.struct.access.index";
	unsigned iid = LLVMLookupIntrinsicID(iname, strlen(iname));
	LLVMTypeRef over[2] = { cg->ptr, cg->ptr };
	LLVMValueRef fn = LLVMGetIntrinsicDeclaration(cg->M, iid, over, 2);
	LLVMTypeRef fty = LLVMIntrinsicGetType(cg->C, iid, over, 2);
	LLVMValueRef args[3] = { base, cg_i32(cg, (uint32_t)idx), cg_i32(cg, (uint32_t)idx) };
	LLVMValueRef call = LLVMBuildCall2(cg->b, fty, fn, args, 3, "");
	unsigned elemattr = LLVMGetEnumAttributeKindForName("elementtype", 11);
	LLVMAddCallSiteAttribute(call, 1, LLVMCreateTypeAttribute(cg->C, elemattr, ir));
	unsigned kind = LLVMGetMDKindIDInContext(cg->C, "llvm.preserve.access.index", 26);
	LLVMSetMetadata(call, kind, LLVMMetadataAsValue(cg->C, di));
	return call;
}

static LLVMValueRef core_access(struct cg *cg, LLVMValueRef base, struct type *st, int idx)
{
	struct core_type *ct = core_type(cg, st);
	ct->used[idx] = true;
	return cg_preserve_access(cg, base, ct->ir, ct->tmp, idx);
}

static LLVMValueRef as_ptr(struct cg *cg, LLVMValueRef v)
{
	return LLVMBuildIntToPtr(cg->b, v, cg->ptr, "");
}

/* base's member at the end of mp's first steps: a CO-RE access each for a
 * kernel struct, a constant offset for the script's own. */
LLVMValueRef cg_core_steps(struct cg *cg, LLVMValueRef base, const struct member_path *mp,
			   int steps)
{
	for (int i = 0; i < steps; i++) {
		struct type *st = mp->outer[i];
		int idx = mp->index[i];
		if (st->btf_id) {
			base = core_access(cg, base, st, idx);
		} else {
			LLVMValueRef off = cg_i64(cg, st->members[idx].bit_off / 8);
			base = LLVMBuildGEP2(cg->b, cg->i8, base, &off, 1, "");
		}
	}
	return base;
}

/* The address of n's member, or with steps < the path's length, of the
 * struct that many steps down the path. */
static LLVMValueRef member_addr(struct cg *cg, struct node *n, int steps)
{
	LLVMValueRef base;
	if (n->op == OP_ARROW) {
		/* DTrace checks the pointer itself: p->m with p NULL is an invalid
		 * address fault at 0, not at the member's offset */
		LLVMValueRef p = cg_expr(cg, n->a).v;
		cg_fault_if(cg, LLVMBuildICmp(cg->b, LLVMIntEQ, p, cg_i64(cg, 0), ""),
			    DCC_FAULT_BADADDR, cg_i64(cg, 0));
		base = as_ptr(cg, p);
	} else {
		base = cg_addr(cg, n->a);
	}
	return cg_core_steps(cg, base, n->sym, steps);
}

static struct member *last_member(struct node *n)
{
	struct member_path *mp = n->sym;
	return &mp->outer[mp->n - 1]->members[mp->index[mp->n - 1]];
}

static LLVMValueRef field_info(struct cg *cg, LLVMValueRef access, int kind)
{
	const char *iname = "llvm.bpf.preserve.field.info";
	unsigned iid = LLVMLookupIntrinsicID(iname, strlen(iname));
	LLVMTypeRef over = cg->ptr;
	LLVMValueRef fn = LLVMGetIntrinsicDeclaration(cg->M, iid, &over, 1);
	LLVMTypeRef fty = LLVMIntrinsicGetType(cg->C, iid, &over, 1);
	LLVMValueRef args[2] = { access, cg_i64(cg, (uint64_t)kind) };
	LLVMValueRef v = LLVMBuildCall2(cg->b, fty, fn, args, 2, "");
	return LLVMBuildZExt(cg->b, v, cg->i64, "");
}

/* A bit-field: for kernel structs the byte offset and size of the bytes
 * holding it and the shifts that extract it are all CO-RE relocations
 * (libbpf recomputes them for the running kernel), as libbpf's
 * BPF_CORE_READ_BITFIELD does; for the script's own structs they are
 * constants. */
/* Where a bit-field lies: the unit holding it (its address and size,
 * at most 8 bytes) and the shifts that bring it to the top of 64 bits,
 * then down to bit 0. */
struct bitloc {
	LLVMValueRef src, sz, lshift, rshift;
};

static struct bitloc bitfield_loc(struct cg *cg, struct node *n)
{
	struct member_path *mp = n->sym;
	struct member *m = last_member(n);
	struct type *st = mp->outer[mp->n - 1];
	/* the address of the struct holding the bit-field */
	LLVMValueRef base = member_addr(cg, n, mp->n - 1);
	LLVMValueRef off, size;
	struct bitloc l;
	if (st->btf_id) {
		LLVMValueRef acc = core_access(cg, base, st, mp->index[mp->n - 1]);
		off = field_info(cg, acc, 0);
		size = field_info(cg, acc, 1);
		l.lshift = field_info(cg, acc, 4);
		l.rshift = field_info(cg, acc, 5);
	} else {
		uint64_t unit = m->type->size, start = m->bit_off / 8 / unit * unit;
		off = cg_i64(cg, start);
		size = cg_i64(cg, unit);
		l.lshift = cg_i64(cg, 64 - (m->bit_off - start * 8) - m->bit_size);
		l.rshift = cg_i64(cg, 64 - m->bit_size);
	}
	l.src = LLVMBuildGEP2(cg->b, cg->i8, base, &off, 1, "");
	/* the size is a constant once relocated; the mask tells the verifier
	 * it is at most 8 */
	LLVMValueRef sz = LLVMBuildTrunc(cg->b, LLVMBuildAnd(cg->b, size, cg_i64(cg, 15), ""),
					 cg->i32, "");
	l.sz = LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntUGT, sz, cg_i32(cg, 8), ""),
			       cg_i32(cg, 8), sz, "");
	return l;
}

static LLVMValueRef bitfield_value(struct cg *cg, struct node *n)
{
	struct member *m = last_member(n);
	struct bitloc l = bitfield_loc(cg, n);
	LLVMValueRef tmp = cg_tmp64(cg);
	LLVMBuildStore(cg->b, cg_i64(cg, 0), tmp);
	cg_bpf_probe_read_kernel(cg, tmp, l.sz, l.src);
	LLVMValueRef v = LLVMBuildShl(cg->b, LLVMBuildLoad2(cg->b, cg->i64, tmp, ""), l.lshift, "");
	v = m->type->is_signed ? LLVMBuildAShr(cg->b, v, l.rshift, "")
			       : LLVMBuildLShr(cg->b, v, l.rshift, "");
	return cg_norm(cg, v, m->type);
}

/* v.f = x for a bit-field f of a struct variable: the unit holding it is
 * read, the field's bits replaced, and the unit written back. The field
 * starts at bit rshift - lshift of the unit and is 64 - rshift wide. */
void cg_bitfield_store(struct cg *cg, struct node *n, LLVMValueRef v)
{
	struct bitloc l = bitfield_loc(cg, n);
	LLVMValueRef tmp = cg_tmp64(cg);
	LLVMBuildStore(cg->b, cg_i64(cg, 0), tmp);
	cg_bpf_probe_read_kernel(cg, tmp, l.sz, l.src);
	LLVMValueRef pos = LLVMBuildSub(cg->b, l.rshift, l.lshift, "");
	LLVMValueRef ones = LLVMBuildLShr(cg->b, cg_i64(cg, ~0ull), l.rshift, "");
	LLVMValueRef mask = LLVMBuildShl(cg->b, ones, pos, "");
	LLVMValueRef bits = LLVMBuildShl(cg->b, LLVMBuildAnd(cg->b, v, ones, ""), pos, "");
	LLVMValueRef old = LLVMBuildLoad2(cg->b, cg->i64, tmp, "");
	old = LLVMBuildAnd(cg->b, old, LLVMBuildNot(cg->b, mask, ""), "");
	LLVMBuildStore(cg->b, LLVMBuildOr(cg->b, old, bits, ""), tmp);
	/* the variable's storage is the program's own: written back with
	 * the same helper, whose size the verifier can bound */
	cg_bpf_probe_read_kernel(cg, l.src, l.sz, tmp);
}

bool cg_is_bitfield(struct node *n)
{
	return n->kind == N_MEMBER && n->sym && last_member(n)->bit_size;
}

/* The kernel address an lvalue-like expression denotes. */
LLVMValueRef cg_addr(struct cg *cg, struct node *n)
{
	switch (n->kind) {
	case N_IDENT:
		if (n->op == '`')
			/* the script is file 0; the D library's files (its
			 * symbols differ between kernels) are weak */
			return cg_ksym(cg, n->name, n->loc.file != 0);
		if (n->sym)
			return cg_var_addr(cg, n);
		break;
	case N_SELF:
	case N_THIS:
		return cg_var_addr(cg, n);
	case N_MEMBER:
		return member_addr(cg, n, ((struct member_path *)n->sym)->n);
	case N_UNOP:
		if (n->op == '*')
			return as_ptr(cg, cg_expr(cg, n->a).v);
		break;
	case N_INDEX: {
		if (n->id == B_ARGS && cg->p->grp->kind == PK_SDT) {
			/* an array field of a tracepoint record: in the context */
			LLVMValueRef o = cg_i64(cg, cg->p->grp->probes[0]->foffs[n->ival]);
			return LLVMBuildGEP2(cg->b, cg->i8, cg->p->ctx, &o, 1, "");
		}
		if (n->id == B_ARGS)
			break;
		/* a[k].m of a declared associative array of structs: the element,
		 * made (zeroed) if absent, so a read of a missing one reads 0 too */
		if (n->sym)
			return cg_var_addr(cg, n);
		struct type *t = n->a->type;
		bool end_ok = cg->addr_of_elem == n; /* before the index's own '&'s */
		LLVMValueRef base = t->kind == T_ARRAY ? cg_addr(cg, n->a)
						       : as_ptr(cg, cg_expr(cg, n->a).v);
		LLVMValueRef idx = cg_expr(cg, n->list).v;
		if (t->kind == T_ARRAY && n->a->sym && (n->a->kind == N_IDENT ||
						   n->a->kind == N_SELF || n->a->kind == N_THIS)) {
			/* an array variable's element: an index outside it is
			 * DTrace's fault, and the verifier needs the bound; &a[N]
			 * is C's address one past the end */
			LLVMValueRef bad = LLVMBuildICmp(cg->b, end_ok ? LLVMIntUGT : LLVMIntUGE,
							 idx, cg_i64(cg, t->nelem), "");
			cg_fault_if(cg, bad, DCC_FAULT_BADINDEX, idx);
		}
		LLVMValueRef off = LLVMBuildMul(cg->b, idx, cg_i64(cg, t->ref->size), "");
		return LLVMBuildGEP2(cg->b, cg->i8, base, &off, 1, "");
	}
	default:
		break;
	}
	diag_bug(cg->dg, n->loc, "codegen cannot take the address of this expression");
}

struct cval cg_bitfield(struct cg *cg, struct node *n)
{
	return (struct cval){ .v = bitfield_value(cg, n), .t = n->type };
}

/* Read a scalar of type t at a kernel address; a fault reads as 0. */
LLVMValueRef cg_kread(struct cg *cg, LLVMValueRef addr, struct type *t)
{
	LLVMValueRef tmp = cg_tmp64(cg);
	LLVMBuildStore(cg->b, cg_i64(cg, 0), tmp);
	cg_bpf_probe_read_kernel(cg, tmp, cg_i32(cg, t->size), addr);
	LLVMValueRef v = LLVMBuildLoad2(cg->b, cg->i64, tmp, "");
	return cg_norm(cg, v, t);
}

/* The same, where a read that fails is DTrace's invalid address fault. */
LLVMValueRef cg_kread_or_fault(struct cg *cg, LLVMValueRef addr, struct type *t)
{
	LLVMValueRef tmp = cg_tmp64(cg);
	LLVMBuildStore(cg->b, cg_i64(cg, 0), tmp);
	cg_read_or_fault(cg, BPF_FUNC_probe_read_kernel, tmp, t->size,
			 LLVMBuildPtrToInt(cg->b, addr, cg->i64, ""));
	LLVMValueRef v = LLVMBuildLoad2(cg->b, cg->i64, tmp, "");
	return cg_norm(cg, v, t);
}

/* A string from a char array (its address) or a char pointer (its value). */
struct cval cg_kstring(struct cg *cg, struct node *n)
{
	struct type *t = n->type;
	unsigned cap = cg->strsize;
	LLVMValueRef src;
	if (t->kind == T_ARRAY) {
		if (t->nelem < cap)
			cap = (unsigned)(t->nelem + 7) & ~7u;
		src = cg_addr(cg, n);
	} else {
		/* a pointer or an integer address (stringof(NULL), stringof(12)) */
		src = as_ptr(cg, cg_norm(cg, cg_expr(cg, n).v, t));
	}
	LLVMValueRef dst = cg_tmpbuf(cg, cap);
	cg_memop(cg, "llvm.memset", dst, NULL, cap);
	uint32_t max = t->kind == T_ARRAY && t->nelem < cap ? (uint32_t)t->nelem : cap;
	/* strsize characters and the NUL, as DTrace reads a string */
	max = max < cg->strmax + 1 ? max : cg->strmax + 1;
	/* a pointer into alloca() memory: its string ends with that memory */
	LLVMValueRef size = n->scratch & SCR_VALUE ? cg_alloca_str_max(cg, src, max)
						   : cg_i32(cg, max);
	cg_bpf_probe_read_kernel_str(cg, dst, size, src);
	/* address 0 is D's NULL string, as DTrace's string is that pointer;
	 * another bad address reads as "" (the helper zero-fills), as there */
	if (t->kind != T_ARRAY)
		cg_str_null_unless(cg, dst, LLVMBuildICmp(cg->b, LLVMIntNE, src,
							   LLVMConstNull(cg->ptr), ""));
	return (struct cval){ .v = dst, .t = &type_string, .cap = cap };
}
