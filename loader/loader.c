/*
 * loader_run: a dcc object in memory to a finished trace. Checks the
 * metadata, opens the object with libbpf, sizes the ring buffer, sets $target
 * and the wall clock offset in .rodata, loads, attaches, runs BEGIN, drives
 * the runtime until exit()/^C/SIGTERM/the traced process ends, then detaches,
 * runs END, drains and prints the aggregations. Nothing stays in the kernel.
 */
#include "loader.h"
#include "internal.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dcc/runtime.h"
#include "metrics.h"

#define MAX_DISABLED 16

struct run {
	const struct loader_opts *opts;
	const char *prog;     /* progname for messages */
	const char *name;     /* object name for messages */
	const void *buf;
	size_t size;
	struct dcc_runtime *rt;
	struct bpf_object *obj;
	struct attach_set as;
	struct target tgt;
	FILE *out;
	bool quiet;
	bool destructive;        /* allowed: said after the probes matched, as dtrace */
	bool timing;
	bool out_failed;         /* said so once */
	uint64_t bufsize, switch_ns, status_ns;
	/* programs left unloaded because only optional probes use them and
	 * this kernel refused them */
	char *disabled[MAX_DISABLED];
	int ndisabled;
	const char **xopts; /* what the runtime was given: -x plus -w */
	struct metrics *metrics; /* --metrics: bound before load, served after bind */
	char **labels;           /* -x metrics_labels, until the server takes them */
	int nlabels;
	pid_t child;             /* the trial open still running (opts->open_child) */
};

/* libbpf's messages: shown with -v; the warnings of the last load are kept
 * to name the program the kernel refused. */
static bool log_verbose;
static char log_buf[8192];
static size_t log_len;

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	int n;

	if (log_verbose) {
		va_list copy;

		va_copy(copy, ap);
		vfprintf(stderr, fmt, copy);
		va_end(copy);
	}
	if (level != LIBBPF_WARN || log_len >= sizeof(log_buf) - 1)
		return 0;
	n = vsnprintf(log_buf + log_len, sizeof(log_buf) - log_len, fmt, ap);
	if (n > 0)
		log_len += (size_t)n < sizeof(log_buf) - log_len ? (size_t)n
								  : sizeof(log_buf) - 1 - log_len;
	return 0;
}

/* libbpf's own error codes (4000 + n) have texts strerror() lacks. */
static const char *bpf_strerror(int err)
{
	static char buf[128];

	libbpf_strerror(err, buf, sizeof(buf));
	return buf;
}

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted++;
}

/* SIGHUP with -o: reopen the file (log rotation moved it away). */
static volatile sig_atomic_t hangup;

static void on_hangup(int sig)
{
	(void)sig;
	hangup = 1;
}

static void on_child(int sig)
{
	/* Only there to make the ring buffer wait return -EINTR. */
	(void)sig;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Sizes, rates and flags from -x and the object's pragmas. */
static int read_options(struct run *r)
{
	static const struct {
		const char *name;
		size_t off;
	} opts[] = {
		{ "bufsize", offsetof(struct run, bufsize) },
		{ "switchrate", offsetof(struct run, switch_ns) },
		{ "statusrate", offsetof(struct run, status_ns) },
	};

	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		const struct abi_opt *o = abi_opt_find(opts[i].name);
		const char *v = dcc_runtime__option(r->rt, o->name);
		uint64_t *dst = (uint64_t *)((char *)r + opts[i].off);
		int err;

		if (!v)
			v = o->def;
		err = o->type == ABI_OPT_RATE ? abi_opt_parse_rate(v, dst)
					      : abi_opt_parse_size(v, dst);
		if (err) {
			fprintf(stderr, "%s: failed to set option %s to '%s': %s\n", r->prog,
				o->name, v, "Invalid value for specified option");
			return -EINVAL;
		}
	}
	const char *q = dcc_runtime__option(r->rt, "quiet");
	bool quiet = q != NULL;

	if (q)
		abi_opt_parse_bool(q, &quiet); /* quiet=off is not quiet */
	r->quiet = r->opts->quiet || quiet;
	return 0;
}

