/*
 * BPF helper calls: a BPF_FUNC_* id and its arguments -> a call through the
 * helper's number, the way clang calls helpers ((fn *)id)(...), with the
 * LLVM function type written once below per helper and built once per module.
 */
#include <assert.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "cg_bpf.h"

/* an argument's or result's LLVM type. A_SIZE is a u32 size that codegen
 * passes as an i32 or as an i64: BPF passes every argument in a 64-bit
 * register, and the width decides whether a constant is loaded with a 32-
 * or a 64-bit move, which the verifier tracks differently in string loops. */
enum { A_VOID, A_PTR, A_I32, A_I64, A_SIZE };

static const struct {
	unsigned char ret, n, args[4];
} sigs[__BPF_FUNC_MAX_ID] = {
	[BPF_FUNC_map_lookup_elem] = { A_PTR, 2, { A_PTR, A_PTR } },
	[BPF_FUNC_map_update_elem] = { A_I64, 4, { A_PTR, A_PTR, A_PTR, A_I64 } },
	[BPF_FUNC_map_delete_elem] = { A_I64, 2, { A_PTR, A_PTR } },
	[BPF_FUNC_ktime_get_ns] = { A_I64, 0, { 0 } },
	[BPF_FUNC_get_prandom_u32] = { A_I64, 0, { 0 } },
	[BPF_FUNC_get_smp_processor_id] = { A_I32, 0, { 0 } },
	[BPF_FUNC_get_current_pid_tgid] = { A_I64, 0, { 0 } },
	[BPF_FUNC_get_current_uid_gid] = { A_I64, 0, { 0 } },
	[BPF_FUNC_get_current_comm] = { A_I64, 2, { A_PTR, A_I32 } },
	[BPF_FUNC_get_current_task] = { A_I64, 0, { 0 } },
	[BPF_FUNC_probe_write_user] = { A_I64, 3, { A_PTR, A_PTR, A_I32 } },
	[BPF_FUNC_get_stack] = { A_I64, 4, { A_PTR, A_PTR, A_I32, A_I64 } },
	[BPF_FUNC_send_signal] = { A_I64, 1, { A_I32 } },
	[BPF_FUNC_probe_read_user] = { A_I64, 3, { A_PTR, A_SIZE, A_PTR } },
	[BPF_FUNC_probe_read_kernel] = { A_I64, 3, { A_PTR, A_SIZE, A_PTR } },
	[BPF_FUNC_probe_read_user_str] = { A_I64, 3, { A_PTR, A_SIZE, A_PTR } },
	[BPF_FUNC_probe_read_kernel_str] = { A_I64, 3, { A_PTR, A_SIZE, A_PTR } },
	[BPF_FUNC_ringbuf_reserve] = { A_PTR, 3, { A_PTR, A_I64, A_I64 } },
	[BPF_FUNC_ringbuf_submit] = { A_VOID, 2, { A_PTR, A_I64 } },
	[BPF_FUNC_ringbuf_discard] = { A_VOID, 2, { A_PTR, A_I64 } },
	[BPF_FUNC_ringbuf_query] = { A_I64, 2, { A_PTR, A_I64 } },
	[BPF_FUNC_loop] = { A_I64, 4, { A_I64, A_PTR, A_PTR, A_I64 } },
	[BPF_FUNC_task_storage_get] = { A_PTR, 4, { A_PTR, A_PTR, A_PTR, A_I64 } },
	[BPF_FUNC_task_storage_delete] = { A_I64, 2, { A_PTR, A_PTR } },
	[BPF_FUNC_get_current_task_btf] = { A_PTR, 0, { 0 } },
	[BPF_FUNC_task_pt_regs] = { A_PTR, 1, { A_PTR } },
	[BPF_FUNC_get_attach_cookie] = { A_I64, 1, { A_PTR } },
};

static LLVMTypeRef llvm_type(struct cg *cg, unsigned char a)
{
	switch (a) {
	case A_PTR: return cg->ptr;
	case A_I32: return cg->i32;
	case A_I64: return cg->i64;
	default: return cg->void_t;
	}
}

/* The helper's type, with its A_SIZE arguments as i64 if wide; built once
 * per module. */
static LLVMTypeRef helper_type(struct cg *cg, enum bpf_func_id id, bool wide)
{
	assert(id > 0 && id < __BPF_FUNC_MAX_ID && sigs[id].ret + sigs[id].n);
	if (!cg->helper_fty)
		cg->helper_fty = arena_alloc(cg->ar, sizeof(LLVMTypeRef) * 2 * __BPF_FUNC_MAX_ID);
	LLVMTypeRef *fty = &cg->helper_fty[2 * id + wide];
	if (!*fty) {
		LLVMTypeRef params[4];
		for (unsigned i = 0; i < sigs[id].n; i++)
			params[i] = sigs[id].args[i] == A_SIZE ? (wide ? cg->i64 : cg->i32)
				    : llvm_type(cg, sigs[id].args[i]);
		*fty = LLVMFunctionType(llvm_type(cg, sigs[id].ret), params, sigs[id].n, 0);
	}
	return *fty;
}

