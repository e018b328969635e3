/*
 * Typed AST from the parse tree: every expression gets a type, identifiers
 * are bound to builtins or variables (created by their first assignment, as
 * D does), aggregations get their function and key signature, actions are
 * checked, and options are collected. Codegen relies on everything checked
 * here; constructs it cannot compile yet are rejected with their location.
 */
#include "sema.h"

#include <stdlib.h>
#include <string.h>

#include <dcc/abi.h>
#include "arena.h"
#include "diag.h"
#include "sema_internal.h"
#include "btf.h"

struct var *sema_var_find(struct sema *s, enum var_kind kind, const char *name)
{
	for (int i = 0; i < s->nvars; i++)
		if (s->vars[i]->kind == kind && !strcmp(s->vars[i]->name, name))
			return s->vars[i];
	return NULL;
}

struct var *sema_var_add(struct sema *s, enum var_kind kind, const char *name, struct type *t,
			 struct loc loc)
{
	struct var *v = arena_new(s->ar, struct var);
	v->kind = kind;
	v->name = name;
	v->type = t;
	v->loc = loc;
	for (int i = 0; i < s->nvars; i++)
		v->id += s->vars[i]->kind == kind;
	v->index = s->nvars;
	if (s->nvars == s->cap_vars) {
		s->cap_vars = s->cap_vars ? 2 * s->cap_vars : 16;
		s->vars = realloc(s->vars, s->cap_vars * sizeof(*s->vars));
	}
	s->vars[s->nvars++] = v;
	return v;
}

static int ksym_needs_cast(struct sema *s, struct node *n)
{
	return diag_error(s->dg, n->loc, "kernel symbol `%s has no type in BTF: give it one "
			  "with a cast of its address, e.g. *(unsigned long *)&`%s", n->name,
			  n->name);
}

static const char *var_prefix(enum var_kind k)
{
	return k == V_SELF ? "self->" : k == V_THIS ? "this->" : "";
}

/* The type of an integer literal: the first of int, unsigned (octal/hex
 * only), long, unsigned long that holds it, then the suffixes' minimum. */
struct type *sema_int_literal_type(struct node *n)
{
	uint64_t v = n->ival;
	bool u = n->iflags & INTF_UNSIGNED, l = n->iflags & (INTF_LONG | INTF_LONGLONG);
	/* character constants take the types of hex ones: 'abcd' is int */
	bool hexlike = n->op == 'x' || n->op == 'o' || (n->iflags & INTF_CHAR);
	if (!l) {
		if (!u && v <= 0x7fffffff)
			return &type_int;
		if (v <= 0xffffffffu && (u || hexlike))
			return &type_uint;
	}
	if (!u && v <= 0x7fffffffffffffffull)
		return &type_long;
	return &type_ulong;
}

static int expect_int(struct sema *s, struct node *n, const char *what)
{
	if (type_is_int(n->type))
		return 0;
	if (n->type && n->type->kind == T_PTR && (!strcmp(what, "a logical operator") ||
						  !strcmp(what, "the condition of '?:'")))
		return 0;
	return diag_error(s->dg, n->loc, "%s requires an integer operand, not '%s'", what,
			  type_str(n->type));
}

static bool is_lvalue(struct node *n)
{
	return n->kind == N_IDENT || n->kind == N_SELF || n->kind == N_THIS ||
	       (n->kind == N_INDEX && n->a && (n->a->kind == N_IDENT || n->a->kind == N_SELF));
}

/* v.a.b where v is a variable of struct type: the variable's node, or NULL */
static struct node *var_root(struct node *n)
{
	while (n->kind == N_MEMBER && n->op == '.')
		n = n->a;
	/* a[k].m: an associative array of structs, or an array variable's */
	if (n->kind == N_INDEX && (is_lvalue(n) || (n->a && n->a->op != '`' &&
			(n->a->kind == N_IDENT || n->a->kind == N_SELF || n->a->kind == N_THIS))))
		return n;
	return n->kind == N_IDENT || n->kind == N_SELF || n->kind == N_THIS ? n : NULL;
}

static bool is_var_member(struct node *n)
{
	return n->kind == N_MEMBER && n->op == '.' && var_root(n);
}

static bool is_struct_value(const struct type *t)
{
	return t->kind == T_STRUCT || t->kind == T_UNION;
}

/* Where a struct value can be copied from: kernel memory or a struct variable */
static bool struct_source(struct node *n)
{
	return n->kind == N_MEMBER || (n->kind == N_UNOP && n->op == '*') ||
	       (n->kind == N_INDEX && n->id != B_ARGS) ||
	       ((n->kind == N_IDENT || n->kind == N_SELF || n->kind == N_THIS) && n->sym);
}