/* pid probes of -c's command are found once it has exec'd (target.c) */
static bool has_pid_probes(struct dcc_runtime *rt)
{
	const struct dcc_meta_header *h = dcc_runtime__meta(rt);
	const struct dcc_meta_attach *a = (const void *)((const char *)h + h->attach_off);

	for (uint32_t i = 0; i < h->nattach; i++)
		if (a[i].kind == DCC_ATTACH_PID_ENTRY || a[i].kind == DCC_ATTACH_PID_RETURN ||
		    a[i].kind == DCC_ATTACH_PID_OFFSET || a[i].kind == DCC_ATTACH_USDT)
			return true;
	return false;
}

/* A description the loader resolves (pid, USDT) is not a probe: the
 * functions or notes it matched are. USDT providers end in $target, a pid
 * or a glob, which the compiler's own providers never do. */
static bool resolved_at_load(const char *prov)
{
	size_t n = strlen(prov);

	return !strncmp(prov, "pid", 3) || (n && (prov[n - 1] == '*' || prov[n - 1] == '?' ||
		(prov[n - 1] >= '0' && prov[n - 1] <= '9') || strchr(prov, '$')));
}

/* The object opened in a child first (open_probe.c): the one
 * loader_check_kernel started, or one now, unless it needs none; 1 if
 * refused, said why. */
static int probe_open(struct run *r)
{
	char why[128];
	pid_t child = r->child;

	r->child = 0;
	if (child ? !loader_open_probe_wait(child, why, sizeof(why))
		  : r->opts->own_object || !loader_open_in_child(r->buf, r->size, why,
								  sizeof(why)))
		return 0;
	fprintf(stderr, "%s: %s: %s\n", r->prog, r->name, why);
	return 1;
}

/*
 * The kernel allocates a map's memory when it creates it, in a loop that
 * ignores signals: a corrupted max_entries (one flipped bit in .maps) can
 * tie dtrun up for minutes and take gigabytes. Refuse maps beyond 2 GiB
 * (the ring buffer is sized from bufsize, not from the object).
 */
static int check_map_sizes(struct run *r)
{
	const uint64_t limit = 2ULL << 30;
	int ncpu = libbpf_num_possible_cpus();
	struct bpf_map *map;

	if (ncpu < 1)
		ncpu = 1;
	bpf_object__for_each_map(map, r->obj) {
		uint64_t n = bpf_map__max_entries(map), key = bpf_map__key_size(map);
		uint64_t val = bpf_map__value_size(map), per, bytes;

		switch (bpf_map__type(map)) {
		case BPF_MAP_TYPE_RINGBUF:
		case BPF_MAP_TYPE_USER_RINGBUF:
		case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
			continue;
		case BPF_MAP_TYPE_PERCPU_ARRAY:
			per = val * ncpu + 8;
			break;
		case BPF_MAP_TYPE_PERCPU_HASH:
		case BPF_MAP_TYPE_LRU_PERCPU_HASH:
			per = val * ncpu + key + 64;
			break;
		case BPF_MAP_TYPE_ARRAY:
			per = val;
			break;
		default:
			per = key + val + 64;
			break;
		}
		bytes = n && per > UINT64_MAX / n ? UINT64_MAX : n * per;
		if (bytes > limit) {
			fprintf(stderr, "%s: %s: map %s would take %.1f GiB (%llu entries of %llu "
				"bytes): corrupted or oversized object\n", r->prog, r->name,
				bpf_map__name(map), bytes / (double)(1ULL << 30),
				(unsigned long long)n, (unsigned long long)val);
			return -E2BIG;
		}
	}
	return 0;
}

