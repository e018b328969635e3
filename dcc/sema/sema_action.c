/*
 * Clauses, actions and aggregations: checks each statement of a clause,
 * the printf()-family formats against their arguments, and gives every
 * aggregation its function and key signature (fixed by its first use).
 */
#include <stdlib.h>
#include <string.h>

#include <dcc/abi.h>
#include <dcc/abi_fmt.h>
#include "arena.h"
#include "diag.h"
#include "sema_internal.h"

/* stack([frames]) and ustack([frames[, strsize]]): kernel or user PCs */
int sema_stack(struct sema *s, struct node *n)
{
	bool user = n->bi->id == BI_USTACK;
	int nargs = ast_list_len(n->list);
	if (nargs > (user ? 2 : 1))
		return diag_error(s->dg, n->loc, "%s() takes at most %d argument%s", n->name,
				  user ? 2 : 1, user ? "s" : "");
	int64_t frames = (int64_t)sema_opt_value(s, user ? "ustackframes" : "stackframes");
	if (n->list && (sema_expr(s, n->list) || sema_const(s, n->list, &frames)))
		return -1;
	if (frames < 1)
		return diag_error(s->dg, n->loc, "%s() takes 1 to 127 frames", n->name);
	/* more frames than maxframes are silently cut to it, as in DTrace */
	if (frames > sema_maxframes(s))
		frames = sema_maxframes(s);
	if (frames > 127)
		return diag_error(s->dg, n->loc, "%s() takes 1 to 127 frames", n->name);
	/* ustack()'s string size: symbols are resolved by the consumer here,
	 * but the argument must still be what D allows, a size */
	struct node *ss = n->list ? n->list->next : NULL;
	int64_t strsize;
	if (ss && sema_expr(s, ss))
		return -1;
	if (ss && !type_is_int(ss->type))
		return diag_error(s->dg, ss->loc, "ustack()'s second argument is a string size, "
				  "an integer constant, not '%s'", type_str(ss->type));
	if (ss && sema_const(s, ss, &strsize))
		return -1;
	if (ss && strsize < 0)
		return diag_error(s->dg, ss->loc, "ustack()'s string size must not be negative");
	struct type *t = arena_new(s->ar, struct type);
	t->kind = T_STACK;
	t->dkind = user ? DCC_K_USTACK : DCC_K_STACK;
	t->size = (unsigned)(8 * frames + (user ? 8 : 0));
	t->name = user ? "ustack()" : "stack()";
	n->type = t;
	return 0;
}

/* stackdepth and ustackdepth: node->ival gets the frames their buffer holds */
int sema_stackvar(struct sema *s, struct node *n)
{
	n->ival = sema_maxframes(s);
	return 0;
}

/* copyin(addr, size): size bytes of the traced process's memory, copied
 * into the clause's scratch memory; the value is a void * to the copy. The
 * size is a constant: the copy's room is laid out at compile time. */
int sema_copyin(struct sema *s, struct node *n)
{
	int nargs = ast_list_len(n->list);
	if (nargs != 2)
		return diag_error(s->dg, n->loc, "copyin() takes 2 arguments, %d given", nargs);
	if (sema_expr(s, n->list) || sema_expr(s, n->list->next))
		return -1;
	if (!type_is_scalar(n->list->type))
		return diag_error(s->dg, n->list->loc, "copyin() needs a user address, not '%s'",
				  type_str(n->list->type));
	int64_t size;
	if (sema_const(s, n->list->next, &size))
		return -1;
	if (size < 1 || size > 4096)
		return diag_error(s->dg, n->list->next->loc, "copyin() copies 1 to 4096 bytes, "
				  "not %lld", (long long)size);
	n->ival = (uint64_t)size;
	n->type = type_ptr(s->ar, &type_void);
	return 0;
}

