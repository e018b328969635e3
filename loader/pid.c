/*
 * The pid provider at run time: a description "pid$target:OBJECT:FUNC"
 * (abi.h's DCC_ATTACH_PID_*) becomes one uprobe per matching function of
 * the process. OBJECT matches the files the process maps (/proc/PID/maps):
 * "a.out" is its executable, otherwise a glob over each file's name
 * ("libc.so.6"), that name without its ".so..." suffix ("libc") or its path;
 * FUNC is a glob over the functions (symbols of type FUNC with a size) of
 * each file's .symtab and .dynsym. Every function gets a probe id of its own
 * from DCC_PID_ID_BASE, the cookie its program reads, and a probe the
 * runtime prints ("pid123:libc.so.6:getpid:entry").
 *
 * An offset probe ("pid$target:a.out:main:1c", DCC_ATTACH_PID_OFFSET) is a
 * uprobe at each function's start plus the offset. Nothing here decodes
 * x86, so the offset is trusted to start an instruction, as the script's
 * author read it from a disassembly; one past the function's end (its
 * symbol's size) is refused, or skipped when FUNC is a glob.
 */
#include "internal.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "dcc/abi.h"
#include "dcc/runtime.h"

/* uprobes refuse some first instructions (ENOTSUPP, 524, from the kernel's
 * instruction decoder) */
bool pid_unprobeable(int err)
{
	return err == 524 || err == EINVAL || err == EOPNOTSUPP;
}

/* One description's functions in one file. */
struct pid_file {
	const struct bpf_program *prog;
	pid_t pid;
	bool ret, glob;
	const char *prov, *path, *base, *progname;
	const char *name; /* "entry", "return" or the offset ("1c") */
	uint64_t at;	  /* the offset into each function */
};

/* Record each function's probe and name it (before it can fire); ids[i]
 * is its probe id and cookie. */
static int name_funcs(struct attach_set *as, const struct pid_file *pf, struct func *fn, int n,
		      uint64_t *ids)
{
	for (int i = 0; i < n; i++) {
		uint32_t id;
		int err = uproc_add_probe(as, pf->prov, pf->base, fn[i].name, pf->name, &id);

		if (err)
			return err;
		ids[i] = id;
		if (as->pidnames_fd >= 0) {
			struct dcc_pidname pn = { 0 };

			snprintf(pn.prov, sizeof(pn.prov), "%.31s", pf->prov);
			snprintf(pn.mod, sizeof(pn.mod), "%.63s", pf->base);
			snprintf(pn.func, sizeof(pn.func), "%.159s", fn[i].name);
			if (bpf_map_update_elem(as->pidnames_fd, &id, &pn, BPF_ANY))
				fprintf(stderr, "%s: cannot name probe %s:%s:%s: %s\n",
					pf->progname, pf->prov, pf->base, fn[i].name,
					strerror(errno));
		}
	}
	return 0;
}

/* One uprobe a function is a perf event (a file descriptor) each: a glob
 * over a library or a static executable (~1,000-2,000 functions) passes
 * the usual soft limit of 1,024, so it is raised to the hard limit. */
