// SPDX-License-Identifier: GPL-2.0
/*
 * W4 by hand: syscall::openat:entry { printf("%d %s %s\n", pid, execname,
 * copyinstr(arg1)); }
 *
 * One ring buffer record per openat: pid, comm and the path read from user
 * memory (at most 256 bytes, as D's strsize), reserved in place, submitted
 * without a wakeup per record; pcring prints it. bench/workloads.sh's W3.
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
	__u32 pid;
	char comm[COMM_LEN];
	char path[PATH_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4 << 20);
} events SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_openat")
int w4_printf(struct sys_enter *ctx)
{
	struct rec *r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);

	if (!r)
		return 0;
	r->pid = (__u32)(bpf_get_current_pid_tgid() >> 32);
	bpf_get_current_comm(r->comm, sizeof(r->comm));
	if (bpf_probe_read_user_str(r->path, sizeof(r->path), (void *)ctx->args[1]) < 0)
		r->path[0] = 0;
	/* wake the reader only once a quarter of the buffer is waiting (it
	 * also polls every 10 ms): a wakeup per record costs ~2 us */
	bpf_ringbuf_submit(r, bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) >= (1 << 20) ?
			      BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
