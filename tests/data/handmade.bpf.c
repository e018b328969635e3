/*
 * A dcc object written by hand, following headers/dcc/abi.h, so the loader
 * and its tests do not depend on the compiler. It is what dcc would make of
 *
 *	BEGIN { printf("hello from BEGIN %d target=%d wall=%d\n", 42,
 *	               $target != 0, walltimestamp > 1600000000000000000); }
 *	syscall::getppid:entry /pid == $target/ { @ = count(); }
 *	END { printf("goodbye %d\n", cpus_profiled); }
 *
 * plus, per variant (-D at build time):
 *	HANDMADE_EXIT      BEGIN also does exit(3); the script is a -n description
 *	HANDMADE_BADPROBE  the tracepoint syscalls/sys_enter_dcc_nosuch is required
 *	                   (otherwise it is an optional probe, skipped silently)
 *	HANDMADE_TICK      profile-1ms sets a bit per CPU in cpus_profiled;
 *	                   tick-50ms prints "tick" once and does exit(4)
 *	HANDMADE_FENTRY    fbt::do_nanosleep:entry as an fentry program and
 *	                   fbt::do_nanosleep:return as a kretprobe, both optional
 *	                   (=1) or the fentry one required (=2); this kernel
 *	                   refuses fentry programs and has no kprobes
 *	HANDMADE_VERIFIER  dcc_c1 reads past its context: the verifier refuses it
 *	HANDMADE_HUGEMAP   dcc_drops has 2^30 entries: refused before the kernel
 *	                   spends minutes allocating them
 *	HANDMADE_UPROBE    "libc-path:0xoffset" of getppid(): a uprobe counts
 *	                   the target's getppid() calls too, in the same @
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <stddef.h>

#include "dcc/abi.h"

#ifndef HANDMADE_EXIT
#define HANDMADE_EXIT 0
#endif
#ifndef HANDMADE_BADPROBE
#define HANDMADE_BADPROBE 0
#endif
#ifndef HANDMADE_TICK
#define HANDMADE_TICK 0
#endif
#ifndef HANDMADE_FENTRY
#define HANDMADE_FENTRY 0
#endif
#ifdef HANDMADE_UPROBE
#define S_UPROBE HANDMADE_UPROBE
#define NUPROBE 1
#else
#define S_UPROBE ""
#define NUPROBE 0
#endif

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} dcc_ringbuf SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
#ifdef HANDMADE_HUGEMAP
	__uint(max_entries, 1 << 30); /* what one flipped bit can do */
#else
	__uint(max_entries, DCC_DROP_NR);
#endif
} dcc_drops SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 16);
} dcc_agg0 SEC(".maps");

const volatile __u64 dcc_target = 0;
const volatile __u64 dcc_walloff = 0;

__u64 cpus_profiled = 0;
__u64 ticked = 0;

struct rec {
	struct dcc_rec_hdr h;
	__s64 v[3];
};

static __always_inline void emit(__u32 epid, __u32 probe, __s64 a, __s64 b, __s64 c,
				 __u32 nargs, __u64 flags)
{
	struct rec r = {
		.h = { .epid = epid, .probe_id = probe, .cpu = bpf_get_smp_processor_id() },
		.v = { a, b, c },
	};

	if (bpf_ringbuf_output(&dcc_ringbuf, &r, sizeof(r.h) + nargs * 8, flags)) {
		__u32 k = DCC_DROP_PRINCIPAL;
		__u64 *n = bpf_map_lookup_elem(&dcc_drops, &k);

		if (n)
			(*n)++;
	}
}

SEC("raw_tp")
int dcc_begin(void *ctx)
{
	__u64 wall = bpf_ktime_get_ns() + dcc_walloff;

	emit(1, DCC_PROBE_BEGIN, 42, dcc_target != 0, wall > 1600000000000000000ULL, 3,
	     BPF_RB_NO_WAKEUP);
	if (HANDMADE_EXIT)
		emit(3, DCC_PROBE_BEGIN, 3, 0, 0, 1, BPF_RB_FORCE_WAKEUP);
	return 0;
}

SEC("raw_tp")
int dcc_end(void *ctx)
{
	emit(2, DCC_PROBE_END, cpus_profiled, 0, 0, 1, BPF_RB_NO_WAKEUP);
	return 0;
}

