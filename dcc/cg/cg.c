/*
 * Module-level code generation: the LLVM module and its debug info, the
 * maps (ring buffer, drop counters, scratch, thread-locals, aggregations),
 * D globals, and one BPF program per clause and probe group with the
 * attachments and clause layouts recorded in the metadata section.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dcc/abi.h>
#include <dcc/abi_agg.h>
#include "arena.h"
#include "cg.h"
#include "cg_bpf.h"
#include "cg_meta.h"
#include "diag.h"
#include "proc_prov.h"
#include "syscall.h"

LLVMValueRef cg_i64(struct cg *cg, uint64_t v)
{
	return LLVMConstInt(cg->i64, v, 0);
}

LLVMValueRef cg_i32(struct cg *cg, uint32_t v)
{
	return LLVMConstInt(cg->i32, v, 0);
}

LLVMBasicBlockRef cg_block(struct cg *cg, const char *name)
{
	return LLVMAppendBasicBlockInContext(cg->C, cg->p->fn, name);
}

void cg_set_loc(struct cg *cg, struct loc loc)
{
	if (!cg->p || !cg->p->sp)
		return;
	LLVMMetadataRef l = LLVMDIBuilderCreateDebugLocation(cg->C, loc.line ? loc.line : 1,
							     loc.col, cg->p->sp, NULL);
	LLVMSetCurrentDebugLocation2(cg->b, l);
}

void cg_fn_attr(struct cg *cg, LLVMValueRef fn, const char *name)
{
	unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
	LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
				LLVMCreateEnumAttribute(cg->C, kind, 0));
}

/* Allocas go to the entry block so every path sees them. */
LLVMValueRef cg_alloca(struct cg *cg, LLVMTypeRef t, const char *name)
{
	LLVMBuilderRef eb = LLVMCreateBuilderInContext(cg->C);
	LLVMValueRef first = LLVMGetFirstInstruction(cg->p->entry);
	if (first)
		LLVMPositionBuilderBefore(eb, first);
	else
		LLVMPositionBuilderAtEnd(eb, cg->p->entry);
	LLVMValueRef a = LLVMBuildAlloca(eb, t, name);
	LLVMSetAlignment(a, 8);
	LLVMDisposeBuilder(eb);
	return a;
}

LLVMValueRef cg_map_ref(struct cg *cg, int map)
{
	return cg->maps[map].g;
}

void cg_add_used(struct cg *cg, LLVMValueRef g)
{
	if (cg->nused == cg->cap_used) {
		cg->cap_used = cg->cap_used ? 2 * cg->cap_used : 16;
		cg->used = realloc(cg->used, cg->cap_used * sizeof(*cg->used));
	}
	cg->used[cg->nused++] = g;
}

static void attach_di(struct cg *cg, LLVMValueRef g, const char *name, LLVMMetadataRef ty,
		      unsigned line)
{
	LLVMMetadataRef gve = LLVMDIBuilderCreateGlobalVariableExpression(cg->dib, cg->di_cu,
		name, strlen(name), "", 0, cg->di_file, line, ty, 0,
		LLVMDIBuilderCreateExpression(cg->dib, NULL, 0), NULL, 0);
	LLVMGlobalSetMetadata(g, cg->dbg_kind, gve);
}

static LLVMMetadataRef di_array(struct cg *cg, LLVMMetadataRef elem, unsigned elem_bits,
				uint64_t n)
{
	LLVMMetadataRef sub = LLVMDIBuilderGetOrCreateSubrange(cg->dib, 0, (int64_t)n);
	return LLVMDIBuilderCreateArrayType(cg->dib, elem_bits * n, elem_bits, elem, &sub, 1);
}

void cg_global_di(struct cg *cg, LLVMValueRef g, const char *name, LLVMMetadataRef ty)
{
	attach_di(cg, g, name, ty, 1);
}

LLVMMetadataRef cg_di_array(struct cg *cg, LLVMMetadataRef elem, unsigned elem_bits, uint64_t n)
{
	return di_array(cg, elem, elem_bits, n);
}

void cg_attach_di(struct cg *cg, LLVMValueRef g, const char *name, LLVMMetadataRef ty,
		  unsigned line)
{
	attach_di(cg, g, name, ty, line);
}


/* &`sym: an extern in ".ksyms" without a type, which libbpf resolves from
 * /proc/kallsyms when it loads the object; a weak one is 0 where the
 * kernel has no such symbol, a strong one fails the load */
LLVMValueRef cg_ksym(struct cg *cg, const char *name, bool weak)
{
	LLVMValueRef g = LLVMGetNamedGlobal(cg->M, name);
	if (g)
		return g;
	g = LLVMAddGlobal(cg->M, cg->i8, name);
	LLVMSetLinkage(g, weak ? LLVMExternalWeakLinkage : LLVMExternalLinkage);
	LLVMSetSection(g, ".ksyms");
	LLVMSetGlobalConstant(g, 1);
	attach_di(cg, g, name, LLVMDIBuilderCreateQualifiedType(cg->dib, 0x26, NULL), 1);
	return g;
}

LLVMValueRef cg_rodata_u64(struct cg *cg, const char *name)
{
	LLVMValueRef g = LLVMAddGlobal(cg->M, cg->i64, name);
	LLVMSetInitializer(g, cg_i64(cg, 0));
	LLVMSetGlobalConstant(g, 1);
	LLVMSetAlignment(g, 8);
	LLVMSetLinkage(g, LLVMExternalLinkage);
	LLVMMetadataRef cv = LLVMDIBuilderCreateQualifiedType(cg->dib, 0x26,
		LLVMDIBuilderCreateQualifiedType(cg->dib, 0x35, cg->di_u64));
	attach_di(cg, g, name, cv, 1);
	cg_add_used(cg, g);
	return g;
}

