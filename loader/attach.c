/*
 * From the metadata's attach table to live probes: each entry names a BPF
 * program of the object, how to attach it and where. BEGIN and END programs
 * are not attached but run once with bpf_prog_test_run.
 */
#include "internal.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>

#include <dcc/abi_cpc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "dcc/abi_names.h"
#include "dcc/runtime.h"

#define TRACEFS "/sys/kernel/tracing"

const char *attach_kind_name(uint32_t kind)
{
	const char *n = abi_attach_desc(kind);

	return n ? n : "unknown";
}

static const struct dcc_meta_attach *attach_table(struct dcc_runtime *rt, uint32_t *n)
{
	const struct dcc_meta_header *h = dcc_runtime__meta(rt);

	*n = h->nattach;
	return (const struct dcc_meta_attach *)((const char *)h + h->attach_off);
}

int attach_mount_tracefs(FILE *err, const char *progname)
{
	struct stat st;

	if (!stat(TRACEFS "/events", &st))
		return 0;
	if (mount("tracefs", TRACEFS, "tracefs", 0, NULL)) {
		int e = errno;

		fprintf(err, "%s: tracefs is not mounted and mounting it on %s failed: %s\n",
			progname, TRACEFS, strerror(e));
		return -e;
	}
	if (stat(TRACEFS "/events", &st)) {
		fprintf(err, "%s: mounted tracefs on %s but it has no events/ directory\n",
			progname, TRACEFS);
		return -ENOENT;
	}
	return 0;
}

int attach_add_link(struct attach_set *as, struct bpf_link *link)
{
	if (as->nlinks == as->cap) {
		int cap = as->cap ? as->cap * 2 : 16;
		struct bpf_link **grown = realloc(as->links, cap * sizeof(*grown));

		if (!grown) {
			bpf_link__destroy(link);
			return -ENOMEM;
		}
		as->links = grown;
		as->cap = cap;
	}
	as->links[as->nlinks++] = link;
	return 0;
}

/* CPUs listed in /sys/devices/system/cpu/online ("0-3,6"), as a bitmap. */
static int online_cpus(bool *cpus, int max)
{
	char buf[256], *p = buf, *end;
	int fd = open("/sys/devices/system/cpu/online", O_RDONLY | O_CLOEXEC), n = 0;
	ssize_t len;

	if (fd < 0)
		return -errno;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return -EIO;
	buf[len] = 0;
	while (*p && *p != '\n') {
		long lo = strtol(p, &end, 10), hi = lo;

		if (end == p)
			return -EINVAL;
		p = end;
		if (*p == '-') {
			hi = strtol(p + 1, &end, 10);
			p = end;
		}
		for (long c = lo; c <= hi && c < max; c++, n++)
			cpus[c] = true;
		if (*p == ',')
			p++;
	}
	return n;
}

static int attach_clock(struct attach_set *as, const struct bpf_program *prog, int cpu,
			uint64_t period)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = period,
	};
	struct bpf_link *link;
	int pfd, err;

	pfd = (int)syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (pfd < 0)
		return -errno;
	link = bpf_program__attach_perf_event(prog, pfd);
	if (!link) {
		err = -errno;
		close(pfd);
		return err;
	}
	/* The link owns pfd from here: destroying it closes the event. */
	return attach_add_link(as, link);
}

/* cpc: perf event `event` (abi_cpc.h) on every online CPU, firing every
 * `count` events, counting in user space, the kernel or both (flags) */
static int attach_cpc(struct attach_set *as, const struct bpf_program *prog, const char *event,
		      uint32_t flags, uint64_t count)
{
	enum { MAX_CPUS = 4096 };
	const struct dcc_cpc_event *e = abi_cpc_event(event);
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.sample_period = count,
		.exclude_user = !!(flags & DCC_ATTACH_F_NOUSER),
		.exclude_kernel = !!(flags & DCC_ATTACH_F_NOKERNEL),
		.exclude_hv = 1,
	};
	bool *cpus;
	int err = 0, n;

	if (!e || !count)
		return -EINVAL;
	attr.type = e->type;
	attr.config = e->config;
	cpus = calloc(MAX_CPUS, sizeof(*cpus));
	if (!cpus)
		return -ENOMEM;
	n = online_cpus(cpus, MAX_CPUS);
	if (n < 0)
		err = n;
	for (int c = 0; !err && c < MAX_CPUS; c++) {
		struct bpf_link *link;
		int pfd;

		if (!cpus[c])
			continue;
		pfd = (int)syscall(SYS_perf_event_open, &attr, -1, c, -1, PERF_FLAG_FD_CLOEXEC);
		if (pfd < 0) {
			err = -errno;
			break;
		}
		link = bpf_program__attach_perf_event(prog, pfd);
		if (!link) {
			err = -errno;
			close(pfd);
			break;
		}
		err = attach_add_link(as, link);
	}
	free(cpus);
	return err;
}

