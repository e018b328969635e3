/*
 * The kernel's limit on the maps one BPF program may use (64, the
 * verifier's MAX_USED_MAPS), checked when the module is built: every
 * aggregation is a map of its own, so a clause updating more of them than
 * that would be refused when loaded, with only E2BIG to say why. The
 * count is of the map globals each program's code names, through the
 * functions it calls (timer clauses, ERROR clauses).
 */
#include <stdlib.h>

#include "cg.h"
#include "diag.h"

#define MAX_USED_MAPS 64

struct map_walk {
	struct cg *cg;
	bool *used;         /* per map of cg->maps */
	int nused;
	LLVMValueRef *fns;  /* functions already walked */
	int nfns, cap;
};

static void count_value(struct map_walk *w, LLVMValueRef v);

static void walk_function(struct map_walk *w, LLVMValueRef fn)
{
	for (int i = 0; i < w->nfns; i++)
		if (w->fns[i] == fn)
			return;
	if (w->nfns == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 16;
		w->fns = realloc(w->fns, (size_t)w->cap * sizeof(*w->fns));
	}
	w->fns[w->nfns++] = fn;
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in;
		     in = LLVMGetNextInstruction(in)) {
			int n = LLVMGetNumOperands(in);
			for (int k = 0; k < n; k++)
				count_value(w, LLVMGetOperand(in, k));
		}
}

static void count_value(struct map_walk *w, LLVMValueRef v)
{
	if (!v)
		return;
	if (LLVMIsAConstantExpr(v) && LLVMGetNumOperands(v) > 0)
		v = LLVMGetOperand(v, 0);
	if (LLVMIsAFunction(v)) {
		if (!LLVMIsDeclaration(v))
			walk_function(w, v);
		return;
	}
	if (!LLVMIsAGlobalVariable(v))
		return;
	for (int i = 0; i < w->cg->nmaps; i++)
		if (w->cg->maps[i].g == v && !w->used[i]) {
			w->used[i] = true;
			w->nused++;
		}
}

int cg_check_map_limit(struct cg *cg)
{
	/* no program can name more maps than the module has: most scripts
	 * skip the walk over every instruction */
	if (cg->nmaps <= MAX_USED_MAPS)
		return 0;
	struct sema *s = cg->s;
	struct map_walk w = { .cg = cg, .used = calloc((size_t)cg->nmaps + 1, sizeof(bool)) };
	int err = 0;

	for (int i = 0; i < s->nclauses; i++) {
		const struct clause_info *ci = &s->clauses[i];
		for (int j = 0; j < ci->ngroups; j++) {
			LLVMValueRef fn = LLVMGetNamedFunction(cg->M, ci->groups[j].prog_name);
			if (!fn || ci->groups[j].kind == PK_ERROR)
				continue;
			w.nused = w.nfns = 0;
			for (int m = 0; m < cg->nmaps; m++)
				w.used[m] = false;
			walk_function(&w, fn);
			if (w.nused > MAX_USED_MAPS) {
				err = diag_error(cg->dg, ci->n->loc, "this clause's program uses %d "
						 "maps, more than the %d the kernel lets one BPF "
						 "program use: each aggregation is a map of its "
						 "own", w.nused,
						 MAX_USED_MAPS);
				break;
			}
		}
	}
	free(w.used);
	free(w.fns);
	return err ? -1 : 0;
}