/* A u32 0 in .rodata: the key of a one-slot array map, passed by address
 * (two instructions, against a store and a stack address's two more). */
LLVMValueRef cg_key0(struct cg *cg)
{
	if (cg->key0)
		return cg->key0;
	cg->key0 = LLVMAddGlobal(cg->M, cg->i32, "dcc_key0");
	LLVMSetInitializer(cg->key0, cg_i32(cg, 0));
	LLVMSetGlobalConstant(cg->key0, 1);
	LLVMSetAlignment(cg->key0, 4);
	LLVMSetLinkage(cg->key0, LLVMExternalLinkage);
	attach_di(cg, cg->key0, "dcc_key0",
		  LLVMDIBuilderCreateQualifiedType(cg->dib, 0x26, cg->di_u32), 1);
	cg_add_used(cg, cg->key0);
	return cg->key0;
}

LLVMValueRef cg_strlit(struct cg *cg, const char *s, size_t len, unsigned *cap)
{
	unsigned n = (unsigned)((len + 1 + 7) & ~(size_t)7);
	char *buf = calloc(1, n);
	memcpy(buf, s, len);
	LLVMValueRef init = LLVMConstStringInContext(cg->C, buf, n, 1);
	free(buf);
	char name[32];
	snprintf(name, sizeof(name), "dcc_str%d", cg->nstrlits++);
	LLVMValueRef g = LLVMAddGlobal(cg->M, LLVMTypeOf(init), name);
	LLVMSetInitializer(g, init);
	/* external and constant, like clang's const globals: it lands in the
	 * one .rodata section (private constants would go to mergeable
	 * .rodata.cst* sections, each a map of its own) */
	LLVMSetGlobalConstant(g, 1);
	LLVMSetLinkage(g, LLVMExternalLinkage);
	LLVMSetAlignment(g, 8);
	attach_di(cg, g, name, di_array(cg, cg->di_char, 8, n), 1);
	cg_add_used(cg, g);
	*cap = n;
	return g;
}

unsigned cg_scratch_alloc(struct cg *cg, unsigned size)
{
	unsigned off = cg->this_size + cg->p->scratch_top;
	cg->p->scratch_top += (size + 7) & ~7u;
	if (cg->p->scratch_top > cg->p->scratch_max)
		cg->p->scratch_max = cg->p->scratch_top;
	return off;
}

/* A temporary buffer: small ones on the BPF stack, which spares the
 * program a scratch-map lookup; the rest, and once a program has used
 * 256 bytes of stack for them, in the per-CPU scratch map. */
LLVMValueRef cg_tmpbuf(struct cg *cg, unsigned size)
{
	size = (size + 7) & ~7u;
	if (size <= 64 && cg->p->stack_used + size <= 256) {
		cg->p->stack_used += size;
		return cg_alloca(cg, LLVMArrayType2(cg->i64, size / 8), "tmp");
	}
	return cg_scratch(cg, cg_scratch_alloc(cg, size));
}

LLVMValueRef cg_scratch(struct cg *cg, unsigned off)
{
	cg->p->scratch_used = true;
	LLVMValueRef base = LLVMBuildLoad2(cg->b, cg->ptr, cg->p->scratch_slot, "scratch");
	LLVMValueRef idx = cg_i64(cg, off);
	return LLVMBuildGEP2(cg->b, cg->i8, base, &idx, 1, "");
}

/* Shared per-program stack slots for values stored and used at once (a
 * helper's output, a map key or value): without lifetime markers LLVM
 * gives every alloca its own slot, and a clause with a dozen aggregations
 * would pass the BPF stack's 512 bytes. */
LLVMValueRef cg_tmp64(struct cg *cg)
{
	if (!cg->p->tmp64)
		cg->p->tmp64 = cg_alloca(cg, cg->i64, "tmp64");
	return cg->p->tmp64;
}

LLVMValueRef cg_pid_tgid(struct cg *cg)
{
	if (cg->p->pid_tgid)
		return cg->p->pid_tgid;
	struct pgroup *g = cg->p->grp;
	/* sched:::on-cpu: the arriving task's, as bpf_get_current_pid_tgid() would
	 * give once it runs */
	LLVMValueRef v = g && g->kind == PK_PROC && g->cur[PC_PIDTGID]
				 ? cg_expr(cg, g->cur[PC_PIDTGID]).v
				 : cg_bpf_get_current_pid_tgid(cg);
	if (!cg->p->cond_depth)
		cg->p->pid_tgid = v;
	return v;
}

/*
 * timestamp is one instant a firing, as in DTrace: the clock is read the
 * first time a clause of the firing asks (a slot zeroed when the firing
 * starts, cg_timer.c's, or at an ERROR clause's entry; the clock is never 0
 * after boot), and every later read, in any branch or clause, sees that value.
 */