/* The id of tracefs event group/event, or -errno. */
static long tracepoint_id(const char *group, const char *event)
{
	static const char *const roots[] = { TRACEFS, "/sys/kernel/debug/tracing" };
	char path[512], buf[32];
	int err = -ENOENT;

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		int fd;
		ssize_t n;

		snprintf(path, sizeof(path), "%s/events/%s/%s/id", roots[i], group, event);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			if (i == 0)
				err = -errno;
			continue;
		}
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			return -EIO;
		buf[n] = 0;
		return strtol(buf, NULL, 10);
	}
	return err;
}

/*
 * What libbpf's attach_tracepoint does, keeping a second fd of the perf
 * event: destroying the link then only takes the program off the tracepoint
 * (fast); the last close of the event waits for an RCU grace period (~100 ms
 * each), so it is left for attach_release() after the output is printed.
 */
static int attach_tracepoint(struct attach_set *as, const struct bpf_program *prog,
			     const char *group, const char *event)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.sample_period = 1,
		.wakeup_events = 1,
	};
	struct bpf_link *link;
	long id = tracepoint_id(group, event);
	int pfd, keep, err;

	if (id < 0)
		return (int)id;
	attr.config = (uint64_t)id;
	pfd = (int)syscall(SYS_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (pfd < 0)
		return -errno;
	keep = fcntl(pfd, F_DUPFD_CLOEXEC, 3);
	link = bpf_program__attach_perf_event(prog, pfd);
	if (!link) {
		err = -errno;
		close(pfd);
		if (keep >= 0)
			close(keep);
		return err;
	}
	if (keep >= 0) {
		if (as->nslow == as->slowcap) {
			int cap = as->slowcap ? as->slowcap * 2 : 16;
			int *grown = realloc(as->slow_fds, cap * sizeof(*grown));

			if (grown) {
				as->slow_fds = grown;
				as->slowcap = cap;
			}
		}
		if (as->nslow < as->slowcap)
			as->slow_fds[as->nslow++] = keep;
		else
			close(keep);
	}
	return attach_add_link(as, link);
}

static int attach_one(struct attach_set *as, const struct bpf_program *prog,
		      const struct dcc_meta_attach *a, const char *target)
{
	struct bpf_link *link = NULL;
	char buf[512], *sep;

	switch (a->kind) {
	case DCC_ATTACH_TRACEPOINT:
		if (strlen(target) >= sizeof(buf) || !(sep = strchr(strcpy(buf, target), '/')))
			return -EINVAL;
		*sep = 0;
		return attach_tracepoint(as, prog, buf, sep + 1);
	case DCC_ATTACH_RAW_TP:
		link = bpf_program__attach_raw_tracepoint(prog, target);
		break;
	case DCC_ATTACH_TP_BTF:
	case DCC_ATTACH_FENTRY:
	case DCC_ATTACH_FEXIT:
		/* The target was fixed at load time (section name or
		 * bpf_program__set_attach_target). */
		link = bpf_program__attach_trace(prog);
		break;
	case DCC_ATTACH_KPROBE:
	case DCC_ATTACH_KRETPROBE:
		link = bpf_program__attach_kprobe(prog, a->kind == DCC_ATTACH_KRETPROBE, target);
		break;
	case DCC_ATTACH_UPROBE:
	case DCC_ATTACH_URETPROBE: {
		unsigned long long off;
		char *end;

		if (strlen(target) >= sizeof(buf) || !(sep = strrchr(strcpy(buf, target), ':')))
			return -EINVAL;
		*sep = 0;
		errno = 0;
		off = strtoull(sep + 1, &end, 0);
		if (errno || *end || end == sep + 1)
			return -EINVAL;
		link = bpf_program__attach_uprobe(prog, a->kind == DCC_ATTACH_URETPROBE, -1, buf,
						  (size_t)off);
		break;
	}
	case DCC_ATTACH_TICK:
		if (!a->param)
			return -EINVAL;
		return attach_clock(as, prog, 0, a->param);
	case DCC_ATTACH_CPC:
		return attach_cpc(as, prog, target, a->flags, a->param);
	case DCC_ATTACH_PROFILE: {
		enum { MAX_CPUS = 4096 };
		bool *cpus = calloc(MAX_CPUS, sizeof(*cpus));
		int err = 0, n;

		if (!cpus)
			return -ENOMEM;
		n = a->param ? online_cpus(cpus, MAX_CPUS) : -EINVAL;
		if (n < 0)
			err = n;
		for (int c = 0; !err && c < MAX_CPUS; c++)
			if (cpus[c])
				err = attach_clock(as, prog, c, a->param);
		free(cpus);
		return err;
	}
	default:
		return -EOPNOTSUPP;
	}
	if (!link)
		return errno ? -errno : -EINVAL;
	return attach_add_link(as, link);
}

