/*
 * Types written in the script (casts, declarations) and kernel types from
 * BTF: type names, struct members with a "did you mean", pointers, the
 * places where D turns char arrays and pointers into strings, and the rules
 * for floating-point values (stored, copied and printed, never computed
 * with: every operator and conversion on one is refused here by name),
 * and the types pointer arithmetic and comparisons give.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "btf.h"
#include "diag.h"
#include "sema_internal.h"

struct sema_btf *sema_btf(struct sema *s, struct loc loc)
{
	if (s->btf)
		return s->btf;
	if (s->btf_failed)
		return NULL;
	char why[512];
	s->btf = sema_btf_open(s->ar, s->opts.btf_path, why, sizeof(why));
	if (!s->btf) {
		/* a failure seen by the muted trial pass is reported by the
		 * real one, which must not find it already marked */
		s->btf_failed = !diag_muted(s->dg);
		diag_error(s->dg, loc, "kernel types are needed here, but %s (use --btf FILE)",
			   why);
	}
	return s->btf;
}

/* A struct or union the kernel's BTF defines. */
int sema_kernel_tag(struct sema *s, struct node *ts, struct type **out)
{
	bool is_union = ts->ival == TS_UNION;
	struct sema_btf *b = sema_btf(s, ts->loc);
	if (!b)
		return -1;
	struct type *t = sema_btf_struct(b, ts->name, is_union);
	if (!t) {
		const char *base = strrchr(sema_btf_path(b), '/');
		return diag_error(s->dg, ts->loc, "%s %s is not a type the kernel's BTF has (%s)",
				  is_union ? "union" : "struct", ts->name,
				  base ? base + 1 : sema_btf_path(b));
	}
	*out = t;
	return 0;
}

int sema_typename(struct sema *s, struct node *tn, struct type **out)
{
	struct type *t;
	if (!tn->a)
		return diag_error(s->dg, tn->loc, "expected a type");
	if (sema_tspec(s, tn->a, &t) || sema_declarator_type(s, t, tn->b, out))
		return -1;
	return 0;
}

/* Give an integer expression another integer type, as a cast would. */
void sema_retype_int(struct sema *s, struct node *n, struct type *t)
{
	struct node *inner = arena_new(s->ar, struct node);
	*inner = *n;
	inner->next = NULL;
	n->kind = N_CAST;
	n->a = NULL;
	n->b = inner;
	n->c = n->d = n->list = NULL;
	n->sym = NULL;
	n->type = t;
}

static unsigned edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return 99;
	unsigned d[65][65];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			unsigned c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			unsigned del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
			d[i][j] = c < del ? (c < ins ? c : ins) : (del < ins ? del : ins);
			/* a swap of two neighbours counts as one edit */
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	return d[la][lb];
}

/* Find a member, descending into anonymous struct/union members; the path
 * records each step (struct, member index). */
static bool find_member(struct sema *s, struct type *st, const char *name,
			struct member_path *mp)
{
	if (!st->complete && (!s->btf || sema_btf_complete(s->btf, st)))
		return false;
	for (int i = 0; i < st->nmembers; i++) {
		struct member *m = &st->members[i];
		if (mp->n >= MEMBER_PATH_MAX)
			return false;
		mp->outer[mp->n] = st;
		mp->index[mp->n] = i;
		if (m->name && !strcmp(m->name, name)) {
			mp->n++;
			return true;
		}
		if (!m->name && (m->type->kind == T_STRUCT || m->type->kind == T_UNION)) {
			mp->n++;
			if (find_member(s, m->type, name, mp))
				return true;
			mp->n--;
		}
	}
	return false;
}

static void closest_member(struct sema *s, struct type *st, const char *name, const char **best,
			   unsigned *bestd)
{
	if (!st->complete && (!s->btf || sema_btf_complete(s->btf, st)))
		return;
	for (int i = 0; i < st->nmembers; i++) {
		struct member *m = &st->members[i];
		if (!m->name) {
			if (m->type->kind == T_STRUCT || m->type->kind == T_UNION)
				closest_member(s, m->type, name, best, bestd);
			continue;
		}
		unsigned d = edit_distance(name, m->name);
		if (d < *bestd) {
			*bestd = d;
			*best = m->name;
		}
	}
}

