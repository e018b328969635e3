/*
 * What must be set in an opened object before bpf_object__load(), shared by
 * loader_run() and the embedding API (session.c): the ring buffer's size,
 * .rodata's $target, wall clock offset and process variables, the programs'
 * phase, and the BTF target of programs loaded for one kernel function.
 */
#include "internal.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dcc/abi_opt.h"
#include "dcc/runtime.h"

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Write the const volatile u64 `var` of .rodata before load. Objects
 * without .rodata or without the variable are fine. */
static void set_rodata(struct bpf_object *obj, void *data, size_t size, const char *var,
		       uint64_t value)
{
	long off = rt_var_offset(obj, ".rodata", var, sizeof(value));

	if (data && off >= 0 && (size_t)off + sizeof(value) <= size)
		memcpy((char *)data + off, &value, sizeof(value));
}

/* $pid, $ppid... are this process's, as dtrace's are its own */
static void set_procvars(struct bpf_object *obj, void *data, size_t size)
{
	const uint64_t v[] = { (uint64_t)getpid(), (uint64_t)getppid(), (uint64_t)getpgid(0),
			       (uint64_t)getsid(0), getuid(),	      getgid(),
			       geteuid(),	    getegid() };
	static const char *const names[] = { "pid", "ppid", "pgid", "sid",
					     "uid", "gid",  "euid", "egid" };
	char name[32];

	for (int i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), DCC_RODATA_PROC "%s", names[i]);
		set_rodata(obj, data, size, name, v[i]);
	}
}

/* Whether the kernel's BTF has function NAME; true when the BTF cannot
 * be read (the load then says why). *btf is loaded on first use. */
static bool kernel_has_function(struct btf **btf, const char *name)
{
	if (!*btf) {
		*btf = btf__load_vmlinux_btf();
		if (libbpf_get_error(*btf)) {
			*btf = NULL;
			return true;
		}
	}
	return btf__find_by_name_kind(*btf, name, BTF_KIND_FUNC) > 0;
}

const char *loader_attach_target(struct dcc_runtime *rt, const char *prog, uint32_t *kind,
				 bool *only_optional, int *count)
{
	const struct dcc_meta_header *h = dcc_runtime__meta(rt);
	const struct dcc_meta_attach *a =
		(const void *)((const char *)h + h->attach_off);
	const char *target = NULL;

	*only_optional = true;
	*count = 0;
	for (uint32_t i = 0; i < h->nattach; i++) {
		if (strcmp(dcc_runtime__str(rt, a[i].prog), prog))
			continue;
		if (!target) {
			target = dcc_runtime__str(rt, a[i].target);
			*kind = a[i].kind;
		}
		if (!(a[i].flags & DCC_ATTACH_F_OPTIONAL) || a[i].kind == DCC_ATTACH_BEGIN ||
		    a[i].kind == DCC_ATTACH_END)
			*only_optional = false;
		(*count)++;
	}
	return target;
}

/* Whether prog may write to the ring buffer: it calls a ring buffer helper
 * or a function of .text (ERROR and timer clauses, which may), or passes
 * one to a helper (a bpf_loop() callback). */
static bool may_write_records(const struct bpf_program *prog)
{
	const struct bpf_insn *in = bpf_program__insns(prog);
	size_t n = bpf_program__insn_cnt(prog);

	for (size_t i = 0; i < n; i++) {
		if (in[i].code == (BPF_LD | BPF_IMM | BPF_DW) && in[i].src_reg == BPF_PSEUDO_FUNC)
			return true;
		if (in[i].code != (BPF_JMP | BPF_CALL))
			continue;
		if (in[i].src_reg == BPF_PSEUDO_CALL || in[i].imm == BPF_FUNC_ringbuf_output ||
		    in[i].imm == BPF_FUNC_ringbuf_reserve ||
		    in[i].imm == BPF_FUNC_ringbuf_reserve_dynptr)
			return true;
	}
	return false;
}

/*
 * The bytes the ring buffer must hold when only BEGIN and END programs write
 * to it, each run once: every clause's record, a fault record, and the
 * records of ERROR clauses the fault calls (any clause may be one), each
 * behind its 8-byte ring buffer header. 0 when another program may write:
 * it fires any number of times, and bufsize is the buffer DTrace gives it.
 */
static uint64_t once_only_bytes(struct bpf_object *obj, struct dcc_runtime *rt)
{
	const struct dcc_meta_header *h = dcc_runtime__meta(rt);
	const struct dcc_meta_clause *c = (const void *)((const char *)h + h->clause_off);
	const uint64_t fault = (sizeof(struct dcc_rec_hdr) + sizeof(struct dcc_rec_fault) + 7) /
			       8 * 8 + 8;
	struct bpf_program *prog;
	uint64_t records = 0;

	bpf_object__for_each_program(prog, obj) {
		bool only_optional;
		uint32_t kind = 0;
		int count;

		loader_attach_target(rt, bpf_program__name(prog), &kind, &only_optional, &count);
		if (kind != DCC_ATTACH_BEGIN && kind != DCC_ATTACH_END && may_write_records(prog))
			return 0;
	}
	for (uint32_t i = 0; i < h->nclauses; i++)
		records += ((uint64_t)c[i].size + 7) / 8 * 8 + 8;
	return h->nclauses * (records + fault) + records;
}

