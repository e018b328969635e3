/*
 * Multi-uprobe links (Linux 6.6+): one link attaches a program to many
 * functions of one file, each with its cookie, in one system call, where
 * one uprobe a function costs a perf event each. libbpf 1.1 and the uapi
 * headers of this machine predate them, so the link is made with the
 * bpf() system call and the layout of union bpf_attr's link_create
 * written here. Where the kernel lacks them (the 6.1 guest), the same
 * object takes one uprobe a function (pid.c).
 */
#include "internal.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/bpf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define ATTACH_UPROBE_MULTI 48 /* enum bpf_attach_type's BPF_TRACE_UPROBE_MULTI */
#define UPROBE_MULTI_RETURN 1u /* BPF_F_UPROBE_MULTI_RETURN */

/* union bpf_attr's link_create for uprobe_multi, as Linux 6.6 lays it out */
struct link_create_uprobe_multi {
	uint32_t prog_fd, target_fd, attach_type, flags;
	uint64_t path, offsets, ref_ctr_offsets, cookies;
	uint32_t cnt, um_flags, pid, pad;
};

static int link_create(int prog_fd, const char *path, const uint64_t *offs,
		       const uint64_t *cookies, uint32_t n, bool ret, pid_t pid)
{
	struct link_create_uprobe_multi a;

	memset(&a, 0, sizeof(a));
	a.prog_fd = (uint32_t)prog_fd;
	a.attach_type = ATTACH_UPROBE_MULTI;
	a.path = (uint64_t)(uintptr_t)path;
	a.offsets = (uint64_t)(uintptr_t)offs;
	a.cookies = (uint64_t)(uintptr_t)cookies;
	a.cnt = n;
	a.um_flags = ret ? UPROBE_MULTI_RETURN : 0;
	a.pid = (uint32_t)pid;
	int fd = (int)syscall(SYS_bpf, BPF_LINK_CREATE, &a, sizeof(a));
	return fd < 0 ? -errno : fd;
}

/* Does the kernel make multi-uprobe links? A kprobe program of that attach
 * type linked to a directory: EBADF (not a regular file) where it does.
 * Only with DCC_PID_MULTI=1 for now: every function of libc at once did not
 * finish attaching within a minute on 6.18, where one uprobe each takes
 * 0.7 s (not yet understood). */
bool pid_multi_supported(void)
{
	static int known = -1;
	struct bpf_insn insns[2] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	uint64_t off = 0;

	if (known >= 0)
		return known;
	const char *env = getenv("DCC_PID_MULTI");
	if (!env || strcmp(env, "1")) {
		known = 0;
		return false;
	}
	LIBBPF_OPTS(bpf_prog_load_opts, po, .expected_attach_type = ATTACH_UPROBE_MULTI);
	int prog = bpf_prog_load(BPF_PROG_TYPE_KPROBE, "dcc_probe_um", "GPL", insns, 2, &po);
	known = 0;
	if (prog >= 0) {
		int fd = link_create(prog, "/", &off, NULL, 1, false, 0);
		known = fd == -EBADF;
		if (fd >= 0)
			close(fd);
		close(prog);
	}
	return known;
}

void pid_multi_prepare(struct bpf_program *prog)
{
	bpf_program__set_expected_attach_type(prog, ATTACH_UPROBE_MULTI);
}

int pid_multi_attach(struct attach_set *as, const struct bpf_program *prog, const char *path,
		     const uint64_t *offs, const uint64_t *cookies, uint32_t n, bool ret,
		     pid_t pid)
{
	int fd = link_create(bpf_program__fd(prog), path, offs, cookies, n, ret, pid);

	if (fd < 0)
		return fd;
	if (as->nlinkfds == as->linkfdcap) {
		int cap = as->linkfdcap ? 2 * as->linkfdcap : 8;
		int *g = realloc(as->link_fds, sizeof(*g) * (size_t)cap);

		if (!g) {
			close(fd);
			return -ENOMEM;
		}
		as->link_fds = g;
		as->linkfdcap = cap;
	}
	as->link_fds[as->nlinkfds++] = fd;
	return 0;
}
