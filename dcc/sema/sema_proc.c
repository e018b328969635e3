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
	{ "proc", "create", PA_TP_BTF, "sched_process_fork", { 1, N, N, N }, "__dcc_proc_newproc",
	  { "__dcc_proc_psinfo0" }, NULL },
	{ "proc", "exec", PA_SYS_ENTER, NULL, { PROC_SRC_PATH, N, N, N }, NULL,
	  { "__dcc_proc_path0" }, NULL },
	{ "proc", "exec-failure", PA_SYS_EXIT, NULL, { 0, N, N, N }, "__dcc_proc_failed",
	  { "__dcc_proc_int0" }, NULL },
	{ "proc", "exec-success", PA_SYS_EXIT, NULL, { 0, N, N, N }, "__dcc_proc_succeeded",
	  { NULL }, NULL },
	{ "proc", "exit", PA_TP_BTF, "sched_process_exit", { 0, N, N, N }, "__dcc_proc_groupdead",
	  { "__dcc_proc_exitreason" }, NULL },
	{ "proc", "lwp-create", PA_TP_BTF, "sched_process_fork", { 1, N, N, N }, "__dcc_proc_newlwp",
	  { "__dcc_proc_lwpsinfo0", "__dcc_proc_psinfo0" }, NULL },
	{ "proc", "lwp-exit", PA_TP_BTF, "sched_process_exit", { 0, N, N, N }, NULL, { NULL }, NULL },
	{ "proc", "signal-discard", PA_TP_BTF, "signal_generate", { 2, 0, 4, N },
	  "__dcc_proc_sigignored",
	  { "__dcc_proc_lwpsinfo0", "__dcc_proc_psinfo0", "__dcc_proc_int1" }, NULL },
	{ "proc", "signal-handle", PA_TP_BTF, "signal_deliver", { 0, 1, 2, N }, NULL,
	  { "__dcc_proc_int0", "__dcc_proc_siginfo1", "__dcc_proc_handler2" }, NULL },
	{ "proc", "signal-send", PA_TP_BTF, "signal_generate", { 2, 0, 4, N }, "__dcc_proc_sigsent",
	  { "__dcc_proc_lwpsinfo0", "__dcc_proc_psinfo0", "__dcc_proc_int1" }, NULL },
};

const struct proc_probe *proc_probe(int i)
{
	static const struct proc_probe *(*const more[])(int) = {
		sched_probe, net_probe, lockstat_probe,
	};
	int n = (int)(sizeof(procs) / sizeof(procs[0]));
	if (i < 0)
		return NULL;
	if (i < n)
		return &procs[i];
	i -= n;
	for (unsigned k = 0; k < sizeof(more) / sizeof(more[0]); k++) {
		int c = 0;
		while (more[k](c))
			c++;
		if (i < c)
			return more[k](i);
		i -= c;
	}
	return NULL;
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
	const char *name = NULL, *first = NULL;
	for (int g = 0; g < ci->ngroups && !first; g++)
		if (ci->groups[g].kind == PK_PROC)
			first = ci->groups[g].probes[0]->prov;
	for (int g = 0; g < ci->ngroups; g++) {
		for (int k = 0; k < ci->groups[g].nprobes; k++) {
			struct probe *p = ci->groups[g].probes[k];
			if (p->kind != PK_PROC || strcmp(p->prov, first))
				return diag_error(s->dg, n->loc, "args[] of %s probes and of "
						  "%s probes cannot be mixed in a clause", first,
						  p->prov);
			const struct proc_probe *pp = proc_probe(p->proc);
			const char *a = i >= 0 && i < PROC_MAXARGS ? pp->args[i] : NULL;
			if (!a)
				return diag_error(s->dg, n->loc, "args[%d] does not exist for probe "
						  "%s:%s::%s", (int)i, p->prov, p->mod, p->name);
			if (name && strcmp(name, a))
				return diag_error(s->dg, n->loc, "args[%d] differs between the %s "
						  "probes of this clause", (int)i, p->prov);
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

/* The D library's inline `name`, typed in the clause being checked. */
static struct node *lib_inline(struct sema *s, struct clause_info *ci, const char *name)
{
	struct node *n = arena_new(s->ar, struct node);
	n->kind = N_IDENT;
	n->name = name;
	n->loc = ci->n->loc;
	int r = sema_expand_name(s, n);
	if (r > 0)
		diag_error(s->dg, n->loc, "the D library lacks '%s'", n->name);
	return r ? NULL : n;
}

/* Each proc or sched program's row of the table, its filter and what stands
 * for the current task, typed in its clause. */
int sema_proc_preds(struct sema *s, struct clause_info *ci)
{
	static const char *const suffix[PC_N] = PROC_CUR_SUFFIXES;
	for (int g = 0; g < ci->ngroups; g++) {
		struct pgroup *grp = &ci->groups[g];
		if (grp->kind != PK_PROC)
			continue;
		grp->proc = proc_probe(grp->probes[0]->proc);
		if (grp->proc->pred && !(grp->proc_pred = lib_inline(s, ci, grp->proc->pred)))
			return -1;
		for (int k = 0; grp->proc->cur && k < PC_N; k++) {
			const char *name = arena_printf(s->ar, "%s%s", grp->proc->cur, suffix[k]);
			if (!(grp->cur[k] = lib_inline(s, ci, name)))
				return -1;
		}
	}
	return 0;
}

/* DTrace's proc probes that no tracepoint of this kernel marks: refused by
 * name rather than as an unknown provider. */
int sema_proc_refused(struct sema *s, struct node *d, const char *name)
{
	static const struct {
		const char *name, *why;
	} refused[] = {
		{ "start", "no tracepoint marks a new process running for the first time" },
		{ "lwp-start", "no tracepoint marks a new thread running for the first time" },
		{ "signal-clear", "no tracepoint marks a pending signal taken by sigwait(2) or "
				  "sigtimedwait(2)" },
	};

	for (unsigned i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (!strcmp(name, refused[i].name))
			return diag_error(s->dg, d->loc, "proc:::%s is not supported: %s", name,
					  refused[i].why);
	return 0;
}