/* Open the object and set everything that must be set before load. */
static int open_object(struct run *r)
{
	char objname[64];
	const char *base = strrchr(r->name, '/');
	struct bpf_program *prog;
	size_t len;

	base = base ? base + 1 : r->name;
	len = strcspn(base, ".");
	if (len >= sizeof(objname))
		len = sizeof(objname) - 1;
	/* libbpf prefixes internal map names with it: keep it a C name. */
	for (size_t i = 0; i < len; i++)
		objname[i] = isalnum((unsigned char)base[i]) ? base[i] : '_';
	objname[len] = 0;
	LIBBPF_OPTS(bpf_object_open_opts, oo, .object_name = len ? objname : "dcc");

	r->obj = bpf_object__open_mem(r->buf, r->size, &oo);
	if (!r->obj) {
		int err = errno;

		fprintf(stderr, "%s: %s: libbpf cannot open the object: %s\n", r->prog, r->name,
			bpf_strerror(err));
		return -err;
	}
	bpf_object__for_each_program(prog, r->obj)
		for (int i = 0; i < r->ndisabled; i++)
			if (!strcmp(r->disabled[i], bpf_program__name(prog)))
				bpf_program__set_autoload(prog, false);
	return loader_prepare(r->obj, r->rt, r->tgt.pid, r->bufsize, r->prog);
}

/* The program named in libbpf's warnings about the failed load: the first
 * "prog 'X': BPF program load failed" or "prog 'X': failed to ...". */
static bool failed_program(char *name, size_t size)
{
	const char *first = NULL, *p = log_buf, *q;

	while ((p = strstr(p, "prog '"))) {
		p += 6;
		q = strchr(p, '\'');
		if (!q)
			break;
		if (!first)
			first = p;
		if (!strncmp(q, "': BPF program load failed", 26) ||
		    !strncmp(q, "': failed to", 12)) {
			first = p;
			break;
		}
		p = q;
	}
	if (!first || !(q = strchr(first, '\'')) || (size_t)(q - first) >= size)
		return false;
	memcpy(name, first, q - first);
	name[q - first] = 0;
	return true;
}

/* The kernel symbol libbpf found no address for (its warning names the
 * extern): false if there is none. */
static bool unresolved_ksym(char *name, size_t size)
{
	const char *p = strstr(log_buf, "extern '"), *q;
	if (!p || !(q = strstr(p + 8, "' (strong): not resolved")) || q == p + 8)
		return false;
	snprintf(name, size, "%.*s", (int)(q - (p + 8)), p + 8);
	return true;
}

/* Whether the kernel's own BTF can be read (libbpf looks there first);
 * if not, why says so. */
static bool kernel_btf_readable(char *why, size_t len)
{
	struct btf *b = btf__load_vmlinux_btf();
	int err = libbpf_get_error(b);

	if (!err) {
		btf__free(b);
		return true;
	}
	snprintf(why, len, "this kernel's BTF (/sys/kernel/btf/vmlinux) is missing or "
		 "unreadable; the object's CO-RE relocations need it (a kernel built with "
		 "CONFIG_DEBUG_INFO_BTF)");
	return false;
}

