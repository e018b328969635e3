/*
 * The ABI shared by the compiler (dcc/) and the consumer (runtime/, loader/):
 * the metadata section every dcc object carries, the layout of ring-buffer
 * records, and the names of the maps and read-only globals the loader touches.
 * The rules both sides apply to them (aggregation sizes, options, enum names,
 * printf formats) are the abi_*.h headers beside it, implemented once in abi/.
 *
 * All integers are little-endian (BPF objects are bpfel). Offsets are from the
 * start of the metadata section. A "str" is an offset into the string table;
 * 0 is the empty string (the table starts with a NUL byte).
 */
#ifndef DCC_ABI_H
#define DCC_ABI_H

#include <stdint.h>

#define DCC_META_SECTION ".dcc.meta"
#define DCC_META_MAGIC "DCCMETA" /* 8 bytes with its NUL */
/* Adding a value kind or an action keeps the version: a runtime that
 * predates it refuses such an object when it checks the field ("unknown value
 * kind"), and every object without it stays readable. */
#define DCC_META_VERSION 1

/* Maps and globals with fixed names. */
#define DCC_MAP_RINGBUF "dcc_ringbuf"  /* BPF_MAP_TYPE_RINGBUF: clause records */
/* PERCPU_ARRAY u32 -> u64, indexed by enum dcc_drop: objects before 2026-11-27 (the
 * runtime still reads it); newer ones count drops in DCC_BSS_DROPS */
#define DCC_MAP_DROPS "dcc_drops"
#define DCC_MAP_SCRATCH "dcc_scratch"  /* PERCPU_ARRAY: string temporaries, this-> vars */
/* PERCPU_ARRAY u32 -> struct dcc_cpuinfo, one entry: curcpu, which the
 * loader fills for every CPU after load; only in objects that read curcpu */
#define DCC_MAP_CPUINFO "dcc_cpuinfo"
#define DCC_RODATA_TARGET "dcc_target" /* const volatile u64: $target pid, set before load */
#define DCC_RODATA_WALLOFF "dcc_walloff" /* const volatile u64: realtime - monotonic, ns */
/* const volatile u64 dcc_proc_pid, _ppid, _pgid, _sid, _uid, _gid, _euid, _egid: the macro
 * variables $pid... of the process that loads the object, set before load (those used) */
#define DCC_RODATA_PROC "dcc_proc_"
/* u64 in .bss, in objects with a BEGIN clause or an exit(): where tracing is, as
 * DTrace's activity state. A loader that never writes it traces at once. */
#define DCC_BSS_PHASE "dcc_phase"
/* u64 [DCC_DROPS_NCPU][DCC_DROP_NR] in .bss, in objects that can drop: the drop
 * counters of CPU c (modulo DCC_DROPS_NCPU) at [c], bumped by an atomic add. Cheaper
 * than a per-CPU array (no map lookup); the runtime maps .bss and reads them. Kinds
 * the runtime sums over CPUs (all but PRINCIPAL and AGG) may count in any row. */
#define DCC_BSS_DROPS "dcc_dropcnt"
#define DCC_DROPS_NCPU 1024
enum dcc_phase {
	DCC_PHASE_TRACING = 0, /* every probe's clauses run */
	DCC_PHASE_EXITED = 1,  /* exit() was called: only END and ERROR clauses run */
	DCC_PHASE_LOADED = 2,  /* set by the loader before load: only BEGIN (and ERROR)
				* clauses run, until the loader ends it when BEGIN is done */
};

/*
 * Every BPF program dcc emits is named "dcc_" + something ("dcc_begin",
 * "dcc_end", "dcc_c3" for the third clause, "dcc_c3_1" for its second
 * program when its probes need two program types), so tests and tools can
 * tell ours apart in `bpftool prog`.
 */
#define DCC_PROG_PREFIX "dcc_"

