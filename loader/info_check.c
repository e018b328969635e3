/*
 * The check dtrun makes before it loads an object: that the running kernel
 * has every program type and helper the object's programs use (info_scan.c
 * found them), so that a missing one is named in one sentence instead of a
 * verifier log. It runs on every start, so it probes each program type and
 * each (type, helper) pair once, and not at all for the helpers that every
 * kernel of at least the release given in `always` allows in the tracing
 * program types without conditions.
 */
#include "info.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

static int nloads; /* test programs loaded, for dtrun -v */

static const char *type_name(int type)
{
	const char *s = libbpf_bpf_prog_type_str(type);
	return s ? s : "unknown";
}

/*
 * DCC_TEST_MISSING=TYPE or =TYPE:HELPER (a test hook, documented in
 * dtrun.1): act as if this kernel lacked that program type, or that helper
 * for that program type ("kprobe", "tracepoint:get_current_pid_tgid").
 */
static bool test_missing(int type, unsigned id)
{
	const char *t = getenv("DCC_TEST_MISSING"), *colon = t ? strchr(t, ':') : NULL;
	const char *tn = type_name(type), *n = id ? info_helper_name(id) : NULL;
	if (!t)
		return false;
	if (!id)
		return !colon && !strcmp(t, tn);
	return colon && n && !strncmp(t, tn, (size_t)(colon - t)) && !tn[colon - t] &&
	       !strcmp(colon + 1, n);
}

/* Program types that load only with a BTF target (fentry, tp_btf, LSM...):
 * libbpf's probe cannot load one, so they are not probed (the kernel BTF
 * check covers them). */
static bool btf_typed(int type)
{
	return type == BPF_PROG_TYPE_TRACING || type == BPF_PROG_TYPE_EXT ||
	       type == BPF_PROG_TYPE_LSM || type == BPF_PROG_TYPE_STRUCT_OPS;
}

/* Whether the kernel has program type: load `r0 = 0; exit`. Only an unknown
 * type fails with EINVAL before anything else is looked at; EPERM (not
 * root) and the rest cannot tell (libbpf's probe says 0 for them). */
static int probe_type(int type)
{
	if (btf_typed(type))
		return -EOPNOTSUPP;
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	nloads++;
	int fd = bpf_prog_load(type, NULL, "GPL", insns, 2, NULL);
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	return errno == EINVAL ? 0 : -errno;
}

/*
 * Whether programs of type may call helper id: load `call id; exit` and
 * read the verifier's reason. Unknown ids and helpers the type may not call
 * fail while the call is looked up ("invalid func", "unknown func",
 * "cannot use helper", by kernel version); any other failure comes later,
 * from the arguments, so the helper is there. libbpf's probe predates the
 * newest wording.
 */
