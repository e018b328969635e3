/*
 * Run a dcc object on the local kernel: open it with libbpf, set $target and
 * the wall clock offset, load, attach every probe, run BEGIN, drive the
 * runtime until exit()/^C/SIGTERM/the -c command's end, run END, print the
 * aggregations, detach. Used by dtrun and by `dcc run`.
 */
#ifndef DCC_LOADER_H
#define DCC_LOADER_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

struct loader_opts {
	const char *progname;   /* "dtrun" or "dcc" for messages */
	const char *obj_name;   /* for messages */
	bool quiet;             /* -q */
	const char *out_path;   /* -o FILE (appended, as dtrace does) or NULL */
	const char *cmd;        /* -c CMD or NULL */
	pid_t pid;              /* -p PID or 0 */
	const char *const *xopts; /* -x name[=value] */
	int nxopts;
	bool destructive;       /* -w */
	/* The object's own options may allow destructive actions: true for
	 * `dcc run`, which compiled the user's script itself; dtrun treats an
	 * object as data and wants -w (or -x destructive) from its user. */
	bool trust_object;
	bool allow_writable;    /* --allow-writable: dtrun's object check off */
	/* no trial open in a child: compiled by this process (dcc run), or
	 * set by loader_check_kernel when the object's checksum matches */
	bool own_object;
	pid_t open_child;       /* loader_check_kernel's trial open, still running, or 0 */
	bool verbose;           /* libbpf messages */
	const char *metrics;    /* --metrics [ADDR:]PORT or NULL */
	const char *usage;      /* usage text printed after a usage error; NULL: dtrun's */
};

/*
 * Returns the process exit status: exit()'s value, 0, or 1 on a fatal error
 * (already reported on stderr, one line). Notes for callers:
 * - -c CMD without shell metacharacters is split on blanks and exec'd
 *   directly (as dtrace does); otherwise it runs as /bin/sh -c "exec CMD".
 *   Either way the process is $target, started after BEGIN, killed if still
 *   running when the trace ends. Unless quiet, its end prints dtrace's
 *   notice ("dtrun: pid N has exited" / "exited with status S" /
 *   "terminated by SIGX").
 * - SIGINT, SIGTERM and SIGCHLD handlers are installed for the call and the
 *   previous ones restored before it returns; libbpf's print callback too.
 * - DCC_TIMING=1 in the environment (or -v) prints where the start-up time
 *   went ("...: timing: ... probes attached N ms after start").
 * - -w is passed to the runtime as the option "destructive".
 */
int loader_run(const void *obj, size_t size, const struct loader_opts *opts);

/* Before loader_run (loader/precheck.c): starts libbpf's trial open of obj
 * in a child unless its checksum matches (opts->open_child, which
 * loader_run waits for before its own open; opts->own_object when none is
 * needed). Whether the running kernel has every program type and helper
 * obj's programs use is asked here for an object dcc did not write as it
 * is (or under DCC_TEST_MISSING), else by loader_run when the load fails
 * (loader_explain_refusal). 1 after one
 * sentence on stderr naming what is missing, "PROGNAME: this kernel cannot
 * run OBJ_NAME: ..."; 0 otherwise, also when the object cannot be read
 * (then loader_run says why). -v or DCC_TIMING prints its time. */
int loader_check_kernel(const void *obj, size_t size, struct loader_opts *opts);
/* After a failed load: the same check, 1 after the sentence naming what this
 * kernel lacks, 0 when it lacks nothing the check knows of. */
int loader_explain_refusal(const void *obj, size_t size, const char *prog, const char *name);

/* Parse dtrace-like options shared by dtrun and `dcc run` (-q -o -c -p -x -w -v -h,
 * and --metrics [ADDR:]PORT).
 * Returns the index of the first non-option argument (GNU getopt: options may
 * follow operands, argv is permuted), -1 after printing a usage error on
 * stderr (exit 2), -2 after -h printed the usage on stdout (exit 0), or -3
 * after reporting a bad option value (exit 1, as dtrace: "failed to set -x ...").
 * -x names and values are checked against D's option list. The options
 * extra_optstring adds are passed to extra(), which returns 0 or prints its
 * own message and returns non-zero (1: a bad value, -3). opts->xopts is malloc'd and grown. */
int loader_parse_opts(int argc, char **argv, struct loader_opts *opts, const char *extra_optstring,
		      int (*extra)(int opt, const char *arg, void *ctx), void *ctx);

/* 0 when option name takes value (NULL: none given); else a negative errno
 * and *why, dtrace's reason ("Invalid option name", "Invalid value..."). */
int loader_opt_check(const char *name, const char *value, const char **why);

/* Print opts->usage, or dtrun's usage text. */
void loader_usage(FILE *f, const struct loader_opts *opts);

/* dcc -l with -p PID or -c CMD: the process whose USDT notes are listed
 * (CMD started and stopped at its entry point, killed on close); NULL
 * after a message. */
struct loader_lister;
struct loader_lister *loader_lister_open(pid_t pid, const char *cmd, const char *progname);
/* Print a row (dcc -l's columns) for each note the USDT description desc
 * matches in process pid (0: the lister's). 0, or -errno after a message. */
int loader_list_usdt(struct loader_lister *l, const char *desc, uint32_t pid, FILE *out);
void loader_lister_close(struct loader_lister *l);

/* hugeheap.c: blocks up to 32 MiB from a heap grown by bytes (at most
 * 120 MiB, virtual until touched) and advised for transparent huge pages,
 * for the kernel's BTF that libbpf reads and LLVM's many small blocks; for
 * the dcc and dtrun programs, never a library. Only the first call acts.
 * hugeheap_release() gives what is free back once the object is loaded. */
void hugeheap_reserve(size_t bytes);
void hugeheap_release(void);

#endif