static int load_object(struct run *r)
{
	for (;;) {
		char pname[128], why[256];
		const char *target = NULL;
		bool only_optional = false;
		uint32_t kind = 0;
		int err, count = 0;

		err = open_object(r);
		if (!err)
			err = check_map_sizes(r);
		if (err)
			return err;
		log_len = 0;
		log_buf[0] = 0;
		if (!bpf_object__load(r->obj)) {
			hugeheap_release(); /* libbpf's copies of the kernel's BTF are freed */
			return loader_fill_cpuinfo(r->obj, stderr, r->prog);
		}
		err = errno ? -errno : -EINVAL;
		if (failed_program(pname, sizeof(pname)))
			target = loader_attach_target(r->rt, pname, &kind, &only_optional, &count);
		if (target && only_optional && r->ndisabled < MAX_DISABLED) {
			/* A probe that may be missing on this kernel: load without it. */
			r->disabled[r->ndisabled++] = strdup(pname);
			bpf_object__close(r->obj);
			r->obj = NULL;
			continue;
		}
		/* a program type or helper this kernel lacks, named in one sentence */
		if (loader_explain_refusal(r->buf, r->size, r->prog, r->name))
			return err;
		if (target)
			fprintf(stderr, "%s: failed to load program %s for %s%s%s%s: %s%s\n",
				r->prog, pname, attach_kind_name(kind), *target ? " " : "", target,
				count > 1 ? " and others" : "", bpf_strerror(-err),
				log_verbose ? "" : " (-v shows the verifier log)");
		else if (err == -ESRCH && unresolved_ksym(pname, sizeof(pname)))
			/* a backquoted variable: its address comes from kallsyms */
			fprintf(stderr, "%s: %s: kernel symbol `%s has no address in /proc/kallsyms "
				"(a kernel built without CONFIG_KALLSYMS_ALL lists no variables "
				"there)\n", r->prog, r->name, pname);
		else if (!kernel_btf_readable(why, sizeof(why)))
			/* libbpf's CO-RE relocation needs the running kernel's types */
			fprintf(stderr, "%s: %s: failed to load the object: %s\n", r->prog, r->name,
				why);
		else if (err == -EPERM && geteuid())
			fprintf(stderr, "%s: %s: failed to load the object: %s (tracing needs "
				"root, or CAP_BPF and CAP_PERFMON)\n", r->prog, r->name,
				bpf_strerror(-err));
		else
			fprintf(stderr, "%s: %s: failed to load the object: %s%s\n", r->prog,
				r->name, bpf_strerror(-err), log_verbose ? "" : " (-v shows why)");
		if (strstr(log_buf, "total number of maps per program"))
			fprintf(stderr, "%s: a BPF program may use at most 64 maps, and each "
				"aggregation is one: a clause updating that many is beyond dcc\n",
				r->prog);
		if (strstr(log_buf, "cannot use helper bpf_probe_write_user"))
			fprintf(stderr, "%s: copyout() and copyoutstr() need bpf_probe_write_user(), "
				"which this kernel refuses (lockdown)\n", r->prog);
		return err;
	}
}

static bool needs_tracefs(struct dcc_runtime *rt)
{
	const struct dcc_meta_header *h = dcc_runtime__meta(rt);
	const struct dcc_meta_attach *a = (const void *)((const char *)h + h->attach_off);

	for (uint32_t i = 0; i < h->nattach; i++)
		switch (a[i].kind) {
		case DCC_ATTACH_TRACEPOINT:
		case DCC_ATTACH_KPROBE:
		case DCC_ATTACH_KRETPROBE:
		case DCC_ATTACH_UPROBE:
		case DCC_ATTACH_URETPROBE:
			return true;
		}
	return false;
}

/*
 * As in DTrace, bufsize must hold the largest record the program can write:
 * a clause's record or a fault report, each behind the ring buffer's 8-byte
 * record header. The ring buffer itself is rounded up to pages, but a
 * bufsize below one record is refused rather than silently enlarged.
 */
static bool bufsize_too_small(struct run *r)
{
	const struct dcc_meta_header *h = dcc_runtime__meta(r->rt);
	const struct dcc_meta_clause *c = (const void *)((const char *)h + h->clause_off);
	uint64_t largest = sizeof(struct dcc_rec_hdr) + sizeof(struct dcc_rec_fault);
	const char *policy = dcc_runtime__option(r->rt, "bufpolicy");

	/* a ring keeps the latest records that fit: one that never fits is
	 * never kept (runtime/bufpolicy.c) */
	if (policy && !strcmp(policy, "ring"))
		return false;
	for (uint32_t i = 0; i < h->nclauses; i++)
		if (c[i].size > largest)
			largest = c[i].size;
	largest = (largest + 7) / 8 * 8 + 8;
	if (r->bufsize >= largest)
		return false;
	fprintf(stderr, "%s: could not enable tracing: Enabling exceeds size of buffer "
		"(bufsize %llu, a record takes up to %llu bytes)\n", r->prog,
		(unsigned long long)r->bufsize, (unsigned long long)largest);
	return true;
}