bool sema_find_member(struct sema *s, struct type *st, const char *name,
		      struct member_path *mp)
{
	return find_member(s, st, name, mp);
}

int sema_member(struct sema *s, struct node *n)
{
	if (sema_expr(s, n->a))
		return -1;
	if (n->a->kind == N_XLATE)
		return sema_translated_member(s, n);
	struct type *t = n->a->type;
	bool arrow = n->op == OP_ARROW;
	if (arrow) {
		if (t->kind != T_PTR)
			return diag_error(s->dg, n->op_loc.len ? n->op_loc : n->loc, "'->' needs a "
					  "pointer to a struct or union, not '%s'", type_str(t));
		t = t->ref;
	}
	if (t->kind != T_STRUCT && t->kind != T_UNION)
		return diag_error(s->dg, n->loc, "'%s' needs a struct or union%s, not '%s'",
				  arrow ? "->" : ".", arrow ? " pointer" : "", type_str(n->a->type));
	struct member_path *mp = arena_new(s->ar, struct member_path);
	if (!find_member(s, t, n->name, mp)) {
		if (!t->complete)
			return diag_error(s->dg, n->loc, "%s has no known members", type_str(t));
		const char *best = NULL;
		unsigned bestd = 99;
		closest_member(s, t, n->name, &best, &bestd);
		size_t len = strlen(n->name);
		if (best && bestd <= (len < 6 ? 1 : len / 3))
			return diag_error(s->dg, n->loc, "%s has no member named '%s'; did you mean "
					  "'%s'?", type_str(t), n->name, best);
		return diag_error(s->dg, n->loc, "%s has no member named '%s'", type_str(t),
				  n->name);
	}
	struct member *m = &mp->outer[mp->n - 1]->members[mp->index[mp->n - 1]];
	if (m->bit_size && m->type->kind != T_INT)
		return diag_error(s->dg, n->loc, "bit-field member '%s' is not an integer",
				  n->name);
	n->sym = mp;
	n->type = m->type;
	return 0;
}

bool sema_is_bitfield(const struct node *n)
{
	const struct member_path *mp = n->kind == N_MEMBER ? n->sym : NULL;
	return mp && mp->outer[mp->n - 1]->members[mp->index[mp->n - 1]].bit_size;
}

/* n becomes stringof(n) */
static void wrap_stringof(struct sema *s, struct node *n)
{
	struct node *inner = arena_new(s->ar, struct node);
	*inner = *n;
	inner->next = NULL;
	n->kind = N_STRINGOF;
	n->a = inner;
	n->b = n->c = n->d = n->list = NULL;
	n->sym = NULL;
	n->type = &type_string;
}

/* Where D wants a string, a char array or char pointer becomes one. */
void sema_coerce_string(struct sema *s, struct node *n)
{
	if (type_is_stringish(n->type))
		wrap_stringof(s, n);
}

/* Where D wants a string: sema_coerce_string()'s, and an inet_ntop()-like
 * value (kept as its address bytes for printing and aggregation keys)
 * becomes the string of its text, which BPF code writes (cg_inet.c). */
void sema_coerce_text(struct sema *s, struct node *n)
{
	if (type_is_stringish(n->type) || sema_subr_text(n->type))
		wrap_stringof(s, n);
}

/* An associative array's key: a char array or a subroutine's text is its
 * string, a char pointer its value, as any pointer's (DTrace keys by the
 * address, not the bytes there). */
void sema_coerce_key(struct sema *s, struct node *n)
{
	if (n->type->kind != T_PTR)
		sema_coerce_text(s, n);
}

/* An operator between an address and a string, or two addresses: both
 * become strings, and the operator applies to their text. */
bool sema_text_operands(struct sema *s, struct node *n)
{
	const struct type *a = n->a->type, *b = n->b->type;
	if ((!sema_subr_text(a) && !sema_subr_text(b)) ||
	    (!sema_subr_text(a) && a->kind != T_STRING) ||
	    (!sema_subr_text(b) && b->kind != T_STRING))
		return false;
	sema_coerce_text(s, n->a);
	sema_coerce_text(s, n->b);
	return true;
}