LLVMValueRef cg_timestamp(struct cg *cg)
{
	struct cg_prog *p = cg->p;
	if (p->firing_ts) {
		LLVMValueRef old = LLVMBuildLoad2(cg->b, cg->i64, p->firing_ts, "ts.old");
		LLVMBasicBlockRef read = cg_block(cg, "ts.read"), done = cg_block(cg, "ts.done");
		LLVMBuildCondBr(cg->b, LLVMBuildIsNull(cg->b, old, ""), read, done);
		LLVMPositionBuilderAtEnd(cg->b, read);
		LLVMBuildStore(cg->b, cg_bpf_ktime_get_ns(cg), p->firing_ts);
		LLVMBuildBr(cg->b, done);
		LLVMPositionBuilderAtEnd(cg->b, done);
		return LLVMBuildLoad2(cg->b, cg->i64, p->firing_ts, "ts");
	}
	if (!p->tstamp) {
		p->tstamp = cg_alloca(cg, cg->i64, "tstamp");
		LLVMBuilderRef eb = LLVMCreateBuilderInContext(cg->C);
		LLVMValueRef next = LLVMGetNextInstruction(p->tstamp);
		if (next)
			LLVMPositionBuilderBefore(eb, next);
		else
			LLVMPositionBuilderAtEnd(eb, p->entry);
		LLVMBuildStore(eb, cg_i64(cg, 0), p->tstamp);
		LLVMDisposeBuilder(eb);
	}
	LLVMValueRef old = LLVMBuildLoad2(cg->b, cg->i64, p->tstamp, "ts.old");
	LLVMBasicBlockRef read = cg_block(cg, "ts.read"), done = cg_block(cg, "ts.done");
	LLVMBuildCondBr(cg->b, LLVMBuildIsNull(cg->b, old, ""), read, done);
	LLVMPositionBuilderAtEnd(cg->b, read);
	LLVMBuildStore(cg->b, cg_bpf_ktime_get_ns(cg), p->tstamp);
	LLVMBuildBr(cg->b, done);
	LLVMPositionBuilderAtEnd(cg->b, done);
	return LLVMBuildLoad2(cg->b, cg->i64, p->tstamp, "ts");
}

static void setup_module(struct cg *cg, const char *src_name)
{
	cg->C = LLVMContextCreate();
	cg->M = LLVMModuleCreateWithNameInContext(src_name, cg->C);
	cg->b = LLVMCreateBuilderInContext(cg->C);
	cg->i8 = LLVMInt8TypeInContext(cg->C);
	cg->i32 = LLVMInt32TypeInContext(cg->C);
	cg->i64 = LLVMInt64TypeInContext(cg->C);
	cg->ptr = LLVMPointerTypeInContext(cg->C, 0);
	cg->void_t = LLVMVoidTypeInContext(cg->C);
	LLVMSetTarget(cg->M, "bpfel");
	LLVMTargetDataRef td = LLVMCreateTargetDataLayout(cg->tm);
	LLVMSetModuleDataLayout(cg->M, td);
	LLVMDisposeTargetData(td);
	LLVMAddModuleFlag(cg->M, LLVMModuleFlagBehaviorWarning, "Debug Info Version", 18,
		LLVMValueAsMetadata(LLVMConstInt(cg->i32, LLVMDebugMetadataVersion(), 0)));
	LLVMAddModuleFlag(cg->M, LLVMModuleFlagBehaviorWarning, "Dwarf Version", 13,
		LLVMValueAsMetadata(LLVMConstInt(cg->i32, 5, 0)));
	cg->dbg_kind = LLVMGetMDKindIDInContext(cg->C, "dbg", 3);
	cg->dib = LLVMCreateDIBuilder(cg->M);
	const char *base = strrchr(src_name, '/');
	base = base ? base + 1 : src_name;
	cg->di_file = cg->src_text ? cg_di_file(cg->C, base, cg->src_text, cg->src_len) : NULL;
	if (!cg->di_file)
		cg->di_file = LLVMDIBuilderCreateFile(cg->dib, base, strlen(base), "", 0);
	const char *producer = "dcc";
	cg->di_cu = LLVMDIBuilderCreateCompileUnit(cg->dib, LLVMDWARFSourceLanguageC11,
		cg->di_file, producer, strlen(producer), 1, "", 0, 0, "", 0,
		LLVMDWARFEmissionFull, 0, 0, 0, "", 0, "", 0);
	cg->di_int = LLVMDIBuilderCreateBasicType(cg->dib, "int", 3, 32, 0x05, 0);
	cg->di_u32 = LLVMDIBuilderCreateTypedef(cg->dib,
		LLVMDIBuilderCreateBasicType(cg->dib, "unsigned int", 12, 32, 0x08, 0),
		"__u32", 5, cg->di_file, 0, cg->di_cu, 0);
	cg->di_u64 = LLVMDIBuilderCreateTypedef(cg->dib,
		LLVMDIBuilderCreateBasicType(cg->dib, "unsigned long long", 18, 64, 0x08, 0),
		"__u64", 5, cg->di_file, 0, cg->di_cu, 0);
	cg->di_char = LLVMDIBuilderCreateBasicType(cg->dib, "char", 4, 8, 0x06, 0);
	cg->di_voidptr = LLVMDIBuilderCreatePointerType(cg->dib, NULL, 64, 0, 0, "", 0);
}

static void add_license(struct cg *cg)
{
	LLVMValueRef init = LLVMConstStringInContext(cg->C, "GPL", 3, 0);
	LLVMValueRef g = LLVMAddGlobal(cg->M, LLVMTypeOf(init), "_license");
	LLVMSetInitializer(g, init);
	LLVMSetSection(g, "license");
	LLVMSetAlignment(g, 1);
	LLVMSetLinkage(g, LLVMExternalLinkage);
	attach_di(cg, g, "_license", di_array(cg, cg->di_char, 8, 4), 1);
	cg_add_used(cg, g);
}

