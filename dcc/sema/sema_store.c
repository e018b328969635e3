/*
 * Stores through a pointer: *p = v, p->m = v, p[i] = v (and their compound
 * forms). D lets a script write only into the scratch memory alloca()
 * gives its clause; codegen checks at run time that the store lands there
 * (an invalid address fault otherwise), so here the left side is typed
 * like a read and the value must fit it.
 */
#include "sema_internal.h"
#include "builtin.h"
#include "diag.h"

/* x, self->x, this->x, or an associative array element x[k] / self->x[k]:
 * these name a variable, stored by the variable paths */
static bool names_var(struct sema *s, struct node *n)
{
	if (n->kind == N_IDENT || n->kind == N_SELF || n->kind == N_THIS)
		return true;
	if (n->kind != N_INDEX || !n->a || (n->a->kind != N_IDENT && n->a->kind != N_SELF))
		return false;
	/* a[i] where a is a scalar pointer variable indexes the pointer */
	enum var_kind k = n->a->kind == N_SELF ? V_SELF : V_GLOBAL;
	struct var *v = sema_var_find(s, k, n->a->name);
	return !v || v->nkeys || v->type->kind != T_PTR;
}

bool sema_is_pointer_store(struct sema *s, struct node *lv)
{
	if (lv->kind == N_UNOP)
		return lv->op == '*';
	if (lv->kind == N_MEMBER) {
		while (lv->kind == N_MEMBER && lv->op == '.')
			lv = lv->a;
		/* v.m of a struct variable is the variable's own storage */
		return lv->kind == N_MEMBER || !names_var(s, lv);
	}
	if (lv->kind == N_INDEX)
		return !names_var(s, lv);
	return false;
}

/* ++ or -- on a variable already typed other than an integer or a pointer:
 * refused for what it is, not for the long the step would store into it. */
int sema_step_type(struct sema *s, struct node *n, struct type *vt)
{
	if (vt == &type_void || vt->kind == T_FLOAT || type_is_int(vt) || vt->kind == T_PTR)
		return 0;
	return diag_error(s->dg, n->a->loc, "'%s' requires an integer or pointer operand, "
			  "not '%s'", ast_op_name(n->op), type_str(vt));
}

int sema_store(struct sema *s, struct node *n)
{
	struct node *lv = n->a;
	if (sema_expr(s, lv) || sema_expr(s, n->b))
		return -1;
	struct type *t = lv->type, *vt = n->b->type;
	struct loc at = n->op_loc.len ? n->op_loc : n->loc;
	if (lv->kind == N_INDEX && lv->id == B_ARGS)
		return diag_error(s->dg, lv->loc, "cannot assign to args[]");
	if (sema_is_bitfield(lv))
		return diag_error(s->dg, lv->loc, "assigning bit-field '%s' through a pointer is "
				  "not supported yet", lv->name);
	if (!type_is_scalar(t))
		return diag_error(s->dg, lv->loc, "storing a value of type '%s' through a pointer "
				  "is not supported yet", type_str(t));
	int64_t c;
	bool null = type_is_int(vt) && sema_const_try(n->b, &c) && !c;
	if (!type_is_scalar(vt) || (t->kind == T_PTR && type_is_int(vt) && !null) ||
	    (type_is_int(t) && vt->kind == T_PTR))
		return diag_error(s->dg, at, "cannot assign '%s' to '%s' through a pointer",
				  type_str(vt), type_str(t));
	if (n->op != '=' && (!type_is_int(t) || !type_is_int(vt)))
		return diag_error(s->dg, at, "operator '%s=' cannot be applied to '%s' and '%s'",
				  ast_op_name(n->op), type_str(t), type_str(vt));
	n->type = t;
	return 0;
}

/* The variable a node reads, or NULL */
static struct var *var_of(struct node *n)
{
	if (n->kind == N_IDENT || n->kind == N_SELF || n->kind == N_THIS)
		return n->sym;
	if (n->kind == N_INDEX && n->id != B_ARGS && n->a &&
	    (n->a->kind == N_IDENT || n->a->kind == N_SELF))
		return n->sym;
	return NULL;
}

/* 0, NULL, (T *)0 */
static bool is_null(struct node *n)
{
	int64_t v;
	while (n->kind == N_CAST && n->b && type_is_scalar(n->type))
		n = n->b;
	return type_is_int(n->type) && sema_const_try(n, &v) && !v;
}

/* Alloca-ness, as DTrace tracks it: alloca() gives a pointer into scratch,
 * casts, pointer arithmetic and variables that hold one keep it, and
 * what such a pointer designates (*p, p->m, p[i], and their members and
 * elements) lies in scratch, where loads and stores are bounds-checked. */