static void matched_message(struct run *r)
{
	const struct dcc_meta_header *h = dcc_runtime__meta(r->rt);
	const struct dcc_meta_probe *p = (const void *)((const char *)h + h->probe_off);
	/* enablings as DTrace counts them; a pid description is not a probe,
	 * the functions it matched at run time (less those skipped) are */
	int64_t n = (int64_t)h->nenablings - r->as.pid_skipped;

	for (uint32_t i = 0; i < h->nprobes; i++) {
		if (p[i].id >= DCC_PID_ID_BASE)
			n++;
		else if (resolved_at_load(dcc_runtime__str(r->rt, p[i].prov)))
			n--;
	}
	if (n < 0)
		n = 0;
	fprintf(stderr, "%s: %s '%s' matched %u probe%s\n", r->prog,
		h->flags & DCC_META_F_DESCRIPTION ? "description" : "script",
		dcc_runtime__str(r->rt, h->script), (unsigned)n, n == 1 ? "" : "s");
}

/* Whether -x NAME or -x NAME=... was given on the command line. */
static bool xopt_given(const struct loader_opts *o, const char *name)
{
	size_t len = strlen(name);

	for (int i = 0; i < o->nxopts; i++)
		if (!strncmp(o->xopts[i], name, len) &&
		    (!o->xopts[i][len] || o->xopts[i][len] == '='))
			return true;
	return false;
}

/* Whether writing the trace output failed (its stdio error flag); says so
 * once, with err (an errno) when known. */
static bool output_failed(struct run *r, int err)
{
	FILE *out = r->out ? r->out : stdout;

	if (!ferror(out))
		return false;
	if (!r->out_failed)
		fprintf(stderr, "%s: failed to write the trace output%s%s: %s\n", r->prog,
			r->opts->out_path ? " to " : "",
			r->opts->out_path ? r->opts->out_path : "", strerror(err ? err : EIO));
	r->out_failed = true;
	return true;
}

/*
 * -o FILE after SIGHUP: what follows goes to a file opened anew at the
 * path, the old one (renamed by logrotate, say) keeping what came before.
 * The new file takes the old stream's descriptor, so the FILE the runtime
 * writes to stays the same; if the path cannot be opened, the old file
 * goes on.
 */
static void reopen_output(struct run *r)
{
	FILE *f;

	hangup = 0;
	f = fopen(r->opts->out_path, "ae");
	if (!f) {
		fprintf(stderr, "%s: failed to reopen output file '%s': %s (still writing to "
			"the old file)\n", r->prog, r->opts->out_path, strerror(errno));
		return;
	}
	fflush(r->out);
	if (dup3(fileno(f), fileno(r->out), O_CLOEXEC) < 0)
		fprintf(stderr, "%s: failed to reopen output file '%s': %s (still writing to "
			"the old file)\n", r->prog, r->opts->out_path, strerror(errno));
	else
		dcc_runtime__output_reopened(r->rt);
	fclose(f);
}

/* Consume until exit(), a signal or the traced process's end. Returns the
 * exit() status, 0, or 1 when reading failed. */
static int trace_loop(struct run *r)
{
	uint64_t switch_ms = r->switch_ns / 1000000, now;
	uint64_t next_status = clock_ns(CLOCK_MONOTONIC) + r->status_ns;
	bool status_set = dcc_runtime__option(r->rt, "statusrate") != NULL;
	int status = 0, timeout;

	/* Drain at switchrate but wake at least every 100 ms so -p and a
	 * signal racing with the wait end the trace promptly. */
	timeout = switch_ms > 100 ? 100 : switch_ms < 1 ? 1 : (int)switch_ms;
	for (;;) {
		int n;

		/* Checked right before the wait: a SIGCHLD that came earlier
		 * would not interrupt it. */
		if (r->tgt.pid && target_exited(&r->tgt)) {
			/* Records the command caused may still be unread. */
			dcc_runtime__poll(r->rt, 0);
			if (dcc_runtime__exited(r->rt, &status))
				return status;
			if (!r->quiet)
				target_notice(&r->tgt, stderr, r->prog);
			return 0;
		}
		if (hangup && r->out) {
			dcc_runtime__poll(r->rt, 0); /* what came before, to the old file */
			reopen_output(r);
		}
		if (interrupted) {
			/* what came before the signal, then dtrace's newline */
			dcc_runtime__poll(r->rt, 0);
			dcc_runtime__interrupted(r->rt);
			return 0;
		}
		n = dcc_runtime__poll(r->rt, timeout);
		if (n < 0 && n != -EINTR) {
			if (output_failed(r, -n))
				return 1;
			fprintf(stderr, "%s: failed to consume the trace: %s\n", r->prog,
				strerror(-n));
			return 1;
		}
		now = clock_ns(CLOCK_MONOTONIC);
		/* exit() stops the probes at once (the program's phase), but
		 * with a statusrate set the trace ends at the next status
		 * check, as DTrace's consumer sees exit() only there; without
		 * one dcc ends it as soon as the record arrives */
		if (dcc_runtime__exited(r->rt, &status) && (!status_set || now >= next_status))
			return status;
		if (r->status_ns && now >= next_status) {
			dcc_runtime__report_drops(r->rt);
			next_status = now + r->status_ns;
		}
	}
}

