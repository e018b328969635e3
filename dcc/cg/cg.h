/*
 * LLVM IR generation: sema's product -> one LLVM module for the BPF target,
 * with debug info the backend turns into .BTF/.BTF.ext, libbpf-style maps and
 * sections, and the metadata section the runtime reads. The cg*.c files are the
 * only ones that see LLVM; cg_emit.h turns the module into an object.
 */
#ifndef DCC_CG_H
#define DCC_CG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/TargetMachine.h>
#include <linux/bpf.h>

#include "cg_builtin.h"
#include "sema.h"

struct cg_meta; /* cg_meta.h */

/* A value during codegen: integers are i64 normalized to their D type
 * (sign- or zero-extended from its size); strings are a pointer to a buffer
 * whose bytes after the NUL are zero up to `cap` (a multiple of 8). A float
 * or double is the i64 of its bits (a float's zero-extended); a long double
 * is a pointer to its 16 bytes (cap 16). No float is ever an LLVM FP value:
 * the BPF target has no floating point. */
struct cval {
	LLVMValueRef v;
	struct type *t;
	unsigned cap;
	bool nonzero; /* never 0 (timestamp): storing it never deletes */
};

struct cg_map {
	LLVMValueRef g;
	const char *name;
	uint32_t type, max_entries, key_size, value_size, flags;
	unsigned line;
};

/* Codegen's layout of a clause (cg_clause_layout): every program of the
 * clause fills the same record. */
struct cg_clause {
	uint32_t epid;
	bool records;         /* has data-recording actions: one record a firing */
	unsigned rec_size;
	unsigned *off;        /* per statement of the body: its first value's offset */
};

/* enum dcc_fault's values are below this (cg_prog's fault_tail) */
#define DCC_FAULT_KINDS 16

/* The BPF program being built: one per clause and probe group, made fresh
 * by build_group() (cg.c) and gone when its function is done. */
struct cg_prog {
	LLVMValueRef fn, ctx;
	LLVMMetadataRef sp;
	struct pgroup *grp;
	LLVMBasicBlockRef entry;
	LLVMValueRef scratch_slot; /* alloca holding the scratch map value pointer */
	bool scratch_used;
	unsigned scratch_top, scratch_max; /* temporaries after this_size */
	/* alloca() and copyin() memory: the first alloca_room bytes after
	 * this_size, alloca_top of them taken so far; temporaries follow */
	unsigned alloca_top, alloca_room;
	unsigned stack_used;       /* bytes of cg_tmpbuf() buffers on the stack */
	LLVMValueRef tmp64, zero32; /* shared stack slots (cg_tmp64...) */
	LLVMValueRef launder;      /* cg_store.c's stack slot */
	LLVMValueRef loopctx, loopctx_fn; /* cg_string.c: bpf_loop()'s ctx, and its function */
	LLVMValueRef strsink_fn;   /* cg_string.c: the function strsink (scratch offset) is for */
	unsigned strsink;
	/* values that can't change within a firing, computed once where they
	 * dominate the rest of the program (cond_depth 0: not inside ?:, &&
	 * or ||): the thread id, and thread-local lookups until a store */
	int cond_depth;
	LLVMValueRef pid_tgid;
	LLVMValueRef tstamp;       /* i64 alloca: timestamp once read, 0 before */
	LLVMValueRef firing_ts;    /* or the firing's slot in scratch (cg_timer.c) */
	LLVMValueRef *self_ptr;    /* per var index: the map value pointer */
	LLVMValueRef rec;          /* reserved ring-buffer record, or NULL */
	LLVMValueRef spec_id;      /* i64 alloca: the id speculate() was given */
	int epid;                  /* of this clause, 0 if it records nothing */
	LLVMValueRef ctx_nr;       /* cached syscall number (i64) */
	LLVMValueRef arg_hoisted;  /* a syscall argument loaded in the entry block */
	int arg_hoisted_at;        /* and its index (cg_syscall.c) */
	bool ctx_raw;              /* attached to raw_syscalls: args[6] always there */
	/* ...through a raw tracepoint: ctx is { struct pt_regs *, id or ret },
	 * the pointer BTF-typed (tp_btf: plain loads) or not (raw_tp: helper) */
	bool ctx_regs, regs_typed;
	LLVMBasicBlockRef drop_leave; /* cg_drop_leave()'s block, and its kind */
	LLVMValueRef drop_kind;
	LLVMBasicBlockRef rb_full;  /* the clause record's full buffer (cg_action.c) */
	LLVMValueRef rb_cpu;       /* and the CPU read before it */
	LLVMBasicBlockRef rec_tail; /* submits the clause record and returns (cg_action.c) */
	/* per fault kind: writes it into the clause record, and its detail */
	LLVMBasicBlockRef fault_tail[DCC_FAULT_KINDS];
	LLVMValueRef fault_detail[DCC_FAULT_KINDS];
	/* and: reserves a fault record of its own, writes it and submits it */
	LLVMBasicBlockRef fault_own_tail[DCC_FAULT_KINDS];
	LLVMValueRef fault_own_detail[DCC_FAULT_KINDS];
};

