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
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "dcc/runtime.h"

#define TRACEFS "/sys/kernel/tracing"

const char *attach_kind_name(uint32_t kind)
{
	switch (kind) {
	case DCC_ATTACH_BEGIN: return "BEGIN";
	case DCC_ATTACH_END: return "END";
	case DCC_ATTACH_TRACEPOINT: return "tracepoint";
	case DCC_ATTACH_RAW_TP: return "raw tracepoint";
	case DCC_ATTACH_TICK: return "tick";
	case DCC_ATTACH_PROFILE: return "profile";
	case DCC_ATTACH_TP_BTF: return "BTF tracepoint";
	case DCC_ATTACH_FENTRY: return "fentry";
	case DCC_ATTACH_FEXIT: return "fexit";
	case DCC_ATTACH_KPROBE: return "kprobe";
	case DCC_ATTACH_KRETPROBE: return "kretprobe";
	case DCC_ATTACH_UPROBE: return "uprobe";
	case DCC_ATTACH_URETPROBE: return "uretprobe";
	}
	return "unknown";
}

static const struct dcc_meta_attach *attach_table(struct dcc_runtime *rt, uint32_t *n)
{
	const struct dcc_meta_header *h = dcc_runtime__meta(rt);

	*n = h->nattach;
	return (const struct dcc_meta_attach *)((const char *)h + h->attach_off);
}

int attach_mount_tracefs(const char *progname)
{
	struct stat st;

	if (!stat(TRACEFS "/events", &st))
		return 0;
	if (mount("tracefs", TRACEFS, "tracefs", 0, NULL)) {
		int err = errno;

		fprintf(stderr, "%s: tracefs is not mounted and mounting it on %s failed: %s\n",
			progname, TRACEFS, strerror(err));
		return -err;
	}
	if (stat(TRACEFS "/events", &st)) {
		fprintf(stderr, "%s: mounted tracefs on %s but it has no events/ directory\n",
			progname, TRACEFS);
		return -ENOENT;
	}
	return 0;
}

static int add_link(struct attach_set *as, struct bpf_link *link)
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
	return add_link(as, link);
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
		link = bpf_program__attach_tracepoint(prog, buf, sep + 1);
		break;
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
	return add_link(as, link);
}

int attach_all(struct attach_set *as, struct bpf_object *obj, struct dcc_runtime *rt,
	       const char *progname)
{
	const struct dcc_meta_attach *a;
	uint32_t n;

	a = attach_table(rt, &n);
	for (uint32_t i = 0; i < n; i++) {
		const char *pname = dcc_runtime__str(rt, a[i].prog);
		const char *target = dcc_runtime__str(rt, a[i].target);
		bool optional = a[i].flags & DCC_ATTACH_F_OPTIONAL;
		struct bpf_program *prog;
		int err;

		if (a[i].kind == DCC_ATTACH_BEGIN || a[i].kind == DCC_ATTACH_END)
			continue;
		prog = bpf_object__find_program_by_name(obj, pname);
		if (!prog) {
			fprintf(stderr, "%s: object has no program '%s' for %s %s\n", progname,
				pname, attach_kind_name(a[i].kind), target);
			return -ENOENT;
		}
		if (bpf_program__fd(prog) < 0) {
			/* Not loaded: only optional entries use it (see loader.c). */
			continue;
		}
		err = attach_one(as, prog, &a[i], target);
		if (!err) {
			as->nattached++;
		} else if (!optional) {
			char msg[128];

			libbpf_strerror(err, msg, sizeof(msg));
			fprintf(stderr, "%s: failed to enable %s %s (program %s): %s\n", progname,
				attach_kind_name(a[i].kind), target, pname, msg);
			return err;
		}
	}
	return 0;
}

struct detacher {
	struct bpf_link **links;
	int first, n, step;
};

static void *detach_some(void *arg)
{
	struct detacher *d = arg;

	for (int i = d->first; i < d->n; i += d->step)
		bpf_link__destroy(d->links[i]);
	return NULL;
}

/*
 * Closing a tracepoint's perf event waits for an RCU grace period (~100 ms
 * here), one after the other when done in one thread. Detaching from several
 * threads lets the waits overlap: 6 tracepoints stop in ~0.1 s, not 0.5 s.
 */
void attach_detach_all(struct attach_set *as)
{
	enum { MAX_THREADS = 16 };
	struct detacher d[MAX_THREADS];
	pthread_t tid[MAX_THREADS];
	bool started[MAX_THREADS] = { false };
	int nthreads = as->nlinks < MAX_THREADS ? as->nlinks : MAX_THREADS;

	for (int t = 1; t < nthreads; t++) {
		d[t] = (struct detacher){ as->links, t, as->nlinks, nthreads };
		started[t] = !pthread_create(&tid[t], NULL, detach_some, &d[t]);
	}
	/* This thread takes slice 0 and any slice whose thread did not start. */
	for (int t = 0; t < nthreads; t++) {
		if (t && started[t])
			continue;
		d[t] = (struct detacher){ as->links, t, as->nlinks, nthreads };
		detach_some(&d[t]);
	}
	for (int t = 1; t < nthreads; t++)
		if (started[t])
			pthread_join(tid[t], NULL);
	free(as->links);
	as->links = NULL;
	as->nlinks = as->cap = 0;
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
			fprintf(stderr, "%s: object has no program '%s' for %s\n", progname, pname,
				attach_kind_name(kind));
			return -ENOENT;
		}
		if (bpf_prog_test_run_opts(fd, &ro)) {
			int err = errno;

			fprintf(stderr, "%s: failed to run %s (program %s): %s\n", progname,
				attach_kind_name(kind), pname, strerror(err));
			return -err;
		}
	}
	return 0;
}