/* failed: BEGIN or the command's start failed, and the status is 1 whatever
 * exit() said. */
static int end_trace(struct run *r, int status, bool failed)
{
	int st, n;
	double t0 = now_ms();
	int nlinks = r->as.nlinks + r->as.nlinkfds;

	attach_detach_all(&r->as);
	/* -v only: DCC_TIMING's readers stop reading once probes are attached */
	if (r->opts->verbose)
		fprintf(stderr, "%s: timing: detach %.2f ms (%d links)\n", r->prog, now_ms() - t0,
			nlinks);
	/* What a -c command keeps doing is no longer traced. */
	target_release(&r->tgt);
	bool end_failed = attach_run_once(r->obj, r->rt, DCC_ATTACH_END, r->prog);

	while ((n = dcc_runtime__poll(r->rt, 0)) > 0 || n == -EINTR)
		;
	dcc_runtime__flush_ring(r->rt);
	/* the runtime keeps the first exit()'s status unless END called exit() */
	if (dcc_runtime__exited(r->rt, &st))
		status = st;
	if (end_failed || failed)
		status = 1;
	dcc_runtime__report_drops(r->rt);
	/* A second ^C abandons the aggregations. */
	if (interrupted < 2)
		dcc_runtime__print_aggs(r->rt);
	return status;
}

/* -w (or -x destructive) allows destructive actions; the object's own
 * option only where it is trusted (dcc run). 1 if refused, said so. */
static int check_destructive(struct run *r)
{
	bool asked = dcc_runtime__option(r->rt, "destructive") != NULL;
	bool destructive = r->opts->destructive || xopt_given(r->opts, "destructive") ||
			   (r->opts->trust_object && asked);
	r->destructive = destructive;
	/* checked before anything is loaded, as DTrace refuses the enabling
	 * (after saying what matched, as it compiled the script first) */
	if (!destructive && (dcc_runtime__meta(r->rt)->flags & DCC_META_F_DESTRUCTIVE)) {
		if (!r->quiet)
			matched_message(r);
		fprintf(stderr, "%s: could not enable tracing: Destructive actions not allowed\n",
			r->prog);
		if (asked)
			fprintf(stderr, "%s: the object's own destructive option does not count: "
				"allow them with -w\n", r->prog);
		return 1;
	}
	return 0;
}

/* --metrics: the port is bound before anything is loaded, so that one in
 * use is refused at once; the labels option is checked then too. */
static int open_metrics(struct run *r)
{
	const char *spec = dcc_runtime__option(r->rt, "metrics_labels"), *why = NULL;
	int err = metrics_parse_labels(spec, &r->labels, &r->nlabels, &why);

	if (err) {
		fprintf(stderr, "%s: failed to set option metrics_labels to '%s': %s\n", r->prog,
			spec, err == -EINVAL ? why : strerror(-err));
		return err;
	}
	r->metrics = metrics_open(r->opts->metrics, r->prog);
	return r->metrics ? 0 : -1;
}