/* Module state: what the whole object shares (LLVM module, types, maps,
 * globals, metadata); the program being built is in p. */
struct cg {
	struct sema *s;
	const struct node *addr_of_elem; /* the a[i] under '&': i may be a's length */
	struct diag *dg;
	struct arena *ar;
	const char *src_name;
	unsigned strsize;
	unsigned strmax; /* sema's: strsize as the option gave it */
	unsigned strmember; /* a string member of a D struct: its bytes in place */
	unsigned strlen_max; /* the characters a string keeps: strmax, within strsize's NUL */

	LLVMContextRef C;
	LLVMModuleRef M;
	LLVMBuilderRef b;
	LLVMDIBuilderRef dib;
	LLVMMetadataRef di_file, di_cu;
	LLVMTargetMachineRef tm;
	LLVMTypeRef i8, i32, i64, ptr, void_t;
	LLVMMetadataRef di_int, di_u32, di_u64, di_char, di_voidptr;
	unsigned dbg_kind;

	/* maps and globals */
	struct cg_map *maps;
	LLVMValueRef inet_body[4]; /* cg_inet.c's bpf_loop() bodies, built at first use */
	int nmaps, cap_maps;
	int m_ringbuf, m_scratch;
	int m_pidnames; /* DCC_MAP_PIDNAMES, -1 without pid or USDT probes */
	int m_usdtspecs; /* DCC_MAP_USDTSPECS, -1 without USDT probes */
	int m_cpuinfo; /* DCC_MAP_CPUINFO, -1 when curcpu is not read */
	int m_lockstat; /* cg_lockstat.c's begin times, -1 without lockstat probes */
	int *var_map;      /* per var index: its map (dynamic variables) */
	/* thread-locals in task-local storage (cg_var.c): not where a program
	 * stands for another task than the running one (sched:::on-cpu) */
	bool tls_in_task;
	int *agg_map;      /* per agg id */
	bool *agg_array;   /* per agg id: a one-slot per-CPU array (keyless) */
	unsigned (*agg_keycap)[8]; /* per agg id: bytes of each string key slot */
	LLVMValueRef *gvar;  /* per V_GLOBAL var id */
	unsigned *this_off;  /* per V_THIS var id: offset in scratch */
	unsigned this_size;
	LLVMValueRef ro_target, ro_walloff, sysnames;
	LLVMValueRef *err_fns;     /* the ERROR clauses' functions, in source order */
	int nerr_fns;
	LLVMValueRef g_phase;      /* .bss DCC_BSS_PHASE, NULL without BEGIN or exit() */
	LLVMValueRef g_drops;      /* .bss DCC_BSS_DROPS, made by the first drop site */
	LLVMValueRef key0;         /* .rodata u32 0, made at its first use (cg_key0) */
	LLVMTypeRef ppid_ir;       /* ppid's minimal task_struct, made once */
	LLVMMetadataRef ppid_di;
	LLVMValueRef qtab;         /* .rodata table of quantize's buckets (cg_agg.c) */
	LLVMValueRef zero;         /* .rodata zeros a new aggregation key starts from */
	uint32_t zero_size;
	struct core_type *core;    /* local copies of kernel structs (cg_core.c) */
	int ncore, cap_core;
	LLVMValueRef *used;  /* llvm.compiler.used */
	int nused, cap_used;
	int nstrlits;
	uint64_t ringbuf_size;
	LLVMTypeRef *helper_fty;   /* cg_bpf.c: per BPF_FUNC_* id and size width, its type */

	int m_spec;                /* speculation states, -1 if unused */
	unsigned nspec, spec_slots;
	uint64_t specsize;

