/*
 * D's string subroutines: strlen(), strjoin(), substr(), index(), rindex(),
 * strstr(), strchr(), strrchr(), basename(), dirname(), lltostr(),
 * strtoll(), toupper() and tolower(). Checks each call's arity and argument
 * kinds (a char * or char[] argument becomes a string) and gives the call
 * its type: a string, or the integer DTrace returns.
 */
#include <assert.h>
#include <string.h>

#include "diag.h"
#include "sema_internal.h"

/* args: one letter per argument, 's' string or 'i' integer; the ones
 * after min_args are optional. ret: 's' string, 'l' int64, 'u' size_t,
 * 'i' int */
static const struct {
	const char *name;
	const char *args;
	int min_args;
	char ret;
} str_funcs[] = {
	{ "strlen", "s", 1, 'u' }, { "strjoin", "ss", 2, 's' }, { "substr", "sii", 2, 's' },
	{ "index", "ssi", 2, 'i' }, { "rindex", "ssi", 2, 'i' }, { "strstr", "ss", 2, 's' },
	{ "strchr", "si", 2, 's' }, { "strrchr", "si", 2, 's' }, { "basename", "s", 1, 's' },
	{ "dirname", "s", 1, 's' }, { "lltostr", "ii", 1, 's' }, { "strtoll", "si", 1, 'l' },
	{ "toupper", "s", 1, 's' }, { "tolower", "s", 1, 's' }, { "cleanpath", "s", 1, 's' },
};

static int find(const char *name)
{
	for (unsigned i = 0; i < sizeof(str_funcs) / sizeof(str_funcs[0]); i++)
		if (!strcmp(str_funcs[i].name, name))
			return (int)i;
	return -1;
}

bool sema_string_name(const char *name)
{
	return find(name) >= 0;
}

int sema_string_call(struct sema *s, struct node *n)
{
	int f = find(n->name);
	assert(f >= 0);
	const char *name = str_funcs[f].name, *kinds = str_funcs[f].args;
	int max = (int)strlen(kinds), min = str_funcs[f].min_args;
	int nargs = ast_list_len(n->list);
	if (nargs < min || nargs > max) {
		if (min == max)
			return diag_error(s->dg, n->loc, "%s() takes %d argument%s, %d given", name,
					  min, min == 1 ? "" : "s", nargs);
		return diag_error(s->dg, n->loc, "%s() takes %d or %d arguments, %d given", name,
				  min, max, nargs);
	}
	int err = 0, i = 0;
	for (struct node *a = n->list; a; a = a->next, i++) {
		if (sema_expr(s, a)) {
			err = -1;
			continue;
		}
		if (kinds[i] == 's') {
			sema_coerce_string(s, a);
			if (a->type->kind != T_STRING)
				err = diag_error(s->dg, a->loc, "argument %d of %s() must be a "
						 "string, not '%s'", i + 1, name,
						 type_str(a->type));
		} else if (!type_is_int(a->type)) {
			err = diag_error(s->dg, a->loc, "argument %d of %s() must be an integer, "
					 "not '%s'", i + 1, name, type_str(a->type));
		}
	}
	if (err)
		return -1;
	switch (str_funcs[f].ret) {
	case 's': n->type = &type_string; break;
	case 'l': n->type = &type_llong; break;
	case 'u': n->type = &type_ulong; break;
	default: n->type = &type_int; break;
	}
	return 0;
}