/*
 * bufsize, or less when nothing but BEGIN and END can write records and
 * bufsize was not set (by -x, -b or the script): most scripts only
 * aggregate, and the 4 MiB ring buffer (created, mapped twice, unmapped
 * and freed) was a third of the start-up of a small one (bench/RESULTS.md,
 * 2026-11-27). Each BEGIN and END runs once, so their records always fit.
 */
static uint32_t ringbuf_size(struct bpf_object *obj, struct dcc_runtime *rt, uint64_t bufsize)
{
	const char *policy = dcc_runtime__option(rt, "bufpolicy");
	uint64_t need, dflt;

	/* ring and fill hold bufsize a CPU on the consumer's side
	 * (runtime/bufpolicy.c): the kernel's buffer only carries records
	 * there, and a small one would drop them between drains */
	if (policy && strcmp(policy, "switch") &&
	    !abi_opt_parse_size(abi_opt_find("bufsize")->def, &dflt) && bufsize < dflt)
		return loader_ringbuf_size(dflt);
	if (!dcc_runtime__option(rt, "bufsize")) {
		need = once_only_bytes(obj, rt);
		if (need && need < bufsize)
			bufsize = need;
	}
	return loader_ringbuf_size(bufsize);
}

/*
 * As DTrace refuses an aggsize that cannot hold one entry of the largest
 * aggregation (its key, its value and DTrace's 8-byte counter), rather than
 * letting the program run with no room to aggregate in: true after saying so.
 */
static bool aggsize_too_small(struct dcc_runtime *rt, const char *progname)
{
	const struct dcc_meta_header *h = dcc_runtime__meta(rt);
	const struct dcc_meta_agg *a = (const void *)((const char *)h + h->agg_off);
	const char *v = dcc_runtime__option(rt, "aggsize");
	uint64_t aggsize, largest = 0;

	if (abi_opt_parse_size(v ? v : abi_opt_find("aggsize")->def, &aggsize))
		return false; /* sema refused a bad value already */
	for (uint32_t i = 0; i < h->naggs; i++)
		if ((uint64_t)a[i].key_size + a[i].val_size + 8 > largest)
			largest = (uint64_t)a[i].key_size + a[i].val_size + 8;
	if (aggsize >= largest)
		return false;
	fprintf(dcc_runtime__err(rt), "%s: could not enable tracing: Enabling exceeds size of "
		"buffer (aggsize %llu, an aggregation takes up to %llu bytes)\n", progname,
		(unsigned long long)aggsize, (unsigned long long)largest);
	return true;
}

int loader_prepare(struct bpf_object *obj, struct dcc_runtime *rt, pid_t target,
		   uint64_t bufsize, const char *progname)
{
	FILE *err = dcc_runtime__err(rt);
	struct bpf_program *prog;
	struct bpf_map *map;

	if (aggsize_too_small(rt, progname) || loader_resize_check(rt, bufsize, progname))
		return -ENOSPC;

	map = bpf_object__find_map_by_name(obj, DCC_MAP_RINGBUF);
	if (map && bpf_map__set_max_entries(map, ringbuf_size(obj, rt, bufsize))) {
		fprintf(err, "%s: cannot set the ring buffer size: %s\n", progname,
			strerror(errno));
		return -EINVAL;
	}
	map = bpf_object__find_map_by_name(obj, ".rodata");
	if (map) {
		size_t sz = 0;
		const void *init = bpf_map__initial_value(map, &sz);
		void *copy = init && sz ? malloc(sz) : NULL;

		if (copy) {
			memcpy(copy, init, sz);
			set_rodata(obj, copy, sz, DCC_RODATA_TARGET, (uint64_t)target);
			set_rodata(obj, copy, sz, DCC_RODATA_WALLOFF,
				   clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_MONOTONIC));
			set_procvars(obj, copy, sz);
			bpf_map__set_initial_value(map, copy, sz);
			free(copy);
		}
	}
	if (loader_phase_loaded(obj)) {
		fprintf(err, "%s: cannot set the object's phase before load\n", progname);
		return -EINVAL;
	}
	struct btf *vmlinux = NULL;
	bpf_object__for_each_program(prog, obj) {
		const char *pname = bpf_program__name(prog), *tname;
		bool only_optional;
		uint32_t kind = 0;
		int count;

		tname = loader_attach_target(rt, pname, &kind, &only_optional, &count);
		if ((kind == DCC_ATTACH_PID_ENTRY || kind == DCC_ATTACH_PID_RETURN ||
		     kind == DCC_ATTACH_PID_OFFSET) &&
		    pid_multi_supported())
			pid_multi_prepare(prog);
		/* A BTF-typed program is loaded for one target. */
		if (tname && *tname && count == 1 &&
		    (kind == DCC_ATTACH_TP_BTF || kind == DCC_ATTACH_FENTRY ||
		     kind == DCC_ATTACH_FEXIT))
			bpf_program__set_attach_target(prog, 0, tname);
		/* An fbt function a glob matched where the object was compiled
		 * and this kernel lacks: left out here, not refused at load one
		 * program at a time (each refusal a reload of the object). */
		if (tname && only_optional && count == 1 &&
		    (kind == DCC_ATTACH_FENTRY || kind == DCC_ATTACH_FEXIT) &&
		    !kernel_has_function(&vmlinux, tname))
			bpf_program__set_autoload(prog, false);
	}
	btf__free(vmlinux);
	return 0;
}