/* Does the entry attach uprobes (pid, USDT, uprobe)? The kernel runs a
 * uprobe's consumers newest first, so these attach last clause first. */
static bool on_uprobes(uint32_t kind)
{
	return kind == DCC_ATTACH_PID_ENTRY || kind == DCC_ATTACH_PID_RETURN ||
	       kind == DCC_ATTACH_PID_OFFSET || kind == DCC_ATTACH_USDT ||
	       kind == DCC_ATTACH_UPROBE || kind == DCC_ATTACH_URETPROBE;
}

static int attach_entry(struct attach_set *as, struct bpf_object *obj, struct dcc_runtime *rt,
			const struct dcc_meta_attach *a, uint32_t i, const char *progname);

/* The table is in clause order, and the clauses of one firing must run in it:
 * everything else attaches in that order, as the kernel runs a tracepoint's
 * or a perf event's programs oldest first; uprobes the other way round
 * (uprobe_consumer lists are pushed at their head), so that a clause's
 * exit() stops the clauses after it, not the ones before. */
int attach_all(struct attach_set *as, struct bpf_object *obj, struct dcc_runtime *rt,
	       const char *progname)
{
	const struct dcc_meta_attach *a;
	uint32_t n;
	int err;

	a = attach_table(rt, &n);
	for (uint32_t i = 0; i < n; i++)
		if (!on_uprobes(a[i].kind) && (err = attach_entry(as, obj, rt, a, i, progname)))
			return err;
	for (uint32_t i = n; i-- > 0;)
		if (on_uprobes(a[i].kind) && (err = attach_entry(as, obj, rt, a, i, progname)))
			return err;
	return 0;
}

static int attach_entry(struct attach_set *as, struct bpf_object *obj, struct dcc_runtime *rt,
			const struct dcc_meta_attach *a, uint32_t i, const char *progname)
{
	const char *pname = dcc_runtime__str(rt, a[i].prog);
	const char *target = dcc_runtime__str(rt, a[i].target);
	bool optional = a[i].flags & DCC_ATTACH_F_OPTIONAL;
	struct bpf_program *prog;
	int err;

	if (a[i].kind == DCC_ATTACH_BEGIN || a[i].kind == DCC_ATTACH_END)
		return 0;
	prog = bpf_object__find_program_by_name(obj, pname);
	if (!prog) {
		fprintf(dcc_runtime__err(rt), "%s: object has no program '%s' for %s %s\n", progname,
			pname, attach_kind_name(a[i].kind), target);
		return -ENOENT;
	}
	if (bpf_program__fd(prog) < 0)
		return 0; /* not loaded: only optional entries use it (loader.c) */
	if (a[i].kind == DCC_ATTACH_PID_ENTRY || a[i].kind == DCC_ATTACH_PID_RETURN ||
	    a[i].kind == DCC_ATTACH_PID_OFFSET) {
		err = pid_attach(as, prog, &a[i], target, progname);
		if (err)
			return err;
		as->nattached++;
		return 0;
	}
	if (a[i].kind == DCC_ATTACH_USDT) {
		err = usdt_attach(as, prog, &a[i], target, progname);
		if (err)
			return err;
		as->nattached++;
		return 0;
	}
	err = attach_one(as, prog, &a[i], target);
	if (!err) {
		as->nattached++;
	} else if (a[i].kind == DCC_ATTACH_CPC && abi_cpc_event(target) &&
		   abi_cpc_event(target)->hardware &&
		   (err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV)) {
		fprintf(dcc_runtime__err(rt), "%s: cpc event %s is counted by the CPU's "
			"performance monitoring unit (PMU), and this machine has none that "
			"the kernel can use\n", progname, target);
		return err;
	} else if (!optional) {
		char msg[128];

		libbpf_strerror(err, msg, sizeof(msg));
		fprintf(dcc_runtime__err(rt), "%s: failed to enable %s %s (program %s): %s\n", progname,
			attach_kind_name(a[i].kind), target, pname, msg);
		return err;
	}
	return 0;
}

