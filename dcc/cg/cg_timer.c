/*
 * One program per tick/profile probe. In D, every clause of a probe runs in
 * the same firing, in the order of the source: a later clause sees what an
 * earlier one stored, and all see the same sample. Tracepoints give that for
 * free (the kernel runs the programs attached to one event in attach order),
 * but a timer is a perf event of its own and runs one program: one timer
 * per clause would fire at different moments. So each timer clause is a
 * static function (cg.c's build_group) and the timer's program calls them,
 * in clause order; a clause that faults or is cut short returns, and the
 * next one runs, as in DTrace.
 *
 * Their timestamp is the firing's too, for every kind of probe: a per-CPU
 * slot at the start of scratch holds the probe id and the number of the last
 * clause that claimed it, and the timestamp read for them (0 until a clause
 * reads the clock). A clause reading timestamp claims the slot where its body
 * starts: a clause of the same probe with a later number is in the same
 * firing, as the clauses of one firing run in source order, one after the
 * other on one CPU (a timer's from its program, a tracepoint's, kprobe's or
 * fentry's in attach order); anything else starts a new firing. A clause
 * that no other clause reading timestamp shares a probe with needs none of
 * it: it reads the clock once, the first time it asks (cg.c's cg_timestamp).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <dcc/abi.h>
#include "arena.h"
#include "cg.h"
#include "cg_meta.h"

static bool is_timer(const struct pgroup *g)
{
	return g->kind == PK_TICK || g->kind == PK_PROFILE;
}

/* Whether probe p got its program already: an earlier clause's group. */
static bool seen_before(struct sema *s, int clause, int group, const struct probe *p)
{
	for (int i = 0; i <= clause; i++)
		for (int j = 0; j < s->clauses[i].ngroups && (i < clause || j < group); j++)
			if (is_timer(&s->clauses[i].groups[j]) &&
			    s->clauses[i].groups[j].probes[0] == p)
				return true;
	return false;
}

static void build_dispatch(struct cg *cg, const struct probe *p, struct loc loc,
			   const char *name, int from)
{
	struct sema *s = cg->s;
	LLVMTypeRef pt = cg->ptr;
	LLVMTypeRef fty = LLVMFunctionType(cg->i32, &pt, 1, 0);
	struct cg_prog prog = { 0 };

	prog.fn = LLVMAddFunction(cg->M, name, fty);
	LLVMSetSection(prog.fn, "perf_event");
	LLVMSetLinkage(prog.fn, LLVMExternalLinkage);
	cg_fn_attr(cg, prog.fn, "nounwind");
	prog.ctx = LLVMGetParam(prog.fn, 0);
	LLVMSetValueName2(prog.ctx, "ctx", 3);

	LLVMMetadataRef params[2] = { cg->di_int, cg->di_voidptr };
	LLVMMetadataRef sty = LLVMDIBuilderCreateSubroutineType(cg->dib, cg->di_file, params,
								2, 0);
	prog.sp = LLVMDIBuilderCreateFunction(cg->dib, cg->di_file, name, strlen(name), name,
		strlen(name), cg->di_file, loc.line, sty, 0, 1, loc.line, LLVMDIFlagPrototyped, 1);
	LLVMSetSubprogram(prog.fn, prog.sp);
	LLVMDIBuilderCreateParameterVariable(cg->dib, prog.sp, "ctx", 3, 1, cg->di_file, loc.line,
					     cg->di_voidptr, 1, 0);
	cg->p = &prog;
	prog.entry = cg_block(cg, "entry");
	LLVMPositionBuilderAtEnd(cg->b, prog.entry);
	for (int i = from; i < s->nclauses; i++) {
		for (int j = 0; j < s->clauses[i].ngroups; j++) {
			struct pgroup *g = &s->clauses[i].groups[j];
			if (!is_timer(g) || g->probes[0] != p)
				continue;
			cg_set_loc(cg, s->clauses[i].n->loc);
			LLVMValueRef fn = LLVMGetNamedFunction(cg->M, g->prog_name);
			LLVMValueRef arg = prog.ctx;
			/* once per description that matches the timer (tick-1s, tick-1s) */
			for (int r = 0; r < (g->repeat > 1 ? g->repeat : 1); r++)
				LLVMBuildCall2(cg->b, fty, fn, &arg, 1, "");
		}
	}
	LLVMBuildRet(cg->b, cg_i32(cg, 0));
	cg->p = NULL;
	if (p->cpc_event)
		cg_meta_attach(cg->meta, name, DCC_ATTACH_CPC, p->cpc_event, p->cpc_flags,
			       p->period_ns);
	else
		cg_meta_attach(cg->meta, name, p->kind == PK_TICK ? DCC_ATTACH_TICK
				: DCC_ATTACH_PROFILE, NULL, 0, p->period_ns);
}