/* stringof(x): a string as it is, the string at a char array, a pointer
 * or an integer address, an address's text */
int sema_stringof(struct sema *s, struct node *n)
{
	if (sema_expr(s, n->a))
		return -1;
	/* any scalar, as in DTrace: an integer is the address of the
	 * string, as a pointer is */
	if (n->a->type->kind != T_STRING && !type_is_stringish(n->a->type) &&
	    !sema_subr_text(n->a->type) && !type_is_scalar(n->a->type))
		return diag_error(s->dg, n->loc, "stringof() cannot apply to a value of "
				  "type '%s'", type_str(n->a->type));
	n->type = &type_string;
	return 0;
}

/* offsetof(type, member): a constant, through anonymous members too */
int sema_offsetof(struct sema *s, struct node *n)
{
	struct type *t;
	if (sema_typename(s, n->a, &t))
		return -1;
	if (t->kind != T_STRUCT && t->kind != T_UNION)
		return diag_error(s->dg, n->loc, "offsetof() needs a struct or union, not '%s'",
				  type_str(t));
	struct member_path mp = { 0 };
	if (!find_member(s, t, n->name, &mp))
		return diag_error(s->dg, n->loc, "%s has no member named '%s'", type_str(t),
				  n->name);
	uint64_t bits = 0;
	for (int i = 0; i < mp.n; i++)
		bits += mp.outer[i]->members[mp.index[i]].bit_off;
	if (mp.outer[mp.n - 1]->members[mp.index[mp.n - 1]].bit_size)
		return diag_error(s->dg, n->loc, "offsetof() of bit-field '%s'", n->name);
	n->kind = N_INT;
	n->ival = bits / 8;
	n->iflags = INTF_UNSIGNED | INTF_LONG;
	n->type = &type_ulong;
	return 0;
}

/* Two float types are the same type when their sizes are (a typedef of
 * double is a double). */
bool sema_float_same(const struct type *a, const struct type *b)
{
	return type_is_float(a) && type_is_float(b) && a->size == b->size;
}

/* A binary operator (or '?:', or a compound assignment) with a float
 * operand: 1 if there is none, else the error. */
int sema_float_binop(struct sema *s, struct node *n, const char *op, struct type *a,
		     struct type *b)
{
	if (!type_is_float(a) && !type_is_float(b))
		return 1;
	return diag_error(s->dg, n->op_loc.len ? n->op_loc : n->loc, "operator '%s' cannot be "
			  "applied to floating-point operands", op);
}

/* A unary operator on a float operand: 1 if the operand is not one. */
int sema_float_unop(struct sema *s, struct node *n, struct type *operand)
{
	if (!type_is_float(operand))
		return 1;
	return diag_error(s->dg, n->loc, "operator '%s' cannot be applied to a floating-point "
			  "operand", ast_op_name(n->op));
}

/* A cast from or to a float type: 1 if neither is one, 0 for the identity
 * cast, else the error (there is no conversion without FP arithmetic). */
int sema_float_cast(struct sema *s, struct node *n, struct type *from, struct type *to)
{
	if (!type_is_float(from) && !type_is_float(to))
		return 1;
	if (sema_float_same(from, to))
		return 0;
	return diag_error(s->dg, n->loc, "cast from '%s' to '%s' is not supported",
			  type_str(from), type_str(to));
}

int sema_unwrap(struct node *n, struct node *with)
{
	struct node *next = n->next;
	struct loc loc = n->loc;
	*n = *with;
	n->next = next;
	n->loc = loc;
	return 0;
}

struct type *sema_unstring(struct node *a)
{
	if (a->kind == N_STRINGOF && type_is_stringish(a->a->type)) {
		struct node *next = a->next;
		*a = *a->a;
		a->next = next;
	}
	return a->type;
}

/* curthread: a struct task_struct * from the kernel's BTF */
int sema_curthread(struct sema *s, struct node *n)
{
	struct sema_btf *btf = sema_btf(s, n->loc);
	struct type *ts = btf ? sema_btf_struct(btf, "task_struct", false) : NULL;
	if (!ts)
		return btf ? diag_error(s->dg, n->loc, "the kernel's BTF has no struct "
					"task_struct") : -1;
	n->type = type_ptr(s->ar, ts);
	return 0;
}

