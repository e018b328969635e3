// SPDX-License-Identifier: GPL-2.0
/*
 * W5 by hand: syscall:::entry /pid == 999999999/ { @ = count(); }
 *
 * A predicate that is never true on every syscall: the price of a probe
 * that does nothing. bench/workloads.sh's W5.
 *
 * -DDTRACE_WORK (bench/same_work.sh): the same with what dcc's program also
 * does for DTrace: no probe for a negative syscall number (the tracepoint
 * fires with -1).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} hits SEC(".maps");

#ifdef DTRACE_WORK
struct sys_enter_args {
	__u64 common;
	long id;
	unsigned long args[6];
};
#endif

SEC("tracepoint/raw_syscalls/sys_enter")
#ifdef DTRACE_WORK
int w5_never(struct sys_enter_args *ctx)
{
	__u32 zero = 0;
	__u64 *v;

	if (ctx->id < 0)
		return 0;
#else
int w5_never(void *ctx __attribute__((unused)))
{
	__u32 zero = 0;
	__u64 *v;
#endif

	if ((bpf_get_current_pid_tgid() >> 32) != 999999999)
		return 0;
	v = bpf_map_lookup_elem(&hits, &zero);
	if (v)
		*v += 1;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