LLVMValueRef cg_bpf_call(struct cg *cg, enum bpf_func_id id, LLVMValueRef *args, unsigned n)
{
	assert(n == sigs[id].n);
	bool wide = false;
	for (unsigned i = 0; i < n; i++)
		if (sigs[id].args[i] == A_SIZE)
			wide = LLVMTypeOf(args[i]) == cg->i64;
	LLVMTypeRef fty = helper_type(cg, id, wide);
	LLVMValueRef callee = LLVMConstIntToPtr(cg_i64(cg, (uint64_t)id), cg->ptr);
	LLVMValueRef call = LLVMBuildCall2(cg->b, fty, callee, args, n, "");
	/* A map helper reads its key (and update its value) and keeps no
	 * pointer to it: so LLVM may keep a key in a stack slot across the
	 * call instead of storing it again for the next lookup or delete. */
	if (id == BPF_FUNC_map_lookup_elem || id == BPF_FUNC_map_update_elem ||
	    id == BPF_FUNC_map_delete_elem) {
		unsigned ro = LLVMGetEnumAttributeKindForName("readonly", 8);
		unsigned nc = LLVMGetEnumAttributeKindForName("nocapture", 9);
		for (unsigned a = 2; a <= (id == BPF_FUNC_map_update_elem ? 3u : 2u); a++) {
			LLVMAddCallSiteAttribute(call, a, LLVMCreateEnumAttribute(cg->C, ro, 0));
			LLVMAddCallSiteAttribute(call, a, LLVMCreateEnumAttribute(cg->C, nc, 0));
		}
	}
	/* The clock (D's timestamp is one value a firing), the thread's ids
	 * and its task touch no memory of the program: LLVM may keep a value
	 * loaded before the call in a register rather than load it again, and
	 * asks for the task once a firing. */
	if (id == BPF_FUNC_ktime_get_ns || id == BPF_FUNC_get_current_pid_tgid ||
	    id == BPF_FUNC_get_current_task_btf) {
		unsigned mem = LLVMGetEnumAttributeKindForName("memory", 6);
		LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex,
					 LLVMCreateEnumAttribute(cg->C, mem, 0));
	}
	return call;
}

LLVMValueRef cg_bpf_map_lookup(struct cg *cg, LLVMValueRef map, LLVMValueRef key)
{
	LLVMValueRef args[2] = { map, key };
	return cg_bpf_call(cg, BPF_FUNC_map_lookup_elem, args, 2);
}

LLVMValueRef cg_bpf_map_update(struct cg *cg, LLVMValueRef map, LLVMValueRef key,
			       LLVMValueRef val, uint64_t flags)
{
	LLVMValueRef args[4] = { map, key, val, cg_i64(cg, flags) };
	return cg_bpf_call(cg, BPF_FUNC_map_update_elem, args, 4);
}

LLVMValueRef cg_bpf_map_delete(struct cg *cg, LLVMValueRef map, LLVMValueRef key)
{
	LLVMValueRef args[2] = { map, key };
	return cg_bpf_call(cg, BPF_FUNC_map_delete_elem, args, 2);
}

/* task's value in a BPF_MAP_TYPE_TASK_STORAGE map, created zeroed when
 * create (an i64: BPF_LOCAL_STORAGE_GET_F_CREATE or 0) says so; NULL when
 * absent or not created */
LLVMValueRef cg_bpf_task_storage_get(struct cg *cg, LLVMValueRef map, LLVMValueRef task,
				     LLVMValueRef create)
{
	LLVMValueRef args[4] = { map, task, LLVMConstNull(cg->ptr), create };
	return cg_bpf_call(cg, BPF_FUNC_task_storage_get, args, 4);
}

LLVMValueRef cg_bpf_task_storage_delete(struct cg *cg, LLVMValueRef map, LLVMValueRef task)
{
	LLVMValueRef args[2] = { map, task };
	return cg_bpf_call(cg, BPF_FUNC_task_storage_delete, args, 2);
}

LLVMValueRef cg_bpf_probe_read(struct cg *cg, enum bpf_func_id id, LLVMValueRef dst,
			       LLVMValueRef size, LLVMValueRef src)
{
	LLVMValueRef args[3] = { dst, size, src };
	return cg_bpf_call(cg, id, args, 3);
}

