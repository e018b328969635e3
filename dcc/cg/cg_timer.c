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
 */
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

void cg_timer_programs(struct cg *cg)
{
	struct sema *s = cg->s;
	int n = 0;

	for (int i = 0; i < s->nclauses; i++) {
		for (int j = 0; j < s->clauses[i].ngroups; j++) {
			struct pgroup *g = &s->clauses[i].groups[j];
			if (!is_timer(g) || seen_before(s, i, j, g->probes[0]))
				continue;
			/* "dcc_timerN": a kernel program name keeps 15 characters */
			const char *name = arena_printf(cg->ar, "dcc_timer%d", ++n);
			build_dispatch(cg, g->probes[0], s->clauses[i].n->loc, name, i);
		}
	}
}