/* /pid == $target/ { @ = count(); } */
static __always_inline void count_target(void)
{
	__u32 key = 0;
	__u64 one = 1, *n;

	if ((bpf_get_current_pid_tgid() >> 32) != dcc_target)
		return;
	n = bpf_map_lookup_elem(&dcc_agg0, &key);
	if (n) {
		__sync_fetch_and_add(n, 1);
	} else if (bpf_map_update_elem(&dcc_agg0, &key, &one, BPF_NOEXIST)) {
		__u32 k = DCC_DROP_AGG;
		__u64 *d = bpf_map_lookup_elem(&dcc_drops, &k);

		if (d)
			(*d)++;
	}
}

SEC("tracepoint/syscalls/sys_enter_getppid")
int dcc_c1(void *ctx)
{
	count_target();
#ifdef HANDMADE_VERIFIER
	return *(volatile int *)((char *)ctx + 100000);
#else
	return 0;
#endif
}

#if NUPROBE
SEC("uprobe")
int dcc_c7(void *ctx)
{
	count_target();
	return 0;
}
#endif

#if HANDMADE_TICK
SEC("perf_event")
int dcc_c2(void *ctx)
{
	if (__sync_fetch_and_add(&ticked, 1) == 0) {
		emit(4, 5, 0, 0, 0, 0, BPF_RB_NO_WAKEUP);
		emit(3, 5, 4, 0, 0, 1, BPF_RB_FORCE_WAKEUP);
	}
	return 0;
}

SEC("perf_event")
int dcc_c3(void *ctx)
{
	__sync_fetch_and_or(&cpus_profiled, 1ULL << (bpf_get_smp_processor_id() & 63));
	return 0;
}
#endif

#if HANDMADE_FENTRY
/* fbt::do_nanosleep:entry, :return /pid == $target/ { printf("tick\n"); } */
SEC("fentry/do_nanosleep")
int dcc_c5(void *ctx)
{
	if ((bpf_get_current_pid_tgid() >> 32) == dcc_target)
		emit(4, 7, 0, 0, 0, 0, BPF_RB_NO_WAKEUP);
	return 0;
}

SEC("kretprobe/do_nanosleep")
int dcc_c6(void *ctx)
{
	if ((bpf_get_current_pid_tgid() >> 32) == dcc_target)
		emit(4, 8, 0, 0, 0, 0, BPF_RB_NO_WAKEUP);
	return 0;
}
#endif

/* The metadata: header, tables, then the string table. */
#define S_SCRIPT_TEXT "BEGIN { exit(3); }"
#if HANDMADE_EXIT
#define S_SCRIPT S_SCRIPT_TEXT
#elif HANDMADE_TICK
#define S_SCRIPT "handmade_tick.d"
#else
#define S_SCRIPT "handmade.d"
#endif
#define S_DTRACE "dtrace"
#define S_BEGIN "BEGIN"
#define S_END "END"
#define S_SYSCALL "syscall"
#define S_GETPPID "getppid"
#define S_ENTRY "entry"
#define S_PROFILE "profile"
#define S_TICK "tick-50ms"
#define S_PROF1MS "profile-1ms"
#define S_P_BEGIN "dcc_begin"
#define S_P_END "dcc_end"
#define S_P_C1 "dcc_c1"
#define S_P_C2 "dcc_c2"
#define S_P_C3 "dcc_c3"
#define S_TP "syscalls/sys_enter_getppid"
#define S_TP_BAD "syscalls/sys_enter_dcc_nosuch"
#define S_FMT1 "hello from BEGIN %d target=%d wall=%d\n"
#define S_FMT2 "goodbye %d\n"
#define S_FMT4 "tick\n"
#define S_INT "int"
#define S_MAP "dcc_agg0"
#define S_LOC "handmade.d:1:1"
#define S_SWITCHRATE "switchrate"
#define S_10HZ "10hz"
#define S_FBT "fbt"
#define S_NANOSLEEP "do_nanosleep"
#define S_RETURN "return"
#define S_P_C5 "dcc_c5"
#define S_P_C6 "dcc_c6"
#define S_P_C7 "dcc_c7"
#define S_PID "pid"
#define S_LIBC "libc.so.6"