/* The variable an lvalue names: N_INDEX names its array. */
static void lvalue_name(struct node *lv, enum var_kind *kind, const char **name)
{
	struct node *b = lv->kind == N_INDEX ? lv->a : lv;
	*kind = b->kind == N_SELF ? V_SELF : b->kind == N_THIS ? V_THIS : V_GLOBAL;
	*name = b->name;
}

/* The type of the existing variable an lvalue names, or void. */
static struct type *var_type(struct sema *s, struct node *lv)
{
	enum var_kind k;
	const char *name;
	lvalue_name(lv, &k, &name);
	struct var *v = sema_var_find(s, k, name);
	return v ? v->type : &type_void;
}

/* Type the key tuple of an associative array reference. */
static int index_keys(struct sema *s, struct node *lv, struct type **keys, int *nkeys)
{
	int err = 0;
	*nkeys = 0;
	for (struct node *k = lv->list; k; k = k->next) {
		if (sema_expr(s, k)) {
			err = -1;
			continue;
		}
		if (*nkeys == 8)
			return diag_error(s->dg, k->loc, "associative array keys are limited to 8 "
					  "elements");
		sema_coerce_key(s, k); /* a char pointer keys by its value */
		if (!sema_key_type(k->type))
			return diag_error(s->dg, k->loc, "a key of type '%s' is not supported",
					  type_str(k->type));
		keys[(*nkeys)++] = k->type->kind == T_INT ? type_promote(k->type) :
				   k->type->kind == T_PTR ? &type_ulong : k->type;
	}
	if (!err && !*nkeys)
		return diag_error(s->dg, lv->loc, "an associative array needs a key");
	return err;
}

/* An existing variable used with the same shape: scalar or array of the
 * same key signature. */
static int check_shape(struct sema *s, struct node *lv, struct var *v, struct type **keys,
		       int nkeys)
{
	const char *pre = v->kind == V_SELF ? "self->" : "";
	if (v->nkeys != nkeys) {
		if (!v->nkeys || !nkeys)
			return diag_error(s->dg, lv->loc, "%s%s is %s elsewhere", pre, v->name,
					  v->nkeys ? "an associative array" : "a scalar");
		return diag_error(s->dg, lv->loc, "%s%s has %d key%s elsewhere, %d here", pre,
				  v->name, v->nkeys, v->nkeys == 1 ? "" : "s", nkeys);
	}
	for (int i = 0; i < nkeys; i++) {
		if (!sema_keys_match(v->keys[i], keys[i]))
			return diag_error(s->dg, lv->loc, "key %d of %s%s is '%s' elsewhere, '%s' "
					  "here", i + 1, pre, v->name, type_str(v->keys[i]),
					  type_str(keys[i]));
		if (keys[i]->kind == T_INT && keys[i]->size > v->keys[i]->size)
			v->keys[i] = keys[i];
	}
	return 0;
}

int sema_expr(struct sema *s, struct node *n);

static bool addressable(struct node *n)
{
	return n->kind == N_MEMBER || (n->kind == N_UNOP && n->op == '*') ||
	       (n->kind == N_INDEX && n->sym == NULL);
}

/* An array with an address: a kernel one, or a variable's (`int a[5];`),
 * whose own address D refuses (&a) but whose cast to a pointer is C's. */
static bool array_in_memory(struct node *n)
{
	return addressable(n) ||
	       ((n->kind == N_IDENT || n->kind == N_SELF || n->kind == N_THIS) && n->sym &&
		!((struct var *)n->sym)->nkeys);
}

static int check_pointer_op(struct sema *s, struct node *n)
{
	if (n->op == '&' && n->a->kind == N_IDENT && n->a->op == '`') {
		if (n->a->str && strcmp(n->a->str, "vmlinux"))
			return diag_error(s->dg, n->a->loc, "symbols of kernel module '%s' are not "
					  "supported yet", n->a->str);
		n->a->type = &type_void;
		n->type = type_ptr(s->ar, &type_void);
		return 0;
	}
	/* &a[N] is C's one-past-the-end address; only a read of a[N] is refused */
	if (n->op == '&' && n->a->kind == N_INDEX)
		s->addr_of_elem = n->a;
	int err = sema_expr(s, n->a);
	s->addr_of_elem = NULL;
	if (err)
		return -1;
	struct type *t = n->a->type;
	if (n->op == '&') {
		if (n->a->kind == N_IDENT && n->a->op == '`') {
			/* &`sym: its address, resolved by libbpf from kallsyms at load */
			n->type = type_ptr(s->ar, &type_void);
			return 0;
		}
		if (!addressable(n->a))
			return diag_error(s->dg, n->loc, "'&' needs kernel memory: a member, an "
					  "element or a dereference");
		if (sema_is_bitfield(n->a))
			return diag_error(s->dg, n->loc, "cannot take the address of bit-field "
					  "'%s'", n->a->name);
		n->type = type_ptr(s->ar, t);
		return 0;
	}
	if (t->kind != T_PTR)
		return diag_error(s->dg, n->loc, "'*' needs a pointer, not '%s'", type_str(t));
	if (t->ref->kind == T_VOID || t->ref->kind == T_FUNC)
		return diag_error(s->dg, n->loc, "cannot dereference '%s'", type_str(t));
	n->type = t->ref;
	return 0;
}

