/*
 * Registry rows (dcc/sema/builtins.def) -> the codegen of each: a hook for
 * every subroutine and for every action that does more than record its
 * arguments, indexed by the row's id. The actions that record are laid out
 * by cg_action.c from the row's record kind, aggregating functions by
 * cg_agg.c from its enum dcc_agg_func, variables by cg_expr.c from their
 * enum builtin_var; cg_builtin_missing() checks that every row sema accepts
 * has one of these (tests/unit/test_builtin.c).
 */
#include "cg.h"

static struct cval speculation(struct cg *cg, struct node *n)
{
	return (struct cval){ .v = cg_speculation(cg), .t = n->type };
}

static struct cval speculate(struct cg *cg, struct node *st)
{
	cg_speculate(cg, st->list);
	return (struct cval){ 0 };
}

static const cg_builtin_fn hooks[BI_NROWS] = {
	[BI_STRLEN] = cg_string, [BI_STRJOIN] = cg_string, [BI_SUBSTR] = cg_string,
	[BI_INDEX] = cg_string, [BI_RINDEX] = cg_string, [BI_STRSTR] = cg_string,
	[BI_STRCHR] = cg_string, [BI_STRRCHR] = cg_string, [BI_BASENAME] = cg_string,
	[BI_DIRNAME] = cg_string, [BI_LLTOSTR] = cg_string, [BI_STRTOLL] = cg_string,
	[BI_TOUPPER] = cg_string, [BI_TOLOWER] = cg_string, [BI_CLEANPATH] = cg_string,
	[BI_STRTOK] = cg_string,

	[BI_ALLOCA] = cg_subr, [BI_BCOPY] = cg_subr, [BI_COPYINTO] = cg_subr,
	[BI_HTONS] = cg_subr, [BI_HTONL] = cg_subr, [BI_HTONLL] = cg_subr,
	[BI_NTOHS] = cg_subr, [BI_NTOHL] = cg_subr, [BI_NTOHLL] = cg_subr,
	[BI_RAND] = cg_subr, [BI_PROGENYOF] = cg_subr, [BI_GETMAJOR] = cg_subr,
	[BI_GETMINOR] = cg_subr, [BI_INET_NTOA] = cg_subr, [BI_INET_NTOA6] = cg_subr,
	[BI_INET_NTOP] = cg_subr, [BI_LINK_NTOP] = cg_subr,
	[BI_D_PATH] = cg_d_path,
	[BI_COPYIN] = cg_copyin, [BI_COPYINSTR] = cg_copyinstr, [BI_EXECARGS_READ] = cg_execargs,
	 [BI_SPECULATION] = speculation,

	[BI_STACK] = cg_symbolic, [BI_USTACK] = cg_symbolic, [BI_SYM] = cg_symbolic,
	[BI_FUNC] = cg_symbolic, [BI_MOD] = cg_symbolic, [BI_USYM] = cg_symbolic,
	[BI_UFUNC] = cg_symbolic, [BI_UADDR] = cg_symbolic, [BI_UMOD] = cg_symbolic,

	[BI_SPECULATE] = speculate,
	[BI_RAISE] = cg_destr, [BI_STOP] = cg_destr, [BI_COPYOUT] = cg_destr,
	[BI_COPYOUTSTR] = cg_destr,
};

cg_builtin_fn cg_builtin_hook(const struct builtin *bi)
{
	return hooks[bi->id];
}

const struct builtin *cg_builtin_missing(void)
{
	for (int i = BI_NONE + 1; i < BI_NROWS; i++) {
		const struct builtin *bi = builtin_get((enum builtin_id)i);
		if (bi->flags & (BF_LATER | BF_NEVER | BF_REWRITE))
			continue;
		bool done = bi->kind == BK_VAR ? bi->var != 0 : bi->kind == BK_AGG ? bi->agg != 0
			  : bi->kind == BK_ACTION ? bi->rec || hooks[i] : hooks[i] != NULL;
		if (!done)
			return bi;
	}
	return NULL;
}

bool cg_is_exit(struct node *st)
{
	return st->kind == N_CALL && st->bi && st->bi->id == BI_EXIT;
}
