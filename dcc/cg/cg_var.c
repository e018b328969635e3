/*
 * Variables: globals (.bss), clause-locals (this->, in the per-CPU scratch
 * map) and dynamic variables: self-> thread-locals, self-> arrays and
 * associative arrays. Reading an absent dynamic variable yields 0 or "".
 *
 * A thread-local is task-local storage (BPF_MAP_TYPE_TASK_STORAGE, a map
 * each; a hash as below where a probe fires for another task than the
 * running one, as sched:::on-cpu does for the arriving task, whose pointer
 * is no typed one that task storage takes): its value hangs off the thread's task_struct, found without a
 * hash, and the kernel frees it when the thread exits. Storing 0 writes 0
 * in place, which reads as D's freed variable does; a value is created on
 * the first store of anything else, and a creation that fails (out of
 * memory, or the storage busy on this CPU, as in a probe fired inside
 * another's task-storage call) drops the store and counts a dynamic
 * variable drop. dynvarsize does not bound them (bench/percall: the return
 * side of an entry/return latency pair took half the time of a hash's
 * lookup and delete).
 *
 * self-> arrays and associative arrays are one BPF hash map each, keyed by
 * [thread id,] key tuple, sized from dynvarsize: storing 0 deletes an
 * element, and a full map drops the store and counts a dynamic variable
 * drop.
 *
 * Strings and long doubles are buffers (copied, never deleted); floats and
 * doubles are the 8-byte slot of their bits, like integers (+0.0 deletes).
 */
#include <dcc/abi.h>
#include "cg.h"
#include "cg_bpf.h"
#include "proc_prov.h"

static bool dynamic(const struct var *v)
{
	return v->kind == V_SELF || v->nkeys > 0;
}

/* A key's bytes in the map key: a string's buffer, a struct's bytes
 * rounded up to 8 (the rest zeroed), an 8-byte slot for the rest. */
static unsigned key_slot(struct cg *cg, const struct type *t)
{
	if (t->kind == T_STRUCT || t->kind == T_UNION)
		return (t->size + 7) & ~7u;
	return t->kind == T_STRING ? cg->strsize : 8;
}

/* Thread-locals in task storage unless a program stands for another task
 * than the running one (a proc/sched row with `cur`: sched:::on-cpu). */
void cg_var_choose_tls(struct cg *cg)
{
	struct sema *s = cg->s;
	cg->tls_in_task = true;
	for (int c = 0; c < s->nclauses; c++)
		for (int g = 0; g < s->clauses[c].ngroups; g++) {
			struct pgroup *grp = &s->clauses[c].groups[g];
			if (grp->kind == PK_PROC && (grp->cur[PC_TASK] || grp->cur[PC_PIDTGID]))
				cg->tls_in_task = false;
		}
}

bool cg_var_task_local(const struct cg *cg, const struct var *v)
{
	return cg->tls_in_task && v->kind == V_SELF && !v->nkeys;
}

unsigned cg_var_key_size(struct cg *cg, const struct var *v)
{
	if (cg_var_task_local(cg, v))
		return 4; /* the map's key is a task's pid file descriptor */
	unsigned size = v->kind == V_SELF ? 8 : 0;
	for (int i = 0; i < v->nkeys; i++)
		size += key_slot(cg, v->keys[i]);
	return size;
}

/* Evaluate the key tuple (once) into memory laid out as the map's key. */
struct lref cg_lref(struct cg *cg, struct node *lv)
{
	struct lref r = { .v = lv->sym };
	struct var *v = r.v;
	if (!dynamic(v))
		return r;
	/* a thread-local's "key" is the current task (asked once a firing:
	 * the helper is marked as touching no memory) */
	if (cg_var_task_local(cg, v)) {
		r.key = cg_bpf_get_current_task_btf(cg);
		return r;
	}
	/* each access keeps its key apart (a nested access or the value may
	 * take another while this one is built and used), so a clause of many
	 * takes them from scratch once its stack share is used */
	r.key = cg_tmpbuf(cg, cg_var_key_size(cg, v));
	unsigned off = 0;
	if (v->kind == V_SELF) {
		LLVMBuildStore(cg->b, cg_pid_tgid(cg), r.key);
		off = 8;
	}
	int i = 0;
	for (struct node *k = lv->kind == N_INDEX ? lv->list : NULL; k; k = k->next, i++) {
		LLVMValueRef o = cg_i64(cg, off);
		LLVMValueRef dst = LLVMBuildGEP2(cg->b, cg->i8, r.key, &o, 1, "");
		struct type *kt = v->keys[i];
		if (kt->kind == T_STRUCT || kt->kind == T_UNION) {
			/* the struct may be kernel memory, as an assignment's is */
			cg_memop(cg, "llvm.memset", dst, NULL, key_slot(cg, kt));
			cg_bpf_probe_read_kernel(cg, dst, cg_i32(cg, kt->size), cg_addr(cg, k));
			off += key_slot(cg, kt);
			continue;
		}
		struct cval kv = cg_expr(cg, k);
		if (kt->kind == T_STRING) {
			/* DTrace reads a key's string through its pointer: the
			 * NULL string is an invalid address there too */
			cg_str_notnull(cg, k, kv);
			cg_strcopy(cg, dst, cg->strsize, kv);
			off += cg->strsize;
		} else {
			LLVMBuildStore(cg->b, cg_norm(cg, kv.v, v->keys[i]), dst);
			off += 8;
		}
	}
	return r;
}