static int probe_helper(int type, unsigned id)
{
	if (btf_typed(type))
		return -EOPNOTSUPP;
	struct bpf_insn insns[] = {
		{ .code = BPF_JMP | BPF_CALL, .imm = (int)id },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	char log[4096] = "";
	LIBBPF_OPTS(bpf_prog_load_opts, po, .log_buf = log, .log_size = sizeof(log),
		    .log_level = 1);
	nloads++;
	int fd = bpf_prog_load(type, NULL, "GPL", insns, 2, &po);
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	if (strstr(log, "invalid func ") || strstr(log, "unknown func ") ||
	    strstr(log, "cannot use helper"))
		return 0;
	return log[0] ? 1 : -errno;
}

/*
 * Helpers that kprobe, tracepoint, perf_event and raw_tracepoint programs
 * may call on every kernel since the release given (major * 256 + minor),
 * with no condition: no lockdown (bpf_probe_write_user, the kernel-memory
 * reads), no capability beyond loading, no kernel option beyond the BPF
 * events the type probe finds. The earliest release is 4.17, when
 * raw_tracepoint programs came. Any other helper is probed.
 */
static const struct {
	unsigned id, since;
} always[] = {
	{ BPF_FUNC_map_lookup_elem, 0x411 },
	{ BPF_FUNC_map_update_elem, 0x411 },
	{ BPF_FUNC_map_delete_elem, 0x411 },
	{ BPF_FUNC_ktime_get_ns, 0x411 },
	{ BPF_FUNC_get_prandom_u32, 0x411 },
	{ BPF_FUNC_get_smp_processor_id, 0x411 },
	{ BPF_FUNC_get_current_pid_tgid, 0x411 },
	{ BPF_FUNC_get_current_uid_gid, 0x411 },
	{ BPF_FUNC_get_current_comm, 0x411 },
	{ BPF_FUNC_perf_event_output, 0x411 },
	{ BPF_FUNC_get_stackid, 0x411 },
	{ BPF_FUNC_get_current_task, 0x411 },
	{ BPF_FUNC_get_stack, 0x412 },
	{ BPF_FUNC_probe_read_user, 0x505 },
	{ BPF_FUNC_probe_read_user_str, 0x505 },
	{ BPF_FUNC_ringbuf_output, 0x508 },
	{ BPF_FUNC_ringbuf_reserve, 0x508 },
	{ BPF_FUNC_ringbuf_submit, 0x508 },
	{ BPF_FUNC_ringbuf_discard, 0x508 },
	{ BPF_FUNC_ringbuf_query, 0x508 },
};

/* The running kernel's release as major * 256 + minor, 0 if unreadable. */
static unsigned kernel_release(void)
{
	struct utsname u;
	unsigned major = 0, minor = 0;
	if (uname(&u) || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return 0;
	return major * 256 + (minor < 255 ? minor : 255);
}

static bool always_there(int type, unsigned id, unsigned release)
{
	if (type != BPF_PROG_TYPE_KPROBE && type != BPF_PROG_TYPE_TRACEPOINT &&
	    type != BPF_PROG_TYPE_PERF_EVENT && type != BPF_PROG_TYPE_RAW_TRACEPOINT)
		return false;
	for (size_t i = 0; i < sizeof(always) / sizeof(always[0]); i++)
		if (always[i].id == id)
			return release >= always[i].since;
	return false;
}

/* Answers so far, for types below MAX_TYPES: 0 not asked, 1 cannot tell,
 * 2 missing, 3 there. */
#define MAX_TYPES 64
static signed char type_seen[MAX_TYPES], helper_seen[MAX_TYPES][INFO_MAX_HELPERS];

/* kprobe, tracepoint, perf_event and raw_tracepoint programs come together
 * with one kernel option (CONFIG_BPF_EVENTS) in every release since 4.17,
 * when the last of them came: probing one answers for all four, one test
 * load less on each start of a script with BEGIN and a tracepoint. */
static bool bpf_events_type(int type, unsigned release)
{
	return release >= 0x411 &&
	       (type == BPF_PROG_TYPE_KPROBE || type == BPF_PROG_TYPE_TRACEPOINT ||
		type == BPF_PROG_TYPE_PERF_EVENT || type == BPF_PROG_TYPE_RAW_TRACEPOINT);
}

static int has_type(int type, unsigned release)
{
	if (test_missing(type, 0))
		return 0;
	if (type < 0 || type >= MAX_TYPES)
		return probe_type(type);
	if (!type_seen[type] && bpf_events_type(type, release))
		for (int t = 0; t < MAX_TYPES; t++)
			if (type_seen[t] && bpf_events_type(t, release)) {
				type_seen[type] = type_seen[t];
				break;
			}
	if (!type_seen[type]) {
		int r = probe_type(type);
		type_seen[type] = (signed char)(r < 0 ? 1 : r + 2);
	}
	return type_seen[type] == 1 ? -1 : type_seen[type] - 2;
}

static int has_helper(int type, unsigned id, unsigned release)
{
	if (test_missing(type, id))
		return 0;
	if (always_there(type, id, release))
		return 1;
	if (type < 0 || type >= MAX_TYPES)
		return probe_helper(type, id);
	if (!helper_seen[type][id]) {
		int r = probe_helper(type, id);
		helper_seen[type][id] = (signed char)(r < 0 ? 1 : r + 2);
	}
	return helper_seen[type][id] == 1 ? -1 : helper_seen[type][id] - 2;
}

int info_check_kernel(const struct info *in, const char *prog, const char *obj_name,
		      int *loads)
{
	libbpf_print_fn_t old = libbpf_set_print(NULL);
	unsigned release = kernel_release();
	int ret = 0;

	nloads = 0;
	for (int i = 0; i < in->nprogs && !ret; i++) {
		const struct info_prog *p = &in->progs[i];
		/* 1: there; 0: missing; < 0: cannot tell (not root, a type libbpf
		 * cannot probe): loading will say */
		if (has_type(p->type, release) == 0) {
			fprintf(stderr, "%s: this kernel cannot run %s: it has no %s programs "
				"(program %s)\n", prog, obj_name, type_name(p->type), p->name);
			ret = 1;
			break;
		}
		for (unsigned k = 1; k < INFO_MAX_HELPERS && !ret; k++)
			if (p->helpers[k] && has_helper(p->type, k, release) == 0) {
				const char *n = info_helper_name(k);
				fprintf(stderr, "%s: this kernel cannot run %s: program %s calls "
					"helper %s%s (%u), which this kernel does not allow in "
					"%s programs\n", prog, obj_name, p->name, n ? "bpf_" : "",
					n ? n : "", k, type_name(p->type));
				ret = 1;
			}
	}
	if (!ret && in->core && access("/sys/kernel/btf/vmlinux", R_OK) && errno == ENOENT) {
		fprintf(stderr, "%s: this kernel cannot run %s: it needs the kernel's BTF "
			"(/sys/kernel/btf/vmlinux is missing: CONFIG_DEBUG_INFO_BTF)\n", prog,
			obj_name);
		ret = 1;
	}
	libbpf_set_print(old);
	*loads = nloads;
	return ret;
}