static void add_used_list(struct cg *cg)
{
	LLVMTypeRef at = LLVMArrayType2(cg->ptr, (uint64_t)cg->nused);
	LLVMValueRef g = LLVMAddGlobal(cg->M, at, "llvm.compiler.used");
	LLVMSetInitializer(g, LLVMConstArray2(cg->ptr, cg->used, (uint64_t)cg->nused));
	LLVMSetLinkage(g, LLVMAppendingLinkage);
	LLVMSetSection(g, "llvm.metadata");
}

/* A string key slot is as wide as the widest string ever stored in it:
 * @[execname] keys are 16 bytes, not strsize, which the hash and the copy
 * of every update pay for. */
/* Also counts, per aggregation, the programs' update sites (sites): a
 * site in a clause of n probe groups is n, in an ERROR clause 2 (any
 * program's fault may run it after that program's own update). */
static void agg_key_caps(struct cg *cg, int *sites)
{
	struct sema *s = cg->s;
	for (int c = 0; c < s->nclauses; c++) {
		cg->ci = &s->clauses[c];
		for (struct node *st = s->clauses[c].n->b; st; st = st->next) {
			if (st->kind != N_ASSIGN || st->a->kind != N_AGG)
				continue;
			struct agg *g = st->a->sym;
			for (int p = 0; p < s->clauses[c].ngroups; p++)
				sites[g->id] += s->clauses[c].groups[p].kind == PK_ERROR ? 2 : 1;
			int k = 0;
			for (struct node *key = st->a->list; key; key = key->next, k++) {
				unsigned cap = key->type->kind == T_STRING ? cg_str_cap(cg, key) :
					type_is_symbolic(key->type) ? (key->type->size + 7) & ~7u : 8;
				if (cap > cg->agg_keycap[g->id][k])
					cg->agg_keycap[g->id][k] = cap;
			}
		}
	}
	cg->ci = NULL;
}

/* An exit() to stop the other probes, or a BEGIN they must wait for. */
static bool needs_phase(struct sema *s)
{
	for (int i = 0; i < s->nclauses; i++) {
		for (struct node *st = s->clauses[i].n->b; st; st = st->next)
			if (cg_is_exit(st))
				return true;
		for (int g = 0; g < s->clauses[i].ngroups; g++)
			if (s->clauses[i].groups[g].kind == PK_BEGIN)
				return true;
	}
	return false;
}

/* the maps every object has, and those of the providers and variables it uses */
static void make_fixed_maps(struct cg *cg)
{
	struct sema *s = cg->s;
	uint64_t rb = s->sizes.bufsize, p2 = 4096;
	while (p2 < rb && p2 < (1ull << 30))
		p2 <<= 1;
	cg->ringbuf_size = p2;
	cg->m_ringbuf = cg_map_new(cg, DCC_MAP_RINGBUF, BPF_MAP_TYPE_RINGBUF, (uint32_t)p2, 0, 0, 0);
	cg->m_scratch = cg_map_new(cg, DCC_MAP_SCRATCH, BPF_MAP_TYPE_PERCPU_ARRAY, 1, 4, 8, 0);
	cg->m_pidnames = s->uses_pid ? cg_map_new(cg, DCC_MAP_PIDNAMES, BPF_MAP_TYPE_HASH,
					       DCC_PIDNAMES_MAX, 4, sizeof(struct dcc_pidname),
					       BPF_F_NO_PREALLOC) : -1;
	cg->m_usdtspecs = s->uses_usdt ? cg_map_new(cg, DCC_MAP_USDTSPECS, BPF_MAP_TYPE_ARRAY,
						 DCC_USDTSPECS_MAX, 4,
						 sizeof(struct dcc_usdt_spec), 0) : -1;
	cg->m_cpuinfo = s->uses_curcpu ? cg_map_new(cg, DCC_MAP_CPUINFO, BPF_MAP_TYPE_PERCPU_ARRAY,
						 1, 4, sizeof(struct dcc_cpuinfo), 0) : -1;
	cg->m_lockstat = cg_lockstat_used(s) ? cg_map_new(cg, "dcc_lockstat", BPF_MAP_TYPE_LRU_HASH,
						       16384, 16, 16, 0) : -1;
}