static struct cval ival(LLVMValueRef v, struct type *t)
{
	return (struct cval){ .v = v, .t = t };
}

static LLVMValueRef map_of(struct cg *cg, struct var *v)
{
	return cg_map_ref(cg, cg->var_map[v->index]);
}

/* A dynamic variable's value in its map, NULL if absent; a thread-local's
 * created zeroed where create (an i64) is nonzero. */
static LLVMValueRef value_of(struct cg *cg, struct lref *r, LLVMValueRef create)
{
	if (cg_var_task_local(cg, r->v))
		return cg_bpf_task_storage_get(cg, map_of(cg, r->v), r->key, create);
	return cg_bpf_map_lookup(cg, map_of(cg, r->v), r->key);
}

/* Bytes of a value kept as a buffer (string, long double); 0 for a word. */
static unsigned buf_size(struct cg *cg, const struct var *v)
{
	if (v->type->kind == T_STRING)
		return cg->strsize;
	return type_is_float(v->type) && v->type->size > 8 ? v->type->size : 0;
}

static struct cval bufval(struct var *v, LLVMValueRef p, unsigned size)
{
	return (struct cval){ .v = p, .t = v->type, .cap = size };
}

struct cval cg_lref_load(struct cg *cg, struct lref *r)
{
	struct var *v = r->v;
	unsigned bs = buf_size(cg, v);
	if (!dynamic(v)) {
		LLVMValueRef p = v->kind == V_GLOBAL ? cg->gvar[v->id]
						     : cg_scratch(cg, cg->this_off[v->id]);
		if (bs)
			return bufval(v, p, bs);
		return ival(LLVMBuildLoad2(cg->b, cg->i64, p, v->name), v->type);
	}
	/* a thread-local looked up at the top level stays valid for the rest
	 * of the firing until something stores to it */
	bool cacheable = v->kind == V_SELF && !v->nkeys;
	LLVMValueRef p = cacheable ? cg->p->self_ptr[v->index] : NULL;
	if (!p) {
		p = value_of(cg, r, cg_i64(cg, 0));
		if (cacheable && !cg->p->cond_depth)
			cg->p->self_ptr[v->index] = p;
	}
	LLVMBasicBlockRef here = LLVMGetInsertBlock(cg->b);
	LLVMBasicBlockRef found = cg_block(cg, "var.found"), done = cg_block(cg, "var.done");
	LLVMValueRef isnull = LLVMBuildIsNull(cg->b, p, "");
	if (bs) {
		LLVMValueRef dst = cg_scratch(cg, cg_scratch_alloc(cg, bs));
		LLVMBasicBlockRef miss = cg_block(cg, "var.miss");
		LLVMBuildCondBr(cg->b, isnull, miss, found);
		LLVMPositionBuilderAtEnd(cg->b, miss);
		cg_memop(cg, "llvm.memset", dst, NULL, bs);
		/* a thread-local or array element string never stored (or
		 * stored 0, which frees it) is D's NULL string: DTrace for
		 * Linux reads a null pointer there */
		if (v->type->kind == T_STRING)
			cg_str_set_null(cg, dst);
		LLVMBuildBr(cg->b, done);
		LLVMPositionBuilderAtEnd(cg->b, found);
		cg_memop(cg, "llvm.memcpy", dst, p, bs);
		LLVMBuildBr(cg->b, done);
		LLVMPositionBuilderAtEnd(cg->b, done);
		return bufval(v, dst, bs);
	}
	LLVMBuildCondBr(cg->b, isnull, done, found);
	LLVMPositionBuilderAtEnd(cg->b, found);
	LLVMValueRef val = LLVMBuildLoad2(cg->b, cg->i64, p, "");
	LLVMBuildBr(cg->b, done);
	LLVMPositionBuilderAtEnd(cg->b, done);
	LLVMValueRef phi = LLVMBuildPhi(cg->b, cg->i64, v->name);
	LLVMValueRef vals[2] = { cg_i64(cg, 0), val };
	LLVMBasicBlockRef blocks[2] = { here, found };
	LLVMAddIncoming(phi, vals, blocks, 2);
	return ival(phi, v->type);
}

