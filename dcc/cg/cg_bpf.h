/*
 * BPF helpers and map constants for codegen: a helper call by its
 * <linux/bpf.h> name (BPF_FUNC_*) -> an LLVM call of the helper's number with
 * its function type, built once per module. The named wrappers below are the
 * helpers codegen uses; map types and flags are <linux/bpf.h>'s own.
 */
#ifndef DCC_CG_BPF_H
#define DCC_CG_BPF_H

#include <stdint.h>
#include <linux/bpf.h>

#include "cg.h"

/* The helper `id` called with args (as many as it takes, of its types). */
LLVMValueRef cg_bpf_call(struct cg *cg, enum bpf_func_id id, LLVMValueRef *args, unsigned n);

/* maps: map is the map's global (cg_map_ref), key and val pointers */
LLVMValueRef cg_bpf_map_lookup(struct cg *cg, LLVMValueRef map, LLVMValueRef key);
LLVMValueRef cg_bpf_map_update(struct cg *cg, LLVMValueRef map, LLVMValueRef key,
			       LLVMValueRef val, uint64_t flags);
LLVMValueRef cg_bpf_map_delete(struct cg *cg, LLVMValueRef map, LLVMValueRef key);
LLVMValueRef cg_bpf_task_storage_get(struct cg *cg, LLVMValueRef map, LLVMValueRef task,
				     LLVMValueRef create);
LLVMValueRef cg_bpf_task_storage_delete(struct cg *cg, LLVMValueRef map, LLVMValueRef task);

/* probe reads: size is an i32 or an i64; each returns the helper's i64 result */
LLVMValueRef cg_bpf_probe_read(struct cg *cg, enum bpf_func_id id, LLVMValueRef dst,
			       LLVMValueRef size, LLVMValueRef src);
LLVMValueRef cg_bpf_probe_read_kernel(struct cg *cg, LLVMValueRef dst, LLVMValueRef size,
				      LLVMValueRef src);
LLVMValueRef cg_bpf_probe_read_kernel_str(struct cg *cg, LLVMValueRef dst, LLVMValueRef size,
					  LLVMValueRef src);
LLVMValueRef cg_bpf_probe_read_user(struct cg *cg, LLVMValueRef dst, LLVMValueRef size,
				    LLVMValueRef src);
LLVMValueRef cg_bpf_probe_read_user_str(struct cg *cg, LLVMValueRef dst, LLVMValueRef size,
					LLVMValueRef src);
LLVMValueRef cg_bpf_probe_write_user(struct cg *cg, LLVMValueRef dst, LLVMValueRef src,
				     LLVMValueRef size);

/* the ring buffer: flags are BPF_RB_* */
LLVMValueRef cg_bpf_ringbuf_reserve(struct cg *cg, LLVMValueRef rb, uint64_t size,
				    uint64_t flags);
void cg_bpf_ringbuf_submit(struct cg *cg, LLVMValueRef rec, LLVMValueRef flags);
void cg_bpf_ringbuf_discard(struct cg *cg, LLVMValueRef rec, uint64_t flags);
LLVMValueRef cg_bpf_ringbuf_query(struct cg *cg, LLVMValueRef rb, uint64_t flags);

/* the current task and CPU; the i64 (i32 for the CPU) each helper returns */
LLVMValueRef cg_bpf_get_current_pid_tgid(struct cg *cg);
LLVMValueRef cg_bpf_get_current_uid_gid(struct cg *cg);
LLVMValueRef cg_bpf_get_current_task(struct cg *cg);
LLVMValueRef cg_bpf_get_current_task_btf(struct cg *cg);
LLVMValueRef cg_bpf_task_pt_regs(struct cg *cg, LLVMValueRef task);
LLVMValueRef cg_bpf_get_current_comm(struct cg *cg, LLVMValueRef buf, LLVMValueRef size);
LLVMValueRef cg_bpf_get_smp_processor_id(struct cg *cg);
LLVMValueRef cg_bpf_get_smp_processor_id64(struct cg *cg);
LLVMValueRef cg_bpf_ktime_get_ns(struct cg *cg);
LLVMValueRef cg_bpf_get_prandom_u32(struct cg *cg);
LLVMValueRef cg_bpf_get_stack(struct cg *cg, LLVMValueRef ctx, LLVMValueRef buf,
			      LLVMValueRef size, uint64_t flags);
LLVMValueRef cg_bpf_send_signal(struct cg *cg, LLVMValueRef sig);
/* bpf_loop(n, fn, ctx, 0) */
LLVMValueRef cg_bpf_loop(struct cg *cg, LLVMValueRef n, LLVMValueRef fn, LLVMValueRef ctx);
/* a load of t from the program's context at off (not a helper: a plain
 * load the verifier accepts only at a fixed offset from ctx) */
LLVMValueRef cg_bpf_ctx_load(struct cg *cg, LLVMTypeRef t, unsigned off);
/* *(u32 or u64 *)(base + off) = imm, one BPF_ST (size 4 or 8) */
void cg_bpf_store_imm(struct cg *cg, LLVMValueRef base, unsigned off, unsigned size,
		      int32_t imm);

#endif