static void make_maps(struct cg *cg)
{
	struct sema *s = cg->s;

	make_fixed_maps(cg);
	uint64_t dynvar = s->sizes.dynvarsize;
	cg_var_choose_tls(cg);
	cg->var_map = arena_alloc(cg->ar, sizeof(int) * (s->nvars + 1));
	cg->gvar = arena_alloc(cg->ar, sizeof(LLVMValueRef) * (s->nvars + 1));
	cg->this_off = arena_alloc(cg->ar, sizeof(unsigned) * (s->nvars + 1));
	cg->this_size = CG_FIRING_SIZE; /* clause-locals follow the firing's slot */
	for (int i = 0; i < s->nvars; i++) {
		struct var *v = s->vars[i];
		unsigned size = cg_var_size(cg, v);
		if (cg_var_task_local(cg, v)) {
			/* a thread-local in the thread's task (cg_var.c) */
			const char *name = arena_printf(cg->ar, "self_%s", v->name);
			cg->var_map[i] = cg_map_new(cg, name, BPF_MAP_TYPE_TASK_STORAGE, 0, 4, size,
						 BPF_F_NO_PREALLOC);
		} else if (v->kind == V_SELF || v->nkeys) {
			/* self-> arrays and associative arrays share dynvarsize;
			 * preallocated: a plain hash's elements are one block (~1 ms
			 * to create), and a set-and-free per event measured 7-10%
			 * slower without (ARCHITECTURE.md, "Aggregation maps") */
			unsigned ks = cg_var_key_size(cg, v);
			uint64_t entries = dynvar / (size + ks + 64);
			if (entries < 64)
				entries = 64;
			const char *name = arena_printf(cg->ar, "%s_%s",
				v->kind == V_SELF ? "self" : "assoc", v->name);
			cg->var_map[i] = cg_map_new(cg, name, BPF_MAP_TYPE_HASH, (uint32_t)entries,
						 ks, size, 0);
		} else if (v->kind == V_THIS) {
			cg->this_off[v->id] = cg->this_size;
			cg->this_size += size;
		} else {
			LLVMTypeRef t = v->type->kind == T_INT || v->type->kind == T_PTR
				? cg->i64 : LLVMArrayType2(cg->i8, size);
			const char *name = arena_printf(cg->ar, "g_%s", v->name);
			LLVMValueRef g = LLVMAddGlobal(cg->M, t, name);
			LLVMSetInitializer(g, LLVMConstNull(t));
			LLVMSetAlignment(g, 8);
			LLVMSetLinkage(g, LLVMExternalLinkage);
			LLVMMetadataRef dt = v->type->kind == T_INT || v->type->kind == T_PTR
				? LLVMDIBuilderCreateBasicType(cg->dib, "long", 4, 64, 0x05, 0)
				: di_array(cg, cg->di_char, 8, size);
			attach_di(cg, g, name, dt, v->loc.line);
			cg_add_used(cg, g);
			cg->gvar[v->id] = g;
		}
	}
	uint64_t aggsize = s->sizes.aggsize;
	cg->agg_map = arena_alloc(cg->ar, sizeof(int) * (s->naggs + 1));
	cg->agg_array = arena_alloc(cg->ar, sizeof(bool) * (s->naggs + 1));
	cg->agg_keycap = arena_alloc(cg->ar, sizeof(*cg->agg_keycap) * (s->naggs + 1));
	int *sites = arena_alloc(cg->ar, sizeof(int) * (s->naggs + 1));
	agg_key_caps(cg, sites);
	for (int i = 0; i < s->naggs; i++) {
		struct agg *g = s->aggs[i];
		uint32_t ks = 0;
		for (int k = 0; k < g->nkeys; k++)
			ks += g->keys[k]->kind == T_STRING || type_is_symbolic(g->keys[k])
				? cg->agg_keycap[i][k] : 8;
		if (!ks)
			ks = 4;
		uint32_t vs = cg_agg_value_size(g);
		uint64_t entries = aggsize / (ks + vs + ABI_AGG_ENTRY_OVERHEAD);
		if (entries < 64)
			entries = 64;
		/* the maps are allocated key by key: a large aggsize costs
		 * only the kernel's bucket array (16 bytes an entry) until keys
		 * come; the cap keeps that array within a few tens of MB */
		if (entries > ABI_AGG_MAX_ENTRIES)
			entries = ABI_AGG_MAX_ENTRIES;
		const char *name = arena_printf(cg->ar, "agg_%s", g->name);
		/* a keyless aggregation is one slot of a per-CPU array: no hash,
		 * no insert on the first event (the runtime takes an all-zero
		 * slot for "never updated", so not for sum(), whose 0 is a value,
		 * nor for a histogram with increments, which may cancel out).
		 * A keyed one is a per-CPU hash allocated key by key: the kernel
		 * preallocates a per-CPU value for each of ~47,000 entries one by
		 * one, 50-100 ms before the first probe could attach; without,
		 * each new key costs ~19 us instead of ~0.7 us, an existing key
		 * the same (ARCHITECTURE.md, "Aggregation maps"). But the kernel
		 * keeps one spare value a CPU for such a map, refilled after
		 * the program, from an irq_work: a second new key in one firing
		 * with interrupts off (two timer clauses) failed as a drop. An
		 * aggregation updated at two sites or more is preallocated. */
		bool array = !g->nkeys && g->func != DCC_AGG_SUM && !g->weighted;
		cg->agg_map[i] = cg_map_new(cg, name, array ? BPF_MAP_TYPE_PERCPU_ARRAY
					 : BPF_MAP_TYPE_PERCPU_HASH, array ? 1 : (uint32_t)entries,
					 ks, vs, array || sites[i] > 1 ? 0 : BPF_F_NO_PREALLOC);
		cg->agg_array[i] = array;
		cg_meta_agg(cg->meta, g, name, ks, vs, cg->agg_keycap[i]);
	}
	cg->m_spec = -1;
	if (s->uses_speculation) {
		/* one value: u64 state[n] (0 free, 1 in use), u64 bytes[n] */
		cg->nspec = (unsigned)s->sizes.nspec;
		if (cg->nspec < 1)
			cg->nspec = 1;
		if (cg->nspec > 63)
			cg->nspec = 63;
		cg->specsize = s->sizes.specsize;
		cg->spec_slots = 2;
		while (cg->spec_slots < cg->nspec + 1)
			cg->spec_slots <<= 1;
		cg->m_spec = cg_map_new(cg, "dcc_spec", BPF_MAP_TYPE_ARRAY, 1, 4, 16 * cg->spec_slots,
				   0);
	}
	cg->ro_target = cg_rodata_u64(cg, DCC_RODATA_TARGET);
	cg->ro_walloff = cg_rodata_u64(cg, DCC_RODATA_WALLOFF);
	if (needs_phase(s)) {
		cg->g_phase = LLVMAddGlobal(cg->M, cg->i64, DCC_BSS_PHASE);
		LLVMSetInitializer(cg->g_phase, cg_i64(cg, DCC_PHASE_TRACING));
		LLVMSetAlignment(cg->g_phase, 8);
		LLVMSetLinkage(cg->g_phase, LLVMExternalLinkage);
		attach_di(cg, cg->g_phase, DCC_BSS_PHASE, cg->di_u64, 1);
		cg_add_used(cg, cg->g_phase);
	}
}