int cg_timer_calls(const struct sema *s, const struct probe *p)
{
	int n = 0;

	for (int i = 0; i < s->nclauses; i++)
		for (int j = 0; j < s->clauses[i].ngroups; j++) {
			const struct pgroup *g = &s->clauses[i].groups[j];
			if (is_timer(g) && g->probes[0] == p)
				n += g->repeat > 1 ? g->repeat : 1;
		}
	return n;
}

/* The clause and group where the n-th (from 1) timer program's probe is
 * first named: each timer probe gets one program, in this order. */
static bool nth_timer(struct sema *s, int n, int *clause, int *group)
{
	for (int i = 0; i < s->nclauses; i++)
		for (int j = 0; j < s->clauses[i].ngroups; j++) {
			struct pgroup *g = &s->clauses[i].groups[j];
			if (is_timer(g) && !seen_before(s, i, j, g->probes[0]) && --n == 0) {
				*clause = i;
				*group = j;
				return true;
			}
		}
	return false;
}

/* "dcc_timerN": a kernel program name keeps 15 characters */
#define TIMER_PREFIX "dcc_timer"

struct clause_info *cg_timer_clause(struct sema *s, const char *prog_name)
{
	char *end;
	int i, j;

	if (strncmp(prog_name, TIMER_PREFIX, strlen(TIMER_PREFIX)))
		return NULL;
	long n = strtol(prog_name + strlen(TIMER_PREFIX), &end, 10);
	if (n < 1 || n > INT_MAX || (*end && *end != ' ' && *end != ':'))
		return NULL;
	return nth_timer(s, (int)n, &i, &j) ? &s->clauses[i] : NULL;
}

void cg_timer_programs(struct cg *cg)
{
	struct sema *s = cg->s;
	int i, j;

	for (int n = 1; nth_timer(s, n, &i, &j); n++) {
		const char *name = arena_printf(cg->ar, TIMER_PREFIX "%d", n);
		build_dispatch(cg, s->clauses[i].groups[j].probes[0], s->clauses[i].n->loc, name,
			       i);
	}
}

static bool reads_timestamp(const struct node *n)
{
	for (; n; n = n->next) {
		if (n->kind == N_IDENT && !n->sym &&
		    (n->id == B_TIMESTAMP || n->id == B_WALLTIMESTAMP))
			return true;
		if (reads_timestamp(n->a) || reads_timestamp(n->b) || reads_timestamp(n->c) ||
		    reads_timestamp(n->d) || reads_timestamp(n->list))
			return true;
	}
	return false;
}

static bool clause_reads_timestamp(const struct clause_info *ci)
{
	return reads_timestamp(ci->n->a) || reads_timestamp(ci->n->b);
}

/* Probes whose id the loader or the program decides (pid, USDT): any two
 * such groups may be one firing. */
static bool id_at_run_time(const struct pgroup *g)
{
	return g->kind == PK_PID_ENTRY || g->kind == PK_PID_RETURN || g->kind == PK_USDT;
}