static int check_binop(struct sema *s, struct node *n)
{
	int err = sema_expr(s, n->a);
	err |= sema_expr(s, n->b);
	if (err)
		return -1;
	struct type *a = n->a->type, *b = n->b->type;
	int fl = sema_float_binop(s, n, ast_op_name(n->op), a, b);
	if (fl <= 0)
		return fl;
	if (n->op == '<' || n->op == '>' || n->op == OP_LE || n->op == OP_GE || n->op == OP_EQ ||
	    n->op == OP_NE) {
		sema_null_compare(s, n);
		a = n->a->type, b = n->b->type;
	}
	if ((a->kind == T_STRING && type_is_stringish(b)) ||
	    (b->kind == T_STRING && type_is_stringish(a))) {
		sema_coerce_string(s, n->a);
		sema_coerce_string(s, n->b);
		a = b = &type_string;
	}
	if (sema_text_operands(s, n)) /* args[2]->ip_daddr == "10.0.0.1" */
		a = b = &type_string;
	if (n->op == '+' && sema_is_string_offset(a, b))
		return sema_string_offset(s, n);
	if ((a->kind == T_PTR || b->kind == T_PTR) && n->op != OP_LAND && n->op != OP_LOR &&
	    n->op != OP_LXOR && type_is_scalar(a) && type_is_scalar(b))
		return sema_pointer_arith(s, n, a, b);
	switch (n->op) {
	case OP_LAND: case OP_LOR: case OP_LXOR:
		if (expect_int(s, n->a, "a logical operator") || expect_int(s, n->b,
									     "a logical operator"))
			return -1;
		n->type = &type_int;
		return 0;
	case '<': case '>': case OP_LE: case OP_GE: case OP_EQ: case OP_NE:
		if (a->kind == T_STRING && b->kind == T_STRING) {
			n->type = &type_int;
			return 0;
		}
		if (type_is_int(a) && type_is_int(b)) {
			n->type = &type_int;
			return 0;
		}
		break;
	default:
		if (type_is_int(a) && type_is_int(b)) {
			int64_t x, y;
			if ((n->op == '/' || n->op == '%') && sema_const_try(n->a, &x) &&
			    sema_const_try(n->b, &y) && !y)
				return diag_error(s->dg, n->b->loc, "%s by zero in a constant "
						  "expression",
						  n->op == '/' ? "division" : "modulo");
			n->type = type_arith(a, b); /* shifts too, as in DTrace */
			return 0;
		}
	}
	return diag_error(s->dg, n->op_loc.len ? n->op_loc : n->loc,
			  "operator '%s' cannot be applied to '%s' and '%s'", ast_op_name(n->op),
			  type_str(a), type_str(b));
}

static int check_lvalue_store(struct sema *s, struct node *lv, struct type *t, bool create)
{
	enum var_kind kind;
	const char *name;
	lvalue_name(lv, &kind, &name);
	if (kind == V_GLOBAL) {
		const struct builtin *bi = builtin_find(name);
		if ((bi && bi->kind == BK_VAR && (bi->type || bi->var)) || !strcmp(name, "self") ||
		    !strcmp(name, "this"))
			return diag_error(s->dg, lv->loc, "cannot assign to builtin variable '%s'",
					  name);
	}
	struct type *keys[8];
	int nkeys = 0;
	if (lv->kind == N_INDEX && index_keys(s, lv, keys, &nkeys))
		return -1;
	struct var *v = sema_var_find(s, kind, name);
	if (!v) {
		if (!create)
			return diag_error(s->dg, lv->loc, "%s%s is never assigned a value",
					  var_prefix(kind), name);
		if (t->kind != T_INT && t->kind != T_STRING && t->kind != T_PTR &&
		    t->kind != T_FLOAT &&
		    !(is_struct_value(t) && t->size && t->size <= 4096))
			return diag_error(s->dg, lv->loc, "cannot store a value of type '%s' in %s%s",
					  type_str(t), var_prefix(kind), name);
		/* narrower values are widened to int like C would */
		v = sema_var_add(s, kind, name, t->kind == T_INT ? type_promote(t) : t, lv->loc);
		v->nkeys = nkeys;
		memcpy(v->keys, keys, sizeof(keys[0]) * (size_t)nkeys);
	} else {
		if (check_shape(s, lv, v, keys, nkeys))
			return -1;
		if ((v->type->kind == T_STRING) != (t->kind == T_STRING) ||
		    ((is_struct_value(v->type) || is_struct_value(t)) &&
		     strcmp(v->type->name, t->name)) ||
		    ((type_is_float(v->type) || type_is_float(t)) && !sema_float_same(v->type, t)))
			return diag_error(s->dg, lv->loc, "cannot assign a value of type '%s' to "
					  "%s%s of type '%s'", type_str(t), var_prefix(kind), name,
					  type_str(v->type));
	}
	lv->sym = v;
	lv->type = v->type;
	return 0;
}