/* -o FILE, appended as dtrace does. */
static int open_output(struct run *r)
{
	r->out = fopen(r->opts->out_path, "ae");
	if (r->out)
		return 0;
	fprintf(stderr, "%s: failed to open output file '%s': %s\n", r->prog, r->opts->out_path,
		strerror(errno));
	return -1;
}

/* The loaded maps to the runtime (it names what it could not find), then
 * to the metrics server, which starts answering scrapes. */
static int bind_maps(struct run *r)
{
	if (dcc_runtime__bind(r->rt, r->obj))
		return -1;
	if (!r->metrics)
		return 0;
	if (metrics_serve(r->metrics, r->rt, r->labels, r->nlabels))
		return -1;
	r->labels = NULL; /* the server's now */
	r->nlabels = 0;
	return 0;
}

static int run(struct run *r)
{
	const void *meta;
	size_t meta_size;
	char why[256] = "";
	double t0 = now_ms(), t_open, t_probe, t_load, t_attach;
	int err, status;

	err = dcc_meta_from_elf(r->buf, r->size, &meta, &meta_size, why, sizeof(why));
	if (!err)
		err = dcc_meta_check(meta, meta_size, why, sizeof(why));
	if (err) {
		fprintf(stderr, "%s: %s: %s\n", r->prog, r->name,
			*why ? why : strerror(-err));
		return 1;
	}
	if (r->opts->out_path && open_output(r))
		return 1;
	/* -w reaches the runtime as the destructive option. */
	int nx = r->opts->nxopts;
	const char **xopts = calloc(nx + 1, sizeof(*xopts));

	if (!xopts) {
		fprintf(stderr, "%s: out of memory\n", r->prog);
		return 1;
	}
	for (int i = 0; i < nx; i++)
		xopts[i] = r->opts->xopts[i];
	if (r->opts->destructive)
		xopts[nx++] = "destructive";
	struct dcc_runtime_opts ro = {
		.sz = sizeof(ro),
		.out = r->out,
		.err = stderr,
		.progname = r->prog,
		.xopts = xopts,
		.nxopts = nx,
		.quiet = r->opts->quiet,
	};
	r->rt = dcc_runtime__new(meta, meta_size, &ro);
	r->xopts = xopts;
	if (!r->rt)
		return 1; /* the runtime said why */
	if (read_options(r))
		return 1;
	if (check_destructive(r))
		return 1;
	if (bufsize_too_small(r) || (r->opts->metrics && open_metrics(r)))
		return 1;

	/* The -c child exists before load: its pid is $target. */
	r->tgt.trace_exec = has_pid_probes(r->rt);
	if (r->opts->cmd && target_create(&r->tgt, r->opts->cmd, r->prog))
		return 1;
	if (r->opts->pid && target_grab(&r->tgt, r->opts->pid, r->prog))
		return 1;
	/* %A of a bare address resolves in the target's address space */
	if (r->tgt.pid)
		dcc_runtime__set_target(r->rt, (int)r->tgt.pid);

	t_open = now_ms();
	if (probe_open(r))
		return 1;
	t_probe = now_ms();
	if (load_object(r))
		return 1;
	t_load = now_ms();
	if (bind_maps(r))
		return 1;
	if (needs_tracefs(r->rt) && attach_mount_tracefs(stderr, r->prog))
		return 1;
	r->as.target = r->tgt.pid;
	r->as.pidnames_fd = bpf_object__find_map_fd_by_name(r->obj, DCC_MAP_PIDNAMES);
	r->as.usdtspecs_fd = bpf_object__find_map_fd_by_name(r->obj, DCC_MAP_USDTSPECS);
	if (target_stop_at_entry(&r->tgt, r->prog))
		return 1;
	if (attach_all(&r->as, r->obj, r->rt, r->prog))
		return 1;
	if (r->timing && r->as.nprobes)
		fprintf(stderr, "%s: timing: %d pid probes (%s: %d), %d functions skipped "
			"(uprobes cannot instrument them)\n", r->prog,
			r->as.nprobes - r->as.pid_skipped,
			r->as.pid_multi ? "multi-uprobe links" : "one uprobe each",
			r->as.pid_multi ? r->as.nlinkfds : r->as.nlinks, r->as.pid_skipped);
	if (dcc_runtime__add_probes(r->rt, r->as.probes, (size_t)r->as.nprobes)) {
		fprintf(stderr, "%s: out of memory\n", r->prog);
		return 1;
	}
	t_attach = now_ms();
	if (r->timing)
		fprintf(stderr, "%s: timing: metadata %.2f ms, open+load %.2f ms (a trial open "
			"in a child %.2f ms), attach %.2f ms, probes attached %.2f ms after "
			"start\n", r->prog, t_open - t0, t_load - t_open, t_probe - t_open,
			t_attach - t_load, t_attach - t0);
	if (!r->quiet)
		matched_message(r);
	if (r->destructive && !r->quiet)
		fprintf(stderr, "%s: allowing destructive actions\n", r->prog);

	if (attach_run_once(r->obj, r->rt, DCC_ATTACH_BEGIN, r->prog))
		return end_trace(r, 1, true);
	loader_phase_tracing(r->obj);
	/* ^C while loading: the command never runs. */
	if (!interrupted && target_start(&r->tgt, r->prog))
		return end_trace(r, 1, true);
	status = trace_loop(r);
	return end_trace(r, status, false);
}

