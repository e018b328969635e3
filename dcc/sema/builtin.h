/*
 * The builtin registry: every builtin variable, subroutine, action and
 * aggregating function of D, one row each in builtins.def. Sema resolves a
 * name to its row once and keeps it in the node (node->bi); its checks and
 * codegen's hooks (dcc/cg/cg_builtin.c) go by the row from then on, never
 * by the name.
 */
#ifndef DCC_BUILTIN_H
#define DCC_BUILTIN_H

#include <stdint.h>

struct sema;
struct node;
struct type;

enum builtin_id {
	BI_NONE,
#define BUILTIN(id, ...) BI_##id,
#include "builtins.def"
#undef BUILTIN
	BI_NROWS
};

enum builtin_kind { BK_VAR = 1, BK_SUBR, BK_ACTION, BK_AGG };

enum builtin_flag {
	BF_LATER = 1,       /* D has it, dcc does not yet: refused by name */
	BF_NEVER = 2,       /* no safe BPF equivalent: refused for good */
	BF_DATA = 4,        /* records trace data: speculate() must come first */
	BF_NOSPEC = 8,      /* may not follow speculate() in a clause */
	BF_DESTRUCTIVE = 16, /* makes the program destructive (dtrun -w); no speculate() */
	BF_REWRITE = 32,    /* sema's check rewrites the call: codegen never sees it */
};

struct builtin {
	enum builtin_id id;
	const char *name;
	enum builtin_kind kind;
	int min_args, max_args; /* max -1: no maximum */
	const char *args;       /* 's' string, 'i' integer, one an argument; NULL: see check */
	struct type *type;      /* the value's type; NULL: the check computes it */
	unsigned flags;         /* enum builtin_flag */
	int var;                /* variables: enum builtin_var, kept in node->id */
	int agg;                /* aggregating functions: enum dcc_agg_func */
	uint32_t rec;           /* actions that record: enum dcc_act_kind; else 0 */
	/* sema's check of a call (curthread's of the variable): 0, or -1 after
	 * reporting; sets the node's type when the row has none */
	int (*check)(struct sema *s, struct node *n);
};

/* The row of name, or NULL. */
const struct builtin *builtin_find(const char *name);
/* The row of id (BI_NONE < id < BI_NROWS). */
const struct builtin *builtin_get(enum builtin_id id);
/* The aggregating function's row of an enum dcc_agg_func value, or NULL. */
const struct builtin *builtin_agg(int func);

#endif