/* Indices of the drop counters of a CPU (DCC_BSS_DROPS, DCC_MAP_DROPS). */
enum dcc_drop {
	DCC_DROP_PRINCIPAL = 0, /* ring buffer full: "N drops on CPU C" */
	DCC_DROP_AGG = 1,       /* aggregation map full */
	DCC_DROP_DYNVAR = 2,    /* thread-local / assoc array map full */
	DCC_DROP_ERROR = 3,     /* run-time faults (ERROR probe) */
	DCC_DROP_SPEC = 4,      /* speculative buffer full: "N speculative drops" */
	DCC_DROP_SPEC_BUSY = 5, /* speculation() failed: buffers still busy */
	DCC_DROP_SPEC_UNAVAIL = 6, /* speculation() failed: no buffer available */
	DCC_DROP_NR = 8,
};

struct dcc_meta_header {
	char magic[8];       /* DCC_META_MAGIC */
	uint32_t version;    /* DCC_META_VERSION */
	uint32_t size;       /* bytes of the whole section */
	uint32_t str_off, str_size;
	uint32_t probe_off, nprobes;   /* struct dcc_meta_probe[] */
	uint32_t attach_off, nattach;  /* struct dcc_meta_attach[] */
	uint32_t clause_off, nclauses; /* struct dcc_meta_clause[], index = epid - 1 */
	uint32_t action_off, nactions; /* struct dcc_meta_action[] */
	uint32_t arg_off, nargs;       /* struct dcc_meta_field[]: printf/trace/exit arguments */
	uint32_t agg_off, naggs;       /* struct dcc_meta_agg[], index = agg id */
	uint32_t key_off, nkeys;       /* struct dcc_meta_field[]: aggregation key elements */
	uint32_t opt_off, nopts;       /* struct dcc_meta_option[] */
	uint32_t script;     /* str: "hello.d", or the -n description text */
	uint32_t flags;      /* DCC_META_F_* */
	uint32_t type_off, ntypes;     /* struct dcc_meta_type[]: print()'s types */
	uint32_t member_off, nmembers; /* struct dcc_meta_member[] */
	/* "matched N probes": as DTrace counts them, a probe once for each
	 * probe description of each clause that names it */
	uint32_t nenablings;
	/* What the object was made from, for `dtrun --info`: the compiler
	 * ("dcc 0.1.0") and the kernel BTF it was compiled against, by size
	 * and content (FNV-1a 64 of its bytes); btf_size 0: it read none (the
	 * script uses no kernel type). No path, host name or time: the same
	 * source, options and BTF give the same object anywhere. */
	uint32_t build;      /* str */
	uint32_t btf_size;
	/* FNV-1a 32 of the whole object with this field as zeros, written
	 * last by the compiler (headers/dcc/abi_sum.h); 0: none */
	uint32_t obj_sum;
	uint64_t btf_hash;
};

#define DCC_META_F_DESCRIPTION 1 /* script is a -n description: "description 'X' matched" */
/* The object uses destructive actions (raise, stop, system, copyout...): the
 * loader refuses to run it unless -w or the destructive option allows them. */
#define DCC_META_F_DESTRUCTIVE 2

/* One probe as DTrace would list it; records carry its id. */
struct dcc_meta_probe {
	uint32_t id; /* DCC_PROBE_BEGIN.. or any other unique id */
	uint32_t prov, mod, func, name; /* str */
};

#define DCC_PROBE_BEGIN 1
#define DCC_PROBE_END 2
#define DCC_PROBE_ERROR 3

