// SPDX-License-Identifier: GPL-2.0
/*
 * W3 by hand: profile-997 { @[execname] = count(); }
 *
 * A perf_event program (pcrun opens a CPU-clock event sampling every
 * 1/997 s on each online CPU), the same map and update as W1. Used by
 * bench/startup.sh for the hand-written start-up time.
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

SEC("perf_event")
int w3_profile(void *ctx __attribute__((unused)))
{
	char comm[COMM_LEN];
	__u64 one = 1, *val;

	bpf_get_current_comm(comm, sizeof(comm));
	val = bpf_map_lookup_elem(&counts, comm);
	if (val) {
		*val += 1;
		return 0;
	}
	bpf_map_update_elem(&counts, comm, &one, BPF_NOEXIST);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