/* A thread-local stored: into its value, found or created. 0 stored
 * creates nothing and is written in place where the value exists, through
 * the pointer the firing already found if it did (the predicate's test of
 * it, say: task storage does not move). Other stores ask again: a pointer
 * kept live across later tests would split the verifier's paths at each
 * (it cannot merge a NULL and a valid pointer), and a clause of many
 * thread-locals exceeded its budget. */
static void task_local_store(struct cg *cg, struct lref *r, struct cval val, LLVMValueRef iv,
			     unsigned bs)
{
	struct var *v = r->v;
	LLVMBasicBlockRef have = cg_block(cg, "tls.have"), done = cg_block(cg, "store.done");
	if (!bs && LLVMIsAConstantInt(iv) && !LLVMConstIntGetZExtValue(iv)) {
		LLVMValueRef known = cg->p->self_ptr[v->index];
		LLVMValueRef p = known ? known : value_of(cg, r, cg_i64(cg, 0));
		LLVMBuildCondBr(cg->b, LLVMBuildIsNull(cg->b, p, ""), done, have);
		LLVMPositionBuilderAtEnd(cg->b, have);
		LLVMBuildStore(cg->b, iv, p);
		LLVMBuildBr(cg->b, done);
		LLVMPositionBuilderAtEnd(cg->b, done);
		cg->p->self_ptr[v->index] = NULL;
		return;
	}
	LLVMBasicBlockRef miss = cg_block(cg, "tls.miss");
	/* created for a buffer and a value known nonzero; else where nonzero */
	LLVMValueRef create = bs || (val.nonzero && v->type->size == 8)
		? cg_i64(cg, BPF_LOCAL_STORAGE_GET_F_CREATE)
		: LLVMBuildZExt(cg->b, LLVMBuildICmp(cg->b, LLVMIntNE, iv, cg_i64(cg, 0), ""),
				cg->i64, "");
	LLVMValueRef p = value_of(cg, r, create);
	LLVMBuildCondBr(cg->b, LLVMBuildIsNull(cg->b, p, ""), miss, have);
	LLVMPositionBuilderAtEnd(cg->b, have);
	if (v->type->kind == T_STRING)
		cg_strcopy(cg, p, cg->strsize, val);
	else if (bs)
		cg_memop(cg, "llvm.memcpy", p, val.v, bs);
	else
		LLVMBuildStore(cg->b, iv, p);
	LLVMBuildBr(cg->b, done);
	/* absent and not to be created (0 stored): nothing to do; else the
	 * creation failed */
	LLVMPositionBuilderAtEnd(cg->b, miss);
	LLVMBasicBlockRef full = cg_block(cg, "tls.full");
	LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntNE, create, cg_i64(cg, 0), ""), full,
			done);
	LLVMPositionBuilderAtEnd(cg->b, full);
	cg_count_drop(cg, DCC_DROP_DYNVAR);
	LLVMBuildBr(cg->b, done);
	LLVMPositionBuilderAtEnd(cg->b, done);
	cg->p->self_ptr[v->index] = NULL;
}

void cg_lref_store(struct cg *cg, struct lref *r, struct cval val)
{
	struct var *v = r->v;
	bool str = v->type->kind == T_STRING;
	unsigned bs = buf_size(cg, v);
	LLVMValueRef iv = bs ? NULL : cg_norm(cg, val.v, v->type);
	if (cg_var_task_local(cg, v)) {
		task_local_store(cg, r, val, iv, bs);
		return;
	}
	if (!dynamic(v)) {
		LLVMValueRef p = v->kind == V_GLOBAL ? cg->gvar[v->id]
						     : cg_scratch(cg, cg->this_off[v->id]);
		if (str)
			cg_strcopy(cg, p, cg->strsize, val);
		else if (bs)
			cg_memop(cg, "llvm.memcpy", p, val.v, bs);
		else
			LLVMBuildStore(cg->b, iv, p);
		return;
	}
	LLVMValueRef map = map_of(cg, v);
	LLVMValueRef src;
	LLVMBasicBlockRef done = cg_block(cg, "store.done");
	cg->p->self_ptr[v->index] = NULL; /* an update or delete moves or frees it */
	if (bs) {
		if (val.cap >= bs) {
			src = val.v;
		} else {
			src = cg_scratch(cg, cg_scratch_alloc(cg, cg->strsize));
			cg_strcopy(cg, src, cg->strsize, val);
		}
	} else if (val.nonzero && v->type->size == 8) {
		src = cg_tmp64(cg);
		LLVMBuildStore(cg->b, iv, src);
	} else {
		LLVMBasicBlockRef del = cg_block(cg, "var.del"), upd = cg_block(cg, "var.upd");
		LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntEQ, iv, cg_i64(cg, 0), ""), del,
				upd);
		LLVMPositionBuilderAtEnd(cg->b, del);
		cg_bpf_map_delete(cg, map, r->key);
		LLVMBuildBr(cg->b, done);
		LLVMPositionBuilderAtEnd(cg->b, upd);
		src = cg_tmp64(cg);
		LLVMBuildStore(cg->b, iv, src);
	}
	LLVMValueRef rc = cg_bpf_map_update(cg, map, r->key, src, BPF_ANY);
	LLVMBasicBlockRef fail = cg_block(cg, "var.full");
	LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntEQ, rc, cg_i64(cg, 0), ""), done, fail);
	LLVMPositionBuilderAtEnd(cg->b, fail);
	cg_count_drop(cg, DCC_DROP_DYNVAR);
	LLVMBuildBr(cg->b, done);
	LLVMPositionBuilderAtEnd(cg->b, done);
}