/*
 * Per probe id, how many clauses reading timestamp fire on it (ERROR's
 * aside: it zeroes the slot itself), counted once per compile; a clause
 * needs the firing's slot only when one of its probes has another such
 * clause. Alone on its probes it reads the clock once, into a local.
 */
static void count_ts_clauses(struct cg *cg)
{
	struct sema *s = cg->s;
	uint32_t max = 0;
	for (int i = 0; i < s->nclauses; i++)
		for (int j = 0; j < s->clauses[i].ngroups; j++)
			for (int k = 0; k < s->clauses[i].groups[j].nprobes; k++)
				if (s->clauses[i].groups[j].probes[k]->id > max)
					max = s->clauses[i].groups[j].probes[k]->id;
	cg->ts_clauses = arena_alloc(cg->ar, sizeof(*cg->ts_clauses) * (max + 1));
	int *last = arena_alloc(cg->ar, sizeof(*last) * (max + 1));
	memset(cg->ts_clauses, 0, sizeof(*cg->ts_clauses) * (max + 1));
	memset(last, 0, sizeof(*last) * (max + 1));
	for (int i = 0; i < s->nclauses; i++) {
		const struct clause_info *ci = &s->clauses[i];
		if (!clause_reads_timestamp(ci))
			continue;
		for (int j = 0; j < ci->ngroups; j++) {
			const struct pgroup *g = &ci->groups[j];
			if (g->kind == PK_ERROR)
				continue;
			if (id_at_run_time(g))
				cg->ts_runtime_ids++;
			for (int k = 0; k < g->nprobes; k++) {
				uint32_t id = g->probes[k]->id;
				if (last[id] != i + 1) {
					last[id] = i + 1;
					cg->ts_clauses[id]++;
				}
			}
		}
	}
}

static bool shares_firing(struct cg *cg, const struct clause_info *ci)
{
	if (!cg->ts_clauses)
		count_ts_clauses(cg);
	for (int j = 0; j < ci->ngroups; j++) {
		const struct pgroup *g = &ci->groups[j];
		if (id_at_run_time(g) && cg->ts_runtime_ids > 1)
			return true;
		for (int k = 0; k < g->nprobes; k++)
			if (cg->ts_clauses[g->probes[k]->id] > 1)
				return true;
	}
	return false;
}

void cg_firing_sync(struct cg *cg)
{
	if (!clause_reads_timestamp(cg->ci) || !shares_firing(cg, cg->ci))
		return;
	LLVMValueRef slot[3];
	for (int i = 0; i < 3; i++)
		slot[i] = cg_scratch(cg, 8 * (unsigned)i); /* probe id, clause, timestamp */
	LLVMValueRef id = cg_probe_id(cg), me = cg_i64(cg, (uint64_t)cg->ci->index);
	LLVMValueRef was = LLVMBuildLoad2(cg->b, cg->i64, slot[0], "firing.probe");
	LLVMValueRef last = LLVMBuildLoad2(cg->b, cg->i64, slot[1], "firing.clause");
	LLVMValueRef same = LLVMBuildAnd(cg->b, LLVMBuildICmp(cg->b, LLVMIntEQ, was, id, ""),
					 LLVMBuildICmp(cg->b, LLVMIntULT, last, me, ""), "");
	LLVMBasicBlockRef fresh = cg_block(cg, "firing.new"), go = cg_block(cg, "firing.go");
	LLVMBuildCondBr(cg->b, same, go, fresh);
	LLVMPositionBuilderAtEnd(cg->b, fresh);
	LLVMBuildStore(cg->b, id, slot[0]);
	LLVMBuildStore(cg->b, cg_i64(cg, 0), slot[2]);
	LLVMBuildBr(cg->b, go);
	LLVMPositionBuilderAtEnd(cg->b, go);
	LLVMBuildStore(cg->b, me, slot[1]);
	cg->p->firing_ts = slot[2];
}
