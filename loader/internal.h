/*
 * What the loader's files share: option value parsers, the attach step and
 * the traced process (-c/-p). Nothing here is used outside loader/.
 */
#ifndef DCC_LOADER_INTERNAL_H
#define DCC_LOADER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <dcc/abi_opt.h>

struct bpf_object;
struct bpf_link;
struct dcc_runtime;
struct dcc_meta_attach;
struct bpf_program;
struct dcc_probe_desc;

/* The largest ring buffer dcc makes: a bufsize above it is lowered to it
 * (bufresize=auto) or refused (bufresize=manual), loader/resize.c. */
#define LOADER_RINGBUF_MAX (1ULL << 31)
/* The ring buffer size for `bytes`: the power-of-2 multiple of the page
 * size at or above it (at most LOADER_RINGBUF_MAX). */
uint32_t loader_ringbuf_size(uint64_t bytes);
/* bufresize: says which of bufsize and aggsize dcc lowers to what it can
 * make; -ENOSPC after saying so when bufresize=manual forbids it, else 0. */
int loader_resize_check(struct dcc_runtime *rt, uint64_t bufsize, const char *progname);
/* Is `name` a known option, and does `value` suit it? 0 or -EINVAL with
 * *why set to a static message in DTrace's words. */
int loader_opt_check(const char *name, const char *value, const char **why);

/* The probes of one object once attached. */
struct attach_set {
	struct bpf_link **links;
	int nlinks, cap;
	int nattached; /* attach entries that took */
	int *slow_fds; /* tracepoint perf events, closed last (see attach.c) */
	int nslow, slowcap;
	pid_t target; /* $target, for pid probes; 0: none */
	int pidnames_fd; /* DCC_MAP_PIDNAMES, or -1 */
	int usdtspecs_fd; /* DCC_MAP_USDTSPECS, or -1 */
	int nspecs;       /* its entries in use */
	/* the pid provider's functions, each a probe of its own (pid.c) */
	struct dcc_probe_desc *probes;
	int nprobes, probecap;
	int pid_skipped; /* functions of a glob uprobes could not instrument */
	bool pid_multi;  /* multi-uprobe links (pid_multi.c) */
	int *link_fds;   /* links made without libbpf (multi-uprobe) */
	int nlinkfds, linkfdcap;
};

/* pid_multi.c: does the kernel make multi-uprobe links; load prog for
 * them; one link for n functions of path, cookies their probe ids: the
 * number attached, or -errno. With glob, functions the kernel refuses are
 * skipped (counted in pid_skipped), which may take a few links. */
bool pid_multi_supported(void);
void pid_multi_prepare(struct bpf_program *prog);
int pid_multi_attach(struct attach_set *as, const struct bpf_program *prog, const char *path,
		     const uint64_t *offs, const uint64_t *cookies, uint32_t n, bool ret,
		     pid_t pid, bool glob);
/* Did the kernel refuse a uprobe's instruction (-err from its attach)? */
bool pid_unprobeable(int err);
/* Keep a link in the set; 0 or -ENOMEM (the link destroyed). */
int attach_add_link(struct attach_set *as, struct bpf_link *link);
/* uproc.c: what the pid and USDT providers share. A function of an ELF
 * file, by its offset in the file. */
struct func {
	uint64_t off, size;
	char *name;
	int rank; /* among aliases, the lowest names the probe */
	bool matched; /* this name matched the description (an alias may name it) */
};
/* Does glob pat (empty: anything) match s? */
bool uproc_field_match(const char *pat, const char *s);
/* Does a description's OBJECT (a.out, a glob over the file's name, its
 * name without ".so...", or its path) match the mapped file path? */
bool uproc_object_match(const char *pat, const char *path, const char *exe);
/* The distinct files pid maps executable, its executable (also in exe,
 * PATH_MAX bytes) first: their count, or -errno. */
int uproc_mapped_files(pid_t pid, char *exe, char ***out);
/* The functions of ELF file path whose names match pat, by file offset,
 * one name an offset; their count (*out to free with their names). */
int uproc_elf_funcs(const char *path, const char *pat, struct func **out);
/* Would uprobes refuse the instruction at b (n bytes, n >= 1)? Only what
 * can be told without decoding it: see uproc.c. */
bool uproc_insn_refused(const uint8_t *b, size_t n);
/* Record a probe the loader made; *id its probe id. 0 or -ENOMEM. */
int uproc_add_probe(struct attach_set *as, const char *prov, const char *mod, const char *func,
		    const char *name, uint32_t *id);

/* pid.c: attach a pid entry/return description to each function it
 * matches in its process, recording their probes in as->probes. 0, or
 * -errno after a message naming the description. */
int pid_attach(struct attach_set *as, const struct bpf_program *prog,
	       const struct dcc_meta_attach *a, const char *target, const char *progname);
/* usdt.c: attach a USDT description to each .note.stapsdt note it matches
 * in its process, recording their probes and argument specifications. 0,
 * or -errno after a message naming the description. */
struct dcc_usdt_spec;
/* Where a note is, for its %rip-relative operands: its address in the
 * file (after prelink's move) and the address of a symbol of the same file
 * (0, or -1 when it has none of that name). */
