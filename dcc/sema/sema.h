/*
 * Semantic analysis: binds every probe description to concrete probes,
 * resolves identifiers to builtins, variables and aggregations, gives every
 * expression a type, and rejects what the code generator cannot compile.
 * Its product (struct sema) is all that codegen reads besides the tree.
 */
#ifndef DCC_SEMA_H
#define DCC_SEMA_H

#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include "ast.h"
#include "types.h"

struct arena;
struct diag;
struct proc_probe;

enum probe_kind {
	PK_BEGIN = 1, PK_END, PK_SYSCALL_ENTRY, PK_SYSCALL_RETURN, PK_TICK, PK_PROFILE,
	PK_SDT, PK_RAWTP, PK_FBT_ENTRY, PK_FBT_RETURN,
	PK_PROC, /* proc, sched (sema_proc.c, sema_sched.c): a kernel point, a filter, args */
	PK_PID_ENTRY, PK_PID_RETURN, /* sema_pid.c: a description the loader resolves */
	PK_USDT, /* sema_usdt.c: a description of notes the loader resolves */
	PK_ERROR, /* dtrace:::ERROR: no program of its own, a function every fault calls */
};

struct probe {
	uint32_t id;
	enum probe_kind kind;
	const char *prov, *mod, *func, *name;
	const char *event;  /* rawtp: the kernel event, when not the name (io) */
	int nr;             /* syscall number */
	uint64_t period_ns; /* tick/profile; cpc: the count between firings */
	const char *cpc_event; /* cpc (a PK_PROFILE): the perf event's name */
	uint32_t cpc_flags;    /* cpc: DCC_ATTACH_F_NOUSER, _NOKERNEL */
	/* sdt: the tracepoint's fields after the common ones, from tracefs */
	struct type **ftypes;
	unsigned *foffs;
	int nfields;
	int proc; /* PK_PROC: its index in proc_probe()'s rows */
	uint32_t pid; /* PK_PID_*, PK_USDT: the process, 0 for $target */
	bool pid_offset; /* PK_PID_ENTRY at an offset into the function (name: hex) */
};

/* The probes of one clause that one BPF program serves. */
struct pgroup {
	enum probe_kind kind;
	struct probe **probes;
	int nprobes;
	bool explicit_names; /* syscalls named without glob: missing ones are errors */
	const char *prog_name; /* "dcc_c3", "dcc_c3_1" */
	struct node *proc_pred; /* PK_PROC: the probe's own condition, or NULL */
	const struct proc_probe *proc; /* PK_PROC: its row of proc_prov.h's table */
	/* PK_PROC whose row has `cur`: what stands for curthread, pid/tid...
	 * (enum proc_cur), typed in the clause; NULL: the running task's */
	struct node *cur[5]; /* PC_N */
	uint32_t syscall_id0; /* syscall groups: syscall nr's probe id is this + 2 * nr */
	int repeat;            /* how many of the clause's descriptions match these
				* probes: DTrace runs the clause once for each */
};

/* node.ival of a bcopy() or copyinto() call whose byte count is not a
 * constant: codegen checks it against the destination at run time */
#define SUBR_SIZE_RUNTIME UINT64_MAX

enum var_kind { V_GLOBAL = 1, V_SELF, V_THIS };

struct var {
	enum var_kind kind;
	const char *name;
	struct type *type;
	int id;            /* index in its kind's table */
	int index;         /* index in sema's vars[] */
	struct type *keys[8]; /* associative arrays: the key tuple's types */
	int nkeys;
	struct loc loc;
	int scratch;       /* 0 no pointer yet, 1 alloca() memory, 2 other pointers */
};

enum builtin_var {
	B_PID = 1, B_PPID, B_TID, B_UID, B_GID, B_EXECNAME, B_TIMESTAMP, B_WALLTIMESTAMP, B_CPU,
	B_PROBEPROV, B_PROBEMOD, B_PROBEFUNC, B_PROBENAME, B_ARG0, B_ARG1, B_ARG2, B_ARG3,
	B_ARG4, B_ARG5, B_ARG6, B_ARG7, B_ARG8, B_ARG9, B_ERRNO, B_TARGET, B_EPID, B_ID, B_CURTHREAD,
	B_CURCPU, B_ARGS,
	B_STACKDEPTH, B_USTACKDEPTH, B_CALLER, B_UCALLER, B_VTIMESTAMP, B_UREGS,
};

/* Values of agg->func follow enum dcc_agg_func of abi.h. */
struct agg {
	const char *name;  /* "" for @ */
	int func;
	int id;
	struct type *keys[8];
	int nkeys;
	int64_t param[4];
	bool weighted;     /* a histogram given an increment somewhere: its
			    * buckets may all sum to zero and still be shown */
	struct loc loc;
};

struct clause_info {
	struct node *n;
	int index;            /* 1-based clause number in the source */
	struct pgroup *groups;
	int ngroups;
};

/* A member access: each step is (struct, member index), through anonymous
 * struct/union members to the named one. */
#define MEMBER_PATH_MAX 8
struct member_path {
	int n;
	struct type *outer[MEMBER_PATH_MAX];
	int index[MEMBER_PATH_MAX];
};

/* The kernel members d_path() reads (sema_path.c), in the call's sym: the
 * walk from a dentry up through its parents and mount points (cg_dpath.c). */