int sema_copyinstr(struct sema *s, struct node *n)
{
	int nargs = ast_list_len(n->list);
	if (nargs < 1 || nargs > 2)
		return diag_error(s->dg, n->loc, "copyinstr() takes 1 or 2 arguments, %d "
				  "given", nargs);
	if (sema_expr(s, n->list))
		return -1;
	if (!type_is_scalar(n->list->type))
		return diag_error(s->dg, n->list->loc, "copyinstr() needs a user address, "
				  "not '%s'", type_str(n->list->type));
	if (n->list->next) {
		int64_t max;
		if (sema_expr(s, n->list->next) || sema_const(s, n->list->next, &max))
			return -1;
		if (max < 1)
			return diag_error(s->dg, n->list->next->loc, "copyinstr() size must "
					  "be positive");
		n->ival = (uint64_t)max;
	}
	n->type = &type_string;
	return 0;
}

/* sym(), func(), mod(), usym(), ufunc(), uaddr(), umod(): an address the
 * runtime names; the user ones carry the pid too */
int sema_sym(struct sema *s, struct node *n)
{
	enum builtin_id id = n->bi->id;
	const char *name = n->name;
	if (ast_list_len(n->list) != 1)
		return diag_error(s->dg, n->loc, "%s() takes 1 argument", name);
	if (sema_expr(s, n->list))
		return -1;
	if (!type_is_scalar(n->list->type))
		return diag_error(s->dg, n->list->loc, "%s() needs an address, not '%s'",
				  name, type_str(n->list->type));
	struct type *t = arena_new(s->ar, struct type);
	t->kind = T_SYM;
	t->dkind = id == BI_SYM || id == BI_FUNC ? DCC_K_SYM : id == BI_MOD ? DCC_K_MOD
		 : id == BI_UADDR ? DCC_K_UADDR : id == BI_UMOD ? DCC_K_UMOD : DCC_K_USYM;
	t->size = id == BI_SYM || id == BI_FUNC || id == BI_MOD ? 8 : 16;
	t->name = arena_printf(s->ar, "%s()", name);
	n->type = t;
	return 0;
}

int sema_speculation(struct sema *s, struct node *n)
{
	if (n->list)
		return diag_error(s->dg, n->loc, "speculation() takes no arguments");
	s->uses_speculation = true;
	n->type = &type_int;
	return 0;
}

static int not_available(struct sema *s, struct node *n)
{
	return diag_error(s->dg, n->loc, "%s() is not available in dcc: there is no safe BPF "
			  "equivalent", n->name);
}

int sema_call_value(struct sema *s, struct node *n)
{
	if (!n->name)
		return diag_error(s->dg, n->loc, "only named functions can be called");
	const char *name = n->name;
	const struct builtin *bi = builtin_find(name);
	if (!bi || bi->kind == BK_VAR)
		return diag_error(s->dg, n->loc, "unknown function '%s'", name);
	n->bi = bi;
	if (bi->kind == BK_AGG)
		return diag_error(s->dg, n->loc, "aggregating function %s() can only be assigned "
				  "to an aggregation (@name = %s(...))", name, name);
	if (bi->flags & BF_NEVER)
		return not_available(s, n);
	if (bi->kind == BK_ACTION)
		return diag_error(s->dg, n->loc, "%s() is an action and has no value", name);
	if (bi->flags & BF_LATER)
		return diag_error(s->dg, n->loc, "function %s() is not supported yet", name);
	if (bi->check(s, n))
		return -1;
	if (bi->type)
		n->type = bi->type;
	return 0;
}

struct agg *sema_agg_find(struct sema *s, const char *name)
{
	for (int i = 0; i < s->naggs; i++)
		if (!strcmp(s->aggs[i]->name, name))
			return s->aggs[i];
	return NULL;
}

