/*
 * The builtin registry (dcc/sema/builtins.def): every row has a unique name
 * that finds it, a well-formed arity, a sema check when sema accepts it,
 * and codegen for it (a hook, a record kind, an aggregating function or a
 * variable), so that a row added without its hook fails here rather than
 * in a user's script.
 */
#include <criterion/criterion.h>
#include <string.h>

#include <dcc/abi.h>
#include "cg_builtin.h"

Test(builtin, every_accepted_row_has_codegen)
{
	const struct builtin *bi = cg_builtin_missing();
	cr_assert_null(bi, "builtin %s has no codegen hook", bi ? bi->name : "");
}

Test(builtin, names_find_their_rows)
{
	for (int i = BI_NONE + 1; i < BI_NROWS; i++) {
		const struct builtin *bi = builtin_get((enum builtin_id)i);
		cr_assert_eq(bi->id, i, "row %d is out of place", i);
		cr_assert_eq(builtin_find(bi->name), bi, "%s is found as another row", bi->name);
	}
	cr_assert_null(builtin_find("no_such_builtin"));
	cr_assert_eq(builtin_agg(DCC_AGG_LLQUANTIZE), builtin_get(BI_LLQUANTIZE));
}

Test(builtin, rows_are_well_formed)
{
	for (int i = BI_NONE + 1; i < BI_NROWS; i++) {
		const struct builtin *bi = builtin_get((enum builtin_id)i);
		bool refused = bi->flags & (BF_LATER | BF_NEVER);
		cr_assert(bi->max_args < 0 || bi->min_args <= bi->max_args, "%s", bi->name);
		if (bi->args)
			cr_assert_eq((int)strlen(bi->args), bi->max_args, "%s", bi->name);
		if (!refused && (bi->kind == BK_SUBR || bi->kind == BK_ACTION))
			cr_assert_not_null(bi->check, "%s has no sema check", bi->name);
		if (bi->flags & BF_DESTRUCTIVE)
			cr_assert_eq(bi->kind, BK_ACTION, "%s", bi->name);
	}
}