/* Offsets in the string table: each string follows the previous one's NUL. */
#define O_SCRIPT 1
#define O_DTRACE (O_SCRIPT + sizeof(S_SCRIPT))
#define O_BEGIN (O_DTRACE + sizeof(S_DTRACE))
#define O_END (O_BEGIN + sizeof(S_BEGIN))
#define O_SYSCALL (O_END + sizeof(S_END))
#define O_GETPPID (O_SYSCALL + sizeof(S_SYSCALL))
#define O_ENTRY (O_GETPPID + sizeof(S_GETPPID))
#define O_PROFILE (O_ENTRY + sizeof(S_ENTRY))
#define O_TICK (O_PROFILE + sizeof(S_PROFILE))
#define O_PROF1MS (O_TICK + sizeof(S_TICK))
#define O_P_BEGIN (O_PROF1MS + sizeof(S_PROF1MS))
#define O_P_END (O_P_BEGIN + sizeof(S_P_BEGIN))
#define O_P_C1 (O_P_END + sizeof(S_P_END))
#define O_P_C2 (O_P_C1 + sizeof(S_P_C1))
#define O_P_C3 (O_P_C2 + sizeof(S_P_C2))
#define O_TP (O_P_C3 + sizeof(S_P_C3))
#define O_TP_BAD (O_TP + sizeof(S_TP))
#define O_FMT1 (O_TP_BAD + sizeof(S_TP_BAD))
#define O_FMT2 (O_FMT1 + sizeof(S_FMT1))
#define O_FMT4 (O_FMT2 + sizeof(S_FMT2))
#define O_INT (O_FMT4 + sizeof(S_FMT4))
#define O_MAP (O_INT + sizeof(S_INT))
#define O_LOC (O_MAP + sizeof(S_MAP))
#define O_SWITCHRATE (O_LOC + sizeof(S_LOC))
#define O_10HZ (O_SWITCHRATE + sizeof(S_SWITCHRATE))
#define O_FBT (O_10HZ + sizeof(S_10HZ))
#define O_NANOSLEEP (O_FBT + sizeof(S_FBT))
#define O_RETURN (O_NANOSLEEP + sizeof(S_NANOSLEEP))
#define O_P_C5 (O_RETURN + sizeof(S_RETURN))
#define O_P_C6 (O_P_C5 + sizeof(S_P_C5))
#define O_P_C7 (O_P_C6 + sizeof(S_P_C6))
#define O_PID (O_P_C7 + sizeof(S_P_C7))
#define O_LIBC (O_PID + sizeof(S_PID))
#define O_UPROBE (O_LIBC + sizeof(S_LIBC))

#define STRTAB "\0" S_SCRIPT "\0" S_DTRACE "\0" S_BEGIN "\0" S_END "\0" S_SYSCALL "\0" \
	S_GETPPID "\0" S_ENTRY "\0" S_PROFILE "\0" S_TICK "\0" S_PROF1MS "\0" S_P_BEGIN "\0" \
	S_P_END "\0" S_P_C1 "\0" S_P_C2 "\0" S_P_C3 "\0" S_TP "\0" S_TP_BAD "\0" S_FMT1 "\0" \
	S_FMT2 "\0" S_FMT4 "\0" S_INT "\0" S_MAP "\0" S_LOC "\0" S_SWITCHRATE "\0" S_10HZ "\0" \
	S_FBT "\0" S_NANOSLEEP "\0" S_RETURN "\0" S_P_C5 "\0" S_P_C6 "\0" \
	S_P_C7 "\0" S_PID "\0" S_LIBC "\0" S_UPROBE

#define NPROBES (3 + (HANDMADE_TICK ? 2 : 0) + (HANDMADE_FENTRY ? 2 : 0) + NUPROBE)
#define NATTACH (4 + (HANDMADE_TICK ? 2 : 0) + (HANDMADE_FENTRY ? 2 : 0) + NUPROBE)

struct handmade_meta {
	struct dcc_meta_header hdr;
	struct dcc_meta_probe probes[NPROBES];
	struct dcc_meta_attach attach[NATTACH];
	struct dcc_meta_clause clauses[4];
	struct dcc_meta_action actions[4];
	struct dcc_meta_field args[5];
	struct dcc_meta_agg aggs[1];
	struct dcc_meta_option opts[1];
	char strs[sizeof(STRTAB)];
};

#define M(f) offsetof(struct handmade_meta, f)
#define INT_ARG(off) { .offset = (off), .size = 4, .kind = DCC_K_INT, .is_signed = 1, \
		       .type = O_INT }