static const char *group_section(struct cg *cg, struct pgroup *g, bool *raw)
{
	*raw = false;
	switch (g->kind) {
	case PK_BEGIN:
	case PK_END:
		return "raw_tp";
	case PK_SYSCALL_ENTRY:
	case PK_SYSCALL_RETURN: {
		bool entry = g->kind == PK_SYSCALL_ENTRY;
		if (cg_syscall_raw(g)) {
			*raw = true;
			if (cg_syscall_raw_kind() == 'b')
				return entry ? "tp_btf/sys_enter" : "tp_btf/sys_exit";
			if (cg_syscall_raw_kind() == 'r')
				return entry ? "raw_tp/sys_enter" : "raw_tp/sys_exit";
			return entry ? "tracepoint/raw_syscalls/sys_enter"
				     : "tracepoint/raw_syscalls/sys_exit";
		}
		return arena_printf(cg->ar, "tracepoint/syscalls/sys_%s_%s", entry ? "enter" : "exit",
				    g->probes[0]->func);
	}
	case PK_TICK:
	case PK_PROFILE:
		return "perf_event";
	case PK_SDT:
		return arena_printf(cg->ar, "tracepoint/%s/%s", g->probes[0]->mod,
				    g->probes[0]->name);
	case PK_RAWTP:
		return arena_printf(cg->ar, "tp_btf/%s", g->probes[0]->event ? g->probes[0]->event
								  : g->probes[0]->name);
	case PK_FBT_ENTRY:
	case PK_FBT_RETURN:
		return arena_printf(cg->ar, "%s/%s", g->kind == PK_FBT_ENTRY ? "fentry" : "fexit",
				    g->probes[0]->func);
	case PK_PROC:
		return cg_proc_section(cg, g);
	case PK_PID_ENTRY:
	case PK_PID_RETURN:
		/* a kprobe-type program the loader attaches to each function; no
		 * target in the section: libbpf must not attach it itself */
		return g->kind == PK_PID_ENTRY ? "uprobe" : "uretprobe";
	case PK_USDT: /* the same, attached to each note (loader/usdt.c) */
		return "uprobe";
	case PK_ERROR:
		break;
	}
	return "";
}

static void record_attach(struct cg *cg, struct pgroup *g, bool raw)
{
	switch (g->kind) {
	case PK_BEGIN:
		cg_meta_attach(cg->meta, g->prog_name, DCC_ATTACH_BEGIN, NULL, 0, 0);
		break;
	case PK_END:
		cg_meta_attach(cg->meta, g->prog_name, DCC_ATTACH_END, NULL, 0, 0);
		break;
	case PK_SYSCALL_ENTRY:
	case PK_SYSCALL_RETURN: {
		bool entry = g->kind == PK_SYSCALL_ENTRY;
		if (raw && cg_syscall_raw_kind() != 't') {
			cg_meta_attach(cg->meta, g->prog_name, cg_syscall_raw_kind() == 'b' ?
				       DCC_ATTACH_TP_BTF : DCC_ATTACH_RAW_TP, entry ? "sys_enter"
				       : "sys_exit", 0, 0);
			break;
		}
		if (raw) {
			cg_meta_attach(cg->meta, g->prog_name, DCC_ATTACH_TRACEPOINT, entry ?
				       "raw_syscalls/sys_enter" : "raw_syscalls/sys_exit", 0, 0);
			break;
		}
		for (int i = 0; i < g->nprobes; i++) {
			char tp[128];
			snprintf(tp, sizeof(tp), "syscalls/sys_%s_%s", entry ? "enter" : "exit",
				 g->probes[i]->func);
			cg_meta_attach(cg->meta, g->prog_name, DCC_ATTACH_TRACEPOINT, tp,
				       g->explicit_names ? 0 : DCC_ATTACH_F_OPTIONAL, 0);
		}
		break;
	}
	case PK_TICK:
	case PK_PROFILE: /* cg_timer.c's programs are attached instead */
		break;
	case PK_SDT: {
		char tp[256];
		snprintf(tp, sizeof(tp), "%s/%s", g->probes[0]->mod, g->probes[0]->name);
		cg_meta_attach(cg->meta, g->prog_name, DCC_ATTACH_TRACEPOINT, tp, 0, 0);
		break;
	}
	case PK_RAWTP:
		cg_meta_attach(cg->meta, g->prog_name, DCC_ATTACH_TP_BTF, g->probes[0]->event ?
			       g->probes[0]->event : g->probes[0]->name, 0, 0);
		break;
	case PK_FBT_ENTRY:
	case PK_FBT_RETURN:
		/* a function a glob matched here may be missing from the kernel
		 * the object runs on: the loader leaves its program out */
		cg_meta_attach(cg->meta, g->prog_name, g->kind == PK_FBT_ENTRY ? DCC_ATTACH_FENTRY
			       : DCC_ATTACH_FEXIT, g->probes[0]->func,
			       g->explicit_names ? 0 : DCC_ATTACH_F_OPTIONAL, 0);
		break;
	case PK_PROC:
		cg_proc_attach(cg, g);
		break;
	case PK_PID_ENTRY:
	case PK_PID_RETURN: {
		struct probe *p = g->probes[0];
		char *t = p->pid_offset ?
			arena_printf(cg->ar, "%s:%s:%s:%s", p->prov, p->mod, p->func, p->name) :
			arena_printf(cg->ar, "%s:%s:%s", p->prov, p->mod, p->func);
		cg_meta_attach(cg->meta, g->prog_name, p->pid_offset ? DCC_ATTACH_PID_OFFSET :
			       g->kind == PK_PID_ENTRY ? DCC_ATTACH_PID_ENTRY : DCC_ATTACH_PID_RETURN,
			       t, cg->s->opts.zdefs ? DCC_ATTACH_F_OPTIONAL : 0, p->pid);
		break;
	}
	case PK_USDT: {
		struct probe *p = g->probes[0];
		char *t = arena_printf(cg->ar, "%s:%s:%s:%s", p->prov, p->mod, p->func, p->name);
		cg_meta_attach(cg->meta, g->prog_name, DCC_ATTACH_USDT, t,
			       cg->s->opts.zdefs ? DCC_ATTACH_F_OPTIONAL : 0, p->pid);
		break;
	}
	case PK_ERROR:
		break;
	}
}

