/*
 * The proc provider: its probes (the table below, after DTrace for Linux's
 * probes, on tracepoints), args[] of a proc clause as the inlines of
 * headers/d/psinfo_proc.d, and each program's filter (exec-success is the
 * return of an execve that gave 0, exit the death of a thread group's last
 * thread...). Codegen (cg_proc.c) attaches the programs and maps arguments.
 */
#include <string.h>

#include "arena.h"
#include "diag.h"
#include "proc_prov.h"
#include "sema_internal.h"

#define N PROC_SRC_NONE

static const struct proc_probe procs[] = {
	{ "create", PA_TP_BTF, "sched_process_fork", { 1, N, N }, "__dcc_proc_newproc",
	  { "__dcc_proc_psinfo0" } },
	{ "exec", PA_SYS_ENTER, NULL, { PROC_SRC_PATH, N, N }, NULL, { "__dcc_proc_path0" } },
	{ "exec-failure", PA_SYS_EXIT, NULL, { 0, N, N }, "__dcc_proc_failed",
	  { "__dcc_proc_int0" } },
	{ "exec-success", PA_SYS_EXIT, NULL, { 0, N, N }, "__dcc_proc_succeeded", { NULL } },
	{ "exit", PA_TP_BTF, "sched_process_exit", { 0, N, N }, "__dcc_proc_groupdead",
	  { "__dcc_proc_exitreason" } },
	{ "lwp-create", PA_TP_BTF, "sched_process_fork", { 1, N, N }, "__dcc_proc_newlwp",
	  { "__dcc_proc_lwpsinfo0", "__dcc_proc_psinfo0" } },
	{ "lwp-exit", PA_TP_BTF, "sched_process_exit", { 0, N, N }, NULL, { NULL } },
	{ "signal-discard", PA_TP_BTF, "signal_generate", { 2, 0, 4 }, "__dcc_proc_sigignored",
	  { "__dcc_proc_lwpsinfo0", "__dcc_proc_psinfo0", "__dcc_proc_int1" } },
	{ "signal-handle", PA_TP_BTF, "signal_deliver", { 0, 1, 2 }, NULL,
	  { "__dcc_proc_int0", "__dcc_proc_siginfo1", "__dcc_proc_handler2" } },
	{ "signal-send", PA_TP_BTF, "signal_generate", { 2, 0, 4 }, "__dcc_proc_sigsent",
	  { "__dcc_proc_lwpsinfo0", "__dcc_proc_psinfo0", "__dcc_proc_int1" } },
};

const struct proc_probe *proc_probe(int i)
{
	return i >= 0 && i < (int)(sizeof(procs) / sizeof(procs[0])) ? &procs[i] : NULL;
}

static bool has_proc(struct clause_info *ci)
{
	for (int g = 0; g < ci->ngroups; g++)
		if (ci->groups[g].kind == PK_PROC)
			return true;
	return false;
}

/* args[i] of a clause with proc probes: the probes' inline for it, expanded
 * in place of n. 1 if the clause has no proc probe. */
int sema_proc_args(struct sema *s, struct node *n, int64_t i)
{
	struct clause_info *ci = s->cur_clause;
	if (!ci || !has_proc(ci))
		return 1;
	const char *name = NULL;
	for (int g = 0; g < ci->ngroups; g++) {
		for (int k = 0; k < ci->groups[g].nprobes; k++) {
			struct probe *p = ci->groups[g].probes[k];
			if (p->kind != PK_PROC)
				return diag_error(s->dg, n->loc, "args[] of proc probes and of %s "
						  "probes cannot be mixed in a clause", p->prov);
			const char *a = i >= 0 && i < PROC_MAXARGS ? procs[p->proc].args[i] : NULL;
			if (!a)
				return diag_error(s->dg, n->loc, "args[%d] does not exist for probe "
						  "proc:%s::%s", (int)i, p->mod, p->name);
			if (name && strcmp(name, a))
				return diag_error(s->dg, n->loc, "args[%d] differs between the proc "
						  "probes of this clause", (int)i);
			name = a;
		}
	}
	n->kind = N_IDENT;
	n->name = name;
	n->a = n->b = n->list = NULL;
	n->id = 0;
	n->sym = NULL;
	int r = sema_expand_name(s, n);
	return r > 0 ? diag_error(s->dg, n->loc, "the D library lacks '%s'", name) : r;
}

/* Each proc program's row of the table, and its filter typed in its clause. */
int sema_proc_preds(struct sema *s, struct clause_info *ci)
{
	for (int g = 0; g < ci->ngroups; g++) {
		struct pgroup *grp = &ci->groups[g];
		if (grp->kind != PK_PROC)
			continue;
		grp->proc = &procs[grp->probes[0]->proc];
		if (!grp->proc->pred)
			continue;
		struct node *n = arena_new(s->ar, struct node);
		n->kind = N_IDENT;
		n->name = grp->proc->pred;
		n->loc = ci->n->loc;
		int r = sema_expand_name(s, n);
		if (r)
			return r > 0 ? diag_error(s->dg, n->loc, "the D library lacks '%s'",
						  n->name) : -1;
		grp->proc_pred = n;
	}
	return 0;
}