void sema_scratch_mark(struct sema *s, struct node *n)
{
	(void)s;
	unsigned char f = 0;
	struct var *v;
	switch (n->kind) {
	case N_CALL:
		f = n->bi && n->bi->id == BI_ALLOCA ? SCR_VALUE : 0;
		break;
	case N_CAST:
		f = n->b && n->type->kind == T_PTR ? n->b->scratch & SCR_VALUE : 0;
		break;
	case N_BINOP:
		if (n->type->kind == T_PTR)
			f = (n->a->scratch | n->b->scratch) & SCR_VALUE;
		break;
	case N_COND:
		if ((n->b->scratch & SCR_VALUE || is_null(n->b)) &&
		    (n->c->scratch & SCR_VALUE || is_null(n->c)))
			f = (n->b->scratch | n->c->scratch) & SCR_VALUE;
		break;
	case N_COMMA:
		f = n->b->scratch & SCR_VALUE;
		break;
	case N_ASSIGN:
		f = n->b->scratch & SCR_VALUE;
		break;
	case N_UNOP:
		if (n->op == '*')
			f = n->a->scratch & SCR_VALUE ? SCR_PLACE : 0;
		else if (n->op == '&')
			f = n->a->scratch & SCR_PLACE ? SCR_VALUE : 0;
		break;
	case N_MEMBER:
		f = n->a->scratch & (n->op == '.' ? SCR_PLACE : SCR_VALUE) ? SCR_PLACE : 0;
		break;
	case N_INDEX:
		if ((v = var_of(n)))
			f = v->scratch == 1 ? SCR_VALUE : 0;
		else if (n->id != B_ARGS && n->a && n->a->type)
			f = n->a->scratch & (n->a->type->kind == T_ARRAY ? SCR_PLACE : SCR_VALUE)
			    ? SCR_PLACE : 0;
		break;
	default:
		if ((v = var_of(n)))
			f = v->scratch == 1 ? SCR_VALUE : 0;
		break;
	}
	/* an array in scratch stands for a pointer to its first element */
	if ((f & SCR_PLACE) && n->type && n->type->kind == T_ARRAY)
		f |= SCR_VALUE;
	n->scratch = f;
}

int sema_scratch_var(struct sema *s, struct node *n)
{
	struct var *v = var_of(n->a);
	struct node *b = n->b;
	if (!v || v->type->kind != T_PTR || is_null(b))
		return 0;
	if (b->kind == N_COND && (b->b->scratch & SCR_VALUE) != (b->c->scratch & SCR_VALUE) &&
	    !is_null(b->b) && !is_null(b->c))
		return diag_error(s->dg, b->loc, "a conditional choosing between alloca() memory "
				  "and another pointer cannot be assigned to a variable");
	int k = b->scratch & SCR_VALUE ? 1 : 2;
	if (v->scratch && v->scratch != k)
		return diag_error(s->dg, n->a->loc, "%s%s holds %s elsewhere, it cannot hold %s too",
				  v->kind == V_SELF ? "self->" : v->kind == V_THIS ? "this->" : "",
				  v->name, k == 1 ? "a pointer that is not alloca() memory"
						  : "alloca() memory",
				  k == 1 ? "alloca() memory" : "another pointer");
	v->scratch = k;
	return 0;
}

/* v.m = s: a string member of a struct variable takes a copy of s */
bool sema_str_copy(const struct node *n)
{
	return n->op == '=' && n->a->type->kind == T_STRING && n->b->type->kind == T_STRING;
}

/* The value an array (or a subroutine's text) x assigned to a variable of
 * type vt gives: an array in memory assigned to a pointer is its address,
 * as in C (a cast says so to cg); char arrays and addresses are copied as
 * strings, char pointers stay. */
struct node *sema_array_value(struct sema *s, struct type *vt, struct node *x, bool in_memory)
{
	if (vt && vt->kind == T_PTR && x->type->kind == T_ARRAY && in_memory) {
		struct node *c = ast_new(s->ar, N_CAST, x->loc);
		c->b = x;
		c->type = vt;
		return c;
	}
	sema_coerce_text(s, x);
	return x;
}

/* The value x assigned to a variable of type vt gives, for strings: NULL
 * given to a string is the NULL string; a string given to a char pointer is
 * the address of its bytes, as DTrace takes string and char * for each
 * other (a cast says so to cg). Those bytes are the clause's: the pointer is
 * good for the rest of it, or as long as the string variable it came from. */
struct node *sema_string_value(struct sema *s, struct type *vt, struct node *x)
{
	if (vt && vt->kind == T_STRING)
		sema_null_string(s, x);
	if (!vt || vt->kind != T_PTR || !type_is_stringish(vt) || x->type->kind != T_STRING)
		return x;
	struct node *c = ast_new(s->ar, N_CAST, x->loc);
	c->b = x;
	c->type = vt;
	return c;
}

/* ++x and x++ where x lies behind a pointer (*p, p[i], p->m): ++x is
 * x += 1, and x++ is (T)((x += 1) - 1), T x's type, which gives back the
 * old value even where the step wrapped. The store is sema_store()'s. */
int sema_step_store(struct sema *s, struct node *n)
{
	bool inc = n->op == OP_PREINC || n->op == OP_POSTINC;
	bool post = n->op == OP_POSTINC || n->op == OP_POSTDEC;
	if (sema_expr(s, n->a))
		return -1;
	struct type *t = n->a->type;
	if (t->kind == T_PTR)
		return diag_error(s->dg, n->a->loc, "'%s' of a pointer stored behind a pointer is "
				  "not supported yet", ast_op_name(n->op));
	if (!type_is_int(t))
		return diag_error(s->dg, n->a->loc, "'%s' requires an integer or pointer operand, "
				  "not '%s'", ast_op_name(n->op), type_str(t));
	struct node *x = sema_mk_assign(s, inc ? '+' : '-', n->a, sema_mk_int(s, n->loc, 1));
	x->loc = n->loc;
	if (post)
		x = sema_mk_cast(s, sema_mk_binop(s, inc ? '-' : '+', x, sema_mk_int(s, n->loc, 1)),
				 t);
	return sema_become(s, n, x);
}