/* How a BPF program of the object is put to work. */
enum dcc_attach_kind {
	DCC_ATTACH_BEGIN = 1,      /* raw_tp program run once with bpf_prog_test_run */
	DCC_ATTACH_END = 2,        /* same, at the end of the trace */
	DCC_ATTACH_TRACEPOINT = 3, /* target "group/event" (tracefs events/) */
	DCC_ATTACH_RAW_TP = 4,     /* target "event" */
	DCC_ATTACH_TICK = 5,       /* perf_event cpu-clock on one CPU, param = period ns */
	DCC_ATTACH_PROFILE = 6,    /* perf_event cpu-clock on every CPU, param = period ns */
	DCC_ATTACH_TP_BTF = 7,     /* target "event" */
	DCC_ATTACH_FENTRY = 8,     /* target = kernel function */
	DCC_ATTACH_FEXIT = 9,
	DCC_ATTACH_KPROBE = 10,
	DCC_ATTACH_KRETPROBE = 11,
	DCC_ATTACH_UPROBE = 12,    /* target "path:offset" */
	DCC_ATTACH_URETPROBE = 13,
	/* the pid provider: target "PROVIDER:OBJECT:FUNC" as written (globs in
	 * OBJECT and FUNC), param the pid or 0 for $target; the loader attaches
	 * a uprobe (uretprobe) to each matching function of the process with
	 * a probe id of its own, from DCC_PID_ID_BASE, as the BPF cookie */
	DCC_ATTACH_PID_ENTRY = 14,
	DCC_ATTACH_PID_RETURN = 15,
	/* USDT: target "PROVIDER:MODULE:FUNC:NAME" as written (PROVIDER ends
	 * in $target, the pid or a glob; globs in each field), param the pid
	 * or 0 for $target; the loader attaches a uprobe to each matching
	 * .note.stapsdt note of the process's files (loader/usdt.c), its
	 * cookie the note's probe id (low 32 bits) and the index of its
	 * argument specification in DCC_MAP_USDTSPECS (high 32 bits) */
	DCC_ATTACH_USDT = 16,
	/* cpc: a perf event on every CPU, target its name (abi_cpc.h), param
	 * the count between firings, flags DCC_ATTACH_F_NO{USER,KERNEL} */
	DCC_ATTACH_CPC = 17,
	/* the pid provider at an offset into each matching function: target
	 * "PROVIDER:OBJECT:FUNC:OFFSET", OFFSET in hexadecimal ("1c"), param
	 * as DCC_ATTACH_PID_ENTRY's; a uprobe at the function's start plus
	 * OFFSET, refused past the function's end (its ELF symbol's size) */
	DCC_ATTACH_PID_OFFSET = 18,
};

/* Probe ids the loader gives the functions of pid probes (the cookie each
 * program reads) are DCC_PID_ID_BASE and up; the compiler's are below. */
#define DCC_PID_ID_BASE 0x100000u
/* HASH u32 probe id -> struct dcc_pidname, in objects with pid probes: the
 * loader fills it for every function it attached, for probemod/probefunc */
#define DCC_MAP_PIDNAMES "dcc_pidnames"
#define DCC_PIDNAMES_MAX 65536
struct dcc_pidname {
	char prov[32];  /* "pid1234", "myprov1234" */
	char mod[64];   /* "libc.so.6", cut to 63 bytes */
	char func[160]; /* "getpid", cut to 159 bytes */
	char name[64];  /* USDT: the probe's name ("query-start"); pid: "" */
};

/* ARRAY u32 index -> struct dcc_usdt_spec, in objects with USDT probes: the
 * argument specifications of the notes the loader attached (deduplicated),
 * the index in the high half of each uprobe's cookie. An argument is a
 * constant (val), a register (the pt_regs offset reg_off) or memory at
 * register + val; its value is then shifted left by `shift` and back right,
 * arithmetically when `sign`, to keep its size and signedness. Unused
 * arguments are the constant 0. */
#define DCC_MAP_USDTSPECS "dcc_usdtspecs"
#define DCC_USDTSPECS_MAX 1024
#define DCC_USDT_ARGS_MAX 12 /* <sys/sdt.h>'s most */
enum dcc_usdt_arg_kind { DCC_USDT_CONST = 0, DCC_USDT_REG = 1, DCC_USDT_MEM = 2 };
struct dcc_usdt_arg {
	uint8_t kind;  /* enum dcc_usdt_arg_kind */
	uint8_t shift; /* 64 - 8 * size */
	uint8_t sign;
	uint8_t pad;
	uint16_t reg_off; /* in x86-64's struct pt_regs */
	uint16_t pad2;
	int64_t val;
};
struct dcc_usdt_spec {
	struct dcc_usdt_arg arg[DCC_USDT_ARGS_MAX];
};