struct cval cg_var_load(struct cg *cg, struct node *lv)
{
	struct lref r = cg_lref(cg, lv);
	return cg_lref_load(cg, &r);
}

/* Bytes a variable's value takes in its storage. */
unsigned cg_var_size(struct cg *cg, const struct var *v)
{
	if (v->type->kind == T_STRING)
		return cg->strsize;
	if (v->type->kind == T_STRUCT || v->type->kind == T_UNION || v->type->kind == T_ARRAY ||
	    type_is_float(v->type))
		return (v->type->size + 7) & ~7u;
	return 8;
}

/* The storage of a variable: its .bss global, its scratch slot, or (for a
 * thread-local) its map value, created zeroed if the thread has none yet;
 * when the map is full the firing is dropped and counted. */
LLVMValueRef cg_var_addr(struct cg *cg, struct node *vn)
{
	struct lref r = cg_lref(cg, vn);
	struct var *v = r.v;
	if (!dynamic(v))
		return v->kind == V_GLOBAL ? cg->gvar[v->id] : cg_scratch(cg, cg->this_off[v->id]);
	if (cg_var_task_local(cg, v)) {
		LLVMValueRef p = value_of(cg, &r, cg_i64(cg, BPF_LOCAL_STORAGE_GET_F_CREATE));
		LLVMBasicBlockRef full = cg_block(cg, "tls.full"), done = cg_block(cg, "tls.have");
		LLVMBuildCondBr(cg->b, LLVMBuildIsNull(cg->b, p, ""), full, done);
		LLVMPositionBuilderAtEnd(cg->b, full);
		cg_count_drop(cg, DCC_DROP_DYNVAR);
		cg_leave(cg);
		LLVMPositionBuilderAtEnd(cg->b, done);
		cg->p->self_ptr[v->index] = NULL;
		return p;
	}
	LLVMValueRef map = map_of(cg, v);
	LLVMValueRef p = cg_bpf_map_lookup(cg, map, r.key);
	LLVMBasicBlockRef from = LLVMGetInsertBlock(cg->b);
	LLVMBasicBlockRef make = cg_block(cg, "var.make"), done = cg_block(cg, "var.have");
	LLVMBasicBlockRef full = cg_block(cg, "var.full");
	LLVMBuildCondBr(cg->b, LLVMBuildIsNull(cg->b, p, ""), make, done);
	LLVMPositionBuilderAtEnd(cg->b, make);
	LLVMValueRef zero = cg_zero_value(cg, cg_var_size(cg, v));
	cg_bpf_map_update(cg, map, r.key, zero, BPF_NOEXIST);
	LLVMValueRef p2 = cg_bpf_map_lookup(cg, map, r.key);
	LLVMBasicBlockRef made = LLVMGetInsertBlock(cg->b);
	LLVMBuildCondBr(cg->b, LLVMBuildIsNull(cg->b, p2, ""), full, done);
	LLVMPositionBuilderAtEnd(cg->b, full);
	cg_count_drop(cg, DCC_DROP_DYNVAR);
	cg_leave(cg);
	LLVMPositionBuilderAtEnd(cg->b, done);
	LLVMValueRef phi = LLVMBuildPhi(cg->b, cg->ptr, "varaddr");
	LLVMValueRef vals[2] = { p, p2 };
	LLVMBasicBlockRef blocks[2] = { from, made };
	LLVMAddIncoming(phi, vals, blocks, 2);
	cg->p->self_ptr[v->index] = NULL;
	return phi;
}

/* A thread-local or associative array element deleted (0 stored to a
 * struct value, sema_zero_deletes). */
void cg_var_delete(struct cg *cg, struct node *lv)
{
	struct lref r = cg_lref(cg, lv);
	cg->p->self_ptr[r.v->index] = NULL;
	if (cg_var_task_local(cg, r.v))
		cg_bpf_task_storage_delete(cg, map_of(cg, r.v), r.key);
	else
		cg_bpf_map_delete(cg, map_of(cg, r.v), r.key);
}