LLVMValueRef cg_bpf_probe_read_kernel(struct cg *cg, LLVMValueRef dst, LLVMValueRef size,
				      LLVMValueRef src)
{
	return cg_bpf_probe_read(cg, BPF_FUNC_probe_read_kernel, dst, size, src);
}

LLVMValueRef cg_bpf_probe_read_kernel_str(struct cg *cg, LLVMValueRef dst, LLVMValueRef size,
					  LLVMValueRef src)
{
	return cg_bpf_probe_read(cg, BPF_FUNC_probe_read_kernel_str, dst, size, src);
}

LLVMValueRef cg_bpf_probe_read_user(struct cg *cg, LLVMValueRef dst, LLVMValueRef size,
				    LLVMValueRef src)
{
	return cg_bpf_probe_read(cg, BPF_FUNC_probe_read_user, dst, size, src);
}

LLVMValueRef cg_bpf_probe_read_user_str(struct cg *cg, LLVMValueRef dst, LLVMValueRef size,
					LLVMValueRef src)
{
	return cg_bpf_probe_read(cg, BPF_FUNC_probe_read_user_str, dst, size, src);
}

LLVMValueRef cg_bpf_probe_write_user(struct cg *cg, LLVMValueRef dst, LLVMValueRef src,
				     LLVMValueRef size)
{
	LLVMValueRef args[3] = { dst, src, size };
	return cg_bpf_call(cg, BPF_FUNC_probe_write_user, args, 3);
}

LLVMValueRef cg_bpf_ringbuf_reserve(struct cg *cg, LLVMValueRef rb, uint64_t size,
				    uint64_t flags)
{
	LLVMValueRef args[3] = { rb, cg_i64(cg, size), cg_i64(cg, flags) };
	return cg_bpf_call(cg, BPF_FUNC_ringbuf_reserve, args, 3);
}

void cg_bpf_ringbuf_submit(struct cg *cg, LLVMValueRef rec, LLVMValueRef flags)
{
	LLVMValueRef args[2] = { rec, flags };
	cg_bpf_call(cg, BPF_FUNC_ringbuf_submit, args, 2);
}

void cg_bpf_ringbuf_discard(struct cg *cg, LLVMValueRef rec, uint64_t flags)
{
	LLVMValueRef args[2] = { rec, cg_i64(cg, flags) };
	cg_bpf_call(cg, BPF_FUNC_ringbuf_discard, args, 2);
}

LLVMValueRef cg_bpf_ringbuf_query(struct cg *cg, LLVMValueRef rb, uint64_t flags)
{
	LLVMValueRef args[2] = { rb, cg_i64(cg, flags) };
	return cg_bpf_call(cg, BPF_FUNC_ringbuf_query, args, 2);
}

LLVMValueRef cg_bpf_get_current_pid_tgid(struct cg *cg)
{
	return cg_bpf_call(cg, BPF_FUNC_get_current_pid_tgid, NULL, 0);
}

LLVMValueRef cg_bpf_get_current_uid_gid(struct cg *cg)
{
	return cg_bpf_call(cg, BPF_FUNC_get_current_uid_gid, NULL, 0);
}

LLVMValueRef cg_bpf_get_current_task(struct cg *cg)
{
	return cg_bpf_call(cg, BPF_FUNC_get_current_task, NULL, 0);
}

/* the current task as a typed (BTF) pointer, and the registers its user
 * code left on its kernel stack */
LLVMValueRef cg_bpf_get_current_task_btf(struct cg *cg)
{
	return cg_bpf_call(cg, BPF_FUNC_get_current_task_btf, NULL, 0);
}

LLVMValueRef cg_bpf_task_pt_regs(struct cg *cg, LLVMValueRef task)
{
	return cg_bpf_call(cg, BPF_FUNC_task_pt_regs, &task, 1);
}

LLVMValueRef cg_bpf_get_current_comm(struct cg *cg, LLVMValueRef buf, LLVMValueRef size)
{
	LLVMValueRef args[2] = { buf, size };
	return cg_bpf_call(cg, BPF_FUNC_get_current_comm, args, 2);
}

LLVMValueRef cg_bpf_get_smp_processor_id(struct cg *cg)
{
	return cg_bpf_call(cg, BPF_FUNC_get_smp_processor_id, NULL, 0);
}

/* The same as an i64: the helper's u32 comes zero-extended in r0 (the
 * inlined one is a 32-bit load), so no widening instruction is needed. */
LLVMValueRef cg_bpf_get_smp_processor_id64(struct cg *cg)
{
	LLVMTypeRef fty = LLVMFunctionType(cg->i64, NULL, 0, 0);
	LLVMValueRef callee =
		LLVMConstIntToPtr(cg_i64(cg, (uint64_t)BPF_FUNC_get_smp_processor_id), cg->ptr);
	return LLVMBuildCall2(cg->b, fty, callee, NULL, 0, "cpu");
}