static void build_group(struct cg *cg, struct clause_info *ci, struct pgroup *g)
{
	bool raw;
	const char *sec = group_section(cg, g, &raw);
	struct cg_prog prog = {
		.grp = g,
		.ctx_raw = raw,
		.ctx_regs = raw && cg_syscall_raw_kind() != 't',
		.regs_typed = raw && cg_syscall_raw_kind() == 'b',
		.self_ptr = arena_alloc(cg->ar, sizeof(LLVMValueRef) * (cg->s->nvars + 1)),
	};
	cg->p = &prog;
	cg->ci = ci;
	/* an ERROR clause is the static function cg_error_declare() made; a
	 * timer's clause a static function its probe's one program calls
	 * (cg_timer.c), so that all of a timer's clauses run in one firing */
	bool err = g->kind == PK_ERROR;
	bool timer = g->kind == PK_TICK || g->kind == PK_PROFILE;
	/* a timer's program calls its clause repeat times itself (cg_timer.c) */
	bool repeated = !err && !timer && g->repeat > 1;
	const char *fn_name = repeated ? arena_printf(cg->ar, "%s_once", g->prog_name)
				       : g->prog_name;
	if (err) {
		prog.fn = LLVMGetNamedFunction(cg->M, g->prog_name);
	} else {
		LLVMTypeRef pt = cg->ptr;
		LLVMTypeRef fty = LLVMFunctionType(cg->i32, &pt, 1, 0);
		prog.fn = LLVMAddFunction(cg->M, fn_name, fty);
		if (timer || repeated) {
			LLVMSetLinkage(prog.fn, LLVMInternalLinkage);
			/* a timer's only clause goes into its program: no call,
			 * and one stack frame (W4 of issue 13: 3 instructions) */
			if (!timer || cg_timer_calls(cg->s, g->probes[0]) > 1)
				cg_fn_attr(cg, prog.fn, "noinline");
		} else {
			LLVMSetSection(prog.fn, sec);
			LLVMSetLinkage(prog.fn, LLVMExternalLinkage);
		}
		cg_fn_attr(cg, prog.fn, "nounwind");
	}
	prog.ctx = LLVMGetParam(prog.fn, 0);
	LLVMSetValueName2(prog.ctx, "ctx", 3);

	struct loc loc = ci->n->loc;
	LLVMMetadataRef params[6] = { cg->di_int, cg->di_voidptr, cg->di_u64, cg->di_u64,
				      cg->di_u64, cg->di_u64 };
	LLVMMetadataRef sty = LLVMDIBuilderCreateSubroutineType(cg->dib, cg->di_file, params,
								err ? 6 : 2, 0);
	prog.sp = LLVMDIBuilderCreateFunction(cg->dib, cg->di_file, fn_name, strlen(fn_name),
		fn_name, strlen(fn_name), cg->di_file, loc.line, sty, err || timer || repeated, 1,
		loc.line, LLVMDIFlagPrototyped, 1);
	LLVMSetSubprogram(prog.fn, prog.sp);
	LLVMDIBuilderCreateParameterVariable(cg->dib, prog.sp, "ctx", 3, 1, cg->di_file, loc.line,
					     cg->di_voidptr, 1, 0);
	/* the kernel refuses BTF with an unnamed parameter, and a program
	 * with a bpf_loop() callback needs its BTF */
	static const char *const err_params[4] = { "epid", "where", "fault", "detail" };
	for (unsigned i = 0; err && i < 4; i++)
		LLVMDIBuilderCreateParameterVariable(cg->dib, prog.sp, err_params[i],
			strlen(err_params[i]), i + 2, cg->di_file, loc.line, cg->di_u64, 1, 0);

	prog.entry = cg_block(cg, "entry");
	LLVMBasicBlockRef start = cg_block(cg, "start");
	LLVMPositionBuilderAtEnd(cg->b, start);
	cg_set_loc(cg, loc);
	prog.scratch_slot = cg_alloca(cg, cg->ptr, "scratch.slot");
	LLVMBasicBlockRef body = cg_block(cg, "body");
	if (g->kind == PK_SYSCALL_ENTRY || g->kind == PK_SYSCALL_RETURN) {
		prog.ctx_nr = cg_syscall_nr(cg, g);
		if (raw)
			cg_syscall_filter(cg, g, body);
		else
			LLVMBuildBr(cg->b, body);
	} else if (g->kind == PK_PROC) {
		cg_proc_filter(cg, g, body);
	} else {
		LLVMBuildBr(cg->b, body);
	}
	LLVMPositionBuilderAtEnd(cg->b, body);
	cg_set_loc(cg, loc);
	prog.alloca_room = prog.scratch_top = prog.scratch_max = cg_alloca_room(ci->n);
	if (!err)
		cg_firing_sync(cg);
	cg_clause_body(cg);

	/* Now that the body is known, fill the entry block: look the scratch
	 * buffer up only if the clause needs it. */
	LLVMPositionBuilderAtEnd(cg->b, prog.entry);
	cg_set_loc(cg, loc);
	if (prog.scratch_used) {
		LLVMValueRef key = LLVMBuildAlloca(cg->b, cg->i32, "zero");
		LLVMBuildStore(cg->b, cg_i32(cg, 0), key);
		LLVMValueRef p = cg_bpf_map_lookup(cg, cg_map_ref(cg, cg->m_scratch), key);
		LLVMBuildStore(cg->b, p, prog.scratch_slot);
		LLVMBasicBlockRef none = cg_block(cg, "noscratch");
		LLVMBuildCondBr(cg->b, LLVMBuildIsNull(cg->b, p, ""), none, start);
		LLVMPositionBuilderAtEnd(cg->b, none);
		LLVMBuildRet(cg->b, cg_i32(cg, 0));
	} else {
		LLVMBuildBr(cg->b, start);
	}
	if (cg->this_size + prog.scratch_max > cg->scratch_total)
		cg->scratch_total = cg->this_size + prog.scratch_max;
	if (repeated)
		cg_repeat_program(cg, g, prog.fn, sec, loc);
	if (!err && !timer)
		record_attach(cg, g, raw);
	cg->p = NULL;
}