int sema_agg_assign(struct sema *s, struct node *n)
{
	struct node *lv = n->a, *call = n->b;
	const char *an = lv->name ? lv->name : "";
	if (n->op != '=')
		return diag_error(s->dg, n->loc, "aggregations can only be assigned with '='");
	if (call->kind != N_CALL || !call->name)
		return diag_error(s->dg, call->loc, "@%s must be assigned an aggregating function "
				  "such as count()", an);
	const struct builtin *fn = builtin_find(call->name);
	if (!fn || fn->kind != BK_AGG)
		return diag_error(s->dg, call->loc, "%s() is not an aggregating function",
				  call->name);
	call->bi = fn;
	int nargs = ast_list_len(call->list);
	int lo = fn->min_args, hi = fn->max_args;
	if (nargs < lo || nargs > hi)
		return diag_error(s->dg, call->loc, "%s() takes %s%d argument%s, %d given",
				  call->name, lo == hi ? "" : nargs < lo ? "at least " : "at most ",
				  nargs < lo ? lo : hi, (nargs < lo ? lo : hi) == 1 ? "" : "s", nargs);
	int err = 0;
	for (struct node *a = call->list; a; a = a->next)
		if (sema_expr(s, a))
			err = -1;
		else if (!type_is_int(a->type))
			err = diag_error(s->dg, a->loc, "%s() needs integer arguments, not '%s'",
					 call->name, type_str(a->type));
	int64_t param[4];
	if (err || sema_agg_params(s, fn->agg, call, param))
		return -1;
	int nkeys = 0;
	struct type *keys[8];
	for (struct node *k = lv->list; k; k = k->next) {
		if (sema_expr(s, k)) {
			err = -1;
			continue;
		}
		if (nkeys == 8) {
			err = diag_error(s->dg, k->loc, "aggregation keys are limited to 8 elements");
			break;
		}
		/* a char array is its string; a char pointer is its value, as
		 * any pointer's: DTrace keys by the address, not the bytes */
		if (k->type->kind != T_PTR)
			sema_coerce_string(s, k);
		if (!type_is_scalar(k->type) && k->type->kind != T_STRING &&
		    !type_is_symbolic(k->type)) {
			err = diag_error(s->dg, k->loc, "aggregation key of type '%s' is not "
					 "supported", type_str(k->type));
			continue;
		}
		/* a char or short key keeps its size, as in DTrace: it prints
		 * as " %3u" or " %5u", so (char)-2 shows as 254 */
		keys[nkeys++] = k->type->kind == T_PTR ? &type_ulong : k->type;
	}
	if (err)
		return -1;
	struct agg *g = sema_agg_find(s, an);
	if (!g) {
		g = arena_new(s->ar, struct agg);
		g->name = an;
		g->func = fn->agg;
		g->nkeys = nkeys;
		memcpy(g->keys, keys, sizeof(keys));
		g->loc = lv->loc;
		memcpy(g->param, param, sizeof(param));
		g->id = s->naggs;
		if (s->naggs == s->cap_aggs) {
			s->cap_aggs = s->cap_aggs ? 2 * s->cap_aggs : 8;
			s->aggs = realloc(s->aggs, s->cap_aggs * sizeof(*s->aggs));
		}
		s->aggs[s->naggs++] = g;
	} else {
		if (g->func != fn->agg)
			return diag_error(s->dg, call->loc, "@%s is a %s() aggregation; it cannot "
					  "also be %s()", an, builtin_agg(g->func)->name, call->name);
		if (memcmp(g->param, param, sizeof(param)))
			return diag_error(s->dg, call->loc, "@%s has other %s() parameters "
					  "elsewhere", an, call->name);
		if (g->nkeys != nkeys)
			return diag_error(s->dg, lv->loc, "@%s has %d key%s elsewhere, %d here", an,
					  g->nkeys, g->nkeys == 1 ? "" : "s", nkeys);
		for (int i = 0; i < nkeys; i++)
			if ((g->keys[i]->kind == T_STRING) != (keys[i]->kind == T_STRING) ||
			    ((type_is_symbolic(g->keys[i]) || type_is_symbolic(keys[i])) &&
			     (g->keys[i]->dkind != keys[i]->dkind ||
			      g->keys[i]->size != keys[i]->size)))
				return diag_error(s->dg, lv->loc, "key %d of @%s is '%s' elsewhere, "
						  "'%s' here", i + 1, an, type_str(g->keys[i]),
						  type_str(keys[i]));
		/* as in DTrace, the first use types the keys: a later integer
		 * key of another size is converted to it (@[(int)1] and
		 * @[1L] are one entry, shown as an int) */
	}
	if ((fn->agg == DCC_AGG_QUANTIZE || fn->agg == DCC_AGG_LQUANTIZE ||
	     fn->agg == DCC_AGG_LLQUANTIZE) && nargs == hi)
		g->weighted = true;
	lv->sym = g;
	n->type = &type_void;
	return 0;
}