	/* cg_timer.c: per probe id, the clauses reading timestamp that fire
	 * on it (made at the first clause reading it); groups of those whose
	 * probe id is known only at run time (pid, USDT) */
	int *ts_clauses;
	int ts_runtime_ids;

	struct clause_info *ci;    /* the clause being laid out or built */
	struct cg_clause *cl;      /* its layout, once laid out */
	struct cg_prog *p;         /* the program being built, NULL between programs */

	struct cg_meta *meta;
	unsigned scratch_total;
	/* set by the caller: the kernel BTF sema read (size and FNV-1a 64
	 * of its bytes; 0 when it read none), recorded in the metadata */
	uint32_t btf_size;
	uint64_t btf_hash;
	/* set by the caller: the text compiled, embedded in the debug info's
	 * file (cg_difile.c); NULL: only the file's name */
	const char *src_text;
	size_t src_len;
	int emit;                  /* enum cg_emit_kind, set by the caller */
};

/* cg.c */
int cg_program(struct cg *cg, struct sema *s, struct diag *dg, struct arena *ar,
	       const char *src_name, const char *script_label, bool is_description);
/* The debug info's file name with text as its source (cg_difile.c); NULL if LLVM refuses it. */
LLVMMetadataRef cg_di_file(LLVMContextRef C, const char *name, const char *text, size_t len);
void cg_dispose(struct cg *cg);
LLVMValueRef cg_scratch(struct cg *cg, unsigned off); /* pointer into this CPU's scratch */
unsigned cg_scratch_alloc(struct cg *cg, unsigned size);
LLVMValueRef cg_tmpbuf(struct cg *cg, unsigned size);
LLVMValueRef cg_tmp64(struct cg *cg);
LLVMValueRef cg_key0(struct cg *cg);
LLVMValueRef cg_pid_tgid(struct cg *cg);
LLVMValueRef cg_timestamp(struct cg *cg);
void cg_set_loc(struct cg *cg, struct loc loc);
LLVMValueRef cg_i64(struct cg *cg, uint64_t v);
LLVMValueRef cg_i32(struct cg *cg, uint32_t v);
LLVMValueRef cg_alloca(struct cg *cg, LLVMTypeRef t, const char *name);
void cg_count_drop(struct cg *cg, int which);
/* the same, the drop kind an i32 value (a phi of kinds) */
void cg_count_drop_kind(struct cg *cg, LLVMValueRef kind);
void cg_drop_leave(struct cg *cg, int which);
LLVMValueRef cg_map_ref(struct cg *cg, int map);
LLVMBasicBlockRef cg_block(struct cg *cg, const char *name);
void cg_add_used(struct cg *cg, LLVMValueRef g);
/* a global's debug info (its BTF VAR), and an array's DI type */
void cg_global_di(struct cg *cg, LLVMValueRef g, const char *name, LLVMMetadataRef ty);
LLVMMetadataRef cg_di_array(struct cg *cg, LLVMMetadataRef elem, unsigned elem_bits, uint64_t n);
void cg_attach_di(struct cg *cg, LLVMValueRef g, const char *name, LLVMMetadataRef ty,
		  unsigned line);
/* cg_mapdef.c: a map of the object, by its index in cg->maps; and its BTF
 * definition, written once every size is known */
int cg_map_new(struct cg *cg, const char *name, uint32_t type, uint32_t max,
	       uint32_t key_size, uint32_t value_size, uint32_t flags);
void cg_map_di(struct cg *cg, struct cg_map *m);
/* A const volatile u64 in .rodata the loader sets before load (abi.h's DCC_RODATA_*). */
LLVMValueRef cg_rodata_u64(struct cg *cg, const char *name);
LLVMValueRef cg_ksym(struct cg *cg, const char *name, bool weak);
LLVMValueRef cg_strlit(struct cg *cg, const char *s, size_t len, unsigned *cap);

/* cg_expr.c */
struct cval cg_expr(struct cg *cg, struct node *n);
/* a binary operator on two values already normalized to t */
LLVMValueRef cg_arith(struct cg *cg, struct node *n, int op, LLVMValueRef a, LLVMValueRef b,
		      struct type *t);
/* cg_store.c: stores through a pointer into alloca() memory; an address
 * and size checked against the clause's scratch, as a pointer into it */
