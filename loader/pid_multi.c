/*
 * Multi-uprobe links (Linux 6.6+): one link attaches a program to many
 * functions of one file, each with its cookie, in one system call, where
 * one uprobe a function costs a perf event each. libbpf 1.1 and the uapi
 * headers of this machine predate them, so the link is made with the
 * bpf() system call and the layout of union bpf_attr's link_create
 * written here. Where the kernel lacks them (the 6.1 guest), the same
 * object takes one uprobe a function (pid.c).
 *
 * Why it matters: a uprobe's perf event waits for RCU grace periods when
 * it is closed (~0.1 s each on 6.18, serialized by the kernel's uprobe
 * registration lock), so every function of libc (~2,150) one uprobe each
 * attaches in ~0.3 s but takes minutes to detach; one link is undone with
 * one wait.
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
 * DCC_PID_MULTI=0 takes one uprobe a function even there (to compare, and
 * to test the fallback). */
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
	if (env && !strcmp(env, "0")) {
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

static int keep_fd(struct attach_set *as, int fd)
{
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

struct multi_req {
	int prog_fd;
	const char *path;
	const uint64_t *offs, *cookies;
	bool ret, glob;
	pid_t pid;
};

/* offs[lo, lo + n) in one link. The kernel installs the breakpoints in
 * order and undoes them all when one instruction is refused, without
 * saying which: for a glob, each half is tried on its own until a refused
 * function is alone, and skipped (a few links instead of one; uproc.c's
 * screen has taken out what it can tell beforehand). */
static int attach_range(struct attach_set *as, const struct multi_req *r, uint32_t lo, uint32_t n)
{
	int fd = link_create(r->prog_fd, r->path, r->offs + lo, r->cookies + lo, n, r->ret, r->pid);

	if (fd >= 0) {
		int err = keep_fd(as, fd);
		return err ? err : (int)n;
	}
	if (!r->glob || !pid_unprobeable(-fd))
		return fd;
	if (n == 1) {
		as->pid_skipped++;
		return 0;
	}
	int a = attach_range(as, r, lo, n / 2);
	if (a < 0)
		return a;
	int b = attach_range(as, r, lo + n / 2, n - n / 2);
	return b < 0 ? b : a + b;
}

int pid_multi_attach(struct attach_set *as, const struct bpf_program *prog, const char *path,
		     const uint64_t *offs, const uint64_t *cookies, uint32_t n, bool ret,
		     pid_t pid, bool glob)
{
	struct multi_req r = { bpf_program__fd(prog), path, offs, cookies, ret, glob, pid };

	return attach_range(as, &r, 0, n);
}