/* curcpu: a cpuinfo_t * (the D library's) to this CPU's DCC_MAP_CPUINFO entry */
int sema_curcpu(struct sema *s, struct node *n)
{
	struct type *ci = sema_user_typedef(s, "cpuinfo_t");
	if (!ci)
		return diag_error(s->dg, n->loc, "the D library lacks cpuinfo_t");
	n->type = type_ptr(s->ar, ci);
	s->uses_curcpu = true;
	return 0;
}

/* c ? a : b: the arms' common type (integers, strings, one pointer type,
 * a pointer and the constant 0) */
int sema_cond(struct sema *s, struct node *n)
{
	int err = sema_expr(s, n->a) | sema_expr(s, n->b) | sema_expr(s, n->c);
	if (err)
		return -1;
	if (!type_is_int(n->a->type) && n->a->type->kind != T_PTR)
		return diag_error(s->dg, n->a->loc, "the condition of '?:' requires an integer "
				  "operand, not '%s'", type_str(n->a->type));
	if (sema_float_binop(s, n, "?:", n->b->type, n->c->type) <= 0)
		return -1;
	if (n->b->type->kind == T_STRING)
		sema_null_string(s, n->c);
	else if (n->c->type->kind == T_STRING)
		sema_null_string(s, n->b);
	bool tb = sema_subr_text(n->b->type), tc = sema_subr_text(n->c->type);
	if (tb && tc) { /* two addresses: the wider value, printed by the runtime */
		n->type = n->b->type->size >= n->c->type->size ? n->b->type : n->c->type;
		return 0;
	}
	if ((tb && n->c->type->kind == T_STRING) || (tc && n->b->type->kind == T_STRING)) {
		sema_coerce_text(s, n->b);
		sema_coerce_text(s, n->c);
	}
	struct type *b = n->b->type, *c = n->c->type;
	if (b->kind == T_STRING && c->kind == T_STRING)
		n->type = &type_string;
	else if (type_is_int(b) && type_is_int(c))
		n->type = type_arith(b, c);
	else if (b->kind == T_PTR && c->kind == T_PTR && !strcmp(type_str(b), type_str(c)))
		n->type = b;
	else if (b->kind == T_PTR && n->c->kind == N_INT && n->c->ival == 0)
		n->type = b; /* p ? p : NULL */
	else if (c->kind == T_PTR && n->b->kind == N_INT && n->b->ival == 0)
		n->type = c;
	else
		return diag_error(s->dg, n->loc, "the arms of '?:' have incompatible types "
				  "'%s' and '%s'", type_str(b), type_str(c));
	return 0;
}

/* pointer +/- integer, pointer - pointer, pointer comparisons */
int sema_pointer_arith(struct sema *s, struct node *n, struct type *a, struct type *b)
{
	bool pa = a->kind == T_PTR, pb = b->kind == T_PTR;
	switch (n->op) {
	case '+':
	case '-':
		if (pa && pb && n->op == '-') {
			if (!type_stride(a))
				return diag_error(s->dg, n->op_loc.len ? n->op_loc : n->loc,
						  "arithmetic on '%s' needs a pointer to a sized type",
						  type_str(a));
			n->type = &type_long;
			return 0;
		}
		if ((pa && type_is_int(b)) || (pb && type_is_int(a) && n->op == '+')) {
			struct type *p = pa ? a : b;
			if (!type_stride(p))
				return diag_error(s->dg, n->op_loc.len ? n->op_loc : n->loc,
						  "arithmetic on '%s' needs a pointer to a sized type",
						  type_str(p));
			n->type = p;
			return 0;
		}
		break;
	case '<': case '>': case OP_LE: case OP_GE: case OP_EQ: case OP_NE:
		n->type = &type_int;
		return 0;
	}
	return diag_error(s->dg, n->op_loc.len ? n->op_loc : n->loc,
			  "operator '%s' cannot be applied to '%s' and '%s'", ast_op_name(n->op),
			  type_str(a), type_str(b));
}