int loader_run(const void *obj, size_t size, const struct loader_opts *opts)
{
	struct run r = {
		.opts = opts,
		.prog = opts->progname ? opts->progname : "dtrun",
		.name = opts->obj_name ? opts->obj_name : "object",
		.buf = obj,
		.size = size,
		.tgt = { .pidfd = -1, .go_fd = -1, .err_fd = -1 },
		.child = opts->open_child,
	};
	struct sigaction sa = { .sa_handler = on_signal }, sc = { .sa_handler = on_child };
	struct sigaction sh = { .sa_handler = on_hangup };
	struct sigaction old_int, old_term, old_chld, old_hup;
	libbpf_print_fn_t old_print;
	const char *timing = getenv("DCC_TIMING");
	int status;

	r.timing = opts->verbose || (timing && *timing && strcmp(timing, "0"));
	log_verbose = opts->verbose;
	old_print = libbpf_set_print(libbpf_print);
	/* No SA_RESTART: the ring buffer wait must return -EINTR. */
	interrupted = 0;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&sc.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGCHLD, &sc, &old_chld);
	/* without -o, SIGHUP keeps its default: a hangup ends dtrun */
	hangup = 0;
	sigemptyset(&sh.sa_mask);
	if (opts->out_path)
		sigaction(SIGHUP, &sh, &old_hup);

	status = run(&r);
	loader_open_probe_cancel(r.child); /* run() ended before it waited */

	/* no scrape may read the maps or the runtime once they go */
	metrics_close(r.metrics);
	metrics_free_labels(r.labels, r.nlabels);
	attach_detach_all(&r.as);
	target_release(&r.tgt);
	/* END's output and the aggregations may have met the full disk */
	errno = 0;
	if (r.out)
		fflush(r.out);
	fflush(stdout);
	if (output_failed(&r, errno))
		status = 1;
	double t_rel = now_ms();
	int nslow = r.as.nslow;
	attach_release(&r.as);
	if (opts->verbose && nslow)
		fprintf(stderr, "%s: timing: closing %d tracepoint perf events %.2f ms\n", r.prog,
			nslow, now_ms() - t_rel);
	if (r.rt)
		dcc_runtime__free(r.rt);
	bpf_object__close(r.obj);
	if (r.out && fclose(r.out) && !r.out_failed) {
		fprintf(stderr, "%s: failed to write the trace output to %s: %s\n", r.prog,
			opts->out_path, strerror(errno));
		status = 1;
	}
	for (int i = 0; i < r.ndisabled; i++)
		free(r.disabled[i]);
	free(r.xopts);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGCHLD, &old_chld, NULL);
	if (opts->out_path)
		sigaction(SIGHUP, &old_hup, NULL);
	libbpf_set_print(old_print);
	return status;
}