/* A read of an associative array element. */
static int check_typed_index(struct sema *s, struct node *n)
{
	bool end_ok = s->addr_of_elem == n; /* read before the index's own '&'s */
	if (sema_expr(s, n->a))
		return -1;
	struct type *t = sema_unstring(n->a);
	bool str = t->kind == T_STRING;
	if (str) /* s[i]: a char of the string, 0 past its storage */
		t = type_array(s->ar, &type_char, s->strsize);
	if (t->kind != T_PTR && t->kind != T_ARRAY)
		return diag_error(s->dg, n->loc, "'%s' cannot be indexed", type_str(t));
	if (ast_list_len(n->list) != 1)
		return diag_error(s->dg, n->loc, "an array or pointer takes one index");
	if (sema_expr(s, n->list))
		return -1;
	if (!type_is_int(n->list->type))
		return diag_error(s->dg, n->list->loc, "an index must be an integer, not '%s'",
				  type_str(n->list->type));
	if (t->ref->kind == T_VOID || !t->ref->size)
		return diag_error(s->dg, n->loc, "cannot index '%s'", type_str(t));
	/* a constant index is checked against a sized array here; a computed
	 * one into an array variable faults when it runs (cg_addr) */
	int64_t i;
	if (!str && t->kind == T_ARRAY && t->nelem && sema_const_try(n->list, &i) &&
	    (i < 0 || (uint64_t)i > t->nelem ||
	     ((uint64_t)i == t->nelem && !end_ok)))
		return diag_error(s->dg, n->list->loc, "index %lld is out of bounds for an "
				  "array of %llu elements", (long long)i,
				  (unsigned long long)t->nelem);
	n->sym = NULL;
	n->type = t->ref;
	return 0;
}

static int check_index(struct sema *s, struct node *n)
{
	const struct builtin *bi = n->a && n->a->kind == N_IDENT ? builtin_find(n->a->name) : NULL;
	if (bi && bi->id == BI_ARGS) {
		int64_t i;
		struct type *t;
		if (ast_list_len(n->list) != 1 || sema_expr(s, n->list) ||
		    sema_const(s, n->list, &i))
			return -1;
		int r = sema_proc_args(s, n, i);
		if (r <= 0)
			return r;
		if ((r = sema_io_args(s, n, i)) <= 0)
			return r;
		if (sema_args_type(s, n, i, &t))
			return -1;
		n->id = B_ARGS;
		n->bi = bi;
		n->ival = (uint64_t)i;
		n->sym = NULL;
		n->type = t;
		return 0;
	}
	if (bi && bi->id == BI_UREGS)
		return sema_uregs(s, n, bi);
	/* a[k] names an associative array unless a is a typed array or pointer */
	if (n->a && (n->a->kind == N_IDENT || n->a->kind == N_SELF)) {
		enum var_kind k;
		const char *nm;
		lvalue_name(n, &k, &nm);
		struct var *v = sema_var_find(s, k, nm);
		if (v && !v->nkeys)
			return check_typed_index(s, n);
		/* pid[0] and curthread[0]: no associative arrays */
		if (k == V_GLOBAL && !v && bi && bi->kind == BK_VAR && (bi->type || bi->check))
			return check_typed_index(s, n);
	}
	if (!is_lvalue(n))
		return check_typed_index(s, n);
	enum var_kind kind;
	const char *name;
	lvalue_name(n, &kind, &name);
	struct type *keys[8];
	int nkeys;
	if (index_keys(s, n, keys, &nkeys))
		return -1;
	struct var *v = sema_var_find(s, kind, name);
	if (!v)
		return diag_error(s->dg, n->loc, "%s%s is never assigned a value", var_prefix(kind),
				  name);
	if (check_shape(s, n, v, keys, nkeys))
		return -1;
	n->sym = v;
	n->type = v->type;
	return 0;
}

/* A variable keeps the type of its first assignment: an integer variable
 * takes no pointer, a pointer variable no integer but the constant 0. */
