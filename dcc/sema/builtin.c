/*
 * builtins.def -> the registry's table; a name -> its row (the only place
 * that compares a builtin's name); and the arity check the rows share.
 */
#include "builtin.h"

#include <pthread.h>
#include <stdlib.h>
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

/* The rows in the order of their names (of equal names, the first row
 * first), made once: sema asks about every identifier it meets, and a walk
 * of the ~300 rows is most of that (ten times more under the fuzzer, which
 * watches every strcmp). */
static int by_name[BI_NROWS];
static int nby_name;
static pthread_once_t by_name_once = PTHREAD_ONCE_INIT;

static int cmp_rows(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	int c = strcmp(builtins[x].name, builtins[y].name);
	return c ? c : x - y;
}

static void sort_rows(void)
{
	for (int i = BI_NONE + 1; i < BI_NROWS; i++)
		by_name[nby_name++] = i;
	qsort(by_name, (size_t)nby_name, sizeof(*by_name), cmp_rows);
}

const struct builtin *builtin_find(const char *name)
{
	pthread_once(&by_name_once, sort_rows);
	/* the first row named name: the walk's answer */
	int lo = 0, hi = nby_name;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (strcmp(builtins[by_name[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < nby_name && !strcmp(builtins[by_name[lo]].name, name))
		return &builtins[by_name[lo]];
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