bool cg_is_pointer_store(struct node *lv);
struct cval cg_store(struct cg *cg, struct node *n);
/* v.m = x, a[i] = x: a member of a struct variable, an element of an
 * array variable, stored in place */
struct cval cg_store_member(struct cg *cg, struct node *n);
struct cval cg_scratch_load(struct cg *cg, struct node *n);
/* fault: DCC_FAULT_BADADDR (the address), or DCC_FAULT_BADSIZE (the size) */
LLVMValueRef cg_scratch_check(struct cg *cg, LLVMValueRef addr, unsigned size, uint32_t fault);
LLVMValueRef cg_store_check(struct cg *cg, LLVMValueRef addr, unsigned size);
/* The bytes the clause's alloca() and copyin() calls take, and one of them
 * taking its share: its offset in scratch. */
unsigned cg_alloca_room(struct node *clause);
unsigned cg_alloca_alloc(struct cg *cg, struct node *call, unsigned size);
/* The size bpf_probe_read_kernel_str() may read a string at src with, at
 * most max: up to the end of the clause's alloca() memory when src lies in
 * it, so the string never runs on into the temporaries after it. */
LLVMValueRef cg_alloca_str_max(struct cg *cg, LLVMValueRef src, uint32_t max);
/* the same with a count known at run time: too large for the clause's scratch is BADSIZE */
LLVMValueRef cg_scratch_check_n(struct cg *cg, LLVMValueRef addr, LLVMValueRef *size,
				uint32_t fault);
/* an i64 the verifier sees as a number, never as a pointer it would keep
 * the script from shifting, truncating or storing */
LLVMValueRef cg_launder(struct cg *cg, LLVMValueRef v);
LLVMValueRef cg_opaque(struct cg *cg, LLVMValueRef v);
/* stack(), ustack(), sym() and the other symbol functions: what the runtime names */
struct cval cg_symbolic(struct cg *cg, struct node *n);
/* cg_proc.c: the proc provider's programs */
const char *cg_proc_section(struct cg *cg, struct pgroup *g);
/* cg_pid.c: a pid probe's arguments (x86-64 pt_regs) and its firing's probe
 * id (the cookie the loader gave the function) */
LLVMValueRef cg_pid_arg(struct cg *cg, int i);
LLVMValueRef cg_pid_probe_id(struct cg *cg);
LLVMValueRef cg_pid_uregs(struct cg *cg, unsigned i);
/* probeprov (which 0), probemod (1), probefunc (2) or, for USDT, probename
 * (3) of the firing: a string of cap bytes */
LLVMValueRef cg_pid_name(struct cg *cg, int which, unsigned *cap);
/* cg_usdt.c: a USDT probe's argN, decoded from its note's specification */
LLVMValueRef cg_usdt_arg(struct cg *cg, int i);
void cg_proc_attach(struct cg *cg, struct pgroup *g);
LLVMValueRef cg_proc_arg(struct cg *cg, int i);
void cg_proc_filter(struct cg *cg, struct pgroup *g, LLVMBasicBlockRef body);
struct cval cg_proc_cur(struct cg *cg, struct node *n);
LLVMValueRef cg_curcpu(struct cg *cg);
LLVMValueRef cg_cur_task(struct cg *cg);
/* the minimal task_struct (real_parent, tgid) in cg->ppid_ir/ppid_di, made once */
void cg_task_type(struct cg *cg);
LLVMValueRef cg_norm(struct cg *cg, LLVMValueRef v, struct type *t);
void cg_strcopy(struct cg *cg, LLVMValueRef dst, unsigned dstcap, struct cval src);
LLVMValueRef cg_cond(struct cg *cg, struct node *n); /* i1 */
LLVMValueRef cg_probe_id(struct cg *cg);
/* cg_syscall.c */
bool cg_syscall_raw(const struct pgroup *g);
char cg_syscall_raw_kind(void);
void cg_syscall_filter(struct cg *cg, struct pgroup *g, LLVMBasicBlockRef body);
LLVMValueRef cg_syscall_nr(struct cg *cg, struct pgroup *g);
LLVMValueRef cg_syscall_reg(struct cg *cg, unsigned off);
LLVMValueRef cg_syscall_ret(struct cg *cg);
LLVMValueRef cg_syscall_arg(struct cg *cg, int i);
/* Bytes a string expression's buffer can need (>= the cap cg_expr gives). */
unsigned cg_str_cap(struct cg *cg, struct node *n);