static bool int_ptr_mix(const struct type *var, struct node *val)
{
	int64_t v;
	if (var->kind == T_PTR && type_is_int(val->type))
		return !sema_const_try(val, &v) || v;
	return type_is_int(var) && val->type->kind == T_PTR;
}

static int check_assign(struct sema *s, struct node *n)
{
	struct node *lv = n->a;
	if (lv->kind == N_AGG)
		return sema_agg_assign(s, n);
	/* a[i] of an array variable is the variable's own storage, not memory
	 * a pointer reaches */
	if (!sema_is_var_elem(s, lv) && sema_is_pointer_store(s, lv))
		return sema_store(s, n);
	if (is_var_member(lv) || sema_is_var_elem(s, lv)) {
		/* v.m = x, a[i] = x: a member of a struct variable, an element
		 * of an array variable */
		if (sema_expr(s, lv) || sema_expr(s, n->b))
			return -1;
		if (n->op != '=' && sema_float_binop(s, n, arena_printf(s->ar, "%s=",
				ast_op_name(n->op)), lv->type, n->b->type) <= 0)
			return -1;
		bool whole = n->op == '=' && is_struct_value(lv->type) &&
			     is_struct_value(n->b->type) && struct_source(n->b) &&
			     lv->type->size == n->b->type->size &&
			     !strcmp(lv->type->name, n->b->type->name); /* v.m = struct */
		if (!(type_is_scalar(lv->type) && type_is_scalar(n->b->type)) && !whole &&
		    !sema_float_same(lv->type, n->b->type) && !sema_str_copy(n))
			return diag_error(s->dg, n->op_loc.len ? n->op_loc : n->loc,
					  "cannot assign '%s' to %s%s%s of type '%s'",
					  type_str(n->b->type), lv->name ? "member '" : "an element",
					  lv->name ? lv->name : "", lv->name ? "'" : "",
					  type_str(lv->type));
		n->type = lv->type;
		return 0;
	}
	if (!is_lvalue(lv))
		return diag_error(s->dg, lv->loc, "the left side of an assignment must be a "
				  "variable");
	struct type *avt = var_type(s, lv);
	if (avt && avt->kind == T_ARRAY) /* as in C, an array is no lvalue as a whole */
		return diag_error(s->dg, n->op_loc.len ? n->op_loc : n->loc, "operator '%s=' cannot "
				  "be applied to an array", n->op == '=' ? "" : ast_op_name(n->op));
	if (n->op == '=' && n->b->kind == N_XLATE && avt && is_struct_value(avt))
		return sema_xlate_assign(s, n, avt);
	if (sema_expr(s, n->b))
		return -1;
	/* char arrays and addresses become strings, arrays given to pointers addresses */
	if (n->b->type->kind == T_ARRAY || sema_subr_text(n->b->type))
		n->b = sema_array_value(s, avt, n->b, array_in_memory(n->b));
	if (n->op != '=') {
		if (sema_float_binop(s, n, arena_printf(s->ar, "%s=", ast_op_name(n->op)),
				     var_type(s, lv), n->b->type) <= 0)
			return -1;
		if (type_is_int(n->b->type) && check_lvalue_store(s, lv, n->b->type, true))
			return -1;
		if (sema_expr(s, lv))
			return -1;
		if (!type_is_int(lv->type) || !type_is_int(n->b->type))
			return diag_error(s->dg, n->op_loc.len ? n->op_loc : n->loc,
					  "operator '%s=' cannot be applied to '%s' and '%s'",
					  ast_op_name(n->op), type_str(lv->type),
					  type_str(n->b->type));
		n->type = lv->type;
		return 0;
	}
	if (is_struct_value(n->b->type) && !struct_source(n->b))
		return diag_error(s->dg, n->b->loc, "a struct value must come from kernel memory or "
				  "another struct variable");
	struct type *vt = var_type(s, lv);
	n->b = sema_string_value(s, vt, n->b);
	if (int_ptr_mix(vt, n->b)) {
		enum var_kind k;
		const char *name;
		lvalue_name(lv, &k, &name);
		return diag_error(s->dg, lv->loc, "cannot assign a value of type '%s' to %s%s of "
				  "type '%s'", type_str(n->b->type), var_prefix(k), name,
				  type_str(var_type(s, lv)));
	}
	struct type *t = sema_zero_deletes(lv, vt, n->b) ? vt : n->b->type;
	if (check_lvalue_store(s, lv, t, true) || sema_scratch_var(s, n))
		return -1;
	n->type = lv->type;
	return 0;
}