struct usdt_loc {
	uint64_t pc;
	int (*sym_addr)(void *ctx, const char *name, uint64_t *addr);
	void *ctx;
};
/* usdt_args.c: a note's argument specifications ("-4@%edi 8@-16(%rbp)
 * 8@$5 -8@counter(%rip)") into *out, loc (NULL: none) resolving symbols;
 * their count, or -1 with *bad the index of the first one it cannot
 * decode. */
int usdt_parse_args(const char *spec, const struct usdt_loc *loc, struct dcc_usdt_spec *out,
		    int *bad);
int usdt_attach(struct attach_set *as, const struct bpf_program *prog,
		const struct dcc_meta_attach *a, const char *target, const char *progname);
/* dcc -l: print a row for each note the description desc matches in
 * process param (0: pid), ids from *next_id. 0 or -errno after a message. */
int usdt_list(const char *desc, pid_t pid, uint32_t param, FILE *out, uint32_t *next_id,
	      const char *progname);

/* "tracepoint", "fentry", "BEGIN"... for messages. */
const char *attach_kind_name(uint32_t kind);
/* Mount tracefs on /sys/kernel/tracing when it is missing. 0 or -errno,
 * after printing why. */
int attach_mount_tracefs(FILE *err, const char *progname);
/* Attach every non-BEGIN/END entry of the metadata. 0, or -errno after
 * printing a message naming the probe. */
int attach_all(struct attach_set *as, struct bpf_object *obj, struct dcc_runtime *rt,
	       const char *progname);
/* Take every program off its probe (fast). */
void attach_detach_all(struct attach_set *as);
/* Detach and close what is left: may take ~100 ms per tracepoint. */
void attach_release(struct attach_set *as);
/* Run the BEGIN or END program(s) once. 0 or -errno after a message. */
int attach_run_once(struct bpf_object *obj, struct dcc_runtime *rt, uint32_t kind,
		    const char *progname);

/* The offset of the `size`-byte variable `var` in the object's data section
 * `sec` (".rodata", ".bss"), or -1 (runtime/drops.c, shared). */
long rt_var_offset(struct bpf_object *obj, const char *sec, const char *var, size_t size);
/* Before load: hold every clause but BEGIN's until loader_phase_tracing()
 * (phase.c). 0 or a libbpf error. */
int loader_phase_loaded(struct bpf_object *obj);

/* cpuinfo.c: fill DCC_MAP_CPUINFO, when the object has it (after load) */
int loader_fill_cpuinfo(struct bpf_object *obj, FILE *err, const char *prog);
/* prep.c: before load, size the ring buffer for bufsize, write $target
 * (0: none), the wall clock offset and $pid... in .rodata, hold the clauses
 * (loader_phase_loaded) and give BTF-typed programs their target. 0 or
 * -errno after a message on the runtime's error stream. */
int loader_prepare(struct bpf_object *obj, struct dcc_runtime *rt, pid_t target,
		   uint64_t bufsize, const char *progname);
/* The target of program `prog` in the attach table (NULL: none), its kind,
 * whether only optional probes use it and how many entries do. */
const char *loader_attach_target(struct dcc_runtime *rt, const char *prog, uint32_t *kind,
				 bool *only_optional, int *count);
/* After BEGIN: let the probes' clauses run, unless BEGIN called exit(). */
void loader_phase_tracing(struct bpf_object *obj);

/* The traced process of -c or -p. */
struct target {
	pid_t pid;       /* 0: none */
	bool created;    /* -c: our child */
	bool gone;       /* it has exited (and was reaped if ours) */
	int status;      /* wait status when created */
	int go_fd;       /* -c: write end the child waits on */
	int err_fd;      /* -c: close-on-exec pipe carrying an exec failure */
	int pidfd;       /* -p: pidfd, or -1 to poll with kill(pid, 0) */
	bool trace_exec; /* -c: stop it after exec, at its entry (pid probes) */
	bool stopped;    /* it is, under ptrace */
	const char *cmd;
};

/* -c: fork a child that waits for target_start() then runs cmd. */
int target_create(struct target *t, const char *cmd, const char *progname);
/* -p: check that pid exists and watch it. */
int target_grab(struct target *t, pid_t pid, const char *progname);
/* -c with trace_exec: let it exec and stop it at its entry point, libraries
 * mapped. 0, or -errno after a message. */
int target_stop_at_entry(struct target *t, const char *progname);
/* -c: let the child exec (or run on from its entry point); 0, or -errno when
 * exec failed (message printed). */
int target_start(struct target *t, const char *progname);
/* Has the process ended? Reaps our child. */
bool target_exited(struct target *t);
/* The notice DTrace prints when the target ends ("pid 12 has exited"). */
void target_notice(struct target *t, FILE *err, const char *progname);
/* Kill a still running child of ours and release everything. */
void target_release(struct target *t);

/* Open obj with libbpf in a child first (open_probe.c): 0 when it opened,
 * failed cleanly or could not be tried; -1 when libbpf crashed or looped
 * on it, why saying so. */
int loader_open_in_child(const void *obj, size_t size, char *why, size_t whylen);
/* The same in two steps: start the child (its pid, 0 if it could not be
 * started), then wait for it (as above; pid 0: 0), or kill and reap it. */
pid_t loader_open_probe_start(const void *obj, size_t size);
int loader_open_probe_wait(pid_t pid, char *why, size_t whylen);
void loader_open_probe_cancel(pid_t pid);

#endif