struct dcc_meta_attach {
	uint32_t prog;   /* str: name of the BPF program (ELF function symbol) */
	uint32_t kind;   /* enum dcc_attach_kind */
	uint32_t target; /* str, see enum dcc_attach_kind */
	uint32_t flags;  /* DCC_ATTACH_F_* */
	uint64_t param;
};

#define DCC_ATTACH_F_OPTIONAL 1 /* a missing target on this kernel is not an error */
#define DCC_ATTACH_F_NOUSER 2   /* cpc: count in the kernel only */
#define DCC_ATTACH_F_NOKERNEL 4 /* cpc: count in user space only */

/*
 * Every ring-buffer record starts with this header. One record is one firing
 * of one clause that records data (its EPID); its actions follow at the
 * offsets the clause's actions give, all from the start of the record.
 */
struct dcc_rec_hdr {
	uint32_t epid;     /* clause index + 1 */
	uint32_t probe_id; /* struct dcc_meta_probe id */
	uint32_t cpu;
	uint32_t flags;    /* DCC_REC_F_* */
};

/*
 * A run-time fault (the ERROR probe's cause) is reported as its own record:
 * flags DCC_REC_F_FAULT, epid of the faulting clause, probe_id of the probe
 * that fired, then struct dcc_rec_fault. The runtime prints DTrace for
 * Linux's message for it, "error in x.d:3:1 for probe ID 4
 * (syscall:vmlinux:read:entry): divide-by-zero at BPF pc 12", and never
 * checks it against the clause's record size.
 */
#define DCC_REC_F_FAULT 1

/*
 * Speculation is resolved by the consumer: a record made after speculate(id)
 * carries DCC_REC_F_SPEC and the id in its flags' high 16 bits; the runtime
 * holds it until a record running DCC_ACT_COMMIT for that id (the held
 * records are then printed, in order, as if they had just arrived) or
 * DCC_ACT_DISCARD (they are dropped). The kernel side allocates ids, bounds
 * each buffer by specsize and counts DCC_DROP_SPEC* when it cannot.
 */
#define DCC_REC_F_SPEC 2
#define DCC_REC_SPEC_SHIFT 16

enum dcc_fault {
	DCC_FAULT_BADADDR = 1,  /* invalid address (0x...) */
	DCC_FAULT_BADALIGN = 2, /* invalid alignment (0x...) */
	DCC_FAULT_ILLOP = 3,    /* illegal operation */
	DCC_FAULT_DIVZERO = 4,  /* divide-by-zero */
	DCC_FAULT_NOSCRATCH = 5,/* out of scratch space */
	DCC_FAULT_KPRIV = 6,    /* invalid kernel access (0x...) */
	DCC_FAULT_UPRIV = 7,    /* invalid user access (0x...) */
	DCC_FAULT_TUPOFLOW = 8, /* tuple stack overflow */
	DCC_FAULT_BADSTACK = 9, /* bad stack (0x...) */
	DCC_FAULT_BADSIZE = 10, /* invalid size (0x...) */
	DCC_FAULT_BADINDEX = 11,/* index out of bounds (N) */
	DCC_FAULT_LIBRARY = 12, /* library-level fault */
};

struct dcc_rec_fault {
	uint32_t fault;  /* enum dcc_fault */
	uint32_t pc;     /* where in the program, for the message */
	uint64_t detail; /* the address, size or index the message shows */
};

/* A clause that records data. */
struct dcc_meta_clause {
	uint32_t epid;
	uint32_t size;     /* bytes of the record, header included */
	uint32_t first_action, nactions;
	uint32_t loc;      /* str: "file.d:LINE:COL" of the clause, for error messages */
	uint32_t flags;
};