struct dpath_members {
	struct member_path path_dentry, path_mnt;      /* struct path */
	struct member_path d_parent, d_name, d_hash;   /* dentry: ->d_name.name, ->d_hash.pprev */
	struct member_path mnt_root;                   /* struct vfsmount */
	struct member_path mount_mnt, mnt_parent, mnt_mountpoint; /* struct mount */
};

struct sema_opts {
	unsigned strsize;           /* default 256 */
	const char *const *macro_argv; /* $0.. $N: argv[0] is the script name */
	int macro_argc;
	bool zdefs;                 /* -Z: descriptions matching nothing are allowed */
	bool defaultargs;           /* unset $N are 0 and $$N "" instead of errors */
	bool argref;                /* -x argref: an unreferenced last argument is no error */
	bool list_types;            /* dcc -lv: list each probe's argument types */
	const char *btf_path;       /* --btf FILE; NULL: the running kernel's */
	struct sema_btf *btf;       /* that BTF when already open (sema closes it) */
	const char *const *xopts;   /* -x settings, "name" or "name=value" */
	int nxopts;
	/* dcc -l with -p/-c: print the rows of a USDT description's notes in
	 * the process (pid 0: the one given), 0 or -1 after a message (the
	 * loader's: sema never reads a process); NULL: such descriptions are
	 * errors when listing */
	int (*list_usdt)(void *ctx, const char *desc, uint32_t pid, FILE *out);
	void *list_ctx;
	FILE *list_out;
};

struct sema {
	struct arena *ar;
	struct diag *dg;
	struct sema_opts opts;
	struct node *prog;

	struct probe **probes; /* every matched probe, unique ids, in first-use order */
	int nprobes, cap_probes;
	int nenablings;        /* a probe once per description of a clause that names it */
	struct clause_info *clauses;
	int nclauses;

	struct var **vars;     /* globals, self- and this- variables */
	int nvars, cap_vars;
	struct agg **aggs;
	int naggs, cap_aggs;

	/* "#pragma D option" settings, in order */
	const char **opt_names, **opt_values;
	int nopts, cap_opts;
	/* the settings codegen sizes its maps by, resolved (sema_option.c):
	 * bytes, and nspec a count */
	struct sema_sizes {
		uint64_t bufsize, dynvarsize, aggsize, specsize, nspec;
	} sizes;
	unsigned strsize;           /* the buffers' size: strmax and a NUL, rounded up to 8 */
	unsigned strmember;         /* a string member of a D struct: strmax rounded up to 8 */
	unsigned strmax;            /* the option's value: the characters a string keeps */
	bool uses_speculation;
	bool uses_pid;              /* pid or USDT probes: the object needs DCC_MAP_PIDNAMES */
	bool uses_usdt;             /* USDT probes: the object needs DCC_MAP_USDTSPECS */
	bool uses_curcpu;           /* the object needs DCC_MAP_CPUINFO */
	bool listing;               /* dcc -l: every match, no program limits */
	uint32_t next_dyn_id;       /* listing: the next sdt/rawtp/fbt probe id */
	bool destructive;           /* uses raise(), stop(), system()... */
	struct node *addr_of_elem;  /* the a[i] under a '&' being checked: i may be a's length */
	bool last_arg_ref;          /* the last macro argument is referenced ($N or $$N) */
	struct sema_btf *btf;           /* opened on first use of a kernel type */
	struct clause_info *cur_clause;
	/* sema_decl.c: the script's types, inlines, enumerators, translators */
	struct named *named;
	int nnamed, cap_named;
	int *named_index;       /* sema_decl.c's hash index of named[] */
	unsigned named_slots;   /* its size, a power of two */
	struct translator **trans;
	int ntrans, cap_trans;
	int inline_depth;
	const char *inline_names[17]; /* the inlines being expanded, outermost first */
	/* nodes copied by inline and translator expansions, bounded: inlines
	 * that each use the one before twice expand exponentially */
	long cloned;
	int expr_depth;      /* sema_expr's recursion, bounded the same way */
	bool limit_reported; /* sema_limit()'s message was printed */
	bool btf_failed;
};

int sema_check(struct sema *s, struct arena *ar, struct diag *dg, struct node *prog,
	       const struct sema_opts *opts);
/* Value of a pragma option, "" if set without value, NULL if not set. */
const char *sema_option(const struct sema *s, const char *name);

/* sema_option.c: -x settings (before the script's), then each pragma. */
int sema_cli_options(struct sema *s);
void sema_set_strsize(struct sema *s, unsigned strsize);
int sema_pragma_option(struct sema *s, struct node *o);

/* sema_probe.c */
int sema_probes(struct sema *s, struct clause_info *ci);
/* dcc -l: the probes each description of prog matches, as dtrace -l lists
 * them (ID PROVIDER MODULE FUNCTION NAME). 0, or -1 after reporting. */
int sema_list(struct sema *s, struct arena *ar, struct diag *dg, struct node *prog,
	      const struct sema_opts *opts, FILE *out);
/* tracefs format of an event: its fields after the common ones (offsets
 * in the record, D types); the count, or -1 when tracefs doesn't have it */
int sema_event_fields(struct sema *s, const char *group, const char *event, struct type **types,
		      unsigned *offs, int max, bool after_nr);

#endif