static int check_var_ref(struct sema *s, struct node *n, enum var_kind kind)
{
	struct var *v = sema_var_find(s, kind, n->name);
	if (!v)
		return diag_error(s->dg, n->loc, "%s%s is never assigned a value",
				  var_prefix(kind), n->name);
	if (v->nkeys)
		return diag_error(s->dg, n->loc, "%s%s is an associative array: index it",
				  var_prefix(kind), n->name);
	n->sym = v;
	n->type = v->type;
	return 0;
}

static int check_ident(struct sema *s, struct node *n)
{
	if (n->op == '`') {
		if (n->str && strcmp(n->str, "vmlinux"))
			return diag_error(s->dg, n->loc, "symbols of kernel module '%s' are not "
					  "supported yet", n->str);
		/* only &`sym is an expression (check_pointer_op): BTF describes no
		 * ordinary kernel variable, so its type is the script's to give */
		return ksym_needs_cast(s, n);
	}
	const struct builtin *bi = builtin_find(n->name);
	if (bi && bi->kind == BK_VAR && (bi->flags & BF_LATER))
		return diag_error(s->dg, n->loc, "builtin variable '%s' is not supported yet",
				  n->name);
	if (bi && bi->kind == BK_VAR && (bi->type || bi->check)) {
		n->bi = bi;
		n->id = bi->var;
		n->type = bi->type;
		return bi->check ? bi->check(s, n) : 0;
	}
	int r = sema_expand_name(s, n);
	if (r <= 0)
		return r;
	struct var *v = sema_var_find(s, V_GLOBAL, n->name);
	if (!v && sema_extern_type(s, n->name))
		return sema_extern_use(s, n);
	if (!v)
		return diag_error(s->dg, n->loc, "use of undeclared identifier '%s'", n->name);
	if (v->nkeys)
		return diag_error(s->dg, n->loc, "%s is an associative array: index it", n->name);
	/* D reads a script clause by clause (a clause's body before its
	 * predicate): a global is known from the clause that declares or first
	 * assigns it on. Thread- and clause-locals are not: they default. */
	struct loc cl = s->cur_clause ? s->cur_clause->n->loc : v->loc;
	if (v->loc.file == cl.file && v->loc.off >= cl.off + cl.len)
		return diag_error(s->dg, n->loc, "%s is used before the clause that first "
				  "assigns or declares it", n->name);
	n->sym = v;
	n->type = v->type;
	return 0;
}

static int check_unop(struct sema *s, struct node *n)
{
	if (n->op == '*' || n->op == '&')
		return check_pointer_op(s, n);
	if (n->op == OP_PREINC || n->op == OP_PREDEC || n->op == OP_POSTINC ||
	    n->op == OP_POSTDEC) {
		if (!sema_is_var_elem(s, n->a) && sema_is_pointer_store(s, n->a))
			return sema_step_store(s, n);
		if (is_var_member(n->a) || sema_is_var_elem(s, n->a)) {
			if (sema_expr(s, n->a) || sema_float_unop(s, n, n->a->type) <= 0 ||
			    expect_int(s, n->a, ast_op_name(n->op)))
				return -1;
			n->type = n->a->type;
			return 0;
		}
		if (!is_lvalue(n->a))
			return diag_error(s->dg, n->a->loc, "'%s' needs a variable",
					  ast_op_name(n->op));
		/* x++ on a new variable starts it at 0 and makes it a 64-bit
		 * integer, as DTrace does (trace(x++) prints 8 bytes' width); a
		 * pointer variable steps by its stride */
		struct type *vt = var_type(s, n->a);
		if (sema_float_unop(s, n, vt) <= 0 || sema_step_type(s, n, vt) ||
		    check_lvalue_store(s, n->a, &type_long, true) ||
		    sema_expr(s, n->a) || sema_float_unop(s, n, n->a->type) <= 0 ||
		    (!(n->a->type->kind == T_PTR && type_stride(n->a->type)) &&
		     expect_int(s, n->a, ast_op_name(n->op))))
			return -1;
		n->type = n->a->type;
		return 0;
	}
	if (sema_expr(s, n->a) || sema_float_unop(s, n, n->a->type) <= 0)
		return -1;
	if (n->op == '!') {
		if (n->a->type->kind != T_INT && n->a->type->kind != T_PTR)
			return diag_error(s->dg, n->loc, "operator '!' cannot be applied "
					  "to '%s'", type_str(n->a->type));
		n->type = &type_int;
		return 0;
	}
	if (expect_int(s, n->a, ast_op_name(n->op)))
		return -1;
	n->type = type_promote(n->a->type);
	return 0;
}

static int expr_kind(struct sema *s, struct node *n);

