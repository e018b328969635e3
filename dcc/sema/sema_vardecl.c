/*
 * Variable declarations: `int x;`, `self string s;`, `this int t;` and
 * declared associative arrays, `uint64_t last[int];` or
 * `self int seen[string, int];`. A declaration fixes what the first
 * assignment would otherwise decide: the value's type and, for an
 * associative array, its key tuple. Uses are then checked against it by
 * sema.c's rules for assignments and indexing.
 */
#include <string.h>

#include "diag.h"
#include "sema_internal.h"

static const char *prefix(enum var_kind k)
{
	return k == V_SELF ? "self->" : k == V_THIS ? "this->" : "";
}

/* A dimension that names nothing: a key type the script misspelt, most
 * likely, rather than a size. */
static int unknown_name(struct sema *s, struct node *dl)
{
	for (struct node *x = dl->list; x; x = x->next) {
		if (x->kind != N_IDENT)
			continue;
		diag_mute(s->dg, true);
		int r = sema_expr(s, x);
		diag_mute(s->dg, false);
		if (r)
			return diag_error(s->dg, x->loc, "unknown type name '%s' in the "
					  "declaration of '%s'", x->name, dl->name);
	}
	return 0;
}

/* A type an associative array's key may have: a scalar, a string, or a
 * complete struct or union, whose bytes are the key (as DTrace keys by its
 * members' values, not its address). */
bool sema_key_type(const struct type *t)
{
	if (t->kind == T_STRUCT || t->kind == T_UNION)
		return t->size && t->size <= SEMA_KEY_STRUCT_MAX;
	return type_is_scalar(t) || t->kind == T_STRING;
}

/* Whether a key used here fits the key the array has elsewhere: integers
 * and pointers fit each other; a string or a struct only its own kind. */
bool sema_keys_match(const struct type *had, const struct type *key)
{
	bool agg_had = had->kind == T_STRUCT || had->kind == T_UNION;
	bool agg_key = key->kind == T_STRUCT || key->kind == T_UNION;
	if (agg_had || agg_key)
		return had == key;
	return (had->kind == T_STRING) == (key->kind == T_STRING);
}

/* `T name[K1, K2...]`: the key types, as index_keys() types a use's keys
 * (integers promoted, pointers as unsigned long). */
static int assoc_keys(struct sema *s, struct node *dl, struct var *v)
{
	for (struct node *x = dl->list; x; x = x->next) {
		struct type *k;
		if (x->kind != N_TYPENAME)
			return diag_error(s->dg, x->loc, "the keys of associative array '%s' are "
					  "types, this is not one", dl->name);
		if (sema_typename(s, x, &k))
			return -1;
		if (v->nkeys == 8)
			return diag_error(s->dg, x->loc, "associative array keys are limited to 8 "
					  "elements");
		if (!sema_key_type(k))
			return diag_error(s->dg, x->loc, "a key of type '%s' is not supported",
					  type_str(k));
		v->keys[v->nkeys++] = k->kind == T_INT ? type_promote(k) :
				      k->kind == T_PTR ? &type_ulong : k;
	}
	return 0;
}

static bool storable(const struct type *t)
{
	if (type_is_scalar(t) || t->kind == T_STRING || t->kind == T_FLOAT)
		return true;
	/* an array of scalars, structs or unions, `int a[5];`, `struct s
	 * b[4];`: its elements (and their members) are read and stored in
	 * place */
	if (t->kind == T_ARRAY)
		return t->nelem && t->size <= 4096 &&
		       (type_is_scalar(t->ref) || ((t->ref->kind == T_STRUCT ||
						    t->ref->kind == T_UNION) && t->ref->size));
	return (t->kind == T_STRUCT || t->kind == T_UNION) && t->size && t->size <= 4096;
}

static int declare(struct sema *s, struct node *d, struct type *base, struct node *dl)
{
	enum var_kind k = d->ival == ST_SELF ? V_SELF : d->ival == ST_THIS ? V_THIS : V_GLOBAL;
	bool assoc = dl->list && dl->list->kind == N_TYPENAME;
	struct type *t;
	if (dl->b)
		return diag_error(s->dg, dl->b->loc, "initializers are not allowed in D "
				  "declarations");
	if (d->ival != ST_NONE && d->ival != ST_SELF && d->ival != ST_THIS &&
	    d->ival != ST_EXTERN)
		return diag_error(s->dg, d->loc, "storage class of '%s' is not supported",
				  dl->name);
	if (d->ival == ST_EXTERN)
		return diag_error(s->dg, d->loc, "extern declarations of kernel symbols are "
				  "not supported yet; use a cast of `%s", dl->name);
	if (assoc && k == V_THIS)
		return diag_error(s->dg, dl->loc, "associative array '%s' cannot be a clause-local "
				  "(this->) variable", dl->name);
	if (!assoc && unknown_name(s, dl))
		return -1;
	/* an associative array's value: the declarator without its keys */
	struct node value = *dl;
	value.list = NULL;
	if (sema_declarator_type(s, base, assoc ? &value : dl, &t))
		return -1;
	/* a function declared without extern is still an external function,
	 * as in C: D only declares it (its return type may be void) */
	if ((dl->iflags & DF_FUNC) && d->ival == ST_NONE)
		return 0;
	if (dl->iflags & DF_FUNC)
		return diag_error(s->dg, dl->loc, "function '%s' cannot be a %s variable", dl->name,
				  k == V_SELF ? "thread-local (self->)" : "clause-local (this->)");
	if ((t->kind == T_STRUCT || t->kind == T_UNION) && !t->size && !t->btf_id)
		return diag_error(s->dg, dl->loc, "'%s' has an incomplete type '%s' (declared "
				  "but not defined)", dl->name, type_str(t));
	if (!storable(t) || (assoc && t->kind == T_ARRAY))
		return diag_error(s->dg, dl->loc, "%s of type '%s' are not supported yet",
				  assoc ? "associative arrays" : "variables", type_str(t));
	if ((t->kind == T_STRUCT || t->kind == T_UNION) && t->btf_id && !sema_btf(s, dl->loc))
		return -1;
	if (sema_var_find(s, k, dl->name))
		return diag_error(s->dg, dl->loc, "%s%s is declared twice", prefix(k), dl->name);
	struct var *v = sema_var_add(s, k, dl->name, t, dl->loc);
	return assoc ? assoc_keys(s, dl, v) : 0;
}

int sema_var_decl(struct sema *s, struct node *d)
{
	struct type *base;
	if (sema_tspec(s, d->a, &base))
		return -1;
	for (struct node *dl = d->list; dl; dl = dl->next)
		if (declare(s, d, base, dl))
			return -1;
	return 0;
}

/* a[i] where a is a variable of array type (`int a[5];`): an element
 * stored in place, not an associative array's */
bool sema_is_var_elem(struct sema *s, struct node *n)
{
	if (n->kind != N_INDEX || !n->a ||
	    (n->a->kind != N_IDENT && n->a->kind != N_SELF && n->a->kind != N_THIS) ||
	    (n->a->kind == N_IDENT && n->a->op == '`'))
		return false;
	enum var_kind k = n->a->kind == N_SELF ? V_SELF : n->a->kind == N_THIS ? V_THIS
									 : V_GLOBAL;
	struct var *v = sema_var_find(s, k, n->a->name);
	return v && !v->nkeys && v->type->kind == T_ARRAY;
}
