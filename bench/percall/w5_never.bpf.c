// SPDX-License-Identifier: GPL-2.0
/*
 * W5 by hand: syscall:::entry /pid == 999999999/ { @ = count(); }
 *
 * A predicate that is never true on every syscall: the price of a probe
 * that does nothing. bench/workloads.sh's W5.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} hits SEC(".maps");

SEC("tracepoint/raw_syscalls/sys_enter")
int w5_never(void *ctx __attribute__((unused)))
{
	__u32 zero = 0;
	__u64 *v;

	if ((bpf_get_current_pid_tgid() >> 32) != 999999999)
		return 0;
	v = bpf_map_lookup_elem(&hits, &zero);
	if (v)
		*v += 1;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