int sema_expr(struct sema *s, struct node *n)
{
	if (s->expr_depth >= SEMA_MAX_EXPR_DEPTH)
		return sema_limit(s, n->loc, "expression is nested too deeply once inlines are "
				  "expanded (more than %d levels)", SEMA_MAX_EXPR_DEPTH);
	s->expr_depth++;
	int err = expr_kind(s, n);
	s->expr_depth--;
	if (err)
		return -1;
	sema_scratch_mark(s, n);
	return 0;
}

static int expr_kind(struct sema *s, struct node *n)
{
	switch (n->kind) {
	case N_INT:
		n->type = sema_int_literal_type(n);
		return 0;
	case N_STR:
		n->type = &type_string;
		return 0;
	case N_IDENT:
		if (n->id == B_TARGET)
			return 0;
		return check_ident(s, n);
	case N_MACRO:
		return sema_macro(s, n);
	case N_SELF:
		return check_var_ref(s, n, V_SELF);
	case N_THIS:
		return check_var_ref(s, n, V_THIS);
	case N_UNOP:
		return check_unop(s, n);
	case N_BINOP:
		return check_binop(s, n);
	case N_ASSIGN:
		return check_assign(s, n);
	case N_COND:
		return sema_cond(s, n);
	case N_COMMA:
		if (sema_expr(s, n->a) || sema_expr(s, n->b))
			return -1;
		n->type = n->b->type;
		return 0;
	case N_CALL:
		return sema_call_value(s, n);
	case N_CAST: {
		struct type *t;
		if (!n->a) /* sema_retype_int()'s cast, checked again: its type stays */
			return sema_expr(s, n->b);
		if (sema_typename(s, n->a, &t) || sema_expr(s, n->b))
			return -1;
		if (t->kind == T_STRING)
			sema_coerce_text(s, n->b); /* (string)inet_ntop(...) */
		if (t->kind == T_STRING && n->b->type->kind == T_STRING) {
			n->type = t;
			return 0;
		}
		if (t->kind == T_STRING && type_is_scalar(n->b->type))
			return sema_cast_to_string(s, n);
		if (t == n->b->type && is_struct_value(t)) /* (struct s)v: v */
			return sema_unwrap(n, n->b);
		if (t->kind == T_PTR && n->b->type->kind == T_ARRAY && array_in_memory(n->b)) {
			n->type = t; /* (int *)a: the array's address, as in C */
			return 0;
		}
		int fl = sema_float_cast(s, n, n->b->type, t);
		if (fl <= 0) {
			n->type = t;
			return fl;
		}
		if (!type_is_scalar(t) || !type_is_scalar(n->b->type))
			return diag_error(s->dg, n->loc, "cannot cast '%s' to '%s'",
					  type_str(n->b->type), type_str(t));
		n->type = t;
		return 0;
	}
	case N_SIZEOF: {
		struct type *t;
		if (n->ival) {
			if (sema_typename(s, n->a, &t))
				return -1;
		} else {
			if (sema_expr(s, n->a))
				return -1;
			t = n->a->type;
		}
		if (t->kind == T_FUNC || t->kind == T_VOID || (!t->size && t->kind != T_STRING))
			return diag_error(s->dg, n->loc, "sizeof() of incomplete type '%s'",
					  type_str(t));
		/* DTrace's string type is char[strsize] */
		uint64_t size = t->kind == T_STRING ? s->strmax : t->size;
		n->kind = N_INT;
		n->ival = size;
		n->iflags = INTF_UNSIGNED | INTF_LONG;
		n->type = &type_ulong;
		return 0;
	}
	case N_STRINGOF:
		return sema_stringof(s, n);
	case N_AGG:
		return diag_error(s->dg, n->loc, "an aggregation cannot be used as a value");
	case N_INDEX:
		return sema_is_param_inline(s, n) ? sema_inline_index(s, n) : check_index(s, n);
	case N_MEMBER:
		return sema_member(s, n);
	case N_OFFSETOF:
		return sema_offsetof(s, n);
	case N_XLATE:
		return sema_xlate(s, n);
	case N_TYPENAME:
		return diag_error(s->dg, n->loc, "a type name is not a value");
	default:
		return diag_error(s->dg, n->loc, "this is not an expression");
	}
}

static int check_decl(struct sema *s, struct node *d)
{
	if (d->kind == N_PRAGMA) {
		if (!strcmp(d->name, "option") && d->a)
			return sema_pragma_option(s, d->a);
		if (!strcmp(d->name, "error"))
			return diag_error(s->dg, d->loc, "#pragma D error: %s", d->str ? d->str : "");
		if (!strcmp(d->name, "depends_on") || !strcmp(d->name, "attributes"))
			return (d->name[0] == 'd' ? sema_pragma_depends : sema_pragma_attributes)(s, d);
		return 0; /* binding, version, line: no effect here */
	}
	int r = sema_define(s, d);
	return r <= 0 ? r : d->ival == ST_EXTERN ? sema_extern_decl(s, d) : sema_var_decl(s, d);
}