LLVMValueRef cg_bpf_ktime_get_ns(struct cg *cg)
{
	return cg_bpf_call(cg, BPF_FUNC_ktime_get_ns, NULL, 0);
}

LLVMValueRef cg_bpf_get_prandom_u32(struct cg *cg)
{
	return cg_bpf_call(cg, BPF_FUNC_get_prandom_u32, NULL, 0);
}

LLVMValueRef cg_bpf_get_stack(struct cg *cg, LLVMValueRef ctx, LLVMValueRef buf,
			      LLVMValueRef size, uint64_t flags)
{
	LLVMValueRef args[4] = { ctx, buf, size, cg_i64(cg, flags) };
	return cg_bpf_call(cg, BPF_FUNC_get_stack, args, 4);
}

LLVMValueRef cg_bpf_send_signal(struct cg *cg, LLVMValueRef sig)
{
	return cg_bpf_call(cg, BPF_FUNC_send_signal, &sig, 1);
}

LLVMValueRef cg_bpf_loop(struct cg *cg, LLVMValueRef n, LLVMValueRef fn, LLVMValueRef ctx)
{
	LLVMValueRef args[4] = { n, fn, ctx, cg_i64(cg, 0) };
	return cg_bpf_call(cg, BPF_FUNC_loop, args, 4);
}

/* A load of t at ctx + off, kept as one instruction with the offset in it:
 * the verifier refuses a load through a context pointer that was moved
 * (`r6 += 16; r1 = *(u64 *)(r6 + 0)`) or chosen by a select. The pointer
 * goes through llvm.preserve.static.offset, whose BPF pass keeps each
 * access from that base whole, and the load is volatile, so two loads are
 * never merged into one through a selected pointer (gen seeds 92, 232). */
LLVMValueRef cg_bpf_ctx_load(struct cg *cg, LLVMTypeRef t, unsigned off)
{
	static const char name[] = "llvm.preserve.static.offset";
	unsigned iid = LLVMLookupIntrinsicID(name, sizeof(name) - 1);
	LLVMValueRef fn = LLVMGetIntrinsicDeclaration(cg->M, iid, NULL, 0);
	LLVMTypeRef fty = LLVMIntrinsicGetType(cg->C, iid, NULL, 0);
	LLVMValueRef base = LLVMBuildCall2(cg->b, fty, fn, &cg->p->ctx, 1, "");
	LLVMValueRef o = cg_i64(cg, off);
	LLVMValueRef p = LLVMBuildInBoundsGEP2(cg->b, cg->i8, base, &o, 1, "");
	LLVMValueRef v = LLVMBuildLoad2(cg->b, t, p, "");
	LLVMSetVolatile(v, 1);
	return v;
}

/* *(uSIZE *)(base + off) = imm as one BPF_ST instruction, which CPU v3's
 * instruction selection never makes (it moves the constant into a register
 * first: one instruction more, or two for a 64-bit one). Inline asm, and
 * only for memory nothing reads back as a number (a record's header, a key
 * zeroed before a helper fills it): Linux 6.1's verifier tracks a stack
 * slot BPF_ST wrote as unknown bytes, not as the constant. */
void cg_bpf_store_imm(struct cg *cg, LLVMValueRef base, unsigned off, unsigned size,
		      int32_t imm)
{
	static const char *const width[9] = { [4] = "u32", [8] = "u64" };
	char text[64];
	snprintf(text, sizeof(text), "*(%s *)($0 + %u) = %d", width[size], off, imm);
	LLVMTypeRef fty = LLVMFunctionType(cg->void_t, &cg->ptr, 1, 0);
	static const char cons[] = "r,~{memory}";
	LLVMValueRef asm_ = LLVMGetInlineAsm(fty, text, strlen(text), cons, sizeof(cons) - 1, 1,
					     0, LLVMInlineAsmDialectATT, 0);
	LLVMValueRef call = LLVMBuildCall2(cg->b, fty, asm_, &base, 1, "");
	/* it writes through its pointer only (memory(argmem: write), LLVM's
	 * encoding: Mod = 2 at the argument memory's two bits); unsaid, LLVM
	 * takes it for a write to every memory and reloads all around it */
	unsigned mem = LLVMGetEnumAttributeKindForName("memory", 6);
	LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex,
				 LLVMCreateEnumAttribute(cg->C, mem, 2));
	unsigned nc = LLVMGetEnumAttributeKindForName("nocapture", 9);
	LLVMAddCallSiteAttribute(call, 1, LLVMCreateEnumAttribute(cg->C, nc, 0));
}
