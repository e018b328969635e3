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
	{ "strtok", "ss", 2, 's' },
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

/* strtok(s, delim) and strtok(NULL, delim): the rest of the string is kept
 * in a clause-local no script can name, shared by the firing's clauses as
 * DTrace keeps it for the firing (dcc doesn't clear it between firings) */
static int check_strtok(struct sema *s, struct node *n)
{
	struct node *a = n->list;
	if (ast_list_len(a) != 2)
		return diag_error(s->dg, n->loc, "strtok() takes 2 arguments, %d given",
				  ast_list_len(a));
	if (a->kind == N_IDENT && a->name && !strcmp(a->name, "NULL")) {
		a->kind = N_INT;
		a->ival = 0;
	}
	if (sema_expr(s, a) || sema_expr(s, a->next))
		return -1;
	sema_coerce_string(s, a);
	sema_coerce_string(s, a->next);
	int64_t v;
	if (a->type->kind != T_STRING && (!type_is_int(a->type) || sema_const(s, a, &v) || v))
		return diag_error(s->dg, a->loc, "argument 1 of strtok() must be a string or "
				  "NULL, not '%s'", type_str(a->type));
	if (a->next->type->kind != T_STRING)
		return diag_error(s->dg, a->next->loc, "argument 2 of strtok() must be a string, "
				  "not '%s'", type_str(a->next->type));
	struct var *st = sema_var_find(s, V_THIS, "strtok()");
	n->sym = st ? st : sema_var_add(s, V_THIS, "strtok()", &type_string, n->loc);
	n->type = &type_string;
	return 0;
}

int sema_string_call(struct sema *s, struct node *n)
{
	if (!strcmp(n->name, "strtok"))
		return check_strtok(s, n);
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
