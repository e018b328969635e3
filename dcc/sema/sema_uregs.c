/*
 * uregs[R_*]: a register of the current thread as its user-space code
 * left it (the kernel's saved struct pt_regs). The index is a constant,
 * as DTrace requires, so each use reads one known slot; the names are
 * headers/d/regs.d's, DTrace for Linux's values on x86_64.
 */
#include "builtin.h"
#include "diag.h"
#include "sema_internal.h"

/* R_SS: the last slot of struct pt_regs; R_DS to R_TRAPNO are kept
 * elsewhere in the task. */
enum { UREGS_PT_REGS_LAST = 20, UREGS_LAST = 25 };

int sema_uregs(struct sema *s, struct node *n, const struct builtin *bi)
{
	int64_t i;
	if (ast_list_len(n->list) != 1)
		return diag_error(s->dg, n->loc, "uregs[] takes one index");
	if (sema_expr(s, n->list))
		return -1;
	if (!type_is_int(n->list->type) || !sema_const_try(n->list, &i))
		return diag_error(s->dg, n->list->loc, "the index of uregs[] must be an integer "
				  "constant, such as R_PC");
	if (i < 0 || i > UREGS_LAST)
		return diag_error(s->dg, n->list->loc, "uregs[%lld] names no register: the "
				  "indexes go from 0 (R_R15) to %d (R_TRAPNO)", (long long)i,
				  UREGS_LAST);
	if (i > UREGS_PT_REGS_LAST)
		return diag_error(s->dg, n->list->loc, "uregs[%lld] (a segment register or the "
				  "trap number) is not supported yet", (long long)i);
	n->bi = bi;
	n->id = B_UREGS;
	n->ival = (uint64_t)i;
	n->sym = NULL;
	n->type = &type_uint64;
	return 0;
}