int cg_program(struct cg *cg, struct sema *s, struct diag *dg, struct arena *ar,
	       const char *src_name, const char *script_label, bool is_description)
{
	cg->s = s;
	cg->dg = dg;
	cg->ar = ar;
	cg->src_name = src_name;
	cg->strsize = s->strsize;
	cg->strmax = s->strmax ? s->strmax : s->strsize;
	cg->strmember = s->strmember ? s->strmember : s->strsize;
	cg->strlen_max = cg->strmax < cg->strsize ? cg->strmax : cg->strsize - 1;
	cg->meta = cg_meta_new();
	setup_module(cg, src_name);
	add_license(cg);
	make_maps(cg);
	for (int i = 0; i < s->nprobes; i++)
		cg_meta_probe(cg->meta, s->probes[i]);
	cg_error_declare(cg);
	for (int i = 0; i < s->nclauses; i++) {
		struct clause_info *ci = &s->clauses[i];
		struct cg_clause cl = { 0 };
		cg_clause_layout(cg, ci, &cl);
		cg->cl = &cl;
		for (int j = 0; j < ci->ngroups; j++)
			build_group(cg, ci, &ci->groups[j]);
		cg->cl = NULL;
	}
	cg_timer_programs(cg);
	cg_lockstat_program(cg);
	if (cg_check_map_limit(cg))
		return -1;
	/* Scratch holds this-> variables and the largest clause's temporaries. */
	struct cg_map *sm = &cg->maps[cg->m_scratch];
	sm->value_size = cg->scratch_total < 8 ? 8 : (cg->scratch_total + 7) & ~7u;
	/* the one user error codegen finds: sema can't tell the bytes of
	 * string temporaries a clause's code will take */
	if (sm->value_size > 32768)
		return diag_fatal(dg, "clauses need %u bytes of scratch space, more than the "
				  "32768 a per-CPU map value can hold: lower strsize",
				  sm->value_size);
	for (int i = 0; i < cg->nmaps; i++)
		cg_map_di(cg, &cg->maps[i]);
	cg_core_finish(cg);
	for (int i = 0; i < s->nopts; i++)
		cg_meta_option(cg->meta, s->opt_names[i], s->opt_values[i]);

	cg_meta_enablings(cg->meta, (uint32_t)s->nenablings);
	cg_meta_build(cg->meta, "dcc " DCC_VERSION, cg->btf_size, cg->btf_hash);
	size_t msize;
	void *blob = cg_meta_finish(cg->meta, script_label,
				    (is_description ? DCC_META_F_DESCRIPTION : 0) |
				    (s->destructive ? DCC_META_F_DESTRUCTIVE : 0), &msize);
	LLVMValueRef init = LLVMConstStringInContext(cg->C, blob, (unsigned)msize, 1);
	free(blob);
	LLVMValueRef g = LLVMAddGlobal(cg->M, LLVMTypeOf(init), "dcc_meta");
	LLVMSetInitializer(g, init);
	LLVMSetGlobalConstant(g, 1);
	LLVMSetSection(g, DCC_META_SECTION);
	LLVMSetAlignment(g, 8);
	LLVMSetLinkage(g, LLVMExternalLinkage);
	cg_add_used(cg, g);
	add_used_list(cg);
	LLVMDIBuilderFinalize(cg->dib);
	return 0;
}

void cg_dispose(struct cg *cg)
{
	cg_meta_free(cg->meta);
	free(cg->maps);
	free(cg->used);
	if (cg->dib)
		LLVMDisposeDIBuilder(cg->dib);
	if (cg->b)
		LLVMDisposeBuilder(cg->b);
	if (cg->M)
		LLVMDisposeModule(cg->M);
	if (cg->C)
		LLVMContextDispose(cg->C);
	if (cg->tm)
		LLVMDisposeTargetMachine(cg->tm);
}