/* cg_var.c: an lvalue with its dynamic-variable key evaluated once */
struct lref {
	struct var *v;
	LLVMValueRef key;
};
struct lref cg_lref(struct cg *cg, struct node *lv);
struct cval cg_lref_load(struct cg *cg, struct lref *r);
void cg_lref_store(struct cg *cg, struct lref *r, struct cval val);
struct cval cg_var_load(struct cg *cg, struct node *lv);
unsigned cg_var_key_size(struct cg *cg, const struct var *v);
bool cg_var_task_local(const struct cg *cg, const struct var *v);
void cg_var_choose_tls(struct cg *cg);
unsigned cg_var_size(struct cg *cg, const struct var *v);
LLVMValueRef cg_var_addr(struct cg *cg, struct node *vn);
void cg_var_delete(struct cg *cg, struct node *lv);
/* an all-zero value of size bytes (stack for small ones, else .rodata) */
LLVMValueRef cg_zero_value(struct cg *cg, uint32_t size);
/* leave the clause now: discard a reserved record, return 0 */
void cg_leave(struct cg *cg);
LLVMValueRef cg_memop(struct cg *cg, const char *name, LLVMValueRef dst, LLVMValueRef src,
		      uint64_t n);

/* cg_user.c */
struct cval cg_uregs(struct cg *cg, struct node *n);
struct cval cg_copyinstr(struct cg *cg, struct node *n);
struct cval cg_execargs(struct cg *cg, struct node *n); /* cg_execargs.c */
bool cg_str_into(struct cg *cg, struct node *a, LLVMValueRef dst, unsigned cap, bool zero);
struct cval cg_copyin(struct cg *cg, struct node *n);

/* cg_subr.c: alloca, bcopy, copyinto, byte order, rand, progenyof, getmajor, inet_* */
struct cval cg_subr(struct cg *cg, struct node *n);

/* cg_strnull.c: the NULL string, a buffer starting "\0\x7f" */
struct cval cg_str_null(struct cg *cg);
LLVMValueRef cg_str_isnull(struct cg *cg, LLVMValueRef p); /* i1 */
void cg_str_set_null(struct cg *cg, LLVMValueRef d);
void cg_str_null_unless(struct cg *cg, LLVMValueRef d, LLVMValueRef found);
bool cg_str_maybe_null(const struct node *n);
void cg_str_notnull(struct cg *cg, const struct node *n, struct cval v);
LLVMValueRef cg_str_null_order(struct cg *cg, struct cval a, struct cval b, LLVMValueRef c);

/* cg_string.c: strlen(), strjoin(), substr(), index()... */
struct cval cg_string(struct cg *cg, struct node *n);
struct cval cg_str_index(struct cg *cg, struct node *n); /* s[i] on a string */
LLVMValueRef cg_str_order(struct cg *cg, struct cval a, struct cval b); /* strcmp's sign */
LLVMValueRef cg_str_equal(struct cg *cg, struct cval a, struct cval b); /* s1 == s2 */

/* cg_builtin.c: the registry's codegen hooks, by row */
typedef struct cval (*cg_builtin_fn)(struct cg *cg, struct node *n);
/* The hook of a subroutine or of an action that does more than record, or NULL. */
cg_builtin_fn cg_builtin_hook(const struct builtin *bi);
bool cg_is_exit(struct node *st); /* an exit() statement */

/* cg_core.c */
LLVMValueRef cg_addr(struct cg *cg, struct node *n);
LLVMValueRef cg_core_steps(struct cg *cg, LLVMValueRef base, const struct member_path *mp,
			   int steps);
LLVMValueRef cg_preserve_access(struct cg *cg, LLVMValueRef base, LLVMTypeRef ir,
				LLVMMetadataRef di, int idx);
LLVMValueRef cg_kread(struct cg *cg, LLVMValueRef addr, struct type *t);
/* The same, but a failed read is an invalid address fault. */
LLVMValueRef cg_kread_or_fault(struct cg *cg, LLVMValueRef addr, struct type *t);
bool cg_is_bitfield(struct node *n);
struct cval cg_bitfield(struct cg *cg, struct node *n);
void cg_bitfield_store(struct cg *cg, struct node *n, LLVMValueRef v);
struct cval cg_kstring(struct cg *cg, struct node *n);
/* cg_inet.c: an inet_ntop()-like value (DCC_K_INET) as the string of its text */
struct cval cg_inet_string(struct cg *cg, struct cval in);
void cg_core_finish(struct cg *cg);