/* printa: a '*' takes the next key, as a conversion does */
static int printa_star(struct sema *s, struct node *fmt, const char *spec, int len,
		       struct agg *agg, int *key)
{
	if (*key >= agg->nkeys || !type_is_int(agg->keys[*key]))
		return diag_error(s->dg, fmt->loc, "'*' in '%.*s' needs an integer key of @%s",
				  len, spec, agg->name);
	(*key)++;
	return 0;
}

/* %s and %S take a string or a char array, as DTrace's do; a char
 * pointer is an address, whose string stringof() reads. */
static int string_arg(struct sema *s, struct node *a, const char *spec, int len, int argno)
{
	if (a->type->kind == T_PTR && type_is_stringish(a->type))
		return diag_error(s->dg, a->loc, "conversion '%.*s' needs a string or a char "
				  "array, argument #%d is '%s' (use stringof())", len, spec, argno,
				  type_str(a->type));
	sema_coerce_string(s, a);
	return 0;
}

/* Walk a printf format; check each conversion against the arguments. */
static int check_format(struct sema *s, struct node *call, struct node *fmt, struct node *args,
			bool printa, struct agg *agg)
{
	const char *f = fmt->str;
	struct node *a = args;
	int argno = 1, key = 0;
	for (size_t i = 0; i < fmt->slen; i++) {
		if (f[i] != '%')
			continue;
		struct abi_fmt_spec sp;
		const char *spec = f + i;
		abi_fmt_scan(spec, fmt->slen - i, &sp);
		int len = (int)sp.len;
		char c = sp.conv;
		i += sp.len - 1;
		if (sp.cls == ABI_FMT_PERCENT && len == 2)
			continue;
		for (int n = (sp.width == ABI_FMT_STAR) + (sp.prec == ABI_FMT_STAR); n > 0; n--) {
			if (printa && printa_star(s, fmt, spec, len, agg, &key))
				return -1;
			if (printa)
				continue;
			if (!a)
				return diag_error(s->dg, fmt->loc, "format '%.*s' needs an "
						  "argument for '*'", len, spec);
			if (!type_is_int(a->type))
				return diag_error(s->dg, a->loc, "'*' in format needs an integer "
						  "argument, not '%s'", type_str(a->type));
			a = a->next;
			argno++;
		}
		if (!c)
			return diag_error(s->dg, fmt->loc, "format ends in the middle of conversion "
					  "'%s'", spec);
		if (sp.agg && printa) {
			if (!strchr("dioxXuc", c))
				return diag_error(s->dg, fmt->loc, "conversion '%.*s' cannot print an "
						  "aggregation", len, spec);
			continue;
		}
		if (sp.agg || c == '@')
			return diag_error(s->dg, fmt->loc, "'%%@' conversions are only valid in "
					  "printa()");
		if (printa && (sp.cls == ABI_FMT_STACK || sp.cls == ABI_FMT_KADDR ||
			       sp.cls == ABI_FMT_UADDR)) {
			struct type *kt = key < agg->nkeys ? agg->keys[key] : NULL;
			bool ok = kt && (c == 'k' ? kt->kind == T_STACK
					 : type_is_scalar(kt) || kt->kind == T_SYM);
			if (!ok)
				return diag_error(s->dg, fmt->loc, "conversion '%.*s' needs %s key "
						  "of @%s", len, spec, c == 'k' ? "a stack() or "
						  "ustack()" : "an address", agg->name);
			key++;
			continue;
		}
		if (sp.cls == ABI_FMT_STACK || sp.cls == ABI_FMT_KADDR || sp.cls == ABI_FMT_UADDR) {
			if (!a)
				return diag_error(s->dg, fmt->loc, "format conversion #%d '%.*s' has "
						  "no argument", argno, len, spec);
			bool ok = c == 'k' ? a->type->kind == T_STACK
					   : type_is_scalar(a->type) || a->type->kind == T_SYM;
			if (!ok)
				return diag_error(s->dg, a->loc, "conversion '%.*s' needs %s, "
						  "argument #%d is '%s'", len, spec,
						  c == 'k' ? "a stack() or ustack()" : "an address",
						  argno, type_str(a->type));
			a = a->next;
			argno++;
			continue;
		}
		bool is_int = sp.cls == ABI_FMT_INT || c == 'Y';
		bool want_str = sp.cls == ABI_FMT_STRING;
		if (printa) {
			/* printa: the conversions print the key elements in order */
			if (!is_int && !want_str)
				return diag_error(s->dg, fmt->loc, "invalid conversion '%.*s' in "
						  "printa() format", len, spec);
			if (key >= agg->nkeys)
				return diag_error(s->dg, fmt->loc, "conversion '%.*s' has no key: "
						  "@%s has %d key%s", len, spec, agg->name,
						  agg->nkeys, agg->nkeys == 1 ? "" : "s");
			if (want_str != (agg->keys[key]->kind == T_STRING ||
					 sema_subr_text(agg->keys[key])) ||
			    agg->keys[key]->kind == T_STACK)
				return diag_error(s->dg, fmt->loc, "conversion '%.*s' cannot print "
						  "key %d of @%s, of type '%s'", len, spec,
						  key + 1, agg->name, type_str(agg->keys[key]));
			key++;
			continue;
		}
		if (c == 'T' || c == 'C')
			return diag_error(s->dg, fmt->loc, "conversion '%.*s' is not supported yet",
					  len, spec);
		if (!is_int && !want_str && sp.cls != ABI_FMT_FLOAT)
			return diag_error(s->dg, fmt->loc, "invalid conversion '%.*s' in format",
					  len, spec);
		if (!a)
			return diag_error(s->dg, fmt->loc, "format conversion #%d '%.*s' has no "
					  "argument", argno, len, spec);
		if (want_str && string_arg(s, a, spec, len, argno))
			return -1;
		bool is_str = a->type->kind == T_STRING || sema_subr_text(a->type);
		/* any float type takes any of e E f g G, whatever size prefix
		 * the format writes (the runtime uses the value's own) */
		bool ok = want_str ? is_str : is_int ? type_is_scalar(a->type)
			: type_is_float(a->type);
		if (!ok)
			return diag_error(s->dg, a->loc, "conversion '%.*s' needs %s argument, "
					  "argument #%d is '%s'", len, spec, want_str ? "a string"
					  : is_int ? "an integer" : "a floating-point", argno,
					  type_str(a->type));
		a = a->next;
		argno++;
	}
	if (printa)
		return 0; /* no %@: DTrace prints the value at the end, as it does */
	if (a)
		return diag_error(s->dg, a->loc, "too many arguments for format: %d extra",
				  ast_list_len(a));
	(void)call;
	return 0;
}