enum dcc_action_kind {
	DCC_ACT_PRINTF = 1, /* fmt, args[first_arg .. first_arg + nargs) */
	DCC_ACT_TRACE = 2,  /* one arg */
	DCC_ACT_EXIT = 3,   /* one arg: the exit status (int) */
	DCC_ACT_PRINTA = 4, /* fmt (0 = default form), aggs ids in args[].offset */
	DCC_ACT_DEFAULT = 5,/* empty clause: only the probe line */
	DCC_ACT_CLEAR = 6,  /* agg id in arg */
	DCC_ACT_TRUNC = 7,
	DCC_ACT_NORMALIZE = 8,   /* agg id in arg 0, then a DCC_K_INT arg: the factor */
	DCC_ACT_DENORMALIZE = 9, /* agg id in arg */
	DCC_ACT_SETOPT = 10,     /* fmt: "name" or "name=value"; no args */
	DCC_ACT_COMMIT = 11,     /* one DCC_K_INT arg: the speculation id */
	DCC_ACT_DISCARD = 12,    /* one DCC_K_INT arg: the speculation id */
	DCC_ACT_TRACEMEM = 13,   /* a DCC_K_BYTES arg, then optionally a DCC_K_INT arg:
				  * how many of those bytes to show (tracemem's 3rd) */
	DCC_ACT_SYSTEM = 14,     /* fmt, args as printf: the command /bin/sh runs, its
				  * output written to the trace output in order */
	DCC_ACT_FREOPEN = 15,    /* fmt, args as printf: the file later output goes to
				  * (appended); "" goes back to the original output */
	DCC_ACT_FTRUNCATE = 16,  /* no args: truncate the output file */
	DCC_ACT_PRINT = 17,      /* one arg, the value; fmt is not a str but the index of
				  * its struct dcc_meta_type (see there) */
};

struct dcc_meta_action {
	uint32_t kind;      /* enum dcc_action_kind */
	uint32_t fmt;       /* str: printf/printa format */
	uint32_t first_arg, nargs;
};

/* Value kinds of record arguments and aggregation key elements. */
enum dcc_kind {
	DCC_K_INT = 1,    /* 8-byte slot, value sign/zero-extended from `size` bytes */
	DCC_K_STRING = 2, /* `size` bytes, NUL-terminated unless full */
	DCC_K_BYTES = 3,  /* `size` raw bytes (structs, trace of memory) */
	DCC_K_AGG = 4,    /* printa argument: `offset` holds the aggregation id */
	/*
	 * Addresses the runtime symbolizes (kernel from /proc/kallsyms, user from
	 * the process's maps and ELF symbols). u64 words, little-endian.
	 */
	DCC_K_STACK = 5,  /* stack(): size/8 kernel PCs, ending at the first 0 */
	DCC_K_USTACK = 6, /* ustack(): u64 pid, then (size-8)/8 user PCs, ending at 0 */
	DCC_K_SYM = 7,    /* sym()/func(): u64 kernel address -> module`symbol */
	DCC_K_MOD = 8,    /* mod(): u64 kernel address -> module */
	DCC_K_USYM = 9,   /* usym()/ufunc(): u64 pid, u64 address -> object`symbol */
	DCC_K_UADDR = 10, /* uaddr(): u64 pid, u64 address -> object`symbol+0xoff */
	DCC_K_UMOD = 11,  /* umod(): u64 pid, u64 address -> object */
	/*
	 * A floating-point value's bytes, never converted by BPF: size 4
	 * (float, in an 8-byte slot), 8 (double) or 16 (long double: x86-64's
	 * 80-bit extended format in its first 10 bytes). printf's e E f g G
	 * and trace() print it; a float is promoted to double as C does.
	 */
	DCC_K_FLOAT = 12,
	/*
	 * inet_ntoa(), inet_ntoa6(), inet_ntop(): size 24, a u64 form, then the
	 * address's bytes in network order (4 for IPv4, 16 for IPv6). The
	 * runtime writes the text DTrace computes: DCC_INET_4 "a.b.c.d";
	 * DCC_INET_6 RFC 1884 hex groups with one "::" run, an IPv4-mapped or
	 * -compatible address ending in its dotted quad (inet_ntop); DCC_INET_6A
	 * the same but such an address as its dotted quad alone (inet_ntoa6).
	 * link_ntop(): size 32, the form, then 6 (DCC_INET_ETHER) or 20
	 * (DCC_INET_IB) bytes written as colon-separated two-digit lower-case
	 * hex; DCC_INET_LINK_NONE (a type DTrace does not know) is "".
	 */
	DCC_K_INET = 13,
};

