// SPDX-License-Identifier: GPL-2.0
/*
 * W2 by hand:
 *   syscall::read:entry { self->ts = timestamp; }
 *   syscall::read:return /self->ts/ { @ = quantize(timestamp - self->ts); self->ts = 0; }
 *
 * The tuned way: the classic tracepoints dcc attaches to
 * (syscalls/sys_enter_read, syscalls/sys_exit_read); self->ts in a hash
 * keyed by thread id, deleted when set to 0 as DTrace frees a zeroed
 * thread-local; the histogram is one per-CPU array slot of 64 power-of-two
 * buckets, bumped in place; the bucket comes from a branch-free log2.
 *
 * Two switches rebuild it with one of dcc's choices each, to price them
 * (run.sh VARIANTS=1):
 *   -DRELOOKUP  the return program looks self->ts up a second time for the
 *               body after the predicate's lookup;
 *   -DHASH_AGG  @ lives in a per-CPU hash under a 4-byte key 0, inserted on
 *               a miss, instead of a per-CPU array slot.
 * and one that departs from both, to price the hash insert and delete:
 *   -DINPLACE   self->ts = 0 stores 0 in the entry instead of deleting it,
 *               and the entry probe overwrites an existing entry in place
 *               (a zeroed thread-local then keeps its slot until the map
 *               is gone: unlike DTrace, which frees it).
 *   -DTASK_STORAGE  self->ts in task-local storage (BPF_MAP_TYPE_TASK_STORAGE,
 *               bpf_get_current_task_btf()): no hashing, created on the
 *               first store, zeroed in place, freed by the kernel when the
 *               thread exits.
 * and one with the bookkeeping DTrace's output needs, as dcc's program has:
 *   -DDTRACE_WORK  a store of self->ts that fails (the hash is full) is
 *               counted in this CPU's dynamic-variable drops.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define NBUCKETS 64

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, __u64);
} start SEC(".maps");

#ifdef DTRACE_WORK
/* per-CPU drop counts, a cache line apart as dcc's are */
__u64 drops[1024 * 8];
#endif

#ifdef TASK_STORAGE
struct task_struct;

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} tstart SEC(".maps");
#endif

struct hist {
	__u64 bucket[NBUCKETS];
};

struct {
#ifdef HASH_AGG
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
#else
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
#endif
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct hist);
} hist SEC(".maps");

/* floor(log2(v)) + 1 for v > 0, 0 for v == 0: smear the top bit down, count the ones */
static __always_inline __u64 log2_bucket(__u64 v)
{
	v |= v >> 1;
	v |= v >> 2;
	v |= v >> 4;
	v |= v >> 8;
	v |= v >> 16;
	v |= v >> 32;
	v = v - ((v >> 1) & 0x5555555555555555ull);
	v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
	v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (v * 0x0101010101010101ull) >> 56;
}

SEC("tracepoint/syscalls/sys_enter_read")
int w2_read_entry(void *ctx __attribute__((unused)))
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u64 ts = bpf_ktime_get_ns();
#ifdef TASK_STORAGE
	__u64 *slot = bpf_task_storage_get(&tstart, bpf_get_current_task_btf(), 0,
					   BPF_LOCAL_STORAGE_GET_F_CREATE);

	(void)tid;
	if (slot)
		*slot = ts;
	return 0;
#endif
#ifdef INPLACE
	__u64 *tsp = bpf_map_lookup_elem(&start, &tid);

	if (tsp) {
		*tsp = ts;
		return 0;
	}
#endif
#ifdef DTRACE_WORK
	if (bpf_map_update_elem(&start, &tid, &ts, BPF_ANY))
		__sync_fetch_and_add(&drops[(bpf_get_smp_processor_id() & 1023) * 8 + 2], 1);
	return 0;
#endif
	bpf_map_update_elem(&start, &tid, &ts, BPF_ANY);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_read")
int w2_read_return(void *ctx __attribute__((unused)))
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid(), zero = 0;
	__u64 *tsp, delta;
	struct hist *h;

#ifdef TASK_STORAGE
	(void)tid;
	tsp = bpf_task_storage_get(&tstart, bpf_get_current_task_btf(), 0, 0);
#else
	tsp = bpf_map_lookup_elem(&start, &tid);
#endif
	if (!tsp || !*tsp)
		return 0;
#ifdef RELOOKUP
	tsp = bpf_map_lookup_elem(&start, &tid);
	if (!tsp)
		return 0;
#endif
	delta = bpf_ktime_get_ns() - *tsp;
#if defined(INPLACE) || defined(TASK_STORAGE)
	*tsp = 0;
#else
	bpf_map_delete_elem(&start, &tid);
#endif
	h = bpf_map_lookup_elem(&hist, &zero);
#ifdef HASH_AGG
	if (!h) {
		static const struct hist empty;

		bpf_map_update_elem(&hist, &zero, &empty, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&hist, &zero);
	}
#endif
	if (!h)
		return 0;
	h->bucket[log2_bucket(delta) & (NBUCKETS - 1)] += 1;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