/* The trial pass: assignments to variables, in source order, also nested. */
static void pretype(struct sema *s, struct node *st, bool last_round)
{
	if (st->kind == N_COMMA || st->kind == N_COND || st->kind == N_BINOP) {
		struct node *kids[3] = { st->a, st->b, st->kind == N_COND ? st->c : NULL };
		for (int i = 0; i < 3; i++)
			if (kids[i])
				pretype(s, kids[i], last_round);
		return;
	}
	if (st->kind == N_CALL) /* exit(x++) types x too */
		for (struct node *a = st->list; a; a = a->next)
			pretype(s, a, last_round);
	if (st->kind == N_UNOP && (st->op == OP_PREINC || st->op == OP_PREDEC ||
				   st->op == OP_POSTINC || st->op == OP_POSTDEC) && is_lvalue(st->a)) {
		/* p[i]++ of a pointer variable p steps memory, not a variable */
		if (!sema_is_pointer_store(s, st->a))
			check_lvalue_store(s, st->a, &type_long, true);
		return;
	}
	if (st->kind == N_ASSIGN && st->a->kind == N_AGG) {
		if (!sema_agg_find(s, st->a->name ? st->a->name : ""))
			sema_agg_assign(s, st);
		return;
	}
	if (st->kind != N_ASSIGN || !is_lvalue(st->a))
		return;
	enum var_kind k;
	const char *name;
	lvalue_name(st->a, &k, &name);
	if (sema_var_find(s, k, name))
		return;
	if (sema_expr(s, st->b)) {
		/* x[k] = x[k] + 1: a value made from the variable itself is an
		 * integer, the only type arithmetic gives */
		if (last_round)
			check_lvalue_store(s, st->a, &type_int, true);
		return;
	}
	if (st->b->type->kind == T_ARRAY || sema_subr_text(st->b->type))
		sema_coerce_text(s, st->b);
	if (type_is_scalar(st->b->type) || st->b->type->kind == T_STRING ||
	    type_is_float(st->b->type) || (is_struct_value(st->b->type) && struct_source(st->b)))
		check_lvalue_store(s, st->a, st->b->type, true);
}

int sema_check(struct sema *s, struct arena *ar, struct diag *dg, struct node *prog,
	       const struct sema_opts *opts)
{
	memset(s, 0, sizeof(*s));
	s->ar = ar;
	s->dg = dg;
	s->prog = prog;
	s->opts = *opts;
	s->btf = opts->btf;
	sema_set_strsize(s, opts->strsize ? opts->strsize : 256);
	int nclauses = 0;
	for (struct node *n = prog->list; n; n = n->next)
		nclauses += n->kind == N_CLAUSE;
	s->clauses = arena_alloc(ar, sizeof(*s->clauses) * (nclauses + 1));
	/* Options first, -x before the script's: strsize shapes every string. */
	int err = sema_cli_options(s);
	for (struct node *n = prog->list; n; n = n->next)
		if (n->kind == N_PRAGMA)
			err |= check_decl(s, n);
	/* D gives a variable the type of its first assignment; a clause may
	 * read one that a later clause assigns (a return probe written before
	 * its entry probe). A muted trial pass types those assignments first. */
	for (struct node *n = prog->list; n; n = n->next)
		if (n->kind != N_PRAGMA && n->kind != N_CLAUSE)
			err |= check_decl(s, n);
	for (struct node *n = prog->list; n; n = n->next) {
		if (n->kind != N_CLAUSE)
			continue;
		struct clause_info *ci = &s->clauses[s->nclauses++];
		ci->n = n;
		ci->index = s->nclauses;
		n->id = ci->index;
		err |= sema_probes(s, ci);
	}
	diag_mute(dg, true);
	for (int round = 0; round < 2; round++)
		for (int c = 0; c < s->nclauses; c++) {
			s->cur_clause = &s->clauses[c];
			if (s->clauses[c].n->a) /* a predicate's assignments too */
				pretype(s, s->clauses[c].n->a, round == 1);
			for (struct node *st = s->clauses[c].n->b; st; st = st->next)
				pretype(s, st, round == 1);
		}
	diag_mute(dg, false);
	for (int c = 0; c < s->nclauses; c++) {
		s->cur_clause = &s->clauses[c];
		err |= sema_proc_preds(s, &s->clauses[c]);
		err |= sema_clause(s, &s->clauses[c]);
	}
	s->cur_clause = NULL;
	if (!s->nclauses && !err)
		return diag_fatal(dg, "no probes specified");
	if (!err)
		err |= sema_macro_unused(s);
	return err || diag_errors(dg) ? -1 : 0;
}