int sema_format(struct sema *s, struct node *call, struct node *fmt, struct node *args)
{
	return check_format(s, call, fmt, args, false, NULL);
}

static int expect_int_arg(struct sema *s, struct node *a, const char *fn)
{
	if (type_is_int(a->type))
		return 0;
	return diag_error(s->dg, a->loc, "%s() needs an integer argument, not '%s'", fn,
			  type_str(a->type));
}

int sema_printf(struct sema *s, struct node *n)
{
	if (!n->list || n->list->kind != N_STR)
		return diag_error(s->dg, n->loc, "printf() needs a constant format string as "
				  "its first argument");
	if (!n->list->slen)
		return diag_error(s->dg, n->list->loc, "printf()'s format string is empty");
	int err = 0;
	for (struct node *a = n->list->next; a; a = a->next)
		err |= sema_expr(s, a);
	if (err)
		return -1;
	n->type = &type_void;
	return check_format(s, n, n->list, n->list->next, false, NULL);
}

/* trace(x) and exit(status) */
int sema_trace(struct sema *s, struct node *n)
{
	const char *name = n->name;
	bool trace = n->bi->id == BI_TRACE;
	int nargs = ast_list_len(n->list);
	if (nargs != 1)
		return diag_error(s->dg, n->loc, "%s() takes 1 argument, %d given", name, nargs);
	if (sema_expr(s, n->list))
		return -1;
	struct type *t = n->list->type;
	/* trace() of a struct, union or array in kernel memory records its
	 * bytes: DTrace for Linux dumps a char array too, not a string */
	if (trace && type_is_aggregate(t)) {
		if (t->size == 0 || t->size > 4096)
			return diag_error(s->dg, n->list->loc, "trace() of '%s' (%u bytes) "
					  "is not supported: at most 4096", type_str(t), t->size);
		if (n->list->kind != N_MEMBER && n->list->kind != N_INDEX &&
		    !(n->list->kind == N_UNOP && n->list->op == '*') &&
		    !((n->list->kind == N_IDENT || n->list->kind == N_SELF ||
		       n->list->kind == N_THIS) && n->list->sym))
			return diag_error(s->dg, n->list->loc, "trace() of a '%s' needs "
					  "it in kernel memory", type_str(t));
		n->type = &type_void;
		return 0;
	}
	/* a char pointer is an address like any other pointer: DTrace
	 * records its value, not the string there */
	t = n->list->type;
	if (!trace ? !type_is_int(t) : (!type_is_scalar(t) && t->kind != T_STRING &&
					!type_is_symbolic(t) && !type_is_float(t)))
		return diag_error(s->dg, n->list->loc, "%s() of a value of type '%s' is not "
				  "supported", name, type_str(t));
	n->type = &type_void;
	return 0;
}