enum dcc_inet_form {
	DCC_INET_4 = 4, DCC_INET_6 = 6, DCC_INET_6A = 7,
	DCC_INET_ETHER = 8, DCC_INET_IB = 9, DCC_INET_LINK_NONE = 10,
};

struct dcc_meta_field {
	uint32_t offset;  /* in the record or the key */
	uint32_t size;    /* D type size: 1/2/4/8 for ints, 4/8/16 for floats,
			     strsize for strings */
	uint16_t kind;    /* enum dcc_kind */
	uint16_t is_signed;
	uint32_t type;    /* str: D type name for messages and JSON ("int", "string") */
};

/*
 * print(): the value's type, described for the runtime, which sees no BTF.
 * A type's members (struct, union) or enumerators (enum) are
 * members[first .. first + n); an array's element type is `ref` and its
 * length `n`. Every type a type refers to has a smaller index, so the table
 * has no cycles. The print argument is DCC_K_INT for an integer, enum or
 * pointer (its value in the 8-byte slot), DCC_K_STRING, DCC_K_FLOAT, or
 * DCC_K_BYTES for a struct, union or array: the type's first `size` bytes
 * (a large kernel struct is cut at DCC_PRINT_MAX; the rest shows as "...").
 */
enum dcc_type_kind {
	DCC_TYPE_INT = 1,    /* flags DCC_TYPE_F_SIGNED, DCC_TYPE_F_CHAR */
	DCC_TYPE_FLOAT = 2,
	DCC_TYPE_PTR = 3,
	DCC_TYPE_STRING = 4,
	DCC_TYPE_STRUCT = 5,
	DCC_TYPE_UNION = 6,
	DCC_TYPE_ARRAY = 7,
	DCC_TYPE_ENUM = 8,   /* an integer with named values; flags as INT */
	DCC_TYPE_OPAQUE = 9, /* a function or anything else print() shows no value of */
};

#define DCC_TYPE_F_SIGNED 1
#define DCC_TYPE_F_CHAR 2 /* char, signed char: shown as 'c' when printable */
#define DCC_PRINT_MAX 4096

struct dcc_meta_type {
	uint16_t kind;  /* enum dcc_type_kind */
	uint16_t flags; /* DCC_TYPE_F_* */
	uint32_t size;  /* bytes */
	uint32_t name;  /* str: "int", "struct foo", "char [5]", "void *"; "struct" if anonymous */
	uint32_t ref;   /* array: element type index */
	uint32_t first, n;
};

struct dcc_meta_member {
	uint32_t name;     /* str; 0 for an anonymous struct/union member */
	uint32_t type;     /* type index (enumerators: unused) */
	uint32_t bit_off;  /* from the start of the struct */
	uint32_t bit_size; /* 0 unless a bit-field */
	int64_t value;     /* enumerators: the value */
};

enum dcc_agg_func {
	DCC_AGG_COUNT = 1, DCC_AGG_SUM, DCC_AGG_AVG, DCC_AGG_MIN, DCC_AGG_MAX,
	DCC_AGG_STDDEV, DCC_AGG_QUANTIZE, DCC_AGG_LQUANTIZE, DCC_AGG_LLQUANTIZE,
};