/* Undo `n` things from a few threads at once: a tracepoint's perf event
 * close waits for an RCU grace period and the waits partly overlap. */
struct undo {
	void **items;
	int first, n, step;
	void (*fn)(void *item);
};

static void *undo_some(void *arg)
{
	struct undo *u = arg;

	for (int i = u->first; i < u->n; i += u->step)
		u->fn(u->items[i]);
	return NULL;
}

static void undo_parallel(void **items, int n, void (*fn)(void *item))
{
	enum { MAX_THREADS = 16 };
	struct undo u[MAX_THREADS];
	pthread_t tid[MAX_THREADS];
	bool started[MAX_THREADS] = { false };
	int nthreads = n < MAX_THREADS ? n : MAX_THREADS;

	for (int t = 1; t < nthreads; t++) {
		u[t] = (struct undo){ items, t, n, nthreads, fn };
		started[t] = !pthread_create(&tid[t], NULL, undo_some, &u[t]);
	}
	/* This thread takes slice 0 and any slice whose thread did not start. */
	for (int t = 0; t < nthreads; t++) {
		if (t && started[t])
			continue;
		u[t] = (struct undo){ items, t, n, nthreads, fn };
		undo_some(&u[t]);
	}
	for (int t = 1; t < nthreads; t++)
		if (started[t])
			pthread_join(tid[t], NULL);
}

static void destroy_link(void *link)
{
	bpf_link__destroy(link);
}

static void close_fd(void *fd)
{
	close((int)(intptr_t)fd);
}

void attach_detach_all(struct attach_set *as)
{
	for (int i = 0; i < as->nlinkfds; i++)
		close(as->link_fds[i]);
	free(as->link_fds);
	as->link_fds = NULL;
	as->nlinkfds = as->linkfdcap = 0;
	undo_parallel((void **)as->links, as->nlinks, destroy_link);
	free(as->links);
	as->links = NULL;
	as->nlinks = as->cap = 0;
}

void attach_release(struct attach_set *as)
{
	void **fds = calloc(as->nslow ? as->nslow : 1, sizeof(*fds));

	attach_detach_all(as);
	for (int i = 0; fds && i < as->nslow; i++)
		fds[i] = (void *)(intptr_t)as->slow_fds[i];
	if (fds)
		undo_parallel(fds, as->nslow, close_fd);
	else
		for (int i = 0; i < as->nslow; i++)
			close(as->slow_fds[i]);
	free(fds);
	free(as->slow_fds);
	as->slow_fds = NULL;
	as->nslow = as->slowcap = 0;
	for (int i = 0; i < as->nprobes; i++) {
		free((char *)as->probes[i].prov);
		free((char *)as->probes[i].mod);
		free((char *)as->probes[i].func);
		free((char *)as->probes[i].name);
	}
	free(as->probes);
	as->probes = NULL;
	as->nprobes = as->probecap = 0;
}

int attach_run_once(struct bpf_object *obj, struct dcc_runtime *rt, uint32_t kind,
		    const char *progname)
{
	const struct dcc_meta_attach *a;
	uint32_t n;

	a = attach_table(rt, &n);
	for (uint32_t i = 0; i < n; i++) {
		const char *pname = dcc_runtime__str(rt, a[i].prog);
		/* A raw_tp program run by hand reads its context as u64 args. */
		uint64_t ctx[1] = { 0 };
		LIBBPF_OPTS(bpf_test_run_opts, ro, .ctx_in = ctx, .ctx_size_in = sizeof(ctx));
		struct bpf_program *prog;
		int fd;

		if (a[i].kind != kind)
			continue;
		prog = bpf_object__find_program_by_name(obj, pname);
		fd = prog ? bpf_program__fd(prog) : -1;
		if (fd < 0) {
			fprintf(dcc_runtime__err(rt), "%s: object has no program '%s' for %s\n", progname, pname,
				attach_kind_name(kind));
			return -ENOENT;
		}
		if (bpf_prog_test_run_opts(fd, &ro)) {
			int err = errno;

			fprintf(dcc_runtime__err(rt), "%s: failed to run %s (program %s): %s\n", progname,
				attach_kind_name(kind), pname, strerror(err));
			return -err;
		}
	}
	return 0;
}