int sema_printa(struct sema *s, struct node *n)
{
	struct node *a = n->list, *fmt = NULL;
	if (a && a->kind == N_STR) {
		fmt = a;
		a = a->next;
	}
	if (!a)
		return diag_error(s->dg, n->loc, "printa() needs an aggregation argument");
	int naggs = 0;
	struct agg *first = NULL;
	for (; a; a = a->next, naggs++) {
		if (a->kind != N_AGG || a->list)
			return diag_error(s->dg, a->loc, "printa() arguments after the format "
					  "must be aggregations");
		struct agg *g = sema_agg_find(s, a->name ? a->name : "");
		if (!g)
			return diag_error(s->dg, a->loc, "@%s is not assigned before this "
					  "printa()", a->name ? a->name : "");
		if (!fmt && naggs)
			return diag_error(s->dg, a->loc, "printa() of several aggregations "
					  "needs a format");
		if (first && first->nkeys != g->nkeys)
			return diag_error(s->dg, a->loc, "aggregations printed together must "
					  "have the same keys");
		first = first ? first : g;
		a->sym = g;
	}
	n->type = &type_void;
	return fmt ? check_format(s, n, fmt, NULL, true, first) : 0;
}

/* clear(@a), denormalize(@a), trunc(@a[, n]), normalize(@a, n) */
int sema_agg_action(struct sema *s, struct node *n)
{
	const char *name = n->name;
	int nargs = ast_list_len(n->list), min = n->bi->min_args, max = n->bi->max_args;
	if (nargs < min || nargs > max)
		return diag_error(s->dg, n->loc, "%s() takes %s argument%s, %d given", name,
				  min == max ? (min == 1 ? "1" : "2") : "1 or 2",
				  max == 1 ? "" : "s", nargs);
	struct node *a = n->list;
	if (a->kind != N_AGG || a->list)
		return diag_error(s->dg, a->loc, "the first argument of %s() must be an "
				  "aggregation", name);
	struct agg *g = sema_agg_find(s, a->name ? a->name : "");
	if (!g)
		return diag_error(s->dg, a->loc, "@%s is never assigned", a->name ? a->name : "");
	a->sym = g;
	if (a->next && (sema_expr(s, a->next) || expect_int_arg(s, a->next, name)))
		return -1;
	n->type = &type_void;
	return 0;
}

int sema_setopt(struct sema *s, struct node *n)
{
	int nargs = ast_list_len(n->list);
	if (nargs < 1 || nargs > 2)
		return diag_error(s->dg, n->loc, "setopt() takes 1 or 2 arguments, %d given",
				  nargs);
	/* the name is known to the consumer; a value computed when the
	 * clause runs is recorded */
	struct node *a = n->list, *v = a->next;
	if (a->kind != N_STR)
		return diag_error(s->dg, a->loc, "setopt() takes a constant option name");
	if (v && v->kind != N_STR) {
		if (sema_expr(s, v))
			return -1;
		sema_coerce_text(s, v);
		if (v->type->kind != T_STRING)
			return diag_error(s->dg, v->loc, "setopt() takes a string value, not '%s'",
					  type_str(v->type));
	}
	n->type = &type_void;
	return 0;
}

