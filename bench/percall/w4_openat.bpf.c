// SPDX-License-Identifier: GPL-2.0
/*
 * printf per openat by hand:
 *   syscall::openat:entry { printf("%s %s\n", execname, copyinstr(arg1)); }
 *
 * The tuned way: the classic tracepoint dcc attaches to
 * (syscalls/sys_enter_openat), one ring buffer record a call holding the
 * comm and the path read from user memory (256 bytes, D's strsize), the
 * record dropped when the path cannot be read. No drop counting, no
 * record header, the default wakeup. Used by bench/percall/insns.sh for
 * its instruction counts.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define COMM_LEN 16
#define PATH_LEN 256

struct rec {
	char comm[COMM_LEN];
	char path[PATH_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 22);
} events SEC(".maps");

/* syscalls/sys_enter_openat's record after the common fields */
struct openat_args {
	__u64 common;
	__s32 nr;
	__s32 pad;
	__u64 dfd;
	__u64 filename;
	__u64 flags;
	__u64 mode;
};

SEC("tracepoint/syscalls/sys_enter_openat")
int w4_openat(struct openat_args *ctx)
{
	struct rec *r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);

	if (!r)
		return 0;
	bpf_get_current_comm(r->comm, sizeof(r->comm));
	if (bpf_probe_read_user_str(r->path, sizeof(r->path),
				    (const void *)(unsigned long)ctx->filename) < 0) {
		bpf_ringbuf_discard(r, 0);
		return 0;
	}
	bpf_ringbuf_submit(r, 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