static void room_for_fds(int n)
{
	struct rlimit rl;

	if (n > 64 && !getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* Attach fn[0..n): one multi-uprobe link where the kernel has them (the
 * program was loaded for them, so there is no going back to one uprobe a
 * function), else one uprobe a function. The number attached, or -errno
 * after a message. */
static int attach_funcs(struct attach_set *as, const struct pid_file *pf, struct func *fn,
			int n)
{
	uint64_t *ids = calloc((size_t)n + 1, sizeof(*ids)), *offs = calloc((size_t)n + 1, 8);
	int err = ids && offs ? name_funcs(as, pf, fn, n, ids) : -ENOMEM, nattached = 0;

	for (int i = 0; !err && i < n; i++)
		offs[i] = fn[i].off + pf->at;
	/* asked here, not before every attach: the probe costs a load and a
	 * link (~0.4 ms of a start), and only pid probes need the answer */
	as->pid_multi = pid_multi_supported();
	if (!err && as->pid_multi) {
		int got = pid_multi_attach(as, pf->prog, pf->path, offs, ids, (uint32_t)n, pf->ret,
					   pf->pid, pf->glob);
		if (got >= 0)
			nattached = got;
		else if (n == 1)
			fprintf(stderr, "%s: failed to enable %s:%s:%s:%s: %s\n", pf->progname,
				pf->prov, pf->base, fn[0].name, pf->name, strerror(-got));
		else
			fprintf(stderr, "%s: failed to enable %s:%s:%s:%s and %d others: %s\n",
				pf->progname, pf->prov, pf->base, fn[0].name, pf->name, n - 1,
				strerror(-got));
		err = got < 0 ? got : 0;
	}
	if (!err && !as->pid_multi)
		room_for_fds(n);
	for (int i = 0; !err && !as->pid_multi && i < n; i++) {
		LIBBPF_OPTS(bpf_uprobe_opts, uo, .retprobe = pf->ret, .bpf_cookie = ids[i]);
		struct bpf_link *link = bpf_program__attach_uprobe_opts(pf->prog, pf->pid, pf->path,
									(size_t)offs[i], &uo);

		if (!link && pf->glob && pid_unprobeable(errno)) {
			/* as DTrace, a glob skips what uprobes cannot instrument */
			as->pid_skipped++;
		} else if (!link) {
			err = -errno;
			fprintf(stderr, "%s: failed to enable %s:%s:%s:%s: %s\n", pf->progname,
				pf->prov, pf->base, fn[i].name, pf->name, strerror(errno));
		} else if (!(err = attach_add_link(as, link))) {
			nattached++;
		}
	}
	free(ids);
	free(offs);
	return err ? err : nattached;
}

/* An offset probe's functions: those the offset falls within, compacted
 * (the others' names freed); their count, or -EINVAL after a message when
 * FUNC names one function and the offset is past its end. */
static int within(const struct pid_file *pf, const char *shown, struct func *fn, int n)
{
	int k = 0;

	for (int i = 0; i < n; i++) {
		if (pf->at < fn[i].size) {
			fn[k++] = fn[i];
			continue;
		}
		if (!pf->glob) {
			fprintf(stderr, "%s: %s: offset 0x%llx is past the end of %s in %s (%llu "
				"bytes)\n", pf->progname, shown, (unsigned long long)pf->at,
				fn[i].name, pf->base, (unsigned long long)fn[i].size);
			for (int j = i; j < n; j++)
				fn[k++] = fn[j];
			return -EINVAL;
		}
		free(fn[i].name);
	}
	return k;
}

/* A glob's functions whose first instruction uprobes would refuse, taken
 * out (counted as skipped) before the kernel is asked: a refusal costs a
 * multi-uprobe link several tries, and a perf event a grace period. */
static int screen(struct attach_set *as, const struct pid_file *pf, struct func *fn, int n)
{
	int fd = open(pf->path, O_RDONLY | O_CLOEXEC), k = 0;

	for (int i = 0; fd >= 0 && i < n; i++) {
		uint8_t b[16];
		ssize_t got = pread(fd, b, sizeof(b), (off_t)(fn[i].off + pf->at));

		if (got > 0 && uproc_insn_refused(b, (size_t)got)) {
			as->pid_skipped++;
			free(fn[i].name);
			continue;
		}
		fn[k++] = fn[i];
	}
	if (fd >= 0)
		close(fd);
	return fd >= 0 ? k : n;
}

/* The functions of one file a description matches; the number attached or
 * -errno after a message. */
static int attach_file(struct attach_set *as, struct pid_file *pf, const char *func,
		       const char *shown)
{
	struct func *fn;
	int n = uproc_elf_funcs(pf->path, func, &fn), got = 0;

	if (n > 0 && pf->at) {
		int k = within(pf, shown, fn, n);
		got = k < 0 ? k : 0;
		n = k < 0 ? n : k;
	}
	if (n > 0 && !got && pf->glob)
		n = screen(as, pf, fn, n);
	if (n > 0 && !got)
		got = attach_funcs(as, pf, fn, n);
	for (int i = 0; i < n; i++)
		free(fn[i].name);
	free(fn);
	return got;
}

int pid_attach(struct attach_set *as, const struct bpf_program *prog,
	       const struct dcc_meta_attach *a, const char *target, const char *progname)
{
	bool ret = a->kind == DCC_ATTACH_PID_RETURN, at = a->kind == DCC_ATTACH_PID_OFFSET;
	pid_t pid = a->param ? (pid_t)a->param : as->target;
	char desc[512], shown[600], exe[PATH_MAX], prov[32], **files = NULL;
	char *mod, *func, *name = ret ? "return" : "entry";
	int nfiles, err = 0, nattached = 0;

	/* the description as the script wrote it, for messages */
	snprintf(shown, sizeof(shown), at ? "%s" : "%s:%s", target, name);
	if (!pid) {
		fprintf(stderr, "%s: %s: $target needs a process: run with -c or -p\n", progname,
			shown);
		return -EINVAL;
	}
	snprintf(desc, sizeof(desc), "%s", target);
	mod = strchr(desc, ':');
	func = mod ? strchr(mod + 1, ':') : NULL;
	if (!func || (at && !(name = strchr(func + 1, ':'))))
		return -EINVAL;
	*mod++ = 0;
	*func++ = 0;
	if (at)
		*name++ = 0;
	snprintf(prov, sizeof(prov), "pid%d", (int)pid);
	nfiles = uproc_mapped_files(pid, exe, &files);
	if (nfiles < 0) {
		fprintf(stderr, "%s: cannot read the mappings of pid %d: %s\n", progname, (int)pid,
			strerror(-nfiles));
		return nfiles;
	}
	for (int f = 0; f < nfiles && !err; f++) {
		struct pid_file pf = { prog, pid, ret, !*func || strpbrk(func, "*?[") != NULL,
				       prov, files[f], strrchr(files[f], '/') + 1, progname, name,
				       at ? strtoull(name, NULL, 16) : 0 };

		if (!uproc_object_match(mod, files[f], exe))
			continue;
		int got = attach_file(as, &pf, func, shown);
		if (got < 0)
			err = got;
		else
			nattached += got;
	}
	for (int f = 0; f < nfiles; f++)
		free(files[f]);
	free(files);
	if (!err && !nattached && !(a->flags & DCC_ATTACH_F_OPTIONAL)) {
		fprintf(stderr, "%s: probe description %s does not match any probes in pid %d\n",
			progname, shown, (int)pid);
		return -ENOENT;
	}
	return err;
}