/*
 * An aggregation lives in a BPF_MAP_TYPE_PERCPU_HASH named `map`; its key is
 * key_size bytes laid out by the key fields (an aggregation without keys uses
 * a single u32 0 key); its value is val_size bytes per CPU, laid out as
 * below. Key elements: DCC_K_INT are 8-byte slots; DCC_K_STRING are size
 * bytes, NUL-padded (so equal strings are equal keys).
 */
/*
 * Per-CPU value layouts (val_size bytes in each CPU's slot). A CPU that never
 * touched an entry reads as all zeros, which every layout treats as "no data".
 * All words are 8 bytes, little-endian:
 *
 *   count       u64 n                                              8 bytes
 *   sum         i64 sum                                            8
 *   min, max    i64 value, u64 n (updates on this CPU; 0 = unused) 16
 *   avg         u64 n, i64 sum                                     16
 *   stddev      u64 n, i64 sum, u64 sumsq_lo, u64 sumsq_hi         32
 *               (sumsq: the unsigned 128-bit sum of x*x)
 *   quantize    i64 bucket[127], i64 overflow                      1024
 *               bucket 63 holds 0, 64+k holds [2^k, 2^(k+1)),
 *               62-k holds (-2^(k+1), -2^k]; overflow counts -2^63,
 *               which belongs to bucket 0 (objects before it: 1016)
 *   lquantize   i64 bucket[levels + 2], param = {lo, hi, step},    (levels+2)*8
 *               levels = (hi - lo) / step; bucket 0 holds v < lo,
 *               bucket i (1..levels) [lo+(i-1)*step, lo+i*step),
 *               bucket levels+1 v >= lo + levels*step
 *   llquantize  i64 bucket[2n + 1], param = {factor, lmag, hmag, steps}:
 *               for each magnitude m = lmag..hmag let t = factor^(m+1),
 *               b = min(t, steps) and w = t / b: the values
 *               [factor^m, t) fall into b - b/factor buckets of width w
 *               (bucket lower bounds factor^m, factor^m + w, ...);
 *               n = the sum of those counts + 1 (values >= factor^(hmag+1)).
 *               Bucket n holds |v| < factor^lmag; a value v >= factor^lmag
 *               in the j-th of those n ascending buckets goes to n+1+j,
 *               its negation -v to n-1-j.
 *
 * Histogram buckets are signed counts (quantize(x, incr) may add a negative
 * incr). The runtime checks val_size against these sizes.
 *
 * Actions that name an aggregation (DCC_ACT_PRINTA, CLEAR, TRUNC) list it as a
 * DCC_K_AGG argument whose `offset` is the aggregation id; TRUNC has an
 * optional second argument, a DCC_K_INT in the record: the number of entries
 * to keep (n > 0 the n largest, n < 0 the -n smallest; absent or 0: all go).
 */
struct dcc_meta_agg {
	uint32_t id;
	uint32_t name;     /* str: "" for @, "foo" for @foo */
	uint32_t map;      /* str: BPF map name */
	uint32_t func;     /* enum dcc_agg_func */
	uint32_t first_key, nkeys;
	uint32_t key_size, val_size;
	int64_t param[4];  /* lquantize lo, hi, step; llquantize factor, lmag, hmag, steps */
};

struct dcc_meta_option {
	uint32_t name, value; /* str; value 0 for a boolean option */
};

/* The option names D knows, their types and defaults: headers/dcc/abi_opt.h. */

/* The value of DCC_MAP_CPUINFO: the D library's cpuinfo_t (headers/d/sched.d). */
struct dcc_cpuinfo {
	int32_t cpu_id;   /* the CPU's number */
	int32_t cpu_pset; /* processor set: Linux has none, -1 */
	int32_t cpu_chip; /* physical package (topology/physical_package_id), -1 if unknown */
	int32_t cpu_lgrp; /* NUMA node, 0 without NUMA */
	uint64_t cpu_info; /* the kernel's description of the CPU: unknown to user space, 0 */
};

#endif