__attribute__((section(DCC_META_SECTION), used))
const struct handmade_meta dcc_meta = {
	.hdr = {
		.magic = DCC_META_MAGIC,
		.version = DCC_META_VERSION,
		.size = sizeof(struct handmade_meta),
		.str_off = M(strs), .str_size = sizeof(STRTAB),
		.probe_off = M(probes), .nprobes = NPROBES, .nenablings = NPROBES,
		.attach_off = M(attach), .nattach = NATTACH,
		.clause_off = M(clauses), .nclauses = 4,
		.action_off = M(actions), .nactions = 4,
		.arg_off = M(args), .nargs = 5,
		.agg_off = M(aggs), .naggs = 1,
		.key_off = M(strs), .nkeys = 0,
		.opt_off = M(opts), .nopts = 1,
		.script = O_SCRIPT,
		.flags = HANDMADE_EXIT ? DCC_META_F_DESCRIPTION : 0,
	},
	.probes = {
		{ DCC_PROBE_BEGIN, O_DTRACE, 0, 0, O_BEGIN },
		{ DCC_PROBE_END, O_DTRACE, 0, 0, O_END },
		{ 4, O_SYSCALL, 0, O_GETPPID, O_ENTRY },
#if HANDMADE_TICK
		{ 5, O_PROFILE, 0, 0, O_TICK },
		{ 6, O_PROFILE, 0, 0, O_PROF1MS },
#endif
#if HANDMADE_FENTRY
		{ 7, O_FBT, 0, O_NANOSLEEP, O_ENTRY },
		{ 8, O_FBT, 0, O_NANOSLEEP, O_RETURN },
#endif
#if NUPROBE
		{ 9, O_PID, O_LIBC, O_GETPPID, O_ENTRY },
#endif
	},
	.attach = {
		{ O_P_BEGIN, DCC_ATTACH_BEGIN, 0, 0, 0 },
		{ O_P_END, DCC_ATTACH_END, 0, 0, 0 },
		{ O_P_C1, DCC_ATTACH_TRACEPOINT, O_TP, 0, 0 },
		{ O_P_C1, DCC_ATTACH_TRACEPOINT, O_TP_BAD,
		  HANDMADE_BADPROBE ? 0 : DCC_ATTACH_F_OPTIONAL, 0 },
#if HANDMADE_TICK
		/* profile first so every CPU is counted before the tick ends it */
		{ O_P_C3, DCC_ATTACH_PROFILE, 0, 0, 1000000 },
		{ O_P_C2, DCC_ATTACH_TICK, 0, 0, 50000000 },
#endif
#if HANDMADE_FENTRY
		{ O_P_C5, DCC_ATTACH_FENTRY, O_NANOSLEEP,
		  HANDMADE_FENTRY == 2 ? 0 : DCC_ATTACH_F_OPTIONAL, 0 },
		{ O_P_C6, DCC_ATTACH_KRETPROBE, O_NANOSLEEP, DCC_ATTACH_F_OPTIONAL, 0 },
#endif
#if NUPROBE
		{ O_P_C7, DCC_ATTACH_UPROBE, O_UPROBE, 0, 0 },
#endif
	},
	.clauses = {
		{ 1, sizeof(struct dcc_rec_hdr) + 24, 0, 1, O_LOC, 0 },
		{ 2, sizeof(struct dcc_rec_hdr) + 8, 1, 1, O_LOC, 0 },
		{ 3, sizeof(struct dcc_rec_hdr) + 8, 2, 1, O_LOC, 0 },
		{ 4, sizeof(struct dcc_rec_hdr), 3, 1, O_LOC, 0 },
	},
	.actions = {
		{ DCC_ACT_PRINTF, O_FMT1, 0, 3 },
		{ DCC_ACT_PRINTF, O_FMT2, 3, 1 },
		{ DCC_ACT_EXIT, 0, 4, 1 },
		{ DCC_ACT_PRINTF, O_FMT4, 5, 0 },
	},
	.args = {
		INT_ARG(16), INT_ARG(24), INT_ARG(32),
		INT_ARG(16),
		INT_ARG(16),
	},
	.aggs = {
		{ .id = 0, .name = 0, .map = O_MAP, .func = DCC_AGG_COUNT, .first_key = 0,
		  .nkeys = 0, .key_size = 4, .val_size = 8 },
	},
	.opts = {
		{ O_SWITCHRATE, O_10HZ },
	},
	.strs = STRTAB,
};
