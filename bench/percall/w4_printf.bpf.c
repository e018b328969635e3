// SPDX-License-Identifier: GPL-2.0
/*
 * W4 by hand: syscall::openat:entry { printf("%d %s %s\n", pid, execname,
 * copyinstr(arg1)); }
 *
 * One ring buffer record per openat: pid, comm and the path read from user
 * memory (at most 256 bytes, as D's strsize), reserved in place, submitted
 * without a wakeup per record; pcring prints it. bench/workloads.sh's W3.
 *
 * -DDTRACE_WORK: the same with the bookkeeping DTrace's output needs, as
 * dcc's program has (an instruction count to compare, not a program pcring
 * prints): a header saying which probe and clause wrote the record and on
 * which CPU (dtrace's CPU column and its per-CPU ordering), a record the
 * full buffer refused counted in this CPU's drops, and a path that cannot be
 * read reported as a fault with its address instead of printed empty.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define COMM_LEN 16
#define PATH_LEN 256

struct sys_enter {
	__u64 common;           /* the tracepoint's common fields */
	long id;
	unsigned long args[6];
};

struct rec {
#ifdef DTRACE_WORK
	__u32 epid, probe, cpu, fault;
	__u64 addr;
#endif
	__u32 pid;
	char comm[COMM_LEN];
	char path[PATH_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4 << 20);
} events SEC(".maps");

#ifdef DTRACE_WORK
/* per-CPU drop counts, a cache line apart as dcc's are */
__u64 drops[1024 * 8];
#endif

SEC("tracepoint/syscalls/sys_enter_openat")
int w4_printf(struct sys_enter *ctx)
{
	struct rec *r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);

#ifdef DTRACE_WORK
	__u32 cpu = bpf_get_smp_processor_id();

	if (!r) {
		__sync_fetch_and_add(&drops[(cpu & 1023) * 8], 1);
		return 0;
	}
	r->epid = 1;
	r->probe = 1;
	r->cpu = cpu;
	r->fault = 0;
#else
	if (!r)
		return 0;
#endif
	r->pid = (__u32)(bpf_get_current_pid_tgid() >> 32);
	bpf_get_current_comm(r->comm, sizeof(r->comm));
#ifdef DTRACE_WORK
	if (bpf_probe_read_user_str(r->path, sizeof(r->path), (void *)ctx->args[1]) < 0) {
		r->fault = 1;
		r->addr = ctx->args[1];
	}
#else
	if (bpf_probe_read_user_str(r->path, sizeof(r->path), (void *)ctx->args[1]) < 0)
		r->path[0] = 0;
#endif
	/* wake the reader only once a quarter of the buffer is waiting (it
	 * also polls every 10 ms): a wakeup per record costs ~2 us */
	bpf_ringbuf_submit(r, bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) >= (1 << 20) ?
			      BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
