// SPDX-License-Identifier: GPL-2.0
/*
 * W3 by hand: profile-997 { @[execname] = count(); }
 *
 * A perf_event program (pcrun opens a CPU-clock event sampling every
 * 1/997 s on each online CPU), the same map and update as W1. Used by
 * bench/startup.sh for the hand-written start-up time.
 *
 * -DDTRACE_WORK (bench/same_work.sh): the same with the bookkeeping dcc's
 * program does for DTrace's output: the comm buffer zeroed first (6.1's
 * helper leaves its tail) and a failed insert counted in this CPU's
 * aggregation drops.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define COMM_LEN 16

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 10240);
	__type(key, char[COMM_LEN]);
	__type(value, __u64);
} counts SEC(".maps");

#ifdef DTRACE_WORK
/* per-CPU drop counts, a cache line apart as dcc's are */
__u64 drops[1024 * 8];
#endif

SEC("perf_event")
int w3_profile(void *ctx __attribute__((unused)))
{
#ifdef DTRACE_WORK
	char comm[COMM_LEN] = {};
#else
	char comm[COMM_LEN];
#endif
	__u64 one = 1, *val;

	bpf_get_current_comm(comm, sizeof(comm));
	val = bpf_map_lookup_elem(&counts, comm);
	if (val) {
		*val += 1;
		return 0;
	}
#ifdef DTRACE_WORK
	if (bpf_map_update_elem(&counts, comm, &one, BPF_NOEXIST))
		__sync_fetch_and_add(&drops[(bpf_get_smp_processor_id() & 1023) * 8 + 1], 1);
	return 0;
#else
	bpf_map_update_elem(&counts, comm, &one, BPF_NOEXIST);
	return 0;
#endif
}

char LICENSE[] SEC("license") = "GPL";