/* cg_dpath.c: d_path(), cwd, root */
struct cval cg_d_path(struct cg *cg, struct node *n);

/* cg_action.c */
void cg_clause_layout(struct cg *cg, struct clause_info *ci, struct cg_clause *cl);
void cg_clause_body(struct cg *cg);
/* Report a run-time fault (the clause's record is discarded) and leave. */
void cg_fault(struct cg *cg, uint32_t fault, LLVMValueRef detail);
/* The static function of each ERROR clause (cg_error.c), declared before
 * any program: (ctx, probe id, clause index | pc << 32, fault, detail). */
void cg_error_declare(struct cg *cg);
/* The one program of each tick/profile probe, calling its clauses' functions
 * in order (cg_timer.c). */
void cg_timer_programs(struct cg *cg);
/* How many calls the program of timer probe p makes to its clauses. */
int cg_timer_calls(const struct sema *s, const struct probe *p);
/* The first clause of the timer program a name starts with ("dcc_timer2"),
 * NULL if none: the clause of a message about a program it was inlined in. */
struct clause_info *cg_timer_clause(struct sema *s, const char *prog_name);
/* cg_repeat.c: the program of a group that g->repeat descriptions match,
 * calling the clause's function ONCE (built internal) that many times. */
void cg_repeat_program(struct cg *cg, struct pgroup *g, LLVMValueRef once, const char *sec,
		       struct loc loc);
/* cg_maplimit.c: each program's maps within the kernel's 64, or a diagnostic
 * at the clause; -1 when one is over. */
int cg_check_map_limit(struct cg *cg);
/* cg_lockstat.c */
bool cg_lockstat_used(struct sema *s);
void cg_lockstat_program(struct cg *cg);
LLVMValueRef cg_lockstat_arg(struct cg *cg, int src);
/* Bytes at the start of scratch for the firing's timestamp, and a clause's
 * claim on it, made where its body starts if it reads timestamp. */
#define CG_FIRING_SIZE 24
void cg_firing_sync(struct cg *cg);
/* Adds the function attribute NAME ("noinline", "nounwind"...) to fn. */
void cg_fn_attr(struct cg *cg, LLVMValueRef fn, const char *name);
/* Call the ERROR clauses for a fault of the clause being built. */
void cg_error_call(struct cg *cg, uint32_t fault, LLVMValueRef detail);
/* arg0..arg9 inside an ERROR clause. */
LLVMValueRef cg_error_arg(struct cg *cg, int i);
/* A branch that reports fault (with detail, NULL: none) and leaves the
 * program when bad is true; the builder goes on in the other arm. */
void cg_fault_if(struct cg *cg, LLVMValueRef bad, uint32_t fault, LLVMValueRef detail);
/* helper(dst, size, src) (a probe_read_*), faulting "invalid address" on src
 * when it fails; its return value. */
LLVMValueRef cg_read_or_fault(struct cg *cg, enum bpf_func_id helper, LLVMValueRef dst,
			      uint32_t size, LLVMValueRef src);
void cg_submit(struct cg *cg, LLVMValueRef rec, bool wake);

/* cg_destr.c: tracemem() and the destructive actions */
unsigned cg_tracemem_size(struct node *st);
void cg_tracemem_meta(struct cg *cg, struct node *st, unsigned off);
void cg_tracemem(struct cg *cg, struct node *st, unsigned off);
/* cg_print.c: print(x) */
unsigned cg_print_size(struct cg *cg, struct node *st);
void cg_print_meta(struct cg *cg, struct node *st, unsigned off);
void cg_print(struct cg *cg, struct node *st, unsigned off);
struct cval cg_destr(struct cg *cg, struct node *st); /* raise, stop, copyout, copyoutstr */

/* cg_spec.c */
LLVMValueRef cg_speculation(struct cg *cg);
void cg_speculate(struct cg *cg, struct node *id);
void cg_spec_submit(struct cg *cg, bool wake);
void cg_spec_release(struct cg *cg, struct node *id);

/* cg_agg.c */
void cg_agg_update(struct cg *cg, struct node *assign);
/* Bytes of one CPU's value of g (headers/dcc/abi_agg.h). */
uint32_t cg_agg_value_size(const struct agg *g);

#endif
