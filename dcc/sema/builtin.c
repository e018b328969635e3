/*
 * builtins.def -> the registry's table; a name -> its row (the only place
 * that compares a builtin's name); and the arity check the rows share.
 */
#include "builtin.h"

#include <string.h>

#include <dcc/abi.h>
#include "diag.h"
#include "sema_internal.h"

#define BUILTIN(ID, nm, k, lo, hi, ar, ty, fl, code, chk) \
	[BI_##ID] = { .id = BI_##ID, .name = nm, .kind = BK_##k, .min_args = lo, .max_args = hi, \
		      .args = ar, .type = ty, .flags = fl, .var = BK_##k == BK_VAR ? code : 0, \
		      .agg = BK_##k == BK_AGG ? code : 0, \
		      .rec = BK_##k == BK_ACTION ? (uint32_t)(code) : 0, .check = chk },
static const struct builtin builtins[BI_NROWS] = {
#include "builtins.def"
};
#undef BUILTIN

const struct builtin *builtin_find(const char *name)
{
	for (int i = BI_NONE + 1; i < BI_NROWS; i++)
		if (!strcmp(builtins[i].name, name))
			return &builtins[i];
	return NULL;
}

const struct builtin *builtin_get(enum builtin_id id)
{
	return &builtins[id];
}

const struct builtin *builtin_agg(int func)
{
	for (int i = BI_NONE + 1; i < BI_NROWS; i++)
		if (builtins[i].kind == BK_AGG && builtins[i].agg == func)
			return &builtins[i];
	return NULL;
}

int sema_builtin_arity(struct sema *s, struct node *n)
{
	int nargs = ast_list_len(n->list), min = n->bi->min_args, max = n->bi->max_args;
	if (nargs >= min && (max < 0 || nargs <= max))
		return 0;
	if (min == max)
		return diag_error(s->dg, n->loc, "%s() takes %d argument%s, %d given", n->name,
				  min, min == 1 ? "" : "s", nargs);
	return diag_error(s->dg, n->loc, "%s() takes %d or %d arguments, %d given", n->name,
			  min, max, nargs);
}