/* speculate(id), commit(id), discard(id) */
int sema_spec_action(struct sema *s, struct node *n)
{
	int nargs = ast_list_len(n->list);
	if (nargs != 1)
		return diag_error(s->dg, n->loc, "%s() takes 1 argument, %d given", n->name,
				  nargs);
	if (sema_expr(s, n->list) || expect_int_arg(s, n->list, n->name))
		return -1;
	s->uses_speculation = true;
	n->type = &type_void;
	return 0;
}

/* 0 or -1 for an action; 1 if n calls no action (an expression statement). */
static int check_action(struct sema *s, struct node *n)
{
	const struct builtin *bi = builtin_find(n->name);
	if (!bi || bi->kind != BK_ACTION)
		return 1;
	n->bi = bi;
	if (bi->flags & BF_NEVER)
		return not_available(s, n);
	if (bi->flags & BF_LATER)
		return diag_error(s->dg, n->loc, "action %s() is not supported yet", n->name);
	if (bi->check(s, n))
		return -1;
	if (bi->flags & BF_DESTRUCTIVE)
		s->destructive = true;
	n->type = &type_void;
	return 0;
}

static int check_stmt(struct sema *s, struct node *n)
{
	const struct builtin *bi = n->kind == N_CALL && n->name ? builtin_find(n->name) : NULL;
	/* stack(); ustack(); sym(a); uaddr(a)... as statements record their value,
	 * as DTrace's actions of those names do: trace(stack()) */
	if (bi && (bi->check == sema_stack || bi->check == sema_sym)) {
		struct node *inner = arena_new(s->ar, struct node);
		*inner = *n;
		inner->next = NULL;
		n->name = "trace";
		n->list = inner;
	}
	if (n->kind == N_CALL && n->name) {
		int r = check_action(s, n);
		if (r <= 0)
			return r;
	}
	if (n->kind == N_EMPTY)
		return 0;
	return sema_expr(s, n);
}

int sema_clause(struct sema *s, struct clause_info *ci)
{
	struct node *c = ci->n;
	int err = 0;
	if (c->a) {
		if (sema_expr(s, c->a))
			err = -1;
		else if (!type_is_scalar(c->a->type))
			err = diag_error(s->dg, c->a->loc, "a predicate must be an integer or a "
					 "pointer, not '%s'", type_str(c->a->type));
	}
	bool spec = false, data = false, committed = false;
	for (struct node *st = c->b; st; st = st->next) {
		err |= check_stmt(s, st);
		const struct builtin *bi = st->kind == N_CALL ? st->bi : NULL;
		bool agg = st->kind == N_ASSIGN && st->a->kind == N_AGG;
		/* after commit() a clause may commit or discard more (DTrace for
		 * Linux allows it), but neither aggregate nor speculate again */
		if (committed && (agg || (bi && bi->id == BI_SPECULATE))) {
			err = diag_error(s->dg, st->loc, "%s cannot follow commit()",
					 agg ? "an aggregation" : "speculate()");
		} else if (bi && bi->id == BI_SPECULATE) {
			if (spec)
				err = diag_error(s->dg, st->loc, "a clause can speculate() only once");
			else if (data)
				err = diag_error(s->dg, st->loc, "speculate() must come before the "
						 "clause's data-recording actions");
			spec = true;
		} else if (bi && bi->id == BI_COMMIT && data) {
			err = diag_error(s->dg, st->loc, "commit() must come before the clause's "
					 "data-recording actions");
		} else if (committed && bi && (bi->flags & BF_DATA || bi->id == BI_EXIT)) {
			/* exit() records too, as DTrace counts it */
			err = diag_error(s->dg, st->loc, "%s() cannot follow commit(): a clause's "
					 "data-recording actions come before it", st->name);
		} else if (spec && agg) {
			err = diag_error(s->dg, st->loc, "aggregations cannot follow speculate()");
		} else if (spec && bi && (bi->flags & (BF_NOSPEC | BF_DESTRUCTIVE))) {
			err = diag_error(s->dg, st->loc, "%s() cannot follow speculate()", st->name);
		}
		data |= bi && (bi->flags & BF_DATA);
		committed |= bi && bi->id == BI_COMMIT;
	}
	if (!err)
		err = sema_xlate_uses(s, c) | sema_scratch_room(s, c);
	return err;
}
